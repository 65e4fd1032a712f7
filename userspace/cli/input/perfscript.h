/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reader of `perf script -F ip,brstack` text, every generation perf has
 * printed (see docs/cli-reference.md, "Input format"):
 *
 *   [comm] [pid[/tid]] [time:] [event:] IP [(dso)]  ENTRY  ENTRY ...
 *   ENTRY := [buildid:]0xFROM[(dso)]/[buildid:]0xTO[(dso)]
 *            [/PRED/INTX/ABORT/CYCLES[/TYPE[/SPEC]]]
 *
 * plus PERF_RECORD_MMAP2 / PERF_RECORD_MMAP lines (kept), other
 * PERF_RECORD_* lines, `;` and `//` comments and blank lines (skipped),
 * aggregation count lines (a line holding only a decimal count, which
 * multiplies the next sample) and hybrid call-stack frames (tab-indented hex
 * addresses before an LBR line that then may omit the IP).
 *
 * Entries are newest first, as perf prints them.  Addresses are runtime
 * addresses; mapping them to the binary is the caller's business.
 *
 * Errors: a malformed line stops the read with
 *   "FILE:LINE: expected WHAT, got 'TEXT'"
 * unless skip_bad is set (then the line is counted in ps_stats.bad_lines and
 * ignored).  TEXT is cut to 48 bytes, and bytes other than printable ASCII
 * and tab are written as \r or \xNN, so a message is always one line.
 * Besides the grammar, these are malformed: a NUL byte, branch entries on a
 * tab-indented (call-stack frame) line, a count or frames with no sample
 * after them, and a last line without its newline (perf terminates every
 * line; a file cut off in the middle of an entry could otherwise pass as a
 * shorter valid one).  No global state; every allocation is freed by the
 * reader.
 */
#ifndef BLOCKRANGE_CLI_PERFSCRIPT_H
#define BLOCKRANGE_CLI_PERFSCRIPT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PS_ERR_MAX 512

struct ps_entry {
	uint64_t from;
	uint64_t to;
	uint16_t cycles;
	bool predicted;		/* 'P' */
	bool mispredicted;	/* 'M' */
	bool not_taken;		/* 'N' after P/M/- ("PN", "MN", "-N") */
	bool in_tx;		/* 'X' */
	bool abort;		/* 'A' */
};

struct ps_sample {
	long pid;		/* -1: no pid column */
	long tid;		/* -1: none */
	const char *event;	/* "" when the line names no event */
	uint64_t ip;
	uint64_t repeat;	/* from a preceding count line, else 1 */
	unsigned long repeat_line;	/* line of that count line, 0: none */
	bool hybrid;		/* preceded by call-stack frame lines */
	/*
	 * Those frames' addresses in their order (innermost first: the
	 * sampled instruction, then the callers' return addresses); @nframes
	 * 0 when not hybrid.
	 */
	const uint64_t *frames;
	size_t nframes;
	const struct ps_entry *entries;
	size_t nr;
	unsigned long line;	/* line number of the sample line */
};

struct ps_mmap {
	long pid;		/* -1 when not known */
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	const char *prot;	/* "r-xp", "x", ... */
	const char *path;
	unsigned long line;
};

/* Kinds of lines, as ps_parse_line() classifies them. */
enum ps_kind {
	PS_SKIP = 0,	/* blank, comment, other PERF_RECORD_* */
	PS_SAMPLE,
	PS_MMAP,
	PS_COUNT,
	PS_FRAME,
};

/*
 * One parsed line.  Strings and entries point into storage owned by the
 * struct (reused by the next ps_parse_line() call on it); ps_line_free()
 * releases it.  Zero-initialise before the first use.
 */
struct ps_line {
	enum ps_kind kind;
	/* PS_SAMPLE (ip_present false: an LBR line without IP, hybrid form) */
	struct ps_sample sample;
	bool ip_present;
	/* PS_MMAP */
	struct ps_mmap mmap;
	/* PS_COUNT */
	uint64_t count;
	/* PS_FRAME */
	uint64_t frame;
	/* storage */
	struct ps_entry *ent;
	size_t ent_cap;
	char *buf;
	size_t buf_cap;
};

/*
 * Parse one line (@len bytes, no newline).  Returns 0 and fills @out, or
 * BR_EINPUT with "expected ..., got '...'" (no file/line prefix) in @err;
 * BR_ESYS if memory ran out.
 */
int ps_parse_line(const char *line, size_t len, struct ps_line *out,
		  char *err, size_t errsz);
void ps_line_free(struct ps_line *l);

struct ps_stats {
	unsigned long lines;
	unsigned long samples;
	unsigned long mmaps;
	unsigned long bad_lines;	/* skipped with skip_bad */
	uint64_t bytes;			/* read so far */
};

/*
 * Callbacks return 0 to go on, non-zero to stop the read (ps_read() then
 * returns that value; the callback has written its message to err).
 */
struct ps_callbacks {
	int (*sample)(void *arg, const struct ps_sample *s, char *err,
		      size_t errsz);
	int (*mmap)(void *arg, const struct ps_mmap *m, char *err,
		    size_t errsz);
	void *arg;
};

/* The longest line ps_read() takes (perf script lines are a few KiB). */
#define PS_LINE_MAX (16u << 20)

/*
 * Read all of @f (named @name in messages).  Returns 0, BR_EINPUT on a
 * malformed line (err: "NAME:LINE: expected ..., got '...'"; a line longer
 * than PS_LINE_MAX is malformed, so memory stays bounded), BR_ESYS on I/O
 * or memory errors (err says which), or a callback's non-zero value.
 */
int ps_read(FILE *f, const char *name, bool skip_bad,
	    const struct ps_callbacks *cb, struct ps_stats *stats,
	    char *err, size_t errsz);

/*
 * The reader line by line, for callers that have the text in memory
 * (ps_read() and ps_read_mem() use it).  ps_reader_line() takes one line
 * without its newline (@newline: it had one; only the last line may lack
 * it); @line_base is the number of the line before the first.
 * ps_reader_end() checks what is pending at the end of the input (a count
 * or frames without their sample).  ps_reader_clean(): nothing is pending
 * (a line after here does not depend on the lines before).
 */
struct ps_reader {
	const char *name;
	bool skip_bad;
	const struct ps_callbacks *cb;
	struct ps_stats *stats;
	struct ps_stats dummy;
	struct ps_line pl;
	unsigned long lineno;
	bool have_count;
	uint64_t count;
	unsigned long count_line;
	unsigned long nframes, frame_line;
	uint64_t *frames;	/* the pending frames' addresses */
	size_t frames_cap;
};

void ps_reader_init(struct ps_reader *r, const char *name, bool skip_bad,
		    const struct ps_callbacks *cb, struct ps_stats *stats,
		    unsigned long line_base);
int ps_reader_line(struct ps_reader *r, const char *line, size_t len,
		   bool newline, char *err, size_t errsz);
int ps_reader_end(struct ps_reader *r, char *err, size_t errsz);
bool ps_reader_clean(const struct ps_reader *r);
void ps_reader_free(struct ps_reader *r);

/*
 * Read @len bytes of text at @buf as lines @line_base + 1, ...: the same
 * rules as ps_read().  @at_end: the input ends here (pending counts or
 * frames are then an error); otherwise BR_EPARTIAL (base/status.h) if
 * something is still pending at the end of @buf (the caller cut the text
 * where it should not have).
 */
int ps_read_mem(const char *buf, size_t len, const char *name,
		unsigned long line_base, bool at_end, bool skip_bad,
		const struct ps_callbacks *cb, struct ps_stats *stats,
		char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_PERFSCRIPT_H */
