// SPDX-License-Identifier: GPL-2.0
/*
 * The context-sensitive raw profile (collect/hybrid.h, collect/unwind.h)
 * against llvm-profgen-19: the workload "contexts" (inlined code, direct
 * and mutual recursion, a longjmp, a call through a pointer; built
 * non-PIE and PIE) is traced in full by `blockrange record
 * --engine=ptrace`; hybrid_trace.py turns the trace into perf script text
 * with a call stack before each branch stack (three samplings: period and
 * depth); `blockrange ranges` must print byte for byte what
 * `llvm-profgen-19 --skip-symbolization` prints for that text, also read
 * on two threads (-j 2), and with --ignore-stack-samples of both the
 * profile without contexts; the first sample decides the kind of profile;
 * and a QEMU recording with call stacks (record -g) equals llvm-profgen's
 * profile of its perf script text.  `autofdo --format=text` of the same
 * inputs equals llvm-profgen-19's context-sensitive sample profile in its
 * flat form (--csspgo-preinliner=false --gen-cs-nested-profile=false),
 * cold contexts merged (the default) or not, and clang-19 reads it.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

static const char *const variants[] = { "nopie", "pie" };

static const struct sampling {
	const char *period;
	const char *depth;
} samplings[] = {
	{ "3", "16" },	/* overlapping stacks, as LBR gives */
	{ "1", "32" },	/* a sample at every branch */
	{ "5", "8" },	/* short stacks */
};

#define NR_SAMPLINGS (sizeof(samplings) / sizeof(samplings[0]))

static void run_ok(char *const argv[], const char *out, const char *err)
{
	ck_assert_msg(run_cmd(argv, out, err) == 0, "%s %s failed (see %s)",
		      argv[0], argv[1], err);
}

/* The hybrid script of workload variant @v and sampling @s into @ps. */
static void hybrid_script(size_t v, size_t s, char *bin, size_t binsz,
			  char *ps, size_t pssz)
{
	char trace[512], tag[64], tool[512], err[512];

	snprintf(bin, binsz, "%s/contexts-%s", env_path("BLOCKRANGE_WORKLOADS"),
		 variants[v]);
	snprintf(tag, sizeof(tag), "context-%zu.trace", v);
	scratch(tag, trace, sizeof(trace));
	snprintf(tag, sizeof(tag), "context-%zu-%zu.perfscript", v, s);
	scratch(tag, ps, pssz);
	scratch("context.err", err, sizeof(err));
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
				 "--engine=ptrace", "--format=perfscript",
				 "-o", trace, "--depth", "0", "--period", "1",
				 "--", bin, "12", NULL };

		run_ok(argv, NULL, err);
	}
	snprintf(tool, sizeof(tool), "%s/hybrid_trace.py",
		 env_path("BLOCKRANGE_TESTS"));
	{
		char *argv[] = { "python3", tool, trace,
				 (char *)samplings[s].period,
				 (char *)samplings[s].depth, NULL };

		run_ok(argv, ps, err);
	}
}

/* llvm-profgen-19's raw profile of @ps into @out (@extra: an option). */
static void profgen(const char *ps, const char *bin, const char *out,
		    const char *extra)
{
	char psarg[600], binarg[600], outarg[600], err[512];
	char *argv[8];
	size_t i = 0;

	scratch("context-profgen.err", err, sizeof(err));
	snprintf(psarg, sizeof(psarg), "--perfscript=%s", ps);
	snprintf(binarg, sizeof(binarg), "--binary=%s", bin);
	snprintf(outarg, sizeof(outarg), "--output=%s", out);
	argv[i++] = (char *)env_path("LLVM_PROFGEN");
	argv[i++] = psarg;
	argv[i++] = binarg;
	argv[i++] = outarg;
	argv[i++] = "--skip-symbolization";
	if (extra)
		argv[i++] = (char *)extra;
	argv[i] = NULL;
	run_ok(argv, NULL, err);
}

/* `blockrange ranges` of @ps into @out (@extra, @extra2: options). */
static void ours(const char *ps, const char *bin, const char *out,
		 const char *extra, const char *extra2)
{
	char err[512];
	char *argv[10];
	size_t i = 0;

	scratch("context-ours.err", err, sizeof(err));
	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "ranges";
	argv[i++] = "--no-pager";
	argv[i++] = "-i";
	argv[i++] = (char *)ps;
	argv[i++] = "--binary";
	argv[i++] = (char *)bin;
	if (extra)
		argv[i++] = (char *)extra;
	if (extra2)
		argv[i++] = (char *)extra2;
	argv[i] = NULL;
	run_ok(argv, out, err);
}

/*
 * The context-sensitive sample profile of `autofdo --format=text` for
 * @input into @out, and llvm-profgen-19's for @ps in its flat form (no
 * pre-inliner, no nested profile) into @ref; @merge: cold contexts merged
 * ("true", the default of both) or not ("false").
 */
static void sample_profiles(const char *input, const char *ps,
			    const char *bin, const char *out,
			    const char *ref, const char *merge)
{
	char psarg[600], binarg[600], outarg[600], err[512], m[64];

	snprintf(m, sizeof(m), "--csprof-merge-cold-context=%s", merge);
	scratch("context-autofdo.err", err, sizeof(err));
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "autofdo",
				 "-i", (char *)input, "--binary", (char *)bin,
				 "--format=text", m, NULL };

		run_ok(argv, out, err);
	}
	snprintf(psarg, sizeof(psarg), "--perfscript=%s", ps);
	snprintf(binarg, sizeof(binarg), "--binary=%s", bin);
	snprintf(outarg, sizeof(outarg), "--output=%s", ref);
	{
		char *argv[] = { (char *)env_path("LLVM_PROFGEN"), psarg,
				 binarg, outarg, "--format=text",
				 "--csspgo-preinliner=false",
				 "--gen-cs-nested-profile=false", m, NULL };

		run_ok(argv, NULL, err);
	}
}

static void same(const char *ours_path, const char *theirs_path)
{
	char *a = slurp(ours_path, NULL), *b = slurp(theirs_path, NULL);

	ck_assert_msg(!strcmp(a, b), "%s and %s differ", ours_path,
		      theirs_path);
	free(a);
	free(b);
}

/* The number of contexts of a profile, and of those 4 or more deep. */
static void count_contexts(const char *path, size_t *all, size_t *deep)
{
	char *text = slurp(path, NULL), *p;

	*all = *deep = 0;
	for (p = text; (p = strstr(p, "\n[")) || (p == text && *p == '['); ) {
		char *e = strchr(p, ']');
		size_t at = 0;

		ck_assert(e);
		for (char *q = p; q < e; q++)
			at += q[0] == '@';
		(*all)++;
		*deep += at >= 3;
		p = e;
	}
	free(text);
}

/* _i = variant * NR_SAMPLINGS + sampling */
START_TEST(contexts_equal_llvm_profgen)
{
	size_t v = (size_t)_i / NR_SAMPLINGS, s = (size_t)_i % NR_SAMPLINGS;
	char bin[512], ps[512], a[512], b[512], tag[64];
	size_t all, deep;

	hybrid_script(v, s, bin, sizeof(bin), ps, sizeof(ps));
	snprintf(tag, sizeof(tag), "context-%zu.ours", (size_t)_i);
	scratch(tag, a, sizeof(a));
	snprintf(tag, sizeof(tag), "context-%zu.llvm", (size_t)_i);
	scratch(tag, b, sizeof(b));
	ours(ps, bin, a, NULL, NULL);
	profgen(ps, bin, b, NULL);
	same(a, b);
	/* not a vacuous comparison: contexts, deep ones among them */
	count_contexts(a, &all, &deep);
	ck_assert_msg(all >= 20 && deep >= 5, "%zu contexts, %zu deep", all,
		      deep);
	/* the same on two threads */
	ours(ps, bin, a, "-j", "2");
	same(a, b);
	/* the sample profile of these contexts, cold ones merged or not */
	sample_profiles(ps, ps, bin, a, b, "true");
	same(a, b);
	sample_profiles(ps, ps, bin, a, b, "false");
	same(a, b);
	count_contexts(a, &all, &deep);
	ck_assert_msg(all >= 10 && deep >= 3, "%zu profiles, %zu deep", all,
		      deep);
}
END_TEST

/* --ignore-stack-samples: the profile without contexts, as llvm-profgen's. */
START_TEST(ignored_stacks_equal_llvm_profgen)
{
	char bin[512], ps[512], a[512], b[512];
	char *text;

	hybrid_script((size_t)_i, 0, bin, sizeof(bin), ps, sizeof(ps));
	scratch("context-flat.ours", a, sizeof(a));
	scratch("context-flat.llvm", b, sizeof(b));
	ours(ps, bin, a, "--ignore-stack-samples", NULL);
	profgen(ps, bin, b, "--ignore-stack-samples");
	same(a, b);
	text = slurp(a, NULL);
	ck_assert_msg(!strchr(text, '[') && strtoul(text, NULL, 10) >= 10,
		      "not a profile without contexts: %.80s", text);
	free(text);
}
END_TEST

/*
 * llvm-profgen decides once per input: the first sample with a branch
 * stack makes the whole profile context-sensitive (it has a call stack)
 * or not.  A sample without a call stack after hybrid ones is left out
 * of the contexts; before them, it makes the profile one without
 * contexts.  _i: 0 the plain sample last, 1 first.
 */
START_TEST(first_sample_decides)
{
	char bin[512], ps[512], mixed[512], a[512], b[512];
	char *text = NULL, *lbr, *nl, *cut;
	size_t len;
	FILE *f;

	hybrid_script(0, 0, bin, sizeof(bin), ps, sizeof(ps));
	text = slurp(ps, &len);
	/* the first hybrid sample's branch stack, as a line with an IP */
	lbr = strstr(text, "\n 0x");
	ck_assert(lbr);
	lbr++;
	nl = strchr(lbr, '\n');
	ck_assert(nl);
	cut = strstr(text, "\n\n");	/* after the mmap lines */
	ck_assert(cut && cut < lbr);
	scratch("context-mixed.perfscript", mixed, sizeof(mixed));
	f = fopen(mixed, "w");
	ck_assert(f);
	if (_i) {
		fwrite(text, 1, (size_t)(cut + 1 - text), f);
		fprintf(f, "  401000%.*s\n", (int)(nl - lbr), lbr);
		fputs(cut + 1, f);
	} else {
		fputs(text, f);
		fprintf(f, "  401000%.*s\n", (int)(nl - lbr), lbr);
	}
	ck_assert(!fclose(f));
	free(text);
	scratch("context-mixed.ours", a, sizeof(a));
	scratch("context-mixed.llvm", b, sizeof(b));
	ours(mixed, bin, a, NULL, NULL);
	profgen(mixed, bin, b, NULL);
	same(a, b);
	text = slurp(a, NULL);
	ck_assert_msg(_i ? !strchr(text, '[') : text[0] == '[',
		      "the wrong kind of profile: %.80s", text);
	free(text);
}
END_TEST

/*
 * A recording with call stacks (`blockrange record -g`, the QEMU engine):
 * `ranges` on its perf.data prints what llvm-profgen-19 prints for its
 * perf script text (--script-copy, absolute addresses; perf 6.1 prints
 * call chains relative to their mappings, which llvm-profgen cannot use).
 */
START_TEST(recording_equals_llvm_profgen)
{
	char bin[512], data[512], ps[512], a[512], b[512], err[512];
	size_t all, deep;

	snprintf(bin, sizeof(bin), "%s/contexts-%s",
		 env_path("BLOCKRANGE_WORKLOADS"), variants[_i]);
	scratch(_i ? "context-g-1.data" : "context-g-0.data", data,
		sizeof(data));
	scratch(_i ? "context-g-1.perfscript" : "context-g-0.perfscript", ps,
		sizeof(ps));
	scratch("context-g.err", err, sizeof(err));
	{
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "record", "-g",
				 "--period", "97", "-o", data, "--script-copy",
				 ps, "--", bin, "300", NULL };

		run_ok(argv, NULL, err);
	}
	scratch("context-g.ours", a, sizeof(a));
	scratch("context-g.llvm", b, sizeof(b));
	ours(data, bin, a, NULL, NULL);
	profgen(ps, bin, b, NULL);
	same(a, b);
	count_contexts(a, &all, &deep);
	ck_assert_msg(all >= 10 && deep >= 3, "%zu contexts, %zu deep", all,
		      deep);
	/* its sample profile, which clang-19 reads */
	sample_profiles(data, ps, bin, a, b, "false");
	same(a, b);
	sample_profiles(data, ps, bin, a, b, "true");
	same(a, b);
	if (!_i) {
		char use[600], out[512], src[512];
		char *argv[] = { "clang-19", "-O2", "-g", use, "-o", out, src,
				 NULL };

		snprintf(use, sizeof(use), "-fprofile-sample-use=%s", a);
		scratch("context-pgo", out, sizeof(out));
		snprintf(src, sizeof(src), "%s/workloads/contexts.c",
			 env_path("BLOCKRANGE_TESTS"));
		scratch("context-clang.err", err, sizeof(err));
		run_ok(argv, NULL, err);
		{
			char *e = slurp(err, NULL);

			ck_assert_msg(!*e, "clang-19 said: %s", e);
			free(e);
		}
	}
}
END_TEST

Suite *context_suite(void)
{
	Suite *s = suite_create("context");
	TCase *t = tcase_create("llvm-profgen-19");

	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, contexts_equal_llvm_profgen, 0,
			    (int)(2 * NR_SAMPLINGS));
	tcase_add_loop_test(t, ignored_stacks_equal_llvm_profgen, 0, 2);
	tcase_add_loop_test(t, first_sample_decides, 0, 2);
	tcase_add_loop_test(t, recording_equals_llvm_profgen, 0, 2);
	suite_add_tcase(s, t);
	return s;
}
