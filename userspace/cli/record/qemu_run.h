/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The launching part of the QEMU engine (qemu_rec.h): finding qemu-x86_64,
 * the recorder plugin and the program, checking the output and the CPU
 * model before anything runs, the recording directory (beside the output,
 * with the plugin's status page), running the program under QEMU until
 * every process of it has ended, and removing the directory.  What the
 * directory holds is read by input/qrec.h and turned into the output by
 * qemu_rec.c.
 *
 * Errors: a function returns 0 or BR_ESYS (base/status.h) with one line
 * in @err; it never prints (but for the child's line when execv() of QEMU
 * fails, on the stderr the program shares).
 */
#ifndef BLOCKRANGE_CLI_QEMU_RUN_H
#define BLOCKRANGE_CLI_QEMU_RUN_H

#include <limits.h>
#include <stddef.h>

#include "common/qexec.h"
#include "record/qemu_rec.h"

struct qemu_run {
	char qemu[PATH_MAX];	/* qemu-x86_64 as found */
	char plugin[PATH_MAX];	/* the plugin, an absolute path */
	char prog[PATH_MAX];	/* argv[0] as found in PATH */
	struct qexec qx;	/* what execve(prog) runs */
	char dir[PATH_MAX];	/* the recording directory; "" none made */
	char *status;		/* its status page (mapped), or NULL */
	int root_status;	/* wait status of the program; -1 none */
};

/* QEMU's -cpu model of @o: its own, else QREC_DEFAULT_CPU. */
const char *qemu_run_cpu(const struct qrec_opts *o);

/*
 * Before the program runs: find QEMU (one that loads plugins), check
 * --cpu against its models, find the plugin and the program (an x86-64
 * ELF program or a #! script of one), check that the output can be
 * written, and make the recording directory.  @q is zeroed first.
 */
int qemu_run_prepare(struct qemu_run *q, const struct qrec_opts *o,
		     char *err, size_t errsz);

/*
 * Run the program under QEMU with the plugin and wait for every process
 * of it (record is a child subreaper meanwhile; ^C and ^\ go to the
 * program, SIGTERM and SIGHUP are forwarded to it).  0 with
 * @q->root_status the program's wait status (-1 if QEMU never ended as
 * our child), or BR_ESYS: fork failed, the plugin's options are too long,
 * or the plugin reported a failure on its status page (its line).
 */
int qemu_run_program(struct qemu_run *q, const struct qrec_opts *o,
		     char *err, size_t errsz);

/* Unmap the status page and remove the recording directory. */
void qemu_run_end(struct qemu_run *q);

#endif /* BLOCKRANGE_CLI_QEMU_RUN_H */
