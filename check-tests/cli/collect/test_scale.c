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

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
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
	/* BOLT's oracle only: perf2bolt reads no pipe-mode perf.data */
	{ "scale-mdn", "ip,brstack", false, false, "multidso-nopie",
	  { "200", "200", "8", NULL } },
};

/* The fixtures every -j, engine and profile test runs on. */
#define NR_FIXTURES 3

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
	argv[n++] = "--engine=ptrace";
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
	for (i = 1; i < sizeof(jobs) / sizeof(jobs[0]); i++) {
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

/* ---- .brprof ----------------------------------------------------------------- */

#include "input/brprof.h"

/* `blockrange ARGS` in @dir (through sh), stdout/stderr into @tag files. */
static int br_in(const char *dir, const char *tag, const char *cmdline,
		 char **out, char **err)
{
	char o[512], e[512], t[160], sh[4096];
	char *argv[] = { "sh", "-c", sh, NULL };
	int st;

	snprintf(t, sizeof(t), "%s.out", tag);
	scratch(t, o, sizeof(o));
	snprintf(t, sizeof(t), "%s.err", tag);
	scratch(t, e, sizeof(e));
	snprintf(sh, sizeof(sh), "cd '%s' && '%s' %s", dir,
		 env_path("BLOCKRANGE"), cmdline);
	st = run_cmd(argv, o, e);
	*out = slurp(o, NULL);
	*err = slurp(e, NULL);
	return st;
}

/* Every @what in @s replaced by "%I" (in place). */
static void unname(char *s, const char *what)
{
	size_t n = strlen(what);
	char *p;

	while ((p = strstr(s, what))) {
		p[0] = '%';
		p[1] = 'I';
		memmove(p + 2, p + n, strlen(p + n) + 1);
	}
}

/* What each command prints for @in equals what it prints for @prof. */
static void same_from_profile(const char *tag, const char *in,
			      const char *prof, const char *cmd, bool err)
{
	char c1[1024], c2[1024], t[160];
	char *o1, *e1, *o2, *e2;
	int s1, s2;

	snprintf(c1, sizeof(c1), cmd, in);
	snprintf(c2, sizeof(c2), cmd, prof);
	snprintf(t, sizeof(t), "%s-raw", tag);
	s1 = br_in("/", t, c1, &o1, &e1);
	snprintf(t, sizeof(t), "%s-prof", tag);
	s2 = br_in("/", t, c2, &o2, &e2);
	ck_assert_msg(s1 == 0 && s2 == 0, "%s: status %d / %d: %s%s", tag, s1,
		      s2, e1, e2);
	ck_assert_msg(strlen(o1) > 100, "%s: little output", tag);
	/* the report names its input */
	unname(o1, in);
	unname(o2, prof);
	ck_assert_msg(!strcmp(o1, o2), "%s: output from the profile differs", tag);
	/*
	 * With --dso, the summary line of a profile is the profile's: it
	 * counted the other DSOs' blocks, the input read with --dso skips them.
	 */
	if (err)
		ck_assert_msg(!strcmp(e1, e2),
			      "%s: stderr\n%s\nfrom the profile\n%s", tag, e1,
			      e2);
	free(o1);
	free(e1);
	free(o2);
	free(e2);
}

static void profile_of(const char *in, const char *out, const char *extra)
{
	char cmd[2048], t[160];
	char *o, *e;

	snprintf(cmd, sizeof(cmd), "profile -i '%s' -o '%s' %s", in, out,
		 extra ? extra : "");
	snprintf(t, sizeof(t), "prof-%s", strrchr(out, '/') + 1);
	ck_assert_msg(br_in("/", t, cmd, &o, &e) == 0, "profile: %s", e);
	free(o);
	free(e);
}

static void merge_of(const char *const *in, size_t n, const char *out)
{
	char cmd[8192], t[160];
	size_t i, k = 0;
	char *o, *e;

	k += snprintf(cmd + k, sizeof(cmd) - k, "merge");
	for (i = 0; i < n; i++)
		k += snprintf(cmd + k, sizeof(cmd) - k, " '%s'", in[i]);
	snprintf(cmd + k, sizeof(cmd) - k, " -o '%s'", out);
	snprintf(t, sizeof(t), "merge-%s", strrchr(out, '/') + 1);
	ck_assert_msg(br_in("/", t, cmd, &o, &e) == 0, "merge: %s", e);
	free(o);
	free(e);
}

static bool same_file(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);
	bool eq = la == lb && !memcmp(x, y, la);

	free(x);
	free(y);
	return eq;
}

/* annotate, its JSON, ranges, bolt and report read a .brprof as the input. */
START_TEST(profile_round_trip)
{
	size_t f = (size_t)_i / 2;
	bool text = _i % 2;
	char data[512], txt[512], prof[512], tag[128], cmd[512], rep[512];
	const char *in;

	fixture(f, data, sizeof(data), txt, sizeof(txt));
	in = text ? txt : data;
	snprintf(tag, sizeof(tag), "rt-%zu.brprof", (size_t)_i);
	scratch(tag, prof, sizeof(prof));
	profile_of(in, prof, NULL);
	snprintf(tag, sizeof(tag), "rt-%zu-annotate", (size_t)_i);
	same_from_profile(tag, in, prof, "annotate -i '%s' --no-pager", true);
	snprintf(tag, sizeof(tag), "rt-%zu-json", (size_t)_i);
	same_from_profile(tag, in, prof, "annotate -i '%s' --format=json",
			  true);
	snprintf(tag, sizeof(tag), "rt-%zu-ranges", (size_t)_i);
	snprintf(cmd, sizeof(cmd), "ranges -i '%%s' --dso %s", fixtures[f].prog);
	same_from_profile(tag, in, prof, cmd, false);
	snprintf(tag, sizeof(tag), "rt-%zu-bolt", (size_t)_i);
	snprintf(cmd, sizeof(cmd), "bolt -i '%%s' --dso %s", fixtures[f].prog);
	same_from_profile(tag, in, prof, cmd, false);
	if (_i)
		return;	/* the report (Graphviz) once */
	snprintf(tag, sizeof(tag), "rt-%zu.html", (size_t)_i);
	scratch(tag, rep, sizeof(rep));
	snprintf(cmd, sizeof(cmd), "report -i '%%s' -o - --max-symbols 3");
	snprintf(tag, sizeof(tag), "rt-%zu-report", (size_t)_i);
	same_from_profile(tag, in, prof, cmd, true);
}
END_TEST

/* A tiny generator of the same numbers every run. */
static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/*
 * profile is additive: the profiles of a random partition of the samples
 * of a text, merged in a random order and grouping, are the profile of
 * the whole (merged alone, which orders it canonically), byte for byte.
 */
START_TEST(merge_is_additive)
{
	char data[512], txt[512], path[512], whole[512], all[512], tag[128];
	char **lines = NULL, *buf, *p, *pool[16];
	size_t nl = 0, cap = 0, parts, i, k, np;
	uint64_t seed = 0x5eed + (uint64_t)_i;
	FILE *fs[8];
	FILE *wf;

	fixture(0, data, sizeof(data), txt, sizeof(txt));
	buf = slurp(txt, NULL);
	for (p = buf; *p; ) {
		char *e = strchr(p, '\n');

		ck_assert(e);
		*e = '\0';
		if (nl == cap) {
			cap = cap ? 2 * cap : 1024;
			lines = realloc(lines, cap * sizeof(*lines));
			ck_assert(lines);
		}
		lines[nl++] = p;
		p = e + 1;
	}
	parts = 2 + lcg(&seed) % 5;
	snprintf(tag, sizeof(tag), "add-%d-whole.txt", _i);
	scratch(tag, whole, sizeof(whole));
	wf = fopen(whole, "w");
	ck_assert(wf);
	for (k = 0; k < parts; k++) {
		snprintf(tag, sizeof(tag), "add-%d-%zu.txt", _i, k);
		fs[k] = fopen(scratch(tag, path, sizeof(path)), "w");
		ck_assert(fs[k]);
	}
	/* the mmap lines go to every part, before its samples */
	for (i = 0; i < nl; i++) {
		if (!strstr(lines[i], "PERF_RECORD_"))
			continue;
		fprintf(wf, "%s\n", lines[i]);
		for (k = 0; k < parts; k++)
			fprintf(fs[k], "%s\n", lines[i]);
	}
	for (i = 0; i < nl; i++) {
		if (strstr(lines[i], "PERF_RECORD_"))
			continue;
		fprintf(wf, "%s\n", lines[i]);
		/* every part gets a sample (an empty one is an error) */
		k = i < parts ? i : lcg(&seed) % parts;
		fprintf(fs[k], "%s\n", lines[i]);
	}
	fclose(wf);
	for (k = 0; k < parts; k++) {
		char prof[512];

		fclose(fs[k]);
		snprintf(tag, sizeof(tag), "add-%d-%zu.txt", _i, k);
		scratch(tag, path, sizeof(path));
		snprintf(tag, sizeof(tag), "add-%d-%zu.brprof", _i, k);
		scratch(tag, prof, sizeof(prof));
		profile_of(path, prof, NULL);
		pool[k] = strdup(prof);
	}
	np = parts;
	/* merge two or three at random until one is left */
	for (k = 0; np > 1; k++) {
		size_t take = np > 2 && lcg(&seed) % 2 ? 3 : 2, t;
		const char *in[3];
		char out[512];

		for (t = 0; t < take; t++) {
			size_t x = lcg(&seed) % np;

			in[t] = pool[x];
			pool[x] = pool[--np];
		}
		snprintf(tag, sizeof(tag), "add-%d-m%zu.brprof", _i, k);
		scratch(tag, out, sizeof(out));
		merge_of(in, take, out);
		for (t = 0; t < take; t++)
			free((char *)in[t]);
		pool[np++] = strdup(out);
	}
	snprintf(tag, sizeof(tag), "add-%d-whole.brprof", _i);
	scratch(tag, path, sizeof(path));
	profile_of(whole, path, NULL);
	snprintf(tag, sizeof(tag), "add-%d-whole-canon.brprof", _i);
	scratch(tag, all, sizeof(all));
	{
		const char *in[1] = { path };

		merge_of(in, 1, all);
	}
	ck_assert_msg(same_file(pool[0], all),
		      "%zu parts merged (%s) differ from the whole (%s)", parts,
		      pool[0], all);
	free(pool[0]);
	free(lines);
	free(buf);
}
END_TEST

/* merge(A, B) = merge(B, A); merge(merge(A, B), C) = merge(A, merge(B, C)). */
START_TEST(merge_laws)
{
	char d[3][512], t[3][512], pr[3][512], x[6][512], tag[128];
	size_t i;

	for (i = 0; i < 3; i++) {
		fixture(i, d[i], sizeof(d[i]), t[i], sizeof(t[i]));
		snprintf(tag, sizeof(tag), "law-%zu.brprof", i);
		scratch(tag, pr[i], sizeof(pr[i]));
		profile_of(d[i], pr[i], NULL);
	}
	for (i = 0; i < 6; i++) {
		snprintf(tag, sizeof(tag), "law-x%zu.brprof", i);
		scratch(tag, x[i], sizeof(x[i]));
	}
	{
		const char *ab[] = { pr[0], pr[1] }, *ba[] = { pr[1], pr[0] };
		const char *ab_c[] = { x[0], pr[2] }, *bc[] = { pr[1], pr[2] };
		const char *a_bc[] = { pr[0], x[3] };
		const char *cab[] = { pr[2], pr[0], pr[1] };

		merge_of(ab, 2, x[0]);
		merge_of(ba, 2, x[1]);
		ck_assert(same_file(x[0], x[1]));
		merge_of(ab_c, 2, x[2]);
		merge_of(bc, 2, x[3]);
		merge_of(a_bc, 2, x[4]);
		ck_assert(same_file(x[2], x[4]));
		merge_of(cab, 3, x[5]);
		ck_assert(same_file(x[2], x[5]));
	}
	{
		/* A + A: every count doubled, the same as a profile of AA */
		char aa[512], two[512], p2[512], c2[512];
		const char *in[] = { pr[0], pr[0] }, *one[1] = { p2 };
		char *argv[] = { "python3", NULL, d[0], two, "--copies", "2",
				 NULL };
		char script[512];

		snprintf(script, sizeof(script), "%s/../../bench/pdrepl.py",
			 env_path("BLOCKRANGE_LOOKUP"));
		argv[1] = script;
		scratch("law-aa.brprof", aa, sizeof(aa));
		scratch("law-two.data", two, sizeof(two));
		scratch("law-two.brprof", p2, sizeof(p2));
		scratch("law-two-canon.brprof", c2, sizeof(c2));
		ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
		merge_of(in, 2, aa);
		profile_of(two, p2, NULL);
		merge_of(one, 1, c2);
		ck_assert(same_file(aa, c2));
	}
}
END_TEST

/* The committed golden profile: written the same, read the same. */
START_TEST(golden_profile)
{
	char gold[512], flags[512], cmd[2048], out[512];
	const char *wl = env_path("BLOCKRANGE_WORKLOADS");
	char *o, *e, *want;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
	scratch("golden-now.brprof", out, sizeof(out));
	/* the DSO's path is what --binary says: "golden" */
	snprintf(cmd, sizeof(cmd), "profile -i '%s' --binary golden -o '%s'",
		 flags, out);
	ck_assert_int_eq(br_in(wl, "golden-prof", cmd, &o, &e), 0);
	free(o);
	free(e);
	ck_assert_msg(same_file(out, gold),
		      "the profile of golden/flags.perfscript is not golden/golden.brprof (a format change needs a new version)");
	snprintf(cmd, sizeof(cmd),
		 "annotate -i '%s' --binary ./golden --color=never", gold);
	ck_assert_int_eq(br_in(wl, "golden-annot", cmd, &o, &e), 0);
	snprintf(cmd, sizeof(cmd), "%s/annotate-flags.txt",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(cmd, NULL);
	ck_assert_str_eq(o, want);
	free(want);
	free(o);
	free(e);
	snprintf(cmd, sizeof(cmd), "ranges -i '%s' --binary ./golden", gold);
	ck_assert_int_eq(br_in(wl, "golden-ranges", cmd, &o, &e), 0);
	snprintf(cmd, sizeof(cmd), "%s/ranges-flags.txt",
		 env_path("BLOCKRANGE_GOLDEN"));
	want = slurp(cmd, NULL);
	ck_assert_str_eq(o, want);
	free(want);
	free(o);
	free(e);
}
END_TEST

/* Hostile profiles: one-line refusals (status 2) by annotate and merge. */
static void reseal(uint8_t *b, size_t len)
{
	uint64_t v = htole64(len - BRPROF_HEADER);

	memcpy(b + 16, &v, 8);
	v = htole64(brprof_hash(b + BRPROF_HEADER, len - BRPROF_HEADER));
	memcpy(b + 24, &v, 8);
	v = htole64(brprof_hash(b, 56));
	memcpy(b + 56, &v, 8);
}

static void set64(uint8_t *b, size_t at, uint64_t v)
{
	v = htole64(v);
	memcpy(b + at, &v, 8);
}

/*
 * Offsets in golden.brprof (one DSO "golden": 7 blocks, 2 sample IPs,
 * 5 edges, 6 ranges, 5 branches, 5 BOLT branches, 6 BOLT traces).
 */
#define G_NR_DSOS 32
#define G_SAMPLES_STAT (72 + 8 * 18)
#define G_EVENT 224
#define G_DSO 232
#define G_DSO_SAMPLES (G_DSO + 40)
#define G_NR_BLOCKS 288
#define G_PATH (G_DSO + 112)
#define G_BLOCK0 352
#define G_EDGE0 (G_BLOCK0 + 7 * 32 + 2 * 16)
#define G_RANGE0 (G_EDGE0 + 5 * 32)
#define G_BRANCH0 (G_RANGE0 + 6 * 24)
#define G_BOLT_BR0 (G_BRANCH0 + 5 * 24)
#define G_BOLT_FT0 (G_BOLT_BR0 + 5 * 32)

struct hostile {
	const char *name;
	const char *expect;	/* in the message */
	size_t len_delta;	/* bytes appended (zero) */
	bool keep_seal;		/* do not fix the checksums */
	void (*edit)(uint8_t *b, size_t len);
	size_t cut_to;		/* the first bytes only (0: all) */
};

static void h_cut(uint8_t *b, size_t len) { (void)b; (void)len; }
static void h_hdr(uint8_t *b, size_t len) { (void)len; b[20] ^= 1; }
static void h_body(uint8_t *b, size_t len) { (void)len; b[400] ^= 0x10; }
static void h_version(uint8_t *b, size_t len) { (void)len; b[8] = 2; }
static void h_huge(uint8_t *b, size_t len) { (void)len; set64(b, G_NR_BLOCKS, 1ull << 62); }
static void h_order(uint8_t *b, size_t len)
{
	uint8_t t[32];

	(void)len;
	memcpy(t, b + G_BLOCK0, 32);
	memcpy(b + G_BLOCK0, b + G_BLOCK0 + 32, 32);
	memcpy(b + G_BLOCK0 + 32, t, 32);
}
static void h_zero(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 24, 0); }
static void h_pred(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 16, 3); }
static void h_start(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0, 0); }
static void h_flags(uint8_t *b, size_t len) { (void)len; b[G_DSO + 5] |= 0x40; }
static void h_nul(uint8_t *b, size_t len) { (void)len; b[G_DSO + 112 + 2] = 0; }
static void h_miss(uint8_t *b, size_t len) { (void)len; set64(b, G_EDGE0 + 24, 1000); }
static void h_dsos(uint8_t *b, size_t len) { (void)len; b[G_NR_DSOS] = 200; }
static void h_dup(uint8_t *b, size_t len)
{
	size_t n = (len - G_DSO) / 2;

	/* the DSO entry twice (the file was made twice as long after it) */
	memcpy(b + G_DSO + n, b + G_DSO, n);
	b[G_NR_DSOS] = 2;
}
static void h_trail(uint8_t *b, size_t len) { (void)b; (void)len; }
static void set32(uint8_t *b, size_t at, uint32_t v)
{
	v = htole32(v);
	memcpy(b + at, &v, 4);
}
static void h_hsize(uint8_t *b, size_t len) { (void)len; set32(b, 12, 72); }
static void h_hflags(uint8_t *b, size_t len) { (void)len; b[36] = 4; }
static void h_nstats(uint8_t *b, size_t len) { (void)len; set32(b, 64, 18); }
static void h_evlen(uint8_t *b, size_t len) { (void)len; set32(b, 68, 5000); }
static void h_evnul(uint8_t *b, size_t len) { (void)len; b[G_DSO - 8] = 0; }
static void h_bidsz(uint8_t *b, size_t len) { (void)len; b[G_DSO + 4] = 21; }
static void h_path0(uint8_t *b, size_t len) { (void)len; set32(b, G_DSO, 0); }
static void h_ip0(uint8_t *b, size_t len) { (void)len; set64(b, G_BLOCK0 + 7 * 32 + 8, 0); }
static void h_range(uint8_t *b, size_t len) { (void)len; set64(b, G_RANGE0, 0xffffffff); }
static void h_branch0(uint8_t *b, size_t len) { (void)len; set64(b, G_BRANCH0 + 16, 0); }
static void h_boltbr(uint8_t *b, size_t len)
{
	(void)len;
	set64(b, G_BOLT_BR0, 0);
	set64(b, G_BOLT_BR0 + 8, 0);
}
static void h_boltft(uint8_t *b, size_t len) { (void)len; set64(b, G_BOLT_FT0, 0); }
static void h_boltft0(uint8_t *b, size_t len)
{
	(void)len;
	set64(b, G_BOLT_FT0 + 16, 0);
	set64(b, G_BOLT_FT0 + 24, 0);
}
static void h_evpad(uint8_t *b, size_t len) { (void)len; set32(b, 68, 7); }
static void h_dso2(uint8_t *b, size_t len) { (void)len; b[G_NR_DSOS] = 2; }
static void h_path10(uint8_t *b, size_t len)
{
	(void)len;
	set32(b, G_DSO, 10);
	memset(b + G_PATH + 6, 'x', 4);
}

static const struct hostile hostile[] = {
	{ "cut", "expected a body of", (size_t)-8, true, h_cut, 0 },
	{ "header-checksum", "expected the header checksum", 0, true, h_hdr, 0 },
	{ "body-checksum", "expected the body checksum", 0, true, h_body, 0 },
	{ "version", "expected .brprof version 1, got 2", 0, false, h_version, 0 },
	{ "huge-count", "block records in the", 0, false, h_huge, 0 },
	{ "order", "in increasing order", 0, false, h_order, 0 },
	{ "zero-count", "block count of at least 1", 0, false, h_zero, 0 },
	{ "prediction", "prediction of 0, 1 or 2, got 3", 0, false, h_pred, 0 },
	{ "start-zero", "0 < start <= end", 0, false, h_start, 0 },
	{ "flags", "DSO flags of at most 0xf", 0, false, h_flags, 0 },
	{ "nul-path", "a path without NUL", 0, false, h_nul, 0 },
	{ "mispredicted", "no more mispredicted", 0, false, h_miss, 0 },
	{ "many-dsos", "DSOs in", 0, false, h_dsos, 0 },
	{ "dup-dso", "every DSO once", 0, false, h_dup, 0 },
	{ "trailing", "expected the end of the profile, got 8 more bytes", 8,
	  false, h_trail, 0 },
	{ "short", "expected a .brprof header of 64 bytes, got 32", 0, true,
	  h_cut, 32 },
	{ "header-size", "expected a 64-byte version 1 header", 0, false,
	  h_hsize, 0 },
	{ "header-flags", "expected header flags of at most 0x3, got 0x4", 0,
	  false, h_hflags, 0 },
	{ "no-stats", "expected the statistics, got the end of the file", 0,
	  false, h_cut, 68 },
	{ "cut-stats", "expected 19 statistics, got the end of the file", 0,
	  false, h_cut, 80 },
	{ "nr-stats", "expected 19 statistics, got 18", 0, false, h_nstats, 0 },
	{ "event-name", "expected an event name of at most 4096 bytes", 0,
	  false, h_evlen, 0 },
	{ "event-nul", "expected an event name without NUL", 0, false, h_evnul,
	  0 },
	{ "build-id", "expected a build-id of at most 20 bytes", 0, false,
	  h_bidsz, 0 },
	{ "empty-path", "expected a path of 1 to", 0, false, h_path0, 0 },
	{ "ip-count", "expected a sample IP count of at least 1, got 0", 0,
	  false, h_ip0, 0 },
	{ "range", "offset 768: expected a range with start <= end, got [0xffffffff, 0x", 0,
	  false, h_range, 0 },
	{ "branch-count", "offset 912: expected a llvm-profgen branch count of at least 1, got 0",
	  0, false, h_branch0, 0 },
	{ "bolt-branch", "offset 1032: expected a BOLT branch with an end in the DSO, got 0 -> 0",
	  0, false, h_boltbr, 0 },
	{ "bolt-trace", "offset 1192: expected a BOLT trace in the DSO, got 0x0 -> 0x",
	  0, false, h_boltft, 0 },
	{ "bolt-trace-count", "offset 1192: expected BOLT trace counts of at least 1 in all whose sum fits in 64 bits, got 0 and 0",
	  0, false, h_boltft0, 0 },
	{ "event-padding", "offset 231: expected the event name's padding, got the end of the file",
	  0, false, h_evpad, G_EVENT + 7 },
	{ "dso-missing", "offset 1384: expected DSO 2 of 2, got the end of the file",
	  0, false, h_dso2, 0 },
	{ "path-padding", "offset 354: expected the path's padding, got the end of the file",
	  0, false, h_path10, G_PATH + 10 },
};

#define NR_HOSTILE (sizeof(hostile) / sizeof(hostile[0]))

START_TEST(hostile_profiles)
{
	const struct hostile *h = &hostile[_i];
	char gold[512], path[512], tag[128], cmd[2048], out[512];
	size_t len, n;
	uint8_t *b;
	FILE *f;
	char *o, *e;
	int pass;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	b = (uint8_t *)slurp(gold, &len);
	n = !strcmp(h->name, "dup-dso") ? 2 * len - G_DSO : len + h->len_delta;
	if (h->cut_to)
		n = h->cut_to;
	b = realloc(b, n > len ? n : len);
	ck_assert(b);
	if (n > len)
		memset(b + len, 0, n - len);
	h->edit(b, n);
	if (!h->keep_seal)
		reseal(b, n);
	snprintf(tag, sizeof(tag), "hostile-%s.brprof", h->name);
	scratch(tag, path, sizeof(path));
	f = fopen(path, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(b, 1, n, f), n);
	fclose(f);
	free(b);
	scratch("hostile-out.brprof", out, sizeof(out));
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			snprintf(cmd, sizeof(cmd), "merge '%s' -o '%s'", path,
				 out);
		else
			snprintf(cmd, sizeof(cmd), "annotate -i '%s' --binary '%s/golden'",
				 path, env_path("BLOCKRANGE_WORKLOADS"));
		snprintf(tag, sizeof(tag), "hostile-%s-%d", h->name, pass);
		ck_assert_int_eq(br_in("/", tag, cmd, &o, &e), 2);
		ck_assert_str_eq(o, "");
		ck_assert_msg(strstr(e, h->expect), "%s: %s", h->name, e);
		ck_assert_msg(!strncmp(e, "blockrange: ", 12) &&
			      strchr(e, '\n') == e + strlen(e) - 1,
			      "%s: not one line: %s", h->name, e);
		ck_assert_msg(strstr(e, ": offset "), "%s: %s", h->name, e);
		free(o);
		free(e);
	}
}
END_TEST

/*
 * Counts whose sum passes 2^64 - 1 when merged: refused, not wrapped (an
 * edge's count, the samples of the profile, the samples of a DSO).
 */
static const struct {
	size_t at;
	const char *expect;
} overflow[] = {
	{ G_EDGE0 + 16,
	  "golden: expected counts whose sums fit in 64 bits, got sums that overflow" },
	{ G_SAMPLES_STAT,
	  "overflow.brprof: expected sample counts whose sum fits in 64 bits, got a sum that overflows" },
	{ G_DSO_SAMPLES,
	  "golden: expected counts whose sums fit in 64 bits, got sums that overflow" },
};

START_TEST(merge_overflow)
{
	char gold[512], path[512], out[512], cmd[2048];
	size_t len;
	uint8_t *b;
	FILE *f;
	char *o, *e;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	b = (uint8_t *)slurp(gold, &len);
	set64(b, overflow[_i].at, UINT64_MAX - 1);
	reseal(b, len);
	scratch("overflow.brprof", path, sizeof(path));
	f = fopen(path, "wb");
	ck_assert(f);
	ck_assert_uint_eq(fwrite(b, 1, len, f), len);
	fclose(f);
	free(b);
	scratch("overflow-out.brprof", out, sizeof(out));
	snprintf(cmd, sizeof(cmd), "merge '%s' '%s' -o '%s'", path, path, out);
	ck_assert_int_eq(br_in("/", "overflow", cmd, &o, &e), 2);
	ck_assert_msg(strstr(e, overflow[_i].expect), "%s", e);
	ck_assert_str_eq(o, "");
	free(o);
	free(e);
}
END_TEST

/* A .brprof on a pipe is refused with a message that says what to do. */
START_TEST(profile_on_pipe)
{
	char gold[512], tag[64];
	char *o, *e;

	snprintf(gold, sizeof(gold), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(tag, sizeof(tag), "brprof-pipe");
	ck_assert_int_eq(br_pipe(tag, gold, "annotate -i -", &o, &e), 2);
	ck_assert_msg(strstr(e, "got a .brprof profile"), "%s", e);
	free(o);
	free(e);
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

	fixture(f, data, sizeof(data), txt, sizeof(txt));
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
	ck_assert_int_eq(br_in("/", tag, cmd, &o, &e), 0);
	free(o);
	free(e);
	p1 = slurp(pre, NULL);
	ck_assert(strstr(p1, "\nF ") && strstr(p1, "B "));
	/* the same from the .brprof */
	snprintf(tag, sizeof(tag), "bolt-%d.brprof", _i);
	scratch(tag, prof, sizeof(prof));
	profile_of(data, prof, NULL);
	snprintf(cmd, sizeof(cmd), "bolt -i '%s' --dso %s", prof, bin);
	snprintf(tag, sizeof(tag), "bolt-%d-prof", _i);
	ck_assert_int_eq(br_in("/", tag, cmd, &o, &e), 0);
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
	tcase_add_loop_test(tc, profile_round_trip, 0, 2 * NR_FIXTURES);
	tcase_add_loop_test(tc, merge_is_additive, 0, 2);
	tcase_add_test(tc, merge_laws);
	tcase_add_test(tc, golden_profile);
	tcase_add_loop_test(tc, hostile_profiles, 0, NR_HOSTILE);
	tcase_add_loop_test(tc, merge_overflow, 0,
			    sizeof(overflow) / sizeof(overflow[0]));
	tcase_add_test(tc, profile_on_pipe);
	suite_add_tcase(s, tc);
	tc = tcase_create("bolt");
	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, bolt_oracle, 0, 4);
	suite_add_tcase(s, tc);
	return s;
}
