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
 *  - call stacks (-g): perf 6.1 and llvm-profgen-19 read the samples'
 *    stacks, which have the known shapes of test_qemu_stacks.c's workloads.
 * This file: rules, rings and tasks; test_qemu_stacks.c: call stacks; test_qemu_oracles.c: the oracles and
 * the CPU model; test_qemu_reader.c: the recording reader and its errors;
 * check-tests/qemu-plugin/test_plugin.c: the plugin's decoder and probe.
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
#include "qemu_tests.h"
#include "format/qrec_wire.h"
#include "common/x86dec.h"
#include "base/status.h"
#include "input/brprof.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "resolve/elfbin.h"
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

	qt_qwl(rc->prog, bin, sizeof(bin));
	st = qt_rec_exact(rc->prog, ARGV(bin), &pf, &err);
	ck_assert_msg(st == rc->status, "%s: status %d, want %d: %s", rc->prog,
		      st, rc->status, err);
	ck_assert_msg(qt_after(err, "cpu max: ") == (long long)rc->insns &&
		      qt_after(err, " instructions, ") == (long long)rc->taken,
		      "%s: want %" PRIu64 " instructions and %" PRIu64 " taken branches: %s",
		      rc->prog, rc->insns, rc->taken, err);
	ck_assert_msg(pf.p.flags & BRPROF_EXACT, "%s: no exact mark", rc->prog);
	qt_bin_open(bin, &eb);
	d = qt_prof_dso(&pf, rc->prog);
	for (k = 0; k < 4 && rc->edges[k].from; k++) {
		const struct want_edge *w = &rc->edges[k];
		uint64_t from = qt_sym(&eb, w->from) + w->off, to = qt_sym(&eb, w->to);

		ck_assert_msg(qt_edge(d, from, to) == w->count,
			      "%s: %s+%u -> %s taken %" PRIu64 " times, want %" PRIu64,
			      rc->prog, w->from, w->off, w->to, qt_edge(d, from, to),
			      w->count);
		nedges++;
	}
	ck_assert_msg(d->nr[BRP_EDGES] == nedges,
		      "%s: %" PRIu64 " distinct taken edges, want %zu", rc->prog,
		      d->nr[BRP_EDGES], nedges);
	for (k = 0; k < 4 && rc->covers[k].at; k++)
		ck_assert_msg(qt_cover(d, qt_sym(&eb, rc->covers[k].at)) ==
			      rc->covers[k].count,
			      "%s: %s ran %" PRIu64 " times, want %" PRIu64, rc->prog,
			      rc->covers[k].at, qt_cover(d, qt_sym(&eb, rc->covers[k].at)),
			      rc->covers[k].count);
	eb_close(&eb);
	qt_prof_free(&pf);
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

	qt_qwl("calls", bin, sizeof(bin));
	qt_rec_exact("outputs", ARGV(bin), &pf, &err);
	free(err);
	qt_prof_free(&pf);
	scratch("outputs.brprof", ex, sizeof(ex));
	scratch("outputs.txt", out, sizeof(out));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate", "-i",
				      ex, "--no-pager"), out, NULL), 0);
	ck_assert_uint_eq(qt_count(out, "Disassembly of calls for taken-branches-exact:u (exact counts)"),
			  qt_count(out, "Disassembly of"));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "annotate", "-i",
				      ex, "--format=json"), out, NULL), 0);
	ck_assert_uint_eq(qt_count(out, "{\"event\": \"taken-branches-exact:u\", \"exact\": true, "), 1);
	/* llvm-profgen's raw profile: 3 branches (text base 0x401000) */
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "ranges", "-i",
				      ex), out, NULL), 0);
	s = slurp(out, NULL);
	ck_assert_msg(strstr(s, "\n3\n6->19:1000\ne->6:999\n1d->b:1000\n"), "%s", s);
	free(s);
	/* report and profile read it; the report says it is exact */
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "report", "-i", ex,
				      "-o", out), NULL, NULL), 0);
	ck_assert_uint_eq(qt_count(out, "(exact: every taken branch counted, no sampling)"), 1);
	ck_assert_uint_eq(qt_count(out, "\"exact\": true"), 1);
	scratch("outputs-again.brprof", m, sizeof(m));
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "profile", "-i", ex,
				      "-o", m), NULL, NULL), 0);
	qt_prof_load(m, &pf);
	ck_assert(pf.p.flags & BRPROF_EXACT);
	ck_assert_uint_eq(qt_edge(qt_prof_dso(&pf, "calls"), 0x401006, 0x401019), 1000);
	qt_prof_free(&pf);
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
	qt_prof_load(m, &pf);
	ck_assert(pf.p.flags & BRPROF_EXACT);
	ck_assert_uint_eq(qt_edge(qt_prof_dso(&pf, "calls"), 0x401006, 0x401019), 2000);
	qt_prof_free(&pf);
	scratch("outputs.data", data, sizeof(data));
	scratch("outputs-sampled.brprof", sp, sizeof(sp));
	ck_assert_int_eq(qt_rec("outputs-sampled", ARGV("-o", data, "--period", "7"),
				ARGV(bin), &err), 0);
	free(err);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "profile", "-i",
				      data, "-o", sp), NULL, NULL), 0);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("BLOCKRANGE"), "merge", ex, sp,
				      "-o", m), NULL, NULL), 0);
	qt_prof_load(m, &pf);
	ck_assert(!(pf.p.flags & BRPROF_EXACT));
	qt_prof_free(&pf);
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
	ck_assert_int_eq(qt_rec("golden-qemu", ARGV("--format=perfscript", "-o", txt,
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

		if (!qt_parse_sample(line, &smp))
			continue;
		n++;
		ck_assert_msg(smp.nr >= 1 && smp.nr <= depth, "%s", line);
		ck_assert_msg(smp.ip == smp.from[0], "%s", line);
		for (i = 0; i < smp.nr; i++)
			ck_assert_msg(qt_edge(exact, smp.from[i], smp.to[i]),
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

	qt_qwl(rc->prog, bin, sizeof(bin));
	snprintf(tag, sizeof(tag), "ring-%s", rc->prog);
	qt_rec_exact(tag, ARGV(bin), &pf, &err);
	free(err);
	snprintf(tag, sizeof(tag), "ring-%s.txt", rc->prog);
	scratch(tag, txt, sizeof(txt));
	ck_assert_int_eq(qt_rec(tag, ARGV("--format=perfscript", "-o", txt,
				"--depth", "8", "--period", "5"),
				ARGV(bin), &err), rc->status);
	qt_bin_open(bin, &eb);
	n = check_rings(txt, &eb, qt_prof_dso(&pf, rc->prog), 8);
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
	qt_prof_free(&pf);
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

		if (!qt_parse_sample(line, &smp))
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

	qt_qwl("calls", bin, sizeof(bin));
	scratch("jitter-off.txt", txt, sizeof(txt));
	ck_assert_int_eq(qt_rec("jitter-off", ARGV("--format=perfscript", "-o", txt,
				"--period", "99"), ARGV(bin), &err), 0);
	ck_assert_uint_eq(distinct_ips(txt), 1);
	free(err);
	scratch("jitter-on.txt", txt, sizeof(txt));
	ck_assert_int_eq(qt_rec("jitter-on", ARGV("--format=perfscript", "-o", txt,
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
		uint64_t f = qt_field(d, BRP_EDGES, i, 0), t = qt_field(d, BRP_EDGES, i, 1);

		if (f >= s->start && f < s->end && t >= s->start && t < f)
			n += qt_field(d, BRP_EDGES, i, 2);
	}
	return n;
}

START_TEST(threads_exact)
{
	char bin[512], *err;
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;

	qt_qwl("threads", bin, sizeof(bin));
	ck_assert_int_eq(qt_rec_exact("threads", ARGV(bin), &pf, &err), 0);
	ck_assert_msg(strstr(err, " 9 threads in 1 process,"), "%s", err);
	qt_bin_open(bin, &eb);
	d = qt_prof_dso(&pf, "threads");
	ck_assert_uint_eq(loop_back(d, &eb, "work"), 36000);
	ck_assert_uint_eq(qt_cover(d, qt_sym(&eb, "work")), 8);
	eb_close(&eb);
	qt_prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(fork_exact)
{
	char bin[512], *err;
	struct eb_binary eb;
	struct prof pf;
	const struct brprof_dso *d;

	qt_qwl("fork", bin, sizeof(bin));
	/* the parent's status: the child's (7) + 1 */
	ck_assert_int_eq(qt_rec_exact("fork", ARGV(bin), &pf, &err), 8);
	ck_assert_msg(strstr(err, " 2 threads in 2 processes,"), "%s", err);
	qt_bin_open(bin, &eb);
	d = qt_prof_dso(&pf, "fork");
	ck_assert_uint_eq(loop_back(d, &eb, "work"), 8000);
	ck_assert_uint_eq(qt_cover(d, qt_sym(&eb, "work")), 2);
	eb_close(&eb);
	qt_prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(dlopen_exact)
{
	char bin[512], a[512], b[600], *err, *out, out_path[512];
	struct eb_binary eb;
	struct prof pf;
	unsigned long long fa = 0, fb = 0;

	qt_qwl("dlopen", bin, sizeof(bin));
	ck_assert_int_eq(qt_rec_exact("dlopen", ARGV(bin, (char *)env_path("BLOCKRANGE_QEMU_WL")),
				      &pf, &err), 0);
	qt_qwl("libqa.so", a, sizeof(a));
	qt_bin_open(a, &eb);
	ck_assert_uint_eq(loop_back(qt_prof_dso(&pf, "libqa.so"), &eb, "qa_work"),
			  10 + 300);
	eb_close(&eb);
	qt_qwl("libqb.so", b, sizeof(b));
	qt_bin_open(b, &eb);
	ck_assert_uint_eq(loop_back(qt_prof_dso(&pf, "libqb.so"), &eb, "qb_work"),
			  20 + 700);
	eb_close(&eb);
	/* the second file came where the first one was */
	out = slurp(scratch("dlopen.out", out_path, sizeof(out_path)), NULL);
	ck_assert_msg(sscanf(out, "libqa.so %llx libqb.so %llx", &fa, &fb) == 2,
		      "%s", out);
	ck_assert_msg(fa == fb, "the files did not share an address: %s", out);
	free(out);
	qt_prof_free(&pf);
	free(err);
}
END_TEST

START_TEST(exec_exact)
{
	char bin[512], calls[512], *err;
	struct eb_binary eb;
	struct prof pf;

	qt_qwl("exec", bin, sizeof(bin));
	qt_qwl("calls", calls, sizeof(calls));
	ck_assert_int_eq(qt_rec_exact("exec", ARGV(bin, calls), &pf, &err), 0);
	ck_assert_msg(strstr(err, " 1 thread in 1 process,"), "%s", err);
	qt_bin_open(calls, &eb);
	ck_assert_uint_eq(qt_edge(qt_prof_dso(&pf, "calls"), qt_sym(&eb, "site"),
			       qt_sym(&eb, "leaf")), 1000);
	(void)qt_prof_dso(&pf, "exec");
	eb_close(&eb);
	qt_prof_free(&pf);
	free(err);
}
END_TEST
/*
 * The sampled text with task events: 8 thread FORKs of the process, 9
 * EXITs; the forked child's FORK; the exec'ed program's COMM exec.
 */
START_TEST(tasks_sampled)
{
	char bin[512], calls[512], txt[512], *err, *s, *p;
	int pid = 0, child = 0;
	size_t tids = 0;

	qt_qwl("threads", bin, sizeof(bin));
	scratch("tasks-threads.txt", txt, sizeof(txt));
	ck_assert_int_eq(qt_rec("tasks-threads", ARGV("--format=perfscript", "-o",
				txt, "-F", "pid,tid,ip,brstack",
				"--show-task-events", "--period",
				"500"), ARGV(bin), &err), 0);
	free(err);
	ck_assert_uint_eq(qt_count(txt, "PERF_RECORD_FORK("), 8);
	ck_assert_uint_eq(qt_count(txt, "PERF_RECORD_EXIT("), 9);
	ck_assert_uint_eq(qt_count(txt, "PERF_RECORD_COMM exec: threads:"), 1);
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

	qt_qwl("fork", bin, sizeof(bin));
	scratch("tasks-fork.txt", txt, sizeof(txt));
	ck_assert_int_eq(qt_rec("tasks-fork", ARGV("--format=perfscript", "-o", txt,
				"-F", "pid,tid,ip,brstack",
				"--show-task-events", "--period",
				"100"), ARGV(bin), &err), 8);
	free(err);
	s = slurp(txt, NULL);
	p = strstr(s, "PERF_RECORD_FORK(");
	ck_assert_msg(p && sscanf(p, "PERF_RECORD_FORK(%d:%*d):(%d:", &child, &pid) == 2 &&
		      child != pid, "%s", s);
	free(s);

	qt_qwl("exec", bin, sizeof(bin));
	qt_qwl("calls", calls, sizeof(calls));
	scratch("tasks-exec.txt", txt, sizeof(txt));
	ck_assert_int_eq(qt_rec("tasks-exec", ARGV("--format=perfscript", "-o", txt,
				"-F", "comm,pid,tid,ip,brstack",
				"--show-task-events", "--period",
				"100"), ARGV(bin, calls), &err), 0);
	free(err);
	ck_assert_uint_eq(qt_count(txt, "PERF_RECORD_COMM exec: exec:"), 1);
	ck_assert_uint_eq(qt_count(txt, "PERF_RECORD_COMM exec: calls:"), 1);
	ck_assert_msg(qt_count(txt, " calls ") >= 2999 / 100, "%s", txt);
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
	suite_add_tcase(s, t);
	t = tcase_create("reader");
	tcase_set_timeout(t, 120);
	qemu_add_reader_tests(t);
	suite_add_tcase(s, t);
	t = tcase_create("corpus");
	tcase_set_timeout(t, 60);
	qemu_add_corpus_tests(t);
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
	qemu_add_oracle_tests(t);
	suite_add_tcase(s, t);
	t = tcase_create("stacks");
	tcase_set_timeout(t, 120);
	qemu_add_stack_tests(t);
	suite_add_tcase(s, t);
	t = tcase_create("plugin");
	tcase_set_timeout(t, 120);
	qemu_add_plugin_tests(t);
	suite_add_tcase(s, t);
	return s;
}
