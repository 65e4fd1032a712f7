// SPDX-License-Identifier: GPL-2.0
/*
 * Real Intel LBR captures (llvm-profgen's test inputs, ../shared/fixtures/
 * lbr): `ranges` reproduces every expected raw profile that the fixtures'
 * README says is reproducible without the original binary, with the
 * upstream options (--perf-event, --leading-ip-only, --use-offset=0) and
 * --base for the missing binary.  The parser-only files must parse (or, for
 * the one malformed line upstream relies on being skipped, fail with the
 * right file:line and pass with --skip-bad).
 */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

static const struct fixture {
	const char *input;
	const char *expected;
	const char *opts[4];
	int ranges_only;	/* upstream checks only the range section */
} fixtures[] = {
	{ "noprobe.perfscript", "noprobe.expected-raw", { "--base", "0x400000" }, 0 },
	{ "noprobe-agg.aggperfscript", "noprobe-agg.expected-raw", { "--base", "0x400000" }, 0 },
	{ "inline-noprobe.perfscript", "inline-noprobe.expected-raw", { "--base", "0x400000" }, 0 },
	{ "invalid-range.perfscript", "invalid-range.expected-raw", { "--use-offset=0" }, 0 },
	{ "cmov_3.perfscript", "cmov_3.near-taken.expected-raw",
	  { "--base", "0x401000", "--perf-event=br_inst_retired.near_taken:upp" }, 1 },
	{ "cmov_3.perfscript", "cmov_3.misp-leading-ip.expected-raw",
	  { "--base", "0x401000", "--perf-event=br_misp_retired.all_branches:upp",
	    "--leading-ip-only" }, 1 },
	{ "noprobe-skid.perfscript", "noprobe-skid.leading-ip-only.expected-raw",
	  { "--base", "0x400000", "--leading-ip-only" }, 1 },
};

static const char *fx(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_FIXTURES"), name);
	return buf;
}

/* Length of the range section: the count line and that many lines. */
static size_t range_section(const char *s)
{
	unsigned long n = strtoul(s, NULL, 10);
	const char *p = s;

	for (unsigned long i = 0; i <= n && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return p ? (size_t)(p - s) : strlen(s);
}

START_TEST(expected_raw)
{
	const struct fixture *f = &fixtures[_i];
	char in[512], exp[512], out[512], errf[512];
	char *argv[12];
	char *got, *want;
	size_t i = 0, n;

	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "ranges";
	argv[i++] = "--perfscript";
	argv[i++] = (char *)fx(f->input, in, sizeof(in));
	for (n = 0; n < 4 && f->opts[n]; n++)
		argv[i++] = (char *)f->opts[n];
	argv[i] = NULL;
	scratch("fixture.out", out, sizeof(out));
	scratch("fixture.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	got = slurp(out, NULL);
	want = slurp(fx(f->expected, exp, sizeof(exp)), NULL);
	ck_assert(strlen(want) > 4);
	if (f->ranges_only) {
		size_t len = range_section(got);

		ck_assert_msg(len == strlen(want) && !strncmp(got, want, len),
			      "%s: got\n%s\nwant (range section)\n%s", f->input,
			      got, want);
		/* The rest is a well-formed branch section. */
		ck_assert_msg(got[len] >= '0' && got[len] <= '9', "%s", got + len);
	} else {
		ck_assert_msg(!strcmp(got, want), "%s: got\n%s\nwant\n%s",
			      f->input, got, want);
	}
	free(got);
	free(want);
}
END_TEST

/* Parser-only files: every line parses; the profile is not empty. */
static const char *const parse_only[] = {
	"fork-nocs-noprobe.perfscript",
	"multi-process-nocs-noprobe.perfscript",
	"pie-lbr-perf.perfscript",
	"invalid-short-lbr.perfscript",
};

START_TEST(parses)
{
	char in[512], out[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
			 "--perfscript", (char *)fx(parse_only[_i], in, sizeof(in)),
			 "--base", "0", NULL };
	char *got;

	scratch("parse.out", out, sizeof(out));
	scratch("parse.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	got = slurp(out, NULL);
	/* at least one branch */
	ck_assert_msg(strstr(got, "->"), "%s: %s", parse_only[_i], got);
	free(got);
}
END_TEST

/* invalid-short-lbr: the 0x0 source is kept as a branch from 0. */
START_TEST(short_lbr)
{
	char in[512], out[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
			 "--perfscript",
			 (char *)fx("invalid-short-lbr.perfscript", in, sizeof(in)),
			 "--base", "0", NULL };
	char *got;

	scratch("short.out", out, sizeof(out));
	ck_assert_int_eq(run_cmd(argv, out, NULL), 0);
	got = slurp(out, NULL);
	ck_assert_str_eq(got, "0\n1\n0->457160:1\n");
	free(got);
}
END_TEST

/* ip-duplication line 2 has FROM without 0x: an error, or skipped. */
START_TEST(ip_duplication)
{
	char in[512], out[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges",
			 "--perfscript",
			 (char *)fx("ip-duplication.perfscript", in, sizeof(in)),
			 "--base", "0x400000", NULL, NULL };
	char *msg;

	scratch("ipdup.out", out, sizeof(out));
	scratch("ipdup.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 2);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "ip-duplication.perfscript:2: expected a branch source address '0x<hex>' in branch entry 1, got '40065d/0x40068f/M/-/-/1'"),
		      "%s", msg);
	free(msg);
	argv[6] = "--skip-bad";
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	msg = slurp(errf, NULL);
	ck_assert_msg(strstr(msg, "skipped 1 malformed line"), "%s", msg);
	free(msg);
	msg = slurp(out, NULL);
	/* line 1 alone: 10 entries, 9 ranges at most */
	ck_assert_msg(strtoul(msg, NULL, 10) > 0, "%s", msg);
	free(msg);
}
END_TEST

Suite *fixtures_suite(void)
{
	Suite *s = suite_create("fixtures");
	TCase *t = tcase_create("lbr");

	tcase_add_loop_test(t, expected_raw, 0,
			    sizeof(fixtures) / sizeof(fixtures[0]));
	tcase_add_loop_test(t, parses, 0,
			    sizeof(parse_only) / sizeof(parse_only[0]));
	tcase_add_test(t, short_lbr);
	tcase_add_test(t, ip_duplication);
	suite_add_tcase(s, t);
	return s;
}
