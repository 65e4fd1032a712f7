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

#include "resolve/elfbin.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"

#define NS_PER_STEP 1000

/* --- u64-keyed open-addressing hash (decode cache, counts) --- */

struct hent {
	uint64_t key;
	uint64_t count;
	uint8_t used;
	uint8_t size;	/* instruction length (decode cache) */
	uint8_t kind;	/* enum eb_kind */
	uint8_t flags;	/* IF_* */
};

#define IF_SYSCALL 1	/* the syscall instruction (0f 05) */

struct htab {
	struct hent *e;
	size_t cap;	/* power of two, or 0 */
	size_t used;
};

static uint64_t hmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static struct hent *hfind(const struct htab *h, uint64_t key)
{
	size_t i;

	if (!h->cap)
		return NULL;
	for (i = hmix(key) & (h->cap - 1);; i = (i + 1) & (h->cap - 1)) {
		if (!h->e[i].used)
			return NULL;
		if (h->e[i].key == key)
			return &h->e[i];
	}
}

/* The entry for @key, inserted (zeroed) if missing; NULL: out of memory. */
static struct hent *hget(struct htab *h, uint64_t key)
{
	struct hent *e = hfind(h, key);
	size_t i;

	if (e)
		return e;
	if ((h->used + 1) * 4 > h->cap * 3) {
		struct htab n = { 0 };
		size_t j;

		n.cap = h->cap ? h->cap * 2 : 1024;
		n.e = calloc(n.cap, sizeof(*n.e));
		if (!n.e)
			return NULL;
		for (j = 0; j < h->cap; j++) {
			if (!h->e[j].used)
				continue;
			for (i = hmix(h->e[j].key) & (n.cap - 1); n.e[i].used;
			     i = (i + 1) & (n.cap - 1))
				;
			n.e[i] = h->e[j];
		}
		n.used = h->used;
		free(h->e);
		*h = n;
	}
	for (i = hmix(key) & (h->cap - 1); h->e[i].used;
	     i = (i + 1) & (h->cap - 1))
		;
	memset(&h->e[i], 0, sizeof(h->e[i]));
	h->e[i].used = 1;
	h->e[i].key = key;
	h->used++;
	return &h->e[i];
}

static void hfree(struct htab *h)
{
	free(h->e);
	memset(h, 0, sizeof(*h));
}

/* --- files mapped executable (DSOs) --- */

struct rload {
	uint64_t vaddr;
	uint64_t offset;
	uint64_t filesz;
};

struct rdso {
	char *path;
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	bool file;		/* a path to open (not [vdso] or anonymous) */
	bool loads_read;
	struct rload *loads;
	size_t nr_loads;
	bool hit;		/* a recorded branch touched it */
	struct htab counts;	/* ELF vaddr -> executions */
};

/* An executable mapping of an address space. */
struct rmap {
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	uint32_t prot;
	uint32_t flags;
	struct rdso *dso;
};

/* An address space: a process, shared by its threads. */
struct ras {
	int refs;
	struct rmap *maps;	/* by start */
	size_t nr;
	bool dirty;		/* re-read the maps before the next decode */
	struct htab cache;	/* runtime address -> decoded insn + count */
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
	struct hent cur;	/* decode of pc */
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
	struct rdso **dsos;
	size_t nr_dsos;
	struct rdso **pending_bid;	/* hit, build-id not given yet */
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
	return -1;
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

	for (i = 0; i < r->nr_pending; i++)
		if (r->pending_bid[i]->file &&
		    recout_build_id(&r->out, r->pending_bid[i]->path))
			return -1;
	r->nr_pending = 0;
	return 0;
}

static int out_sample(struct rec *r, struct pdw_sample *s)
{
	if (r->nr_pending && out_build_ids(r))
		return -1;
	s->time = now(r);
	if (recout_sample(&r->out, s))
		return -1;
	r->samples++;
	return 0;
}

/* --- DSOs --- */

static struct rdso *dso_get(struct rec *r, const char *path, uint32_t maj,
			    uint32_t min, uint64_t ino)
{
	struct rdso **v, *d;
	size_t i;

	for (i = 0; i < r->nr_dsos; i++) {
		d = r->dsos[i];
		if (d->maj == maj && d->min == min && d->ino == ino &&
		    !strcmp(d->path, path))
			return d;
	}
	v = realloc(r->dsos, (r->nr_dsos + 1) * sizeof(*v));
	if (!v)
		return NULL;
	r->dsos = v;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->path = strdup(path))) {
		free(d);
		return NULL;
	}
	d->maj = maj;
	d->min = min;
	d->ino = ino;
	d->file = path[0] == '/';
	r->dsos[r->nr_dsos++] = d;
	return d;
}

static void dso_read_loads(struct rdso *d)
{
	Elf *elf;
	size_t n, i;
	int fd;

	d->loads_read = true;
	if (!d->file || elf_version(EV_CURRENT) == EV_NONE)
		return;
	fd = open(d->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (elf && elf_kind(elf) == ELF_K_ELF && !elf_getphdrnum(elf, &n) &&
	    (d->loads = calloc(n ? n : 1, sizeof(*d->loads)))) {
		for (i = 0; i < n; i++) {
			GElf_Phdr ph;

			if (!gelf_getphdr(elf, (int)i, &ph) ||
			    ph.p_type != PT_LOAD)
				continue;
			d->loads[d->nr_loads].vaddr = ph.p_vaddr;
			d->loads[d->nr_loads].offset = ph.p_offset;
			d->loads[d->nr_loads].filesz = ph.p_filesz;
			d->nr_loads++;
		}
	}
	if (elf)
		elf_end(elf);
	close(fd);
}

/* ELF vaddr of file offset @off (the offset itself without PT_LOADs). */
static uint64_t dso_vaddr(struct rdso *d, uint64_t off)
{
	size_t i;

	if (!d->loads_read)
		dso_read_loads(d);
	for (i = 0; i < d->nr_loads; i++)
		if (off >= d->loads[i].offset &&
		    off - d->loads[i].offset < d->loads[i].filesz)
			return d->loads[i].vaddr + (off - d->loads[i].offset);
	return off;
}

static void dso_free(struct rdso *d)
{
	free(d->path);
	free(d->loads);
	hfree(&d->counts);
	free(d);
}

static int mark_hit(struct rec *r, struct rdso *d)
{
	struct rdso **v;

	if (!d || d->hit)
		return 0;
	d->hit = true;
	v = realloc(r->pending_bid, (r->nr_pending + 1) * sizeof(*v));
	if (!v)
		return oom(r);
	r->pending_bid = v;
	v[r->nr_pending++] = d;
	return 0;
}

/* --- address spaces --- */

static struct rmap *map_at(const struct ras *as, uint64_t a)
{
	size_t lo = 0, hi = as->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (a < as->maps[mid].start)
			hi = mid;
		else if (a >= as->maps[mid].end)
			lo = mid + 1;
		else
			return &as->maps[mid];
	}
	return NULL;
}

/* Move the decode cache's counts to the DSOs, then drop the cache. */
static int as_fold(struct rec *r, struct ras *as)
{
	size_t i;

	for (i = 0; i < as->cache.cap; i++) {
		struct hent *e = &as->cache.e[i], *c;
		struct rmap *m;

		if (!e->used || !e->count)
			continue;
		m = map_at(as, e->key);
		if (!m)
			continue;
		c = hget(&m->dso->counts,
			 dso_vaddr(m->dso, e->key - m->start + m->pgoff));
		if (!c)
			return oom(r);
		c->count += e->count;
	}
	hfree(&as->cache);
	return 0;
}

static struct ras *as_new(void)
{
	struct ras *as = calloc(1, sizeof(*as));

	if (as)
		as->refs = 1;
	return as;
}

static int as_put(struct rec *r, struct ras *as)
{
	int ret = 0;

	if (!as || --as->refs)
		return 0;
	ret = as_fold(r, as);
	free(as->maps);
	free(as);
	return ret;
}

static bool same_map(const struct rmap *a, const struct rmap *b)
{
	return a->start == b->start && a->end == b->end &&
	       a->pgoff == b->pgoff && a->prot == b->prot &&
	       a->flags == b->flags && a->dso == b->dso;
}

/*
 * Re-read /proc/PID/maps of @t's process: executable mappings not known
 * before get their MMAP2 (as task @t); a changed set drops the decode
 * cache (its counts go to the DSOs under the old mappings first).
 */
static int as_refresh(struct rec *r, struct rtask *t)
{
	struct ras *as = t->as;
	struct rmap *nm = NULL;
	size_t nr = 0, cap = 0, i, j;
	char path[64], line[PATH_MAX + 256];
	bool changed;
	FILE *f;

	as->dirty = false;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)t->pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* the process is gone: its exit is coming */
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		unsigned maj, min;
		unsigned long long ino;
		char perms[8], file[PATH_MAX];
		struct rdso *d;
		int n = 0;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &s, &e,
			   perms, &off, &maj, &min, &ino, &n) < 7)
			continue;
		if (n > 0)
			sscanf(line + n, "%4095[^\n]", file);
		if (!strchr(perms, 'x') || !strcmp(file, "[vsyscall]"))
			continue;
		if (nr == cap) {
			struct rmap *x;

			cap = cap ? cap * 2 : 16;
			x = realloc(nm, cap * sizeof(*x));
			if (!x)
				goto nomem;
			nm = x;
		}
		d = dso_get(r, file[0] ? file : "//anon", maj, min, ino);
		if (!d)
			goto nomem;
		nm[nr].start = s;
		nm[nr].end = e;
		nm[nr].pgoff = off;
		nm[nr].prot = (perms[0] == 'r' ? PROT_READ : 0) |
			      (perms[1] == 'w' ? PROT_WRITE : 0) | PROT_EXEC;
		nm[nr].flags = perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE;
		nm[nr].dso = d;
		nr++;
	}
	fclose(f);
	f = NULL;
	changed = nr != as->nr;
	for (i = 0; i < nr; i++) {
		bool known = false;

		for (j = 0; j < as->nr && !known; j++)
			known = same_map(&nm[i], &as->maps[j]);
		if (!known) {
			struct pdw_mmap m = {
				.pid = t->pid, .tid = t->tid,
				.start = nm[i].start,
				.len = nm[i].end - nm[i].start,
				.pgoff = nm[i].pgoff, .prot = nm[i].prot,
				.flags = nm[i].flags, .maj = nm[i].dso->maj,
				.min = nm[i].dso->min, .ino = nm[i].dso->ino,
				.path = nm[i].dso->path,
				.cpumode = PERF_RECORD_MISC_USER,
			};

			changed = true;
			if (out_mmap(r, &m))
				goto fail;
		}
	}
	if (changed) {
		if (as_fold(r, as))
			goto fail;
		free(as->maps);
		as->maps = nm;
		as->nr = nr;
	} else {
		free(nm);
	}
	return 0;
nomem:
	oom(r);
fail:
	if (f)
		fclose(f);
	free(nm);
	return -1;
}

/* Decode (cached) the instruction at @pc of @t's address space. */
static int decode(struct rec *r, struct rtask *t, uint64_t pc,
		  struct hent *out)
{
	struct ras *as = t->as;
	struct hent *e;
	uint8_t buf[16];
	struct eb_insn in;
	size_t len = sizeof(buf);
	struct rmap *m;

	if (as->dirty && as_refresh(r, t))
		return -1;
	e = hfind(&as->cache, pc);
	if (e) {
		*out = *e;
		return 0;
	}
	m = map_at(as, pc);
	if (!m) {
		if (as_refresh(r, t))
			return -1;
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
	e = hget(&as->cache, pc);
	if (!e)
		return oom(r);
	e->size = in.size;
	e->kind = in.kind;
	e->flags = in.size == 2 && buf[0] == 0x0f && buf[1] == 0x05 ?
		   IF_SYSCALL : 0;
	*out = *e;
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
		return -1;
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
		return -1;
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
		return -1;
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
		return -1;
	t->have_pc = true;
	return 0;
}

static int read_entry(pid_t pid, uint64_t *entry)
{
	char path[64];
	uint64_t av[2];
	int fd;
	int ret = -1;

	snprintf(path, sizeof(path), "/proc/%d/auxv", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
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

	if (as_put(r, t->as))
		return -1;
	t->as = as_new();
	if (!t->as)
		return oom(r);
	t->as->dirty = true;
	read_comm(t->pid, t->tid, comm, sizeof(comm));
	if (out_comm(r, t->pid, t->tid, comm, true))
		return -1;
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
	const struct hent *c = &t->cur;
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
		struct hent *e = hget(&t->as->cache, pc);

		if (!e)
			return oom(r);
		e->size = (uint8_t)(npc - pc);
		t->cur.size = e->size;
		executed = true;
		taken = false;
	} else {
		/* in place: a rep iteration; elsewhere: a signal or sigreturn */
		executed = npc != pc && !(t->sig_step && npc != pc + c->size);
		taken = npc != pc && npc != pc + c->size;
	}
	if (executed) {
		struct hent *e = hget(&t->as->cache, pc);

		if (!e)
			return oom(r);
		if (!e->size) {
			/* dropped by a refresh since: decoded again below */
			e->size = c->size;
			e->kind = c->kind;
			e->flags = c->flags;
		}
		e->count++;
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
			return -1;
	}
	if (taken) {
		struct rmap *m;

		if (t->as->dirty && as_refresh(r, t))
			return -1;
		m = map_at(t->as, pc);
		if (mark_hit(r, m ? m->dso : NULL))
			return -1;
		m = map_at(t->as, npc);
		if (!m && as_refresh(r, t))
			return -1;
		m = map_at(t->as, npc);
		if (mark_hit(r, m ? m->dso : NULL) || push_branch(r, t, pc, npc))
			return -1;
	}
	t->pc = npc;
	if (decode(r, t, npc, &t->cur))
		return -1;
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
		struct hent *e = hget(&t->as->cache, t->pc);

		if (!e)
			return oom(r);
		e->count++;
		r->executed++;
	}
	ret = flush_ring(r, t);

	/* A task that stopped before its parent's event has no FORK yet. */
	if (!ret && t->state != T_WAIT_PARENT)
		ret = out_task(r, true, t->pid, t->parent, t->tid, t->parent);
	if (!ret)
		ret = as_put(r, t->as);
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
		n->as = as_new();
		if (!n->as)
			return oom(r);
		/* The child has the parent's mappings (perf inherits them). */
		if (t->as->nr) {
			n->as->maps = malloc(t->as->nr * sizeof(*n->as->maps));
			if (!n->as->maps)
				return oom(r);
			memcpy(n->as->maps, t->as->maps,
			       t->as->nr * sizeof(*n->as->maps));
			n->as->nr = t->as->nr;
		}
	}
	if (out_task(r, false, n->pid, t->pid, n->tid, t->tid))
		return -1;
	if (n->state == T_WAIT_PARENT) {
		if (start_stepping(r, n))
			return -1;
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
			return -1;
		if (as_put(r, o->as))
			return -1;
		task_free(r, o);
	}
	/* The execve instruction ran; what follows is another program. */
	if (t->have_pc) {
		struct hent *e = hget(&t->as->cache, t->pc);

		if (!e)
			return oom(r);
		e->count++;
		r->steps++;
		r->executed++;
	}
	if (flush_ring(r, t))
		return -1;
	return begin_program(r, t);
}

static int on_stop(struct rec *r, struct rtask *t, int status)
{
	int sig = WSTOPSIG(status), ev = status >> 16;

	if (ev == PTRACE_EVENT_CLONE || ev == PTRACE_EVENT_FORK ||
	    ev == PTRACE_EVENT_VFORK) {
		if (new_task(r, t))
			return -1;
	} else if (ev == PTRACE_EVENT_EXEC) {
		if (exec_event(r, t))
			return -1;
	} else if (ev) {
		/* other events: nothing to do */
	} else if (t->state == T_WAIT_STOP) {
		/* its first stop (SIGSTOP): the parent's event came first */
		if (start_stepping(r, t))
			return -1;
	} else if (sig == SIGTRAP && t->state == T_TO_ENTRY) {
		if (at_entry(r, t))
			return -1;
	} else if (sig == SIGTRAP && t->state == T_STEP) {
		if (stepped(r, t))
			return -1;
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
				return -1;
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
			return -1;
	}
}

/* --- counts --- */

static int cmp_dso(const void *a, const void *b)
{
	const struct rdso *x = *(struct rdso *const *)a;
	const struct rdso *y = *(struct rdso *const *)b;
	int c = strcmp(x->path, y->path);

	if (c)
		return c;
	return x->ino < y->ino ? -1 : x->ino > y->ino;
}

static int cmp_hent(const void *a, const void *b)
{
	const struct hent *x = a, *y = b;

	return x->key < y->key ? -1 : x->key > y->key;
}

static int write_counts(struct rec *r)
{
	FILE *f = fopen(r->o->counts, "w");
	struct rdso **v;
	size_t i, j;

	if (!f)
		return rfail(r, "%s: %s", r->o->counts, strerror(errno));
	v = malloc((r->nr_dsos ? r->nr_dsos : 1) * sizeof(*v));
	if (!v) {
		fclose(f);
		return oom(r);
	}
	memcpy(v, r->dsos, r->nr_dsos * sizeof(*v));
	qsort(v, r->nr_dsos, sizeof(*v), cmp_dso);
	for (i = 0; i < r->nr_dsos; i++) {
		struct htab *h = &v[i]->counts;
		struct hent *e = malloc((h->used ? h->used : 1) * sizeof(*e));
		size_t n = 0;

		if (!e) {
			free(v);
			fclose(f);
			return oom(r);
		}
		for (j = 0; j < h->cap; j++)
			if (h->e[j].used && h->e[j].count)
				e[n++] = h->e[j];
		qsort(e, n, sizeof(*e), cmp_hent);
		for (j = 0; j < n; j++)
			fprintf(f, "%s 0x%" PRIx64 " %" PRIu64 "\n", v[i]->path,
				e[j].key, e[j].count);
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

		as_put(r, t->as);
		task_free(r, t);
	}
	free(r->tasks);
	for (i = 0; i < r->nr_dsos; i++)
		dso_free(r->dsos[i]);
	free(r->dsos);
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

int record_run(const struct record_opts *o, char *err, size_t errsz)
{
	struct rec r;
	struct rtask *t;
	int status = 0, ret = -1, exec_err = 0, fds[2];
	bool to_stdout = !strcmp(o->output, "-") ||
			 (o->script_copy && !strcmp(o->script_copy, "-"));

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.err = err;
	r.errsz = errsz;
	if (eb_cs_open(&r.cs)) {
		snprintf(err, errsz, "capstone: cannot open a disassembler");
		return -1;
	}
	/* The child reports a failed exec through this (closed by exec). */
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		rec_free(&r);
		return -1;
	}
	fflush(NULL);
	r.child = fork();
	if (r.child < 0) {
		snprintf(err, errsz, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		rec_free(&r);
		return -1;
	}
	if (!r.child) {
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
	if (waitpid(r.child, &status, 0) < 0 || !WIFSTOPPED(status)) {
		/* One message: the parent's, with the child's errno. */
		if (read(fds[0], &exec_err, sizeof(exec_err)) ==
		    (ssize_t)sizeof(exec_err))
			snprintf(err, errsz, "cannot run %s: %s", o->argv[0],
				 strerror(exec_err));
		else
			snprintf(err, errsz, "cannot run %s", o->argv[0]);
		close(fds[0]);
		r.child_done = true;
		rec_free(&r);
		return -1;
	}
	close(fds[0]);
	if (ptrace(PTRACE_SETOPTIONS, r.child, NULL,
		   (void *)(PTRACE_O_EXITKILL | PTRACE_O_TRACECLONE |
			    PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			    PTRACE_O_TRACEEXEC))) {
		snprintf(err, errsz, "ptrace: %s", strerror(errno));
		goto out_kill;
	}
	if (open_outputs(&r))
		goto out_kill;
	t = task_new(&r, r.child);
	if (!t) {
		oom(&r);
		goto out_kill;
	}
	t->parent = getpid();
	if (begin_program(&r, t))
		goto out_kill;
	resume(t);
	if (trace_loop(&r))
		goto out_kill;
	if (o->counts && write_counts(&r))
		goto out_kill;
	ret = 0;
	goto out;
out_kill:
	kill_all(&r);
out:
	ret = close_outputs(&r, ret);
	if (!ret && !o->quiet) {
		status = r.child_status;
		fprintf(stderr,
			"blockrange record: %s %s %d; %" PRIu64 " instructions executed (%" PRIu64 " steps) in %" PRIu64 " task%s, %" PRIu64 " taken branches, %" PRIu64 " samples written to %s\n",
			o->argv[0],
			WIFEXITED(status) ? "exited with status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			r.executed, r.steps, r.nr_seen_tasks,
			r.nr_seen_tasks == 1 ? "" : "s", r.taken, r.samples,
			strcmp(o->output, "-") ? o->output : "<stdout>");
	}
	rec_free(&r);
	return ret;
}
