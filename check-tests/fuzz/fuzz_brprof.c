// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for `blockrange merge` on hostile pairs of .brprof
 * profiles: brprof_merge() of output/brprof_write.c and the reader
 * brprof_parse() of input/brprof.c.
 *
 * Input: byte 0 says which halves get their size and checksums made right
 * (bit 0: the first, bit 1: the second; without it almost every mutation
 * ends at a checksum), bytes 1-2 the length of the first half (little
 * endian, cut to what is left), the rest the two halves A and B.  Both are
 * written to files, then merged as `blockrange merge A B` and `merge B A`.
 *
 * Properties, beyond "no crash, no leak, no undefined behaviour":
 *  - a half the reader refuses makes the merge fail with BR_EINPUT and the
 *    reader's message for the first refused input, one line of printable
 *    text "FILE: offset N: expected ...";
 *  - two readable halves merge, or fail with BR_EINPUT exactly when a sum
 *    passes 2^64 - 1 (the model below says when), with one printable line;
 *  - merge(A, B) and merge(B, A): the same status, the same bytes;
 *  - the merged profile reads back and equals the model of A + B: header
 *    flags, statistics (saturated, the last exact), the event, every DSO
 *    once in identity order with the least path and text base, its flags
 *    or-ed, its sample counts and every section's records summed by key;
 *  - merging the merged profile alone gives it back byte for byte.
 *
 * Built by `make fuzz-brprof` (clang, ASan + UBSan, libFuzzer) and into the
 * CLI's Check runner (gcc), which replays check-tests/fuzz/brprof-corpus/
 * through brprof_fuzz_one().
 */
#define _GNU_SOURCE

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/status.h"
#include "input/brprof.h"
#include "output/brprof_write.h"

#include "fuzz_check.h"

enum { F_A, F_B, F_AB, F_BA, F_RE, NR_FILES };

static char dir[64];
static char paths[NR_FILES][96];

static void cleanup(void)
{
	int i;

	for (i = 0; i < NR_FILES; i++)
		unlink(paths[i]);
	rmdir(dir);
}

/*
 * A directory of this process for the profiles, removed at exit: in
 * memory (/dev/shm) where there is one, since every execution writes,
 * renames and maps several files (twenty times the executions of a disk's
 * /tmp), else in $TMPDIR or /tmp.
 */
static void setup(void)
{
	static const char *const names[NR_FILES] = {
		"a.brprof", "b.brprof", "ab.brprof", "ba.brprof", "re.brprof",
	};
	const char *tmp = getenv("TMPDIR");
	int i;

	if (dir[0])
		return;
	if (!access("/dev/shm", W_OK | X_OK))
		tmp = "/dev/shm";
	snprintf(dir, sizeof(dir), "%.40s/brprof-fuzz-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	CHECK(mkdtemp(dir));
	for (i = 0; i < NR_FILES; i++)
		snprintf(paths[i], sizeof(paths[i]), "%s/%s", dir, names[i]);
	atexit(cleanup);
}

static uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

static void st64(uint8_t *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put_file(const char *path, const uint8_t *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	CHECK(f);
	CHECK(!n || fwrite(p, 1, n, f) == n);
	CHECK(!fclose(f));
}

static uint8_t *get_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long len;

	CHECK(f);
	CHECK(!fseek(f, 0, SEEK_END));
	len = ftell(f);
	CHECK(len >= 0 && !fseek(f, 0, SEEK_SET));
	p = malloc((size_t)len + 1);
	CHECK(p);
	CHECK(fread(p, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* The body size and both checksums made to match the bytes. */
static void fix_header(uint8_t *p, size_t n)
{
	if (n < BRPROF_HEADER)
		return;
	st64(p + 16, n - BRPROF_HEADER);
	st64(p + 24, brprof_hash(p + BRPROF_HEADER, n - BRPROF_HEADER));
	st64(p + 56, brprof_hash(p, 56));
}

/* One line of printable text that starts with @prefix. */
static void check_message(const char *err, const char *prefix)
{
	size_t i;

	CHECK(!strncmp(err, prefix, strlen(prefix)));
	CHECK(strstr(err, "expected "));
	for (i = 0; err[i]; i++)
		CHECK(err[i] >= 0x20 && err[i] < 0x7f);
	CHECK(i < BR_ERR_MAX - 1);
}

static bool add_ok(uint64_t *sum, uint64_t v)
{
	if (*sum > UINT64_MAX - v)
		return false;
	*sum += v;
	return true;
}

/* The DSO of @p with the identity of @d, or NULL. */
static const struct brprof_dso *find_dso(const struct brprof *p,
					 const struct brprof_dso *d)
{
	uint32_t i;

	for (i = 0; i < p->nr_dsos; i++)
		if (!brprof_dso_cmp(&p->dsos[i], d))
			return &p->dsos[i];
	return NULL;
}

/*
 * Section @s of DSO entries @da and @db (either may be NULL) merged by key,
 * values of equal keys added: false if a sum passes 2^64 - 1.  With @o,
 * the merged entry's section must be exactly that.
 */
static bool walk(const struct brprof_dso *da, const struct brprof_dso *db,
		 enum brprof_section s, const struct brprof_dso *o)
{
	unsigned f = brprof_fields[s], k = brprof_keys[s], x;
	uint64_t na = da ? da->nr[s] : 0, nb = db ? db->nr[s] : 0;
	uint64_t i = 0, j = 0, out = 0;

	while (i < na || j < nb) {
		const uint8_t *ra = i < na ? da->sec[s] + 8 * f * i : NULL;
		const uint8_t *rb = j < nb ? db->sec[s] + 8 * f * j : NULL;
		int c = !ra ? 1 : !rb ? -1 : brprof_key_cmp(ra, rb, s);
		const uint8_t *key = c <= 0 ? ra : rb;
		uint64_t want[4];

		for (x = 0; x < f; x++) {
			want[x] = x < k ? ld64(key + 8 * x) : 0;
			if (x >= k && c <= 0 && !add_ok(&want[x], ld64(ra + 8 * x)))
				return false;
			if (x >= k && c >= 0 && !add_ok(&want[x], ld64(rb + 8 * x)))
				return false;
		}
		i += c <= 0;
		j += c >= 0;
		if (!o)
			continue;
		CHECK(out < o->nr[s]);
		for (x = 0; x < f; x++)
			CHECK(ld64(o->sec[s] + 8 * (f * out + x)) == want[x]);
		out++;
	}
	CHECK(!o || out == o->nr[s]);
	return true;
}

/* Does merging @a and @b (both readable) pass 2^64 - 1 somewhere? */
static bool overflows(const struct brprof *a, const struct brprof *b)
{
	uint64_t sum = a->stats[BRPROF_NR_STATS - 1];
	uint32_t i;
	int s;

	if (!add_ok(&sum, b->stats[BRPROF_NR_STATS - 1]))
		return true;
	for (i = 0; i < a->nr_dsos; i++) {
		const struct brprof_dso *da = &a->dsos[i], *db = find_dso(b, da);
		uint64_t smp = da->samples, psmp = da->prof_samples;

		if (!db)
			continue;
		if (!add_ok(&smp, db->samples) ||
		    !add_ok(&psmp, db->prof_samples))
			return true;
		for (s = 0; s < BRP_NR_SECTIONS; s++)
			if (!walk(da, db, (enum brprof_section)s, NULL))
				return true;
	}
	return false;
}

static bool path_less(const struct brprof_dso *a, const struct brprof_dso *b)
{
	size_t n = a->path_len < b->path_len ? a->path_len : b->path_len;
	int c = memcmp(a->path, b->path, n);

	return c < 0 || (!c && a->path_len < b->path_len);
}

/* DSO @o of the merged profile against its entries @da and @db. */
static void check_dso(const struct brprof_dso *o, const struct brprof_dso *da,
		      const struct brprof_dso *db)
{
	const struct brprof_dso *one = da ? da : db, *path = one;
	uint64_t base = one->text_base, smp = 0, psmp = 0;
	unsigned fl = 0;
	int s;

	if (da && db) {
		path = path_less(db, da) ? db : da;
		base = da->text_base < db->text_base ? da->text_base :
						       db->text_base;
	}
	if (da) {
		fl |= da->flags;
		smp += da->samples;
		psmp += da->prof_samples;
	}
	if (db) {
		fl |= db->flags;
		smp += db->samples;
		psmp += db->prof_samples;
	}
	CHECK(o->path_len == path->path_len &&
	      !memcmp(o->path, path->path, o->path_len));
	CHECK(o->build_id_size == one->build_id_size &&
	      !memcmp(o->build_id, one->build_id, one->build_id_size));
	CHECK(o->flags == fl && o->text_base == base);
	CHECK(o->samples == smp && o->prof_samples == psmp);
	for (s = 0; s < BRP_NR_SECTIONS; s++)
		CHECK(walk(da, db, (enum brprof_section)s, o));
}

static bool name_less(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c < 0 || (!c && na < nb);
}

/* The header, statistics and event of merged @m against @a + @b. */
static void check_head(const struct brprof *m, const struct brprof *a,
		       const struct brprof *b)
{
	uint32_t fl = ((a->flags | b->flags) & ~BRPROF_EXACT) |
		      (a->flags & b->flags & BRPROF_EXACT);
	const struct brprof *ev = a->event_len ? a : b;
	int k;

	if (a->event_len && b->event_len) {
		if (a->event_len != b->event_len ||
		    memcmp(a->event, b->event, a->event_len))
			fl |= BRPROF_MIXED;
		if (name_less(b->event, b->event_len, a->event, a->event_len))
			ev = b;
	}
	CHECK(m->flags == fl);
	CHECK(m->event_len == ev->event_len &&
	      !memcmp(m->event, ev->event, ev->event_len));
	for (k = 0; k < BRPROF_NR_STATS - 1; k++) {
		uint64_t v = a->stats[k];

		if (!add_ok(&v, b->stats[k]))
			v = UINT64_MAX;
		CHECK(m->stats[k] == v);
	}
	CHECK(m->stats[k] == a->stats[k] + b->stats[k]);
}

/* Merged @m is @a + @b: every DSO once, in identity order, summed. */
static void check_merged(const struct brprof *m, const struct brprof *a,
			 const struct brprof *b)
{
	uint32_t i, common = 0;

	check_head(m, a, b);
	for (i = 0; i < a->nr_dsos; i++)
		common += find_dso(b, &a->dsos[i]) != NULL;
	CHECK(m->nr_dsos == a->nr_dsos + b->nr_dsos - common);
	for (i = 0; i < m->nr_dsos; i++) {
		const struct brprof_dso *o = &m->dsos[i];
		const struct brprof_dso *da = find_dso(a, o), *db = find_dso(b, o);

		CHECK(!i || brprof_dso_cmp(&m->dsos[i - 1], o) < 0);
		CHECK(da || db);
		check_dso(o, da, db);
	}
}

struct half {
	uint8_t *p;
	size_t n;
	struct brprof prof;
	int r;
	char err[BR_ERR_MAX];
};

/* Half @h: @n bytes at @p, fixed (@fix), written to @path and parsed. */
static void half_make(struct half *h, const uint8_t *p, size_t n, bool fix,
		      const char *path)
{
	h->p = malloc(n ? n : 1);
	CHECK(h->p);
	memcpy(h->p, p, n);
	h->n = n;
	if (fix)
		fix_header(h->p, n);
	put_file(path, h->p, n);
	memset(&h->prof, 0, sizeof(h->prof));
	h->r = brprof_parse(h->p, n, path, &h->prof, false, h->err,
			    sizeof(h->err));
	CHECK(h->r == 0 || h->r == BR_EINPUT);
	if (h->r) {
		char prefix[128];

		snprintf(prefix, sizeof(prefix), "%s: offset ", path);
		check_message(h->err, prefix);
	}
}

static void half_free(struct half *h)
{
	brprof_free(&h->prof);
	free(h->p);
}

/* brprof_merge() of files @x and @y (-1: @x alone) into file @out. */
static int merge(int out, int x, int y, char *err)
{
	const char *in[2] = { paths[x], paths[y < 0 ? x : y] };
	size_t bytes;

	return brprof_merge(in, y < 0 ? 1 : 2, paths[out], &bytes, err,
			    BR_ERR_MAX);
}

/* Both merged: the same bytes, read back as @a + @b, stable. */
static void check_success(const struct half *a, const struct half *b)
{
	uint8_t *ab, *ba, *re;
	size_t nab, nba, nre;
	struct brprof m = { 0 };
	char err[BR_ERR_MAX];

	ab = get_file(paths[F_AB], &nab);
	ba = get_file(paths[F_BA], &nba);
	CHECK(nab == nba && !memcmp(ab, ba, nab));
	CHECK(brprof_parse(ab, nab, "ab", &m, false, err, sizeof(err)) == 0);
	check_merged(&m, &a->prof, &b->prof);
	CHECK(merge(F_RE, F_AB, -1, err) == 0);
	re = get_file(paths[F_RE], &nre);
	CHECK(nre == nab && !memcmp(re, ab, nab));
	brprof_free(&m);
	free(ab);
	free(ba);
	free(re);
}

int brprof_fuzz_one(const uint8_t *data, size_t size);

int brprof_fuzz_one(const uint8_t *data, size_t size)
{
	static char eab[BR_ERR_MAX], eba[BR_ERR_MAX];
	const uint8_t *body = size >= 3 ? data + 3 : data;
	size_t rest = size >= 3 ? size - 3 : 0, la = 0;
	struct half a, b;
	int rab, rba;

	setup();
	if (size >= 3)
		la = (size_t)data[1] | (size_t)data[2] << 8;
	if (la > rest)
		la = rest;
	half_make(&a, body, la, size && (data[0] & 1), paths[F_A]);
	half_make(&b, body + la, rest - la, size && (data[0] & 2), paths[F_B]);
	rab = merge(F_AB, F_A, F_B, eab);
	rba = merge(F_BA, F_B, F_A, eba);
	if (a.r || b.r) {
		/* The first input the reader refuses, with its message. */
		CHECK(rab == BR_EINPUT && rba == BR_EINPUT);
		CHECK(!strcmp(eab, a.r ? a.err : b.err));
		CHECK(!strcmp(eba, b.r ? b.err : a.err));
	} else if (overflows(&a.prof, &b.prof)) {
		CHECK(rab == BR_EINPUT && rba == BR_EINPUT);
		check_message(eab, "");
		check_message(eba, "");
		CHECK(strstr(eab, "fit in 64 bits") || strstr(eab, "fits in 64 bits"));
	} else {
		CHECK(rab == 0 && rba == 0);
		check_success(&a, &b);
	}
	half_free(&a);
	half_free(&b);
	return 0;
}

#ifdef BLOCKRANGE_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return brprof_fuzz_one(data, size);
}
#endif
