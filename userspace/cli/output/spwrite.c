// SPDX-License-Identifier: GPL-2.0
/*
 * The writers of LLVM sample profiles: text and extensible binary, in the
 * order and encoding llvm-profgen-19 uses (docs/autofdo.md):
 *
 *  - functions by total samples (descending), then name; body samples and
 *    inlined call sites by (line offset, discriminator), several callees
 *    at one site by name; call targets by count (descending), then name;
 *  - extbinary: magic and version 103 (ULEB128), a table of 7 section
 *    headers (type, flags, offset, size: 64-bit little-endian) in the
 *    order summary, name table, context name table, function offset
 *    table, profiles, symbol list, function metadata; the sections written
 *    in the order summary, names, context names (empty: 0), profiles,
 *    symbol list (empty), function offsets, metadata (empty).  Names are
 *    strings (no MD5), sorted; every number is ULEB128.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/pairmap.h"
#include "base/status.h"
#include "output/spwrite.h"

/* ---- shared order ---- */

static int cmp_body(const void *a, const void *b)
{
	const struct sp_body *x = *(const struct sp_body *const *)a;
	const struct sp_body *y = *(const struct sp_body *const *)b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return x->disc < y->disc ? -1 : x->disc > y->disc;
}

static int cmp_call(const void *a, const void *b)
{
	const struct sp_callsite *x = *(const struct sp_callsite *const *)a;
	const struct sp_callsite *y = *(const struct sp_callsite *const *)b;

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->disc != y->disc)
		return x->disc < y->disc ? -1 : 1;
	return strcmp(x->callee->name, y->callee->name);
}

static int cmp_target(const void *a, const void *b)
{
	const struct sp_target *x = a, *y = b;

	if (x->count != y->count)
		return x->count > y->count ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const struct sp_body **sorted_body(const struct sp_func *f)
{
	const struct sp_body **v = malloc((f->nr_body + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < f->nr_body; i++) {
		v[i] = &f->body[i];
		/* Call targets are sorted in place: the order is theirs. */
		if (f->body[i].nr_targets > 1)
			qsort(f->body[i].targets, f->body[i].nr_targets,
			      sizeof(*f->body[i].targets), cmp_target);
	}
	qsort(v, f->nr_body, sizeof(*v), cmp_body);
	return v;
}

static const struct sp_callsite **sorted_calls(const struct sp_func *f)
{
	const struct sp_callsite **v = malloc((f->nr_calls + 1) * sizeof(*v));
	size_t i;

	if (!v)
		return NULL;
	for (i = 0; i < f->nr_calls; i++)
		v[i] = &f->calls[i];
	qsort(v, f->nr_calls, sizeof(*v), cmp_call);
	return v;
}

/* ---- text ---- */

static void print_loc(FILE *out, uint32_t line, uint32_t disc)
{
	fprintf(out, "%" PRIu32, line);
	if (disc)
		fprintf(out, ".%" PRIu32, disc);
}

static int text_func(const struct sp_func *f, unsigned indent, FILE *out);

/* @f's body samples and inlined callees, at @indent. */
static int text_body(const struct sp_func *f, unsigned indent, FILE *out)
{
	const struct sp_body **body = sorted_body(f);
	const struct sp_callsite **calls = sorted_calls(f);
	size_t i, k;
	int r = BR_ESYS;

	if (!body || !calls)
		goto out;
	for (i = 0; i < f->nr_body; i++) {
		const struct sp_body *b = body[i];

		fprintf(out, "%*s", (int)indent + 1, "");
		print_loc(out, b->line, b->disc);
		fprintf(out, ": %" PRIu64, b->count);
		for (k = 0; k < b->nr_targets; k++)
			fprintf(out, " %s:%" PRIu64, b->targets[k].name,
				b->targets[k].count);
		fputc('\n', out);
	}
	for (i = 0; i < f->nr_calls; i++) {
		fprintf(out, "%*s", (int)indent + 1, "");
		print_loc(out, calls[i]->line, calls[i]->disc);
		fputs(": ", out);
		if (text_func(calls[i]->callee, indent + 1, out))
			goto out;
	}
	r = ferror(out) ? BR_ESYS : 0;
out:
	free(body);
	free(calls);
	return r;
}

static int text_func(const struct sp_func *f, unsigned indent, FILE *out)
{
	fprintf(out, "%s:%" PRIu64, f->name, f->total);
	if (!indent)
		fprintf(out, ":%" PRIu64, f->head);
	fputc('\n', out);
	return text_body(f, indent, out);
}

/* The failure of a writer: out of memory, or what errno says. */
static int write_failed(bool oom, char *err, size_t errsz)
{
	snprintf(err, errsz, "cannot write the profile: %s",
		 oom ? "out of memory" : strerror(errno ? errno : EIO));
	return BR_ESYS;
}

int sp_write_text(const struct sp_profile *p, FILE *out, char *err,
		  size_t errsz)
{
	struct sp_func **v = sp_sorted(p);
	size_t i;
	int r = 0;

	if (!v)
		return write_failed(true, err, errsz);
	errno = 0;
	for (i = 0; i < p->nr_funcs && !r; i++)
		r = text_func(v[i], 0, out);
	free(v);
	if (r || ferror(out))
		return write_failed(!ferror(out), err, errsz);
	return 0;
}

/* The context of @n: "[main:3 @ mid:2.1 @ leaf]". */
static void text_context(const struct csp_profile *p, const struct csp_node *n,
			 FILE *out)
{
	if (n->parent) {
		text_context(p, &p->nodes[n->parent], out);
		fprintf(out, ":%" PRIu32, n->line);
		if (n->disc)
			fprintf(out, ".%" PRIu32, n->disc);
		fputs(" @ ", out);
	} else {
		fputc('[', out);
	}
	fputs(n->name, out);
}

int csp_write_text(const struct csp_profile *p, FILE *out, char *err,
		   size_t errsz)
{
	size_t i, n;
	const struct csp_node **v = csp_sorted(p, &n);
	int r = 0;

	if (!v)
		return write_failed(true, err, errsz);
	errno = 0;
	for (i = 0; i < n && !r; i++) {
		text_context(p, v[i], out);
		fprintf(out, "]:%" PRIu64 ":%" PRIu64 "\n", v[i]->f->total,
			v[i]->f->head);
		r = text_body(v[i]->f, 0, out);
		if (!r && v[i]->leaf_inlined)
			fputs(" !Attributes: 1\n", out);
	}
	free(v);
	if (r || ferror(out))
		return write_failed(!ferror(out), err, errsz);
	return 0;
}

/* ---- extensible binary ---- */

struct buf {
	unsigned char *p;
	size_t len;
	size_t cap;
	bool oom;
};

static void put(struct buf *b, const void *data, size_t n)
{
	if (b->oom)
		return;
	if (br_grow_from((void **)&b->p, &b->cap, b->len + n, 1, 4096)) {
		b->oom = true;
		return;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
}

static void uleb(struct buf *b, uint64_t v)
{
	unsigned char c[10];
	size_t n = 0;

	do {
		c[n] = v & 0x7f;
		v >>= 7;
		if (v)
			c[n] |= 0x80;
		n++;
	} while (v);
	put(b, c, n);
}

static void u64le(struct buf *b, uint64_t v)
{
	unsigned char c[8];
	int i;

	for (i = 0; i < 8; i++)
		c[i] = (unsigned char)(v >> (8 * i));
	put(b, c, 8);
}

/* The name table: every name, sorted; name -> index + 1 (base/pairmap). */
struct ntab {
	const char **v;
	size_t nr, cap;
	struct pairmap idx;
};

static int ntab_add(struct ntab *t, const char *name)
{
	uint64_t *slot = pairmap_ref(&t->idx, (uintptr_t)name, 0);

	if (!slot)
		return BR_ESYS;
	if (*slot)
		return 0;
	if (br_grow((void **)&t->v, &t->cap, t->nr + 1, sizeof(*t->v))) {
		*slot = 0;
		return BR_ESYS;
	}
	t->v[t->nr] = name;
	*slot = ++t->nr;
	return 0;
}

static uint32_t ntab_index(const struct ntab *t, const char *name)
{
	/* Every name was added. */
	return (uint32_t)(pairmap_get(&t->idx, (uintptr_t)name, 0) - 1);
}

static int ntab_names(struct ntab *t, const struct sp_func *f)
{
	size_t i, k;

	for (i = 0; i < f->nr_body; i++)
		for (k = 0; k < f->body[i].nr_targets; k++)
			if (ntab_add(t, f->body[i].targets[k].name))
				return BR_ESYS;
	for (i = 0; i < f->nr_calls; i++)
		if (ntab_add(t, f->calls[i].callee->name) ||
		    ntab_names(t, f->calls[i].callee))
			return BR_ESYS;
	return 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Sort the names; their pointers keep their slots, so no insertion. */
static void ntab_sort(struct ntab *t)
{
	size_t i;

	if (!t->nr)
		return;
	qsort(t->v, t->nr, sizeof(*t->v), cmp_str);
	for (i = 0; i < t->nr; i++)
		*pairmap_ref(&t->idx, (uintptr_t)t->v[i], 0) = i + 1;
}

/* The profile summary (llvm's ProfileSummaryBuilder for samples). */
struct summary {
	uint64_t total, max, max_func, nr_counts, nr_funcs;
	uint64_t *counts;
	size_t nr, cap;
	bool oom;
};

static void sum_count(struct summary *s, uint64_t c)
{
	s->total += c;
	if (c > s->max)
		s->max = c;
	s->nr_counts++;
	if (br_grow((void **)&s->counts, &s->cap, s->nr + 1,
		    sizeof(*s->counts))) {
		s->oom = true;
		return;
	}
	s->counts[s->nr++] = c;
}

static void sum_record(struct summary *s, const struct sp_func *f, bool top)
{
	size_t i;

	if (top) {
		s->nr_funcs++;
		if (f->head > s->max_func)
			s->max_func = f->head;
	}
	for (i = 0; i < f->nr_body; i++)
		sum_count(s, f->body[i].count);
	for (i = 0; i < f->nr_calls; i++)
		sum_record(s, f->calls[i].callee, false);
}

static int cmp_desc(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x > y ? -1 : x < y;
}

static const uint32_t cutoffs[] = {
	10000, 100000, 200000, 300000, 400000, 500000, 600000, 700000,
	800000, 900000, 950000, 990000, 999000, 999900, 999990, 999999,
};

static void write_summary(struct buf *b, struct summary *s)
{
	size_t i, at = 0;
	uint64_t sum = 0, count = 0, seen = 0;
	size_t nc = sizeof(cutoffs) / sizeof(cutoffs[0]);

	if (s->nr > 1)
		qsort(s->counts, s->nr, sizeof(*s->counts), cmp_desc);
	uleb(b, s->total);
	uleb(b, s->max);
	uleb(b, s->max_func);
	uleb(b, s->nr_counts);
	uleb(b, s->nr_funcs);
	uleb(b, nc);
	for (i = 0; i < nc; i++) {
		uint64_t want = (uint64_t)((unsigned __int128)s->total *
					   cutoffs[i] / 1000000);

		/* All the counts of one value are taken together. */
		while (sum < want && at < s->nr) {
			count = s->counts[at];
			while (at < s->nr && s->counts[at] == count) {
				sum += count;
				seen++;
				at++;
			}
		}
		uleb(b, cutoffs[i]);
		uleb(b, count);
		uleb(b, seen);
	}
}

static void write_body(struct buf *b, const struct ntab *t,
		       const struct sp_func *f)
{
	const struct sp_body **body = sorted_body(f);
	const struct sp_callsite **calls = sorted_calls(f);
	size_t i, k;

	if (!body || !calls) {
		b->oom = true;
		goto out;
	}
	uleb(b, ntab_index(t, f->name));
	uleb(b, f->total);
	uleb(b, f->nr_body);
	for (i = 0; i < f->nr_body; i++) {
		uleb(b, body[i]->line);
		uleb(b, body[i]->disc);
		uleb(b, body[i]->count);
		uleb(b, body[i]->nr_targets);
		for (k = 0; k < body[i]->nr_targets; k++) {
			uleb(b, ntab_index(t, body[i]->targets[k].name));
			uleb(b, body[i]->targets[k].count);
		}
	}
	uleb(b, f->nr_calls);
	for (i = 0; i < f->nr_calls; i++) {
		uleb(b, calls[i]->line);
		uleb(b, calls[i]->disc);
		write_body(b, t, calls[i]->callee);
	}
out:
	free(body);
	free(calls);
}

enum {
	SEC_SUMMARY = 1,
	SEC_NAMES = 2,
	SEC_SYMBOLS = 3,
	SEC_OFFSETS = 4,
	SEC_METADATA = 5,
	SEC_CS_NAMES = 6,
	SEC_PROFILES = 0x20,
};

/* Section-specific flags live in the upper 32 bits of the flags word. */
#define FLAG_NAMES_UNIQ_SUFFIX (4ull << 32)
#define FLAG_SUMMARY_FS (4ull << 32)

/* The header table's order (the readers'). */
static const uint64_t layout[7] = {
	SEC_SUMMARY, SEC_NAMES, SEC_CS_NAMES, SEC_OFFSETS,
	SEC_PROFILES, SEC_SYMBOLS, SEC_METADATA,
};

/* The sections' offsets, sizes and flags, in the order of layout[]. */
struct sections {
	uint64_t off[7], size[7], flags[7];
};

/* The name table section: every name once, sorted.  0 or BR_ESYS. */
static int write_names(struct buf *b, struct ntab *t,
		       const struct sp_profile *p, struct sections *sec)
{
	size_t i, start;

	for (i = 0; i < p->nr_funcs; i++)
		if (ntab_add(t, p->funcs[i]->name) ||
		    ntab_names(t, p->funcs[i]))
			return BR_ESYS;
	ntab_sort(t);
	start = b->len;
	uleb(b, t->nr);
	for (i = 0; i < t->nr; i++) {
		put(b, t->v[i], strlen(t->v[i]) + 1);
		if (strstr(t->v[i], ".__uniq."))
			sec->flags[1] |= FLAG_NAMES_UNIQ_SUFFIX;
	}
	sec->off[1] = start;
	sec->size[1] = b->len - start;
	return 0;
}

/*
 * The profiles (@v: by total samples), the empty symbol list, and the
 * function offsets in the order written.  0 or BR_ESYS.
 */
static int write_profiles(struct buf *b, const struct ntab *t,
			  struct sp_func *const *v, size_t nr,
			  struct sections *sec)
{
	uint64_t *foff = malloc((nr + 1) * sizeof(*foff));
	size_t i, start;

	if (!foff)
		return BR_ESYS;
	start = b->len;
	for (i = 0; i < nr; i++) {
		foff[i] = b->len - start;
		uleb(b, v[i]->head);
		write_body(b, t, v[i]);
	}
	sec->off[4] = start;
	sec->size[4] = b->len - start;
	sec->off[5] = b->len;		/* symbol list: empty */
	start = b->len;
	uleb(b, nr);
	for (i = 0; i < nr; i++) {
		uleb(b, ntab_index(t, v[i]->name));
		uleb(b, foff[i]);
	}
	sec->off[3] = start;
	sec->size[3] = b->len - start;
	free(foff);
	return 0;
}

/* The header table at @hdr: type, flags, offset, size per section. */
static void patch_header(struct buf *b, size_t hdr, const struct sections *sec)
{
	size_t i, k, j;

	for (i = 0; i < 7; i++) {
		unsigned char *h = b->p + hdr + i * 32;
		uint64_t f[4] = {
			layout[i], sec->flags[i], sec->off[i], sec->size[i],
		};

		for (k = 0; k < 4; k++)
			for (j = 0; j < 8; j++)
				h[k * 8 + j] = (unsigned char)(f[k] >> (8 * j));
	}
}

int sp_write_extbinary(const struct sp_profile *p, FILE *out, char *err,
		       size_t errsz)
{
	struct sections sec = { { 0 }, { 0 }, { 0 } };
	struct buf b = { 0 };
	struct ntab t = { 0 };
	struct summary s = { 0 };
	struct sp_func **v = sp_sorted(p);
	size_t i, hdr, start;
	int r = BR_ESYS;
	bool oom = true;

	if (!v)
		return write_failed(true, err, errsz);
	/* Header: magic "SPROF42" + format 4, version 103. */
	uleb(&b, 0x5350524f46343204ull);
	uleb(&b, 103);
	u64le(&b, 7);
	hdr = b.len;
	for (i = 0; i < 7 * 4; i++)
		u64le(&b, 0);

	/* Summary. */
	start = b.len;
	for (i = 0; i < p->nr_funcs; i++)
		sum_record(&s, p->funcs[i], true);
	if (s.oom)
		goto out;
	write_summary(&b, &s);
	sec.off[0] = start;
	sec.size[0] = b.len - start;
	if (p->fs_discriminators)
		sec.flags[0] |= FLAG_SUMMARY_FS;

	if (write_names(&b, &t, p, &sec))
		goto out;
	/* Context names: none. */
	sec.off[2] = b.len;
	uleb(&b, 0);
	sec.size[2] = 1;
	if (write_profiles(&b, &t, v, p->nr_funcs, &sec))
		goto out;
	/* Function metadata: empty. */
	sec.off[6] = b.len;
	if (b.oom)
		goto out;
	patch_header(&b, hdr, &sec);
	oom = false;
	errno = 0;
	if (fwrite(b.p, 1, b.len, out) != b.len || ferror(out))
		goto out;
	r = 0;
out:
	free(b.p);
	free(t.v);
	pairmap_free(&t.idx);
	free(s.counts);
	free(v);
	return r ? write_failed(oom, err, errsz) : 0;
}
