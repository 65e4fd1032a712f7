// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace single-stepping branch sampler.  See record.h; its outputs (and
 * the event perf.data carries) are recout.h's.
 */
#define _GNU_SOURCE

#include "record/record.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/pairmap.h"
#include "base/status.h"
#include "resolve/addrspace.h"
#include "resolve/dso.h"
#include "resolve/elfbin.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"

#define NS_PER_STEP 1000

/* --- the decode cache --- */

/*
 * A decoded instruction, as the decode cache (ras.insns: runtime address
 * -> insn_pack()) keeps it.
 */
struct rinsn {
	uint8_t size;	/* instruction length; 0: capstone could not decode it */
	uint8_t kind;	/* enum eb_kind */
	uint8_t flags;	/* IF_* */
};

#define IF_SYSCALL 1	/* the syscall instruction (0f 05) */

/* Never 0, so that a cached instruction is told from a missing one. */
static uint64_t insn_pack(const struct rinsn *in)
{
	return 1u << 24 | (uint64_t)in->flags << 16 | (uint64_t)in->kind << 8 |
	       in->size;
}

static void insn_unpack(uint64_t v, struct rinsn *in)
{
	in->size = (uint8_t)v;
	in->kind = (uint8_t)(v >> 8);
	in->flags = (uint8_t)(v >> 16);
}

/* --- files mapped executable (DSOs) --- */

/*
 * The files mapped executable are DSOs of a registry (resolve/dso.h),
 * identified by path; what the recorder keeps per DSO, by its index.
 */
struct rdso {
	bool hit;		/* a recorded branch touched it */
	struct pairmap counts;	/* ELF vaddr -> executions */
};

/*
 * An address space: a process, shared by its threads.  Its executable
 * mappings (resolve/addrspace.h's list) mirror /proc/PID/maps.
 */
struct ras {
	int refs;
	struct as_maps maps;
	bool dirty;		/* re-read the maps before the next decode */
	struct pairmap insns;	/* runtime address -> insn_pack() */
	struct pairmap exec;	/* runtime address -> executions */
};

enum tstate {
	T_WAIT_STOP,	/* new task: its first stop has not come yet */
	T_WAIT_PARENT,	/* stopped before its parent reported it */
	T_TO_ENTRY,	/* running to the entry point */
	T_STEP,		/* single-stepping */
};

struct rtask {
	int32_t tid;
	int32_t pid;		/* thread group */
	int32_t parent;		/* pid of the parent process (EXIT record) */
	enum tstate state;
	struct ras *as;
	int sig;		/* to deliver with the next resume */
	bool sig_step;		/* the running step delivers a signal */
	uint64_t entry;		/* T_TO_ENTRY: breakpoint address */
	long saved;		/* and the word it replaced */
	bool have_pc;		/* pc/cur are valid */
	uint64_t pc;
	struct rinsn cur;	/* decode of pc */
	bool watch_syscall;	/* the stepped syscall changes maps/comm */
	bool prctl_name;
	/* branch ring */
	struct perf_branch_entry *ring;
	size_t cap;
	size_t nr;
	size_t head;
	uint64_t since;
};

struct rec {
	const struct record_opts *o;
	struct recout out;
	size_t cs;		/* capstone handle */
	struct rtask **tasks;
	size_t nr_tasks;
	struct dso_registry *reg;	/* the mapped files */
	struct rdso *dsos;		/* by DSO index */
	size_t cap_dsos;
	struct dso **pending_bid;	/* hit, build-id not given yet */
	size_t nr_pending;
	struct perf_branch_entry *sbuf;	/* a sample's entries */
	size_t sbuf_cap;
	pid_t child;
	int child_status;
	bool child_done;
	uint64_t steps;
	uint64_t executed;	/* steps that completed an instruction */
	uint64_t last_time;
	uint64_t taken;
	uint64_t samples;
	uint64_t nr_seen_tasks;
	char *err;
	size_t errsz;
};

static int rfail(struct rec *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int rfail(struct rec *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(r->err, r->errsz, fmt, ap);
	va_end(ap);
	return BR_ESYS;
}

static int oom(struct rec *r)
{
	return rfail(r, "out of memory");
}

static uint64_t now(struct rec *r)
{
	uint64_t t = r->steps * NS_PER_STEP;

	if (t <= r->last_time)
		t = r->last_time + 1;
	r->last_time = t;
	return t;
}

/* --- outputs (recout.h), timed by the steps --- */

static int out_comm(struct rec *r, int32_t pid, int32_t tid, const char *comm,
		    bool exec)
{
	return recout_comm(&r->out, pid, tid, comm, exec, now(r));
}

static int out_task(struct rec *r, bool exit, int32_t pid, int32_t ppid,
		    int32_t tid, int32_t ptid)
{
	return recout_task(&r->out, exit, pid, ppid, tid, ptid, now(r));
}

static int out_mmap(struct rec *r, struct pdw_mmap *m)
{
	m->time = now(r);
	return recout_mmap(&r->out, m);
}

static int out_build_ids(struct rec *r)
{
	size_t i;

	for (i = 0; i < r->nr_pending; i++) {
		struct dso *d = r->pending_bid[i];
		enum dso_state st = dso_load(r->reg, d);

		if (st == DSO_NO_MEMORY)
			return oom(r);
		if (st == DSO_READY && d->bin.build_id_size &&
		    recout_build_id(&r->out, d->path, d->bin.build_id,
				    d->bin.build_id_size))
			return BR_ESYS;
	}
	r->nr_pending = 0;
	return 0;
}

static int out_sample(struct rec *r, struct pdw_sample *s)
{
	if (r->nr_pending && out_build_ids(r))
		return BR_ESYS;
	s->time = now(r);
	if (recout_sample(&r->out, s))
		return BR_ESYS;
	r->samples++;
	return 0;
}

/* --- DSOs --- */

/* The recorder's data of @d (zeroed when new); NULL out of memory. */
static struct rdso *rdso_of(struct rec *r, const struct dso *d)
{
	if (d->idx >= r->cap_dsos) {
		size_t c = d->idx + 16;
		struct rdso *v = realloc(r->dsos, c * sizeof(*v));

		if (!v)
			return NULL;
		memset(v + r->cap_dsos, 0, (c - r->cap_dsos) * sizeof(*v));
		r->dsos = v;
		r->cap_dsos = c;
	}
	return &r->dsos[d->idx];
}

/*
 * ELF vaddr of file offset @off of @d through its PT_LOADs; the offset
 * itself when there are none ([vdso], anonymous code, not ELF).
 */
static uint64_t dso_vaddr(struct dso *d, uint64_t off)
{
	uint64_t v;

	return dso_addr(d, off, &v) ? v : off;
}

static int mark_hit(struct rec *r, struct dso *d)
{
	struct rdso *rd;
	struct dso **v;

	if (!d)
		return 0;
	rd = rdso_of(r, d);
	if (!rd)
		return oom(r);
	if (rd->hit)
		return 0;
	rd->hit = true;
	v = realloc(r->pending_bid, (r->nr_pending + 1) * sizeof(*v));
	if (!v)
		return oom(r);
	r->pending_bid = v;
	v[r->nr_pending++] = d;
	return 0;
}

/* --- address spaces --- */

static const struct as_map *map_at(struct ras *as, uint64_t a)
{
	return as_maps_find(&as->maps, a);
}

/* Move the executions to the DSOs' counts, then drop the decode cache. */
static int ras_fold(struct rec *r, struct ras *as)
{
	size_t i;

	for (i = 0; i < as->exec.cap; i++) {
		const struct pairmap_slot *e = &as->exec.slots[i];
		const struct as_map *m;
		struct rdso *rd;

		if (!e->used)
			continue;
		m = map_at(as, e->a);
		if (!m)
			continue;
		rd = rdso_of(r, m->dso);
		if (!rd || dso_load(r->reg, m->dso) == DSO_NO_MEMORY ||
		    pairmap_add(&rd->counts,
				dso_vaddr(m->dso, e->a - m->start + m->pgoff),
				0, e->count))
			return oom(r);
	}
	pairmap_free(&as->exec);
	pairmap_free(&as->insns);
	return 0;
}

static struct ras *ras_new(void)
{
	struct ras *as = calloc(1, sizeof(*as));

	if (as)
		as->refs = 1;
	return as;
}

static int ras_put(struct rec *r, struct ras *as)
{
	int ret = 0;

	if (!as || --as->refs)
		return 0;
	ret = ras_fold(r, as);
	as_maps_free(&as->maps);
	free(as);
	return ret;
}

static bool same_map(const struct as_map *a, const struct as_map *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->pgoff == b->pgoff && a->prot == b->prot &&
	       a->flags == b->flags && a->dso == b->dso &&
	       a->maj == b->maj && a->min == b->min && a->ino == b->ino;
}

/*
 * The executable mappings of /proc/PID/maps (but [vsyscall]) into @nm,
 * their files made DSOs.  0, 1 when the process is gone (its exit is
 * coming), -1 out of memory.
 */
static int read_maps(struct rec *r, int32_t pid, struct as_maps *nm)
{
	char path[64], line[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off, ino;
		unsigned maj, min;
		char perms[8], file[PATH_MAX];
		struct as_map m = { 0 };
		int n = 0;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &s, &e,
			   perms, &off, &maj, &min, &ino, &n) < 7)
			continue;
		if (n > 0)
			sscanf(line + n, "%4095[^\n]", file);
		if (!strchr(perms, 'x') || !strcmp(file, "[vsyscall]"))
			continue;
		m.dso = dso_get(r->reg, file[0] ? file : "//anon", NULL, 0,
				false);
		m.start = s;
		m.end = e;
		m.pgoff = off;
		m.prot = (perms[0] == 'r' ? PROT_READ : 0) |
			 (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
		m.flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		m.maj = maj;
		m.min = min;
		m.ino = ino;
		if (!m.dso || as_maps_insert(nm, &m)) {
			fclose(f);
			return BR_ESYS;
		}
	}
	fclose(f);
	return 0;
}

/*
 * Re-read /proc/PID/maps of @t's process: executable mappings not known
 * before get their MMAP2 (as task @t); a changed set drops the decode
 * cache (its counts go to the DSOs under the old mappings first).
 */
static int ras_refresh(struct rec *r, struct rtask *t)
{
	struct ras *as = t->as;
	struct as_maps nm = { 0 };
	bool changed;
	size_t i, j;
	int x;

	as->dirty = false;
	x = read_maps(r, t->pid, &nm);
	if (x) {
		as_maps_free(&nm);
		return x < 0 ? oom(r) : 0;
	}
	changed = nm.nr != as->maps.nr;
	for (i = 0; i < nm.nr; i++) {
		const struct as_map *m = &nm.v[i];
		bool known = false;

		for (j = 0; j < as->maps.nr && !known; j++)
			known = same_map(m, &as->maps.v[j]);
		if (!known) {
			struct pdw_mmap mm = {
				.pid = t->pid, .tid = t->tid,
				.start = m->start, .len = m->end - m->start,
				.pgoff = m->pgoff, .prot = m->prot,
				.flags = m->flags, .maj = m->maj,
				.min = m->min, .ino = m->ino,
				.path = m->dso->path,
				.cpumode = PERF_RECORD_MISC_USER,
			};

			changed = true;
			if (out_mmap(r, &mm)) {
				as_maps_free(&nm);
				return BR_ESYS;
			}
		}
	}
	if (!changed) {
		as_maps_free(&nm);
		return 0;
	}
	if (ras_fold(r, as)) {
		as_maps_free(&nm);
		return BR_ESYS;
	}
	as_maps_free(&as->maps);
	as->maps = nm;
	return 0;
}

/* Decode (cached) the instruction at @pc of @t's address space. */
static int decode(struct rec *r, struct rtask *t, uint64_t pc,
		  struct rinsn *out)
{
	struct ras *as = t->as;
	uint64_t known, *slot;
	uint8_t buf[16];
	struct eb_insn in;
	size_t len = sizeof(buf);
	const struct as_map *m;

	if (as->dirty && ras_refresh(r, t))
		return BR_ESYS;
	known = pairmap_get(&as->insns, pc, 0);
	if (known) {
		insn_unpack(known, out);
		return 0;
	}
	m = map_at(as, pc);
	if (!m) {
		if (ras_refresh(r, t))
			return BR_ESYS;
		m = map_at(as, pc);
	}
	if (m && m->end - pc < len)
		len = (size_t)(m->end - pc);
	for (;;) {
		struct iovec local = { buf, len };
		struct iovec remote = { (void *)(uintptr_t)pc, len };

		if (process_vm_readv(t->tid, &local, 1, &remote, 1, 0) ==
		    (ssize_t)len)
			break;
		/* The last page may be followed by an unreadable one. */
		if (len <= 1 || (pc & ~0xfffULL) == ((pc + len - 1) & ~0xfffULL))
			return rfail(r, "task %d: cannot read the instruction at 0x%" PRIx64 ": %s",
				     (int)t->tid, pc, strerror(errno));
		len = (size_t)(((pc | 0xfff) + 1) - pc);
	}
	/*
	 * capstone 4 does not know every instruction (AVX-512's EVEX ones
	 * in libc's string functions): those are not control transfers, so
	 * an undecodable instruction is taken as one whose length the step
	 * tells (size 0 until then).
	 */
	if (eb_decode_bytes(r->cs, buf, len, pc, &in)) {
		in.size = 0;
		in.kind = EB_OTHER;
	}
	out->size = in.size;
	out->kind = in.kind;
	out->flags = in.size == 2 && buf[0] == 0x0f && buf[1] == 0x05 ?
		     IF_SYSCALL : 0;
	slot = pairmap_ref(&as->insns, pc, 0);
	if (!slot)
		return oom(r);
	*slot = insn_pack(out);
	return 0;
}

/* --- tasks --- */

static struct rtask *task_find(struct rec *r, int32_t tid)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i]->tid == tid)
			return r->tasks[i];
	return NULL;
}

static struct rtask *task_new(struct rec *r, int32_t tid)
{
	struct rtask **v = realloc(r->tasks, (r->nr_tasks + 1) * sizeof(*v));
	struct rtask *t;

	if (!v)
		return NULL;
	r->tasks = v;
	t = calloc(1, sizeof(*t));
	if (!t)
		return NULL;
	t->cap = r->o->depth ? r->o->depth : 64;
	t->ring = calloc(t->cap, sizeof(*t->ring));
	if (!t->ring) {
		free(t);
		return NULL;
	}
	t->tid = tid;
	t->pid = tid;
	r->tasks[r->nr_tasks++] = t;
	r->nr_seen_tasks++;
	return t;
}

static void task_free(struct rec *r, struct rtask *t)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i] == t) {
			r->tasks[i] = r->tasks[--r->nr_tasks];
			break;
		}
	free(t->ring);
	free(t);
}

static int write_sample(struct rec *r, struct rtask *t)
{
	struct pdw_sample s = { 0 };
	size_t i;

	if (!t->nr)
		return 0;
	if (t->nr > r->sbuf_cap) {
		struct perf_branch_entry *b = realloc(r->sbuf,
						      t->nr * sizeof(*b));

		if (!b)
			return oom(r);
		r->sbuf = b;
		r->sbuf_cap = t->nr;
	}
	for (i = 0; i < t->nr; i++)
		r->sbuf[i] = t->ring[(t->head + t->cap - 1 - i) % t->cap];
	s.event = 0;
	s.cpumode = PERF_RECORD_MISC_USER;
	s.ip = r->sbuf[0].from;
	s.pid = t->pid;
	s.tid = t->tid;
	s.period = r->o->period;
	s.hw_idx = UINT64_MAX;
	s.br = r->sbuf;
	s.nr = t->nr;
	return out_sample(r, &s);
}

static int push_branch(struct rec *r, struct rtask *t, uint64_t from,
		       uint64_t to)
{
	struct perf_branch_entry *b;

	if (!r->o->depth && t->nr == t->cap) {
		/* Unbounded: grow, keeping the ring order (head == nr). */
		size_t n = t->cap * 2;
		struct perf_branch_entry *x = realloc(t->ring, n * sizeof(*x));

		if (!x)
			return oom(r);
		t->ring = x;
		t->cap = n;
		t->head = t->nr;
	}
	b = &t->ring[t->head];
	memset(b, 0, sizeof(*b));
	b->from = from;
	b->to = to;
	t->head = (t->head + 1) % t->cap;
	if (t->nr < t->cap)
		t->nr++;
	r->taken++;
	if (++t->since < r->o->period)
		return 0;
	t->since = 0;
	if (write_sample(r, t))
		return BR_ESYS;
	if (!r->o->depth) {
		/* Keep only the newest entry, at slot 0. */
		t->ring[0] = t->ring[(t->head + t->cap - 1) % t->cap];
		t->nr = 1;
		t->head = 1;
	}
	return 0;
}

/* Unbounded depth loses nothing: what is left forms a last sample. */
static int flush_ring(struct rec *r, struct rtask *t)
{
	int ret = 0;

	if (!r->o->depth && t->since)
		ret = write_sample(r, t);
	t->nr = 0;
	t->head = 0;
	t->since = 0;
	return ret;
}

static int read_comm(int32_t pid, int32_t tid, char *buf, size_t sz)
{
	char path[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid,
		 (int)tid);
	f = fopen(path, "re");
	if (!f)
		return BR_ESYS;
	n = fread(buf, 1, sz - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n && buf[n - 1] == '\n')
		buf[n - 1] = '\0';
	return 0;
}

static int get_reg(pid_t tid, size_t off, uint64_t *v)
{
	long x;

	errno = 0;
	x = ptrace(PTRACE_PEEKUSER, tid, (void *)off, NULL);
	if (errno)
		return BR_ESYS;
	*v = (uint64_t)x;
	return 0;
}

#define REG(name) offsetof(struct user_regs_struct, name)

/* Resume @t (stepping or running to its entry point) with its signal. */
static void resume(struct rtask *t)
{
	long sig = t->sig;

	t->sig = 0;
	t->sig_step = sig != 0;
	/* ESRCH: the task died meanwhile; its exit is reported by waitpid. */
	ptrace(t->state == T_TO_ENTRY ? PTRACE_CONT : PTRACE_SINGLESTEP,
	       t->tid, NULL, (void *)sig);
}

/* Start stepping @t at its current PC. */
static int start_stepping(struct rec *r, struct rtask *t)
{
	t->state = T_STEP;
	t->have_pc = false;
	if (get_reg(t->tid, REG(rip), &t->pc))
		return 0;	/* gone */
	if (decode(r, t, t->pc, &t->cur))
		return BR_ESYS;
	t->have_pc = true;
	return 0;
}

static int read_entry(pid_t pid, uint64_t *entry)
{
	char path[64];
	uint64_t av[2];
	int fd;
	int ret = BR_ESYS;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return BR_ESYS;
	while (read(fd, av, sizeof(av)) == (ssize_t)sizeof(av) &&
	       av[0] != AT_NULL)
		if (av[0] == AT_ENTRY) {
			*entry = av[1];
			ret = 0;
			break;
		}
	close(fd);
	return ret;
}

/*
 * @t has just exec'ed (or is the started program, stopped after its
 * exec): COMM with the exec flag, a fresh address space, then either
 * stepping from here (from_exec) or running to the entry point.
 */
static int begin_program(struct rec *r, struct rtask *t)
{
	char comm[64] = "";
	long word;

	if (ras_put(r, t->as))
		return BR_ESYS;
	t->as = ras_new();
	if (!t->as)
		return oom(r);
	t->as->dirty = true;
	read_comm(t->pid, t->tid, comm, sizeof(comm));
	if (out_comm(r, t->pid, t->tid, comm, true))
		return BR_ESYS;
	if (r->o->from_exec)
		return start_stepping(r, t);
	if (read_entry(t->pid, &t->entry))
		return rfail(r, "task %d: no AT_ENTRY in its auxiliary vector",
			     (int)t->tid);
	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, t->tid, (void *)t->entry, NULL);
	if (errno ||
	    ptrace(PTRACE_POKETEXT, t->tid, (void *)t->entry,
		   (void *)((word & ~0xffL) | 0xcc)))
		return rfail(r, "ptrace: cannot set a breakpoint at 0x%" PRIx64 ": %s",
			     t->entry, strerror(errno));
	t->saved = word;
	t->state = T_TO_ENTRY;
	t->have_pc = false;
	return 0;
}

/* The breakpoint at the entry point was hit (or another SIGTRAP came). */
static int at_entry(struct rec *r, struct rtask *t)
{
	uint64_t pc;

	if (get_reg(t->tid, REG(rip), &pc))
		return 0;
	if (pc != t->entry + 1) {
		t->sig = SIGTRAP;	/* not ours */
		return 0;
	}
	if (ptrace(PTRACE_POKETEXT, t->tid, (void *)t->entry,
		   (void *)t->saved) ||
	    ptrace(PTRACE_POKEUSER, t->tid, (void *)REG(rip),
		   (void *)t->entry))
		return rfail(r, "ptrace: %s", strerror(errno));
	return start_stepping(r, t);
}

static bool changes_maps(uint64_t nr)
{
	switch (nr) {
	case SYS_mmap:
	case SYS_mprotect:
	case SYS_munmap:
	case SYS_mremap:
	case SYS_shmat:
	case SYS_shmdt:
	case SYS_remap_file_pages:
	case SYS_pkey_mprotect:
		return true;
	default:
		return false;
	}
}

/* A single step of @t completed. */
static int stepped(struct rec *r, struct rtask *t)
{
	uint64_t npc, pc = t->pc;
	const struct rinsn *c = &t->cur;
	enum eb_kind kind;
	bool executed, taken;

	if (get_reg(t->tid, REG(rip), &npc))
		return 0;
	if (!t->have_pc)
		return start_stepping(r, t);
	r->steps++;
	kind = (enum eb_kind)c->kind;
	if (eb_kind_branch(kind)) {
		executed = true;
		taken = eb_kind_uncond(kind) || npc != pc + c->size;
	} else if (!c->size && npc > pc && npc - pc <= 15) {
		/* undecodable: this step tells its length */
		uint64_t *slot = pairmap_ref(&t->as->insns, pc, 0);

		if (!slot)
			return oom(r);
		t->cur.size = (uint8_t)(npc - pc);
		*slot = insn_pack(&t->cur);
		executed = true;
		taken = false;
	} else {
		/* in place: a rep iteration; elsewhere: a signal or sigreturn */
		executed = npc != pc && !(t->sig_step && npc != pc + c->size);
		taken = npc != pc && npc != pc + c->size;
	}
	if (executed) {
		if (pairmap_add(&t->as->exec, pc, 0, 1))
			return oom(r);
		r->executed++;
	}
	if (t->watch_syscall) {
		t->watch_syscall = false;
		t->as->dirty = true;
	}
	if (t->prctl_name) {
		char comm[64];

		t->prctl_name = false;
		if (!read_comm(t->pid, t->tid, comm, sizeof(comm)) &&
		    out_comm(r, t->pid, t->tid, comm, false))
			return BR_ESYS;
	}
	if (taken) {
		const struct as_map *m;

		if (t->as->dirty && ras_refresh(r, t))
			return BR_ESYS;
		m = map_at(t->as, pc);
		if (mark_hit(r, m ? m->dso : NULL))
			return BR_ESYS;
		m = map_at(t->as, npc);
		if (!m && ras_refresh(r, t))
			return BR_ESYS;
		m = map_at(t->as, npc);
		if (mark_hit(r, m ? m->dso : NULL) || push_branch(r, t, pc, npc))
			return BR_ESYS;
	}
	t->pc = npc;
	if (decode(r, t, npc, &t->cur))
		return BR_ESYS;
	if (t->cur.flags & IF_SYSCALL) {
		struct user_regs_struct regs;

		if (!ptrace(PTRACE_GETREGS, t->tid, NULL, &regs)) {
			t->watch_syscall = changes_maps(regs.rax);
			t->prctl_name = regs.rax == SYS_prctl &&
					regs.rdi == PR_SET_NAME;
		}
	}
	return 0;
}

static int task_exit(struct rec *r, struct rtask *t)
{
	int ret = 0;

	/* It ended in its exit (or a blocking) system call: that ran. */
	if (t->state == T_STEP && t->have_pc && (t->cur.flags & IF_SYSCALL)) {
		if (pairmap_add(&t->as->exec, t->pc, 0, 1))
			return oom(r);
		r->executed++;
	}
	ret = flush_ring(r, t);

	/* A task that stopped before its parent's event has no FORK yet. */
	if (!ret && t->state != T_WAIT_PARENT)
		ret = out_task(r, true, t->pid, t->parent, t->tid, t->parent);
	if (!ret)
		ret = ras_put(r, t->as);
	task_free(r, t);
	return ret;
}

/* PTRACE_EVENT_CLONE/FORK/VFORK of @t: the new task. */
static int new_task(struct rec *r, struct rtask *t)
{
	unsigned long msg;
	struct rtask *n;
	char path[64], line[128];
	int32_t tgid = -1;
	FILE *f;

	if (ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &msg))
		return 0;
	n = task_find(r, (int32_t)msg);
	if (!n) {
		n = task_new(r, (int32_t)msg);
		if (!n)
			return oom(r);
		n->state = T_WAIT_STOP;
	}
	snprintf(path, sizeof(path), "/proc/%d/status", (int)n->tid);
	f = fopen(path, "re");
	if (f) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "Tgid: %d", &tgid) == 1)
				break;
		fclose(f);
	}
	if (tgid == t->pid) {
		n->pid = t->pid;
		n->parent = t->parent;
		n->as = t->as;
		n->as->refs++;
	} else {
		n->pid = n->tid;
		n->parent = t->pid;
		n->as = ras_new();
		if (!n->as)
			return oom(r);
		/* The child has the parent's mappings (perf inherits them). */
		if (as_maps_copy(&n->as->maps, &t->as->maps))
			return oom(r);
	}
	if (out_task(r, false, n->pid, t->pid, n->tid, t->tid))
		return BR_ESYS;
	if (n->state == T_WAIT_PARENT) {
		if (start_stepping(r, n))
			return BR_ESYS;
		resume(n);
	}
	return 0;
}

/* PTRACE_EVENT_EXEC of @t (reported as the thread group leader). */
static int exec_event(struct rec *r, struct rtask *t)
{
	unsigned long old;
	struct rtask *o;

	/* A non-leader thread exec'ed: it took over the leader's tid. */
	if (!ptrace(PTRACE_GETEVENTMSG, t->tid, NULL, &old) &&
	    (int32_t)old != t->tid && (o = task_find(r, (int32_t)old))) {
		if (flush_ring(r, o))
			return BR_ESYS;
		if (ras_put(r, o->as))
			return BR_ESYS;
		task_free(r, o);
	}
	/* The execve instruction ran; what follows is another program. */
	if (t->have_pc) {
		if (pairmap_add(&t->as->exec, t->pc, 0, 1))
			return oom(r);
		r->steps++;
		r->executed++;
	}
	if (flush_ring(r, t))
		return BR_ESYS;
	return begin_program(r, t);
}

static int on_stop(struct rec *r, struct rtask *t, int status)
{
	int sig = WSTOPSIG(status), ev = status >> 16;

	if (ev == PTRACE_EVENT_CLONE || ev == PTRACE_EVENT_FORK ||
	    ev == PTRACE_EVENT_VFORK) {
		if (new_task(r, t))
			return BR_ESYS;
	} else if (ev == PTRACE_EVENT_EXEC) {
		if (exec_event(r, t))
			return BR_ESYS;
	} else if (ev) {
		/* other events: nothing to do */
	} else if (t->state == T_WAIT_STOP) {
		/* its first stop (SIGSTOP): the parent's event came first */
		if (start_stepping(r, t))
			return BR_ESYS;
	} else if (sig == SIGTRAP && t->state == T_TO_ENTRY) {
		if (at_entry(r, t))
			return BR_ESYS;
	} else if (sig == SIGTRAP && t->state == T_STEP) {
		if (stepped(r, t))
			return BR_ESYS;
	} else {
		/* a signal for the program: deliver it (nothing ran) */
		t->sig = sig;
	}
	resume(t);
	return 0;
}

static int trace_loop(struct rec *r)
{
	for (;;) {
		int status;
		pid_t tid = waitpid(-1, &status, __WALL);
		struct rtask *t;

		if (tid < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ECHILD)
				return 0;
			return rfail(r, "waitpid: %s", strerror(errno));
		}
		t = task_find(r, tid);
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			if (tid == r->child) {
				r->child_status = status;
				r->child_done = true;
			}
			if (t && task_exit(r, t))
				return BR_ESYS;
			if (!r->nr_tasks)
				return 0;
			continue;
		}
		if (!WIFSTOPPED(status))
			continue;
		if (!t) {
			/* a new task stopped before its parent's event */
			t = task_new(r, tid);
			if (!t)
				return oom(r);
			t->state = T_WAIT_PARENT;
			continue;
		}
		if (t->state == T_WAIT_PARENT)
			continue;
		if (on_stop(r, t, status))
			return BR_ESYS;
	}
}

/* --- counts --- */

static int cmp_dso(const void *a, const void *b)
{
	const struct dso *x = *(struct dso *const *)a;
	const struct dso *y = *(struct dso *const *)b;

	return strcmp(x->path, y->path);
}

/* "PATH 0xVADDR COUNT" of every executed instruction, by path and address. */
static int write_counts(struct rec *r)
{
	size_t nr = dso_count(r->reg), i, j;
	FILE *f = fopen(r->o->counts, "w");
	struct dso **v;

	if (!f)
		return rfail(r, "%s: %s", r->o->counts, strerror(errno));
	v = malloc((nr ? nr : 1) * sizeof(*v));
	if (!v) {
		fclose(f);
		return oom(r);
	}
	for (i = 0; i < nr; i++)
		v[i] = dso_at(r->reg, i);
	qsort(v, nr, sizeof(*v), cmp_dso);
	for (i = 0; i < nr; i++) {
		const struct pairmap *h;
		struct pairmap_slot *e;

		if (v[i]->idx >= r->cap_dsos)
			continue;
		h = &r->dsos[v[i]->idx].counts;
		e = pairmap_sorted(h);
		if (!e) {
			free(v);
			fclose(f);
			return oom(r);
		}
		for (j = 0; j < h->nr; j++)
			fprintf(f, "%s 0x%" PRIx64 " %" PRIu64 "\n", v[i]->path,
				e[j].a, e[j].count);
		free(e);
	}
	free(v);
	if (fclose(f))
		return rfail(r, "%s: %s", r->o->counts, strerror(errno));
	return 0;
}

/* --- setup --- */

static int open_outputs(struct rec *r)
{
	const struct record_opts *o = r->o;
	struct recout_opts ro = {
		.output = o->output, .format = o->format,
		.script_copy = o->script_copy, .fields = o->fields,
		.task_events = o->task_events, .period = o->period,
		.version = "blockrange record (ptrace)",
		.cmd_argc = o->cmd_argc, .cmd_argv = o->cmd_argv,
	};

	return recout_open(&r->out, &ro, r->err, r->errsz);
}

static int close_outputs(struct rec *r, int ret)
{
	return recout_close(&r->out, ret);
}

static void rec_free(struct rec *r)
{
	size_t i;

	while (r->nr_tasks) {
		struct rtask *t = r->tasks[0];

		ras_put(r, t->as);
		task_free(r, t);
	}
	free(r->tasks);
	for (i = 0; i < r->cap_dsos; i++)
		pairmap_free(&r->dsos[i].counts);
	free(r->dsos);
	dso_registry_free(r->reg);
	free(r->pending_bid);
	free(r->sbuf);
	if (r->cs)
		eb_cs_close(r->cs);
}

/* Kill and reap every traced task (after an error). */
static void kill_all(struct rec *r)
{
	size_t i;
	int status;

	for (i = 0; i < r->nr_tasks; i++)
		kill(r->tasks[i]->tid, SIGKILL);
	if (r->child > 0 && !r->child_done)
		kill(r->child, SIGKILL);
	while (waitpid(-1, &status, __WALL) > 0)
		;
}

/*
 * Run @o->argv under ptrace, stopped before its first instruction: 0, or
 * -1 with a message (the child's failed exec comes back through a pipe).
 */
static int start_child(struct rec *r)
{
	const struct record_opts *o = r->o;
	bool to_stdout = !strcmp(o->output, "-") ||
			 (o->script_copy && !strcmp(o->script_copy, "-"));
	int status = 0, exec_err = 0, fds[2];

	/* The child reports a failed exec through this (closed by exec). */
	if (pipe2(fds, O_CLOEXEC))
		return rfail(r, "pipe: %s", strerror(errno));
	fflush(NULL);
	r->child = fork();
	if (r->child < 0) {
		close(fds[0]);
		close(fds[1]);
		return rfail(r, "fork: %s", strerror(errno));
	}
	if (!r->child) {
		close(fds[0]);
		/* The recording goes to stdout: the program writes to stderr. */
		if (to_stdout)
			dup2(STDERR_FILENO, STDOUT_FILENO);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(o->argv[0], o->argv);
		exec_err = errno;
		if (write(fds[1], &exec_err, sizeof(exec_err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	if (waitpid(r->child, &status, 0) < 0 || !WIFSTOPPED(status)) {
		/* One message: the parent's, with the child's errno. */
		if (read(fds[0], &exec_err, sizeof(exec_err)) ==
		    (ssize_t)sizeof(exec_err))
			rfail(r, "cannot run %s: %s", o->argv[0],
			      strerror(exec_err));
		else
			rfail(r, "cannot run %s", o->argv[0]);
		close(fds[0]);
		r->child_done = true;
		return BR_ESYS;
	}
	close(fds[0]);
	return 0;
}

/* Follow the stopped child and everything it starts, to the end. */
static int trace_all(struct rec *r)
{
	struct rtask *t;

	if (ptrace(PTRACE_SETOPTIONS, r->child, NULL,
		   (void *)(PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE |
			    PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			    PTRACE_O_TRACEEXEC)))
		return rfail(r, "ptrace: %s", strerror(errno));
	if (open_outputs(r))
		return BR_ESYS;
	t = task_new(r, r->child);
	if (!t)
		return oom(r);
	t->parent = getpid();
	if (begin_program(r, t))
		return BR_ESYS;
	resume(t);
	if (trace_loop(r))
		return BR_ESYS;
	if (r->o->counts && write_counts(r))
		return BR_ESYS;
	return 0;
}

int record_run(const struct record_opts *o, struct record_stats *st,
	       char *err, size_t errsz)
{
	/* the files as they are: no build-id caches, no debuginfod */
	const struct dso_opts reg_opts = { .debuginfod = false };
	struct rec r;
	int ret;

	memset(&r, 0, sizeof(r));
	memset(st, 0, sizeof(*st));
	r.o = o;
	r.err = err;
	r.errsz = errsz;
	r.reg = dso_registry_new(&reg_opts);
	if (!r.reg) {
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	if (eb_cs_open(&r.cs)) {
		snprintf(err, errsz, "capstone: cannot open a disassembler");
		rec_free(&r);
		return BR_ESYS;
	}
	if (start_child(&r)) {
		rec_free(&r);
		return BR_ESYS;
	}
	ret = trace_all(&r);
	if (ret)
		kill_all(&r);
	ret = close_outputs(&r, ret);
	st->status = r.child_status;
	st->executed = r.executed;
	st->steps = r.steps;
	st->tasks = r.nr_seen_tasks;
	st->taken = r.taken;
	st->samples = r.samples;
	rec_free(&r);
	return ret;
}
