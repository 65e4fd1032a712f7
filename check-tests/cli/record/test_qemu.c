// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record --engine=qemu` (the default engine), on the micro
 * workloads of check-tests/cli/workloads/qemu/ whose counts are known:
 *
 *  - rules: exact mode's taken edges and per-instruction counts equal the
 *    known numbers exactly (calls and returns, a conditional taken 750 of
 *    1000 times, rep movsb, an instruction across a page boundary, a
 *    signal handler: its entry and its sigreturn are no branches), so do
 *    the instruction and taken-branch totals of the summary, and the
 *    program's exit status is record's;
 *  - rings: every sample of the sampled mode is a consistent ring (each
 *    entry's source follows the previous entry's target on a straight
 *    line without an unconditional branch, and each entry is a taken edge
 *    of the exact recording); --jitter breaks the aliasing of a period
 *    with a loop;
 *  - tasks: 8 threads (four reusing one vCPU index), fork (two processes,
 *    status), dlopen/dlclose of two libraries at the same address, exec:
 *    exact counts per DSO, and the sampled text's FORK, COMM and EXIT;
 *  - oracles: callgrind's per-edge taken counts (valgrind --tool=callgrind
 *    --collect-jumps=yes) and the ptrace engine's full trace (period 1)
 *    equal exact mode's, with the rules where they differ (docs/record.md);
 *    perf 6.1 prints for the perf.data the text record wrote, and reports
 *    its DSOs; annotate shows Debian's /usr/bin/sort and libc with symbols;
 *  - the CPU model (glibc's routines follow it), the decoder of block ends
 *    against capstone on libc, and every error record reports in one line.
 */
#define _GNU_SOURCE

#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tests.h"
#include "qemu-plugin/qrec_wire.h"
#include "qemu-plugin/x86dec.h"
#include "base/status.h"
#include "input/brprof.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "resolve/elfbin.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

static const char *qwl(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_QEMU_WL"), name);
	return buf;
}

/*
 * blockrange record @opts -- @prog: stdout to TAG.out, stderr to TAG.err
 * (*@err gets it, free() it).  Returns the exit status.
 */
static int rec(const char *tag, char *const opts[], char *const prog[],
	       char **err)
{
	char out[512], errf[512], name[128];
	char *argv[64];
	size_t n = 0, i;
	int st;

	snprintf(name, sizeof(name), "%s.out", tag);
	scratch(name, out, sizeof(out));
	snprintf(name, sizeof(name), "%s.err", tag);
	scratch(name, errf, sizeof(errf));
	argv[n++] = (char *)env_path("BLOCKRANGE");
	argv[n++] = "record";
	for (i = 0; opts[i]; i++)
		argv[n++] = opts[i];
	argv[n++] = "--";
	for (i = 0; prog[i]; i++)
		argv[n++] = prog[i];
	argv[n] = NULL;
	st = run_cmd(argv, out, errf);
	*err = slurp(errf, NULL);
	return st;
}

static size_t count(const char *path, const char *needle);

/* The number after @key in @s, or -1. */
static long long after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* ---- exact profiles -------------------------------------------------------- */

struct prof {
	uint8_t *buf;
	struct brprof p;
};

static void prof_load(const char *path, struct prof *pf)
{
	char err[1024];
	size_t len;

	pf->buf = (uint8_t *)slurp(path, &len);
	ck_assert_msg(!brprof_parse(pf->buf, len, path, &pf->p, false, err,
				   sizeof(err)),
		      "%s", err);
}

static void prof_free(struct prof *pf)
{
	brprof_free(&pf->p);
	free(pf->buf);
}

/* The DSO whose path ends in "/@name". */
static const struct brprof_dso *prof_dso(const struct prof *pf,
					 const char *name)
{
	size_t n = strlen(name);
	uint32_t i;

	for (i = 0; i < pf->p.nr_dsos; i++) {
		const struct brprof_dso *d = &pf->p.dsos[i];

		if (d->path_len > n && !memcmp(d->path + d->path_len - n, name, n) &&
		    d->path[d->path_len - n - 1] == '/')
			return d;
	}
	ck_abort_msg("no DSO %s in the profile", name);
	return NULL;
}

static uint64_t field(const struct brprof_dso *d, enum brprof_section s,
		      uint64_t rec, unsigned f)
{
	uint64_t v;

	memcpy(&v, d->sec[s] + (rec * brprof_fields[s] + f) * 8, 8);
	return v;
}

/* Times the taken branch @from -> @to ran (ELF addresses). */
static uint64_t edge(const struct brprof_dso *d, uint64_t from, uint64_t to)
{
	uint64_t i;

	for (i = 0; i < d->nr[BRP_EDGES]; i++)
		if (field(d, BRP_EDGES, i, 0) == from &&
		    field(d, BRP_EDGES, i, 1) == to)
			return field(d, BRP_EDGES, i, 2);
	return 0;
}

/* Times the instruction at @addr ran: the ranges that hold it. */
static uint64_t cover(const struct brprof_dso *d, uint64_t addr)
{
	uint64_t i, n = 0;

	for (i = 0; i < d->nr[BRP_BLOCKS]; i++)
		if (field(d, BRP_BLOCKS, i, 0) <= addr &&
		    addr <= field(d, BRP_BLOCKS, i, 1))
			n += field(d, BRP_BLOCKS, i, 3);
	return n;
}

static uint64_t sym(const struct eb_binary *eb, const char *name)
{
	const struct eb_sym *s = eb_sym_by_name(eb, name);

	ck_assert_msg(s, "no symbol %s in %s", name, eb->path);
	return s->start;
}

static void bin_open(const char *path, struct eb_binary *eb)
{
	char err[1024];

	ck_assert_msg(!eb_open(path, eb, err, sizeof(err)), "%s", err);
}

/* record --exact of @prog into TAG.brprof; the summary in *@err. */
static int rec_exact(const char *tag, char *const prog[], struct prof *pf,
		     char **err)
{
	char out[512], name[128];
	int st;

	snprintf(name, sizeof(name), "%s.brprof", tag);
	scratch(name, out, sizeof(out));
	unlink(out);
	st = rec(tag, ARGV("--exact", "-o", out), prog, err);
	ck_assert_msg(strstr(*err, " counted exactly written to "), "%s", *err);
	prof_load(out, pf);
	return st;
}

/* ---- rules, exact ------------------------------------------------------------- */

struct want_edge {
	const char *from;	/* symbol, + @off */
	unsigned off;
	const char *to;
	uint64_t count;
};

struct want_cover {
	const char *at;
	uint64_t count;
};

struct rule_case {
	const char *prog;
	int status;
	uint64_t insns;
	uint64_t taken;
	struct want_edge edges[4];
	struct want_cover covers[4];
};

static const struct rule_case rules[] = {
	{ "calls", 0, 5004, 2999,
	  { { "site", 0, "leaf", 1000 }, { "leaf_ret", 0, "after", 1000 },
	    { "back", 0, "site", 999 } },
	  { { "site", 1000 }, { "leaf", 1000 }, { "_start", 1 } } },
	{ "cond", 0, 5254, 1749,
	  { { "cond", 0, "skip", 750 }, { "back", 0, "top", 999 } },
	  { { "notaken", 250 }, { "top", 1000 }, { "skip", 1000 } } },
	/* the rep instruction's block runs 37 times a pass: no branch */
	{ "repmovs", 0, 604, 99,
	  { { "back", 0, "again", 99 } },
	  { { "rep", 100 }, { "again", 100 }, { "back", 100 } } },
	/* _start's jmp (5 bytes in), the loop; nothing at the page */
	{ "pagecross", 0, 755, 50,
	  { { "_start", 5, "loop", 1 }, { "back", 0, "loop", 49 } },
	  { { "cross", 50 }, { "after", 50 }, { "loop", 50 } } },
	/* 1000 instructions in a line: QEMU splits it, no branch */
	{ "longblock", 0, 10 * 1002 + 1 + 3, 9,
	  { { "back", 0, "top", 9 } },
	  { { "middle", 10 }, { "back", 10 }, { "top", 10 } } },
	/* kill's return into the handler, sigreturn: no branches */
	{ "signal", 20, 390, 79,
	  { { "back", 0, "loop", 19 }, { "hback", 0, "hloop", 40 },
	    { "hret", 0, "restorer", 20 } },
	  { { "handler", 20 }, { "resume", 20 }, { "sigret", 20 },
	    { "hloop", 60 } } },
};

START_TEST(rules_exact)
{
	const struct rule_case *rc = &rules[_i];
	char bin[512], *err;
	const struct brprof_dso *d;
	struct eb_binary eb;
	struct prof pf;
	size_t k, nedges = 0;
	int st;

	qwl(rc->prog, bin, sizeof(bin));
	st = rec_exact(rc->prog, ARGV(bin), &pf, &err);
	ck_assert_msg(st == rc->status, "%s: status %d, want %d: %s", rc->prog,
		      st, rc->status, err);
	ck_assert_msg(after(err, "cpu max: ") == (long long)rc->insns &&
		      after(err, " instructions, ") == (long long)rc->taken,
		      "%s: want %" PRIu64 " instructions and %" PRIu64 " taken branches: %s",
		      rc->prog, rc->insns, rc->taken, err);
	ck_assert_msg(pf.p.flags & BRPROF_EXACT, "%s: no exact mark", rc->prog);
	bin_open(bin, &eb);
	d = prof_dso(&pf, rc->prog);
	for (k = 0; k < 4 && rc->edges[k].from; k++) {
		const struct want_edge *w = &rc->edges[k];
		uint64_t from = sym(&eb, w->from) + w->off, to = sym(&eb, w->to);

		ck_assert_msg(edge(d, from, to) == w->count,
			      "%s: %s+%u -> %s taken %" PRIu64 " times, want %" PRIu64,
			      rc->prog, w->from, w->off, w->to, edge(d, from, to),
			      w->count);
		nedges++;
	}
	ck_assert_msg(d->nr[BRP_EDGES] == nedges,
		      "%s: %" PRIu64 " distinct taken edges, want %zu", rc->prog,
		      d->nr[BRP_EDGES], nedges);
	for (k = 0; k < 4 && rc->covers[k].at; k++)
		ck_assert_msg(cover(d, sym(&eb, rc->covers[k].at)) ==
			      rc->covers[k].count,
			      "%s: %s ran %" PRIu64 " times, want %" PRIu64, rc->prog,
			      rc->covers[k].at, cover(d, sym(&eb, rc->covers[k].at)),
			      rc->covers[k].count);
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}
END_TEST

/*
 * An exact profile is marked so (header, annotate's text and JSON), its
 * llvm-profgen branches and BOLT branches are its taken edges, nothing
 * more; merging keeps the mark only if every input has it.
 */
START_TEST(exact_outputs)
{
	char bin[512], ex[512], data[512], sp[512], m[512], out[512], *err, *s;
	struct prof pf;

	qwl("calls", bin, sizeof(bin));
	rec_exact("outputs", ARGV(bin), &pf, &err);
	free(err);
	prof_free(&pf);
	scratch("outputs.brprof", ex, sizeof(ex));
	scratch("outputs.txt", out, sizeof(out));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate", "-i",
				      ex, "--no-pager"), out, NULL), 0);
	ck_assert_uint_eq(count(out, "Disassembly of calls for taken-branches-exact:u (exact counts)"),
			  count(out, "Disassembly of"));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate", "-i",
				      ex, "--format=json"), out, NULL), 0);
	ck_assert_uint_eq(count(out, "{\"event\": \"taken-branches-exact:u\", \"exact\": true, "), 1);
	/* llvm-profgen's raw profile: 3 branches (text base 0x401000) */
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "ranges", "-i",
				      ex), out, NULL), 0);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, "\n3\n6->19:1000\ne->6:999\n1d->b:1000\n"), "%s", s);
	free(s);
	/* report and profile read it; the report says it is exact */
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "report", "-i", ex,
				      "-o", out), NULL, NULL), 0);
	ck_assert_uint_eq(count(out, "(exact: every taken branch counted, no sampling)"), 1);
	ck_assert_uint_eq(count(out, "\"exact\": true"), 1);
	scratch("outputs-again.brprof", m, sizeof(m));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "profile", "-i", ex,
				      "-o", m), NULL, NULL), 0);
	prof_load(m, &pf);
	ck_assert(pf.p.flags & BRPROF_EXACT);
	ck_assert_uint_eq(edge(prof_dso(&pf, "calls"), 0x401006, 0x401019), 1000);
	prof_free(&pf);
	/* BOLT: the 3 branches, nothing to or from outside */
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "bolt", "-i", ex,
				      "--dso", "calls", "-o", out), NULL, NULL), 0);
	s = slurp(out, NULL);
	{
		static const char b3[] = "B 401006 401019 1000 0\nB 40100e 401006 999 0\nB 40101d 40100b 1000 0\nf ";

		ck_assert_msg(!strncmp(s, b3, strlen(b3)), "%s", s);
	}
	free(s);
	/* merge: exact + exact is exact, exact + sampled is not */
	scratch("outputs-merged.brprof", m, sizeof(m));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "merge", ex, ex,
				      "-o", m), NULL, NULL), 0);
	prof_load(m, &pf);
	ck_assert(pf.p.flags & BRPROF_EXACT);
	ck_assert_uint_eq(edge(prof_dso(&pf, "calls"), 0x401006, 0x401019), 2000);
	prof_free(&pf);
	scratch("outputs.data", data, sizeof(data));
	scratch("outputs-sampled.brprof", sp, sizeof(sp));
	ck_assert_int_eq(rec("outputs-sampled", ARGV("-o", data, "--period", "7"),
			     ARGV(bin), &err), 0);
	free(err);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "profile", "-i",
				      data, "-o", sp), NULL, NULL), 0);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "merge", ex, sp,
				      "-o", m), NULL, NULL), 0);
	prof_load(m, &pf);
	ck_assert(!(pf.p.flags & BRPROF_EXACT));
	prof_free(&pf);
}
END_TEST

/*
 * The golden program (check-tests/cli/golden/) recorded by both engines,
 * --depth 4 --period 2: the same samples, those of the golden file.
 */
/* The lines of @path but its mmap lines (their device and inode vary). */
static char *samples_of(const char *path)
{
	char *s = slurp(path, NULL), *out = calloc(1, strlen(s) + 1), *l;
	char *save = NULL;

	ck_assert(out);
	for (l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strstr(l, "PERF_RECORD_MMAP2")) {
			strcat(out, l);
			strcat(out, "\n");
		}
	free(s);
	return out;
}

/*
 * The golden program (check-tests/cli/golden/) recorded by the QEMU engine
 * with --depth 4 --period 2 gives the samples of the golden file, which
 * the ptrace engine wrote.
 */
START_TEST(golden_both_engines)
{
	char bin[512], txt[512], gp[512], *err, *got, *want;

	snprintf(bin, sizeof(bin), "%s/golden", env_path("BLOCKRANGE_WORKLOADS"));
	scratch("golden-qemu.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("golden-qemu", ARGV("--format=perfscript", "-o", txt,
						 "--depth", "4", "--period", "2"),
			     ARGV(bin), &err), 0);
	free(err);
	snprintf(gp, sizeof(gp), "%s/record.perfscript", env_path("BLOCKRANGE_GOLDEN"));
	want = samples_of(gp);
	got = samples_of(txt);
	ck_assert_msg(!strcmp(got, want), "got:\n%s\nwant:\n%s", got, want);
	{
		size_t lines = 0;
		const char *p;

		for (p = want; (p = strchr(p, '\n')); p++)
			lines++;
		ck_assert_uint_eq(lines, 6);
	}
	free(got);
	free(want);
}
END_TEST

/* ---- rings, sampled ----------------------------------------------------------- */

struct sample {
	uint64_t ip;
	uint64_t from[64];
	uint64_t to[64];
	unsigned nr;
};

/* One "ip brstack" line of perf-script text; false for other lines. */
static bool parse_sample(const char *line, struct sample *s)
{
	const char *p = line;
	char *e;

	if (strstr(line, "PERF_RECORD_"))
		return false;
	s->ip = strtoull(p, &e, 16);
	if (e == p)
		return false;
	s->nr = 0;
	for (p = e; (p = strstr(p, "0x")) && s->nr < 64; s->nr++) {
		s->from[s->nr] = strtoull(p, &e, 16);
		ck_assert_msg(*e == '/', "%s", line);
		s->to[s->nr] = strtoull(e + 1, &e, 16);
		p = e;
	}
	return true;
}

/*
 * A straight line from @from to @to: instructions, none of them an
 * unconditional branch, from one to the other.
 */
static void straight(const struct eb_binary *eb, uint64_t from, uint64_t to,
		     const char *what)
{
	uint64_t a = from;

	while (a < to) {
		struct eb_insn in;

		ck_assert_msg(!eb_decode(eb, a, &in, NULL, 0, NULL, 0),
			      "%s: cannot decode %#" PRIx64, what, a);
		ck_assert_msg(!eb_kind_uncond(in.kind),
			      "%s: %#" PRIx64 " .. %#" PRIx64 " passes the branch at %#" PRIx64,
			      what, from, to, a);
		a += in.size;
	}
	ck_assert_msg(a == to, "%s: no straight line %#" PRIx64 " .. %#" PRIx64,
		      what, from, to);
}

/* Check every sample of the text @txt; returns their number. */
static size_t check_rings(const char *txt, const struct eb_binary *eb,
			  const struct brprof_dso *exact, unsigned depth)
{
	char *s = slurp(txt, NULL), *line, *save = NULL;
	size_t n = 0;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct sample smp;
		unsigned i;

		if (!parse_sample(line, &smp))
			continue;
		n++;
		ck_assert_msg(smp.nr >= 1 && smp.nr <= depth, "%s", line);
		ck_assert_msg(smp.ip == smp.from[0], "%s", line);
		for (i = 0; i < smp.nr; i++)
			ck_assert_msg(edge(exact, smp.from[i], smp.to[i]),
				      "not a taken edge of the exact recording: %s",
				      line);
		for (i = smp.nr - 1; i > 0; i--)
			straight(eb, smp.to[i], smp.from[i - 1], line);
	}
	free(s);
	return n;
}

START_TEST(rings_sampled)
{
	const struct rule_case *rc = &rules[_i];
	char bin[512], txt[512], tag[64], *err;
	struct eb_binary eb;
	struct prof pf;
	size_t n;

	qwl(rc->prog, bin, sizeof(bin));
	snprintf(tag, sizeof(tag), "ring-%s", rc->prog);
	rec_exact(tag, ARGV(bin), &pf, &err);
	free(err);
	snprintf(tag, sizeof(tag), "ring-%s.txt", rc->prog);
	scratch(tag, txt, sizeof(txt));
	ck_assert_int_eq(rec(tag, ARGV("--format=perfscript", "-o", txt,
				       "--depth", "8", "--period", "5"),
			     ARGV(bin), &err), rc->status);
	bin_open(bin, &eb);
	n = check_rings(txt, &eb, prof_dso(&pf, rc->prog), 8);
	/* one sample every 5 taken branches of the (only) thread */
	ck_assert_msg(n == rc->taken / 5, "%s: %zu samples, want %" PRIu64 ": %s",
		      rc->prog, n, rc->taken / 5, err);
	{
		char want[96];

		snprintf(want, sizeof(want), "; %" PRIu64 " samples of 8 branches every 5 taken branches",
			 rc->taken / 5);
		ck_assert_msg(strstr(err, want), "%s", err);
	}
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}
END_TEST

/* The distinct sample IPs of the text @txt. */
static size_t distinct_ips(const char *txt)
{
	char *s = slurp(txt, NULL), *line, *save = NULL;
	uint64_t ips[16];
	size_t n = 0, k;

	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		struct sample smp;

		if (!parse_sample(line, &smp))
			continue;
		for (k = 0; k < n && ips[k] != smp.ip; k++)
			;
		if (k == n && n < 16)
			ips[n++] = smp.ip;
	}
	free(s);
	return n;
}

/*
 * calls' loop takes 3 branches a pass (call, ret, jnz): with a period of
 * 99 every sample ends at the same branch; --jitter varies the period.
 */
START_TEST(jitter)
{
	char bin[512], txt[512], *err;

	qwl("calls", bin, sizeof(bin));
	scratch("jitter-off.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("jitter-off", ARGV("--format=perfscript", "-o", txt,
						"--period", "99"), ARGV(bin), &err), 0);
	ck_assert_uint_eq(distinct_ips(txt), 1);
	free(err);
	scratch("jitter-on.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("jitter-on", ARGV("--format=perfscript", "-o", txt,
					       "--period", "99", "--jitter", "10"),
			     ARGV(bin), &err), 0);
	ck_assert_msg(distinct_ips(txt) == 3, "%s", err);
	ck_assert_msg(strstr(err, "(+-jitter)"), "%s", err);
	free(err);
}
END_TEST

/* ---- tasks ------------------------------------------------------------------------ */

/* The taken count of @fn's backward branches (a -O0 loop's test). */
static uint64_t loop_back(const struct brprof_dso *d,
			  const struct eb_binary *eb, const char *fn)
{
	const struct eb_sym *s = eb_sym_by_name(eb, fn);
	uint64_t i, n = 0;

	ck_assert_msg(s, "no %s", fn);
	for (i = 0; i < d->nr[BRP_EDGES]; i++) {
		uint64_t f = field(d, BRP_EDGES, i, 0), t = field(d, BRP_EDGES, i, 1);

		if (f >= s->start && f < s->end && t >= s->start && t < f)
			n += field(d, BRP_EDGES, i, 2);
	}
	return n;
}

START_TEST(threads_exact)
{
	char bin[512], *err;
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;

	qwl("threads", bin, sizeof(bin));
	ck_assert_int_eq(rec_exact("threads", ARGV(bin), &pf, &err), 0);
	ck_assert_msg(strstr(err, " 9 threads in 1 process,"), "%s", err);
	bin_open(bin, &eb);
	d = prof_dso(&pf, "threads");
	ck_assert_uint_eq(loop_back(d, &eb, "work"), 36000);
	ck_assert_uint_eq(cover(d, sym(&eb, "work")), 8);
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(fork_exact)
{
	char bin[512], *err;
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;

	qwl("fork", bin, sizeof(bin));
	/* the parent's status: the child's (7) + 1 */
	ck_assert_int_eq(rec_exact("fork", ARGV(bin), &pf, &err), 8);
	ck_assert_msg(strstr(err, " 2 threads in 2 processes,"), "%s", err);
	bin_open(bin, &eb);
	d = prof_dso(&pf, "fork");
	ck_assert_uint_eq(loop_back(d, &eb, "work"), 8000);
	ck_assert_uint_eq(cover(d, sym(&eb, "work")), 2);
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(dlopen_exact)
{
	char bin[512], a[512], b[600], *err, *out, out_path[512];
	struct eb_binary eb;
	struct prof pf;
	unsigned long long fa = 0, fb = 0;

	qwl("dlopen", bin, sizeof(bin));
	ck_assert_int_eq(rec_exact("dlopen", ARGV(bin, (char *)env_path("BLOCKRANGE_QEMU_WL")),
				   &pf, &err), 0);
	qwl("libqa.so", a, sizeof(a));
	bin_open(a, &eb);
	ck_assert_uint_eq(loop_back(prof_dso(&pf, "libqa.so"), &eb, "qa_work"),
			  10 + 300);
	eb_close(&eb);
	qwl("libqb.so", b, sizeof(b));
	bin_open(b, &eb);
	ck_assert_uint_eq(loop_back(prof_dso(&pf, "libqb.so"), &eb, "qb_work"),
			  20 + 700);
	eb_close(&eb);
	/* the second file came where the first one was */
	out = slurp(scratch("dlopen.out", out_path, sizeof(out_path)), NULL);
	ck_assert_msg(sscanf(out, "libqa.so %llx libqb.so %llx", &fa, &fb) == 2,
		      "%s", out);
	ck_assert_msg(fa == fb, "the files did not share an address: %s", out);
	free(out);
	prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(exec_exact)
{
	char bin[512], calls[512], *err;
	struct eb_binary eb;
	struct prof pf;

	qwl("exec", bin, sizeof(bin));
	qwl("calls", calls, sizeof(calls));
	ck_assert_int_eq(rec_exact("exec", ARGV(bin, calls), &pf, &err), 0);
	ck_assert_msg(strstr(err, " 1 thread in 1 process,"), "%s", err);
	bin_open(calls, &eb);
	ck_assert_uint_eq(edge(prof_dso(&pf, "calls"), sym(&eb, "site"),
			       sym(&eb, "leaf")), 1000);
	(void)prof_dso(&pf, "exec");
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}
END_TEST

/* Lines of @path that contain @needle. */
static size_t count(const char *path, const char *needle)
{
	char *s = slurp(path, NULL), *p;
	size_t n = 0;

	for (p = s; (p = strstr(p, needle)); p++)
		n++;
	free(s);
	return n;
}

/*
 * The sampled text with task events: 8 thread FORKs of the process, 9
 * EXITs; the forked child's FORK; the exec'ed program's COMM exec.
 */
START_TEST(tasks_sampled)
{
	char bin[512], calls[512], txt[512], *err, *s, *p;
	int pid = 0, child = 0;
	size_t tids = 0;

	qwl("threads", bin, sizeof(bin));
	scratch("tasks-threads.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("tasks-threads", ARGV("--format=perfscript", "-o",
						   txt, "-F", "pid,tid,ip,brstack",
						   "--show-task-events", "--period",
						   "500"), ARGV(bin), &err), 0);
	free(err);
	ck_assert_uint_eq(count(txt, "PERF_RECORD_FORK("), 8);
	ck_assert_uint_eq(count(txt, "PERF_RECORD_EXIT("), 9);
	ck_assert_uint_eq(count(txt, "PERF_RECORD_COMM exec: threads:"), 1);
	/* samples of at least the 8 workers (each runs >= 1000 x 3 branches) */
	s = slurp(txt, NULL);
	{
		int seen[64], k, n = 0;

		for (p = s; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
			int a, b;

			if (sscanf(p, " %d/%d", &a, &b) == 2 &&
			    strncmp(strchr(p, '/') + strcspn(strchr(p, '/'), " ") +
				    strspn(strchr(p, '/') + strcspn(strchr(p, '/'), " "), " "),
				    "PERF_RECORD", 11)) {
				if (!pid)
					pid = a;
				ck_assert_int_eq(a, pid);
				for (k = 0; k < n && seen[k] != b; k++)
					;
				if (k == n && n < 64)
					seen[n++] = b;
			}
		}
		tids = (size_t)n;
	}
	free(s);
	ck_assert_msg(tids >= 8, "samples of %zu threads", tids);

	qwl("fork", bin, sizeof(bin));
	scratch("tasks-fork.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("tasks-fork", ARGV("--format=perfscript", "-o", txt,
						"-F", "pid,tid,ip,brstack",
						"--show-task-events", "--period",
						"100"), ARGV(bin), &err), 8);
	free(err);
	s = slurp(txt, NULL);
	p = strstr(s, "PERF_RECORD_FORK(");
	ck_assert_msg(p && sscanf(p, "PERF_RECORD_FORK(%d:%*d):(%d:", &child, &pid) == 2 &&
		      child != pid, "%s", s);
	free(s);

	qwl("exec", bin, sizeof(bin));
	qwl("calls", calls, sizeof(calls));
	scratch("tasks-exec.txt", txt, sizeof(txt));
	ck_assert_int_eq(rec("tasks-exec", ARGV("--format=perfscript", "-o", txt,
						"-F", "comm,pid,tid,ip,brstack",
						"--show-task-events", "--period",
						"100"), ARGV(bin, calls), &err), 0);
	free(err);
	ck_assert_uint_eq(count(txt, "PERF_RECORD_COMM exec: exec:"), 1);
	ck_assert_uint_eq(count(txt, "PERF_RECORD_COMM exec: calls:"), 1);
	ck_assert_msg(count(txt, " calls ") >= 2999 / 100, "%s", txt);
}
END_TEST

/* ---- oracles ------------------------------------------------------------------- */

struct cedge {
	uint64_t from;
	uint64_t to;
	uint64_t count;
};

struct cedges {
	struct cedge *v;
	size_t n;
};

static void cedge_add(struct cedges *e, uint64_t from, uint64_t to,
		      uint64_t count)
{
	size_t i;

	for (i = 0; i < e->n; i++)
		if (e->v[i].from == from && e->v[i].to == to) {
			e->v[i].count += count;
			return;
		}
	e->v = realloc(e->v, (e->n + 1) * sizeof(*e->v));
	ck_assert(e->v);
	e->v[e->n++] = (struct cedge){ from, to, count };
}

/* A position of callgrind's format (the instruction column), from @p. */
static uint64_t cg_pos(const char *p, uint64_t last, const char **end)
{
	char *e;
	uint64_t v;

	if (*p == '*') {
		*end = p + 1;
		return last;
	}
	if (*p == '+' || *p == '-') {
		v = strtoull(p + 1, &e, 10);
		*end = e;
		return *p == '+' ? last + v : last - v;
	}
	v = strtoull(p, &e, 0);
	*end = e;
	return v;
}

/*
 * The taken branches callgrind counted (--collect-jumps=yes,
 * --dump-instr=yes): "calls=", "jump=" and "jcnd=" lines give the count
 * and the target; the line after them is the source.  A target position
 * does not move the position the next line is relative to.
 */
static void cg_edges(const char *path, struct cedges *out)
{
	char *s = slurp(path, NULL), *line, *save = NULL;
	uint64_t last = 0, pend_to = 0, pend_n = 0;
	bool pending = false;

	out->v = NULL;
	out->n = 0;
	for (line = strtok_r(s, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		const char *e;

		if (!strncmp(line, "calls=", 6) || !strncmp(line, "jump=", 5) ||
		    !strncmp(line, "jcnd=", 5)) {
			const char *p = strchr(line, '=') + 1;
			char *x;

			/* jcnd=TAKEN/EXECUTED */
			pend_n = strtoull(p, &x, 10);
			if (*x == '/')
				strtoull(x + 1, &x, 10);
			pend_to = cg_pos(x + 1, last, &e);
			pending = true;
			continue;
		}
		if (!(*line == '*' || *line == '+' || *line == '-' ||
		      !strncmp(line, "0x", 2)))
			continue;
		last = cg_pos(line, last, &e);
		if (pending && pend_n)
			cedge_add(out, last, pend_to, pend_n);
		pending = false;
	}
	free(s);
}

/*
 * exact mode against callgrind on @prog (--skip-plt=no; the edges with
 * both ends in the executable's code): every taken edge but returns
 * (callgrind has none), and callgrind's but its rep-string self-jumps and
 * the jumps into the next instruction it makes where it splits a block
 * (docs/record.md).
 */
static void against_callgrind(const char *tag, const char *bin, char *const prog[])
{
	char cg[512], name[128], *err;
	struct cedges c;
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;
	const char *base = strrchr(bin, '/') + 1;
	size_t i, compared = 0;
	uint64_t k;

	snprintf(name, sizeof(name), "%s.callgrind", tag);
	scratch(name, cg, sizeof(cg));
	{
		char arg[600];
		char *argv[16];
		size_t n = 0;

		snprintf(arg, sizeof(arg), "--callgrind-out-file=%s", cg);
		argv[n++] = "valgrind";
		argv[n++] = "--tool=callgrind";
		argv[n++] = "--collect-jumps=yes";
		argv[n++] = "--dump-instr=yes";
		argv[n++] = "--skip-plt=no";
		argv[n++] = arg;
		for (i = 0; prog[i]; i++)
			argv[n++] = prog[i];
		argv[n] = NULL;
		run_cmd(argv, NULL, NULL);
	}
	cg_edges(cg, &c);
	rec_exact(tag, prog, &pf, &err);
	bin_open(bin, &eb);
	d = prof_dso(&pf, base);
	/* callgrind's, in ours */
	for (i = 0; i < c.n; i++) {
		struct eb_insn in;
		struct xd_insn xi;
		uint8_t bytes[16];
		int fd;

		if (!eb_xsec_at(&eb, c.v[i].from) || !eb_xsec_at(&eb, c.v[i].to))
			continue;
		ck_assert(!eb_decode(&eb, c.v[i].from, &in, NULL, 0, NULL, 0));
		fd = open(bin, O_RDONLY);
		{
			uint64_t off;

			ck_assert(eb_vaddr_to_off(&eb, c.v[i].from, &off));
			ck_assert(pread(fd, bytes, sizeof(bytes), (off_t)off) > 0);
		}
		close(fd);
		ck_assert(xd_decode(bytes, sizeof(bytes), c.v[i].from, &xi) > 0);
		if (xi.kind == XD_REP && c.v[i].to == c.v[i].from)
			continue;	/* callgrind: each iteration a jump */
		if (!eb_kind_branch(in.kind) &&
		    c.v[i].to == c.v[i].from + in.size)
			continue;	/* callgrind: a block split */
		ck_assert_msg(edge(d, c.v[i].from, c.v[i].to) == c.v[i].count,
			      "%s: %#" PRIx64 " -> %#" PRIx64 ": callgrind %" PRIu64 ", exact %" PRIu64,
			      tag, c.v[i].from, c.v[i].to, c.v[i].count,
			      edge(d, c.v[i].from, c.v[i].to));
		compared++;
	}
	/* ours, in callgrind's */
	for (k = 0; k < d->nr[BRP_EDGES]; k++) {
		uint64_t f = field(d, BRP_EDGES, k, 0), t = field(d, BRP_EDGES, k, 1);
		struct eb_insn in;
		bool found = false;

		if (!eb_xsec_at(&eb, f) || !eb_xsec_at(&eb, t))
			continue;
		ck_assert(!eb_decode(&eb, f, &in, NULL, 0, NULL, 0));
		/* callgrind counts no return */
		if (in.kind == EB_RET)
			continue;
		for (i = 0; i < c.n && !found; i++)
			found = c.v[i].from == f && c.v[i].to == t;
		ck_assert_msg(found, "%s: %#" PRIx64 " -> %#" PRIx64 " (%" PRIu64 " times) is not callgrind's",
			      tag, f, t, field(d, BRP_EDGES, k, 2));
	}
	ck_assert_msg(compared >= 1, "%s: no edge compared", tag);
	free(c.v);
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}

START_TEST(callgrind)
{
	char bin[512], tag[64];

	if (_i < 4) {
		static const char *const progs[] = { "calls", "cond", "repmovs",
						     "pagecross" };

		qwl(progs[_i], bin, sizeof(bin));
		snprintf(tag, sizeof(tag), "cg-%s", progs[_i]);
		against_callgrind(tag, bin, ARGV(bin));
	} else {
		snprintf(bin, sizeof(bin), "%s/sortsearch-nopie",
			 env_path("BLOCKRANGE_WORKLOADS"));
		against_callgrind("cg-sortsearch", bin, ARGV(bin, "64"));
	}
}
END_TEST

/*
 * The ptrace engine's full trace (--depth 0 --period 1 --start=exec,
 * --counts) against exact mode: every instruction of the executable ran as
 * often, and each of its taken branches (a sample's newest entry) was
 * taken as often.
 */
static void against_ptrace(const char *tag, const char *bin, char *const prog[])
{
	char txt[512], cnt[512], name[128], line[1024], *err, *s, *l, *save = NULL;
	struct cedges pt = { 0 };
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;
	size_t i, lines = 0;
	FILE *f;

	snprintf(name, sizeof(name), "%s.ptrace.txt", tag);
	scratch(name, txt, sizeof(txt));
	snprintf(name, sizeof(name), "%s.counts", tag);
	scratch(name, cnt, sizeof(cnt));
	snprintf(name, sizeof(name), "%s.ptrace", tag);
	ck_assert_int_eq(rec(name, ARGV("--engine=ptrace", "--format=perfscript",
					"-o", txt, "--depth", "0", "--period", "1",
					"--start=exec", "--counts", cnt), prog, &err), 0);
	free(err);
	rec_exact(tag, prog, &pf, &err);
	bin_open(bin, &eb);
	d = prof_dso(&pf, strrchr(bin, '/') + 1);
	f = fopen(cnt, "r");
	ck_assert(f);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' '), *sp2;
		uint64_t a, n;

		*sp = '\0';
		sp2 = strrchr(line, ' ');
		*sp2 = '\0';
		a = strtoull(sp2 + 1, NULL, 16);
		n = strtoull(sp + 1, NULL, 10);
		if (strcmp(line, bin))
			continue;
		lines++;
		ck_assert_msg(cover(d, a) == n,
			      "%s: %#" PRIx64 " ran %" PRIu64 " times (ptrace), %" PRIu64 " (exact)",
			      tag, a, n, cover(d, a));
	}
	fclose(f);
	ck_assert_uint_ge(lines, 10);
	s = slurp(txt, NULL);
	for (l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct sample smp;

		if (parse_sample(l, &smp) && smp.nr &&
		    eb_xsec_at(&eb, smp.from[0]) && eb_xsec_at(&eb, smp.to[0]))
			cedge_add(&pt, smp.from[0], smp.to[0], 1);
	}
	free(s);
	for (i = 0; i < pt.n; i++)
		ck_assert_msg(edge(d, pt.v[i].from, pt.v[i].to) == pt.v[i].count,
			      "%s: %#" PRIx64 " -> %#" PRIx64 ": ptrace %" PRIu64 ", exact %" PRIu64,
			      tag, pt.v[i].from, pt.v[i].to, pt.v[i].count,
			      edge(d, pt.v[i].from, pt.v[i].to));
	for (i = 0; i < d->nr[BRP_EDGES]; i++) {
		uint64_t fr = field(d, BRP_EDGES, i, 0), to = field(d, BRP_EDGES, i, 1);
		size_t k;
		bool found = false;

		if (!eb_xsec_at(&eb, fr) || !eb_xsec_at(&eb, to))
			continue;
		for (k = 0; k < pt.n && !found; k++)
			found = pt.v[k].from == fr && pt.v[k].to == to;
		ck_assert_msg(found, "%s: %#" PRIx64 " -> %#" PRIx64 " not in ptrace's trace",
			      tag, fr, to);
	}
	free(pt.v);
	eb_close(&eb);
	prof_free(&pf);
	free(err);
}

START_TEST(engines_agree)
{
	char bin[512];

	if (_i == 0) {
		qwl("cond", bin, sizeof(bin));
		against_ptrace("pt-cond", bin, ARGV(bin));
	} else if (_i == 1) {
		qwl("repmovs", bin, sizeof(bin));
		against_ptrace("pt-repmovs", bin, ARGV(bin));
	} else {
		snprintf(bin, sizeof(bin), "%s/sortsearch-nopie",
			 env_path("BLOCKRANGE_WORKLOADS"));
		against_ptrace("pt-sortsearch", bin, ARGV(bin, "24"));
	}
}
END_TEST

/*
 * perf 6.1 prints for the perf.data the very text record wrote with it
 * (mappings of both libraries included), and reports every DSO.
 */
START_TEST(perf_reads)
{
	char bin[512], data[512], txt[512], got[512], rep[512], *err;
	char *argv[] = { "perf", "script", "-i", data, "-F", "ip,brstack",
			 "--show-mmap-events", NULL };

	qwl("dlopen", bin, sizeof(bin));
	scratch("perf-dlopen.data", data, sizeof(data));
	scratch("perf-dlopen.txt", txt, sizeof(txt));
	scratch("perf-dlopen.perf-script", got, sizeof(got));
	scratch("perf-dlopen.report", rep, sizeof(rep));
	ck_assert_int_eq(rec("perf-dlopen", ARGV("-o", data, "--script-copy", txt,
						 "--period", "20"),
			     ARGV(bin, (char *)env_path("BLOCKRANGE_QEMU_WL")), &err), 0);
	free(err);
	ck_assert_int_eq(run_cmd(argv, got, NULL), 0);
	{
		size_t la, lb;
		char *a = slurp(got, &la), *b = slurp(txt, &lb);

		ck_assert_msg(la == lb && !memcmp(a, b, la), "%s and %s differ", got, txt);
		ck_assert_msg(strstr(a, "/libqa.so\n") && strstr(a, "/libqb.so\n"), "%s", a);
		free(a);
		free(b);
	}
	/* -q: the rows only (no header, no tip that may hold a "% ") */
	ck_assert_int_eq(run_cmd(ARGV("perf", "report", "-q", "-i", data, "--sort",
				      "dso", "--stdio"), rep, NULL), 0);
	ck_assert_uint_eq(count(rep, "% "), 5);
	ck_assert_uint_eq(count(rep, " libqa.so"), 1);
	ck_assert_uint_eq(count(rep, " libqb.so"), 1);
	ck_assert_uint_eq(count(rep, " libc.so.6"), 1);
	ck_assert_uint_eq(count(rep, " ld-linux-x86-64.so.2"), 1);
	ck_assert_uint_eq(count(rep, " dlopen"), 1);
	/* the build-ids of the files whose code ran */
	ck_assert_int_eq(run_cmd(ARGV("perf", "buildid-list", "-i", data), rep, NULL), 0);
	ck_assert_uint_eq(count(rep, "/libqa.so\n"), 1);
	ck_assert_uint_eq(count(rep, "/libc.so.6\n"), 1);
}
END_TEST

/*
 * Debian's stripped /usr/bin/sort on 3000 lines: annotate shows sort's
 * pseudo-symbols and libc with the symbols of libc6-dbg.
 */
START_TEST(sort_annotate)
{
	char in[512], data[512], ann[512], *err, *s, *libc;
	FILE *f;
	unsigned i;

	scratch("sort.in", in, sizeof(in));
	f = fopen(in, "w");
	ck_assert(f);
	for (i = 0; i < 3000; i++)
		fprintf(f, "%u\n", (i * 7919u) % 3001u);
	fclose(f);
	scratch("sort.data", data, sizeof(data));
	scratch("sort.annotate", ann, sizeof(ann));
	ck_assert_int_eq(rec("sort", ARGV("-o", data, "--period", "500"),
			     ARGV("/usr/bin/sort", in), &err), 0);
	ck_assert_msg(strstr(err, "blockrange record: /usr/bin/sort exited with status 0; qemu, cpu max: "),
		      "%s", err);
	free(err);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate", "-i",
				      data, "--no-pager"), ann, NULL), 0);
	s = slurp(ann, NULL);
	ck_assert_msg(strstr(s, "Disassembly of sort for taken-branches-sw:u") &&
		      strstr(s, ":\tsort+0x"), "%.3000s", s);
	libc = strstr(s, "Disassembly of libc.so.6 for taken-branches-sw:u");
	ck_assert_msg(libc, "%.3000s", s);
	/* a real symbol: "NAME():" without "+0x" */
	{
		char *p = strstr(libc, "\n         :\t");
		char name[256];

		ck_assert(p && sscanf(p, "\n         :\t%255[^\n]", name) == 1);
		ck_assert_msg(!strstr(name, "+0x") && strstr(name, "():"), "%s", name);
	}
	free(s);
}
END_TEST

/* glibc picks its routines by the guest CPU: the model record names. */
START_TEST(cpu_model)
{
	char bin[512], out[512], js[512], *err, *s;

	qwl("strings", bin, sizeof(bin));
	for (int k = 0; k < 2; k++) {
		scratch(k ? "cpu-qemu64.brprof" : "cpu-max.brprof", out, sizeof(out));
		scratch(k ? "cpu-qemu64.json" : "cpu-max.json", js, sizeof(js));
		ck_assert_int_eq(rec(k ? "cpu-qemu64" : "cpu-max",
				     k ? ARGV("--exact", "-o", out, "--cpu", "qemu64") :
					 ARGV("--exact", "-o", out), ARGV(bin), &err), 0);
		ck_assert_msg(strstr(err, k ? "; qemu, cpu qemu64: " : "; qemu, cpu max: "),
			      "%s", err);
		free(err);
		ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate",
					      "-i", out, "--dso", "libc.so.6",
					      "--format=json"), js, NULL), 0);
		s = slurp(js, NULL);
		ck_assert_msg(strstr(s, k ? "\"__strlen_sse2\"" : "\"__strlen_avx2\""),
			      "%.2000s", s);
		free(s);
	}
}
END_TEST

/* The xd kind of an instruction capstone classed @k (@got: ours). */
static enum xd_kind expect_kind(enum eb_kind k, const uint8_t *p,
				enum xd_kind got)
{
	switch (k) {
	case EB_COND:
		/* xbegin: a branch for capstone, a trap in QEMU (no RTM) */
		return p[0] == 0xc7 && p[1] == 0xf8 ? XD_TRAP : XD_COND;
	case EB_JMP:
		return XD_JMP;
	case EB_JMP_IND:
		return XD_IND_JMP;
	case EB_CALL:
		return got == XD_IND_CALL ? XD_IND_CALL : XD_CALL;
	case EB_RET:
		return XD_RET;
	default:
		/* no branch: plain, rep, syscall or trap, never a branch */
		return got == XD_REP || got == XD_SYSCALL || got == XD_TRAP ?
		       got : XD_PLAIN;
	}
}

/*
 * The decoder of block ends against capstone on libc's code: the length
 * of every instruction capstone decodes, the kind of each branch, and
 * that every shorter prefix reads as truncated (QEMU's page-crossing
 * listing); AVX-512 instructions capstone 4 does not know get a length.
 */
START_TEST(decoder)
{
	const char *libc = "/lib/x86_64-linux-gnu/libc.so.6";
	struct eb_binary eb;
	size_t h, i, n = 0, unknown = 0;
	uint8_t *buf;
	size_t len;
	int fd;

	bin_open(libc, &eb);
	ck_assert(!eb_cs_open(&h));
	buf = (uint8_t *)slurp(libc, &len);
	(void)fd;
	for (i = 0; i < eb.nr_xsecs; i++) {
		uint64_t a = eb.xsecs[i].addr, end = a + eb.xsecs[i].size, off;

		while (a < end) {
			struct eb_insn in;
			struct xd_insn xi;
			int r, t;

			ck_assert(eb_vaddr_to_off(&eb, a, &off));
			r = xd_decode(buf + off, end - a < 15 ? end - a : 15, a, &xi);
			if (eb_decode_bytes(h, buf + off, end - a, a, &in)) {
				/* capstone does not know it */
				ck_assert_msg(r > 0, "%#" PRIx64, a);
				unknown++;
				a += (uint64_t)r;
				continue;
			}
			n++;
			ck_assert_msg(r == in.size, "%#" PRIx64 ": length %d, capstone %u",
				      a, r, in.size);
			ck_assert_msg(xi.kind == expect_kind(in.kind, buf + off, xi.kind),
				      "%#" PRIx64 ": %s", a, xd_kind_name(xi.kind));
			for (t = 0; t < r; t++) {
				struct xd_insn y;

				ck_assert_msg(!xd_decode(buf + off, (size_t)t, a, &y),
					      "%#" PRIx64 ": %d bytes", a, t);
			}
			a += in.size;
		}
	}
	ck_assert_uint_gt(n, 300000);
	ck_assert_uint_lt(unknown, n / 100);
	free(buf);
	eb_cs_close(h);
	eb_close(&eb);
}
END_TEST

/* ---- errors ---------------------------------------------------------------------- */

/* Exactly one line on stderr, containing @want. */
static void one_line(const char *err, const char *want)
{
	const char *nl = strchr(err, '\n');

	ck_assert_msg(strstr(err, want) && nl && !nl[1], "want one line with '%s', got:\n%s",
		      want, err);
}

START_TEST(errors)
{
	char calls[512], foreign[512], out[512], bin[512], copy[600], *err;
	static const unsigned char elf32[64] = {
		0x7f, 'E', 'L', 'F', 1, 1, 1, 0, [16] = 2, 0, 3, 0, 1,
	};
	int fd;

	qwl("calls", calls, sizeof(calls));
	scratch("err.data", out, sizeof(out));
	/* not an x86-64 program: an ELF of class 32, machine 3 (i386) */
	scratch("foreign.elf", foreign, sizeof(foreign));
	fd = open(foreign, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ck_assert(fd >= 0 && write(fd, elf32, sizeof(elf32)) == sizeof(elf32));
	close(fd);
	ck_assert_int_eq(rec("err-foreign", ARGV("-o", out), ARGV(foreign), &err), 1);
	one_line(err, "not an x86-64 program (an ELF file of class 32, machine 3)");
	free(err);
	/* ... and refused when the program execs it: nothing runs unrecorded */
	qwl("exec", bin, sizeof(bin));
	unlink(out);
	ck_assert_int_eq(rec("err-exec-foreign", ARGV("-o", out), ARGV(bin, foreign), &err), 1);
	one_line(err, "cannot follow execve of ");
	ck_assert_msg(strstr(err, "(an ELF file of class 32, machine 3)"), "%s", err);
	ck_assert_int_ne(access(out, F_OK), 0);
	free(err);
	/* no qemu-x86_64, one that cannot load plugins, no plugin */
	setenv("BLOCKRANGE_QEMU", "/bin/true", 1);
	ck_assert_int_eq(rec("err-static", ARGV("-o", out), ARGV(calls), &err), 1);
	one_line(err, "/bin/true cannot load TCG plugins");
	free(err);
	unsetenv("BLOCKRANGE_QEMU");
	{
		char *path = strdup(getenv("PATH"));

		setenv("PATH", "/nonexistent", 1);
		ck_assert_int_eq(rec("err-noqemu", ARGV("-o", out), ARGV(calls), &err), 1);
		setenv("PATH", path, 1);
		free(path);
	}
	one_line(err, "qemu-x86_64 not found in PATH: install Debian's qemu-user");
	free(err);
	/* the binary somewhere without ../lib/blockrange/ */
	scratch("bin-alone/blockrange", copy, sizeof(copy));
	mkdir(scratch("bin-alone", bin, sizeof(bin)), 0755);
	{
		size_t len;
		char *b = slurp(env_path("BLOCKRANGE"), &len);

		fd = open(copy, O_WRONLY | O_CREAT | O_TRUNC, 0755);
		ck_assert(fd >= 0 && write(fd, b, len) == (ssize_t)len);
		close(fd);
		free(b);
	}
	{
		char eout[512], *e, *given = getenv("BLOCKRANGE_QEMU_PLUGIN");

		/* a plugin named in the environment is used wherever the binary is */
		given = given ? strdup(given) : NULL;
		unsetenv("BLOCKRANGE_QEMU_PLUGIN");
		scratch("err-noplugin.err", eout, sizeof(eout));
		ck_assert_int_eq(run_cmd(ARGV(copy, "record", "-o", out, "--", calls),
					 NULL, eout), 1);
		if (given) {
			setenv("BLOCKRANGE_QEMU_PLUGIN", given, 1);
			free(given);
		}
		e = slurp(eout, NULL);
		one_line(e, "the recorder's QEMU plugin is missing (");
		ck_assert_msg(strstr(e, "/lib/blockrange/blockrange-qemu.so)"), "%s", e);
		free(e);
	}
	/* a CPU model QEMU does not have */
	ck_assert_int_eq(rec("err-cpu", ARGV("-o", out, "--cpu", "nosuch"), ARGV(calls),
			     &err), 1);
	one_line(err, "expected --cpu MODEL of `");
	free(err);
	/* output: a missing directory, a full disk */
	ck_assert_int_eq(rec("err-outdir", ARGV("-o", "/nonexistent/dir/x.data"),
			     ARGV(calls), &err), 1);
	one_line(err, "/nonexistent/dir/x.data: No such file or directory");
	free(err);
	ck_assert_int_eq(rec("err-full", ARGV("-o", "/dev/full"), ARGV(calls), &err), 1);
	one_line(err, "/dev/full: No space left on device");
	free(err);
	/* the plugin's files cannot grow (as on a full disk): nothing written */
	unlink(out);
	ck_assert_int_eq(rec("err-fsize", ARGV("-o", out, "--period", "1"),
			     ARGV("prlimit", "--fsize=200000", "--", calls), &err), 1);
	one_line(err, ": File too large");
	ck_assert_int_ne(access(out, F_OK), 0);
	free(err);
	/* killed: the signal is record's status; what ran is recorded */
	ck_assert_int_eq(rec("err-killed", ARGV("-o", out), ARGV("sh", "-c", "kill -9 $$"),
			     &err), 128 + 9);
	one_line(err, "sh was killed by signal 9 (Killed) (process ");
	ck_assert_msg(after(err, "cpu max: ") > 1000, "%s", err);
	free(err);
}
END_TEST

/* ---- the reader, on recordings made by hand ---------------------------------- */

struct wfile {
	uint8_t buf[16384];
	size_t len;
};

static void w_header(struct wfile *w, uint32_t mode, int32_t pid, int32_t tid)
{
	struct qrec_header h;

	memset(w->buf, 0, sizeof(w->buf));
	memset(&h, 0, sizeof(h));
	memcpy(h.magic, QREC_MAGIC, sizeof(h.magic));
	h.version = QREC_VERSION;
	h.size = QREC_HEADER_SIZE;
	h.mode = mode;
	h.depth = 32;
	h.period = 1;
	h.pid = pid;
	h.ppid = 1;
	h.tid = tid;
	h.state = QREC_FINISHED;
	h.time = 1000;
	h.counts.insns = 7;
	h.counts.taken = 1;
	memcpy(w->buf, &h, sizeof(h));
	w->len = QREC_HEADER_SIZE;
}

static void w_rec(struct wfile *w, uint32_t type, const void *body, size_t n,
		  const void *tail, size_t tn)
{
	struct qrec_rec r = { type, (uint32_t)((sizeof(r) + n + tn + 7) & ~7u) };

	memcpy(w->buf + w->len, &r, sizeof(r));
	memcpy(w->buf + w->len + sizeof(r), body, n);
	if (tn)
		memcpy(w->buf + w->len + sizeof(r) + n, tail, tn);
	w->len += r.size;
}

static void w_save(const struct wfile *w, const char *dir, const char *name)
{
	char path[700];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert(fd >= 0 && write(fd, w->buf, w->len) == (ssize_t)w->len);
	close(fd);
}

/* A fresh directory DIR for case @tag. */
static void w_dir(const char *tag, char *dir, size_t size)
{
	char cmd[800];

	scratch(tag, dir, size);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* A valid sampled image of calls: COMM, its mapping, one sample. */
static void w_valid(struct wfile *w, const char *calls)
{
	struct qrec_comm c = { .time = 1001, .pid = 77, .tid = 77, .exec = 1 };
	struct qrec_map m = { .time = 1002, .id = 1, .start = 0x400000,
			      .end = 0x403000, .pgoff = 0 };
	struct stat st;
	struct {
		struct qrec_sample s;
		struct qrec_branch b[2];
	} smp = { { .time = 1003, .pid = 77, .tid = 77, .nr = 2 },
		  { { 0x401006, 0x401018 }, { 0x40100d, 0x401005 } } };
	struct qrec_end e = { .time = 1004, .pid = 77, .how = QREC_END_EXIT };

	ck_assert(!stat(calls, &st));
	m.ino = st.st_ino;
	m.maj = 0;
	m.min = 0;
	m.path_len = (uint32_t)strlen(calls);
	strcpy(c.comm, "calls");
	w_header(w, QREC_SAMPLED, 77, 77);
	w_rec(w, QREC_COMM, &c, sizeof(c), NULL, 0);
	w_rec(w, QREC_MAP, &m, sizeof(m), calls, strlen(calls));
	w_rec(w, QREC_SAMPLE, &smp, sizeof(smp), NULL, 0);
	w_rec(w, QREC_END, &e, sizeof(e), NULL, 0);
}

static int convert(const char *dir, bool exact, const char *out, char *err,
		   size_t errsz)
{
	struct qrec_opts o;

	memset(&o, 0, sizeof(o));
	o.output = out;
	o.format = RECORD_PERFSCRIPT;
	o.fields = PSW_DEFAULT_FIELDS;
	o.exact = exact;
	o.depth = 32;
	o.period = 1;
	return qrec_convert(&o, dir, err, errsz);
}

/*
 * The reader on recordings made by hand: a valid one becomes the text
 * perf script would print (the mapping narrowed to calls's executable
 * segment); every malformed one is refused with the file, the offset and
 * what was expected.
 */
START_TEST(reader)
{
	char dir[512], out[512], calls[512], err[4608], *s;
	struct wfile w;
	static const struct {
		const char *tag;
		size_t off;		/* where to put @patch in the valid file */
		uint32_t patch;
		bool exact;
		const char *want;
	} bad[] = {
		{ "magic", 0, 0x12345678, false, ": offset 0: expected the recorder's header, version 1" },
		{ "mode", 16, QREC_EXACT, false, ": offset 0: expected a sampled recording" },
		{ "size", QREC_HEADER_SIZE + 4, 13, false, ": offset 4096: expected a record size that is a multiple of 8, inside the file" },
		{ "type", QREC_HEADER_SIZE, 99, false, ": offset 4096: expected a record type of 1..9" },
		{ "map-id", QREC_HEADER_SIZE + 8 + sizeof(struct qrec_comm) + 8 + 8, 0,
		  false, "expected a mapping with an id and a range" },
		{ "exact", 0, 0, true, ": offset 0: expected an exact recording" },
	};
	size_t i;

	qwl("calls", calls, sizeof(calls));
	scratch("reader.txt", out, sizeof(out));
	w_dir("reader-empty", dir, sizeof(dir));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "did not record anything"), "%s", err);

	w_dir("reader-valid", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, "PERF_RECORD_MMAP2 77/77: [0x401000(0x1000) @ 0x1000 00:00 ") &&
		      strstr(s, " 401006 0x401006/0x401018/-/-/-/0/  0x40100d/0x401005/-/-/-/0/ \n"),
		      "%s", s);
	free(s);

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tag[64];

		snprintf(tag, sizeof(tag), "reader-%s", bad[i].tag);
		w_dir(tag, dir, sizeof(dir));
		w_valid(&w, calls);
		if (strcmp(bad[i].tag, "exact"))
			memcpy(w.buf + bad[i].off, &bad[i].patch, 4);
		w_save(&w, dir, "77.0.0.qrec");
		ck_assert_msg(convert(dir, bad[i].exact, out, err,
				      sizeof(err)) == BR_EINPUT,
			      "%s: accepted", bad[i].tag);
		ck_assert_msg(strstr(err, "/77.0.0.qrec") && strstr(err, bad[i].want),
			      "%s: %s", bad[i].tag, err);
	}

	/* a header cut short; two end records; a table without records */
	w_dir("reader-cut", dir, sizeof(dir));
	w_valid(&w, calls);
	w.len = 100;
	w_save(&w, dir, "77.0.0.qrec");
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, ": offset 0: expected a header page of 4096 bytes (the file is cut short)"),
		      "%s", err);
	w_dir("reader-ends", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_end e = { .time = 1005, .pid = 77, .how = QREC_END_EXIT };

		w_rec(&w, QREC_END, &e, sizeof(e), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "77.0.1.qrec: offset 4096: expected one end record per image"),
		      "%s", err);
	w_dir("reader-table", dir, sizeof(dir));
	{
		struct qrec_table t;

		memset(&t, 0, sizeof(t));
		memcpy(t.magic, QREC_TABLE_MAGIC, sizeof(t.magic));
		t.valid = 1;
		memcpy(w.buf, &t, sizeof(t));
		w.len = sizeof(t);
		w_save(&w, dir, "77.0.0.qtab");
	}
	ck_assert_int_eq(convert(dir, true, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "a table of process 77 without its records"), "%s", err);

	/* exact: a trace naming a mapping nobody described */
	w_dir("reader-trace", dir, sizeof(dir));
	w_header(&w, QREC_EXACT, 77, 77);
	{
		struct {
			struct qrec_traces h;
			struct qrec_trace t;
		} tr = { { .pid = 77, .tid = 77, .nr = 1 },
			 { 0, 0x401000, 0x401006, 1, 0, 5 } };

		w_rec(&w, QREC_TRACES, &tr, sizeof(tr), NULL, 0);
	}
	w_save(&w, dir, "77.0.0.qrec");
	scratch("reader.brprof", out, sizeof(out));
	ck_assert_int_eq(convert(dir, true, out, err, sizeof(err)), BR_EINPUT);
	ck_assert_msg(strstr(err, "process 77: a trace names mapping 5, which no record described"),
		      "%s", err);
}
END_TEST

/* The offset of record @n of @w (0: the header page, 1: the first record). */
static size_t w_at(const struct wfile *w, int n)
{
	size_t off = QREC_HEADER_SIZE;

	if (!n)
		return 0;
	while (--n) {
		struct qrec_rec r;

		memcpy(&r, w->buf + off, sizeof(r));
		off += r.size;
	}
	return off;
}

/* Convert @dir, which must be refused with an error holding @want. */
static void refused(const char *dir, bool exact, const char *out,
		    const char *want)
{
	char err[4608];

	ck_assert_msg(convert(dir, exact, out, err, sizeof(err)) == BR_EINPUT,
		      "%s: accepted", dir);
	ck_assert_msg(strstr(err, want), "%s: %s", dir, err);
}

/*
 * More malformed recordings, each a field of one record of the valid
 * sampled file changed (records: 1 COMM, 2 MAP, 3 SAMPLE, 4 END), and
 * files and tables the reader cannot use.
 */
START_TEST(reader_records)
{
	char dir[512], out[512], calls[512], err[4608], path[700], *s;
	struct wfile w;
	static const struct {
		const char *tag;
		int rec;		/* the record patched (0: header) */
		size_t off;		/* inside the record */
		uint32_t val;
		size_t off2;		/* a second field of it, if val2 */
		uint32_t val2;
		const char *want;
	} bad[] = {
		{ "pid", 0, offsetof(struct qrec_header, pid), 78, 0, 0,
		  ": offset 0: expected the pid and image number of the file's name" },
		{ "map-path", 2, 8 + offsetof(struct qrec_map, path_len), 5000, 0, 0,
		  ": expected a path inside the record" },
		{ "comm-short", 1, 4, 8, 0, 0,
		  ": offset 4096: expected a whole task record" },
		{ "sample-short", 3, 4, 8, 0, 0, ": expected a whole sample record" },
		{ "sample-nr", 3, 8 + offsetof(struct qrec_sample, nr), 3, 0, 0,
		  ": expected the sample's branches inside the record" },
		{ "traces-short", 1, 0, QREC_TRACES, 4, 8,
		  ": offset 4096: expected a whole traces record" },
		{ "traces-nr", 1, 0, QREC_TRACES, 0, 0,
		  ": offset 4096: expected the traces filling the record" },
		{ "exec-short", 1, 0, QREC_EXEC, 4, 8,
		  ": offset 4096: expected a whole exec record" },
	};
	size_t i;

	qwl("calls", calls, sizeof(calls));
	scratch("reader2.txt", out, sizeof(out));
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char tag[64];
		size_t at;

		snprintf(tag, sizeof(tag), "reader2-%s", bad[i].tag);
		w_dir(tag, dir, sizeof(dir));
		w_valid(&w, calls);
		at = w_at(&w, bad[i].rec);
		memcpy(w.buf + at + bad[i].off, &bad[i].val, 4);
		if (bad[i].val2)
			memcpy(w.buf + at + bad[i].off2, &bad[i].val2, 4);
		w_save(&w, dir, "77.0.0.qrec");
		refused(dir, false, out, bad[i].want);
	}

	/* a second thread's file describes mapping 1 with another range */
	w_dir("reader2-remap", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_map m = { .time = 1005, .id = 1, .start = 0x500000,
				      .end = 0x501000 };

		w_rec(&w, QREC_MAP, &m, sizeof(m), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	refused(dir, false, out, "77.0.1.qrec: offset 4096: expected a mapping id described once");

	/* tables: shorter than their header, or not a table */
	w_dir("reader2-table-short", dir, sizeof(dir));
	memcpy(w.buf, QREC_TABLE_MAGIC, 8);
	w.len = 10;
	w_save(&w, dir, "77.0.0.qtab");
	refused(dir, true, out, "77.0.0.qtab: offset 0: expected a table header of 64 bytes");
	w_dir("reader2-table-magic", dir, sizeof(dir));
	memset(w.buf, 0, 64);
	memcpy(w.buf, QREC_MAGIC, 8);
	w.len = 64;
	w_save(&w, dir, "77.0.0.qtab");
	refused(dir, true, out, "77.0.0.qtab: offset 0: expected a trace table whose slots fill the file");

	/* no directory; a file that cannot be opened; one that cannot be mapped */
	ck_assert_int_eq(convert("/nonexistent/rec", false, out, err, sizeof(err)),
			 BR_ESYS);
	ck_assert_str_eq(err, "/nonexistent/rec: No such file or directory");
	w_dir("reader2-dangling", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/77.0.0.qrec", dir);
	ck_assert(!symlink("/nonexistent/77.0.0.qrec", path));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "/77.0.0.qrec: No such file or directory"), "%s", err);
	w_dir("reader2-dir", dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/77.0.0.qrec", dir);
	ck_assert(!mkdir(path, 0755));
	ck_assert_int_eq(convert(dir, false, out, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "/77.0.0.qrec: No such device"), "%s", err);

	/*
	 * three files: the valid one, a second thread of it and a second
	 * process, records of the same time in both threads' files and two
	 * in one file: the text follows the files and their order
	 */
	w_dir("reader2-order", dir, sizeof(dir));
	w_valid(&w, calls);
	w_save(&w, dir, "77.0.0.qrec");
	w_header(&w, QREC_SAMPLED, 77, 78);
	{
		struct qrec_task fk = { .time = 1001, .pid = 77, .ppid = 77,
					.tid = 78, .ptid = 77 };
		struct qrec_task ex = { .time = 1001, .pid = 77, .ppid = 77,
					.tid = 78, .ptid = 78 };

		w_rec(&w, QREC_FORK, &fk, sizeof(fk), NULL, 0);
		w_rec(&w, QREC_EXIT, &ex, sizeof(ex), NULL, 0);
	}
	w_save(&w, dir, "77.0.1.qrec");
	w_header(&w, QREC_SAMPLED, 79, 79);
	{
		struct qrec_comm c = { .time = 900, .pid = 79, .tid = 79, .exec = 1 };
		struct qrec_end e = { .time = 1010, .pid = 79, .how = QREC_END_EXIT };

		strcpy(c.comm, "other");
		w_rec(&w, QREC_COMM, &c, sizeof(c), NULL, 0);
		w_rec(&w, QREC_END, &e, sizeof(e), NULL, 0);
	}
	w_save(&w, dir, "79.0.0.qrec");
	{
		struct qrec_opts o;

		memset(&o, 0, sizeof(o));
		o.output = out;
		o.format = RECORD_PERFSCRIPT;
		o.fields = PSW_DEFAULT_FIELDS;
		o.task_events = true;
		o.depth = 32;
		o.period = 1;
		ck_assert_msg(!qrec_convert(&o, dir, err, sizeof(err)), "%s", err);
	}
	s = slurp(out, NULL);
	{
		static const char *const order[] = {
			"PERF_RECORD_COMM exec: other:79/79\n",
			"PERF_RECORD_COMM exec: calls:77/77\n",
			"PERF_RECORD_FORK(77:78):(77:77)\n",
			"PERF_RECORD_EXIT(77:78):(77:78)\n",
			"PERF_RECORD_MMAP2 77/77: [0x401000(0x1000) @ 0x1000 00:00 ",
			" 401006 0x401006/0x401018/-/-/-/0/  0x40100d/0x401005/-/-/-/0/ \n",
		};
		const char *at = s;

		/* one line each, in this order (the sample's line is indented) */
		for (i = 0; i < sizeof(order) / sizeof(order[0]); i++) {
			const char *nl = strchr(at, '\n'), *p = strstr(at, order[i]);

			ck_assert_msg(nl && p && p < nl + 1 && (i == 5 || p == at),
				      "'%s' not next in:\n%s", order[i], s);
			at = nl + 1;
		}
		ck_assert_msg(!*at, "more than expected:\n%s", s);
	}
	free(s);

	/*
	 * a mapping whose file is another one (the inode differs), no file,
	 * or a part of calls without its executable segment keeps its whole
	 * range: only calls's own segment is narrowed to
	 */
	for (i = 0; i < 3; i++) {
		static const char *const tags[] = { "reader2-inode", "reader2-name",
						    "reader2-data" };
		size_t m;

		w_dir(tags[i], dir, sizeof(dir));
		w_valid(&w, calls);
		m = w_at(&w, 2) + 8;
		if (i == 1) {
			/* a name, not a path: "xwork/..." */
			w.buf[m + sizeof(struct qrec_map)] = 'x';
		} else if (i == 0) {
			uint64_t ino = 1;

			memcpy(w.buf + m + offsetof(struct qrec_map, ino), &ino, 8);
		} else {
			uint64_t v[3] = { 0x402000, 0x403000, 0x2000 };

			memcpy(w.buf + m + offsetof(struct qrec_map, start), v, sizeof(v));
		}
		w_save(&w, dir, "77.0.0.qrec");
		ck_assert_msg(!convert(dir, false, out, err, sizeof(err)), "%s", err);
		s = slurp(out, NULL);
		ck_assert_msg(strstr(s, i == 2 ?
				     "PERF_RECORD_MMAP2 77/77: [0x402000(0x1000) @ 0x2000 00:00 " :
				     "PERF_RECORD_MMAP2 77/77: [0x400000(0x3000) @ 0 00:00 "),
			      "%s: %s", tags[i], s);
		free(s);
	}
}
END_TEST

/* ---- the benchmark's probe ------------------------------------------------- */

/*
 * bench/qemu-probe.c pairs blocks as the least recorder would (the block
 * before, one compare with its fall-through) and is what `make bench`
 * takes for the floor of the plugin's cost; it must pair the same blocks.
 * The blocks it finds not reached by falling through are the taken
 * branches (the rules' counts), the first block, and what the rules know
 * is no branch: the rep block's 37 runs a pass (100 passes), the block
 * that starts at the page-crossing instruction (50 times).
 */
struct probe_case {
	const char *prog;
	int status;
	uint64_t jumps;
};

static const struct probe_case probe_cases[] = {
	{ "calls", 0, 2999 + 1 },
	{ "cond", 0, 1749 + 1 },
	{ "longblock", 0, 9 + 1 },
	{ "repmovs", 0, 99 + 1 + 37 * 100 },
	{ "pagecross", 0, 50 + 1 + 50 },
};

START_TEST(probe_pairs)
{
	const struct probe_case *c = &probe_cases[_i];
	char wl[512], spec[600], out[512], errf[512], name[64];
	long long jumps;
	char *err;
	int st;

	snprintf(spec, sizeof(spec), "%s,mode=pair",
		 env_path("BLOCKRANGE_QEMU_PROBE"));
	snprintf(name, sizeof(name), "probe-%s.out", c->prog);
	scratch(name, out, sizeof(out));
	snprintf(name, sizeof(name), "probe-%s.err", c->prog);
	scratch(name, errf, sizeof(errf));
	st = run_cmd(ARGV("qemu-x86_64", "-cpu", "max", "-plugin", spec,
			  (char *)qwl(c->prog, wl, sizeof(wl))), out, errf);
	err = slurp(errf, NULL);
	ck_assert_msg(st == c->status, "%s: status %d: %s", c->prog, st, err);
	jumps = after(err, " blocks, ");
	ck_assert_msg(jumps == (long long)c->jumps,
		      "%s: %lld blocks not reached by falling through, want %llu: %s",
		      c->prog, jumps, (unsigned long long)c->jumps, err);
	free(err);
}
END_TEST

Suite *qemu_record_suite(void)
{
	Suite *s = suite_create("qemu-record");
	TCase *t = tcase_create("rules");

	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, rules_exact, 0, sizeof(rules) / sizeof(rules[0]));
	tcase_add_loop_test(t, rings_sampled, 0, sizeof(rules) / sizeof(rules[0]));
	tcase_add_test(t, jitter);
	tcase_add_test(t, exact_outputs);
	tcase_add_test(t, golden_both_engines);
	tcase_add_test(t, reader);
	tcase_add_test(t, reader_records);
	tcase_add_test(t, decoder);
	suite_add_tcase(s, t);
	t = tcase_create("tasks");
	tcase_set_timeout(t, 60);
	tcase_add_test(t, threads_exact);
	tcase_add_test(t, fork_exact);
	tcase_add_test(t, dlopen_exact);
	tcase_add_test(t, exec_exact);
	tcase_add_test(t, tasks_sampled);
	suite_add_tcase(s, t);
	t = tcase_create("oracles");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, callgrind, 0, 5);
	tcase_add_loop_test(t, engines_agree, 0, 3);
	tcase_add_test(t, perf_reads);
	tcase_add_test(t, sort_annotate);
	tcase_add_test(t, cpu_model);
	tcase_add_test(t, errors);
	tcase_add_loop_test(t, probe_pairs, 0,
			    sizeof(probe_cases) / sizeof(probe_cases[0]));
	suite_add_tcase(s, t);
	return s;
}
