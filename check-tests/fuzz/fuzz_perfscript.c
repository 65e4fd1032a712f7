// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the perf script reader of the CLI
 * (userspace/cli/input/perfscript.c): the input bytes are the whole file.
 *
 * Each input is read three times: through ps_read() on an fmemopen()
 * stream strictly and with skip_bad, and through ps_read_mem() (the
 * parallel reader's entry point) strictly with a sample callback that
 * stops the read after a few samples.  Beyond "no crash, no leak, no
 * undefined behaviour" it checks:
 *
 *  - a model of the reader's line-level rules (README "Input format":
 *    counts, call-stack frames, the unterminated last line, what a bad line
 *    discards), written here on top of ps_parse_line() alone, gives the same
 *    records in the same order, the same error line (strict) and the same
 *    number of skipped lines (skip_bad);
 *  - strict: 0, or -1 with "in:LINE: expected ..., got ..." on one line of
 *    printable ASCII (and tabs), LINE a line of the input;
 *  - skip_bad: always 0; stats.lines is the input's line count and the
 *    other stats match the callbacks; the strict read's records are a
 *    prefix of these;
 *  - every record: its line is in the input and after the previous
 *    record's, a repeat count's line is before its sample, no entry is both
 *    predicted and mispredicted, strings are non-empty where required and
 *    hold no blank or newline where they cannot; printing the record in
 *    perf's form and parsing that line again gives the same values, with
 *    the entries once in the plain form (the one-pass entry parser) and
 *    once with "(dso)" suffixes (the general one), so both parsers agree;
 *  - a callback's non-zero value stops the read and is returned, with no
 *    record delivered after it; without a stop, ps_read_mem() gives the
 *    strict read's records, status and message.
 *
 * The cost of an execution is the three reads and one model pass: the
 * model gives both the strict and the skip_bad expectations (the strict
 * read stops at the skip_bad read's first bad line), and only the
 * skip_bad read's records, a superset of the others', are printed and
 * parsed back.
 *
 * Built by `make fuzz-perfscript` (clang, -fsanitize=fuzzer,address,
 * undefined), and by `make check-cli` (gcc) to replay
 * check-tests/fuzz/perfscript-corpus/ and the bad-input files in the CLI's
 * Check runner.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/perfscript.h"

#define STOP_VALUE 5

#define CHECK(cond)							\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: invariant failed: %s\n",	\
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

struct run {
	unsigned long nlines;		/* of the input */
	uint64_t *digests;		/* one per record, in order */
	size_t nr;
	size_t cap;
	unsigned long last_line;
	unsigned long samples;
	unsigned long mmaps;
	unsigned long stop_after;	/* 0: never stop */
	bool round_trip;		/* print and parse every record back */
	struct ps_line rt;		/* round-trip parses */
	char *text;			/* canonical line */
	size_t text_cap;
};

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 0x100000001b3ull;
	}
	return h;
}

#define FNV(h, v) fnv((h), &(v), sizeof(v))

static void push(struct run *r, uint64_t d)
{
	if (r->nr == r->cap) {
		size_t n = r->cap ? 2 * r->cap : 64;
		uint64_t *x = realloc(r->digests, n * sizeof(*x));

		CHECK(x);
		r->digests = x;
		r->cap = n;
	}
	r->digests[r->nr++] = d;
}

static void line_order(struct run *r, unsigned long line)
{
	CHECK(line >= 1 && line <= r->nlines);
	CHECK(line > r->last_line);
	r->last_line = line;
}

static bool has_any(const char *s, const char *set)
{
	return s[strcspn(s, set)] != '\0';
}

static char *room(struct run *r, size_t n)
{
	if (n > r->text_cap) {
		char *t = realloc(r->text, n);

		CHECK(t);
		r->text = t;
		r->text_cap = n;
	}
	return r->text;
}

static char pred_char(const struct ps_entry *e)
{
	return e->predicted ? 'P' : e->mispredicted ? 'M' : '-';
}

static uint64_t digest_sample(const struct ps_sample *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	size_t i;

	h = FNV(h, s->line);
	h = FNV(h, s->pid);
	h = FNV(h, s->tid);
	h = fnv(h, s->event, strlen(s->event) + 1);
	h = FNV(h, s->ip);
	h = FNV(h, s->repeat);
	h = FNV(h, s->repeat_line);
	h = FNV(h, s->hybrid);
	h = FNV(h, s->nr);
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *e = &s->entries[i];
		uint8_t flags = (uint8_t)(e->predicted | e->mispredicted << 1 |
					  e->not_taken << 2 | e->in_tx << 3 |
					  e->abort << 4);

		h = FNV(h, e->from);
		h = FNV(h, e->to);
		h = FNV(h, e->cycles);
		h = FNV(h, flags);
	}
	return h;
}

static uint64_t digest_mmap(const struct ps_mmap *m)
{
	uint64_t h = 0x84222325cbf29ce4ull;

	h = FNV(h, m->line);
	h = FNV(h, m->pid);
	h = FNV(h, m->start);
	h = FNV(h, m->len);
	h = FNV(h, m->pgoff);
	h = fnv(h, m->prot, strlen(m->prot) + 1);
	h = fnv(h, m->path, strlen(m->path) + 1);
	return h;
}

/*
 * Print @s as perf would and parse it back: the same values.  @dso: every
 * address with a "(dso)" suffix, which only the general entry parser takes.
 */
static void round_trip_sample(struct run *r, const struct ps_sample *s,
			      bool dso)
{
	size_t cap = 128 + strlen(s->event) + s->nr * 112, o = 0, i;
	char *t = room(r, cap), err[PS_ERR_MAX];
	const struct ps_sample *q = &r->rt.sample;
	const char *d = dso ? "(/d)" : "";

	/* Four comm words: nothing after them can be a PERF_RECORD_ name. */
	o += (size_t)snprintf(t + o, cap - o, "c c c c");
	/* A lone pid column cannot be negative (it would be a comm word). */
	if (s->tid != -1 || s->pid < -1)
		o += (size_t)snprintf(t + o, cap - o, " %ld/%ld", s->pid,
				      s->tid);
	else if (s->pid != -1)
		o += (size_t)snprintf(t + o, cap - o, " %ld", s->pid);
	if (*s->event)
		o += (size_t)snprintf(t + o, cap - o, " %s:", s->event);
	o += (size_t)snprintf(t + o, cap - o, " %" PRIx64, s->ip);
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *e = &s->entries[i];

		o += (size_t)snprintf(t + o, cap - o,
				      "  0x%" PRIx64 "%s/0x%" PRIx64 "%s/%c%s/%c/%c/%u",
				      e->from, d, e->to, d, pred_char(e),
				      e->not_taken ? "N" : "",
				      e->in_tx ? 'X' : '-', e->abort ? 'A' : '-',
				      (unsigned)e->cycles);
		/* Every other entry in the 6.1 form, to cover both. */
		if (i % 2)
			o += (size_t)snprintf(t + o, cap - o, "//-");
	}
	CHECK(o < cap);
	CHECK(ps_parse_line(t, o, &r->rt, err, sizeof(err)) == 0);
	CHECK(r->rt.kind == PS_SAMPLE && r->rt.ip_present);
	CHECK(q->pid == s->pid && q->tid == s->tid);
	CHECK(!strcmp(q->event, s->event));
	CHECK(q->ip == s->ip);
	CHECK(q->nr == s->nr);
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *a = &s->entries[i], *b = &q->entries[i];

		CHECK(a->from == b->from && a->to == b->to);
		CHECK(a->cycles == b->cycles);
		CHECK(a->predicted == b->predicted);
		CHECK(a->mispredicted == b->mispredicted);
		CHECK(a->not_taken == b->not_taken);
		CHECK(a->in_tx == b->in_tx && a->abort == b->abort);
	}
}

static void round_trip_mmap(struct run *r, const struct ps_mmap *m)
{
	size_t cap = 160 + strlen(m->prot) + strlen(m->path);
	char *t = room(r, cap), err[PS_ERR_MAX];
	const struct ps_mmap *q = &r->rt.mmap;
	int n;

	n = snprintf(t, cap,
		     "PERF_RECORD_MMAP2 %ld/%ld: [0x%" PRIx64 "(0x%" PRIx64 ") @ 0x%" PRIx64 " 00:00 0 0]: %s %s",
		     m->pid, m->pid, m->start, m->len, m->pgoff, m->prot,
		     m->path);
	CHECK(n > 0 && (size_t)n < cap);
	CHECK(ps_parse_line(t, (size_t)n, &r->rt, err, sizeof(err)) == 0);
	CHECK(r->rt.kind == PS_MMAP);
	CHECK(q->pid == m->pid && q->start == m->start && q->len == m->len &&
	      q->pgoff == m->pgoff);
	CHECK(!strcmp(q->prot, m->prot) && !strcmp(q->path, m->path));
}

static int on_sample(void *arg, const struct ps_sample *s, char *err,
		     size_t errsz)
{
	struct run *r = arg;
	size_t i;

	line_order(r, s->line);
	CHECK(s->pid >= -0x7fffffffL && s->pid <= 0x7fffffffL);
	CHECK(s->tid >= -0x7fffffffL && s->tid <= 0x7fffffffL);
	CHECK(s->event && !has_any(s->event, " \t\n"));
	CHECK(!s->nr || s->entries);
	if (s->repeat_line) {
		CHECK(s->repeat_line < s->line);
	} else {
		CHECK(s->repeat == 1);
	}
	for (i = 0; i < s->nr; i++)
		CHECK(!(s->entries[i].predicted && s->entries[i].mispredicted));
	if (r->round_trip) {
		round_trip_sample(r, s, false);
		round_trip_sample(r, s, true);
	}
	push(r, digest_sample(s));
	r->samples++;
	if (r->stop_after && r->samples == r->stop_after) {
		snprintf(err, errsz, "stop");
		return STOP_VALUE;
	}
	return 0;
}

static int on_mmap(void *arg, const struct ps_mmap *m, char *err,
		   size_t errsz)
{
	struct run *r = arg;

	(void)err;
	(void)errsz;
	line_order(r, m->line);
	CHECK(m->len);
	CHECK(m->prot && *m->prot && !has_any(m->prot, " \t\n"));
	CHECK(m->path && *m->path && !has_any(m->path, "\n"));
	CHECK(m->path[0] != ' ' && m->path[0] != '\t');
	CHECK(m->path[strlen(m->path) - 1] != ' ' &&
	      m->path[strlen(m->path) - 1] != '\t');
	if (r->round_trip)
		round_trip_mmap(r, m);
	push(r, digest_mmap(m));
	r->mmaps++;
	return 0;
}

static bool blank_only(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return false;
	return true;
}

/*
 * The reader's line-level rules (README "Input format"), on top of
 * ps_parse_line() alone: a count multiplies the next sample and may not
 * follow a count; frame lines give the IP of an LBR line without one; a
 * last line without its newline is bad unless blank; a count or frames at
 * the end are bad (at their first line); a bad line discards the pending
 * count and frames.  One pass gives both reads: the records of skip_bad go
 * to @m and its skipped lines to m->bad; a strict read stops at the first
 * bad line, so its records are the first m->strict_nr of them and its error
 * is at line m->err_line (0: none).
 */
struct model {
	struct run recs;
	size_t strict_nr;
	unsigned long err_line;
	unsigned long bad;
};

static void model_bad(struct model *m, unsigned long line)
{
	if (!m->bad++) {
		m->err_line = line;
		m->strict_nr = m->recs.nr;
	}
}

static void model_read(const uint8_t *data, size_t size, struct model *m)
{
	struct ps_line pl = { 0 };
	char err[PS_ERR_MAX];
	bool have_count = false;
	uint64_t count = 0, first_frame = 0;
	unsigned long count_line = 0, nframes = 0, frame_line = 0, n = 0;
	size_t i = 0;

	while (i < size) {
		const uint8_t *nl = memchr(data + i, '\n', size - i);
		const char *text = (const char *)data + i;
		size_t len = nl ? (size_t)(nl - (data + i)) : size - i;
		bool is_bad;

		n++;
		i += len + (nl ? 1 : 0);
		if (!nl && !blank_only(text, len)) {
			is_bad = true;
		} else {
			is_bad = ps_parse_line(text, len, &pl, err,
					      sizeof(err)) != 0;
			is_bad |= !is_bad && pl.kind == PS_COUNT && have_count;
			is_bad |= !is_bad && pl.kind == PS_SAMPLE &&
				  !pl.ip_present && !nframes;
		}
		if (is_bad) {
			model_bad(m, n);
			have_count = false;
			nframes = 0;
			continue;
		}
		switch (pl.kind) {
		case PS_SKIP:
			break;
		case PS_COUNT:
			have_count = true;
			count = pl.count;
			count_line = n;
			break;
		case PS_FRAME:
			if (!nframes++) {
				first_frame = pl.frame;
				frame_line = n;
			}
			break;
		case PS_MMAP:
			pl.mmap.line = n;
			push(&m->recs, digest_mmap(&pl.mmap));
			break;
		case PS_SAMPLE: {
			struct ps_sample smp = pl.sample;

			if (!pl.ip_present)
				smp.ip = first_frame;
			smp.hybrid = nframes > 0;
			smp.repeat = have_count ? count : 1;
			smp.repeat_line = have_count ? count_line : 0;
			smp.line = n;
			have_count = false;
			nframes = 0;
			push(&m->recs, digest_sample(&smp));
			break;
		}
		}
	}
	if (!m->bad)
		m->strict_nr = m->recs.nr;
	if (have_count || nframes)
		model_bad(m, have_count ? count_line : frame_line);
	ps_line_free(&pl);
}

/* @a's records are exactly the first @n of @b's. */
static bool same_records(const struct run *a, const struct run *b, size_t n)
{
	return a->nr == n && n <= b->nr &&
	       (!n || !memcmp(a->digests, b->digests, n * sizeof(*a->digests)));
}

/*
 * Read the input through ps_read() on a memory stream, or (@mem) through
 * ps_read_mem() as one buffer that ends the input: the same lines either
 * way.
 */
static int read_input(const uint8_t *data, size_t size, bool skip_bad,
		      bool mem, struct run *r, struct ps_stats *st, char *err,
		      size_t errsz)
{
	static char empty[1];
	struct ps_callbacks cb = { on_sample, on_mmap, r };
	FILE *f;
	int ret;

	memset(st, 0, sizeof(*st));
	if (mem)
		return ps_read_mem((const char *)data, size, "in", 0, true,
				   skip_bad, &cb, st, err, errsz);
	/* fmemopen() may refuse a size of 0: an empty stream instead. */
	f = size ? fmemopen((void *)data, size, "r") :
		   fmemopen(empty, 1, "r");
	CHECK(f);
	if (!size)
		CHECK(fgetc(f) == 0);
	ret = ps_read(f, "in", skip_bad, &cb, st, err, errsz);
	fclose(f);
	return ret;
}

static void run_free(struct run *r)
{
	free(r->digests);
	free(r->text);
	ps_line_free(&r->rt);
}

/* "in:LINE: expected ..." on one line of text; returns LINE. */
static unsigned long check_message(const char *err, unsigned long nlines)
{
	unsigned long line = 0;
	const char *p = err + 3;
	size_t i;

	CHECK(!strncmp(err, "in:", 3));
	CHECK(*p >= '1' && *p <= '9');
	while (*p >= '0' && *p <= '9') {
		CHECK(line < 1000000000ul);
		line = line * 10 + (unsigned long)(*p++ - '0');
	}
	CHECK(!strncmp(p, ": expected ", 11));
	CHECK(line >= 1 && line <= nlines);
	for (i = 0; err[i]; i++)
		CHECK((err[i] >= 0x20 && err[i] < 0x7f) || err[i] == '\t');
	CHECK(i < PS_ERR_MAX - 1);	/* not cut by the buffer */
	return line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct run strict = { 0 }, skip = { 0 }, stop = { 0 };
	struct model want = { 0 };
	struct ps_stats st1, st2, st3;
	char err1[PS_ERR_MAX], err2[PS_ERR_MAX], err3[PS_ERR_MAX];
	unsigned long nlines = 0;
	size_t i;
	int r1, r2, r3;

	for (i = 0; i < size; i++)
		nlines += data[i] == '\n';
	if (size && data[size - 1] != '\n')
		nlines++;
	strict.nlines = skip.nlines = stop.nlines = nlines;
	/*
	 * The skip_bad read's records include every record of the other two
	 * reads (checked below through their digests), so only its records
	 * are printed and parsed back.
	 */
	skip.round_trip = true;

	model_read(data, size, &want);

	r1 = read_input(data, size, false, false, &strict, &st1, err1,
			sizeof(err1));
	CHECK(r1 == (want.err_line ? -1 : 0));
	CHECK(st1.bad_lines == 0);
	CHECK(st1.samples == strict.samples && st1.mmaps == strict.mmaps);
	CHECK(same_records(&strict, &want.recs, want.strict_nr));
	if (r1) {
		unsigned long at = check_message(err1, nlines);

		CHECK(at == want.err_line);
		if (!strstr(err1, ", got end of file"))
			CHECK(strict.last_line < at);
	} else {
		CHECK(st1.lines == nlines);
	}

	r2 = read_input(data, size, true, false, &skip, &st2, err2,
			sizeof(err2));
	CHECK(r2 == 0);
	CHECK(st2.lines == nlines);
	CHECK(st2.samples == skip.samples && st2.mmaps == skip.mmaps);
	CHECK(st2.samples + st2.mmaps + st2.bad_lines <= nlines);
	CHECK(st2.bad_lines == want.bad);
	CHECK(same_records(&skip, &want.recs, want.recs.nr));
	if (!r1) {
		CHECK(st2.bad_lines == 0);
		CHECK(skip.nr == strict.nr);
	} else {
		CHECK(st2.bad_lines >= 1);
		CHECK(skip.nr >= strict.nr);
	}
	CHECK(!strict.nr || !memcmp(skip.digests, strict.digests,
				     strict.nr * sizeof(*strict.digests)));

	/*
	 * Stop after 1..4 samples (chosen by the input's size), reading from
	 * memory as the parallel reader does: up to the stop, or to the end,
	 * the same as the strict read from the stream.
	 */
	stop.stop_after = size % 4 + 1;
	r3 = read_input(data, size, false, true, &stop, &st3, err3,
			sizeof(err3));
	if (strict.samples >= stop.stop_after) {
		CHECK(r3 == STOP_VALUE && !strcmp(err3, "stop"));
		CHECK(stop.samples == stop.stop_after);
		/* The same records up to the stop, and none after it. */
		CHECK(stop.nr <= strict.nr);
		CHECK(!memcmp(stop.digests, strict.digests,
			      stop.nr * sizeof(*stop.digests)));
	} else {
		CHECK(r3 == r1 && stop.nr == strict.nr);
		CHECK(!r1 || !strcmp(err1, err3));
		CHECK(r1 || st3.lines == nlines);
	}

	run_free(&strict);
	run_free(&skip);
	run_free(&stop);
	run_free(&want.recs);
	return 0;
}
