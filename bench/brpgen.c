// SPDX-License-Identifier: GPL-2.0
/*
 * Synthetic .brprof profiles for the merge benchmark:
 *
 *   brpgen OUT SEED DSOS RECORDS
 *
 * writes a valid profile (userspace/cli/input/brprof.h) with DSOS DSOs named
 * /bench/libK.so (K < DSOS, so profiles of different seeds share them and
 * merge adds their records) and, per DSO and section, RECORDS records with
 * random keys over a 1 MiB text (so profiles of different seeds overlap
 * in part) and random counts.
 */
#define _GNU_SOURCE

#include <endian.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "input/brprof.h"

static uint64_t rnd(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

struct buf {
	uint8_t *p;
	size_t len, cap;
};

static void put(struct buf *b, const void *x, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2;
		b->p = realloc(b->p, b->cap);
		if (!b->p) {
			perror("brpgen");
			exit(1);
		}
	}
	memcpy(b->p + b->len, x, n);
	b->len += n;
}

static void put64(struct buf *b, uint64_t v)
{
	v = htole64(v);
	put(b, &v, 8);
}

static void put32(struct buf *b, uint32_t v)
{
	v = htole32(v);
	put(b, &v, 4);
}

static int cmp_keys(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;
	int i;

	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

/* @n records of section @s, sorted, keys unique. */
static uint64_t section(struct buf *b, enum brprof_section s, size_t n,
			uint64_t *seed)
{
	unsigned f = brprof_fields[s], k = brprof_keys[s], i;
	uint64_t *v = calloc(n ? n : 1, 4 * sizeof(*v)), out = 0;
	size_t r;

	if (!v) {
		perror("brpgen");
		exit(1);
	}
	for (r = 0; r < n; r++) {
		uint64_t a = 0x400000 + rnd(seed) % (1u << 20);
		uint64_t len = 1 + rnd(seed) % 64;

		v[4 * r] = a;
		v[4 * r + 1] = s == BRP_IPS ? 0 : a + len;
		v[4 * r + 2] = s == BRP_BLOCKS ? rnd(seed) % 3 : 0;
	}
	qsort(v, n, 4 * sizeof(*v), cmp_keys);
	for (r = 0; r < n; r++) {
		uint64_t count = 1 + rnd(seed) % 1000;

		if (r && !memcmp(v + 4 * r, v + 4 * (r - 1), 8 * k))
			continue;
		for (i = 0; i < k; i++)
			put64(b, v[4 * r + i]);
		for (i = k; i < f; i++)
			/* mispredicted (the 2nd value) <= count */
			put64(b, i == k ? count : count / 2);
		out++;
	}
	free(v);
	return out;
}

int main(int argc, char **argv)
{
	struct buf b = { 0 };
	uint64_t seed, stats[BRPROF_NR_STATS] = { 0 };
	unsigned dsos, d, s;
	size_t records;
	FILE *f;

	if (argc != 5) {
		fprintf(stderr, "usage: brpgen OUT SEED DSOS RECORDS\n");
		return 2;
	}
	seed = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	dsos = (unsigned)strtoul(argv[3], NULL, 0);
	records = strtoull(argv[4], NULL, 0);
	put(&b, BRPROF_MAGIC, 8);
	put32(&b, BRPROF_VERSION);
	put32(&b, BRPROF_HEADER);
	put64(&b, 0);
	put64(&b, 0);
	put32(&b, dsos);
	put32(&b, 0);
	put64(&b, 0);
	put64(&b, 0);
	put64(&b, 0);
	put32(&b, BRPROF_NR_STATS);
	put32(&b, 8);
	stats[0] = stats[1] = records;
	stats[BRPROF_NR_STATS - 1] = records;
	for (s = 0; s < BRPROF_NR_STATS; s++)
		put64(&b, stats[s]);
	put(&b, "cycles:u", 8);
	for (d = 0; d < dsos; d++) {
		char path[64];
		size_t plen, at, pad;
		uint8_t z[8] = { 0 };

		plen = (size_t)snprintf(path, sizeof(path), "/bench/lib%u.so", d);
		put32(&b, (uint32_t)plen);
		put(&b, (uint8_t[4]){ 0, 0xe, 0, 0 }, 4);
		put(&b, (uint8_t[20]){ 0 }, 20);
		put32(&b, 0);
		put64(&b, 0x400000);
		put64(&b, records);
		put64(&b, records);
		at = b.len;
		for (s = 0; s < BRP_NR_SECTIONS; s++)
			put64(&b, 0);
		put(&b, path, plen);
		pad = (8 - plen % 8) % 8;
		put(&b, z, pad);
		for (s = 0; s < BRP_NR_SECTIONS; s++) {
			uint64_t n = htole64(section(&b, (enum brprof_section)s,
						     records, &seed));

			memcpy(b.p + at + 8 * s, &n, 8);
		}
	}
	{
		uint64_t v = htole64(b.len - BRPROF_HEADER);

		memcpy(b.p + 16, &v, 8);
		v = htole64(brprof_hash(b.p + BRPROF_HEADER,
					b.len - BRPROF_HEADER));
		memcpy(b.p + 24, &v, 8);
		v = htole64(brprof_hash(b.p, 56));
		memcpy(b.p + 56, &v, 8);
	}
	f = fopen(argv[1], "wb");
	if (!f || fwrite(b.p, 1, b.len, f) != b.len || fclose(f)) {
		perror(argv[1]);
		return 1;
	}
	free(b.p);
	return 0;
}
