/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Any profile input -> events (events.h).
 *
 * input_read() reads @path ("-": stdin) and delivers its events to @sink.
 * Returns 0, -1 for malformed input (exit status 2; @err holds the one-line
 * message), -2 for I/O or memory errors (exit status 1), or a callback's
 * non-zero value.  An input without a single sample is malformed.
 */
#ifndef BLOCKRANGE_CLI_INPUT_H
#define BLOCKRANGE_CLI_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "events.h"

enum input_format {
	INPUT_PERFSCRIPT = 0,
	INPUT_PERFDATA,
	INPUT_PERFDATA_PIPE,
};

struct input_opts {
	bool skip_bad;		/* perf-script text: skip malformed lines */
};

struct input_stats {
	enum input_format format;
	uint64_t samples;
	uint64_t bad_lines;	/* skipped with skip_bad */
};

int input_read(const char *path, const struct input_opts *o,
	       const struct ev_sink *sink, struct input_stats *st, char *err,
	       size_t errsz);

#endif /* BLOCKRANGE_CLI_INPUT_H */
