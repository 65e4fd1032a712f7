/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The progress line of a read (--progress): bytes read (of the input's
 * size when it is known), samples per second and the time left, on one
 * line rewritten in place on a terminal (at most 4 times a second), one
 * line a second elsewhere; the line is cleared at the end on a terminal.
 *
 *   blockrange: 312.4 of 1024.0 MB (31%), 1893421 samples/s, 0:07 left
 *
 * progress_show() is the show callback of struct par_progress (input/par.h).
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_PROGRESS_H
#define BLOCKRANGE_CLI_OUTPUT_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

struct progress {
	FILE *f;
	bool tty;
	struct timespec t0, last;
};

/* Start the clock; @f is where the line goes (stderr). */
void progress_init(struct progress *pr, FILE *f);

/* @arg: a struct progress. */
void progress_show(void *arg, uint64_t bytes, uint64_t total,
		   uint64_t samples, bool last);

#endif /* BLOCKRANGE_CLI_OUTPUT_PROGRESS_H */
