// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange autofdo` against llvm-profgen-19, and the profile-guided
 * loop on a small program:
 *  - oracle: the workloads (check-tests/cli/workloads/branches.c,
 *    sortsearch.c, autofdo/inlines.c, autofdo/nolines-*.c, and the C++ of
 *    autofdo/containers.cc with clang++-19) built with
 *    clang-19 -O2 -g -fdebug-info-for-profiling (non-PIE, and PIE with
 *    -fno-omit-frame-pointer) and gcc-12 -O2 -g (PIE), recorded with
 *    `blockrange record` (perf script text, or perf.data for gcc): our
 *    text and extbinary profiles are byte for byte llvm-profgen-19's, and
 *    so are `llvm-profdata merge --text` of both; a .brprof of the
 *    recording gives the same profile;
 *  - pgo: clang-19 -fprofile-sample-use= our profile applies it (its
 *    "Applied N samples" remarks, function entry counts in the IR), and
 *    the rebuilt program prints what the first build printed;
 *  - bolt: `blockrange bolt` -> perf2bolt -pa gives the .fdata perf2bolt -p
 *    makes of the same perf.data, llvm-bolt-19 applies it to a binary
 *    linked with --emit-relocs, and the result still runs;
 *  - bad input: no DWARF, a DSO the input has no samples of, a binary
 *    whose build-id is not the recorded one (--dso and --binary), a line
 *    table libdw cannot read (pseudo-probe discriminators), and code
 *    without line info named in the summary line.
 * Sources come from BLOCKRANGE_LOOKUP (check-tests/cli); compilers and
 * LLVM tools from CLANG19, CLANGXX19, GCC12, GXX12, LLVM_PROFDATA,
 * LLVM_BOLT, PERF2BOLT (defaults: the Debian names).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

static const char *tool(const char *env, const char *def)
{
	const char *v = getenv(env);

	return v && *v ? v : def;
}

#define CLANG tool("CLANG19", "clang-19")
#define GCC tool("GCC12", "gcc-12")
#define CLANGXX tool("CLANGXX19", "clang++-19")
#define GXX tool("GXX12", "g++-12")
#define PROFDATA tool("LLVM_PROFDATA", "llvm-profdata-19")
#define BOLT tool("LLVM_BOLT", "llvm-bolt-19")
#define PERF2BOLT tool("PERF2BOLT", "/usr/lib/llvm-19/bin/perf2bolt")

static const struct config {
	const char *tag;
	bool gcc;
	const char *flags[6];
	bool perfdata;		/* record perf.data instead of script text */
} configs[] = {
	{ "clang", false, { "-O2", "-g", "-fdebug-info-for-profiling",
			    "-fno-pie", "-no-pie", NULL }, false },
	{ "clang-fp-pie", false, { "-O2", "-g", "-fdebug-info-for-profiling",
				   "-fno-omit-frame-pointer", "-fpie",
				   "-pie" }, false },
	{ "gcc-pie", true, { "-O2", "-g", "-fpie", "-pie", NULL, NULL }, true },
};

static const struct prog {
	const char *name;
	const char *src;	/* under BLOCKRANGE_LOOKUP */
	const char *arg;
	size_t min_funcs;	/* in the profile */
	size_t min_inlined;	/* functions inlined into top-level ones */
	bool all_configs;
	bool cxx;
} progs[] = {
	{ "branches", "workloads/branches.c", "300", 2, 0, false, false },
	{ "sortsearch", "workloads/sortsearch.c", "48", 4, 0, false, false },
	{ "inlines", "autofdo/inlines.c", "64", 5, 5, true, false },
	{ "nolines", "autofdo/nolines-main.c", "2000", 1, 0, true, false },
	{ "containers", "autofdo/containers.cc", "200", 3, 20, false, true },
};

#define NR_CONFIGS (sizeof(configs) / sizeof(configs[0]))
#define NR_PROGS (sizeof(progs) / sizeof(progs[0]))

static void src_path(const char *rel, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_LOOKUP"), rel);
}

/* Build prog @p with config @c (and @extra flags, NULL-ended) into @out. */
static void build(const struct prog *p, const struct config *c,
		  const char *const *extra, const char *out)
{
	char src[512], obj[600], err[512];
	char *argv[32];
	size_t n = 0, i;

	scratch("build.err", err, sizeof(err));
	src_path(p->src, src, sizeof(src));
	if (!strcmp(p->name, "nolines")) {
		/* The hot half without -g. */
		char hot[512];
		char *av[] = { (char *)(c->gcc ? GCC : CLANG), "-O2", "-c",
			       "-fpie", "-o", obj, hot, NULL };

		src_path("autofdo/nolines-hot.c", hot, sizeof(hot));
		snprintf(obj, sizeof(obj), "%s.hot.o", out);
		ck_assert_msg(run_cmd(av, NULL, err) == 0,
			      "%s failed (see %s)", av[0], err);
	}
	argv[n++] = (char *)(p->cxx ? (c->gcc ? GXX : CLANGXX) :
			     (c->gcc ? GCC : CLANG));
	for (i = 0; i < 6 && c->flags[i]; i++)
		argv[n++] = (char *)c->flags[i];
	for (i = 0; extra && extra[i]; i++)
		argv[n++] = (char *)extra[i];
	argv[n++] = "-o";
	argv[n++] = (char *)out;
	argv[n++] = src;
	if (!strcmp(p->name, "nolines"))
		argv[n++] = obj;
	argv[n] = NULL;
	ck_assert_msg(run_cmd(argv, NULL, err) == 0, "%s failed (see %s)",
		      argv[0], err);
}

static void record(const char *bin, const char *arg, bool perfdata,
		   const char *out)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 perfdata ? "--format=perfdata" : "--format=perfscript",
			 "-o", (char *)out, "--depth", "32", "--period", "7",
			 "--", (char *)bin, (char *)arg, NULL };

	ck_assert_msg(run_cmd(argv, NULL, NULL) == 0, "record %s failed", bin);
}

static void ours(const char *in, bool perfdata, const char *sel,
		 const char *selval, bool text, const char *out,
		 const char *err)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
			 perfdata ? "-i" : "--perfscript", (char *)in,
			 (char *)sel, (char *)selval,
			 text ? "--format=text" : "--format=extbinary",
			 "-o", (char *)out, NULL };
	int r = run_cmd(argv, NULL, err);

	ck_assert_msg(r == 0, "blockrange autofdo exited %d (see %s)", r, err);
}

static void theirs(const char *in, bool perfdata, const char *bin,
		   bool text, const char *out, const char *err)
{
	char inarg[600], binarg[600], outarg[600];
	char *argv[] = { (char *)env_path("LLVM_PROFGEN"), inarg, binarg,
			 outarg, text ? "--format=text" : "--format=extbinary",
			 NULL };

	snprintf(inarg, sizeof(inarg), "--%s=%s",
		 perfdata ? "perfdata" : "perfscript", in);
	snprintf(binarg, sizeof(binarg), "--binary=%s", bin);
	snprintf(outarg, sizeof(outarg), "--output=%s", out);
	ck_assert_msg(run_cmd(argv, NULL, err) == 0, "%s failed (see %s)",
		      argv[0], err);
}

static void merge_text(const char *in, const char *out)
{
	char outarg[600];
	char *argv[] = { (char *)PROFDATA, "merge", "--sample", "--text",
			 (char *)in, "-o", outarg, NULL };

	snprintf(outarg, sizeof(outarg), "%s", out);
	ck_assert_msg(run_cmd(argv, NULL, NULL) == 0, "%s merge %s failed",
		      argv[0], in);
}

static void same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);

	ck_assert_msg(la == lb && !memcmp(x, y, la), "%s and %s differ", a, b);
	free(x);
	free(y);
}

static int cmp_line(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of @path sorted (perf2bolt's order of equal records varies). */
static void same_lines(const char *a, const char *b)
{
	char *t[2] = { slurp(a, NULL), slurp(b, NULL) }, **v[2];
	size_t n[2] = { 0, 0 }, k, i;

	for (k = 0; k < 2; k++) {
		char *l, *save = NULL;

		v[k] = calloc(strlen(t[k]) + 1, sizeof(char *));
		ck_assert_ptr_nonnull(v[k]);
		for (l = strtok_r(t[k], "\n", &save); l;
		     l = strtok_r(NULL, "\n", &save))
			v[k][n[k]++] = l;
		qsort(v[k], n[k], sizeof(char *), cmp_line);
	}
	ck_assert_msg(n[0] == n[1] && n[0] > 0, "%s: %zu lines, %s: %zu", a,
		      n[0], b, n[1]);
	for (i = 0; i < n[0]; i++)
		ck_assert_msg(!strcmp(v[0][i], v[1][i]), "%s and %s differ: %s",
			      a, b, v[0][i]);
	for (k = 0; k < 2; k++) {
		free(v[k]);
		free(t[k]);
	}
}

/* Top-level functions and inlined instances of a text profile. */
static void shape(const char *path, size_t *funcs, size_t *inlined)
{
	char *t = slurp(path, NULL), *l;

	*funcs = *inlined = 0;
	for (l = t; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l)) {
		if (*l != ' ' && *l != '\n')
			(*funcs)++;
		else if (l[0] == ' ' && l[1] != ' ' && strchr(l, ':') &&
			 strchr(l, ':') < strchr(l, '\n') &&
			 strchr(l, ':')[1] == ' ' &&
			 (strchr(l, ':')[2] < '0' || strchr(l, ':')[2] > '9'))
			(*inlined)++;
	}
	free(t);
}

/* _i: the (prog, config) pairs, configs beyond the first for all_configs. */
static bool pick(int i, const struct prog **p, const struct config **c,
		 char *tag, size_t tagsz)
{
	size_t k, n = 0;

	for (k = 0; k < NR_PROGS; k++) {
		size_t nc = progs[k].all_configs ? NR_CONFIGS : 1, j;

		for (j = 0; j < nc; j++, n++)
			if ((int)n == i) {
				*p = &progs[k];
				*c = &configs[j];
				snprintf(tag, tagsz, "%s-%s", progs[k].name,
					 configs[j].tag);
				return true;
			}
	}
	return false;
}

static int nr_pairs(void)
{
	size_t k, n = 0;

	for (k = 0; k < NR_PROGS; k++)
		n += progs[k].all_configs ? NR_CONFIGS : 1;
	return (int)n;
}

START_TEST(oracle)
{
	const struct prog *p;
	const struct config *c;
	char tag[128], name[256], bin[512], in[512], f[8][512], err[512];
	size_t funcs, inlined;

	ck_assert(pick(_i, &p, &c, tag, sizeof(tag)));
	snprintf(name, sizeof(name), "afdo-%s", tag);
	scratch(name, bin, sizeof(bin));
	build(p, c, NULL, bin);
	snprintf(name, sizeof(name), "afdo-%s.%s", tag,
		 c->perfdata ? "data" : "perfscript");
	scratch(name, in, sizeof(in));
	record(bin, p->arg, c->perfdata, in);
	{
		static const char *const ext[8] = {
			"ours.txt", "llvm.txt", "ours.ext", "llvm.ext",
			"ours.merged", "llvm.merged", "brprof", "brprof.txt",
		};
		size_t k;

		for (k = 0; k < 8; k++) {
			snprintf(name, sizeof(name), "afdo-%s.%s", tag, ext[k]);
			scratch(name, f[k], sizeof(f[k]));
		}
	}
	snprintf(name, sizeof(name), "afdo-%s.err", tag);
	scratch(name, err, sizeof(err));

	ours(in, c->perfdata, "--binary", bin, true, f[0], err);
	theirs(in, c->perfdata, bin, true, f[1], err);
	same_file(f[0], f[1]);
	ours(in, c->perfdata, "--binary", bin, false, f[2], err);
	theirs(in, c->perfdata, bin, false, f[3], err);
	same_file(f[2], f[3]);
	merge_text(f[2], f[4]);
	merge_text(f[3], f[5]);
	same_file(f[4], f[5]);

	/* Not vacuous. */
	shape(f[0], &funcs, &inlined);
	ck_assert_msg(funcs >= p->min_funcs, "%s: %zu functions", tag, funcs);
	ck_assert_msg(inlined >= p->min_inlined, "%s: %zu inlined instances",
		      tag, inlined);

	/* The same profile from a .brprof of the recording. */
	if (c == &configs[0]) {
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "profile",
				 c->perfdata ? "-i" : "--perfscript", in,
				 "-o", f[6], NULL };
		const char *slash = strrchr(bin, '/');

		ck_assert_int_eq(run_cmd(argv, NULL, err), 0);
		ours(f[6], true, "--dso", slash + 1, true, f[7], err);
		same_file(f[7], f[1]);
	}
}
END_TEST

/*
 * glibc: gcc -O2 code with inlining, .cold parts and IFUNCs.  Debian's
 * libc.so.6 is stripped and llvm-profgen reads symbols from --binary only,
 * so it gets libc.so.6 with libc6-dbg's symbols and DWARF put back
 * (eu-unstrip); ours must equal its profile both from that file and from
 * the stripped one with the debug file found by build-id (--dso).
 */
START_TEST(libc)
{
	char dir[512], full[600], wl[512], pd[512], f[5][512], err[512];
	char dbg[600], id[64];
	size_t funcs, inlined;
	FILE *p;

	scratch("libc", dir, sizeof(dir));
	snprintf(full, sizeof(full), "%s/libc.so.6", dir);
	scratch("libc.err", err, sizeof(err));
	{
		char cmd[1200];

		snprintf(cmd, sizeof(cmd),
			 "mkdir -p %s && readelf -n /lib/x86_64-linux-gnu/libc.so.6 | awk '/Build ID/ {print $3}'",
			 dir);
		p = popen(cmd, "r");
		ck_assert_ptr_nonnull(p);
		ck_assert(fgets(id, sizeof(id), p));
		pclose(p);
		id[strcspn(id, "\n")] = '\0';
		ck_assert_uint_eq(strlen(id), 40);
		snprintf(dbg, sizeof(dbg), "/usr/lib/debug/.build-id/%.2s/%s.debug",
			 id, id + 2);
	}
	{
		char *argv[] = { "eu-unstrip", "/lib/x86_64-linux-gnu/libc.so.6",
				 dbg, "-o", full, NULL };

		ck_assert_msg(run_cmd(argv, NULL, err) == 0,
			      "eu-unstrip %s failed (libc6-dbg installed?)", dbg);
	}
	snprintf(wl, sizeof(wl), "%s/multidso-pie", env_path("BLOCKRANGE_WORKLOADS"));
	scratch("libc.data", pd, sizeof(pd));
	{
		/*
		 * ptrace starts at the program's entry, when the loader has
		 * mapped libc: a PIE --binary needs its mapping before the
		 * first sample, and QEMU's recording samples the loader too.
		 */
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
				 "--engine=ptrace", "-o", pd, "--depth", "32",
				 "--period", "7", "--", wl, "300", "300", "32",
				 NULL };

		ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
	}
	scratch("libc.ours.txt", f[0], sizeof(f[0]));
	scratch("libc.llvm.txt", f[1], sizeof(f[1]));
	scratch("libc.ours.ext", f[2], sizeof(f[2]));
	scratch("libc.llvm.ext", f[3], sizeof(f[3]));
	scratch("libc.dso.txt", f[4], sizeof(f[4]));
	theirs(pd, true, full, true, f[1], err);
	theirs(pd, true, full, false, f[3], err);
	ours(pd, true, "--binary", full, true, f[0], err);
	ours(pd, true, "--binary", full, false, f[2], err);
	same_file(f[0], f[1]);
	same_file(f[2], f[3]);
	ours(pd, true, "--dso", "libc.so.6", true, f[4], err);
	same_file(f[4], f[1]);
	shape(f[0], &funcs, &inlined);
	ck_assert_msg(funcs >= 10 && inlined >= 10,
		      "libc: %zu functions, %zu inlined instances", funcs,
		      inlined);
}
END_TEST

/* Remarks of clang-19 -fprofile-sample-use=@prof on inlines.c. */
static size_t applied(const char *prof, const char *out, const char *err)
{
	char use[600], src[512];
	char *argv[] = { (char *)CLANG, "-O2", "-g",
			 "-fdebug-info-for-profiling", "-fno-pie", "-no-pie",
			 use, "-Rpass-analysis=sample-profile", "-o",
			 (char *)out, src, NULL };
	char *t, *s;
	size_t n = 0;

	snprintf(use, sizeof(use), "-fprofile-sample-use=%s", prof);
	src_path("autofdo/inlines.c", src, sizeof(src));
	ck_assert_msg(run_cmd(argv, NULL, err) == 0, "%s failed (see %s)",
		      argv[0], err);
	t = slurp(err, NULL);
	for (s = t; (s = strstr(s, "remark: Applied ")); s++)
		n++;
	free(t);
	return n;
}

START_TEST(pgo)
{
	char bin[512], ps[512], prof[512], lprof[512], opt[512], lopt[512];
	char err[512], lerr[512], o1[512], o2[512], ir[512];
	char *a, *b;
	size_t n, ln;

	scratch("pgo-inlines", bin, sizeof(bin));
	scratch("pgo-inlines.perfscript", ps, sizeof(ps));
	scratch("pgo-inlines.afdo", prof, sizeof(prof));
	scratch("pgo-inlines.llvm.afdo", lprof, sizeof(lprof));
	scratch("pgo-inlines.opt", opt, sizeof(opt));
	scratch("pgo-inlines.lopt", lopt, sizeof(lopt));
	scratch("pgo.err", err, sizeof(err));
	scratch("pgo.lerr", lerr, sizeof(lerr));
	scratch("pgo.out1", o1, sizeof(o1));
	scratch("pgo.out2", o2, sizeof(o2));
	scratch("pgo-inlines.ll", ir, sizeof(ir));
	build(&progs[2], &configs[0], NULL, bin);
	record(bin, "256", false, ps);
	ours(ps, false, "--binary", bin, false, prof, err);
	theirs(ps, false, bin, false, lprof, err);
	same_file(prof, lprof);

	/* clang applies our profile, as it applies llvm-profgen's. */
	n = applied(prof, opt, err);
	ln = applied(lprof, lopt, lerr);
	ck_assert_msg(n >= 20, "only %zu 'Applied N samples' remarks", n);
	ck_assert_uint_eq(n, ln);
	a = slurp(err, NULL);
	b = slurp(lerr, NULL);
	ck_assert_msg(!strcmp(a, b), "the remarks differ: %s %s", err, lerr);
	free(a);
	free(b);
	{
		char use[600], src[512];
		char *argv[] = { (char *)CLANG, "-O2", "-g",
				 "-fdebug-info-for-profiling", use, "-S",
				 "-emit-llvm", "-o", ir, src, NULL };

		snprintf(use, sizeof(use), "-fprofile-sample-use=%s", prof);
		src_path("autofdo/inlines.c", src, sizeof(src));
		ck_assert_int_eq(run_cmd(argv, NULL, err), 0);
		a = slurp(ir, NULL);
		ck_assert_msg(strstr(a, "!\"function_entry_count\"") &&
			      strstr(a, "!\"branch_weights\"") &&
			      strstr(a, "SampleProfile"),
			      "no profile metadata in %s", ir);
		free(a);
	}

	/* The rebuilt program does what the first one did. */
	{
		char *r1[] = { bin, "256", NULL }, *r2[] = { opt, "256", NULL };

		ck_assert_int_eq(run_cmd(r1, o1, NULL), 0);
		ck_assert_int_eq(run_cmd(r2, o2, NULL), 0);
		same_file(o1, o2);
	}
}
END_TEST

START_TEST(bolt)
{
	static const char *const relocs[] = { "-Wl,--emit-relocs", NULL };
	char bin[512], pd[512], pre[512], fd1[512], fd2[512], out[512];
	char err[512], o1[512], o2[512];
	char *t;

	scratch("bolt-inlines", bin, sizeof(bin));
	scratch("bolt-inlines.data", pd, sizeof(pd));
	scratch("bolt-inlines.preagg", pre, sizeof(pre));
	scratch("bolt-inlines.ours.fdata", fd1, sizeof(fd1));
	scratch("bolt-inlines.perf2bolt.fdata", fd2, sizeof(fd2));
	scratch("bolt-inlines.bolt", out, sizeof(out));
	scratch("bolt.err", err, sizeof(err));
	scratch("bolt.out1", o1, sizeof(o1));
	scratch("bolt.out2", o2, sizeof(o2));
	build(&progs[2], &configs[0], relocs, bin);
	record(bin, "256", true, pd);
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "bolt", "-i",
				 pd, "--binary", bin, "-o", pre, NULL };

		ck_assert_int_eq(run_cmd(argv, NULL, err), 0);
	}
	{
		char *a1[] = { (char *)PERF2BOLT, "-pa", "-p", pre, "-o", fd1,
			       bin, NULL };
		char *a2[] = { (char *)PERF2BOLT, "-p", pd, "-o", fd2, bin,
			       NULL };

		ck_assert_int_eq(run_cmd(a1, NULL, err), 0);
		ck_assert_int_eq(run_cmd(a2, NULL, err), 0);
		same_lines(fd1, fd2);
	}
	{
		char data[600];
		char *argv[] = { (char *)BOLT, bin, "-o", out, data,
				 "-reorder-blocks=ext-tsp",
				 "-reorder-functions=cdsort", "-split-functions",
				 "-dyno-stats", NULL };

		snprintf(data, sizeof(data), "-data=%s", fd1);
		ck_assert_msg(run_cmd(argv, o1, err) == 0,
			      "llvm-bolt failed (see %s)", err);
		t = slurp(o1, NULL);
		ck_assert_msg(strstr(t, "have non-empty execution profile") &&
			      !strstr(t, " 0 out of "),
			      "llvm-bolt applied no profile (see %s)", o1);
		free(t);
	}
	{
		char *r1[] = { bin, "256", NULL }, *r2[] = { out, "256", NULL };

		ck_assert_int_eq(run_cmd(r1, o1, NULL), 0);
		ck_assert_int_eq(run_cmd(r2, o2, NULL), 0);
		same_file(o1, o2);
	}
}
END_TEST

static int autofdo_status(char **argv, const char *err, const char *want1,
			  const char *want2)
{
	int r = run_cmd(argv, NULL, err);
	char *t = slurp(err, NULL);

	ck_assert_msg(strstr(t, want1) && (!want2 || strstr(t, want2)),
		      "expected '%s' and '%s' in: %s", want1,
		      want2 ? want2 : "", t);
	free(t);
	return r;
}

START_TEST(bad)
{
	static const struct config nodebug = {
		"nodebug", false, { "-O2", "-fno-pie", "-no-pie", NULL }, true
	};
	char bin[512], pd[512], err[512], nl[512], nlps[512], out[512];
	char dir[512], moved[600];

	scratch("bad.err", err, sizeof(err));
	scratch("bad.out", out, sizeof(out));

	/* No DWARF: the DSO is named, and what to do. */
	scratch("bad-nodebug", bin, sizeof(bin));
	scratch("bad-nodebug.data", pd, sizeof(pd));
	build(&progs[2], &nodebug, NULL, bin);
	record(bin, "64", true, pd);
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
				 "-i", pd, "--binary", bin, "-o", out, NULL };

		ck_assert_int_eq(autofdo_status(argv, err,
						"bad-nodebug: no debug info",
						"rebuild it with -g"), 2);
	}

	/* A DSO the input has no samples of. */
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
				 "-i", pd, "--dso", "libnothere.so", "-o", out,
				 NULL };

		ck_assert_int_eq(autofdo_status(argv, err,
						"libnothere.so: no samples of this DSO",
						"bad-nodebug"), 2);
	}

	/* Rebuilt after the recording: another build-id. */
	scratch("bad-rebuilt", dir, sizeof(dir));
	snprintf(moved, sizeof(moved), "%s.bin", dir);
	build(&progs[2], &configs[0], NULL, moved);
	record(moved, "64", true, pd);
	{
		static const char *const o1[] = { "-O1", NULL };

		build(&progs[2], &configs[0], o1, moved);
	}
	{
		char *a1[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
			       "-i", pd, "--binary", moved, "-o", out, NULL };
		char *a2[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
			       "-i", pd, "--dso", moved, "-o", out, NULL };

		ck_assert_int_eq(autofdo_status(a1, err, "has build-id",
						"pass the binary that was recorded"),
				 2);
		ck_assert_int_eq(autofdo_status(a2, err, "build-id",
						"pass the binary that was recorded"),
				 2);
	}

	/* Pseudo-probe discriminators: a line table libdw refuses, said so. */
	{
		static const char *const probes[] = {
			"-fpseudo-probe-for-profiling", NULL
		};
		char pp[512], ppps[512];
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
				 "--perfscript", ppps, "--binary", pp, "-o", out,
				 NULL };

		scratch("bad-probes", pp, sizeof(pp));
		scratch("bad-probes.perfscript", ppps, sizeof(ppps));
		build(&progs[2], &configs[0], probes, pp);
		record(pp, "64", false, ppps);
		ck_assert_int_eq(autofdo_status(argv, err,
						"cannot read the line table",
						"discriminators of up to 24 bits"),
				 2);
	}

	/* Code without line info: named in the summary, hottest first. */
	scratch("bad-nolines", nl, sizeof(nl));
	scratch("bad-nolines.perfscript", nlps, sizeof(nlps));
	build(&progs[3], &configs[0], NULL, nl);
	record(nl, "2000", false, nlps);
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
				 "--perfscript", nlps, "--binary", nl,
				 "--format=text", "-o", out, NULL };

		ck_assert_int_eq(autofdo_status(argv, err,
						"functions without line info (nolines_hot, ",
						"samples on"), 0);
	}
}
END_TEST

Suite *autofdo_suite(void)
{
	Suite *s = suite_create("autofdo");
	TCase *t = tcase_create("llvm-profgen-19");
	TCase *l = tcase_create("loop");

	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, oracle, 0, nr_pairs());
	tcase_add_test(t, libc);
	tcase_add_test(t, bad);
	suite_add_tcase(s, t);
	tcase_set_timeout(l, 120);
	tcase_add_test(l, pgo);
	tcase_add_test(l, bolt);
	suite_add_tcase(s, l);
	return s;
}
