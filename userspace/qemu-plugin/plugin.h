/* SPDX-License-Identifier: GPL-2.0 */
/*
 * blockrange's QEMU recorder: a TCG plugin for qemu-x86_64 (user mode,
 * plugin API version 1, QEMU 7.2) that records the taken branches of the
 * program it runs, as sampled rings or as exact counts of every
 * straight-line range, into the recording directory the CLI gave it
 * (qrec_wire.h).  docs/record.md describes the design.
 *
 * This is its private header: the types its units share (blocks, a
 * thread's state, mappings), the plugin's one context, and what each unit
 * offers the others.  Nothing here is exported: the plugin is built with
 * -fvisibility=hidden, and QEMU sees qemu_plugin_version and
 * qemu_plugin_install() (install.c) only.
 *
 * The units, each with one job; a unit calls the units below it in this
 * list: data flows down, from QEMU's callbacks to the files.
 *
 *   install.c    loading: the plugin's arguments, its callbacks registered
 *   syscall.c    system calls: what each one means for the recording
 *   execve.c     following execve under qemu-x86_64 and the plugin again
 *   image.c      fork, exit: a process image ends, a forked child's begins
 *   translate.c  translation: a block's end decoded, its callback set
 *   pair.c       the per-block callbacks (the hot path): a block paired
 *                with the one before by the rules of taken branches
 *   threads.c    a thread's state and files, from its first block to free
 *   exact.c      exact mode: the straight lines and the trace table
 *   ring.c       the countdown of taken branches, sampled mode's ring
 *   stack.c      sampled mode's shadow call stacks (-g)
 *   maps.c       the guest's mappings, read from /proc/self/maps
 *   blocks.c     the block table: keys, expectations, signal handlers
 *   output.c     a thread's files and the records written to them
 *   guest.c      reading the guest's memory
 *   context.c    the context (g, cur), failing, the clock
 *
 * The per-block callbacks (pair.c) are the hot path: what they use of
 * other units is static inline here (way_taken(), range_sync(),
 * ring_reset()) or a rare call kept out of line on purpose (tick(),
 * taken_exact_slow(), th_start()); the build links the units with
 * link-time optimisation, so that calls between units inline as they
 * would in one file.
 */
#ifndef BLOCKRANGE_QEMU_PLUGIN_H
#define BLOCKRANGE_QEMU_PLUGIN_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/qexec.h"
#include "format/qrec_wire.h"
#include "qemu-plugin/qemu_api.h"

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define always_inline inline __attribute__((always_inline))

/* ---- blocks (blocks.c) ---------------------------------------------------- */

/* What ends a block, for pairing it with the next (see step()). */
enum {
	K_PLAIN = 0,	/* no branch: continues at @fall */
	K_COND,
	K_JMP,
	K_CALL,
	K_RET,
	K_IND_JMP,
	K_IND_CALL,
	K_SYSCALL,	/* continues at @fall unless a signal or sigreturn */
	K_REP,		/* rep string: runs again at @last, or continues */
	K_TRAP,		/* an exception: a handler or nothing follows */
	K_START,	/* no block yet: the thread's first one begins */
};

/* How a block ends: what the block that runs after it is compared with. */
struct tend {
	uint64_t last;		/* the last instruction that runs */
	uint64_t fall;		/* where the block continues without a branch */
	uint64_t target;	/* K_COND, K_JMP, K_CALL */
	uint32_t map;		/* its mapping's id (0: none found) */
	uint8_t kind;
	uint8_t pad[3];
};

/* Exact mode: the trace slots a block remembers (see trace_end()). */
#define NHINTS 4

/*
 * A block, 64-byte aligned: what the callback of every block reads (of
 * the block before, and of the block itself) is in the first 64 bytes.
 */
struct tbi {
	/*
	 * What the block that runs next is checked against first (see
	 * on_exec_()), derived from @end by tbi_expect(): it continues
	 * without a branch if its @key (start and mapping, tbi_key(), with
	 * KEY_HANDLER if it is a handler's entry) is @efall; it is a taken
	 * branch if its key, masked with @emask, is @etgt (a direct
	 * branch's target in the same mapping; or, @emask KEY_HANDLER, any
	 * block but a handler's entry); a rep string runs again if its key
	 * is @erep.  Anything else goes to step(), which has the last
	 * word.  NO_ADDR: no block starts there.
	 */
	_Alignas(64) uint64_t efall;
	uint64_t etgt;
	uint64_t emask;
	uint64_t erep;
	uint64_t key;
	uint32_t ninsns;	/* instructions that run */
	uint8_t handler;	/* @start is a signal handler's entry */
	uint8_t pad[3];
	uint64_t start;		/* first instruction */
	struct tend end;
	struct tbi *next;	/* in the intern table */
	/*
	 * Exact mode: the trace slots this block's range end counted last
	 * (the latest first), in some thread's table (see trace_end()).
	 */
	struct qrec_trace *hint[NHINTS];
};

#define NO_ADDR UINT64_MAX	/* no block starts there */
#define NO_KEY (UINT64_MAX - 1)	/* no fall-through has it */
/* In a block's key: it starts where a signal handler does. */
#define KEY_HANDLER (1ull << 63)

/*
 * The thread's block before its first one (K_START: expects nothing),
 * defined in context.c with the context.
 */
extern struct tbi k_start;

/* ---- a thread's state (threads.c) ---------------------------------------- */

/* The interrupted context of a signal handler, restored by sigreturn. */
struct sigframe {
	struct tbi *prev;
	uint64_t rf;
	uint64_t rt;
	uint32_t rfm;
	uint64_t stk_top;	/* the call stack's depth (stack.c) */
};

/*
 * A frame of a thread's shadow call stack (stack.c): the call's return
 * address and the address it stored it at (its slot: the stack pointer
 * after the call).
 */
struct frame {
	uint64_t ret;
	uint64_t slot;
};

/*
 * Exact mode: the straight line a thread runs, known by the taken branch
 * that entered it (from block @a to block @b: the trace's from, from_map
 * and start are @a's last instruction, @a's mapping and @b's start).  Its
 * ways remember how it ended the last times: by a taken branch from block
 * @p (the trace's end and map) to block @c, counted in @slot of the
 * thread's table, and the straight line @c enters, @next.  So the common
 * taken branch is two pointer compares and an increment (way_taken()).
 * Private to one thread; the ways are forgotten whenever the table's
 * slots move (rents_forget()).
 */
struct rway {
	const struct tbi *p;
	const struct tbi *c;
	struct qrec_trace *slot;
	struct rent *next;
};

#define RWAYS 4	/* way_taken() looks at the first two */

struct rent {
	struct rway w[RWAYS];	/* the latest used first (but for hits in
				 * the first two, which stay in place) */
	const struct tbi *a;
	const struct tbi *b;
};

/* The straight lines a thread remembers at most: then it forgets all. */
#define RENTS_MAX (1u << 17)
#define RENTS_MIN_SLOTS 1024u

#define MAX_SIGFRAMES 16
/* A thread's records go through a window of its file, growing to this. */
#define WIN_MIN (64u << 10)
#define WIN_MAX (1u << 20)
#define TRACES_MIN_SLOTS 4096u
#define TRACES_MAX_SLOTS (1u << 22)

struct th {
	/* what every block's callback reads first: in one cache line */
	_Alignas(64) struct tbi *prev;	/* the block it ran last */
	/*
	 * Exact mode: the straight line being run, or @re0 (no ways) when
	 * it was not entered by a taken branch or is not known; the
	 * thread's straight lines, an open-addressed table of @rents_cap.
	 */
	struct rent *re;
	/*
	 * Taken branches: @pos counts them (n.taken is @pos - @taken0, made
	 * up when the counts are copied); @countdown, those left until
	 * tick() (a sample due, or the counts synced), @chunk of them when
	 * it was armed.
	 */
	uint64_t pos;		/* sampled: also the ring's next slot */
	/* sampled (between @pos and @countdown: adjacent, the compiler
	 * updates the two with one vector add, slower) */
	struct qrec_branch *ring;	/* ring_mask + 1 slots, >= depth */
	uint64_t countdown;
	uint64_t ring_mask;
	struct qrec_counts n;	/* its totals, copied to the header page
				 * (counts_sync()) */
	/* the straight line being run: entered from @rf (0: not by a
	 * branch, in mapping @rfm) at @rt */
	uint64_t rf;
	uint64_t rt;
	uint32_t rfm;
	struct qrec_counts *cnt;	/* in the header page */
	uint64_t taken0;
	uint64_t chunk;
	uint64_t base;		/* sampled: pos when the ring was emptied */
	uint64_t to_sample;	/* taken branches until the next sample */
	uint64_t rng;
	/* exact: the table, mapped from its file */
	struct qrec_table *tabh;
	struct qrec_trace *tab;
	size_t tab_cap;		/* a power of 2 */
	size_t tab_nr;
	struct rent **rents;
	size_t rents_cap;	/* a power of 2 */
	size_t rents_nr;
	struct rent re0;
	/* signals */
	struct sigframe sig[MAX_SIGFRAMES];
	unsigned nsig;
	bool sigreturn;		/* the system call running is rt_sigreturn */
	/*
	 * The shadow call stack (g.stack): QREC_STACK_MAX frames in a ring,
	 * the live ones [@stk_bot, @stk_top) (counted since the thread
	 * began); @stk_cut once frames were dropped from its bottom.
	 */
	struct frame *stk;
	uint64_t stk_top;
	uint64_t stk_bot;
	bool stk_cut;
	/* the system call running, for its return */
	int64_t sys;
	uint64_t sa[3];
	uint64_t clone_flags;
	/* the records: header page and the window being written */
	uint32_t seq;		/* the file's number in the image */
	struct qrec_header *hdr;
	uint8_t *win;
	uint64_t win_off;	/* of the window in the file */
	size_t win_len;
	size_t at;		/* next record in the window */
	int32_t tid;
	struct th *next;
};

/* ---- the context (context.c) ------------------------------------------- */

struct map {
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	uint64_t ino;
	uint32_t maj;
	uint32_t min;
	uint32_t id;
	bool live;		/* not touched by a munmap/mmap/... since */
	char *path;
};

#define TBI_BUCKETS 65536
#define TBI_CHUNK 4096

/*
 * follow_exec()'s buffers: the -plugin option of the qemu-x86_64 it
 * starts, what execve would run, the program's argv[0] and paths.
 */
struct exec_bufs {
	char spec[3 * PATH_MAX + 512];
	struct qexec q;
	char real[PATH_MAX];
	char argv0[PATH_MAX];
	char self_exe[64];
};

/*
 * The plugin's one context: QEMU passes its callbacks no context of the
 * plugin's, so the configuration, the image and the tables shared by the
 * threads are this one struct, defined in context.c; the calling thread's
 * own state is cur.
 */
struct plugin {
	/* configuration */
	char dir[PATH_MAX];
	bool exact;
	unsigned depth;
	uint64_t period;
	uint64_t jitter;
	uint64_t seed;
	bool stack;		/* sampled: samples carry the call stack */
	char qemu[PATH_MAX];	/* to follow execve */
	char cpu[64];
	char exe[PATH_MAX];	/* the program (what /proc/self/exe means) */
	char comm[QREC_COMM_LEN];
	char self[PATH_MAX];	/* this plugin */
	/* the image */
	int32_t pid;
	int32_t ppid;
	uint32_t image;		/* N of its files */
	uint32_t flags;		/* QREC_H_* */
	uint64_t t0;
	char *status;		/* the CLI's status page (4096 bytes) */
	bool failed;
	bool ended;
	struct exec_bufs ex;	/* follow_exec()'s */
	pthread_mutex_t lock;	/* everything below, and the thread list */
	struct th *threads;
	uint32_t next_seq;
	struct map *maps;	/* dead ones kept for their ids */
	size_t nr_maps;
	size_t cap_maps;
	uint32_t next_map;
	bool program_seen;	/* the program's mapping recorded */
	struct tbi *tbis[TBI_BUCKETS];
	struct tbi *chunk;
	size_t chunk_used;
	struct tbi **chunks;	/* every chunk, freed at exit */
	size_t nr_chunks;
	uint64_t *handlers;	/* signal handler entries seen */
	size_t nr_handlers;
	size_t cap_handlers;
	uint64_t decode_misses;
	int64_t exit_status;
	bool exit_seen;
	int32_t cloner;		/* the thread that made the last thread */
};

extern struct plugin g;
/* The calling thread's state (NULL until it runs plugin code). */
extern __thread struct th *cur __attribute__((tls_model("initial-exec")));

/* Copy @src into @dst of @size bytes, cut if longer. */
void str_copy(char *dst, size_t size, const char *src);
/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t now(void);
int32_t gettid_(void);

/*
 * The recording cannot go on: put one line in the CLI's status page (or on
 * stderr without one) and end the process, so that nothing runs
 * unrecorded.  The CLI prints the line and fails.
 */
void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* ---- reading the guest's memory (guest.c) -------------------------------- */

/*
 * Read @n bytes of the guest at @addr (guest addresses are ours) without
 * faulting on a bad pointer: false where the system call would fail with
 * EFAULT.
 */
bool guest_read(void *dst, uint64_t addr, size_t n);
/* A NUL-terminated guest string into @dst (@size bytes), or false. */
bool guest_str(char *dst, size_t size, uint64_t addr);
/*
 * The guest's NULL-terminated pointer array at @addr (malloc'ed, its
 * entries guest addresses, @n of them before the NULL), or NULL.
 */
char **guest_argv(uint64_t addr, size_t *n);

/* ---- a thread's files and records (output.c) ----------------------------- */

/*
 * Every thread writes its own files through shared mappings (see
 * qrec_wire.h); records go to @t's window (the caller holds g.lock where
 * other threads may write to @t's file).
 */
/* The path of file @seq of the image, of type @ext (qrec, qtab). */
void file_path(char *buf, size_t size, uint32_t seq, const char *ext);
/* Room for [@off, @off + @len) in the file @fd (@path for messages). */
void file_room(int fd, const char *path, uint64_t off, uint64_t len);
/* [@off, @off + @len) of @fd mapped shared, not inherited by a fork. */
void *file_map(int fd, const char *path, uint64_t off, size_t len);
/* The records file of @t (its header page and first window). */
void stream_open(struct th *t);
/* The thread is done: mark it, give back the room it did not use. */
void stream_close(struct th *t);
/* Room for a record of @size bytes (its header included) in @t's file. */
void *rec_begin(struct th *t, uint32_t type, size_t size);
void rec_comm(struct th *t, const char *comm, bool exec);
void rec_task(struct th *t, uint32_t type, int32_t ppid, int32_t tid,
	      int32_t ptid);
void rec_map(struct th *t, const struct map *m);
void rec_exec(struct th *t, const char *path);
void rec_end(struct th *t, uint32_t how);
/* The totals into the header page, where a kill leaves them. */
void counts_sync(struct th *t);

/* ---- the block table (blocks.c) ------------------------------------------- */

/*
 * The block like @k (its start, end and mapping), interned with its
 * expectations of the next block (g.lock held).
 */
struct tbi *tbi_intern(struct tbi *k);
/* @b starts where a signal handler does (g.lock held). */
void tbi_mark_handler(struct tbi *b);
/* Does a signal handler start at @addr (g.lock held)? */
bool is_handler(uint64_t addr);
/* A handler at @addr: mark the blocks that start there (g.lock not held). */
void add_handler(uint64_t addr);
/* Every block and handler freed (at exit, no block runs any more). */
void blocks_free(void);

/* ---- mappings (maps.c) ----------------------------------------------------- */

/*
 * The live mapping holding @addr, the newest if several do, or NULL
 * (g.lock held).  Mappings are few and this runs at translation only.
 */
struct map *map_find(uint64_t addr);
/*
 * The mapping holding @addr, read from /proc/self/maps and recorded in
 * @t's file if new; a mapping seen before keeps its id.  0 if there is
 * none (g.lock held).
 */
uint32_t map_discover(struct th *t, uint64_t addr);
/* Forget the live mappings that meet [start, end) (g.lock not held). */
void maps_touched(uint64_t start, uint64_t end);
/* Every mapping freed (at exit). */
void maps_free(void);

/* ---- the countdown and the ring (ring.c) ---------------------------------- */

/* Taken branches between two counts_sync() of the fast path at most. */
#define SYNC_EVERY (1u << 16)

/* The countdown to the next tick(): a sample due or SYNC_EVERY. */
void tick_arm(struct th *t);
/* The taken branches until the next sample (the period, jittered). */
uint64_t next_period(struct th *t);
/* The countdown of taken branches ran out (see struct th). */
void __attribute__((noinline)) tick(struct th *t);

/* Sampled mode: the ring starts empty (a break, a signal). */
static inline void ring_reset(struct th *t)
{
	t->base = t->pos;
}

/* ---- call stacks (stack.c) ----------------------------------------------- */

/*
 * The memory callbacks of a call (the store of its return address) and
 * of a ret (the load of it), @udata the block the instruction ends: they
 * keep the thread's shadow call stack, registered only with g.stack.
 */
void on_call_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		 uint64_t vaddr, void *udata);
void on_ret_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		uint64_t vaddr, void *udata);
/* rt_sigreturn: the frames of the handler that returns are gone. */
void stack_sigreturn(struct th *t);

/* ---- exact mode (exact.c) -------------------------------------------------- */

/*
 * @t->rf, @t->rt and @t->rfm hold the straight line being run only while
 * @t->re is @t->re0: else @t->re says it (taken_() stores nothing more).
 * Make them hold it.
 */
static inline void range_sync(struct th *t)
{
	const struct rent *e = t->re;

	if (e != &t->re0) {
		t->rf = e->a->end.last;
		t->rfm = e->a->end.map;
		t->rt = e->b->start;
	}
}

/*
 * Exact mode: one of the ways of the straight line being run is the taken
 * branch from @p to @c: count it there, and go on to the next straight
 * line.  A way knows a branch that was taken; the next block alone
 * decides (struct tbi), except for a handler's entry (step_slow()): a
 * block may become one, so such a block is never looked up.
 */
static always_inline bool way_taken(struct th *t, const struct tbi *p,
				    const struct tbi *c)
{
	struct rent *e = t->re;
	struct rway *w = &e->w[0];

	if (w->p != p || w->c != c) {
		w = &e->w[1];
		if (w->p != p || w->c != c)
			return false;
	}
	w->slot->count++;
	t->re = w->next;
	return true;
}

/* The ways of every straight line of @t, and where it is, are forgotten. */
void rents_forget(struct th *t);
/* The straight lines of @t are freed (the table stays, empty). */
void rents_free(struct th *t);
/* The trace table of @t unmapped (it stays valid in its file). */
void table_close(struct th *t);
/* One more count of the trace (@from, @start, @end) in @t's table. */
struct qrec_trace *trace_add(struct th *t, uint64_t from, uint64_t start,
			     uint64_t end, uint32_t from_map, uint32_t map);
/*
 * The taken branch from @p to @c ends the straight line being run (its
 * ways did not know it): count it, and let the straight line remember it.
 */
void __attribute__((noinline)) taken_exact_slow(struct th *t, struct tbi *p,
						struct tbi *c);
/* The straight line ends at @p's last instruction (no branch). */
void range_close(struct th *t, struct tbi *p);

/* ---- a thread's life (threads.c) ------------------------------------------ */

/* A thread's state and its records file (g.lock not held). */
struct th *th_alloc(int32_t tid);
/* A thread of this image runs plugin code for the first time: cur. */
struct th *th_start(void);
/* Close every open straight line of @t (its own and its signal frames'). */
void th_close_ranges(struct th *t);
/*
 * @t is done: its open straight lines counted, EXIT if @exit_rec, its
 * files closed (its table stays valid in its file).
 */
void th_finish(struct th *t, bool exit_rec);
void th_free(struct th *t);
/* @t off the thread list (g.lock not held). */
void th_unlink(struct th *t);

/* ---- the per-block callbacks (pair.c) ------------------------------------- */

/* Every block's execution callback, @udata its struct tbi, by mode. */
void on_exec_sampled(unsigned int vcpu, void *udata);
void on_exec_exact(unsigned int vcpu, void *udata);

/* ---- translation (translate.c) -------------------------------------------- */

/* A block translated: its end decoded, its execution callback set. */
void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);

/* ---- the image: fork and exit (image.c) ----------------------------------- */

/* In a forked child (@t its thread): a new image of its own. */
void child_after_fork(struct th *t);
/*
 * The image ends (g.lock not held): at exit every thread finishes; at an
 * exec only @self does.  The end record goes to @self.
 */
void image_finish(struct th *self, uint32_t how);
/* QEMU exits: the image ends, everything is freed. */
void on_atexit(qemu_plugin_id_t id, void *udata);

/* ---- following execve (execve.c) ------------------------------------------- */

/*
 * execve(@path, @argv_addr, @envp_addr) of the program (guest addresses):
 * returns only if execve would fail.
 */
void follow_exec(struct th *t, const char *path, uint64_t argv_addr,
		 uint64_t envp_addr);
/* execveat(@dirfd, @path_addr, @argv_addr, @envp_addr, @flags). */
void follow_execveat(struct th *t, uint64_t dirfd, uint64_t path_addr,
		     uint64_t argv_addr, uint64_t envp_addr, uint64_t flags);

/* ---- system calls (syscall.c) ---------------------------------------------- */

/* Before a system call of the guest, and after it returned. */
void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
		uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8);
void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
		    int64_t ret);

#endif /* BLOCKRANGE_QEMU_PLUGIN_H */
