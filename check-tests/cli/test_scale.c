// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI at scale: both engines give the same output, and -j N gives
 * exactly what -j 1 gives (stdout, stderr, exit status) on every input
 * kind: perf.data in file and pipe mode, perf script text from a file
 * (cut into units) and from a pipe, with several DSOs, processes (fork,
 * exec, threads) and errors at any point.  BLOCKRANGE_PAR_UNIT makes the
 * units small, so that small recordings are cut into many.
 */
#define _GNU_SOURCE

#include "cli_tests.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Recordings the suite shares (made once, kept in the scratch directory). */
struct fixture {
	const char *name;
	const char *fields;	/* perf script fields of the text copy */
	bool tasks;
	bool pipe;		/* perf.data in pipe mode */
	const char *prog;	/* in BLOCKRANGE_WORKLOADS */
	const char *args[4];
};

static const struct fixture fixtures[] = {
	{ "scale-md", "ip,brstack", false, false, "multidso-pie",
	  { "300", "300", "16", NULL } },
	{ "scale-tasks", "comm,pid,tid,time,ip,brstack", true, false, "tasks",
	  { "300", "%W/branches-nopie", "300", NULL } },
	{ "scale-md-pipe", "ip,brstack", false, true, "multidso-nopie",
	  { "200", "200", "8", NULL } },
};

#define NR_FIXTURES (sizeof(fixtures) / sizeof(fixtures[0]))

static bool exists(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && sb.st_size > 0;
}

/* NAME.data and NAME.txt of fixture @i, recorded if missing. */
static void fixture(size_t i, char *data, size_t dsz, char *txt, size_t tsz)
{
	const struct fixture *f = &fixtures[i];
	char tag[128], prog[512], out[512], errf[512], wl[4][512];
	char *argv[32];
	size_t n = 0, k;

	snprintf(tag, sizeof(tag), "%s.data", f->name);
	scratch(tag, data, dsz);
	snprintf(tag, sizeof(tag), "%s.txt", f->name);
	scratch(tag, txt, tsz);
	if (exists(data) && exists(txt))
		return;
	snprintf(prog, sizeof(prog), "%s/%s", env_path("BLOCKRANGE_WORKLOADS"),
		 f->prog);
	snprintf(tag, sizeof(tag), "%s.rec-err", f->name);
	scratch(tag, errf, sizeof(errf));
	argv[n++] = (char *)env_path("BLOCKRANGE");
	argv[n++] = "record";
	argv[n++] = "-o";
	argv[n++] = f->pipe ? "-" : data;
	argv[n++] = "--script-copy";
	argv[n++] = txt;
	argv[n++] = "-F";
	argv[n++] = (char *)f->fields;
	if (f->tasks)
		argv[n++] = "--show-task-events";
	argv[n++] = "--depth";
	argv[n++] = "32";
	argv[n++] = "--period";
	argv[n++] = "7";
	argv[n++] = "--";
	argv[n++] = prog;
	for (k = 0; f->args[k]; k++) {
		if (!strncmp(f->args[k], "%W/", 3)) {
			snprintf(wl[k], sizeof(wl[k]), "%s/%s",
				 env_path("BLOCKRANGE_WORKLOADS"),
				 f->args[k] + 3);
			argv[n++] = wl[k];
		} else {
			argv[n++] = (char *)f->args[k];
		}
	}
	argv[n] = NULL;
	/* pipe mode: the program's stdout goes to stderr */
	snprintf(tag, sizeof(tag), "%s.rec-out", f->name);
	scratch(tag, out, sizeof(out));
	ck_assert_msg(run_cmd(argv, f->pipe ? data : out, errf) == 0,
		      "record %s failed (%s)", f->prog, errf);
}

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

/* The same through `cat INPUT | blockrange ... -i -`. */
static int br_pipe(const char *tag, const char *input, const char *cmdline,
		   char **out, char **err)
{
	char o[512], e[512], t[160], sh[2048];
	char *argv[] = { "sh", "-c", sh, NULL };
	int st;

	snprintf(t, sizeof(t), "%s.out", tag);
	scratch(t, o, sizeof(o));
	snprintf(t, sizeof(t), "%s.err", tag);
	scratch(t, e, sizeof(e));
	snprintf(sh, sizeof(sh), "cat '%s' | '%s' %s", input,
		 env_path("BLOCKRANGE"), cmdline);
	st = run_cmd(argv, o, e);
	*out = slurp(o, NULL);
	*err = slurp(e, NULL);
	return st;
}

static const char *const jobs[] = { "2", "3", "5" };

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

	fixture(f, data, sizeof(data), txt, sizeof(txt));
	in = text ? txt : data;
	small_units();
	snprintf(tag, sizeof(tag), "j-%s-%s-annotate", fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, annotate, 2), 0);
	snprintf(tag, sizeof(tag), "j-%s-%s-json", fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, json, 2), 0);
	ranges_exe[6] = (char *)fixtures[f].prog;
	if (!strcmp(fixtures[f].prog, "tasks"))
		ranges_exe[6] = "libc.so.6";
	snprintf(tag, sizeof(tag), "j-%s-%s-ranges", fixtures[f].name,
		 text ? "txt" : "data");
	ck_assert_int_eq(same_for_all_j(tag, in, ranges_exe, 2), 0);
	snprintf(tag, sizeof(tag), "j-%s-%s-script", fixtures[f].name,
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

	fixture(f, data, sizeof(data), txt, sizeof(txt));
	small_units();
	snprintf(tag, sizeof(tag), "jp-%s-%s-1", fixtures[f].name,
		 text ? "txt" : "data");
	st1 = br_pipe(tag, text ? txt : data,
		      "annotate -j 1 -i - --format=json", &out1, &err1);
	ck_assert_msg(st1 == 0, "%s", err1);
	for (i = 0; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
		snprintf(cmd, sizeof(cmd), "annotate -j %s -i - --format=json",
			 jobs[i]);
		snprintf(tag, sizeof(tag), "jp-%s-%s-%s", fixtures[f].name,
			 text ? "txt" : "data", jobs[i]);
		st = br_pipe(tag, text ? txt : data, cmd, &out, &err);
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

	fixture(f, data, sizeof(data), txt, sizeof(txt));
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

	fixture(0, data, sizeof(data), txt, sizeof(txt));
	small_units();
	for (k = 0; k < 3; k++) {
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
	return s;
}
