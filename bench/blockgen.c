// SPDX-License-Identifier: GPL-2.0
/*
 * blockgen: write the block streams that splitbench replays.
 *
 *   blockgen random   OUT N TEXT_BYTES MAXLEN SEED
 *	N blocks, start uniform over a TEXT_BYTES text at 0x400000, length
 *	uniform in 1..MAXLEN (clipped at the end of the text), owner = the
 *	1 KiB "function" holding the start, branch predicted 7 times in 8.
 *   blockgen distinct OUT N STRIDE SEED
 *	N disjoint blocks, block i inside [base + i * STRIDE, +STRIDE), length
 *	uniform in 1..STRIDE, in a random order: N blocks make N ranges.
 *   blockgen trace    OUT N PERFSCRIPT LO HI [NM_FILE]
 *	the blocks of a `perf script -F ip,brstack` text (for consecutive
 *	entries older, newer: [older.to, newer.from]) whose two ends lie in
 *	[LO, HI) and are ordered, in file order, repeated until there are N;
 *	owner = the symbol of NM_FILE (`nm -n` output) holding the start.
 *
 * Stream file: see stream.h (a header, then one record per block).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

static void die(const char *fmt, const char *arg)
{
	fprintf(stderr, "blockgen: ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(1);
}

static uint64_t num(const char *s)
{
	char *end;
	uint64_t v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end)
		die("expected a number, got '%s'", s);
	return v;
}

/* splitmix64: small, seedable, good enough for test data. */
static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint64_t below(uint64_t n)
{
	return rnd() % n;
}

static uint32_t rnd_pred(void)
{
	return below(8) ? BENCH_PRED_HIT : BENCH_PRED_MISS;
}

static void write_stream(const char *path, const struct bench_block *b,
			 uint64_t n, uint64_t owners)
{
	struct bench_stream_hdr h = { BENCH_STREAM_MAGIC, n, owners };
	FILE *f = fopen(path, "wb");

	if (!f)
		die("cannot create '%s'", path);
	if (fwrite(&h, sizeof(h), 1, f) != 1 ||
	    fwrite(b, sizeof(*b), n, f) != n || fclose(f))
		die("cannot write '%s'", path);
}

static struct bench_block *alloc_blocks(uint64_t n)
{
	struct bench_block *b = calloc(n ? n : 1, sizeof(*b));

	if (!b)
		die("%s", "out of memory");
	return b;
}

static int gen_random(char **argv)
{
	uint64_t n = num(argv[1]), text = num(argv[2]), maxlen = num(argv[3]);
	uint64_t base = 0x400000, i;
	struct bench_block *b = alloc_blocks(n);

	rng_state = num(argv[4]);
	if (!text || !maxlen)
		die("%s", "TEXT_BYTES and MAXLEN must be > 0");
	for (i = 0; i < n; i++) {
		uint64_t off = below(text), len = 1 + below(maxlen);

		if (off + len > text)
			len = text - off;
		b[i].start = base + off;
		b[i].end = base + off + len - 1;
		b[i].owner = (uint32_t)(off / 1024 + 1);
		b[i].pred = rnd_pred();
	}
	write_stream(argv[0], b, n, (text + 1023) / 1024);
	free(b);
	return 0;
}

static int gen_distinct(char **argv)
{
	uint64_t n = num(argv[1]), stride = num(argv[2]);
	uint64_t base = 0x400000, i;
	struct bench_block *b = alloc_blocks(n);

	rng_state = num(argv[3]);
	if (!stride)
		die("%s", "STRIDE must be > 0");
	for (i = 0; i < n; i++) {
		b[i].start = base + i * stride;
		b[i].end = b[i].start + below(stride);
		b[i].owner = (uint32_t)(i / 64 + 1);
		b[i].pred = rnd_pred();
	}
	for (i = n; i > 1; i--) {	/* Fisher-Yates */
		uint64_t j = below(i);
		struct bench_block t = b[i - 1];

		b[i - 1] = b[j];
		b[j] = t;
	}
	write_stream(argv[0], b, n, n / 64 + 1);
	free(b);
	return 0;
}

/* Symbol start addresses of an `nm -n` listing (text symbols only). */
struct syms {
	uint64_t *addr;
	size_t n;
};

static void load_syms(const char *path, struct syms *s)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0, alloc = 0;

	if (!f)
		die("cannot open '%s'", path);
	s->addr = NULL;
	s->n = 0;
	while (getline(&line, &cap, f) > 0) {
		uint64_t a;
		char type;

		if (sscanf(line, "%" SCNx64 " %c", &a, &type) != 2 ||
		    !strchr("TtWw", type))
			continue;
		if (s->n == alloc) {
			alloc = alloc ? 2 * alloc : 256;
			s->addr = realloc(s->addr, alloc * sizeof(*s->addr));
			if (!s->addr)
				die("%s", "out of memory");
		}
		if (s->n && a < s->addr[s->n - 1])
			die("'%s' is not sorted by address (nm -n)", path);
		s->addr[s->n++] = a;
	}
	free(line);
	fclose(f);
}

/* 1 + index of the last symbol at or below @a, 0 if none. */
static uint32_t sym_of(const struct syms *s, uint64_t a)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->addr[mid] <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (uint32_t)lo;
}

struct entry {
	uint64_t from, to;
	uint32_t pred;
};

/* Parse the "0xFROM/0xTO[/FLAGS...]" entries of one sample line. */
static size_t parse_entries(char *line, struct entry **ent, size_t *cap)
{
	size_t n = 0;
	char *tok, *save = NULL;

	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save)) {
		char *p = tok, *q;
		struct entry e = { 0, 0, BENCH_PRED_UNKNOWN };

		if (strncmp(p, "0x", 2))
			continue;
		e.from = strtoull(p, &q, 16);
		if (*q == '(')		/* (dso) */
			q = strchr(q, ')') ? strchr(q, ')') + 1 : q;
		if (*q != '/' || strncmp(q + 1, "0x", 2))
			continue;
		e.to = strtoull(q + 1, &q, 16);
		if (*q == '(')
			q = strchr(q, ')') ? strchr(q, ')') + 1 : q;
		if (*q == '/')
			e.pred = q[1] == 'P' ? BENCH_PRED_HIT :
				 q[1] == 'M' ? BENCH_PRED_MISS :
				 BENCH_PRED_UNKNOWN;
		if (n == *cap) {
			*cap = *cap ? 2 * *cap : 64;
			*ent = realloc(*ent, *cap * sizeof(**ent));
			if (!*ent)
				die("%s", "out of memory");
		}
		(*ent)[n++] = e;
	}
	return n;
}

static int gen_trace(int argc, char **argv)
{
	uint64_t n = num(argv[1]), lo = num(argv[3]), hi = num(argv[4]);
	struct syms syms = { NULL, 0 };
	struct bench_block *b = alloc_blocks(n);
	struct entry *ent = NULL;
	size_t ecap = 0, got = 0, i;
	char *line = NULL;
	size_t cap = 0;
	FILE *f;

	if (argc > 5)
		load_syms(argv[5], &syms);
	f = fopen(argv[2], "r");
	if (!f)
		die("cannot open '%s'", argv[2]);
	while (got < n && getline(&line, &cap, f) > 0) {
		size_t ne;

		if (strstr(line, "PERF_RECORD_"))
			continue;
		ne = parse_entries(line, &ent, &ecap);
		/* Newest first: the block of (older i + 1, newer i). */
		for (i = ne > 1 ? ne - 1 : 0; i-- > 0 && got < n;) {
			uint64_t s = ent[i + 1].to, e = ent[i].from;

			if (s < lo || e >= hi || s > e)
				continue;
			b[got].start = s;
			b[got].end = e;
			b[got].owner = syms.n ? sym_of(&syms, s) : 1;
			b[got].pred = ent[i].pred;
			got++;
		}
	}
	fclose(f);
	free(line);
	free(ent);
	if (!got)
		die("no block inside [LO, HI) in '%s'", argv[2]);
	fprintf(stderr, "blockgen: %zu blocks recorded in %s, repeated to %" PRIu64 "\n",
		got, argv[2], n);
	for (i = got; i < n; i++)
		b[i] = b[i % got];
	write_stream(argv[0], b, n, syms.n ? syms.n : 1);
	free(syms.addr);
	free(b);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 7 && !strcmp(argv[1], "random"))
		return gen_random(argv + 2);
	if (argc == 6 && !strcmp(argv[1], "distinct"))
		return gen_distinct(argv + 2);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "trace"))
		return gen_trace(argc - 2, argv + 2);
	fprintf(stderr,
		"usage: blockgen random OUT N TEXT_BYTES MAXLEN SEED\n"
		"       blockgen distinct OUT N STRIDE SEED\n"
		"       blockgen trace OUT N PERFSCRIPT LO HI [NM_FILE]\n");
	return 2;
}
