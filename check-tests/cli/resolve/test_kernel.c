// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel samples: counted and reported without a kernel image, annotated
 * with --vmlinux (golden.S linked at 0xffffffff81000000 must annotate like
 * the hand-checked golden output of the same program at 0x401000), listed
 * by range with --kallsyms (symbols only), on the real Skylake LBR samples
 * of ../shared/fixtures/perfdata (perf 6.1's text of perf 4.14's file).
 */
#define _GNU_SOURCE

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_tests.h"

static void fixture(char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/perf.data.branch-4.14.brstack.txt",
		 env_path("BLOCKRANGE_PERFDATA"));
}

/* A kallsyms file: _text, then a symbol every 64 KiB over the kernel text. */
static void fake_kallsyms(char *path, size_t sz)
{
	FILE *f;
	unsigned a;

	scratch("kernel.kallsyms", path, sz);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fprintf(f, "ffffffffb4200000 T _text\n");
	for (a = 0x200000; a < 0xe20000; a += 0x10000)
		fprintf(f, "ffffffffb4%06x t sym_%06x\n", a, a);
	fclose(f);
}

START_TEST(kernel_samples_need_a_kernel_image)
{
	char in[512], out[512], err[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i", in,
			 NULL };
	char *e;

	fixture(in, sizeof(in));
	scratch("k1.out", out, sizeof(out));
	scratch("k1.err", err, sizeof(err));
	ck_assert_int_eq(run_cmd(argv, out, err), 2);
	e = slurp(err, NULL);
	/* 13 samples of 32 entries: 403 blocks, 29 with an empty entry, the
	 * 62 crossing into user space have no mapping. */
	ck_assert_msg(strstr(e, "blockrange: 13 samples, 416 branch records, 403 blocks: 0 counted, 0 DSOs annotated; skipped 0 abort, 0 in transaction, 29 empty entry, 312 kernel, 62 no mapping, "),
		      "%s", e);
	ck_assert_msg(strstr(e, ": nothing to annotate: the 312 blocks are in the kernel; pass --vmlinux FILE or --kallsyms FILE\n"),
		      "%s", e);
	free(e);
}
END_TEST

START_TEST(kallsyms_lists_ranges)
{
	char in[512], ks[512], out[512], err[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i", in,
			 "--kallsyms", ks, "--color=never", NULL };
	char *o, *e;

	fixture(in, sizeof(in));
	fake_kallsyms(ks, sizeof(ks));
	scratch("k2.out", out, sizeof(out));
	scratch("k2.err", err, sizeof(err));
	ck_assert_int_eq(run_cmd(argv, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "403 blocks: 312 counted, 1 DSO annotated; skipped 0 abort, 0 in transaction, 29 empty entry, 0 kernel, 62 no mapping"),
		      "%s", e);
	o = slurp(out, NULL);
	/*
	 * 6 of the 11 kernel IPs are in the first 64 KiB (3 x ...71f2,
	 * ...71f4, ...9891, ...8859), 4 of them in the range ...71e3-...71fe,
	 * which two blocks cover, both entered at its start and leaving at
	 * its end, predicted.
	 */
	ck_assert_msg(!strncmp(o, " Percent |\tSource code & Disassembly of [kernel.kallsyms] for unknown event (6 samples)\n"
			       "---------------------------------------------------------------------------------\n"
			       "         :\t_text():\n"
			       "         :\t(no code: symbols only; ranges with their coverage)\n"
			       "   66.67 :\t  ffffffffb42071e3-ffffffffb42071fe:       coverage 2\t# +100.00% -100.00% (p:100.00%)\n",
			       strlen(" Percent |\tSource code & Disassembly of [kernel.kallsyms] for unknown event (6 samples)\n"
				      "---------------------------------------------------------------------------------\n"
				      "         :\t_text():\n"
				      "         :\t(no code: symbols only; ranges with their coverage)\n"
				      "   66.67 :\t  ffffffffb42071e3-ffffffffb42071fe:       coverage 2\t# +100.00% -100.00% (p:100.00%)\n")),
		      "%.800s", o);
	/* ...6ea4 and ...5f5b: the second hottest, 2 samples */
	ck_assert(strstr(o, "for unknown event (2 samples)\n"
			    "---------------------------------------------------------------------------------\n"
			    "         :\tsym_340000():\n"));
	free(o);
	free(e);
}
END_TEST

/*
 * Kernel symbol files and images annotate cannot use: each is named with
 * what is wrong (a missing one, given on the command line, is no binary
 * to look for elsewhere; a vmlinux without the perf.data's kernel
 * build-id is another kernel).
 */
static const struct {
	const char *opt;
	const char *text;	/* NULL: no such file (or @copy) */
	const char *why;	/* after "blockrange: warning: FILE" */
	bool data;		/* on the perf.data (build-ids), not its text */
	const char *copy;	/* a copy of this workload */
} bad_kallsyms[] = {
	{ "--kallsyms", "ffffffffb4200000 T _text\nnot a symbol line\n",
	  ":2: expected 'ADDRESS TYPE NAME', got 'not a symbol line\n",
	  false, NULL },
	{ "--kallsyms", "ffffffffb4200000 D _text\nffffffffb4300000 d data\n",
	  ": expected kernel text symbols, got none; its samples are skipped\n",
	  false, NULL },
	{ "--kallsyms", NULL,
	  ": No such file or directory; its samples are skipped\n", false,
	  NULL },
	{ "--vmlinux", NULL, ": no such file; its samples are skipped\n",
	  false, NULL },
	{ "--vmlinux", "not an ELF file\n",
	  ": expected an ELF executable, got a file that is not ELF; its samples are skipped\n",
	  false, NULL },
	{ "--vmlinux", NULL,
	  " has no build-id, the profile recorded 672679ceaecf17b7a879e56c56802afc568aa242 for the kernel; its samples are skipped\n",
	  true, "golden-vmlinux" },
};

START_TEST(kallsyms_malformed)
{
	char in[512], ks[512], out[512], err[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i", in,
			 (char *)bad_kallsyms[_i].opt, ks, NULL };
	char *e, want[1024];

	if (bad_kallsyms[_i].data)
		snprintf(in, sizeof(in), "%s/perf.data.branch-4.14",
			 env_path("BLOCKRANGE_PERFDATA"));
	else
		fixture(in, sizeof(in));
	scratch("bad.kallsyms", ks, sizeof(ks));
	if (bad_kallsyms[_i].copy) {
		char vm[512];
		size_t len;
		FILE *f;

		snprintf(vm, sizeof(vm), "%s/%s",
			 env_path("BLOCKRANGE_WORKLOADS"), bad_kallsyms[_i].copy);
		e = slurp(vm, &len);
		f = fopen(ks, "wb");
		ck_assert(f && fwrite(e, 1, len, f) == len && !fclose(f));
		free(e);
	} else if (bad_kallsyms[_i].text) {
		spew(ks, bad_kallsyms[_i].text);
	} else {
		unlink(ks);
	}
	scratch("k3.out", out, sizeof(out));
	scratch("k3.err", err, sizeof(err));
	ck_assert_int_eq(run_cmd(argv, out, err), 2);
	e = slurp(err, NULL);
	snprintf(want, sizeof(want), "blockrange: warning: %s%s", ks,
		 bad_kallsyms[_i].why);
	ck_assert_msg(!strncmp(e, want, strlen(want)), "%s", e);
	free(e);
}
END_TEST

/* golden.S at a kernel address annotates as the golden file says. */
START_TEST(vmlinux_like_the_user_space_build)
{
	char in[512], vm[512], out[512], err[512], gp[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i", in,
			 "--vmlinux", vm, "--color=never", NULL };
	char *text, *want, *shifted, *p, *q;

	snprintf(vm, sizeof(vm), "%s/golden-vmlinux",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(gp, sizeof(gp), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
	/* 0x4010XX -> 0xffffffff810000XX in the samples */
	text = slurp(gp, NULL);
	shifted = calloc(1, strlen(text) * 4 + 1);
	ck_assert_ptr_nonnull(shifted);
	for (p = text, q = shifted; *p;) {
		if (!strncmp(p, "4010", 4)) {
			q += sprintf(q, "ffffffff810000");
			p += 4;
		} else {
			*q++ = *p++;
		}
	}
	scratch("kflags.perfscript", in, sizeof(in));
	spew(in, shifted);
	scratch("k4.out", out, sizeof(out));
	scratch("k4.err", err, sizeof(err));
	ck_assert_int_eq(run_cmd(argv, out, err), 0);
	free(text);
	free(shifted);
	/* and back in the output, with the DSO's name */
	text = slurp(out, NULL);
	for (p = text; (p = strstr(p, "ffffffff810000"));) {
		memmove(p + 4, p + 14, strlen(p + 14) + 1);
		memcpy(p, "4010", 4);
	}
	while ((p = strstr(text, "[kernel.kallsyms]"))) {
		memmove(p + 6, p + 17, strlen(p + 17) + 1);
		memcpy(p, "golden", 6);
	}
	snprintf(gp, sizeof(gp), "%s/annotate-flags.txt",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(gp, NULL);
	ck_assert_str_eq(text, want);
	free(text);
	free(want);
}
END_TEST

/*
 * The perf.data itself (its kernel mmap gives _text): with --kallsyms the
 * kernel blocks are counted, and the report lists each kernel symbol's
 * ranges (it has no code to draw a graph from).
 */
START_TEST(kallsyms_on_perf_data)
{
	char in[512], ks[512], out[512], err[512], html[512];
	char *annotate[] = { (char *)env_path("BLOCKRANGE"), "annotate",
			     "--no-pager", "-i", in, "--kallsyms", ks, NULL };
	char *report[] = { (char *)env_path("BLOCKRANGE"), "report", "-i", in,
			   "--kallsyms", ks, "-o", html, NULL };
	char *e, *h;

	snprintf(in, sizeof(in), "%s/perf.data.branch-4.14",
		 env_path("BLOCKRANGE_PERFDATA"));
	fake_kallsyms(ks, sizeof(ks));
	scratch("k5.out", out, sizeof(out));
	scratch("k5.err", err, sizeof(err));
	scratch("k5.html", html, sizeof(html));
	ck_assert_int_eq(run_cmd(annotate, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "blockrange: 13 samples, 416 branch records, 403 blocks: 312 counted, 1 DSO annotated;"),
		      "%s", e);
	free(e);
	ck_assert_int_eq(run_cmd(report, out, err), 0);
	h = slurp(html, NULL);
	ck_assert(strstr(h, "No code for this symbol (kernel symbols from kallsyms only)"));
	free(h);
}
END_TEST

/*
 * A kallsyms of another boot: its _text is not where the perf.data's kernel
 * mmap put the kernel, so the kernel samples are skipped with a warning
 * that says both addresses, and nothing is left to annotate.
 */
START_TEST(kallsyms_of_another_boot)
{
	char in[512], ks[512], out[512], err[512], want[1024];
	char *annotate[] = { (char *)env_path("BLOCKRANGE"), "annotate",
			     "--no-pager", "-i", in, "--kallsyms", ks, NULL };
	char *e;

	snprintf(in, sizeof(in), "%s/perf.data.branch-4.14",
		 env_path("BLOCKRANGE_PERFDATA"));
	scratch("kernel-other.kallsyms", ks, sizeof(ks));
	spew(ks, "ffffffffb4000000 T _text\nffffffffb4200000 t sym_a\n");
	scratch("k6.out", out, sizeof(out));
	scratch("k6.err", err, sizeof(err));
	ck_assert_int_eq(run_cmd(annotate, out, err), 2);
	e = slurp(err, NULL);
	snprintf(want, sizeof(want),
		 "blockrange: warning: %s has _text at 0xffffffffb4000000, the profile's kernel at 0xffffffffb4200000 (another boot?); its samples are skipped\n",
		 ks);
	ck_assert_msg(!strncmp(e, want, strlen(want)), "%s", e);
	ck_assert_msg(strstr(e, " 0 counted, 0 DSOs annotated;"), "%s", e);
	ck_assert_msg(strstr(e, ", 312 build-id mismatch,"), "%s", e);
	free(e);
}
END_TEST

Suite *kernel_suite(void)
{
	Suite *s = suite_create("kernel");
	TCase *t = tcase_create("kernel");

	tcase_add_test(t, kernel_samples_need_a_kernel_image);
	tcase_add_test(t, kallsyms_lists_ranges);
	tcase_add_loop_test(t, kallsyms_malformed, 0,
			    sizeof(bad_kallsyms) / sizeof(bad_kallsyms[0]));
	tcase_add_test(t, vmlinux_like_the_user_space_build);
	tcase_add_test(t, kallsyms_on_perf_data);
	tcase_add_test(t, kallsyms_of_another_boot);
	suite_add_tcase(s, t);
	return s;
}
