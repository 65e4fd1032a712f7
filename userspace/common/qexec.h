/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What execve(2) would run, for the QEMU recorder: the CLI asks before it
 * starts qemu-x86_64, the plugin when the program calls execve, since
 * qemu-x86_64 runs x86-64 ELF programs only (no #! scripts).  A #! line
 * is followed as the kernel does (binfmt_script): "#!INTERP [ARG]" runs
 * INTERP with the arguments INTERP, [ARG], the script's path, then the
 * original arguments after argv[0]; at most QEXEC_DEPTH levels.
 */
#ifndef BLOCKRANGE_COMMON_QEXEC_H
#define BLOCKRANGE_COMMON_QEXEC_H

#include <limits.h>
#include <stddef.h>

#define QEXEC_DEPTH 4
/* The arguments that replace argv[0]: at most 2 per level, plus argv[0]. */
#define QEXEC_HEAD (2 * QEXEC_DEPTH + 1)
#define QEXEC_LINE 256

enum qexec_res {
	QEXEC_ELF = 0,		/* an x86-64 ELF program: run it */
	QEXEC_ERRNO,		/* the file (or an interpreter) cannot be
				 * executed: @err_no says why */
	QEXEC_FOREIGN,		/* ELF, but not x86-64 (@why says what) */
	QEXEC_UNKNOWN,		/* neither ELF nor a #! script */
	QEXEC_LOOP,		/* more than QEXEC_DEPTH #! levels */
};

struct qexec {
	char exe[PATH_MAX];		/* the ELF program to run */
	const char *head[QEXEC_HEAD];	/* new argv[0], argv[1], ... that
					 * precede the original argv[1..] */
	int nhead;
	int err_no;
	char why[96];			/* QEXEC_FOREIGN: "ELF class 32,
					 * machine 3" */
	/* storage of the strings @head points to */
	char store[QEXEC_DEPTH][2][QEXEC_LINE];
	char paths[QEXEC_DEPTH][PATH_MAX];
};

/*
 * Resolve @path, whose argv[0] is @argv0, as execve(@path) would (no PATH
 * search: @path is used as given, relative to the working directory).
 * @q keeps pointers to @argv0.  Returns an enum qexec_res.
 */
int qexec_resolve(const char *path, const char *argv0, struct qexec *q);

#endif /* BLOCKRANGE_COMMON_QEXEC_H */
