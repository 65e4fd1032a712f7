// SPDX-License-Identifier: GPL-2.0
/*
 * The qemu-record suite, oracles: callgrind's per-edge taken counts and the
 * ptrace engine's full trace equal exact mode's; perf 6.1 reads what
 * record wrote; annotate of Debian's sort; the CPU model.
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
	qt_rec_exact(tag, prog, &pf, &err);
	qt_bin_open(bin, &eb);
	d = qt_prof_dso(&pf, base);
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
		ck_assert_msg(qt_edge(d, c.v[i].from, c.v[i].to) == c.v[i].count,
			      "%s: %#" PRIx64 " -> %#" PRIx64 ": callgrind %" PRIu64 ", exact %" PRIu64,
			      tag, c.v[i].from, c.v[i].to, c.v[i].count,
			      qt_edge(d, c.v[i].from, c.v[i].to));
		compared++;
	}
	/* ours, in callgrind's */
	for (k = 0; k < d->nr[BRP_EDGES]; k++) {
		uint64_t f = qt_field(d, BRP_EDGES, k, 0), t = qt_field(d, BRP_EDGES, k, 1);
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
			      tag, f, t, qt_field(d, BRP_EDGES, k, 2));
	}
	ck_assert_msg(compared >= 1, "%s: no edge compared", tag);
	free(c.v);
	eb_close(&eb);
	qt_prof_free(&pf);
	free(err);
}

START_TEST(callgrind)
{
	char bin[512], tag[64];

	if (_i < 4) {
		static const char *const progs[] = { "calls", "cond", "repmovs",
						     "pagecross" };

		qt_qwl(progs[_i], bin, sizeof(bin));
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
	ck_assert_int_eq(qt_rec(name, ARGV("--engine=ptrace", "--format=perfscript",
				"-o", txt, "--depth", "0", "--period", "1",
				"--start=exec", "--counts", cnt), prog, &err), 0);
	free(err);
	qt_rec_exact(tag, prog, &pf, &err);
	qt_bin_open(bin, &eb);
	d = qt_prof_dso(&pf, strrchr(bin, '/') + 1);
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
		ck_assert_msg(qt_cover(d, a) == n,
			      "%s: %#" PRIx64 " ran %" PRIu64 " times (ptrace), %" PRIu64 " (exact)",
			      tag, a, n, qt_cover(d, a));
	}
	fclose(f);
	ck_assert_uint_ge(lines, 10);
	s = slurp(txt, NULL);
	for (l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		struct sample smp;

		if (qt_parse_sample(l, &smp) && smp.nr &&
		    eb_xsec_at(&eb, smp.from[0]) && eb_xsec_at(&eb, smp.to[0]))
			cedge_add(&pt, smp.from[0], smp.to[0], 1);
	}
	free(s);
	for (i = 0; i < pt.n; i++)
		ck_assert_msg(qt_edge(d, pt.v[i].from, pt.v[i].to) == pt.v[i].count,
			      "%s: %#" PRIx64 " -> %#" PRIx64 ": ptrace %" PRIu64 ", exact %" PRIu64,
			      tag, pt.v[i].from, pt.v[i].to, pt.v[i].count,
			      qt_edge(d, pt.v[i].from, pt.v[i].to));
	for (i = 0; i < d->nr[BRP_EDGES]; i++) {
		uint64_t fr = qt_field(d, BRP_EDGES, i, 0), to = qt_field(d, BRP_EDGES, i, 1);
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
	qt_prof_free(&pf);
	free(err);
}

START_TEST(engines_agree)
{
	char bin[512];

	if (_i == 0) {
		qt_qwl("cond", bin, sizeof(bin));
		against_ptrace("pt-cond", bin, ARGV(bin));
	} else if (_i == 1) {
		qt_qwl("repmovs", bin, sizeof(bin));
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

	qt_qwl("dlopen", bin, sizeof(bin));
	scratch("perf-dlopen.data", data, sizeof(data));
	scratch("perf-dlopen.txt", txt, sizeof(txt));
	scratch("perf-dlopen.perf-script", got, sizeof(got));
	scratch("perf-dlopen.report", rep, sizeof(rep));
	ck_assert_int_eq(qt_rec("perf-dlopen", ARGV("-o", data, "--script-copy", txt,
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
	ck_assert_uint_eq(qt_count(rep, "% "), 5);
	ck_assert_uint_eq(qt_count(rep, " libqa.so"), 1);
	ck_assert_uint_eq(qt_count(rep, " libqb.so"), 1);
	ck_assert_uint_eq(qt_count(rep, " libc.so.6"), 1);
	ck_assert_uint_eq(qt_count(rep, " ld-linux-x86-64.so.2"), 1);
	ck_assert_uint_eq(qt_count(rep, " dlopen"), 1);
	/* the build-ids of the files whose code ran */
	ck_assert_int_eq(run_cmd(ARGV("perf", "buildid-list", "-i", data), rep, NULL), 0);
	ck_assert_uint_eq(qt_count(rep, "/libqa.so\n"), 1);
	ck_assert_uint_eq(qt_count(rep, "/libc.so.6\n"), 1);
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
	ck_assert_int_eq(qt_rec("sort", ARGV("-o", data, "--period", "500"),
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

	qt_qwl("strings", bin, sizeof(bin));
	for (int k = 0; k < 2; k++) {
		scratch(k ? "cpu-qemu64.brprof" : "cpu-max.brprof", out, sizeof(out));
		scratch(k ? "cpu-qemu64.json" : "cpu-max.json", js, sizeof(js));
		ck_assert_int_eq(qt_rec(k ? "cpu-qemu64" : "cpu-max",
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

void qemu_add_oracle_tests(TCase *tc)
{
	tcase_add_loop_test(tc, callgrind, 0, 5);
	tcase_add_loop_test(tc, engines_agree, 0, 3);
	tcase_add_test(tc, perf_reads);
	tcase_add_test(tc, sort_annotate);
	tcase_add_test(tc, cpu_model);
}
