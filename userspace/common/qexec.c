// SPDX-License-Identifier: GPL-2.0
/* What execve(2) would run: ELF checks and #! lines.  See qexec.h. */
#define _GNU_SOURCE

#include "common/qexec.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The first bytes of @path into @buf; -1 with errno if it cannot be run. */
static ssize_t head_of(const char *path, char *buf, size_t size)
{
	ssize_t n;
	int fd;

	if (access(path, X_OK))
		return -1;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = pread(fd, buf, size, 0);
	close(fd);
	return n;
}

/*
 * Split a #! line (@line, NUL-terminated, after "#!") into the
 * interpreter and its optional argument, as binfmt_script does: blanks
 * around them are dropped, the argument is the rest of the line.
 */
static bool split_shebang(char *line, char **interp, char **arg)
{
	char *p = line, *e;

	e = strchr(p, '\n');
	if (!e)
		return false;	/* longer than the kernel reads */
	*e = '\0';
	while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
		*--e = '\0';
	p += strspn(p, " \t");
	if (!*p)
		return false;
	*interp = p;
	p += strcspn(p, " \t");
	if (*p) {
		*p++ = '\0';
		p += strspn(p, " \t");
	}
	*arg = *p ? p : NULL;
	return true;
}

int qexec_resolve(const char *path, const char *argv0, struct qexec *q)
{
	const char *cur = path;
	int level;

	memset(q->why, 0, sizeof(q->why));
	q->err_no = 0;
	q->head[0] = argv0;
	q->nhead = 1;
	for (level = 0; level <= QEXEC_DEPTH; level++) {
		char buf[QEXEC_LINE];
		ssize_t n = head_of(cur, buf, sizeof(buf) - 1);
		char *interp, *arg;
		int k;

		if (n < 0) {
			q->err_no = errno;
			return QEXEC_ERRNO;
		}
		buf[n] = '\0';
		if (n >= (ssize_t)sizeof(Elf64_Ehdr) && !memcmp(buf, ELFMAG, SELFMAG)) {
			const Elf64_Ehdr *eh = (const void *)buf;

			if (eh->e_ident[EI_CLASS] != ELFCLASS64 ||
			    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
			    eh->e_machine != EM_X86_64) {
				snprintf(q->why, sizeof(q->why),
					 "an ELF file of class %u, machine %u",
					 eh->e_ident[EI_CLASS] == ELFCLASS64 ? 64 : 32,
					 eh->e_machine);
				return QEXEC_FOREIGN;
			}
			if (strlen(cur) >= sizeof(q->exe)) {
				q->err_no = ENAMETOOLONG;
				return QEXEC_ERRNO;
			}
			strcpy(q->exe, cur);
			return QEXEC_ELF;
		}
		if (n < 2 || buf[0] != '#' || buf[1] != '!')
			return QEXEC_UNKNOWN;
		if (level == QEXEC_DEPTH)
			return QEXEC_LOOP;
		if (!split_shebang(buf + 2, &interp, &arg)) {
			q->err_no = ENOEXEC;
			return QEXEC_ERRNO;
		}
		/* head = [interp, arg?, cur] + head[1..] */
		snprintf(q->store[level][0], QEXEC_LINE, "%s", interp);
		if (arg)
			snprintf(q->store[level][1], QEXEC_LINE, "%s", arg);
		snprintf(q->paths[level], PATH_MAX, "%s", cur);
		k = arg ? 3 : 2;
		memmove(&q->head[k], &q->head[1],
			(size_t)(q->nhead - 1) * sizeof(q->head[0]));
		q->head[0] = q->store[level][0];
		if (arg)
			q->head[1] = q->store[level][1];
		q->head[k - 1] = q->paths[level];
		q->nhead += k - 1;
		cur = q->store[level][0];
	}
	return QEXEC_LOOP;
}
