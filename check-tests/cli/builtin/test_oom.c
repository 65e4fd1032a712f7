// SPDX-License-Identifier: GPL-2.0
/*
 * Out of memory, everywhere the CLI allocates: every subcommand runs once
 * to learn its allocation sites (tools/failalloc.so lists the call sites
 * of the program, in the order of their first call; a site is an
 * allocation call together with the call of the function that makes it,
 * so a helper fails under each of its callers), then once per site with
 * the first allocation there failing.  Each run must either succeed
 * with the same output (the allocation had a fallback) or stop with one
 * last line on stderr saying that memory ran out and exit status 3 (out
 * of memory), or 1 where a layer below builtin/ still reports it as a
 * system error (BR_ESYS): never a crash, never another status (2 would
 * blame the input), never a sanitizer report (under check-cli-sanitize
 * every run is checked by AddressSanitizer and LeakSanitizer, so what an
 * error path leaks or frees twice is caught too).  A site tested by an earlier subcommand is not
 * tested again, nor are the sites of the coverage runtime (the coverage
 * build links gcov's into the program).
 */
#define _GNU_SOURCE

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_tests.h"

#define MAX_SITES 8192
#define SITE_LEN 48	/* "0xAT/0xFROM" (tools/failalloc.c) */

/* @-words in a command: the inputs the suite makes or the tree has. */
struct oom_cmd {
	const char *args;	/* blockrange's arguments */
	const char *out;	/* a file it writes whose bytes must not
				 * change, or NULL */
	bool same_stdout;	/* stdout must equal the reference's */
	const char *env;	/* extra VAR=VALUE, or NULL */
};

static const struct oom_cmd cmds[] = {
	{ "annotate --no-pager -i @FLAGS --binary @GOLDEN --format=json",
	  NULL, true, NULL },
	{ "annotate --no-pager -i @FLAGS --binary @GOLDEN --color=always",
	  NULL, true, NULL },
	{ "annotate --no-pager --engine=tree -i @FLAGS --binary @GOLDEN",
	  NULL, true, NULL },
	{ "annotate --no-pager -j 1 -i @DATA", NULL, true, NULL },
	{ "annotate --no-pager -j 2 -i @FLAGS --binary @GOLDEN", NULL, true,
	  "BLOCKRANGE_PAR_UNIT=64" },
	{ "report -i @FLAGS --binary @GOLDEN -o @S/oom.html", "@S/oom.html",
	  true, NULL },
	{ "ranges --no-pager -i @FLAGS --binary @GOLDEN", NULL, true, NULL },
	{ "ranges --no-pager -j 1 -i @DATA -o @S/oom-ranges", NULL, false,
	  NULL },
	{ "bolt -i @FLAGS --binary @GOLDEN", NULL, true, NULL },
	{ "profile -j 1 -i @DATA -o @S/oom.brprof", "@S/oom.brprof", true,
	  NULL },
	{ "annotate --no-pager -i @BRPROF --format=json", NULL, true, NULL },
	{ "ranges --no-pager -i @BRPROF --dso golden", NULL, true, NULL },
	{ "merge @BRPROF @BRPROF -o @S/oom-merged.brprof",
	  "@S/oom-merged.brprof", true, NULL },
	{ "script -j 1 -i @DATA --stats", NULL, true, NULL },
	{ "script -i @DATA --dump-events", NULL, true, NULL },
	{ "script -j 2 -i @FLAGS", NULL, true, "BLOCKRANGE_PAR_UNIT=64" },
	{ "record --engine=ptrace -o @S/oom-rec.data --depth 4 --period 2 --counts @S/oom.counts -- @GOLDEN",
	  NULL, false, NULL },
	{ "record --engine=ptrace --format=perfscript -o @S/oom-rec.ps --depth 4 --period 2 -F comm,pid,tid,time,ip,brstack --show-task-events -- @GOLDEN",
	  NULL, false, NULL },
	{ "autofdo -i @BDATA --binary @BRANCHES --format=text", NULL, true,
	  NULL },
};

static char golden[512], flags[512], data[512], brprof[512], sdir[512];
static char branches[512], bdata[512];

/* @s with its @-words expanded (a static buffer). */
static const char *expand(const char *s)
{
	static char buf[4096];
	size_t n = 0;

	while (*s && n < sizeof(buf) - 600) {
		const char *v = NULL;
		size_t skip = 0;

		if (!strncmp(s, "@GOLDEN", 7))
			v = golden, skip = 7;
		else if (!strncmp(s, "@FLAGS", 6))
			v = flags, skip = 6;
		else if (!strncmp(s, "@DATA", 5))
			v = data, skip = 5;
		else if (!strncmp(s, "@BRPROF", 7))
			v = brprof, skip = 7;
		else if (!strncmp(s, "@BRANCHES", 9))
			v = branches, skip = 9;
		else if (!strncmp(s, "@BDATA", 6))
			v = bdata, skip = 6;
		else if (!strncmp(s, "@S", 2))
			v = sdir, skip = 2;
		if (v) {
			n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s", v);
			s += skip;
		} else {
			buf[n++] = *s++;
		}
	}
	buf[n] = '\0';
	return buf;
}

/* ASAN_OPTIONS that let failalloc.so come first (kept when unset). */
static const char *asan_options(void)
{
	static char buf[2048];
	const char *o = getenv("ASAN_OPTIONS");

	snprintf(buf, sizeof(buf), "%s%sverify_asan_link_order=0",
		 o ? o : "", o && *o ? ":" : "");
	return buf;
}

/*
 * blockrange with @c's arguments, failalloc.so preloaded and @site failing
 * ("0": none); stdout and stderr into @out and @err.  The exit status.
 */
static int run_with(const struct oom_cmd *c, const char *site,
		    const char *list, const char *out, const char *err)
{
	char cmd[8192], shim[600];

	snprintf(shim, sizeof(shim), "%s/failalloc.so",
		 env_path("BLOCKRANGE_TOOLS"));
	snprintf(cmd, sizeof(cmd),
		 "exec env LD_PRELOAD='%s' ASAN_OPTIONS='%s' FAILALLOC_SITE=%s FAILALLOC_LIST='%s' %s '%s' %s",
		 shim, asan_options(), site, list ? list : "",
		 c->env ? c->env : "", env_path("BLOCKRANGE"), expand(c->args));
	{
		char *argv[] = { "sh", "-c", cmd, NULL };

		return run_cmd(argv, out, err);
	}
}

/* The exit status of an allocation that failed (CLI_EXIT_NOMEM). */
#define EXIT_NOMEM 3

/*
 * Is the allocation call of @site in the option parser (builtin/options.c),
 * whose failure exits with EXIT_NOMEM, whatever layer it would reach?
 */
static bool parser_site(const char *site)
{
	char cmd[1024], where[1024] = "";
	size_t n = strcspn(site, "/");
	FILE *p;

	snprintf(cmd, sizeof(cmd), "addr2line -e '%s' %.*s",
		 env_path("BLOCKRANGE"), (int)n, site);
	p = popen(cmd, "r");
	ck_assert(p);
	if (!fgets(where, sizeof(where), p))
		where[0] = '\0';
	pclose(p);
	return strstr(where, "/builtin/options.c:") != NULL;
}

/* The last line of @s (without its newline), in place. */
static const char *last_line(char *s)
{
	size_t n = strlen(s);
	char *p;

	while (n && s[n - 1] == '\n')
		s[--n] = '\0';
	p = strrchr(s, '\n');
	return p ? p + 1 : s;
}

/*
 * Is @site in the coverage runtime (gcov's dump at exit, which the
 * coverage build links into blockrange), not in the CLI?  Those are left
 * alone: gcov does not survive a failed allocation of its own.
 */
static bool gcov_site(const char *site)
{
	static char at[MAX_SITES][20];
	static bool gcov[MAX_SITES];
	static size_t nr;
	char cmd[1024], fn[256] = "";
	size_t i, n = strcspn(site, "/");
	FILE *p;

	for (i = 0; i < nr; i++)
		if (strlen(at[i]) == n && !strncmp(at[i], site, n))
			return gcov[i];
	snprintf(cmd, sizeof(cmd), "addr2line -f -e '%s' %.*s",
		 env_path("BLOCKRANGE"), (int)n, site);
	p = popen(cmd, "r");
	ck_assert(p);
	if (!fgets(fn, sizeof(fn), p))
		fn[0] = '\0';
	pclose(p);
	if (nr < MAX_SITES && n < sizeof(at[0])) {
		snprintf(at[nr], sizeof(at[0]), "%.*s", (int)n, site);
		gcov[nr++] = !strncmp(fn, "gcov_", 5) ||
			     !strncmp(fn, "__gcov", 6);
	}
	return !strncmp(fn, "gcov_", 5) || !strncmp(fn, "__gcov", 6);
}

static bool seen(const char *site, char (*done)[SITE_LEN], size_t nr_done)
{
	size_t i;

	for (i = 0; i < nr_done; i++)
		if (!strcmp(done[i], site))
			return true;
	return false;
}

/*
 * The inputs: the golden program's files and a perf.data of it; a
 * perf.data of the branches workload (20 rounds), which has line info.
 */
static void prepare(void)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "-o", data, "--depth", "4",
			 "--period", "2", "--", golden, NULL };
	char *bargv[] = { (char *)env_path("BLOCKRANGE"), "record",
			  "--engine=ptrace", "-o", bdata, "--depth", "8",
			  "--period", "3", "--", branches, "20", NULL };

	snprintf(golden, sizeof(golden), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
	snprintf(brprof, sizeof(brprof), "%s/golden.brprof",
		 env_path("BLOCKRANGE_GOLDEN"));
	scratch("oom-dir", sdir, sizeof(sdir));
	mkdir(sdir, 0755);
	scratch("oom-dir/oom.data", data, sizeof(data));
	ck_assert_int_eq(run_cmd(argv, NULL, NULL), 0);
	snprintf(branches, sizeof(branches), "%s/branches-nopie",
		 env_path("BLOCKRANGE_WORKLOADS"));
	scratch("oom-dir/oom-branches.data", bdata, sizeof(bdata));
	ck_assert_int_eq(run_cmd(bargv, NULL, NULL), 0);
}

/*
 * One subcommand: its reference run, then every site not done yet; the
 * runs that exited with EXIT_NOMEM are added to *@nomem, those whose
 * site is in the option parser to *@parser.
 */
static size_t sweep(const struct oom_cmd *c, char (*done)[SITE_LEN],
		    size_t *nr_done, size_t *nomem, size_t *parser)
{
	char list[600], ro[600], re[600], o[600], e[600], out[600];
	char *ref, *ref_file = NULL, site[SITE_LEN];
	size_t tested = 0;
	FILE *f;

	snprintf(list, sizeof(list), "%s/sites", sdir);
	snprintf(ro, sizeof(ro), "%s/ref.out", sdir);
	snprintf(re, sizeof(re), "%s/ref.err", sdir);
	snprintf(o, sizeof(o), "%s/run.out", sdir);
	snprintf(e, sizeof(e), "%s/run.err", sdir);
	ck_assert_msg(run_with(c, "0", list, ro, re) == 0, "%s: %s",
		      expand(c->args), slurp(re, NULL));
	ref = slurp(ro, NULL);
	if (c->out) {
		snprintf(out, sizeof(out), "%s", expand(c->out));
		ref_file = slurp(out, NULL);
	}
	f = fopen(list, "r");
	ck_assert(f);
	while (fscanf(f, "%47s", site) == 1) {
		char *so, *se;
		const char *last;
		int st;

		if (seen(site, done, *nr_done) || *nr_done == MAX_SITES)
			continue;
		snprintf(done[(*nr_done)++], SITE_LEN, "%s", site);
		if (gcov_site(site))
			continue;
		tested++;
		if (c->out)
			unlink(out);
		st = run_with(c, site, NULL, o, e);
		so = slurp(o, NULL);
		se = slurp(e, NULL);
		last = last_line(se);
		ck_assert_msg(st == 0 || st == 1 || st == EXIT_NOMEM,
			      "%s, allocation at %s failing: exit status %d, stderr: %s",
			      expand(c->args), site, st, se);
		if (st == EXIT_NOMEM)
			(*nomem)++;
		if (st && parser_site(site)) {
			ck_assert_msg(st == EXIT_NOMEM,
				      "%s, allocation at %s (option parser) failing: exit status %d, expected %d",
				      expand(c->args), site, st, EXIT_NOMEM);
			(*parser)++;
		}
		if (st) {
			ck_assert_msg(strstr(last, "out of memory") ||
				      strstr(last, "Cannot allocate memory"),
				      "%s, allocation at %s failing: expected 'out of memory' last on stderr, got: %s",
				      expand(c->args), site, se);
		} else if (c->same_stdout) {
			ck_assert_msg(!strcmp(so, ref),
				      "%s, allocation at %s failing: exit status 0 with another output",
				      expand(c->args), site);
		}
		if (!st && ref_file) {
			char *got = slurp(out, NULL);

			ck_assert_msg(!strcmp(got, ref_file),
				      "%s, allocation at %s failing: exit status 0 with another %s",
				      expand(c->args), site, out);
			free(got);
		}
		free(so);
		free(se);
	}
	fclose(f);
	free(ref);
	free(ref_file);
	return tested;
}

START_TEST(every_site)
{
	static char done[MAX_SITES][SITE_LEN];
	size_t nr_done = 0, i, n, nomem = 0, parser = 0;

	prepare();
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		n = sweep(&cmds[i], done, &nr_done, &nomem, &parser);
		fprintf(stderr, "oom: %s: %zu new allocation sites failed\n",
			cmds[i].args, n);
	}
	fprintf(stderr, "oom: %zu runs exited with status %d, %zu of them in the option parser\n",
		nomem, EXIT_NOMEM, parser);
	ck_assert_uint_gt(nr_done, 100);
	/*
	 * --dso values grow a list in the parser (ranges above).  Under
	 * AddressSanitizer (check-cli-sanitize sets ASAN_OPTIONS) failing the
	 * allocations of builtin/ does not take: those runs succeed, which
	 * the sweep accepts, and the plain build checks the exit status.
	 */
	if (!getenv("ASAN_OPTIONS"))
		ck_assert_uint_gt(parser, 0);
}
END_TEST

Suite *oom_suite(void)
{
	Suite *s = suite_create("oom");
	TCase *tc = tcase_create("oom");

	tcase_set_timeout(tc, 1800);
	tcase_add_test(tc, every_site);
	suite_add_tcase(s, tc);
	return s;
}
