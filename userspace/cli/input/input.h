/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The input layer: one entry point for every profile input.
 *
 *   input_read(path or "-", opts, sink, stats, err)
 *
 * sniffs the format from the first bytes (input_sniff(): the perf.data
 * magic 'PERFILE2' in either byte order: perf.data in file or pipe mode,
 * see perfdata.h; the .brprof magic: a profile, see brprof.h; anything
 * else: the text of `perf script`, see perfscript.h) and delivers the
 * input as events (events.h) to the sink: samples and side-band events,
 * or for a .brprof its aggregated counts.  Standard input works for every
 * format: the sniffed bytes are not lost (a regular file on stdin is read
 * from its start; a file-mode perf.data on a pipe is spooled to an
 * unlinked temporary file first, see perfdata.h).  A .brprof is read from
 * a regular file only, and only by a sink that takes profiles (one with
 * profile_dso).
 *
 * Returns 0, BR_EINPUT for malformed input (err: one line naming the input
 * and where: "NAME:LINE: ..." for text, "NAME: offset N: ..." for
 * perf.data and .brprof), BR_ESYS for I/O or memory errors (a missing or
 * unreadable file, a directory), or the non-zero value a sink callback
 * returned (base/status.h).  An input without samples is not an error
 * here (the subcommand decides).
 */
#ifndef BLOCKRANGE_CLI_INPUT_INPUT_H
#define BLOCKRANGE_CLI_INPUT_INPUT_H

#include <stdbool.h>
#include <stdint.h>

#include "input/events.h"
#include "input/perfdata.h"
#include "input/perfscript.h"

enum input_format {
	INPUT_NONE = 0,		/* not opened */
	INPUT_PERFSCRIPT,	/* perf script text */
	INPUT_PERFDATA,		/* perf.data, file mode */
	INPUT_PERFDATA_PIPE,	/* perf.data, pipe mode */
	INPUT_BRPROF,		/* a .brprof profile */
};

/*
 * The format of an input whose first @n bytes are @head (8 are enough):
 * INPUT_PERFDATA for the perf.data magic in either byte order (and the
 * version 1 magic, which the reader refuses by name), INPUT_BRPROF for the
 * .brprof magic, else INPUT_PERFSCRIPT.
 */
enum input_format input_sniff(const uint8_t *head, size_t n);

struct input_opts {
	bool skip_bad;		/* perf script text: skip malformed lines */
	struct pd_opts pd;
};

struct input_stats {
	enum input_format format;
	bool swapped;		/* perf.data of the other byte order */
	/* summary, whatever the format */
	uint64_t samples;
	uint64_t samples_brstack;
	uint64_t branch_entries;
	uint64_t mmaps;
	/* per format */
	struct ps_stats ps;
	struct pd_stats pd;
};

int input_read(const char *path, const struct input_opts *opts,
	       const struct ev_sink *sink, struct input_stats *stats,
	       char *err, size_t errsz);

/*
 * perf script text already in memory, @len bytes as lines @line_base + 1,
 * ... (see ps_read_mem(); @at_end: the input ends there), delivered to
 * @sink with input_read()'s conversion; @stats is added to.  For reading
 * parts of one text on several threads (par.h).  Returns like
 * ps_read_mem().
 */
int input_read_text_mem(const char *buf, size_t len, const char *name,
			unsigned long line_base, bool at_end,
			const struct input_opts *opts,
			const struct ev_sink *sink, struct input_stats *stats,
			char *err, size_t errsz);

/*
 * An mmap line of perf script text as the event input_read() delivers
 * (the protection letters "r-xp" as PROT_* and MAP_* bits).
 */
void input_text_mmap(const struct ps_mmap *m, const char *name,
		     struct ev_mmap *e);

/* The message of a perf script text without samples (input_read()'s). */
void input_text_no_samples(const char *name, const struct input_opts *opts,
			   const struct input_stats *st, char *err,
			   size_t errsz);

/* The name of input @path in messages: "<stdin>" for "-", else @path. */
const char *input_name(const char *path);

/* "perf script text", "perf.data", "perf.data (pipe mode)". */
const char *input_format_name(enum input_format f);

#endif /* BLOCKRANGE_CLI_INPUT_INPUT_H */
