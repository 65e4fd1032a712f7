// SPDX-License-Identifier: GPL-2.0
/*
 * The CLI's manners: --version, --help for every subcommand naming every
 * option of its table, `blockrange help NAME` printing the manual page
 * blockrange-NAME(1) as userspace/man/render.sh renders it, `--`, and the pager (run on a pseudo-terminal, with
 * PAGER set to a command that marks each line it pages).
 */
#define _GNU_SOURCE

#include <errno.h>
#include <pty.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "cli_tests.h"
#include "base/version.h"

/* Every subcommand; the overview must list exactly these. */
static const struct cli_cmd *const cmds[] = {
	&cli_cmd_annotate, &cli_cmd_autofdo, &cli_cmd_bolt, &cli_cmd_merge,
	&cli_cmd_profile,
	&cli_cmd_ranges, &cli_cmd_record, &cli_cmd_report, &cli_cmd_script,
};
#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static char golden_bin[512];
static char flags[512];

static void setup(void)
{
	snprintf(golden_bin, sizeof(golden_bin), "%s/golden",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(flags, sizeof(flags), "%s/flags.perfscript",
		 env_path("BLOCKRANGE_GOLDEN"));
}

/* Run and return stdout (and the status in *st). */
static char *run_out(char *const argv[], int *st, char **err)
{
	char out[512], errf[512];

	scratch("manners.out", out, sizeof(out));
	scratch("manners.err", errf, sizeof(errf));
	*st = run_cmd(argv, out, errf);
	if (err)
		*err = slurp(errf, NULL);
	return slurp(out, NULL);
}

START_TEST(version)
{
	const char *forms[] = { "--version", "-V" };
	char want[64];
	size_t i;

	snprintf(want, sizeof(want), "blockrange %s\n", BLOCKRANGE_VERSION);
	for (i = 0; i < 2; i++) {
		char *argv[] = { (char *)env_path("BLOCKRANGE"),
				 (char *)forms[i], NULL };
		int st;
		char *got = run_out(argv, &st, NULL);

		ck_assert_int_eq(st, 0);
		ck_assert_str_eq(got, want);
		free(got);
	}
}
END_TEST

/* "--name" followed by something that cannot continue an option name. */
static bool names_option(const char *text, const char *opt)
{
	size_t n = strlen(opt);
	const char *p;

	for (p = strstr(text, opt); p; p = strstr(p + 1, opt)) {
		char c = p[n];

		if ((p == text || p[-1] != '-') &&
		    !(c == '-' || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9')))
			return true;
	}
	return false;
}

START_TEST(help_every_subcommand)
{
	const struct cli_cmd *c = cmds[_i];
	char *argv2[] = { (char *)env_path("BLOCKRANGE"), (char *)c->name,
			  "--help", NULL };
	char *argv3[] = { (char *)env_path("BLOCKRANGE"), (char *)c->name, "-h",
			  NULL };
	const struct cli_opt *o;
	char usage[64], opt[64];
	char *a, *b, *h;
	int st;

	a = run_out(argv2, &st, NULL);
	ck_assert_int_eq(st, 0);
	b = run_out(argv3, &st, NULL);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(a, b);
	free(b);
	snprintf(usage, sizeof(usage), "usage: blockrange %s", c->name);
	ck_assert(!strncmp(a, usage, strlen(usage)));
	ck_assert_ptr_nonnull(strstr(a, "Exit status"));
	ck_assert_ptr_nonnull(strstr(a, "Example"));
	/* Self-contained: no pointer into the source tree. */
	ck_assert_ptr_null(strstr(a, "README"));
	ck_assert_ptr_null(strstr(a, "userspace/"));
	ck_assert_ptr_nonnull(c->options);
	h = a;
	for (o = c->options; o->name; o++) {
		snprintf(opt, sizeof(opt), "--%s", o->name);
		ck_assert_msg(names_option(h, opt), "%s --help does not name %s",
			      c->name, opt);
		if (o->letter) {
			snprintf(opt, sizeof(opt), "-%c, --%s", o->letter, o->name);
			ck_assert_msg(strstr(h, opt), "%s --help does not show '%s'",
				      c->name, opt);
		}
	}
	free(a);
}
END_TEST

/*
 * `blockrange help NAME` prints the manual page blockrange-NAME(1), which
 * exists, rendered exactly as userspace/man/render.sh renders its source
 * now (so an embedded copy older than the page fails too), and nothing on
 * stderr.
 */
START_TEST(help_is_the_manual_page)
{
	const struct cli_cmd *c = cmds[_i];
	char page[1024], script[1024], title[64];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "help", (char *)c->name,
			 NULL };
	char *render[] = { "/bin/sh", script, page, NULL };
	char *got, *want, *err;
	int st;

	snprintf(page, sizeof(page), "%s/blockrange-%s.1",
		 env_path("BLOCKRANGE_MAN"), c->name);
	snprintf(script, sizeof(script), "%s/render.sh",
		 env_path("BLOCKRANGE_MAN"));
	ck_assert_msg(access(page, R_OK) == 0, "%s has no manual page %s",
		      c->name, page);
	want = run_out(render, &st, &err);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(err, "");
	ck_assert(strlen(want) > 0);
	free(err);
	got = run_out(argv, &st, &err);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(err, "");
	if (strcmp(got, want)) {
		size_t i = 0;

		while (got[i] && got[i] == want[i])
			i++;
		ck_abort_msg("help %s differs from its page at byte %zu: '%.40s' vs '%.40s'",
			     c->name, i, got + i, want + i);
	}
	/* The page is the subcommand's: its title and its NAME line. */
	snprintf(title, sizeof(title), "BLOCKRANGE-%s(1)", c->name);
	for (char *t = title; *t; t++)
		if (*t >= 'a' && *t <= 'z')
			*t -= 'a' - 'A';
	ck_assert_msg(!strncmp(got, title, strlen(title)), "help %s: %.40s",
		      c->name, got);
	snprintf(title, sizeof(title), "\nNAME\n       blockrange-%s ", c->name);
	ck_assert_ptr_nonnull(strstr(got, title));
	free(got);
	free(want);
	free(err);
}
END_TEST

/* A subcommand without a page, or help for no subcommand, is refused. */
START_TEST(help_of_an_unknown_subcommand)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "help", "nosuch", NULL };
	char *out, *err;
	int st;

	out = run_out(argv, &st, &err);
	ck_assert_int_eq(st, 1);
	ck_assert_str_eq(out, "");
	ck_assert_ptr_nonnull(strstr(err, "got 'nosuch'"));
	free(out);
	free(err);
}
END_TEST

/* The overview lists exactly the subcommands above, with their summaries. */
START_TEST(overview_lists_subcommands)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "--help", NULL };
	char line[256];
	char *got;
	size_t i, n = 0;
	const char *p;
	int st;

	got = run_out(argv, &st, NULL);
	ck_assert_int_eq(st, 0);
	for (i = 0; i < NR_CMDS; i++) {
		snprintf(line, sizeof(line), "\n  %-10s %s\n", cmds[i]->name,
			 cmds[i]->summary);
		ck_assert_msg(strstr(got, line), "overview lacks %s",
			      cmds[i]->name);
	}
	p = strstr(got, "Subcommands:\n");
	ck_assert(p);
	for (p = strchr(p, '\n') + 1; !strncmp(p, "  ", 2) && p[2] != '-';
	     p = strchr(p, '\n') + 1)
		n++;
	ck_assert_uint_eq(n, NR_CMDS);
	ck_assert_ptr_nonnull(strstr(got, "--version"));
	ck_assert_ptr_nonnull(strstr(got, "--no-pager"));
	ck_assert_ptr_null(strstr(got, "README"));
	free(got);
}
END_TEST

START_TEST(double_dash)
{
	char *bin = (char *)env_path("BLOCKRANGE");
	char *plain[] = { bin, "annotate", "-i", flags, "--binary", golden_bin,
			  NULL };
	char *dd[] = { bin, "annotate", "-i", flags, "--binary", golden_bin,
		       "--", NULL };
	char *dd_opt[] = { bin, "annotate", "-i", flags, "--binary",
			   golden_bin, "--", "--symbol", "hot", NULL };
	char *global[] = { bin, "--", "annotate", "-i", flags, "--binary",
			   golden_bin, NULL };
	char *global_dash[] = { bin, "--", "--version", NULL };
	char *a, *b, *err;
	int st;

	a = run_out(plain, &st, NULL);
	ck_assert_int_eq(st, 0);
	b = run_out(dd, &st, NULL);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(a, b);
	free(b);
	b = run_out(global, &st, NULL);
	ck_assert_int_eq(st, 0);
	ck_assert_str_eq(a, b);
	free(b);
	free(a);
	/* After --, an option-like word is an argument (annotate takes none). */
	a = run_out(dd_opt, &st, &err);
	ck_assert_int_eq(st, 1);
	ck_assert_str_eq(a, "");
	ck_assert_ptr_nonnull(strstr(err, "blockrange: unexpected argument '--symbol'\n"));
	free(a);
	free(err);
	/* After the global --, the next word is the subcommand. */
	a = run_out(global_dash, &st, &err);
	ck_assert_int_eq(st, 1);
	ck_assert_ptr_nonnull(strstr(err, "got '--version'"));
	free(a);
	free(err);
}
END_TEST

/*
 * Run argv on a pseudo-terminal with @env ("K=V" sets, "K" unsets) and
 * return everything written to the terminal, without the '\r's.
 */
static char *run_pty(char *const argv[], const char *const *env, int *status)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap), *r, *w;
	int master, st;
	pid_t pid;

	ck_assert(buf);
	fflush(NULL);
	pid = forkpty(&master, NULL, NULL, NULL);
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		for (; env && *env; env++) {
			if (strchr(*env, '='))
				putenv((char *)*env);
			else
				unsetenv(*env);
		}
		execv(argv[0], argv);
		_exit(127);
	}
	for (;;) {
		ssize_t k;

		if (cap - n < 1024) {
			cap *= 2;
			buf = realloc(buf, cap);
			ck_assert(buf);
		}
		k = read(master, buf + n, cap - n - 1);
		if (k > 0)
			n += (size_t)k;
		else if (k < 0 && errno == EINTR)
			continue;
		else
			break;	/* EIO: the terminal's last user is gone */
	}
	close(master);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	buf[n] = '\0';
	for (r = w = buf; *r; r++)
		if (*r != '\r')
			*w++ = *r;
	*w = '\0';
	return buf;
}

static size_t lines_with(const char *text, const char *prefix)
{
	size_t n = 0;
	const char *p = text;

	while (p && *p) {
		if (!strncmp(p, prefix, strlen(prefix)))
			n++;
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return n;
}

#define MARK_PAGER "PAGER=sed s/^/PAGED:/"

START_TEST(pager_on_terminal)
{
	char *bin = (char *)env_path("BLOCKRANGE");
	char *argv[] = { bin, "annotate", "-i", flags, "--binary", golden_bin,
			 NULL };
	const char *env[] = { MARK_PAGER, "BLOCKRANGE_PAGER", "NO_COLOR", NULL };
	char *plain, *got;
	int st;

	/* The text annotate writes to a file: 19 lines. */
	plain = run_out(argv, &st, NULL);
	ck_assert_int_eq(st, 0);
	got = run_pty(argv, env, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_uint_eq(lines_with(got, "PAGED:"), lines_with(plain, ""));
	ck_assert_ptr_nonnull(strstr(got, "PAGED: Percent |"));
	/* Colour was decided on the terminal, before the pager took stdout. */
	ck_assert_ptr_nonnull(strstr(got, "\033[31m"));
	/* The summary line goes to the terminal, not through the pager. */
	ck_assert_ptr_nonnull(strstr(got, "blockrange: 2 samples"));
	ck_assert_ptr_null(strstr(got, "PAGED:blockrange:"));
	free(got);
	free(plain);
}
END_TEST

START_TEST(pager_ranges)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "ranges", "-i", flags,
			 "--binary", golden_bin, NULL };
	const char *env[] = { MARK_PAGER, "BLOCKRANGE_PAGER", NULL };
	char *got;
	int st;

	got = run_pty(argv, env, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(got, "PAGED:15-1b:2\n"));
	free(got);
}
END_TEST

/* LESS=FRX and LV=-c for the pager, unless set. */
START_TEST(pager_less_env)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i", flags,
			 "--binary", golden_bin, NULL };
	const char *env[] = {
		"PAGER=cat > /dev/null; echo \"LESS=[$LESS] LV=[$LV]\"",
		"BLOCKRANGE_PAGER", "LESS", "LV", NULL };
	const char *env2[] = {
		"PAGER=cat > /dev/null; echo \"LESS=[$LESS]\"",
		"BLOCKRANGE_PAGER", "LESS=Mi", NULL };
	char *got;
	int st;

	got = run_pty(argv, env, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(got, "LESS=[FRX] LV=[-c]\n"));
	free(got);
	got = run_pty(argv, env2, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(got, "LESS=[Mi]\n"));
	free(got);
}
END_TEST

/* No pager: --no-pager (both places), BLOCKRANGE_PAGER=cat or "", or a file. */
START_TEST(pager_off)
{
	char *bin = (char *)env_path("BLOCKRANGE");
	char *sub[] = { bin, "annotate", "-i", flags, "--binary", golden_bin,
			"--no-pager", NULL };
	char *global[] = { bin, "--no-pager", "annotate", "-i", flags,
			   "--binary", golden_bin, NULL };
	char *plain[] = { bin, "annotate", "-i", flags, "--binary", golden_bin,
			  NULL };
	const char *env[] = { MARK_PAGER, "BLOCKRANGE_PAGER", NULL };
	const char *cat[] = { MARK_PAGER, "BLOCKRANGE_PAGER=cat", NULL };
	const char *empty[] = { MARK_PAGER, "BLOCKRANGE_PAGER=", NULL };
	const char *over[] = { "PAGER=cat", "BLOCKRANGE_PAGER=sed s/^/OURS:/",
			       NULL };
	char *got;
	int st;

	got = run_pty(sub, env, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(got, "PAGED:"));
	ck_assert_ptr_nonnull(strstr(got, " Percent |"));
	free(got);
	got = run_pty(global, env, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(got, "PAGED:"));
	ck_assert_ptr_nonnull(strstr(got, " Percent |"));
	free(got);
	got = run_pty(plain, cat, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(got, "PAGED:"));
	free(got);
	got = run_pty(plain, empty, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(got, "PAGED:"));
	free(got);
	/* BLOCKRANGE_PAGER wins over PAGER. */
	got = run_pty(plain, over, &st);
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_nonnull(strstr(got, "OURS: Percent |"));
	free(got);
	/* Not a terminal: never paged, whatever PAGER says. */
	setenv("PAGER", "sed s/^/PAGED:/", 1);
	got = run_out(plain, &st, NULL);
	unsetenv("PAGER");
	ck_assert_int_eq(st, 0);
	ck_assert_ptr_null(strstr(got, "PAGED:"));
	free(got);
}
END_TEST

Suite *manners_suite(void)
{
	Suite *s = suite_create("manners");
	TCase *tc = tcase_create("cli");

	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, version);
	tcase_add_loop_test(tc, help_every_subcommand, 0, NR_CMDS);
	tcase_add_loop_test(tc, help_is_the_manual_page, 0, NR_CMDS);
	tcase_add_test(tc, help_of_an_unknown_subcommand);
	tcase_add_test(tc, overview_lists_subcommands);
	tcase_add_test(tc, double_dash);
	tcase_add_test(tc, pager_on_terminal);
	tcase_add_test(tc, pager_ranges);
	tcase_add_test(tc, pager_less_env);
	tcase_add_test(tc, pager_off);
	suite_add_tcase(s, tc);
	return s;
}
