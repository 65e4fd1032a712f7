// SPDX-License-Identifier: GPL-2.0
/* Helpers shared by the subcommands.  See cli.h. */
#define _GNU_SOURCE

#include "builtin/cli.h"
#include "builtin/manpages.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* "blockrange: MESSAGE\n" on stderr. */
static void message(const char *fmt, va_list ap)
{
	fputs("blockrange: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

int cli_usage(const struct cli_cmd *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	fputs(cmd->synopsis, stderr);
	return CLI_EXIT_USAGE;
}

int cli_fail(int status, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message(fmt, ap);
	va_end(ap);
	return status;
}

int cli_status(int br)
{
	switch (br) {
	case BR_OK:
		return 0;
	case BR_EINPUT:
		return CLI_EXIT_INPUT;
	case BR_ENOMEM:
		return CLI_EXIT_NOMEM;
	default:
		return CLI_EXIT_USAGE;
	}
}

int cli_help(const struct cli_cmd *cmd)
{
	fputs(cmd->synopsis, stdout);
	fputc('\n', stdout);
	fputs(cmd->help, stdout);
	return 0;
}

const char *cli_page_text(const char *name)
{
	const struct cli_page *p;

	for (p = cli_pages; p->name; p++)
		if (!strcmp(p->name, name))
			return p->text;
	return NULL;
}

int cli_man(const struct cli_cmd *cmd)
{
	const char *text = cli_page_text(cmd->name);
	struct cli_pager pager;

	if (!text)
		return cli_fail(CLI_EXIT_USAGE, "%s has no manual page", cmd->name);
	if (!cli_pager_start(&pager, false))
		return cli_fail(CLI_EXIT_USAGE, "cannot start the pager: %s",
				strerror(errno));
	fputs(text, stdout);
	cli_pager_end(&pager);
	if (fflush(stdout) || ferror(stdout))
		return cli_fail(CLI_EXIT_USAGE, "cannot write the manual page");
	return 0;
}

bool cli_parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-' || *s == '+' || *s == ' ')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

bool cli_color_on(int color)
{
	const char *nc;

	if (color != CLI_COLOR_AUTO)
		return color == CLI_COLOR_ALWAYS;
	nc = getenv("NO_COLOR");
	return isatty(STDOUT_FILENO) && !(nc && *nc);
}

const char *cli_input_name(const char *path)
{
	return strcmp(path, "-") ? path : "<stdin>";
}

bool cli_pager_start(struct cli_pager *p, bool no_pager)
{
	const char *cmd = getenv("BLOCKRANGE_PAGER");
	char *argv[] = { "sh", "-c", NULL, NULL };
	posix_spawn_file_actions_t fa;
	int fd[2], r;
	pid_t pid;

	p->pid = 0;
	if (no_pager || !isatty(STDOUT_FILENO))
		return true;
	if (!cmd)
		cmd = getenv("PAGER");
	if (!cmd)
		cmd = "less";
	if (!*cmd || !strcmp(cmd, "cat"))
		return true;
	if (pipe2(fd, O_CLOEXEC))
		return false;
	/* the pager's defaults, in the environment it inherits */
	setenv("LESS", "FRX", 0);
	setenv("LV", "-c", 0);
	argv[2] = (char *)cmd;
	fflush(stdout);
	r = posix_spawn_file_actions_init(&fa);
	if (!r) {
		r = posix_spawn_file_actions_adddup2(&fa, fd[0], STDIN_FILENO);
		if (!r)
			r = posix_spawn(&pid, "/bin/sh", &fa, NULL, argv,
					environ);
		posix_spawn_file_actions_destroy(&fa);
	}
	close(fd[0]);
	if (r) {
		close(fd[1]);
		errno = r;
		return false;
	}
	if (dup2(fd[1], STDOUT_FILENO) < 0) {
		close(fd[1]);
		waitpid(pid, NULL, 0);
		return false;
	}
	close(fd[1]);
	p->pid = pid;
	return true;
}

void cli_pager_end(struct cli_pager *p)
{
	if (!p->pid)
		return;
	fflush(stdout);
	/* The pager sees end of input once no descriptor of the pipe is left. */
	close(STDOUT_FILENO);
	while (waitpid(p->pid, NULL, 0) < 0 && errno == EINTR)
		;
	p->pid = 0;
}
