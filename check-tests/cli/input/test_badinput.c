// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile input for the CLI: every class in check-tests/cli/bad-input/ is a
 * NAME.expect file (and usually a NAME.perfscript input) run through the
 * real binary ($BLOCKRANGE, the sanitized one under check-cli-sanitize).
 * See bad-input/README.md for the expectation format.  For each class:
 *
 *  - the exit status is the expected one and stderr is exactly the expected
 *    line (usage errors: the expected line, then the usage text);
 *  - nothing is written to stdout on an error, and exactly the expected
 *    output (when given) on success;
 *  - with --skip-bad (classes with "skip:"), the run succeeds with one
 *    "skipped N malformed lines" line, and its output equals the output of
 *    the same command on the input with the "drop:" lines removed, which
 *    itself must run cleanly (exit 0, no stderr: so it had samples).
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_tests.h"

#define MAX_CLASSES 160
#define NAME_MAX_LEN 64
#define MAX_ARGS 32
#define MAX_DROP 16

/* Class names, found when the suite is built (no heap: nothing to free). */
static char classes[MAX_CLASSES][NAME_MAX_LEN];
static int nr_classes;
static char scan_error[256];

struct expect {
	char input[512];
	char args[1024];
	int exit;
	bool have_exit;
	char stderr_line[1024];
	bool have_stderr;
	char stderr_first[1024];
	bool have_stderr_first;
	char stdout_text[4096];
	bool have_stdout;
	char stdout_has[4][512];
	int nr_has;
	long skip;		/* -1: no --skip-bad run */
	int skip_exit;
	char skip_stderr[1024];
	bool have_skip_stderr;
	long drop[MAX_DROP];
	int nr_drop;
	char size_of[2][512];
};

struct paths {
	const char *dir;	/* %D: the corpus */
	const char *gen;	/* %G: fixtures made by make */
	const char *wl;		/* %W: workloads (golden, branches-pie) */
	char input[512];	/* %I */
	char size[2][32];	/* %S, %T: sizes of the "size:", "size2:" files */
};

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void scan_classes(void)
{
	const char *dir = getenv("BLOCKRANGE_BADINPUT");
	struct dirent *d;
	DIR *dp;

	if (!dir || !*dir) {
		snprintf(scan_error, sizeof(scan_error),
			 "BLOCKRANGE_BADINPUT is not set (run make check-cli)");
		return;
	}
	dp = opendir(dir);
	if (!dp) {
		snprintf(scan_error, sizeof(scan_error), "cannot open %s", dir);
		return;
	}
	while ((d = readdir(dp))) {
		size_t n = strlen(d->d_name);

		if (n <= 7 || strcmp(d->d_name + n - 7, ".expect"))
			continue;
		if (nr_classes == MAX_CLASSES || n - 7 >= NAME_MAX_LEN) {
			snprintf(scan_error, sizeof(scan_error),
				 "too many classes or too long a name: %s",
				 d->d_name);
			break;
		}
		memcpy(classes[nr_classes], d->d_name, n - 7);
		classes[nr_classes][n - 7] = '\0';
		nr_classes++;
	}
	closedir(dp);
	qsort(classes, (size_t)nr_classes, sizeof(classes[0]), cmp_name);
}

/* Replace %I %D %G %W %S %T (and %%) in @t. */
static void subst(const char *t, const struct paths *p, char *out, size_t sz)
{
	size_t o = 0;

	for (; *t; t++) {
		const char *r = NULL;
		char one[2] = { *t, '\0' };

		if (*t == '%' && t[1]) {
			switch (*++t) {
			case 'I':
				r = p->input;
				break;
			case 'D':
				r = p->dir;
				break;
			case 'G':
				r = p->gen;
				break;
			case 'W':
				r = p->wl;
				break;
			case 'S':
				r = p->size[0];
				break;
			case 'T':
				r = p->size[1];
				break;
			case '%':
				r = "%";
				break;
			default:
				ck_abort_msg("unknown placeholder %%%c in '%s'",
					     *t, t);
			}
		} else {
			r = one;
		}
		ck_assert_msg(o + strlen(r) < sz, "'%s' too long", t);
		memcpy(out + o, r, strlen(r));
		o += strlen(r);
	}
	out[o] = '\0';
}

static void set(char *dst, size_t sz, const char *v, bool *flag)
{
	ck_assert_msg(strlen(v) < sz, "value too long: '%s'", v);
	strcpy(dst, v);
	if (flag)
		*flag = true;
}

static void parse_expect(const char *path, struct expect *x)
{
	char *text = slurp(path, NULL), *line, *save = NULL;

	memset(x, 0, sizeof(*x));
	x->skip = -1;
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *v = strstr(line, ": ");

		if (line[0] == '#')
			continue;
		ck_assert_msg(v, "%s: no 'key: value' in '%s'", path, line);
		*v = '\0';
		v += 2;
		if (!strcmp(line, "input")) {
			set(x->input, sizeof(x->input), v, NULL);
		} else if (!strcmp(line, "args")) {
			set(x->args, sizeof(x->args), v, NULL);
		} else if (!strcmp(line, "exit")) {
			x->exit = atoi(v);
			x->have_exit = true;
		} else if (!strcmp(line, "stderr")) {
			set(x->stderr_line, sizeof(x->stderr_line), v,
			    &x->have_stderr);
		} else if (!strcmp(line, "stderr-first")) {
			set(x->stderr_first, sizeof(x->stderr_first), v,
			    &x->have_stderr_first);
		} else if (!strcmp(line, "stdout")) {
			size_t n = strlen(x->stdout_text);

			ck_assert(n + strlen(v) + 2 < sizeof(x->stdout_text));
			strcat(strcpy(x->stdout_text + n, v), "\n");
			x->have_stdout = true;
		} else if (!strcmp(line, "stdout-has")) {
			ck_assert(x->nr_has < 4);
			set(x->stdout_has[x->nr_has++], sizeof(x->stdout_has[0]),
			    v, NULL);
		} else if (!strcmp(line, "skip")) {
			x->skip = atol(v);
		} else if (!strcmp(line, "skip-exit")) {
			x->skip_exit = atoi(v);
		} else if (!strcmp(line, "skip-stderr")) {
			set(x->skip_stderr, sizeof(x->skip_stderr), v,
			    &x->have_skip_stderr);
		} else if (!strcmp(line, "drop")) {
			char *tok, *s2 = NULL;

			for (tok = strtok_r(v, " ", &s2); tok;
			     tok = strtok_r(NULL, " ", &s2)) {
				ck_assert(x->nr_drop < MAX_DROP);
				x->drop[x->nr_drop++] = atol(tok);
			}
		} else if (!strcmp(line, "size")) {
			set(x->size_of[0], sizeof(x->size_of[0]), v, NULL);
		} else if (!strcmp(line, "size2")) {
			set(x->size_of[1], sizeof(x->size_of[1]), v, NULL);
		} else {
			ck_abort_msg("%s: unknown key '%s'", path, line);
		}
	}
	free(text);
	ck_assert_msg(x->args[0] && x->have_exit, "%s: needs args and exit",
		      path);
	ck_assert_msg(x->exit == 0 || x->have_stderr || x->have_stderr_first,
		      "%s: an error class needs its stderr line", path);
	ck_assert_msg(x->skip < 0 || x->skip_exit || x->nr_drop,
		      "%s: a --skip-bad run that succeeds needs drop:", path);
}

/*
 * Run BLOCKRANGE with the words of @args (split at spaces before the
 * placeholders are replaced, so paths may hold spaces), maybe --skip-bad.
 */
static int run(const char *args, const struct paths *p, bool skip_bad,
	       const char *out, const char *err)
{
	static char words[MAX_ARGS][1024];
	char buf[2048], *argv[MAX_ARGS + 3], *tok, *save = NULL;
	int n = 0;

	ck_assert(strlen(args) < sizeof(buf));
	strcpy(buf, args);
	argv[n++] = (char *)env_path("BLOCKRANGE");
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		ck_assert(n < MAX_ARGS);
		subst(tok, p, words[n], sizeof(words[n]));
		argv[n] = words[n];
		n++;
	}
	if (skip_bad)
		argv[n++] = "--skip-bad";
	argv[n] = NULL;
	return run_cmd(argv, out, err);
}

/* Copy @in to @out without the (1-based) lines in x->drop. */
static void drop_lines(const char *in, const char *out, const struct expect *x)
{
	size_t len, i = 0;
	char *text = slurp(in, &len);
	long lineno = 1;
	FILE *f = fopen(out, "wb");

	ck_assert(f);
	while (i < len) {
		const char *nl = memchr(text + i, '\n', len - i);
		size_t end = nl ? (size_t)(nl - text) + 1 : len;
		bool keep = true;
		int k;

		for (k = 0; k < x->nr_drop; k++)
			if (x->drop[k] == lineno)
				keep = false;
		if (keep)
			ck_assert(fwrite(text + i, 1, end - i, f) == end - i);
		i = end;
		lineno++;
	}
	ck_assert(!fclose(f));
	free(text);
}

/*
 * A successful annotate or ranges ends with its summary line ("blockrange:
 * N samples, M branch records, ..."), checked by the output tests: it
 * must be there, and is left out of the comparison.
 */
static void drop_summary(char *got)
{
	char *l = got, *nl;
	bool hit;

	for (; *l && (nl = strchr(l, '\n')); l = nl + 1) {
		*nl = '\0';
		hit = !strncmp(l, "blockrange: ", 12) &&
		      strstr(l, " samples, ") && strstr(l, " branch records");
		*nl = '\n';
		if (hit) {
			memmove(l, nl + 1, strlen(nl + 1) + 1);
			return;
		}
	}
	ck_abort_msg("no summary line in\n%s", got);
}

static void check_stderr_ok(const char *path, const char *want)
{
	char *got = slurp(path, NULL);
	char line[2048];

	drop_summary(got);
	snprintf(line, sizeof(line), *want ? "%s\n" : "%s", want);
	ck_assert_msg(!strcmp(got, line), "stderr is\n%s\nnot\n%s", got, line);
	free(got);
}

static void check_stderr(const char *path, const char *want)
{
	char *got = slurp(path, NULL);
	char line[2048];

	snprintf(line, sizeof(line), *want ? "%s\n" : "%s", want);
	ck_assert_msg(!strcmp(got, line), "stderr is\n%s\nnot\n%s", got, line);
	free(got);
}

START_TEST(bad_class)
{
	const char *name = classes[_i];
	char path[512], out[512], err[512], tmp[1024], want[2048];
	char clean[512], cout[512], cerr[512];
	struct paths p = { 0 };
	struct expect x;
	struct stat st;
	char *text;
	int status;

	p.dir = env_path("BLOCKRANGE_BADINPUT");
	p.gen = env_path("BLOCKRANGE_BADGEN");
	p.wl = env_path("BLOCKRANGE_WORKLOADS");
	snprintf(path, sizeof(path), "%s/%s.expect", p.dir, name);
	parse_expect(path, &x);
	if (x.input[0])
		subst(x.input, &p, p.input, sizeof(p.input));
	else
		snprintf(p.input, sizeof(p.input), "%s/%s.perfscript", p.dir,
			 name);
	for (int k = 0; k < 2; k++) {
		if (!x.size_of[k][0])
			continue;
		subst(x.size_of[k], &p, tmp, sizeof(tmp));
		ck_assert_msg(!stat(tmp, &st), "no %s", tmp);
		snprintf(p.size[k], sizeof(p.size[k]), "%lld",
			 (long long)st.st_size);
	}

	snprintf(tmp, sizeof(tmp), "bad-%s.out", name);
	scratch(tmp, out, sizeof(out));
	snprintf(tmp, sizeof(tmp), "bad-%s.err", name);
	scratch(tmp, err, sizeof(err));
	status = run(x.args, &p, false, out, err);
	ck_assert_msg(status == x.exit, "%s: exit status %d, expected %d",
		      name, status, x.exit);
	if (x.have_stderr) {
		subst(x.stderr_line, &p, want, sizeof(want));
		check_stderr(err, want);
	} else if (x.have_stderr_first) {
		/*
		 * A usage error: the message, then the subcommand's
		 * synopsis, which its --help prints up to the first blank
		 * line.
		 */
		char *got = slurp(err, NULL), *usage, *blank, uout[512];
		char sub[64];
		char *help[] = { (char *)env_path("BLOCKRANGE"), sub,
				 "--help", NULL };
		size_t n;

		subst(x.stderr_first, &p, want, sizeof(want));
		n = strlen(want);
		ck_assert_msg(!strncmp(got, want, n) && got[n] == '\n',
			      "stderr is\n%s\nnot first\n%s", got, want);
		ck_assert_int_eq(sscanf(x.args, "%63s", sub), 1);
		scratch("bad-usage.out", uout, sizeof(uout));
		ck_assert_int_eq(run_cmd(help, uout, NULL), 0);
		usage = slurp(uout, NULL);
		blank = strstr(usage, "\n\n");
		ck_assert_ptr_nonnull(blank);
		blank[1] = '\0';
		ck_assert_str_eq(got + n + 1, usage);
		free(usage);
		free(got);
	} else if (!x.exit) {
		check_stderr_ok(err, "");
	} else {
		check_stderr(err, "");
	}
	text = slurp(out, NULL);
	if (x.exit)
		ck_assert_msg(!*text, "%s: output on an error:\n%s", name, text);
	if (x.have_stdout)
		ck_assert_str_eq(text, x.stdout_text);
	for (int k = 0; k < x.nr_has; k++) {
		subst(x.stdout_has[k], &p, want, sizeof(want));
		ck_assert_msg(strstr(text, want), "%s: output lacks '%s'", name,
			      want);
	}
	free(text);
	if (x.skip < 0)
		return;

	/* --skip-bad */
	status = run(x.args, &p, true, out, err);
	ck_assert_msg(status == x.skip_exit,
		      "%s --skip-bad: exit status %d, expected %d", name,
		      status, x.skip_exit);
	if (x.have_skip_stderr)
		subst(x.skip_stderr, &p, want, sizeof(want));
	else
		snprintf(want, sizeof(want),
			 "blockrange: skipped %ld malformed line%s", x.skip,
			 x.skip == 1 ? "" : "s");
	if (x.skip_exit)
		check_stderr(err, want);
	else
		check_stderr_ok(err, want);
	if (x.skip_exit) {
		text = slurp(out, NULL);
		ck_assert_msg(!*text, "%s: output on an error", name);
		free(text);
		return;
	}

	/* The same command on the input without the bad lines. */
	snprintf(tmp, sizeof(tmp), "bad-%s.clean.perfscript", name);
	scratch(tmp, clean, sizeof(clean));
	snprintf(tmp, sizeof(tmp), "bad-%s.clean.out", name);
	scratch(tmp, cout, sizeof(cout));
	snprintf(tmp, sizeof(tmp), "bad-%s.clean.err", name);
	scratch(tmp, cerr, sizeof(cerr));
	drop_lines(p.input, clean, &x);
	snprintf(p.input, sizeof(p.input), "%s", clean);
	ck_assert_msg(run(x.args, &p, false, cout, cerr) == 0,
		      "%s: the input without the dropped lines fails", name);
	check_stderr_ok(cerr, "");
	{
		char *a = slurp(out, NULL), *b = slurp(cout, NULL);

		ck_assert_msg(*b, "%s: no output on the clean input", name);
		ck_assert_msg(!strcmp(a, b),
			      "%s: --skip-bad output\n%s\nclean output\n%s",
			      name, a, b);
		free(a);
		free(b);
	}
}
END_TEST

/*
 * golden cut at many lengths (its section headers end the file, so every
 * cut loses some): always status 2 and one "BIN: expected ..." line.
 */
START_TEST(truncated_elf_sweep)
{
	char golden[512], cut[512], in[512], out[512], err[512], want[600];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges", "--binary",
			 cut, "--perfscript", in, NULL };
	size_t len, n, runs = 0;
	char *image;

	snprintf(golden, sizeof(golden), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(in, sizeof(in), "%s/_golden.perfscript",
		 env_path("BLOCKRANGE_BADINPUT"));
	scratch("bad-trunc.bin", cut, sizeof(cut));
	scratch("bad-trunc.out", out, sizeof(out));
	scratch("bad-trunc.err", err, sizeof(err));
	snprintf(want, sizeof(want), "blockrange: %s: expected ", cut);
	image = slurp(golden, &len);
	for (n = 0; n < len; n = n < 128 ? n + 7 : n + 97) {
		FILE *f = fopen(cut, "wb");
		char *e, *o;

		ck_assert(f);
		ck_assert(fwrite(image, 1, n, f) == n);
		ck_assert(!fclose(f));
		ck_assert_msg(run_cmd(argv, out, err) == 2, "cut at %zu", n);
		e = slurp(err, NULL);
		o = slurp(out, NULL);
		ck_assert_msg(!strncmp(e, want, strlen(want)) &&
			      strchr(e, '\n') == e + strlen(e) - 1,
			      "cut at %zu: %s", n, e);
		ck_assert(!*o);
		free(e);
		free(o);
		runs++;
	}
	free(image);
	ck_assert(runs > 50);
}
END_TEST

/*
 * A line longer than the reader takes (16 MiB, no newline: /dev/zero, a
 * binary file) is refused with one line and status 2, whether it comes on
 * a pipe or from a file, with one thread or two; memory stays bounded.
 */
START_TEST(overlong_line)
{
	char in[512], err[512], cmd[2048], gold[512];
	const char *bin = env_path("BLOCKRANGE");
	const char *want = ":1: expected a line of at most 16777216 bytes (perf script text), got a longer one\n";
	char *sh[] = { "sh", "-c", cmd, NULL };
	const char *jobs[] = { "1", "2" };
	int i;

	scratch("bad-longline.txt", in, sizeof(in));
	scratch("bad-longline.err", err, sizeof(err));
	snprintf(gold, sizeof(gold), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(cmd, sizeof(cmd),
		 "head -c 17000000 /dev/zero | tr '\\0' a > '%s'", in);
	ck_assert_int_eq(run_cmd(sh, NULL, NULL), 0);
	for (i = 0; i < 4; i++) {
		char *e, expect[700];

		if (i < 2)
			snprintf(cmd, sizeof(cmd),
				 "'%s' annotate -j %s --perfscript - --binary '%s' < '%s'",
				 bin, jobs[i], gold, in);
		else
			snprintf(cmd, sizeof(cmd),
				 "'%s' annotate -j %s --perfscript '%s' --binary '%s'",
				 bin, jobs[i - 2], in, gold);
		ck_assert_int_eq(run_cmd(sh, NULL, err), 2);
		e = slurp(err, NULL);
		snprintf(expect, sizeof(expect), "blockrange: %s%s",
			 i < 2 ? "<stdin>" : in, want);
		ck_assert_str_eq(e, expect);
		free(e);
	}
}
END_TEST

/* The corpus holds at least 40 classes of input that must be refused. */
START_TEST(corpus_size)
{
	const char *dir = env_path("BLOCKRANGE_BADINPUT");
	int refused = 0, i;

	ck_assert_msg(!scan_error[0], "%s", scan_error);
	for (i = 0; i < nr_classes; i++) {
		char path[512];
		struct expect x;

		snprintf(path, sizeof(path), "%s/%.63s.expect", dir, classes[i]);
		parse_expect(path, &x);
		refused += x.exit != 0;
	}
	ck_assert_msg(refused >= 40, "only %d error classes", refused);
}
END_TEST

Suite *badinput_suite(void)
{
	Suite *s = suite_create("bad-input");
	TCase *t = tcase_create("classes");

	scan_classes();
	tcase_add_test(t, corpus_size);
	tcase_add_test(t, truncated_elf_sweep);
	tcase_add_test(t, overlong_line);
	if (nr_classes)
		tcase_add_loop_test(t, bad_class, 0, nr_classes);
	/* Generous: the 1 MB lines run under the sanitizers too. */
	tcase_set_timeout(t, 30);
	suite_add_tcase(s, t);
	return s;
}
