/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One input read by several threads (-j N), with the output of one.
 *
 * The calling thread, the *reader*, reads the input in order and keeps
 * everything that is sequential; N *workers* do the per-sample work:
 *
 *  - perf.data (file or pipe mode, compressed or not, from a file or a
 *    pipe): the reader runs the perf.data reader as one thread would (its
 *    order, its queue, its checks).  Each sample goes into the current
 *    *unit* (a batch of about PAR_UNIT_BYTES of input): by its address
 *    when it lies in the mapped file (ev_sink.keep_raw: the worker reads
 *    it there; the reader drops the pages below every unit not handled
 *    yet, 16 MiB at a time, as few madvise() calls and TLB flushes as one
 *    thread makes), else as a copy of its
 *    record's bytes (compressed, pipe mode); workers decode them with
 *    pd_decode_sample() (the decoder state is
 *    read-only for them: before the reader changes it, for an event that
 *    arrives late in pipe mode, every worker finishes what it has).
 *  - perf script text in a regular file: the reader reads it with read()
 *    into the units' own buffers (reused; nothing is mapped, so no thread
 *    takes page faults on it or drops its pages) and cuts it at line
 *    boundaries where the parser holds no state (the line before is a
 *    sample with its IP), looking for the cut and the mmap lines only in
 *    what it has just read; workers parse the units.
 *  - perf script text from a pipe: the reader parses it and puts the
 *    decoded samples into units.
 *
 * What the workers do with the samples is a *consumer*'s business (struct
 * par_consumer below; the collector of collect/annot.h is one): it has a
 * state on the reader's side (the *master*) and one per worker.
 *
 * Side-band events (mmap, comm, fork) are what makes the samples
 * sequential: a sample resolves against the mappings of its process at
 * that point.  The reader has the consumer prepare every mmap itself
 * (mmap_prepare(): the collector resolves its DSO there, so the DSOs are
 * made by one thread, in input order, and their order is the one-thread
 * order) and sends the event, with what was prepared, to *every* worker;
 * each worker's state keeps its own replica of the address spaces.  A
 * worker's queue holds its units and all side-band events in input order,
 * so when it resolves a sample, its replica is exactly what one thread
 * would have at that sample.  A perf.data unit ends at every side-band
 * event; in a text unit the worker applies the unit's mmap lines in place
 * (with what the reader prepared, in the same order) and the others get
 * them after the unit.  start() runs before the first sample, on the
 * reader (the collector makes the kernel DSO there).
 *
 * At the end every worker's state is merged into the master (merge(): for
 * the collector every figure is a sum), the worker that saw the earliest
 * event name first.  Errors: the first one in input order wins (units are
 * numbered); for text read in units, whose workers do not know their line
 * numbers, an input with an error is read again by one thread (reset(),
 * then the master's own sink) so that the message is exactly one thread's.
 *
 * So the output is the same for any N, byte for byte.  With N < 2 or an
 * input too small to cut, one thread reads it.
 */
#ifndef BLOCKRANGE_CLI_INPUT_PAR_H
#define BLOCKRANGE_CLI_INPUT_PAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input/input.h"

/* Bytes of input per unit (BLOCKRANGE_PAR_UNIT overrides, for tests). */
#define PAR_UNIT_BYTES ((size_t)1 << 20)
/* Units waiting per worker at most (bounds the memory in flight). */
#define PAR_DEPTH 3

/**
 * struct par_progress - where the progress of a read goes (NULL: nowhere)
 * @show: called now and then on the reading thread (every few hundred
 *        samples, and once more with @last at the end): @bytes of the
 *        input read of @total (0: unknown, a pipe), @samples so far.  The
 *        printer is output/progress.h's.
 * @arg:  its first argument
 */
struct par_progress {
	void (*show)(void *arg, uint64_t bytes, uint64_t total,
		     uint64_t samples, bool last);
	void *arg;
};

/**
 * struct par_consumer - what the workers of par_collect() feed
 * @master:        the consumer's state on the reader's side, which the
 *                 workers' states are merged into
 * @mmap_res_size: bytes of what mmap_prepare() decides about an mmap
 *
 * On the reading thread, in input order:
 * @mmap_prepare:  what mmap @m maps, into @res (mmap_res_size bytes,
 *                 zeroed); *@barrier true when it changed something the
 *                 workers may be reading (the workers then finish what
 *                 they have before the input goes on)
 * @build_id:      a build-id of the input (may be NULL)
 * @start:         before the first sample, with the workers' states
 * Per worker, on its thread, in input order (@w: its state):
 * @worker_new:    a state for a worker (NULL: out of memory), made on the
 *                 reading thread
 * @worker_free:   frees it
 * @sample, @comm, @task: the events, as ev_sink callbacks take them
 * @mmap_apply:    an mmap with what mmap_prepare() decided for it
 * @has_event:     whether the state saw a sample with an event name
 * At the end, on the reading thread:
 * @merge:         add worker state @w into the master: BR_OK, BR_EINPUT (a
 *                 sum would pass 2^64 - 1), BR_ESYS
 * @reset:         the master as it was before the read (the input is read
 *                 again by one thread): BR_OK or a BR_* value with a
 *                 message
 * @sink:          the master's own sink, for reading with one thread
 * Every callback that takes @err returns BR_OK or a BR_* value with its
 * message there, like an ev_sink callback.
 */
struct par_consumer {
	void *master;
	size_t mmap_res_size;
	int (*mmap_prepare)(void *master, const struct ev_mmap *m, void *res,
			    bool *barrier, char *err, size_t errsz);
	int (*build_id)(void *master, const struct ev_build_id *b, char *err,
			size_t errsz);
	int (*start)(void *master, void *const *workers, unsigned n);
	void *(*worker_new)(void *master);
	void (*worker_free)(void *w);
	int (*sample)(void *w, const struct ev_sample *s, char *err,
		      size_t errsz);
	int (*mmap_apply)(void *w, const struct ev_mmap *m, const void *res,
			  char *err, size_t errsz);
	int (*comm)(void *w, const struct ev_comm *c, char *err, size_t errsz);
	int (*task)(void *w, const struct ev_task *t, char *err, size_t errsz);
	bool (*has_event)(const void *w);
	int (*merge)(void *master, void *w);
	int (*reset)(void *master, char *err, size_t errsz);
	void (*sink)(void *master, struct ev_sink *sink);
};

/*
 * Read @path (as input_read() does, see input.h) into consumer @c with
 * @jobs threads.  Returns 0, or like input_read() BR_EINPUT (malformed
 * input) or BR_ESYS (I/O or memory) with a one-line message in @err; text
 * without samples is BR_EINPUT too (input_read()'s message).  @st: the
 * input's statistics.
 */
int par_collect(const char *path, const struct input_opts *opts,
		unsigned jobs, const struct par_progress *progress,
		const struct par_consumer *c, struct input_stats *st,
		char *err, size_t errsz);

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
	       unsigned jobs, const struct par_progress *progress,
	       par_format_fn format, void *arg,
	       int (*attr)(void *arg, const struct ev_attr *a, char *err,
			   size_t errsz), void *attr_arg,
	       FILE *out, struct input_stats *st, char *err, size_t errsz);

/* The online CPUs (at least 1): the default of -j. */
unsigned par_default_jobs(void);

#endif /* BLOCKRANGE_CLI_INPUT_PAR_H */
