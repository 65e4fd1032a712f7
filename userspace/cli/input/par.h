/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One input read by several threads (-j N), with the output of one.
 *
 * The calling thread, the *reader*, reads the input in order and keeps
 * everything that is sequential; N *workers* do the per-sample work:
 *
 *  - perf.data (file or pipe mode, compressed or not, from a file or a
 *    pipe): the reader runs the perf.data reader as one thread would (its
 *    order, its queue, its checks).  Each sample goes as its record's raw
 *    bytes into the current *unit* (a batch of about PAR_UNIT_BYTES);
 *    workers decode them with pd_decode_sample() (the decoder state is
 *    read-only for them: before the reader changes it, for an event that
 *    arrives late in pipe mode, every worker finishes what it has).
 *  - perf script text in a regular file: the reader maps the file and cuts
 *    it into units at line boundaries where the parser holds no state (the
 *    line before is a sample with its IP); workers parse the units.
 *  - perf script text from a pipe: the reader parses it and puts the
 *    decoded samples into units.
 *
 * Side-band events (mmap, comm, fork) are what makes the samples
 * sequential: a sample resolves against the mappings of its process at
 * that point.  The reader resolves every mmap to its DSO itself
 * (session_mmap_prepare(): the DSOs are made by one thread, in input
 * order, so their order is the one-thread order) and sends the event, with
 * that DSO, to *every* worker; each worker keeps its own replica of the
 * address spaces (session_init_replica()).  A worker's queue holds its
 * units and all side-band events in input order, so when it resolves a
 * sample, its replica is exactly what one thread would have at that
 * sample.  A perf.data unit ends at every side-band event; in a text unit
 * the worker applies the unit's mmap lines in place (with the DSOs the
 * reader resolved, in the same order) and the others get them after the
 * unit.  The kernel DSO is made before the first sample, by the reader.
 *
 * Each worker collects into its own struct annot; at the end they are
 * merged into the reader's (annot_merge(): every figure is a sum), the
 * worker that saw the earliest event name first.  Errors: the first one in
 * input order wins (units are numbered); for text read in units, whose
 * workers do not know their line numbers, an input with an error is read
 * again by one thread so that the message is exactly one thread's.
 *
 * So the output is the same for any N, byte for byte.  With N < 2, the
 * tree engine, or an input too small to cut, one thread reads it.
 */
#ifndef BLOCKRANGE_CLI_PAR_H
#define BLOCKRANGE_CLI_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "collect/annot.h"
#include "input/input.h"

/* Bytes of input per unit (BLOCKRANGE_PAR_UNIT overrides, for tests). */
#define PAR_UNIT_BYTES ((size_t)1 << 20)
/* Units waiting per worker at most (bounds the memory in flight). */
#define PAR_DEPTH 3

/*
 * Read @path (as input_read() does, see input.h) into @a with @jobs
 * threads.  Returns 0, or like input_read() -1 (malformed input) or -2
 * (I/O or memory) with a one-line message in @err; text without samples
 * is -1 too (input_read()'s message).  @st: the input's statistics.
 */
int par_collect(const char *path, const struct input_opts *opts,
		unsigned jobs, bool progress, struct annot *a,
		struct input_stats *st, char *err, size_t errsz);

/*
 * What `blockrange script` prints, with @jobs threads: @format turns a
 * sample into text appended to a buffer (return 0, or non-zero with a
 * message in err); the texts are written to @out in input order.  Samples
 * only: script's other views read with one thread.
 */
struct par_buf {
	char *p;
	size_t len;
	size_t cap;
};

/* Room for @n more bytes; the end to write at, NULL out of memory. */
char *par_buf_room(struct par_buf *b, size_t n);

typedef int (*par_format_fn)(void *arg, const struct ev_sample *s,
			     struct par_buf *out, char *err, size_t errsz);

/* @attr (may be NULL) gets the events, on the calling thread. */
int par_script(const char *path, const struct input_opts *opts,
	       unsigned jobs, bool progress, par_format_fn format, void *arg,
	       int (*attr)(void *arg, const struct ev_attr *a, char *err,
			   size_t errsz), void *attr_arg,
	       FILE *out, struct input_stats *st, char *err, size_t errsz);

/* The online CPUs (at least 1): the default of -j. */
unsigned par_default_jobs(void);

#endif /* BLOCKRANGE_CLI_PAR_H */
