// SPDX-License-Identifier: GPL-2.0
/*
 * blockrange's QEMU recorder: a TCG plugin for qemu-x86_64 (user mode,
 * plugin API version 1, QEMU 7.2) that records the taken branches of the
 * program it runs, as sampled rings or as exact counts of every
 * straight-line range, into the recording directory the CLI gave it
 * (qrec_wire.h).  docs/record.md describes the design; in short:
 *
 *  - When QEMU translates a block, the plugin decodes the block's last
 *    instruction (x86dec.h) and keeps what the block does at its end: the
 *    address of that instruction, its fall-through address, its kind and
 *    its direct target (struct tbi, one per distinct block).
 *  - Every time a block runs, its callback compares it with the block the
 *    same thread ran before: a conditional jump was taken iff this block
 *    starts at its target and not at its fall-through; an unconditional
 *    jump, call, return or indirect branch always is; a block that ended
 *    without a branch (a page boundary, QEMU's instruction limit, a
 *    rep-string iteration, a system call, a page-crossing instruction QEMU
 *    listed truncated) continues the straight line.  Anything else (a
 *    signal handler entered, a sigreturn, fork's return in the child) is a
 *    break: no branch, the straight line ends.
 *  - Sampled mode keeps each thread's last `depth` taken branches in a
 *    ring and writes it every `period` taken branches; exact mode counts
 *    (entering branch source, range start, range end) per thread.
 *  - Mappings: a block in an address range not seen before makes the
 *    plugin read /proc/self/maps (the guest's mappings are the host's,
 *    guest_base is 0, but QEMU's own libraries are there too: a mapping is
 *    recorded only once guest code runs in it); mmap, munmap, mprotect,
 *    mremap and shm calls drop what they touch, so a new mapping at a
 *    reused address is seen afresh.
 *  - Threads: state per host thread (= guest thread), found through TLS;
 *    fork: the child drops its copy of the parent's unwritten data and
 *    opens its own file; execve: the plugin starts qemu-x86_64 with itself
 *    again on the new program (same pid), after writing everything.
 *
 * A QEMU plugin has no context but what its callbacks pass, so its state
 * is one static struct (g) plus the calling thread's (cur).
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "common/hash.h"
#include "qemu_api.h"
#include "common/qexec.h"
#include "format/qrec_wire.h"
#include "common/x86dec.h"

QAPI_EXPORT int qemu_plugin_version = QAPI_VERSION;

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define always_inline inline __attribute__((always_inline))

/* ---- blocks ------------------------------------------------------------ */

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

static struct tbi k_start = {
	.efall = NO_ADDR, .etgt = NO_ADDR, .emask = UINT64_MAX,
	.erep = NO_ADDR, .key = NO_KEY, .end.kind = K_START
};

/*
 * A block's start @addr and its mapping @map in one word: user addresses
 * have 47 bits, mapping ids below 0xffff take the top 16 bits (a larger
 * one gives NO_KEY: step() decides then).
 */
static uint64_t tbi_key(uint64_t addr, uint32_t map)
{
	if (addr >> 48 || map >= 0xffff)
		return NO_KEY;
	return addr | (uint64_t)map << 48;
}

/* @b's expectations of the next block (struct tbi), from its end. */
static void tbi_expect(struct tbi *b)
{
	uint64_t fall = tbi_key(b->end.fall, b->end.map);
	uint64_t target = tbi_key(b->end.target, b->end.map);

	b->key = tbi_key(b->start, b->end.map);
	if (b->handler && b->key != NO_KEY)
		b->key |= KEY_HANDLER;
	b->efall = NO_ADDR;
	b->etgt = NO_ADDR;
	b->emask = UINT64_MAX;
	b->erep = NO_ADDR;
	switch (b->end.kind) {
	case K_PLAIN:
		b->efall = fall;
		break;
	case K_COND:
		b->efall = fall;
		/* a jump to the fall-through: step() says it continues */
		if (b->end.target != b->end.fall)
			b->etgt = target;
		break;
	case K_JMP:
	case K_CALL:
		b->etgt = target;
		break;
	case K_RET:
	case K_IND_JMP:
	case K_IND_CALL:
		b->etgt = 0;
		b->emask = KEY_HANDLER;
		break;
	case K_REP:
		b->efall = fall;
		b->erep = tbi_key(b->end.last, b->end.map);
		break;
	default:	/* system calls, traps: step_slow() */
		break;
	}
	if (b->efall == NO_KEY)
		b->efall = NO_ADDR;
	if (b->etgt == NO_KEY)
		b->etgt = NO_ADDR;
	if (b->erep == NO_KEY)
		b->erep = NO_ADDR;
}

/* @b starts where a signal handler does (g.lock held). */
static void tbi_mark_handler(struct tbi *b)
{
	b->handler = 1;
	if (b->key != NO_KEY)
		__atomic_store_n(&b->key, b->key | KEY_HANDLER, __ATOMIC_RELAXED);
}

/* ---- per-thread state -------------------------------------------------- */

/* The interrupted context of a signal handler, restored by sigreturn. */
struct sigframe {
	struct tbi *prev;
	uint64_t rf;
	uint64_t rt;
	uint32_t rfm;
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

static __thread struct th *cur __attribute__((tls_model("initial-exec")));

/* ---- the image ----------------------------------------------------------- */

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

static struct {
	/* configuration */
	char dir[PATH_MAX];
	bool exact;
	unsigned depth;
	uint64_t period;
	uint64_t jitter;
	uint64_t seed;
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
} g = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* Copy @src into @dst of @size bytes, cut if longer. */
static void str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int32_t gettid_(void)
{
	return (int32_t)syscall(SYS_gettid);
}

/* ---- failing ------------------------------------------------------------- */

/*
 * The recording cannot go on: put one line in the CLI's status page (or on
 * stderr without one) and end the process, so that nothing runs
 * unrecorded.  The CLI prints the line and fails.
 */
static void fatal(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void fatal(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	g.failed = true;
	if (g.status) {
		/* the first message wins: byte 0 is the claim */
		if (__sync_bool_compare_and_swap(&g.status[0], 0, 1)) {
			snprintf(g.status + 8, 4096 - 8, "%s", msg);
			__sync_synchronize();
			g.status[1] = 1;	/* complete */
		}
	} else {
		dprintf(2, "blockrange record: %s\n", msg);
	}
	syscall(SYS_exit_group, 125);
	__builtin_unreachable();
}

/* ---- output ------------------------------------------------------------- */

/*
 * Every thread writes its own files through shared mappings (see
 * qrec_wire.h): whatever it wrote is in the page cache, and survives the
 * process being killed.  No file descriptor stays open (the program could
 * close it or reuse its number); mappings are not inherited by a forked
 * child (MADV_DONTFORK), which starts files of its own.
 */
static void file_path(char *buf, size_t size, uint32_t seq, const char *ext)
{
	snprintf(buf, size, "%s/%d.%u.%u.%s", g.dir, (int)g.pid, g.image, seq,
		 ext);
}

/* Room for [@off, @off + @len) in the file @fd (@path for messages). */
static void file_room(int fd, const char *path, uint64_t off, uint64_t len)
{
	int e = posix_fallocate(fd, (off_t)off, (off_t)len);

	if (e)
		fatal("writing %s: %s", path, strerror(e));
}

static void *file_map(int fd, const char *path, uint64_t off, size_t len)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       (off_t)off);

	if (p == MAP_FAILED)
		fatal("mapping %s: %s", path, strerror(errno));
	madvise(p, len, MADV_DONTFORK);
	return p;
}

/*
 * The records file of @t, number @t->seq of the image.  The image's first
 * thread (seq 0) also takes the image's number: the first N free.
 */
static void stream_open(struct th *t)
{
	char path[PATH_MAX + 64];
	struct qrec_header *h;
	int fd;

	for (;;) {
		file_path(path, sizeof(path), t->seq, "qrec");
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST || t->seq)
			break;
		g.image++;
	}
	if (fd < 0)
		fatal("cannot create %s: %s", path, strerror(errno));
	file_room(fd, path, 0, QREC_HEADER_SIZE + WIN_MIN);
	t->hdr = file_map(fd, path, 0, QREC_HEADER_SIZE);
	t->win = file_map(fd, path, QREC_HEADER_SIZE, WIN_MIN);
	close(fd);
	t->win_off = QREC_HEADER_SIZE;
	t->win_len = WIN_MIN;
	t->at = 0;
	h = t->hdr;
	memcpy(h->magic, QREC_MAGIC, sizeof(h->magic));
	h->version = QREC_VERSION;
	h->size = QREC_HEADER_SIZE;
	h->mode = g.exact ? QREC_EXACT : QREC_SAMPLED;
	h->depth = g.depth;
	h->period = g.period;
	h->jitter = g.jitter;
	h->pid = g.pid;
	h->ppid = g.ppid;
	h->tid = t->tid;
	h->image = g.image;
	h->flags = g.flags;
	h->state = QREC_RUNNING;
	h->time = g.t0;
	t->cnt = &h->counts;
}

/* The next window of @t's file, with room for @need bytes. */
static void stream_advance(struct th *t, size_t need)
{
	char path[PATH_MAX + 64];
	size_t left = t->win_len - t->at, len;
	int fd;

	if (left) {
		struct qrec_rec *pad = (struct qrec_rec *)(t->win + t->at);

		pad->type = QREC_PAD;
		pad->size = (uint32_t)left;
	}
	munmap(t->win, t->win_len);
	t->win_off += t->win_len;
	len = t->win_len < WIN_MAX ? 2 * t->win_len : WIN_MAX;
	while (len < need)
		len *= 2;
	file_path(path, sizeof(path), t->seq, "qrec");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		fatal("cannot reopen %s: %s", path, strerror(errno));
	file_room(fd, path, t->win_off, len);
	t->win = file_map(fd, path, t->win_off, len);
	close(fd);
	t->win_len = len;
	t->at = 0;
}

/* The thread is done: mark it, give back the room it did not use. */
static void stream_close(struct th *t)
{
	char path[PATH_MAX + 64];
	int fd;

	if (!t->hdr)
		return;
	t->n.taken = t->pos - t->taken0;
	t->hdr->counts = t->n;
	t->hdr->state = QREC_FINISHED;
	file_path(path, sizeof(path), t->seq, "qrec");
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		/* on failure the zero-filled room reads as the end anyway */
		(void)!ftruncate(fd, (off_t)(t->win_off + t->at));
		close(fd);
	}
	munmap(t->win, t->win_len);
	munmap(t->hdr, QREC_HEADER_SIZE);
	t->win = NULL;
	t->hdr = NULL;
	t->cnt = NULL;
}

/* Room for a record of @size bytes (its header included) in @t's file. */
static void *rec_begin(struct th *t, uint32_t type, size_t size)
{
	struct qrec_rec *r;

	size = (size + 7) & ~(size_t)7;
	if (t->at + size > t->win_len)
		stream_advance(t, size);
	r = (struct qrec_rec *)(t->win + t->at);
	memset(r + 1, 0, size - sizeof(*r));
	r->size = (uint32_t)size;
	t->at += size;
	/* the type last: a record is complete once it has one */
	__atomic_store_n(&r->type, type, __ATOMIC_RELEASE);
	return r + 1;
}

static void rec_comm(struct th *t, const char *comm, bool exec)
{
	struct qrec_comm *c = rec_begin(t, QREC_COMM, sizeof(struct qrec_rec) +
					sizeof(*c));

	c->time = now();
	c->pid = g.pid;
	c->tid = t->tid;
	c->exec = exec;
	strncpy(c->comm, comm, sizeof(c->comm) - 1);
}

static void rec_task(struct th *t, uint32_t type, int32_t ppid, int32_t tid,
		     int32_t ptid)
{
	struct qrec_task *k = rec_begin(t, type, sizeof(struct qrec_rec) +
					sizeof(*k));

	k->time = now();
	k->pid = g.pid;
	k->ppid = ppid;
	k->tid = tid;
	k->ptid = ptid;
}

static void rec_map(struct th *t, const struct map *m)
{
	size_t len = m->path ? strlen(m->path) : 0;
	struct qrec_map *r = rec_begin(t, QREC_MAP, sizeof(struct qrec_rec) +
				       sizeof(*r) + len);

	r->time = now();
	r->id = m->id;
	r->path_len = (uint32_t)len;
	r->start = m->start;
	r->end = m->end;
	r->pgoff = m->pgoff;
	r->maj = m->maj;
	r->min = m->min;
	r->ino = m->ino;
	if (len)
		memcpy(r + 1, m->path, len);
}

/* The totals into the header page, where a kill leaves them. */
static void counts_sync(struct th *t)
{
	t->n.taken = t->pos - t->taken0;
	if (t->cnt)
		*t->cnt = t->n;
}

/* Taken branches between two counts_sync() of the fast path at most. */
#define SYNC_EVERY (1u << 16)

/* The countdown to the next tick(): a sample due or SYNC_EVERY. */
static void tick_arm(struct th *t)
{
	uint64_t n = SYNC_EVERY;

	if (!g.exact && t->to_sample < n)
		n = t->to_sample;
	t->countdown = n;
	t->chunk = n;
}

/* ---- exact mode: the straight lines (struct rent) --------------------------- */

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

/* The ways of every straight line of @t, and where it is, are forgotten. */
static void rents_forget(struct th *t)
{
	size_t i;

	range_sync(t);
	for (i = 0; i < t->rents_cap; i++)
		if (t->rents[i])
			memset(t->rents[i]->w, 0, sizeof(t->rents[i]->w));
	t->re = &t->re0;
}

/* The straight lines of @t are freed (the table stays, empty). */
static void rents_free(struct th *t)
{
	size_t i;

	range_sync(t);
	for (i = 0; i < t->rents_cap; i++) {
		free(t->rents[i]);
		t->rents[i] = NULL;
	}
	t->rents_nr = 0;
	t->re = &t->re0;
}

static inline size_t rent_hash(const struct tbi *a, const struct tbi *b)
{
	return (size_t)br_hash2((uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b);
}

/* A table of @t's straight lines twice as large (or the first). */
static void rents_grow(struct th *t)
{
	size_t cap = t->rents_cap ? 2 * t->rents_cap : RENTS_MIN_SLOTS, i, k;
	struct rent **n = calloc(cap, sizeof(*n));

	if (!n)
		fatal("out of memory");
	for (i = 0; i < t->rents_cap; i++) {
		struct rent *e = t->rents[i];

		if (!e)
			continue;
		for (k = rent_hash(e->a, e->b) & (cap - 1); n[k];
		     k = (k + 1) & (cap - 1))
			;
		n[k] = e;
	}
	free(t->rents);
	t->rents = n;
	t->rents_cap = cap;
}

/* The straight line entered by a taken branch from @a to @b, in @t. */
static struct rent *rent_get(struct th *t, const struct tbi *a,
			     const struct tbi *b)
{
	struct rent *e;
	size_t k;

	if (2 * (t->rents_nr + 1) > t->rents_cap)
		rents_grow(t);
	for (k = rent_hash(a, b) & (t->rents_cap - 1);;
	     k = (k + 1) & (t->rents_cap - 1)) {
		e = t->rents[k];
		if (!e)
			break;
		if (e->a == a && e->b == b)
			return e;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		fatal("out of memory");
	e->a = a;
	e->b = b;
	t->rents[k] = e;
	t->rents_nr++;
	return e;
}

/* ---- exact mode: the trace table ------------------------------------------ */

static inline size_t trace_hash(uint64_t from, uint64_t start, uint64_t end)
{
	return (size_t)(br_hash2(start, end) ^ br_hash64(from));
}

/* At most this many traces a TRACES record (it fits the smallest window). */
#define TRACES_PER_REC ((WIN_MIN - 64) / sizeof(struct qrec_trace))

/*
 * Write @t's table out as TRACES records: the table then counts nothing
 * more (its valid flag is cleared first, so that a table cut short by a
 * kill is not counted twice).
 */
static void traces_flush(struct th *t)
{
	size_t i = 0, left = t->tab_nr;

	t->tabh->valid = 0;
	while (left) {
		struct qrec_traces *h;
		struct qrec_trace *e;
		uint32_t n = 0, want = left < TRACES_PER_REC ?
				       (uint32_t)left : TRACES_PER_REC;

		h = rec_begin(t, QREC_TRACES, sizeof(struct qrec_rec) +
			      sizeof(*h) + want * sizeof(*e));
		h->pid = g.pid;
		h->tid = t->tid;
		h->nr = want;
		e = (struct qrec_trace *)(h + 1);
		for (; n < want; i++)
			if (t->tab[i].count)
				e[n++] = t->tab[i];
		left -= n;
	}
}

/* A new, empty table of @cap slots, in the thread's table file. */
static void table_open(struct th *t, size_t cap)
{
	char path[PATH_MAX + 64];
	size_t len = sizeof(struct qrec_table) + cap * sizeof(struct qrec_trace);
	int fd;

	file_path(path, sizeof(path), t->seq, "qtab");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fatal("cannot create %s: %s", path, strerror(errno));
	file_room(fd, path, 0, len);
	t->tabh = file_map(fd, path, 0, len);
	close(fd);
	memcpy(t->tabh->magic, QREC_TABLE_MAGIC, sizeof(t->tabh->magic));
	t->tabh->cap = cap;
	t->tab = (struct qrec_trace *)(t->tabh + 1);
	t->tab_cap = cap;
	t->tab_nr = 0;
	t->tabh->valid = 1;
}

static void table_close(struct th *t)
{
	rents_forget(t);
	if (!t->tabh)
		return;
	munmap(t->tabh, sizeof(struct qrec_table) +
	       t->tab_cap * sizeof(struct qrec_trace));
	t->tabh = NULL;
	t->tab = NULL;
	t->tab_cap = 0;
	t->tab_nr = 0;
}

/*
 * The table is half full: its counts go out as TRACES records and a table
 * twice as large (at most TRACES_MAX_SLOTS) starts empty, so that the
 * memory grows with the distinct traces, not with the run time.
 */
static void trace_grow(struct th *t)
{
	size_t cap = t->tab_cap ? 2 * t->tab_cap : TRACES_MIN_SLOTS;

	if (cap > TRACES_MAX_SLOTS)
		cap = TRACES_MAX_SLOTS;
	if (t->tabh) {
		traces_flush(t);
		table_close(t);
	}
	rents_forget(t);
	table_open(t, cap);
	counts_sync(t);
}

static struct qrec_trace *trace_add(struct th *t, uint64_t from,
				    uint64_t start, uint64_t end,
				    uint32_t from_map, uint32_t map)
{
	struct qrec_trace *s;
	size_t k;

	if (unlikely(2 * (t->tab_nr + 1) > t->tab_cap))
		trace_grow(t);
	for (k = trace_hash(from, start, end) & (t->tab_cap - 1);;
	     k = (k + 1) & (t->tab_cap - 1)) {
		s = &t->tab[k];
		if (!s->count)
			break;
		if (s->start == start && s->end == end && s->from == from &&
		    s->map == map && s->from_map == from_map) {
			s->count++;
			return s;
		}
	}
	s->from = from;
	s->start = start;
	s->end = end;
	s->from_map = from_map;
	s->map = map;
	s->count = 1;
	t->tab_nr++;
	return s;
}

/* Does @s, a slot maybe of another thread's table, count this key? */
static inline bool hint_ok(const struct th *t, const struct qrec_trace *s,
			   const struct tbi *p)
{
	return (size_t)(s - t->tab) < t->tab_cap && s->start == t->rt &&
	       s->from == t->rf && s->end == p->end.last &&
	       s->map == p->end.map && s->from_map == t->rfm && s->count;
}

/*
 * The straight line ends at @p's last instruction: count it.  Most times
 * a block ends one of the few ranges it ended last, so the block keeps
 * pointers to those slots (NHINTS of them); one is used only if it lies
 * in this thread's table and holds this very key (blocks are shared by
 * the threads).
 */
static struct qrec_trace *trace_end(struct th *t, struct tbi *p)
{
	struct qrec_trace *s = __atomic_load_n(&p->hint[0], __ATOMIC_RELAXED);
	struct qrec_trace *o = NULL;
	unsigned i, k;

	if (likely(hint_ok(t, s, p))) {
		s->count++;
		return s;
	}
	for (k = 1; k < NHINTS; k++) {
		o = __atomic_load_n(&p->hint[k], __ATOMIC_RELAXED);
		if (hint_ok(t, o, p))
			break;
	}
	if (k < NHINTS) {
		o->count++;
	} else {
		o = trace_add(t, t->rf, t->rt, p->end.last, t->rfm,
			      p->end.map);
		k = NHINTS - 1;
	}
	/* the latest first: the ones before it move down one */
	for (i = k; i > 0; i--)
		__atomic_store_n(&p->hint[i],
				 __atomic_load_n(&p->hint[i - 1], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&p->hint[0], o, __ATOMIC_RELAXED);
	return o;
}

/*
 * The taken branch from @p to @c ends the straight line being run (its
 * ways did not know it): count it (trace_end()), and let the straight
 * line remember it (see struct rent).
 */
static void __attribute__((noinline)) taken_exact_slow(struct th *t,
						       struct tbi *p,
						       struct tbi *c)
{
	struct rent *e = t->re;
	struct qrec_trace *s;
	struct rway w;
	unsigned i;

	/* the ways way_taken() does not look at */
	for (i = 2; i < RWAYS; i++)
		if (e->w[i].p == p && e->w[i].c == c)
			break;
	if (i < RWAYS) {
		w = e->w[i];
		w.slot->count++;
	} else {
		range_sync(t);
		if (t->rents_nr >= RENTS_MAX) {
			rents_free(t);
			e = t->re;
		}
		/* first, as it may move the slots (and forget the ways) */
		s = trace_end(t, p);
		w = (struct rway){ p, c, s, rent_get(t, p, c) };
		i = RWAYS - 1;
		if (e == &t->re0) {
			t->re = w.next;
			return;
		}
	}
	/* the latest first */
	memmove(&e->w[1], &e->w[0], i * sizeof(e->w[0]));
	e->w[0] = w;
	t->re = w.next;
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

/* ---- sampled mode: the ring ----------------------------------------------- */

static uint64_t next_period(struct th *t)
{
	uint64_t r;

	if (!g.jitter)
		return g.period;
	/* xorshift64 */
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	r = t->rng % (2 * g.jitter + 1);
	return g.period + r - g.jitter;	/* jitter < period */
}

static void sample(struct th *t)
{
	uint64_t have = t->pos - t->base, k;
	unsigned n = have < g.depth ? (unsigned)have : g.depth, i;
	struct qrec_sample *s;
	struct qrec_branch *e;

	s = rec_begin(t, QREC_SAMPLE, sizeof(struct qrec_rec) + sizeof(*s) +
		      n * sizeof(*e));
	s->time = now();
	s->pid = g.pid;
	s->tid = t->tid;
	s->nr = n;
	e = (struct qrec_branch *)(s + 1);
	/* newest first */
	for (i = 0, k = t->pos; i < n; i++)
		e[i] = t->ring[--k & t->ring_mask];
	t->n.samples++;
}

/* The countdown of taken branches ran out (see struct th). */
static void __attribute__((noinline)) tick(struct th *t)
{
	if (!g.exact) {
		t->to_sample -= t->chunk;
		if (!t->to_sample) {
			sample(t);
			t->to_sample = next_period(t);
		}
	}
	counts_sync(t);
	tick_arm(t);
}

static inline void ring_reset(struct th *t)
{
	t->base = t->pos;
}

/* ---- pairing blocks -------------------------------------------------------- */

/* One more taken branch: every SYNC_EVERY the totals go to the header page. */
static always_inline void taken_count(struct th *t)
{
	t->pos++;
	if (unlikely(--t->countdown == 0))
		tick(t);
}

/* A taken branch from the last instruction of @p (its end: @pe) to @c. */
static always_inline void taken_(struct th *t, struct tbi *p,
				 const struct tend *pe, struct tbi *c,
				 bool exact)
{
	if (exact) {
		if (!way_taken(t, p, c))
			taken_exact_slow(t, p, c);
	} else {
		struct qrec_branch *e = &t->ring[t->pos & t->ring_mask];

		e->from = pe->last;
		e->to = c->start;
	}
	taken_count(t);
}

static void taken(struct th *t, struct tbi *p, struct tbi *c)
{
	taken_(t, p, &p->end, c, g.exact);
}

/* The straight line ends at @p's last instruction (no branch). */
static void range_close(struct th *t, struct tbi *p)
{
	range_sync(t);
	if (g.exact && t->rt && p->end.kind != K_START)
		trace_add(t, t->rf, t->rt, p->end.last, t->rfm, p->end.map);
	t->rt = 0;
	t->re = &t->re0;
}

/* A new straight line begins at @c, entered by no branch. */
static void range_begin(struct th *t, struct tbi *c)
{
	t->rf = 0;
	t->rfm = 0;
	t->rt = c->start;
	t->re = &t->re0;
	ring_reset(t);
}

static void range_break(struct th *t, struct tbi *p, struct tbi *c)
{
	range_close(t, p);
	range_begin(t, c);
	t->n.breaks++;
}

/* @c is a signal handler's entry that @p did not branch to. */
static void deliver(struct th *t, struct tbi *p, struct tbi *c)
{
	struct sigframe *f;

	range_sync(t);
	if (t->nsig == MAX_SIGFRAMES) {
		/* handlers left by longjmp: forget the oldest */
		f = &t->sig[0];
		if (f->rt && f->prev->end.kind != K_START && g.exact)
			trace_add(t, f->rf, f->rt, f->prev->end.last, f->rfm,
				  f->prev->end.map);
		memmove(&t->sig[0], &t->sig[1], sizeof(t->sig[0]) * (MAX_SIGFRAMES - 1));
		t->nsig--;
	}
	f = &t->sig[t->nsig++];
	f->prev = p;
	f->rf = t->rf;
	f->rt = t->rt;
	f->rfm = t->rfm;
	t->n.signals++;
	t->n.breaks++;
	range_begin(t, c);
}

static void step(struct th *t, struct tbi *p, struct tbi *c);

/* The slow cases of step(). */
static void step_slow(struct th *t, struct tbi *p, struct tbi *c)
{
	switch (p->end.kind) {
	case K_START:
		range_begin(t, c);
		return;
	case K_SYSCALL:
		if (t->sigreturn) {
			struct tbi *q;

			t->sigreturn = false;
			range_close(t, p);
			ring_reset(t);
			t->n.breaks++;
			if (!t->nsig) {
				range_begin(t, c);
				return;
			}
			/* back in the interrupted context */
			t->nsig--;
			t->rf = t->sig[t->nsig].rf;
			t->rt = t->sig[t->nsig].rt;
			t->rfm = t->sig[t->nsig].rfm;
			t->re = &t->re0;
			q = t->sig[t->nsig].prev;
			step(t, q, c);
			return;
		}
		if (c->start == p->end.fall && c->end.map == p->end.map)
			return;
		break;
	case K_REP:
		if (c->start == p->end.last) {
			/* the same instruction again: counted once */
			t->n.insns -= c->ninsns;
			return;
		}
		if (c->start == p->end.fall && c->end.map == p->end.map)
			return;
		break;
	case K_IND_JMP:
	case K_IND_CALL:
		/* a handler's entry reached by an indirect branch: a call */
		taken(t, p, c);
		return;
	default:
		break;
	}
	if (c->handler && c->start != p->end.fall) {
		deliver(t, p, c);
		return;
	}
	range_break(t, p, c);
}

/* Pair the block @c that runs now with @p (its end: @pe), the one before. */
static always_inline void step_(struct th *t, struct tbi *p,
				const struct tend *pe, struct tbi *c,
				bool exact)
{
	switch (pe->kind) {
	case K_PLAIN:
		if (likely(c->start == pe->fall && c->end.map == pe->map))
			return;
		break;
	case K_COND:
		if (c->start == pe->fall)
			return;
		if (c->start == pe->target) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	case K_JMP:
	case K_CALL:
		if (c->start == pe->target) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	case K_RET:
	case K_IND_JMP:
	case K_IND_CALL:
		if (likely(!c->handler)) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	default:
		break;
	}
	step_slow(t, p, c);
}

static void __attribute__((noinline)) step(struct th *t, struct tbi *p,
					    struct tbi *c)
{
	step_(t, p, &p->end, c, g.exact);
}

/*
 * The same rep string instruction again: counted once (out of line, so
 * that the callback adds each block's instructions in one instruction).
 */
static void __attribute__((noinline)) rep_again(struct th *t,
						 const struct tbi *c)
{
	t->n.insns -= c->ninsns;
}

static struct th *th_start(void);

/* The first block a thread runs (no state yet). */
static void __attribute__((noinline)) exec_first(struct tbi *c)
{
	struct th *t = th_start();
	struct tbi *p = t->prev;

	t->prev = c;
	t->n.insns += c->ninsns;
	step(t, p, c);
}

/* What the block before expects of @c, but for the fall-through. */
static always_inline void pair_(struct th *t, struct tbi *p, struct tbi *c,
				bool exact)
{
	if (likely((c->key & p->emask) == p->etgt)) {
		taken_(t, p, &p->end, c, exact);
		return;
	}
	if (c->key == p->erep) {
		rep_again(t, c);
		return;
	}
	step(t, p, c);
}

/* Exact mode: no way of the straight line knew @p to @c (out of line). */
static void __attribute__((noinline)) pair_exact(struct th *t, struct tbi *p,
						  struct tbi *c)
{
	pair_(t, p, c, true);
}

/*
 * The callbacks of every block run, one per mode: the common cases in a
 * few compares against what the block before expects (struct tbi), no
 * jump table, no call but for the rare ones (tail calls: the common
 * cases save no register).
 */
static always_inline void on_exec_(void *udata, bool exact)
{
	struct tbi *c = udata;
	struct th *t = cur;
	struct tbi *p;

	if (unlikely(!t)) {
		exec_first(c);
		return;
	}
	p = t->prev;
	t->prev = c;
	t->n.insns += c->ninsns;
	/* the fall-through, in the same mapping */
	if (likely(c->key == p->efall))
		return;
	if (exact) {
		/* a handler's entry is decided by step() */
		if (likely(!c->handler) && way_taken(t, p, c))
			taken_count(t);
		else
			pair_exact(t, p, c);
		return;
	}
	pair_(t, p, c, false);
}

static void on_exec_sampled(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	on_exec_(udata, false);
}

static void on_exec_exact(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	on_exec_(udata, true);
}

/* ---- threads ---------------------------------------------------------------- */

/* A thread's state and its records file (g.lock not held). */
static struct th *th_alloc(int32_t tid)
{
	struct th *t = aligned_alloc(_Alignof(struct th), sizeof(*t));

	if (!t)
		fatal("out of memory");
	memset(t, 0, sizeof(*t));
	if (!g.exact) {
		for (t->ring_mask = 1; t->ring_mask < g.depth; t->ring_mask <<= 1)
			;
		t->ring = calloc(t->ring_mask, sizeof(*t->ring));
		if (!t->ring)
			fatal("out of memory");
		t->ring_mask--;
	}
	t->tid = tid;
	t->prev = &k_start;
	t->re = &t->re0;
	t->to_sample = g.period;
	t->rng = g.seed ^ br_hash64((uint64_t)tid) ^ 1;
	if (g.jitter)
		t->to_sample = next_period(t);
	tick_arm(t);
	pthread_mutex_lock(&g.lock);
	t->seq = g.next_seq++;
	stream_open(t);
	counts_sync(t);
	t->next = g.threads;
	g.threads = t;
	pthread_mutex_unlock(&g.lock);
	return t;
}

/* A thread of this image runs plugin code for the first time. */
static struct th *th_start(void)
{
	struct th *t = th_alloc(gettid_());

	cur = t;
	rec_task(t, QREC_FORK, g.pid, t->tid, g.cloner ? g.cloner : g.pid);
	return t;
}

/* Close every open straight line of @t (its own and its signal frames'). */
static void th_close_ranges(struct th *t)
{
	range_close(t, t->prev);
	while (t->nsig) {
		struct sigframe *f = &t->sig[--t->nsig];

		if (g.exact && f->rt && f->prev->end.kind != K_START)
			trace_add(t, f->rf, f->rt, f->prev->end.last, f->rfm,
				  f->prev->end.map);
	}
	t->prev = &k_start;
}

/*
 * @t is done: its open straight lines counted, EXIT if @exit_rec, its
 * files closed (its table stays valid in its file).
 */
static void th_finish(struct th *t, bool exit_rec)
{
	th_close_ranges(t);
	if (exit_rec)
		rec_task(t, QREC_EXIT, g.ppid, t->tid, g.ppid);
	table_close(t);
	stream_close(t);
}

static void th_free(struct th *t)
{
	rents_free(t);
	free(t->rents);
	free(t->ring);
	free(t);
}

static void th_unlink(struct th *t)
{
	struct th **pp;

	pthread_mutex_lock(&g.lock);
	for (pp = &g.threads; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	pthread_mutex_unlock(&g.lock);
}

/* ---- mappings ----------------------------------------------------------------- */

/*
 * The live mapping holding @addr, the newest if several do, or NULL
 * (g.lock held).  Mappings are few and this runs at translation only.
 */
static struct map *map_find(uint64_t addr)
{
	struct map *best = NULL;
	size_t i;

	for (i = 0; i < g.nr_maps; i++) {
		struct map *m = &g.maps[i];

		if (m->live && m->start <= addr && addr < m->end &&
		    (!best || m->id > best->id))
			best = m;
	}
	return best;
}

/* Parse one /proc/self/maps line; the path (or NULL) stays in @line. */
static bool parse_maps_line(char *line, struct map *m)
{
	unsigned long long s, e, off, ino;
	unsigned maj, min;
	int pos = 0;
	char *p;

	if (sscanf(line, "%llx-%llx %*4s %llx %x:%x %llu %n", &s, &e, &off,
		   &maj, &min, &ino, &pos) < 6)
		return false;
	memset(m, 0, sizeof(*m));
	m->start = s;
	m->end = e;
	m->pgoff = off;
	m->maj = maj;
	m->min = min;
	m->ino = ino;
	p = line + pos;
	p[strcspn(p, "\n")] = '\0';
	m->path = *p ? p : NULL;
	return true;
}

/*
 * The mapping holding @addr, read from /proc/self/maps; a mapping seen
 * before keeps its id.  0 if there is none (g.lock held).
 */
static uint32_t map_discover(struct th *t, uint64_t addr)
{
	char line[PATH_MAX + 128];
	struct map m, *k;
	bool found = false;
	size_t i;
	FILE *f;

	f = fopen("/proc/self/maps", "re");
	if (!f)
		fatal("cannot read /proc/self/maps: %s", strerror(errno));
	while (fgets(line, sizeof(line), f))
		if (parse_maps_line(line, &m) && m.start <= addr && addr < m.end) {
			found = true;
			break;
		}
	fclose(f);
	if (!found)
		return 0;
	for (i = 0; i < g.nr_maps; i++) {
		k = &g.maps[i];
		if (k->start == m.start && k->end == m.end &&
		    k->pgoff == m.pgoff && k->ino == m.ino &&
		    k->maj == m.maj && k->min == m.min &&
		    !strcmp(k->path ? k->path : "", m.path ? m.path : "")) {
			k->live = true;
			return k->id;
		}
	}
	if (g.nr_maps == g.cap_maps) {
		size_t cap = g.cap_maps ? 2 * g.cap_maps : 64;
		struct map *n = realloc(g.maps, cap * sizeof(*n));

		if (!n)
			fatal("out of memory");
		g.maps = n;
		g.cap_maps = cap;
	}
	m.path = m.path ? strdup(m.path) : NULL;
	m.id = ++g.next_map;
	m.live = true;
	g.maps[g.nr_maps++] = m;
	rec_map(t, &m);
	return m.id;
}

/* Forget the live mappings that meet [start, end) (g.lock not held). */
static void maps_touched(uint64_t start, uint64_t end)
{
	size_t i;

	pthread_mutex_lock(&g.lock);
	for (i = 0; i < g.nr_maps; i++)
		if (g.maps[i].start < end && start < g.maps[i].end)
			g.maps[i].live = false;
	pthread_mutex_unlock(&g.lock);
}

/* ---- translation ------------------------------------------------------------------ */

static bool is_handler(uint64_t addr)
{
	size_t i;

	for (i = 0; i < g.nr_handlers; i++)
		if (g.handlers[i] == addr)
			return true;
	return false;
}

static struct tbi *tbi_intern(struct tbi *k)
{
	size_t h = (size_t)(br_hash64(k->start) % TBI_BUCKETS);
	struct tbi *b;

	for (b = g.tbis[h]; b; b = b->next)
		if (b->start == k->start && b->end.last == k->end.last &&
		    b->end.fall == k->end.fall && b->end.target == k->end.target &&
		    b->ninsns == k->ninsns && b->end.map == k->end.map &&
		    b->end.kind == k->end.kind)
			return b;
	if (!g.chunk || g.chunk_used == TBI_CHUNK) {
		struct tbi **cs = realloc(g.chunks, (g.nr_chunks + 1) * sizeof(*cs));

		if (!cs || !(g.chunk = aligned_alloc(_Alignof(struct tbi),
						     TBI_CHUNK * sizeof(*g.chunk))))
			fatal("out of memory");
		memset(g.chunk, 0, TBI_CHUNK * sizeof(*g.chunk));
		g.chunks = cs;
		g.chunks[g.nr_chunks++] = g.chunk;
		g.chunk_used = 0;
	}
	b = &g.chunk[g.chunk_used++];
	*b = *k;
	tbi_expect(b);
	b->next = g.tbis[h];
	g.tbis[h] = b;
	return b;
}

static uint8_t kind_of(enum xd_kind k)
{
	switch (k) {
	case XD_COND: return K_COND;
	case XD_JMP: return K_JMP;
	case XD_CALL: return K_CALL;
	case XD_RET: return K_RET;
	case XD_IND_JMP: return K_IND_JMP;
	case XD_IND_CALL: return K_IND_CALL;
	case XD_SYSCALL: return K_SYSCALL;
	case XD_REP: return K_REP;
	case XD_TRAP: return K_TRAP;
	default: return K_PLAIN;
	}
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *li;
	struct th *t = cur ? cur : th_start();
	struct tbi k;
	struct xd_insn d;
	size_t size;
	int r;

	(void)id;
	if (!n)
		return;
	memset(&k, 0, sizeof(k));
	li = qemu_plugin_tb_get_insn(tb, n - 1);
	k.start = qemu_plugin_tb_vaddr(tb);
	k.end.last = qemu_plugin_insn_vaddr(li);
	size = qemu_plugin_insn_size(li);
	r = xd_decode(qemu_plugin_insn_data(li), size, k.end.last, &d);
	if (r == 0 && n > 1) {
		/*
		 * QEMU 7.2 lists an instruction that crosses into the next
		 * page cut short as the block's last, but does not run it
		 * there: the next block starts at it.
		 */
		k.end.fall = k.end.last;
		k.end.last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 2));
		k.ninsns = (uint32_t)n - 1;
		k.end.kind = K_PLAIN;
	} else {
		k.end.fall = k.end.last + size;
		k.ninsns = (uint32_t)n;
		k.end.kind = r > 0 ? kind_of(d.kind) : K_PLAIN;
		k.end.target = r > 0 ? d.target : 0;
	}
	pthread_mutex_lock(&g.lock);
	if (r < 0 || (r > 0 && (size_t)r != size))
		g.decode_misses++;
	if (!g.program_seen) {
		/*
		 * The program's own mapping first, as perf records it at exec:
		 * the loader runs before any block of the program, and a
		 * sample taken there must find the program already mapped.
		 */
		uint64_t code = qemu_plugin_start_code();

		g.program_seen = true;
		if (code && !map_find(code))
			map_discover(t, code);
	}
	{
		struct map *m = map_find(k.start);

		k.end.map = m ? m->id : map_discover(t, k.start);
	}
	k.handler = is_handler(k.start);
	{
		struct tbi *b = tbi_intern(&k);

		if (k.handler)
			tbi_mark_handler(b);
		pthread_mutex_unlock(&g.lock);
		qemu_plugin_register_vcpu_tb_exec_cb(tb, g.exact ? on_exec_exact :
						     on_exec_sampled,
						     QEMU_PLUGIN_CB_NO_REGS, b);
	}
}

/* A handler at @addr: mark the blocks that start there (g.lock not held). */
static void add_handler(uint64_t addr)
{
	struct tbi *b;
	size_t h;

	if (addr <= 1)	/* SIG_DFL, SIG_IGN */
		return;
	pthread_mutex_lock(&g.lock);
	if (!is_handler(addr)) {
		if (g.nr_handlers == g.cap_handlers) {
			size_t cap = g.cap_handlers ? 2 * g.cap_handlers : 16;
			uint64_t *n = realloc(g.handlers, cap * sizeof(*n));

			if (!n)
				fatal("out of memory");
			g.handlers = n;
			g.cap_handlers = cap;
		}
		g.handlers[g.nr_handlers++] = addr;
		h = (size_t)(br_hash64(addr) % TBI_BUCKETS);
		for (b = g.tbis[h]; b; b = b->next)
			if (b->start == addr)
				tbi_mark_handler(b);
	}
	pthread_mutex_unlock(&g.lock);
}

/* ---- fork, exec, exit ------------------------------------------------------------- */

/*
 * In a forked child: a new image of its own.  The parent's mappings are
 * not here (MADV_DONTFORK) and its threads' data is the parent's.
 */
static void child_after_fork(struct th *t)
{
	struct th *o, *nx;
	size_t i;

	g.ppid = g.pid;
	g.pid = (int32_t)getpid();
	g.image = 0;
	g.next_seq = 0;
	g.flags = QREC_H_FORKED;
	g.t0 = now();
	g.decode_misses = 0;
	g.exit_seen = false;
	g.ended = false;
	for (o = g.threads; o; o = nx) {
		nx = o->next;
		if (o != t)
			th_free(o);
	}
	g.threads = t;
	t->next = NULL;
	t->tid = gettid_();
	t->hdr = NULL;
	t->win = NULL;
	t->cnt = NULL;
	t->tabh = NULL;
	t->tab = NULL;
	t->tab_cap = 0;
	t->tab_nr = 0;
	rents_forget(t);
	t->nsig = 0;
	t->sigreturn = false;
	t->prev = &k_start;	/* fork's return: a new straight line */
	memset(&t->n, 0, sizeof(t->n));
	t->taken0 = t->pos;
	ring_reset(t);
	pthread_mutex_lock(&g.lock);
	t->seq = g.next_seq++;
	stream_open(t);
	counts_sync(t);
	rec_task(t, QREC_FORK, g.ppid, t->tid, t->tid);
	rec_comm(t, g.comm, false);
	/* the mappings it inherited, the live ones last (they win) */
	for (i = 0; i < g.nr_maps; i++)
		if (!g.maps[i].live)
			rec_map(t, &g.maps[i]);
	for (i = 0; i < g.nr_maps; i++)
		if (g.maps[i].live)
			rec_map(t, &g.maps[i]);
	pthread_mutex_unlock(&g.lock);
}

static void rec_end(struct th *t, uint32_t how)
{
	struct qrec_end *e = rec_begin(t, QREC_END, sizeof(struct qrec_rec) +
				       sizeof(*e));

	e->time = now();
	e->pid = g.pid;
	e->how = how;
	e->status = g.exit_status;
	e->decode_misses = g.decode_misses;
	e->maps = g.next_map;
}

/*
 * The image ends (g.lock not held): at exit every thread is stopped and
 * finishes; at an exec only @self does (the others are ended by the exec,
 * their data is in their files already).  The end record goes to @self.
 */
static void image_finish(struct th *self, uint32_t how)
{
	struct th *t;

	pthread_mutex_lock(&g.lock);
	if (how != QREC_END_EXEC)
		for (t = g.threads; t; t = t->next)
			if (t != self)
				th_finish(t, true);
	th_close_ranges(self);
	rec_end(self, how);
	th_finish(self, how != QREC_END_EXEC);
	g.ended = true;
	pthread_mutex_unlock(&g.lock);
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	struct th *t, *nx, *self = cur;
	size_t i;

	(void)id;
	(void)udata;
	if (g.failed || g.ended)
		return;
	if (!self)
		self = th_alloc(gettid_());
	image_finish(self, g.exit_seen ? QREC_END_EXIT : QREC_END_SIGNAL);
	for (t = g.threads; t; t = nx) {
		nx = t->next;
		th_free(t);
	}
	g.threads = NULL;
	cur = NULL;
	for (i = 0; i < g.nr_chunks; i++)
		free(g.chunks[i]);
	free(g.chunks);
	for (i = 0; i < g.nr_maps; i++)
		free(g.maps[i].path);
	free(g.maps);
	free(g.handlers);
}

/*
 * Read @n bytes of the guest at @addr (guest addresses are ours) without
 * faulting on a bad pointer: the system call would fail with EFAULT, the
 * plugin must not crash QEMU.
 */
static bool guest_read(void *dst, uint64_t addr, size_t n)
{
	struct iovec l = { dst, n }, r = { (void *)(uintptr_t)addr, n };

	return addr && process_vm_readv(getpid(), &l, 1, &r, 1, 0) == (ssize_t)n;
}

/* A NUL-terminated guest string into @dst (@size bytes), or false. */
static bool guest_str(char *dst, size_t size, uint64_t addr)
{
	size_t got = 0;

	while (got + 1 < size) {
		/* up to the end of the page, so no read spans into a hole */
		size_t chunk = 4096 - ((addr + got) & 4095);
		char *nul;

		if (chunk > size - 1 - got)
			chunk = size - 1 - got;
		if (!guest_read(dst + got, addr + got, chunk))
			return false;
		nul = memchr(dst + got, '\0', chunk);
		if (nul)
			return true;
		got += chunk;
	}
	return false;
}

/* The guest's NULL-terminated pointer array at @addr (malloc'ed), or NULL. */
static char **guest_argv(uint64_t addr, size_t *n)
{
	char **v = NULL;
	size_t cap = 0;

	*n = 0;
	if (!addr)
		return calloc(1, sizeof(*v));
	for (;;) {
		uint64_t p;

		if (*n + 1 >= cap) {
			char **x;

			cap = cap ? 2 * cap : 64;
			x = realloc(v, cap * sizeof(*v));
			if (!x) {
				free(v);
				return NULL;
			}
			v = x;
		}
		if (!guest_read(&p, addr + 8 * *n, sizeof(p))) {
			free(v);
			return NULL;
		}
		v[*n] = (char *)(uintptr_t)p;
		if (!p)
			return v;
		++*n;
	}
}

/* Append ",K=V" to the plugin option @spec, commas doubled as QEMU wants. */
static bool spec_add(char *spec, size_t size, const char *k, const char *v)
{
	size_t n = strlen(spec);
	int w = snprintf(spec + n, size - n, ",%s=", k);

	if (w < 0 || (size_t)w >= size - n)
		return false;
	n += (size_t)w;
	for (; *v; v++) {
		if (n + 3 > size)
			return false;
		spec[n++] = *v;
		if (*v == ',')
			spec[n++] = ',';
	}
	spec[n] = '\0';
	return true;
}

static bool spec_add_u64(char *spec, size_t size, const char *k, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	return spec_add(spec, size, k, num);
}

/*
 * execve(@path, @argv_addr, @envp_addr) of the program (guest addresses):
 * qemu-x86_64 would run the new program natively, unrecorded, so run it
 * under qemu-x86_64 and this plugin instead, same pid.  A file that
 * execve would refuse (or arguments it would fault on) is left to fail as
 * it would.
 */
static void follow_exec(struct th *t, const char *path, uint64_t argv_addr,
			uint64_t envp_addr)
{
	static char spec[3 * PATH_MAX + 512];
	static struct qexec q;
	static char real[PATH_MAX], argv0[PATH_MAX], self_exe[64];
	char comm[QREC_COMM_LEN];
	const char *run = path;
	const char *base;
	char **argv, **envp, **args;
	size_t nargs, nenv, i, k;
	int res;

	argv = guest_argv(argv_addr, &nargs);
	envp = guest_argv(envp_addr, &nenv);
	if (!argv || !envp || (nargs && !guest_str(argv0, sizeof(argv0),
						  (uint64_t)(uintptr_t)argv[0])))
		goto out;
	snprintf(self_exe, sizeof(self_exe), "/proc/%d/exe", (int)g.pid);
	if (!strcmp(path, "/proc/self/exe") || !strcmp(path, self_exe)) {
		run = g.exe;
	} else if (!strncmp(path, "/proc/self/fd/", 14) ||
		   !strncmp(path, "/dev/fd/", 8)) {
		ssize_t n = readlink(path, real, sizeof(real) - 1);

		if (n > 0) {
			real[n] = '\0';
			run = real;
		}
	}
	res = qexec_resolve(run, nargs ? argv0 : path, &q);
	if (res == QEXEC_ERRNO || res == QEXEC_UNKNOWN)
		goto out;	/* execve fails (or a shell runs it itself) */
	if (res == QEXEC_FOREIGN)
		fatal("%s: cannot follow execve of %s (%s): qemu-x86_64 records x86-64 programs only",
		      g.comm, path, q.why);
	if (res == QEXEC_LOOP)
		fatal("%s: cannot follow execve of %s: more than %d #! levels",
		      g.comm, path, QEXEC_DEPTH);
	/* everything of this image is written before it is replaced */
	{
		struct qrec_exec *e;
		size_t len = strlen(path);

		pthread_mutex_lock(&g.lock);
		e = rec_begin(t, QREC_EXEC, sizeof(struct qrec_rec) + sizeof(*e) +
			      len);
		e->time = now();
		e->pid = g.pid;
		e->tid = t->tid;
		e->path_len = (uint32_t)len;
		memcpy(e + 1, path, len);
		pthread_mutex_unlock(&g.lock);
	}
	image_finish(t, QREC_END_EXEC);
	base = strrchr(path, '/');
	str_copy(comm, sizeof(comm), base ? base + 1 : path);
	snprintf(spec, sizeof(spec), "%s", g.self);
	if (!spec_add(spec, sizeof(spec), "out", g.dir) ||
	    !spec_add(spec, sizeof(spec), "mode", g.exact ? "exact" : "sampled") ||
	    !spec_add_u64(spec, sizeof(spec), "depth", g.depth) ||
	    !spec_add_u64(spec, sizeof(spec), "period", g.period) ||
	    !spec_add_u64(spec, sizeof(spec), "jitter", g.jitter) ||
	    !spec_add_u64(spec, sizeof(spec), "seed", g.seed + 1) ||
	    !spec_add(spec, sizeof(spec), "qemu", g.qemu) ||
	    !spec_add(spec, sizeof(spec), "cpu", g.cpu) ||
	    !spec_add(spec, sizeof(spec), "exe", q.exe) ||
	    !spec_add(spec, sizeof(spec), "comm", comm))
		fatal("%s: cannot follow execve of %s: paths too long", g.comm,
		      path);
	args = calloc(nargs + (size_t)q.nhead + 10, sizeof(*args));
	if (!args)
		fatal("out of memory");
	k = 0;
	args[k++] = g.qemu;
	args[k++] = "-cpu";
	args[k++] = g.cpu;
	args[k++] = "-plugin";
	args[k++] = spec;
	args[k++] = "-0";
	args[k++] = (char *)q.head[0];
	args[k++] = q.exe;
	for (i = 1; i < (size_t)q.nhead; i++)
		args[k++] = (char *)q.head[i];
	for (i = 1; i < nargs; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	execve(g.qemu, args, envp);
	/* the image is gone already: nothing may run unrecorded */
	fatal("%s: cannot follow execve of %s: starting %s: %s", g.comm, path,
	      g.qemu, strerror(errno));
out:
	free(argv);
	free(envp);
}

/* ---- system calls ------------------------------------------------------------- */

/* execveat(@dirfd, @path_addr, @argv_addr, @envp_addr, @flags). */
static void follow_execveat(struct th *t, uint64_t dirfd, uint64_t path_addr,
			    uint64_t argv_addr, uint64_t envp_addr,
			    uint64_t flags)
{
	char rel[PATH_MAX], path[PATH_MAX];

	if (!guest_str(rel, sizeof(rel), path_addr))
		return;
	if ((int)dirfd != AT_FDCWD && rel[0] != '/') {
		/* relative to a directory fd, or the fd itself */
		if (!rel[0] && (flags & AT_EMPTY_PATH))
			snprintf(path, sizeof(path), "/proc/self/fd/%d",
				 (int)dirfd);
		else if (snprintf(path, sizeof(path), "/proc/self/fd/%d/%s",
				  (int)dirfd, rel) >= (int)sizeof(path))
			return;
	} else {
		memcpy(path, rel, sizeof(rel));
	}
	follow_exec(t, path, argv_addr, envp_addr);
}

static void on_syscall(qemu_plugin_id_t id, unsigned int vcpu, int64_t num,
		       uint64_t a1, uint64_t a2, uint64_t a3, uint64_t a4,
		       uint64_t a5, uint64_t a6, uint64_t a7, uint64_t a8)
{
	struct th *t = cur ? cur : th_start();
	char path[PATH_MAX];

	(void)id;
	(void)vcpu;
	(void)a6;
	(void)a7;
	(void)a8;
	t->sys = num;
	t->sa[0] = a1;
	t->sa[1] = a2;
	t->sa[2] = a3;
	switch (num) {
	case SYS_rt_sigreturn:
		t->sigreturn = true;
		break;
	case SYS_rt_sigaction: {
		uint64_t handler;

		if (a2 && guest_read(&handler, a2, sizeof(handler)))
			add_handler(handler);
		break;
	}
	case SYS_clone:
		t->clone_flags = a1;
		if (a1 & CLONE_VM)
			g.cloner = t->tid;
		break;
	case SYS_clone3:
		if (!guest_read(&t->clone_flags, a1, sizeof(t->clone_flags)))
			t->clone_flags = 0;
		if (t->clone_flags & CLONE_VM)
			g.cloner = t->tid;
		break;
	case SYS_fork:
	case SYS_vfork:
		t->clone_flags = 0;
		break;
	case SYS_execve:
		if (guest_str(path, sizeof(path), a1))
			follow_exec(t, path, a2, a3);
		break;
	case SYS_execveat:
		follow_execveat(t, a1, a2, a3, a4, a5);
		break;
	case SYS_exit: {
		bool last;

		pthread_mutex_lock(&g.lock);
		last = g.threads == t && !t->next;
		if (last) {
			/* the last thread: the process exits with it */
			g.exit_status = (int64_t)a1;
			g.exit_seen = true;
		} else {
			th_finish(t, true);
		}
		pthread_mutex_unlock(&g.lock);
		if (last)
			image_finish(t, QREC_END_EXIT);
		th_unlink(t);
		th_free(t);
		cur = NULL;
		break;
	}
	case SYS_exit_group:
		g.exit_status = (int64_t)a1;
		g.exit_seen = true;
		break;
	case SYS_prctl:
		if (a1 == PR_SET_NAME && a2) {
			char name[QREC_COMM_LEN];

			memset(name, 0, sizeof(name));
			if (!guest_str(name, sizeof(name), a2))
				/* 16 bytes, the last one not NUL: cut it */
				guest_read(name, a2, sizeof(name) - 1);
			pthread_mutex_lock(&g.lock);
			rec_comm(t, name, false);
			pthread_mutex_unlock(&g.lock);
		}
		break;
	default:
		break;
	}
	(void)a4;
}

static void on_syscall_ret(qemu_plugin_id_t id, unsigned int vcpu,
			   int64_t num, int64_t ret)
{
	struct th *t = cur;
	uint64_t a1, a2, a3;

	(void)id;
	(void)vcpu;
	if (!t || num != t->sys)
		return;
	a1 = t->sa[0];
	a2 = t->sa[1];
	a3 = t->sa[2];
	switch (num) {
	case SYS_mmap:
		if (ret >= 0 || ret < -4095)
			maps_touched((uint64_t)ret, (uint64_t)ret + a2);
		break;
	case SYS_munmap:
	case SYS_mprotect:
	case SYS_pkey_mprotect:
	case SYS_remap_file_pages:
		maps_touched(a1, a1 + a2);
		break;
	case SYS_mremap:
		maps_touched(a1, a1 + a2);
		if (ret >= 0 || ret < -4095)
			maps_touched((uint64_t)ret, (uint64_t)ret + a3);
		break;
	case SYS_shmat:
	case SYS_shmdt:
		maps_touched(0, UINT64_MAX);
		break;
	case SYS_clone:
	case SYS_clone3:
	case SYS_fork:
	case SYS_vfork:
		if (ret == 0 && !(t->clone_flags & CLONE_VM))
			child_after_fork(t);
		break;
	default:
		break;
	}
}

/* ---- loading ------------------------------------------------------------------- */

static void atfork_prepare(void)
{
	pthread_mutex_lock(&g.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&g.lock);
}

static void atfork_child(void)
{
	pthread_mutex_init(&g.lock, NULL);
}

static bool arg_u64(const char *v, uint64_t *out)
{
	char *e;

	errno = 0;
	*out = strtoull(v, &e, 10);
	return !errno && *v && !*e && *v != '-';
}

static int fail_install(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail_install(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (g.status && __sync_bool_compare_and_swap(&g.status[0], 0, 1)) {
		snprintf(g.status + 8, 4096 - 8, "%s", msg);
		__sync_synchronize();
		g.status[1] = 1;
	}
	dprintf(2, "blockrange record: %s\n", msg);
	return -1;
}

QAPI_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				    const qemu_info_t *info, int argc,
				    char **argv)
{
	const char *mode = "sampled";
	Dl_info dl;
	int i;

	g.depth = 32;
	g.period = 10007;
	snprintf(g.cpu, sizeof(g.cpu), "max");
	for (i = 0; i < argc; i++) {
		char *v = strchr(argv[i], '=');
		const char *k = argv[i];
		bool ok = true;

		if (!v)
			return fail_install("plugin argument '%s' is not KEY=VALUE", argv[i]);
		*v++ = '\0';
		if (!strcmp(k, "out"))
			ok = snprintf(g.dir, sizeof(g.dir), "%s", v) < (int)sizeof(g.dir);
		else if (!strcmp(k, "mode"))
			mode = v;
		else if (!strcmp(k, "depth")) {
			uint64_t d;

			ok = arg_u64(v, &d) && d >= 1 && d <= 65536;
			g.depth = (unsigned)d;
		} else if (!strcmp(k, "period"))
			ok = arg_u64(v, &g.period) && g.period >= 1;
		else if (!strcmp(k, "jitter"))
			ok = arg_u64(v, &g.jitter);
		else if (!strcmp(k, "seed"))
			ok = arg_u64(v, &g.seed);
		else if (!strcmp(k, "qemu"))
			snprintf(g.qemu, sizeof(g.qemu), "%s", v);
		else if (!strcmp(k, "cpu"))
			snprintf(g.cpu, sizeof(g.cpu), "%s", v);
		else if (!strcmp(k, "exe"))
			snprintf(g.exe, sizeof(g.exe), "%s", v);
		else if (!strcmp(k, "comm"))
			snprintf(g.comm, sizeof(g.comm), "%s", v);
		else
			return fail_install("unknown plugin argument '%s'", k);
		if (!ok)
			return fail_install("bad value of plugin argument %s: '%s'", k, v);
	}
	if (g.dir[0]) {
		char st[PATH_MAX + 16];
		int fd;

		snprintf(st, sizeof(st), "%s/status", g.dir);
		fd = open(st, O_RDWR | O_CLOEXEC);
		if (fd >= 0) {
			void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				       MAP_SHARED, fd, 0);

			if (p != MAP_FAILED)
				g.status = p;
			close(fd);
		}
	}
	if (info->version.min > QAPI_VERSION || info->version.cur < QAPI_VERSION)
		return fail_install("QEMU's plugin API is version %d..%d, the recorder needs version %d",
				    info->version.min, info->version.cur, QAPI_VERSION);
	if (info->system_emulation || strcmp(info->target_name, "x86_64"))
		return fail_install("the recorder runs in qemu-x86_64 (user mode) only, not %s%s",
				    info->target_name,
				    info->system_emulation ? " system emulation" : "");
	if (!g.dir[0] || !g.qemu[0] || !g.exe[0])
		return fail_install("the plugin needs out=DIR, qemu=PATH and exe=PATH (blockrange record passes them)");
	if (!strcmp(mode, "exact"))
		g.exact = true;
	else if (strcmp(mode, "sampled"))
		return fail_install("mode must be sampled or exact, not '%s'", mode);
	if (g.jitter >= g.period)
		return fail_install("jitter %" PRIu64 " must be below the period %" PRIu64,
				    g.jitter, g.period);
	if (!g.comm[0]) {
		const char *b = strrchr(g.exe, '/');

		str_copy(g.comm, sizeof(g.comm), b ? b + 1 : g.exe);
	}
	if (!dladdr((void *)qemu_plugin_install, &dl) || !dl.dli_fname)
		return fail_install("cannot find the plugin's own path");
	if (!realpath(dl.dli_fname, g.self))
		snprintf(g.self, sizeof(g.self), "%s", dl.dli_fname);
	g.pid = (int32_t)getpid();
	g.ppid = (int32_t)getppid();
	g.t0 = now();
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	cur = th_alloc(gettid_());
	rec_comm(cur, g.comm, true);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
