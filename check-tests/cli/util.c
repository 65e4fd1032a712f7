// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L

#include "cli_tests.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

const char *env_path(const char *name)
{
	const char *v = getenv(name);

	ck_assert_msg(v && *v, "environment variable %s is not set (run make check-cli)",
		      name);
	return v;
}

static void redirect(const char *path, int fd)
{
	int f = open(path ? path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC,
		     0644);

	if (f < 0)
		_exit(126);
	dup2(f, fd);
	close(f);
}

int run_cmd(char *const argv[], const char *out, const char *err)
{
	pid_t pid;
	int st;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		redirect(out, STDOUT_FILENO);
		redirect(err, STDERR_FILENO);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) < 0)
		return -1;
	if (WIFEXITED(st))
		return WEXITSTATUS(st);
	return 128 + WTERMSIG(st);
}

char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t cap = 0, n = 0;

	ck_assert_msg(f, "cannot open %s: %s", path, strerror(errno));
	for (;;) {
		size_t r;

		if (cap - n < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = realloc(buf, cap + 1);
			ck_assert(buf);
		}
		r = fread(buf + n, 1, cap - n, f);
		n += r;
		if (!r)
			break;
	}
	fclose(f);
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

const char *scratch(const char *name, char *buf, size_t bufsz)
{
	const char *dir = env_path("BLOCKRANGE_SCRATCH");

	mkdir(dir, 0755);
	snprintf(buf, bufsz, "%s/%s", dir, name);
	return buf;
}

void spew(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f, "cannot write %s", path);
	fputs(text, f);
	ck_assert(!fclose(f));
}
