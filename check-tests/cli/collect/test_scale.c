// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI at scale: both engines give the same output, and -j N gives
 * exactly what -j 1 gives (stdout, stderr, exit status) on every input
 * kind: perf.data in file and pipe mode, perf script text from a file
 * (cut into units) and from a pipe, with several DSOs, processes (fork,
 * exec, threads) and errors at any point.  BLOCKRANGE_PAR_UNIT makes the
 * units small, so that small recordings are cut into many.  The .brprof
 * profiles of the same recordings: test_scale_brprof.c.
 */
#define _GNU_SOURCE

#include "cli_tests.h"
#include "scale_tests.h"

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
/* Run `blockrange ARGS...` (NULL-ended, @input for %I) into @tag.out/.err. */
static int br(const char *tag, const char *input, char *const args[],
	      char **out, char **err)
{
	char o[512], e[512], t[160];
	char *argv[40];
	size_t n = 0, k;
	int st;

	snprintf(t, sizeof(t), "%s.out", tag);
	scratch(t, o, sizeof(o));
	snprintf(t, sizeof(t), "%s.err", tag);
	scratch(t, e, sizeof(e));
	argv[n++] = (char *)env_path("BLOCKRANGE");
	for (k = 0; args[k]; k++)
		argv[n++] = !strcmp(args[k], "%I") ? (char *)input : args[k];
	argv[n] = NULL;
	st = run_cmd(argv, o, e);
	*out = slurp(o, NULL);
	*err = slurp(e, NULL);
	return st;
}

static const char *const jobs[] = { "2", "3" };

/*
 * `blockrange CMD -j N ARGS` for N = 1 and jobs[]: the same status, stdout
 * and stderr; returns -j 1's status.  @args holds "-j", "1" where N goes.
 */
static int same_for_all_j(const char *tag, const char *input, char **args,
			  size_t jpos)
{
	char *out1, *err1, *out, *err, t[160];
	int st1, st;
	size_t i;

	args[jpos] = "1";
	snprintf(t, sizeof(t), "%s-j1", tag);
	st1 = br(t, input, args, &out1, &err1);
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		args[jpos] = (char *)jobs[i];
		snprintf(t, sizeof(t), "%s-j%s", tag, jobs[i]);
		st = br(t, input, args, &out, &err);
		ck_assert_msg(st == st1, "%s: -j %s status %d, -j 1 %d (%s)",
			      tag, jobs[i], st, st1, err);
		ck_assert_msg(!strcmp(err, err1),
			      "%s: -j %s stderr\n%s\n-j 1:\n%s", tag, jobs[i],
			      err, err1);
		ck_assert_msg(!strcmp(out, out1),
			      "%s: -j %s stdout differs from -j 1's (%zu vs %zu bytes)",
			      tag, jobs[i], strlen(out), strlen(out1));
		free(out);
		free(err);
	}
	free(out1);
	free(err1);
	return st1;
}

/* Small units: a recording of a few hundred KB is cut into many. */
static void small_units(void)
{
	setenv("BLOCKRANGE_PAR_UNIT", "4096", 1);
}

/* annotate, its JSON, ranges per DSO, script, on perf.data and text. */
START_TEST(jobs_same_output)
{
	size_t f = (size_t)_i / 2;
	bool text = _i % 2;
	char data[512], txt[512], tag[128];
	const char *in;
	char *annotate[] = { "annotate", "-j", "1", "-i", "%I", "--no-pager",
			     NULL };
	char *json[] = { "annotate", "-j", "1", "-i", "%I", "--format=json",
			 NULL };
	char *ranges_exe[] = { "ranges", "-j", "1", "-i", "%I", "--dso", NULL,
			       NULL };
	char *script[] = { "script", "-j", "1", "-i", "%I", NULL };

	sc_fixture(f, data, sizeof(data), txt, sizeof(txt));
	in = text ? txt : data;
	small_units();
	snprintf(tag, sizeof(tag), "j-%s-%s-annotate", sc_fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, annotate, 2), 0);
	snprintf(tag, sizeof(tag), "j-%s-%s-json", sc_fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, json, 2), 0);
	ranges_exe[6] = (char *)sc_fixtures[f].prog;
	if (!strcmp(sc_fixtures[f].prog, "tasks"))
		ranges_exe[6] = "libc.so.6";
	snprintf(tag, sizeof(tag), "j-%s-%s-ranges", sc_fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, ranges_exe, 2), 0);
	snprintf(tag, sizeof(tag), "j-%s-%s-script", sc_fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, script, 2), 0);
}
END_TEST

/* Through a pipe: perf.data (file mode spooled, pipe mode) and text. */
START_TEST(jobs_same_output_pipe)
{
	size_t f = (size_t)_i / 2;
	bool text = _i % 2;
	char data[512], txt[512], tag[128], cmd[256];
	char *out1, *err1, *out, *err;
	int st1, st;
	size_t i;

	sc_fixture(f, data, sizeof(data), txt, sizeof(txt));
	small_units();
	snprintf(tag, sizeof(tag), "jp-%s-%s-1", sc_fixtures[f].name,
		 text ? "txt" : "data");
	st1 = sc_br_pipe(tag, text ? txt : data,
			 "annotate -j 1 -i - --format=json", &out1, &err1);
	ck_assert_msg(st1 == 0, "%s", err1);
	for (i = 1; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		snprintf(cmd, sizeof(cmd), "annotate -j %s -i - --format=json",
			 jobs[i]);
		snprintf(tag, sizeof(tag), "jp-%s-%s-%s", sc_fixtures[f].name,
			 text ? "txt" : "data", jobs[i]);
		st = sc_br_pipe(tag, text ? txt : data, cmd, &out, &err);
		ck_assert_int_eq(st, st1);
		ck_assert_str_eq(err, err1);
		ck_assert_msg(!strcmp(out, out1), "%s: stdout differs", tag);
		free(out);
		free(err);
	}
	free(out1);
	free(err1);
}
END_TEST

/* The tree and the batch engine: the same annotation, text and JSON. */
START_TEST(engines_same_output)
{
	size_t f = (size_t)_i / 2;
	bool text = _i % 2;
	char data[512], txt[512], tag[128];
	const char *in;
	char *tree[] = { "annotate", "--engine=tree", "-i", "%I",
			 "--format=json", NULL };
	char *batch[] = { "annotate", "--engine=batch", "-i", "%I",
			  "--format=json", NULL };
	char *tree_t[] = { "annotate", "--engine=tree", "-i", "%I",
			   "--color=always", NULL };
	char *batch_t[] = { "annotate", "-i", "%I", "--color=always", NULL };
	char *o1, *e1, *o2, *e2;

	sc_fixture(f, data, sizeof(data), txt, sizeof(txt));
	in = text ? txt : data;
	snprintf(tag, sizeof(tag), "eng-%zu-tree", (size_t)_i);
	ck_assert_int_eq(br(tag, in, tree, &o1, &e1), 0);
	snprintf(tag, sizeof(tag), "eng-%zu-batch", (size_t)_i);
	ck_assert_int_eq(br(tag, in, batch, &o2, &e2), 0);
	ck_assert(strlen(o1) > 1000);
	ck_assert_msg(!strcmp(o1, o2), "JSON of the engines differs");
	ck_assert_str_eq(e1, e2);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
	snprintf(tag, sizeof(tag), "eng-%zu-tree-t", (size_t)_i);
	ck_assert_int_eq(br(tag, in, tree_t, &o1, &e1), 0);
	snprintf(tag, sizeof(tag), "eng-%zu-batch-t", (size_t)_i);
	ck_assert_int_eq(br(tag, in, batch_t, &o2, &e2), 0);
	ck_assert_msg(!strcmp(o1, o2), "text of the engines differs");
	free(o1);
	free(e1);
	free(o2);
	free(e2);
}
END_TEST

/* A copy of @src into scratch/@tag with @fn applied to its bytes. */
static void edited(const char *src, const char *tag, char *dst, size_t dsz,
		   void (*fn)(char *buf, size_t *len, size_t arg), size_t arg)
{
	size_t len;
	char *buf = slurp(src, &len);
	FILE *f;

	buf = realloc(buf, len + 4096);
	ck_assert(buf);
	fn(buf, &len, arg);
	scratch(tag, dst, dsz);
	f = fopen(dst, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	fclose(f);
	free(buf);
}

/* Text: a malformed line after the @arg-th line of the second half. */
static void bad_line(char *buf, size_t *len, size_t arg)
{
	static const char junk[] = "this is not a sample\n";
	char *p = buf + *len / 2;
	size_t k;

	for (k = 0; k <= arg; k++) {
		p = memchr(p, '\n', (size_t)(buf + *len - p));
		ck_assert(p);
		p++;
	}
	memmove(p + strlen(junk), p, (size_t)(buf + *len - p));
	memcpy(p, junk, strlen(junk));
	*len += strlen(junk);
}

/* perf.data: a record size of 4 after the @arg-th sample of the middle. */
static void bad_record(char *buf, size_t *len, size_t arg)
{
	uint64_t doff, dlen, p;
	size_t k = 0;

	memcpy(&doff, buf + 40, 8);
	memcpy(&dlen, buf + 48, 8);
	for (p = doff; p < doff + dlen;) {
		uint16_t size;

		memcpy(&size, buf + p + 6, 2);
		if (p > doff + dlen / 2 && k++ == arg) {
			size = 4;
			memcpy(buf + p + 6, &size, 2);
			return;
		}
		p += size;
	}
	(void)len;
	ck_abort_msg("no record to break");
}

/* Errors anywhere: the message of the first one in input order. */
START_TEST(jobs_same_errors)
{
	char data[512], txt[512], bad[512], tag[128];
	char *annotate[] = { "annotate", "-j", "1", "-i", "%I", "--no-pager",
			     NULL };
	char *skip[] = { "annotate", "-j", "1", "-i", "%I", "--skip-bad",
			 "--no-pager", NULL };
	char *script[] = { "script", "-j", "1", "-i", "%I", NULL };
	size_t k;

	sc_fixture(0, data, sizeof(data), txt, sizeof(txt));
	small_units();
	for (k = 0; k < 2; k++) {
		snprintf(tag, sizeof(tag), "scale-badline-%zu.txt", k);
		edited(txt, tag, bad, sizeof(bad), bad_line, k * 37);
		snprintf(tag, sizeof(tag), "je-line-%zu", k);
		ck_assert_int_eq(same_for_all_j(tag, bad, annotate, 2), 2);
		snprintf(tag, sizeof(tag), "je-line-skip-%zu", k);
		ck_assert_int_eq(same_for_all_j(tag, bad, skip, 2), 0);
		snprintf(tag, sizeof(tag), "je-line-script-%zu", k);
		ck_assert_int_eq(same_for_all_j(tag, bad, script, 2), 2);
		snprintf(tag, sizeof(tag), "scale-badrec-%zu.data", k);
		edited(data, tag, bad, sizeof(bad), bad_record, k * 11);
		snprintf(tag, sizeof(tag), "je-rec-%zu", k);
		ck_assert_int_eq(same_for_all_j(tag, bad, annotate, 2), 2);
		snprintf(tag, sizeof(tag), "je-rec-script-%zu", k);
		ck_assert_int_eq(same_for_all_j(tag, bad, script, 2), 2);
	}
}
END_TEST

/* ---- BOLT --------------------------------------------------------------------- */

/* perf2bolt under its own name (it acts as llvm-bolt under any other). */
static const char *perf2bolt(void)
{
	static const char p[] = "/usr/lib/llvm-19/bin/perf2bolt";

	ck_assert_msg(!access(p, X_OK), "%s not found (apt install bolt-19)", p);
	return p;
}

static char *sorted_fdata(const char *path)
{
	char cmd[1024], out[600];
	char *argv[] = { "sh", "-c", cmd, NULL };

	snprintf(out, sizeof(out), "%s.sorted", path);
	snprintf(cmd, sizeof(cmd), "LC_ALL=C sort '%s'", path);
	ck_assert_int_eq(run_cmd(argv, out, NULL), 0);
	return slurp(out, NULL);
}

/*
 * perf2bolt on the perf.data and perf2bolt -pa on `blockrange bolt`'s
 * file write the same .fdata (lines sorted: perf2bolt's own order of a
 * function's records follows its hash tables).
 */
START_TEST(bolt_oracle)
{
	static const struct { size_t fixture; const char *bin; } cases[] = {
		{ 0, "multidso-pie" }, { 0, "libhot.so" },
		{ 3, "multidso-nopie" }, { 1, "branches-nopie" },
	};
	size_t f = cases[_i].fixture;
	const char *bin = cases[_i].bin;
	char data[512], txt[512], pre[512], f1[512], f2[512], prof[512];
	char cmd[2048], tag[128], binpath[512];
	char *argv[] = { "sh", "-c", cmd, NULL };
	char *a, *b, *o, *e, *p1;

	sc_fixture(f, data, sizeof(data), txt, sizeof(txt));
	snprintf(binpath, sizeof(binpath), "%s/%s",
		 env_path("BLOCKRANGE_WORKLOADS"), bin);
	snprintf(tag, sizeof(tag), "bolt-%d.preagg", _i);
	scratch(tag, pre, sizeof(pre));
	snprintf(tag, sizeof(tag), "bolt-%d-perf.fdata", _i);
	scratch(tag, f1, sizeof(f1));
	snprintf(tag, sizeof(tag), "bolt-%d-pa.fdata", _i);
	scratch(tag, f2, sizeof(f2));
	snprintf(cmd, sizeof(cmd), "bolt -i '%s' --dso %s -o '%s'", data, bin,
		 pre);
	snprintf(tag, sizeof(tag), "bolt-%d", _i);
	ck_assert_int_eq(sc_br_in("/", tag, cmd, &o, &e), 0);
	free(o);
	free(e);
	p1 = slurp(pre, NULL);
	ck_assert(strstr(p1, "\nF ") && strstr(p1, "B "));
	/* the same from the .brprof */
	snprintf(tag, sizeof(tag), "bolt-%d.brprof", _i);
	scratch(tag, prof, sizeof(prof));
	sc_profile_of(data, prof, NULL);
	snprintf(cmd, sizeof(cmd), "bolt -i '%s' --dso %s", prof, bin);
	snprintf(tag, sizeof(tag), "bolt-%d-prof", _i);
	ck_assert_int_eq(sc_br_in("/", tag, cmd, &o, &e), 0);
	ck_assert_str_eq(o, p1);
	free(o);
	free(e);
	free(p1);
	/* perf2bolt runs perf script; its scratch files go to /tmp */
	snprintf(cmd, sizeof(cmd), "'%s' -p '%s' -o '%s' '%s' >/dev/null 2>&1",
		 perf2bolt(), data, f1, binpath);
	ck_assert_msg(run_cmd(argv, NULL, NULL) == 0, "perf2bolt -p failed");
	snprintf(cmd, sizeof(cmd), "'%s' -pa -p '%s' -o '%s' '%s' >/dev/null 2>&1",
		 perf2bolt(), pre, f2, binpath);
	ck_assert_msg(run_cmd(argv, NULL, NULL) == 0, "perf2bolt -pa failed");
	a = sorted_fdata(f1);
	b = sorted_fdata(f2);
	ck_assert_msg(strlen(a) > 40, "%s: almost empty", f1);
	ck_assert_msg(!strcmp(a, b), "%s and %s differ", f1, f2);
	free(a);
	free(b);
}
END_TEST

Suite *scale_suite(void)
{
	Suite *s = suite_create("scale");
	TCase *tc = tcase_create("jobs");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, jobs_same_output, 0, 2 * NR_FIXTURES);
	tcase_add_loop_test(tc, jobs_same_output_pipe, 0, 2 * NR_FIXTURES);
	tcase_add_test(tc, jobs_same_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("engines");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, engines_same_output, 0, 2 * NR_FIXTURES);
	suite_add_tcase(s, tc);
	tc = tcase_create("brprof");
	tcase_set_timeout(tc, 120);
	scale_add_brprof_tests(tc);
	suite_add_tcase(s, tc);
	tc = tcase_create("bolt");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, bolt_oracle, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
