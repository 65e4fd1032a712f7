// SPDX-License-Identifier: GPL-2.0
/*
 * Output formatting against golden files.  The binary is golden/golden.S
 * (fixed layout, no compiler code generation); every number in the golden
 * files was checked by hand (see docs/cli-reference.md, "Tests").
 */
#define _POSIX_C_SOURCE 200809L

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "cli_tests.h"
#include "collect/annot.h"
#include "collect/symbols.h"
#include "input/input.h"
#include "output/annotate.h"
#include "output/json.h"
#include "output/report.h"

static char golden_bin[512];

static const char *gpath(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_GOLDEN"), name);
	return buf;
}

static void setup(void)
{
	snprintf(golden_bin, sizeof(golden_bin), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
}

/* Run blockrange with @args (NULL-terminated), compare stdout to @golden. */
static void check_golden(const char *golden, const char *const *args)
{
	char *argv[16];
	char out[512], errf[512], gp[512];
	char *got, *want;
	size_t i = 0, n;

	argv[i++] = (char *)env_path("BLOCKRANGE");
	for (n = 0; args[n]; n++)
		argv[i++] = (char *)args[n];
	argv[i] = NULL;
	scratch("golden.out", out, sizeof(out));
	scratch("golden.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	got = slurp(out, NULL);
	/* JSON names the binary by the path given: the workloads' %W. */
	{
		const char *wl = env_path("BLOCKRANGE_WORKLOADS");
		char *p;

		while ((p = strstr(got, wl))) {
			p[0] = '%';
			p[1] = 'W';
			memmove(p + 2, p + strlen(wl), strlen(p + strlen(wl)) + 1);
		}
	}
	want = slurp(gpath(golden, gp, sizeof(gp)), NULL);
	ck_assert_msg(!strcmp(got, want), "%s differs from %s:\n%s", out, gp,
		      got);
	free(got);
	free(want);
}

/*
 * The samples are the golden file; the mmap lines (the binary's, whose
 * device and inode depend on the build, and [vdso], placed at random)
 * are checked apart.
 */
START_TEST(record_golden)
{
	char out[512], gp[512], exe[600];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "--format=perfscript", "-o", out,
			 "--depth", "4", "--period", "2", "--", golden_bin, NULL };
	char *got, *want, *line, *samples, *end;
	int exe_maps = 0;

	scratch("record-golden.perfscript", out, sizeof(out));
	ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
	got = slurp(out, NULL);
	samples = calloc(1, strlen(got) + 1);
	ck_assert(samples);
	snprintf(exe, sizeof(exe), "r-xp %s", golden_bin);
	for (line = got; *line; line = end + 1) {
		end = strchr(line, '\n');
		ck_assert(end);
		*end = '\0';
		if (strncmp(line, "PERF_RECORD_MMAP2 ", 18)) {
			strcat(samples, line);
			strcat(samples, "\n");
		} else if (strstr(line, exe)) {
			ck_assert_msg(strstr(line, ": [0x401000(0x1000) @ 0x1000 "),
				      "%s", line);
			exe_maps++;
		} else {
			ck_assert_msg(strstr(line, "r-xp [vdso]"), "%s", line);
		}
	}
	ck_assert_int_eq(exe_maps, 1);
	want = slurp(gpath("record.perfscript", gp, sizeof(gp)), NULL);
	ck_assert_msg(!strcmp(samples, want), "record output:\n%s", samples);
	free(samples);
	free(got);
	free(want);
}
END_TEST

START_TEST(annotate_record_text)
{
	char ps[512];
	const char *args[] = { "annotate", "--perfscript",
			       gpath("record.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, "--color=never", NULL };

	check_golden("annotate-record.txt", args);
}
END_TEST

START_TEST(annotate_flags_text)
{
	char ps[512];
	const char *args[] = { "annotate", "--perfscript",
			       gpath("flags.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, "--color=never", NULL };

	check_golden("annotate-flags.txt", args);
}
END_TEST

START_TEST(annotate_flags_color)
{
	char ps[512];
	const char *args[] = { "annotate", "--perfscript",
			       gpath("flags.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, "--color=always",
			       "--symbol", "hot", NULL };

	check_golden("annotate-flags-hot.color", args);
}
END_TEST

/* auto: stdout is a file here, so no colour codes. */
START_TEST(annotate_color_auto_is_plain)
{
	char ps[512];
	const char *args[] = { "annotate", "--perfscript",
			       gpath("flags.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, NULL };

	check_golden("annotate-flags.txt", args);
}
END_TEST

START_TEST(annotate_flags_json)
{
	char ps[512], out[512], errf[512];
	const char *args[] = { "annotate", "--perfscript",
			       gpath("flags.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, "--format=json", NULL };
	char *argv[] = { "python3", "-c",
			 "import json,sys; d=json.load(open(sys.argv[1])); "
			 "assert [s['name'] for s in d['dsos'][0]['symbols']] == ['hot', 'leaf']",
			 out, NULL };

	check_golden("annotate-flags.json", args);
	/* It is JSON (python3 is in deps). */
	scratch("golden.out", out, sizeof(out));
	scratch("json.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 0);
}
END_TEST

/* The raw profile of the same samples; llvm-profgen-19 agreed when the
 * golden file was made, and the parity suite keeps comparing the tools. */
START_TEST(ranges_flags)
{
	char ps[512];
	const char *args[] = { "ranges", "--perfscript",
			       gpath("flags.perfscript", ps, sizeof(ps)),
			       "--binary", golden_bin, NULL };

	check_golden("ranges-flags.txt", args);
}
END_TEST

START_TEST(annotate_unknown_symbol)
{
	char ps[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate",
			 "--perfscript",
			 (char *)gpath("flags.perfscript", ps, sizeof(ps)),
			 "--binary", golden_bin, "--symbol", "nosuch", NULL };
	char *msg;

	scratch("sym.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 2);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "expected a function symbol of") &&
		      strstr(msg, "got 'nosuch'"), "%s", msg);
	free(msg);
}
END_TEST

START_TEST(usage_errors)
{
	char *argv1[] = { (char *)env_path("BLOCKRANGE"), "frobnicate", NULL };
	char *argv2[] = { (char *)env_path("BLOCKRANGE"), "annotate",
			  "--color=sometimes", NULL };
	char *argv3[] = { (char *)env_path("BLOCKRANGE"), "ranges",
			  "--dso", "a", "--binary", "b", NULL };
	char *argv4[] = { (char *)env_path("BLOCKRANGE"), "record", "--period",
			  "0", "--", "true", NULL };
	char *argv5[] = { (char *)env_path("BLOCKRANGE"), "annotate",
			  "--perfscript", "/nonexistent", "--binary",
			  golden_bin, NULL };
	char *argv6[] = { (char *)env_path("BLOCKRANGE"), "annotate", "--depth",
			  "3", NULL };
	char *argv7[] = { (char *)env_path("BLOCKRANGE"), "record", "-o",
			  "/dev/null", "--", "/nonexistent/prog", NULL };
	char *argv8[] = { (char *)env_path("BLOCKRANGE"), "record", NULL };
	char errf[512];
	char *msg;

	scratch("usage.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv6, NULL, errf), 1);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "annotate does not take option '--depth'"),
		      "%s", msg);
	free(msg);
	ck_assert_int_eq(run_cmd(argv1, NULL, errf), 1);
	msg = slurp(errf, NULL);
	/* Every subcommand is named (test_manners.c checks the list). */
	ck_assert_msg(strstr(msg, "blockrange: expected a subcommand annotate, autofdo, bolt, merge, profile, ranges, record, report or script, got 'frobnicate'\n"),
		      "%s", msg);
	free(msg);
	ck_assert_int_eq(run_cmd(argv2, NULL, errf), 1);
	ck_assert_int_eq(run_cmd(argv3, NULL, errf), 1);
	ck_assert_int_eq(run_cmd(argv4, NULL, errf), 1);
	ck_assert_int_eq(run_cmd(argv5, NULL, errf), 1);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "/nonexistent: No such file"), "%s", msg);
	free(msg);
	ck_assert_int_eq(run_cmd(argv7, NULL, errf), 1);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "cannot run /nonexistent/prog"), "%s", msg);
	free(msg);
	ck_assert_int_eq(run_cmd(argv8, NULL, errf), 1);
}
END_TEST

/*
 * JSON strings: quotes, backslashes and control bytes escaped; <>& too
 * when the JSON goes into HTML.
 */
START_TEST(json_escapes)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	json_str(f, "a\"b\\c\n<&>");
	fputc(' ', f);
	json_str_html(f, "x<y&z>\t");
	fputc(' ', f);
	json_str_or_null(f, NULL);
	fclose(f);
	ck_assert_str_eq(buf, "\"a\\\"b\\\\c\\u000a<&>\" "
			 "\"x\\u003cy\\u0026z\\u003e\\u0009\" null");
	free(buf);
}
END_TEST

/*
 * A .brprof says whether its samples were of one event or several (flag
 * 1 of the header's u32 at offset 36): golden's flags.perfscript is of
 * cycles:u alone; with its second sample made an instructions:u one it is
 * of two, also when the two samples go to two workers (-j 2, a unit of
 * 64 bytes) whose resolvers are merged.
 */
START_TEST(brprof_mixed_events)
{
	static const char *const jobs[] = { "1", "2", "1" };
	char gp[512], in[512], out[512], *txt, *p, *b;
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "profile", "-j",
			 (char *)jobs[_i], "-i", in, "--binary", golden_bin,
			 "-o", out, NULL };
	uint32_t flags;
	size_t len;

	txt = slurp(gpath("flags.perfscript", gp, sizeof(gp)), NULL);
	if (_i < 2) {
		/* the second sample's event */
		p = strstr(txt, "cycles:u:");
		ck_assert_ptr_nonnull(p);
		p = strstr(p + 1, "cycles:u:");
		ck_assert_ptr_nonnull(p);
		memmove(p + 15, p + 9, strlen(p + 9) + 1);
		memcpy(p, "instructions:u:", 15);
	}
	scratch("mixed.perfscript", in, sizeof(in));
	spew(in, txt);
	scratch("mixed.brprof", out, sizeof(out));
	if (_i == 1)
		setenv("BLOCKRANGE_PAR_UNIT", "64", 1);
	ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
	unsetenv("BLOCKRANGE_PAR_UNIT");
	b = slurp(out, &len);
	ck_assert_uint_ge(len, 40);
	memcpy(&flags, b + 36, sizeof(flags));
	ck_assert_uint_eq(flags & 1, _i < 2);
	free(b);
	free(txt);
}
END_TEST

/*
 * annot_symbols() finishes the collector and picks the symbols once; the
 * printers take both read-only, so printing any number of times, in any
 * order, gives the same bytes: annotate's text is the golden file before
 * and after a report, and the report is the same twice.
 */
static char *print_annotate(const struct annot *a,
			    const struct annot_syms *syms)
{
	struct annot_opts o = { .color = false };
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(!annot_print(a, syms, &o, f, err, sizeof(err)), "%s",
		      err);
	fclose(f);
	return buf;
}

static char *print_report(const struct annot *a,
			  const struct annot_syms *syms)
{
	struct report_opts o = {
		.input = "flags.perfscript",
		.max_symbols = REPORT_MAX_SYMBOLS,
		.max_blocks = REPORT_MAX_BLOCKS,
	};
	char *buf = NULL, err[256];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_msg(!report_write(a, syms, &o, f, err, sizeof(err)), "%s",
		      err);
	fclose(f);
	return buf;
}

START_TEST(printers_read_only)
{
	char ps[512], gp[512], err[256];
	struct resolver_opts so = { .binary = golden_bin };
	struct input_opts io = { 0 };
	struct input_stats st;
	struct annot_syms syms;
	struct ev_sink sink;
	struct annot an;
	char *want, *first, *second, *rep1, *rep2;

	gpath("flags.perfscript", ps, sizeof(ps));
	ck_assert_msg(!annot_init(&an, ps, &so, NULL, err, sizeof(err)), "%s",
		      err);
	annot_sink(&an, &sink);
	ck_assert_msg(!input_read(ps, &io, &sink, &st, err, sizeof(err)),
		      "%s", err);
	ck_assert(!an.finished);
	ck_assert_msg(!annot_symbols(&an, NULL, 0, &syms, err, sizeof(err)),
		      "%s", err);
	ck_assert(an.finished);
	ck_assert_uint_eq(syms.nr, 2);
	ck_assert_str_eq(syms.v[0].name, "hot");
	ck_assert_str_eq(syms.v[1].name, "leaf");

	want = slurp(gpath("annotate-flags.txt", gp, sizeof(gp)), NULL);
	first = print_annotate(&an, &syms);
	ck_assert_str_eq(first, want);
	rep1 = print_report(&an, &syms);
	rep2 = print_report(&an, &syms);
	ck_assert_str_eq(rep1, rep2);
	ck_assert_ptr_nonnull(strstr(rep1, "hot"));
	second = print_annotate(&an, &syms);
	ck_assert_str_eq(second, want);
	ck_assert_uint_eq(syms.nr, 2);

	free(want);
	free(first);
	free(second);
	free(rep1);
	free(rep2);
	annot_symbols_free(&syms);
	annot_free(&an);
}
END_TEST

/*
 * A --symbol that no DSO has, after one that it has: BR_EINPUT and its
 * message; what was picked before is freed as after success.
 */
START_TEST(symbols_unknown_name)
{
	static const char *const names[] = { "hot", "nosuch" };
	char ps[512], err[256] = "";
	struct resolver_opts so = { .binary = golden_bin };
	struct input_opts io = { 0 };
	struct input_stats st;
	struct annot_syms syms;
	struct ev_sink sink;
	struct annot an;

	gpath("flags.perfscript", ps, sizeof(ps));
	ck_assert_msg(!annot_init(&an, ps, &so, NULL, err, sizeof(err)), "%s",
		      err);
	annot_sink(&an, &sink);
	ck_assert_msg(!input_read(ps, &io, &sink, &st, err, sizeof(err)),
		      "%s", err);
	ck_assert_int_eq(annot_symbols(&an, names, 2, &syms, err, sizeof(err)),
			 BR_EINPUT);
	ck_assert_msg(strstr(err, "got 'nosuch'"), "%s", err);
	annot_symbols_free(&syms);
	annot_free(&an);
}
END_TEST

Suite *output_suite(void)
{
	Suite *s = suite_create("output");
	TCase *t = tcase_create("golden");

	tcase_add_checked_fixture(t, setup, NULL);
	tcase_set_timeout(t, 30);
	tcase_add_test(t, record_golden);
	tcase_add_test(t, annotate_record_text);
	tcase_add_test(t, annotate_flags_text);
	tcase_add_test(t, annotate_flags_color);
	tcase_add_test(t, annotate_color_auto_is_plain);
	tcase_add_test(t, annotate_flags_json);
	tcase_add_test(t, ranges_flags);
	tcase_add_test(t, annotate_unknown_symbol);
	tcase_add_test(t, usage_errors);
	tcase_add_test(t, json_escapes);
	tcase_add_test(t, printers_read_only);
	tcase_add_test(t, symbols_unknown_name);
	tcase_add_loop_test(t, brprof_mixed_events, 0, 3);
	suite_add_tcase(s, t);
	return s;
}
