// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange report` on the golden program (golden/golden.S with
 * golden/flags.perfscript), whose control-flow graph was worked out by
 * hand:
 *
 *   hot(): 401013 xor | 401015 test, 40101b je 401022 | 40101d add,
 *   401020 jmp 401025 | 401022 sub | 401025 call leaf | 40102a dec,
 *   40102c jne 401015 | 40102e ret
 *
 * Leaders: 401013 (start), 401015 / 401022 / 401025 (direct targets),
 * 40101d / 401022 / 40102a / 40102e (after branches), 40102a (leaf's
 * return lands there): 7 blocks.  Coverage per block from annotate's
 * ranges: 0, 3, 1, 1, 2, 3, 0.  Taken branches from the 12 records:
 * 40101b->401022 2 (1 M), 401020->401025 1 (1 M), 401025->leaf 2,
 * 40102c->401015 4 (the oldest entry of the first stack counts too),
 * leaf->40102a 3 (1 M).  Fall-throughs, coverage of the last instruction
 * minus the taken count of the range ending there: 401013 0 - 0 = 0,
 * 40101b 3 - 2 = 1, 401022 1 - 0 = 1, 40102c 3 - 3 = 0; 401025 (a call)
 * gets the count-less after_call edge, 401020 (jmp) none.  The expected
 * data is golden/report-flags-data.json.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

static char golden_bin[512];
static char flags[512];

static void setup(void)
{
	snprintf(golden_bin, sizeof(golden_bin), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
}

/* Run `blockrange report -i flags --binary golden EXTRA... -o OUT`. */
static char *report(const char *const *extra, const char *name, int want)
{
	char out[512], errf[512];
	char *argv[32];
	size_t i = 0, k;
	char *page;

	scratch(name, out, sizeof(out));
	scratch("report.err", errf, sizeof(errf));
	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "report";
	argv[i++] = "-i";
	argv[i++] = flags;
	argv[i++] = "--binary";
	argv[i++] = golden_bin;
	for (k = 0; extra && extra[k]; k++)
		argv[i++] = (char *)extra[k];
	argv[i++] = "-o";
	argv[i++] = out;
	argv[i] = NULL;
	ck_assert_int_eq(run_cmd(argv, NULL, errf), want);
	if (want)
		return NULL;
	page = slurp(out, NULL);
	return page;
}

/* The text of the embedded JSON document. */
static char *data_of(const char *page)
{
	const char *tag = "id=\"blockrange-data\">\n";
	const char *s = strstr(page, tag), *e;
	char *d;

	ck_assert_msg(s, "no embedded data");
	s += strlen(tag);
	e = strstr(s, "</script>");
	ck_assert(e);
	d = strndup(s, (size_t)(e - s));
	ck_assert(d);
	return d;
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (hay = strstr(hay, needle); hay; hay = strstr(hay + 1, needle))
		n++;
	return n;
}

/* The part of the page between two markers (the second may be NULL). */
static char *between(const char *page, const char *a, const char *b)
{
	const char *s = strstr(page, a), *e;
	char *r;

	ck_assert_msg(s, "no '%s' in the page", a);
	e = b ? strstr(s, b) : NULL;
	r = e ? strndup(s, (size_t)(e - s)) : strdup(s);
	ck_assert(r);
	return r;
}

START_TEST(report_golden_data)
{
	char *page = report(NULL, "report-golden.html", 0);
	char *data = data_of(page), *want, gp[512], *p;

	/* The input path as given; the golden file has %G for the dir. */
	p = strstr(data, flags);
	ck_assert(p);
	memmove(p + 2, p + strlen(env_path("BLOCKRANGE_GOLDEN")),
		strlen(p + strlen(env_path("BLOCKRANGE_GOLDEN"))) + 1);
	p[0] = '%';
	p[1] = 'G';
	snprintf(gp, sizeof(gp), "%s/report-flags-data.json",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(gp, NULL);
	ck_assert_msg(!strcmp(data, want), "report data differs from %s:\n%s",
		      gp, data);
	free(want);
	free(data);
	free(page);
}
END_TEST

/* The SVG has the nodes and edges of the data, with the expected ids. */
START_TEST(report_golden_svg)
{
	char *page = report(NULL, "report-golden.html", 0);
	char *hot = between(page, "<section class=\"sym\" id=\"s0\">",
			    "<section class=\"sym\" id=\"s1\">");
	char *leaf = between(page, "<section class=\"sym\" id=\"s1\">",
			     "id=\"blockrange-data\"");

	ck_assert_uint_eq(count(hot, "<svg"), 1);
	ck_assert_uint_eq(count(hot, "class=\"node block "), 7);
	ck_assert_uint_eq(count(hot, "class=\"node ext\""), 1);
	ck_assert_uint_eq(count(hot, "class=\"edge "), 10);
	ck_assert_uint_eq(count(leaf, "class=\"node block "), 1);
	ck_assert_uint_eq(count(leaf, "class=\"edge "), 2);
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_n401015\" class=\"node block hot\">"));
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_n401013\" class=\"node block cold never entry\">"));
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_n401025\" class=\"node block warm\">"));
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_e2\" class=\"edge taken\">"));
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_e8\" class=\"edge fallthrough zero\">"));
	ck_assert_ptr_nonnull(strstr(hot, "<g id=\"s0_e5\" class=\"edge after_call\">"));
	/* Node labels and an edge label with its mispredict share. */
	ck_assert_ptr_nonnull(strstr(hot, ">401015&#45;40101b</text>"));
	ck_assert_ptr_nonnull(strstr(hot, ">cov 3 (100.00%)</text>"));
	ck_assert_ptr_nonnull(strstr(hot, ">50.00% miss</text>"));
	/* annotate's rows: percent, coverage, address, text, comment. */
	ck_assert_ptr_nonnull(strstr(hot, "<tr id=\"s0_i40101b\" class=\"hot\" data-b=\"401015\"><td class=\"pct\">50.00</td><td class=\"cov\">3</td><td class=\"addr\">40101b:</td><td class=\"asm\">je     401022 &lt;hot+0xf&gt;</td><td class=\"cm\">-66.67% (p:50.00%)</td></tr>"));
	ck_assert_ptr_nonnull(strstr(hot, "<td class=\"cm\">+50.00% -100.00% (p:100.00%)</td>"));
	ck_assert_ptr_nonnull(strstr(page, "Showing all 2 symbols with data"));
	free(hot);
	free(leaf);
	free(page);
}
END_TEST

/* Nothing outside the file: no links, scripts or images from elsewhere. */
START_TEST(report_self_contained)
{
	char *page = report(NULL, "report-golden.html", 0);
	const char *p;
	size_t http = 0, ns = 0;

	ck_assert_ptr_null(strstr(page, "<link"));
	ck_assert_ptr_null(strstr(page, " src="));
	ck_assert_ptr_null(strstr(page, "url("));
	ck_assert_ptr_null(strstr(page, "@import"));
	ck_assert_ptr_null(strstr(page, "<img"));
	ck_assert_ptr_null(strstr(page, "<iframe"));
	for (p = strstr(page, "http"); p; p = strstr(p + 1, "http")) {
		http++;
		if (!strncmp(p, "http://www.w3.org/2000/svg\"", 27) ||
		    !strncmp(p, "http://www.w3.org/1999/xlink\"", 29))
			ns++;
	}
	/* Only the SVG namespaces, once per graph each. */
	ck_assert_uint_eq(http, 4);
	ck_assert_uint_eq(ns, 4);
	ck_assert_ptr_nonnull(strstr(page, "<!DOCTYPE html>"));
	ck_assert_ptr_nonnull(strstr(page, "</html>\n"));
	free(page);
}
END_TEST

/* --max-blocks: the three hottest blocks and the edges between them. */
START_TEST(report_cap_blocks)
{
	const char *extra[] = { "--max-blocks", "3", NULL };
	char *page = report(extra, "report-cap.html", 0);
	char *hot = between(page, "<section class=\"sym\" id=\"s0\">",
			    "<section class=\"sym\" id=\"s1\">");
	char *data = data_of(page);

	ck_assert_ptr_nonnull(strstr(hot, "4 of 7 blocks not drawn (the graph shows the 3 hottest, at most 3 per graph; the highest coverage left out is 1)"));
	ck_assert_uint_eq(count(hot, "class=\"node block "), 3);
	ck_assert_ptr_nonnull(strstr(hot, "id=\"s0_n401015\""));
	ck_assert_ptr_nonnull(strstr(hot, "id=\"s0_n40102a\""));
	ck_assert_ptr_nonnull(strstr(hot, "id=\"s0_n401025\""));
	/* after_call, the call to leaf, the back edge, leaf's return */
	ck_assert_uint_eq(count(hot, "class=\"edge "), 4);
	ck_assert_uint_eq(count(hot, "class=\"edge taken\""), 1);
	/* The disassembly still lists all ten instructions. */
	ck_assert_uint_eq(count(hot, "<tr id=\"s0_i"), 10);
	ck_assert_ptr_nonnull(strstr(data, "\"hidden_blocks\": 4"));
	ck_assert_ptr_nonnull(strstr(page, "each graph draws at most 3 blocks"));
	free(data);
	free(hot);
	free(page);
}
END_TEST

START_TEST(report_cap_symbols)
{
	const char *extra[] = { "--max-symbols", "1", NULL };
	char *page = report(extra, "report-cap1.html", 0);

	ck_assert_ptr_nonnull(strstr(page, "Showing the 1 hottest of 2 symbols with data (at most 1 symbols per page, --max-symbols)"));
	ck_assert_ptr_nonnull(strstr(page, "<section class=\"sym\" id=\"s0\">"));
	ck_assert_ptr_null(strstr(page, "<section class=\"sym\" id=\"s1\">"));
	ck_assert_uint_eq(count(page, "<tr id=\"row-s"), 1);
	free(page);
}
END_TEST

START_TEST(report_stdout_and_errors)
{
	char out[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "report", "-i", flags,
			 "--binary", golden_bin, "-o", "-", NULL, NULL, NULL };
	char *got;

	scratch("report-stdout.html", out, sizeof(out));
	scratch("report.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	got = slurp(out, NULL);
	ck_assert(!strncmp(got, "<!DOCTYPE html>\n", 16));
	free(got);

	argv[7] = "/nonexistent/dir/r.html";
	ck_assert_int_eq(run_cmd(argv, out, errf), 1);
	got = slurp(errf, NULL);
	ck_assert_ptr_nonnull(strstr(got, "blockrange: /nonexistent/dir/r.html: No such file or directory\n"));
	free(got);

	argv[7] = (char *)scratch("report-x.html", out, sizeof(out));
	argv[8] = "--symbol";
	argv[9] = "nosuch";
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 2);
	got = slurp(errf, NULL);
	ck_assert_ptr_nonnull(strstr(got, "got 'nosuch'"));
	free(got);

	argv[8] = "--max-blocks";
	argv[9] = "0";
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 1);
	got = slurp(errf, NULL);
	ck_assert_ptr_nonnull(strstr(got, "expected --max-blocks N (1 to 1000000), got '0'"));
	ck_assert_ptr_nonnull(strstr(got, "usage: blockrange report"));
	free(got);
}
END_TEST

/* An input path that is markup: in HTML entities in the page's text. */
START_TEST(report_escapes)
{
	char in[512], out[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "report", "-i", in,
			 "--binary", golden_bin, "-o", out, NULL };
	char *cp[] = { "cp", flags, in, NULL };
	char *page;

	scratch("a&b'c\"d<e>.perfscript", in, sizeof(in));
	scratch("report-escapes.html", out, sizeof(out));
	scratch("report.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(cp, NULL, NULL), 0);
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 0);
	page = slurp(out, NULL);
	ck_assert_msg(strstr(page, "a&amp;b&#39;c&quot;d&lt;e&gt;.perfscript</"),
		      "input path not escaped");
	ck_assert_msg(!strstr(page, "a&b'c"), "input path raw in the page");
	free(page);
}
END_TEST

Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("golden");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, report_golden_data);
	tcase_add_test(tc, report_golden_svg);
	tcase_add_test(tc, report_self_contained);
	tcase_add_test(tc, report_cap_blocks);
	tcase_add_test(tc, report_cap_symbols);
	tcase_add_test(tc, report_stdout_and_errors);
	tcase_add_test(tc, report_escapes);
	suite_add_tcase(s, tc);
	return s;
}
