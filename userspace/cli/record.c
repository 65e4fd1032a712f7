// SPDX-License-Identifier: GPL-2.0
/*
 * ptrace single-stepping branch sampler.  See record.h.
 */
#define _GNU_SOURCE

#include "record.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/types.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <unistd.h>

#include "elfbin.h"

struct xmap {
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	char dev[16];
	unsigned long inode;
	char perms[8];
};

struct br {
	uint64_t from;
	uint64_t to;
};

struct rec {
	const struct record_opts *o;
	FILE *out;
	pid_t pid;
	struct eb_binary bin;
	char exe[PATH_MAX];
	int64_t bias;		/* runtime - vaddr */
	struct xmap xm[16];	/* executable mappings of the exe */
	size_t nr_xm;
	/* decode cache and counts over [lo, hi) (vaddrs) */
	uint64_t lo;
	uint64_t hi;
	uint8_t *isize;		/* 0: not decoded yet */
	uint8_t *ikind;
	uint64_t *count;
	/* branches */
	struct br *ring;
	size_t cap;
	size_t nr;		/* entries held */
	size_t head;		/* ring: index of the next slot */
	uint64_t taken;
	uint64_t since;		/* taken branches since the last sample */
	uint64_t samples;
	uint64_t steps;
};

static bool in_exe(const struct rec *r, uint64_t pc)
{
	size_t i;

	for (i = 0; i < r->nr_xm; i++)
		if (pc >= r->xm[i].start && pc < r->xm[i].end)
			return true;
	return false;
}

static int read_maps(struct rec *r, char *err, size_t errsz)
{
	char path[64], line[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)r->pid);
	f = fopen(path, "r");
	if (!f) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return -1;
	}
	r->bias = INT64_MIN;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long s, e, off;
		unsigned long ino;
		char perms[8], dev[16], file[PATH_MAX];
		uint64_t v;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %7s %llx %15s %lu %4095[^\n]", &s,
			   &e, perms, &off, dev, &ino, file) < 6)
			continue;
		if (strcmp(file, r->exe))
			continue;
		if (r->bias == INT64_MIN && eb_off_to_vaddr(&r->bin, off, &v))
			r->bias = (int64_t)(s - v);
		if (!strchr(perms, 'x') || r->nr_xm == 16)
			continue;
		r->xm[r->nr_xm].start = s;
		r->xm[r->nr_xm].end = e;
		r->xm[r->nr_xm].pgoff = off;
		snprintf(r->xm[r->nr_xm].dev, sizeof(r->xm[0].dev), "%s", dev);
		snprintf(r->xm[r->nr_xm].perms, sizeof(r->xm[0].perms), "%s",
			 perms);
		r->xm[r->nr_xm].inode = ino;
		r->nr_xm++;
	}
	fclose(f);
	if (!r->bin.pie)
		r->bias = 0;
	if (r->bias == INT64_MIN || !r->nr_xm) {
		snprintf(err, errsz, "%s: no executable mapping of %s", path,
			 r->exe);
		return -1;
	}
	return 0;
}

static void write_sample(struct rec *r, size_t n)
{
	size_t i;

	/* Newest first. */
	fprintf(r->out, " %16" PRIx64,
		r->ring[(r->head + r->cap - 1) % r->cap].from);
	for (i = 0; i < n; i++) {
		const struct br *b = &r->ring[(r->head + r->cap - 1 - i) % r->cap];

		fprintf(r->out, " 0x%" PRIx64 "/0x%" PRIx64 "/-/-/-/0//- ",
			b->from, b->to);
	}
	fputc('\n', r->out);
	r->samples++;
}

static int push_branch(struct rec *r, uint64_t from, uint64_t to)
{
	if (!r->o->depth && r->nr == r->cap) {
		/* Unbounded: grow, keeping the ring order (head == nr). */
		size_t n = r->cap * 2;
		struct br *x = realloc(r->ring, n * sizeof(*x));

		if (!x)
			return -1;
		r->ring = x;
		r->cap = n;
		r->head = r->nr;
	}
	r->ring[r->head].from = from;
	r->ring[r->head].to = to;
	r->head = (r->head + 1) % r->cap;
	if (r->nr < r->cap)
		r->nr++;
	r->taken++;
	r->since++;
	if (r->since == r->o->period) {
		write_sample(r, r->nr);
		r->since = 0;
		if (!r->o->depth) {
			/* Keep only the newest entry, at slot 0. */
			r->ring[0] = r->ring[(r->head + r->cap - 1) % r->cap];
			r->nr = 1;
			r->head = 1;
		}
	}
	return 0;
}

/* Size and kind of the executable's instruction at @v (cached). */
static int insn_at(struct rec *r, uint64_t v, unsigned *size,
		   enum eb_kind *kind)
{
	struct eb_insn in;
	size_t i;

	if (v < r->lo || v >= r->hi)
		return -1;
	i = (size_t)(v - r->lo);
	if (!r->isize[i]) {
		if (eb_decode(&r->bin, v, &in, NULL, 0, NULL, 0))
			return -1;
		r->isize[i] = in.size;
		r->ikind[i] = in.kind;
	}
	*size = r->isize[i];
	*kind = (enum eb_kind)r->ikind[i];
	return 0;
}

static int get_pc(pid_t pid, uint64_t *pc)
{
	long v;

	errno = 0;
	v = ptrace(PTRACE_PEEKUSER, pid,
		   (void *)offsetof(struct user_regs_struct, rip), NULL);
	if (errno)
		return -1;
	*pc = (uint64_t)v;
	return 0;
}

static int set_pc(pid_t pid, uint64_t pc)
{
	return (int)ptrace(PTRACE_POKEUSER, pid,
			   (void *)offsetof(struct user_regs_struct, rip),
			   (void *)pc);
}

/* Run to the entry point with a temporary int3. */
static int run_to_entry(struct rec *r, uint64_t entry, int *status,
			char *err, size_t errsz)
{
	long word;
	uint64_t pc;
	int sig = 0;

	errno = 0;
	word = ptrace(PTRACE_PEEKTEXT, r->pid, (void *)entry, NULL);
	if (errno ||
	    ptrace(PTRACE_POKETEXT, r->pid, (void *)entry,
		   (void *)((word & ~0xffL) | 0xcc))) {
		snprintf(err, errsz, "ptrace: cannot set a breakpoint at 0x%" PRIx64 ": %s",
			 entry, strerror(errno));
		return -1;
	}
	for (;;) {
		if (ptrace(PTRACE_CONT, r->pid, NULL, (void *)(long)sig) ||
		    waitpid(r->pid, status, 0) < 0) {
			snprintf(err, errsz, "ptrace: %s", strerror(errno));
			return -1;
		}
		if (!WIFSTOPPED(*status)) {
			snprintf(err, errsz,
				 "%s ended before reaching its entry point",
				 r->exe);
			return -1;
		}
		sig = WSTOPSIG(*status);
		if (sig != SIGTRAP)
			continue;
		sig = 0;
		if (!get_pc(r->pid, &pc) && pc == entry + 1)
			break;
	}
	if (ptrace(PTRACE_POKETEXT, r->pid, (void *)entry, (void *)word) ||
	    set_pc(r->pid, entry)) {
		snprintf(err, errsz, "ptrace: %s", strerror(errno));
		return -1;
	}
	return 0;
}

static int step_loop(struct rec *r, int *status, char *err, size_t errsz)
{
	uint64_t pc, npc;
	int sig = 0;

	if (get_pc(r->pid, &pc)) {
		snprintf(err, errsz, "ptrace: %s", strerror(errno));
		return -1;
	}
	for (;;) {
		bool ein = in_exe(r, pc), nin;
		unsigned size = 0;
		enum eb_kind kind = EB_OTHER;
		uint64_t v = pc - (uint64_t)r->bias;

		if (ein && insn_at(r, v, &size, &kind)) {
			snprintf(err, errsz,
				 "%s: cannot decode the instruction at 0x%" PRIx64,
				 r->exe, v);
			return -1;
		}
		if (ptrace(PTRACE_SINGLESTEP, r->pid, NULL, (void *)(long)sig) ||
		    waitpid(r->pid, status, 0) < 0) {
			snprintf(err, errsz, "ptrace: %s", strerror(errno));
			return -1;
		}
		sig = 0;
		r->steps++;
		if (!WIFSTOPPED(*status)) {
			/* Exited or killed during this instruction. */
			if (ein)
				r->count[v - r->lo]++;
			return 0;
		}
		if (WSTOPSIG(*status) != SIGTRAP) {
			/* Deliver it with the next step; nothing ran. */
			sig = WSTOPSIG(*status);
			continue;
		}
		if (get_pc(r->pid, &npc)) {
			snprintf(err, errsz, "ptrace: %s", strerror(errno));
			return -1;
		}
		nin = in_exe(r, npc);
		if (ein) {
			bool taken;

			if (npc != pc || eb_kind_branch(kind))
				r->count[v - r->lo]++;
			if (nin)
				taken = eb_kind_branch(kind) &&
					(eb_kind_uncond(kind) ||
					 npc != pc + size);
			else
				taken = true;
			if (taken && push_branch(r, pc, npc))
				goto oom;
		} else if (nin) {
			if (push_branch(r, pc, npc))
				goto oom;
		}
		pc = npc;
	}
oom:
	snprintf(err, errsz, "out of memory");
	return -1;
}

static int write_counts(struct rec *r, char *err, size_t errsz)
{
	FILE *f = fopen(r->o->counts, "w");
	uint64_t i;

	if (!f) {
		snprintf(err, errsz, "%s: %s", r->o->counts, strerror(errno));
		return -1;
	}
	for (i = 0; i < r->hi - r->lo; i++)
		if (r->count[i])
			fprintf(f, "%" PRIx64 " %" PRIu64 "\n", r->lo + i,
				r->count[i]);
	if (fclose(f)) {
		snprintf(err, errsz, "%s: %s", r->o->counts, strerror(errno));
		return -1;
	}
	return 0;
}

int record_run(const struct record_opts *o, char *err, size_t errsz)
{
	struct rec r;
	char link[64];
	ssize_t n;
	int status = 0, ret = -1, exec_err = 0, fds[2];
	size_t i;

	memset(&r, 0, sizeof(r));
	r.o = o;
	r.cap = o->depth ? o->depth : 64;
	r.ring = calloc(r.cap, sizeof(*r.ring));
	if (!r.ring) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	/* The child reports a failed exec through this (closed by exec). */
	if (pipe2(fds, O_CLOEXEC)) {
		snprintf(err, errsz, "pipe: %s", strerror(errno));
		free(r.ring);
		return -1;
	}
	fflush(NULL);
	r.pid = fork();
	if (r.pid < 0) {
		snprintf(err, errsz, "fork: %s", strerror(errno));
		close(fds[0]);
		close(fds[1]);
		free(r.ring);
		return -1;
	}
	if (!r.pid) {
		close(fds[0]);
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		execvp(o->argv[0], o->argv);
		exec_err = errno;
		if (write(fds[1], &exec_err, sizeof(exec_err)) < 0)
			_exit(126);
		_exit(127);
	}
	close(fds[1]);
	if (waitpid(r.pid, &status, 0) < 0 || !WIFSTOPPED(status)) {
		/* One message: the parent's, with the child's errno. */
		if (read(fds[0], &exec_err, sizeof(exec_err)) ==
		    (ssize_t)sizeof(exec_err))
			snprintf(err, errsz, "cannot run %s: %s", o->argv[0],
				 strerror(exec_err));
		else
			snprintf(err, errsz, "cannot run %s", o->argv[0]);
		close(fds[0]);
		goto out_reap;
	}
	close(fds[0]);
	ptrace(PTRACE_SETOPTIONS, r.pid, NULL, (void *)PTRACE_O_EXITKILL);
	snprintf(link, sizeof(link), "/proc/%d/exe", (int)r.pid);
	n = readlink(link, r.exe, sizeof(r.exe) - 1);
	if (n < 0) {
		snprintf(err, errsz, "%s: %s", link, strerror(errno));
		goto out_kill;
	}
	r.exe[n] = '\0';
	if (eb_open(r.exe, &r.bin, err, errsz))
		goto out_kill;
	if (read_maps(&r, err, errsz))
		goto out_close;
	r.lo = UINT64_MAX;
	for (i = 0; i < r.bin.nr_xsecs; i++) {
		if (r.bin.xsecs[i].addr < r.lo)
			r.lo = r.bin.xsecs[i].addr;
		if (r.bin.xsecs[i].addr + r.bin.xsecs[i].size > r.hi)
			r.hi = r.bin.xsecs[i].addr + r.bin.xsecs[i].size;
	}
	if (r.lo >= r.hi) {
		snprintf(err, errsz, "%s: no executable section", r.exe);
		goto out_close;
	}
	r.isize = calloc(r.hi - r.lo, 1);
	r.ikind = calloc(r.hi - r.lo, 1);
	r.count = calloc(r.hi - r.lo, sizeof(*r.count));
	if (!r.isize || !r.ikind || !r.count) {
		snprintf(err, errsz, "out of memory");
		goto out_close;
	}
	if (!strcmp(o->output, "-")) {
		r.out = stdout;
	} else {
		r.out = fopen(o->output, "w");
		if (!r.out) {
			snprintf(err, errsz, "%s: %s", o->output,
				 strerror(errno));
			goto out_close;
		}
	}
	if (r.bin.pie) {
		for (i = 0; i < r.nr_xm; i++)
			fprintf(r.out,
				"PERF_RECORD_MMAP2 %d/%d: [0x%" PRIx64 "(0x%" PRIx64 ") @ %#" PRIx64 " %s %lu 0]: %s %s\n",
				(int)r.pid, (int)r.pid, r.xm[i].start,
				r.xm[i].end - r.xm[i].start, r.xm[i].pgoff,
				r.xm[i].dev, r.xm[i].inode, r.xm[i].perms,
				r.exe);
	}
	if (run_to_entry(&r, r.bin.entry + (uint64_t)r.bias, &status, err,
			 errsz))
		goto out_file;
	if (step_loop(&r, &status, err, errsz))
		goto out_file;
	/* Unbounded depth loses nothing: flush what is left. */
	if (!o->depth && r.since)
		write_sample(&r, r.nr);
	if (o->counts && write_counts(&r, err, errsz))
		goto out_file;
	ret = 0;
out_file:
	if (r.out && r.out != stdout) {
		if (fclose(r.out) && !ret) {
			snprintf(err, errsz, "%s: %s", o->output,
				 strerror(errno));
			ret = -1;
		}
	} else if (r.out) {
		fflush(r.out);
	}
	if (!ret && !o->quiet) {
		fprintf(stderr,
			"blockrange record: %s %s %d; %" PRIu64 " instructions stepped, %" PRIu64 " taken branches, %" PRIu64 " samples written to %s\n",
			o->argv[0],
			WIFEXITED(status) ? "exited with status" : "killed by signal",
			WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			r.steps, r.taken, r.samples, o->output);
	}
out_close:
	free(r.isize);
	free(r.ikind);
	free(r.count);
	eb_close(&r.bin);
out_kill:
	if (ret) {
		kill(r.pid, SIGKILL);
	}
out_reap:
	if (ret || !(WIFEXITED(status) || WIFSIGNALED(status)))
		while (waitpid(r.pid, &status, 0) > 0 && !WIFEXITED(status) &&
		       !WIFSIGNALED(status))
			;
	free(r.ring);
	return ret;
}
