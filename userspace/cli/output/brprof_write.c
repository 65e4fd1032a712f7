// SPDX-License-Identifier: GPL-2.0
/* Writing .brprof profiles: a collector's, and the merge of several. */
#define _GNU_SOURCE

#include "output/brprof_write.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/grow.h"
#include "base/pages.h"
#include "base/status.h"
#include "input/input.h"

static inline uint64_t ld64(const uint8_t *p)
{
	return ev_u64le(p);
}

/*
 * The profile being written: to a temporary file beside the output (then
 * renamed over it) in pieces of OBUF_FLUSH bytes, so that writing needs
 * little memory however large the profile; from memory to stdout, or to an
 * output that exists and is not a regular file (a device, a FIFO: written
 * in place, never replaced).
 * Offsets are of the whole file; a patch of bytes already written goes to
 * the file.  The checksums are computed from the file at the end.
 */
#define OBUF_FLUSH ((size_t)4 << 20)

struct obuf {
	uint8_t *p;
	size_t len, cap;
	uint64_t flushed;	/* file bytes before p[0] */
	int fd;			/* -1: all in memory (to @out) */
	FILE *out;		/* in memory: where to (NULL: stdout) */
	char *tmp;		/* the temporary file */
	bool oom;
	bool io;		/* a write failed (errno in @err_no) */
	int err_no;
};

static uint64_t at_end(const struct obuf *b)
{
	return b->flushed + b->len;
}

static void flush_buf(struct obuf *b)
{
	size_t done = 0;

	while (done < b->len && !b->io) {
		ssize_t n = write(b->fd, b->p + done, b->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			b->io = true;
			b->err_no = n < 0 ? errno : EIO;
			break;
		}
		done += (size_t)n;
	}
	b->flushed += b->len;
	b->len = 0;
}

static uint8_t *room(struct obuf *b, size_t n)
{
	if (b->oom || b->io)
		return NULL;
	if (b->fd >= 0 && b->len + n > OBUF_FLUSH)
		flush_buf(b);
	if (br_grow_from((void **)&b->p, &b->cap, b->len + n, 1, 65536)) {
		b->oom = true;
		return NULL;
	}
	b->len += n;
	return b->p + b->len - n;
}

static void put64(struct obuf *b, uint64_t v)
{
	uint8_t *p = room(b, 8);

	v = htole64(v);
	if (p)
		memcpy(p, &v, 8);
}

static void put32(struct obuf *b, uint32_t v)
{
	uint8_t *p = room(b, 4);

	v = htole32(v);
	if (p)
		memcpy(p, &v, 4);
}

static void put_bytes(struct obuf *b, const void *s, size_t n)
{
	uint8_t *p = room(b, n);

	if (p)
		memcpy(p, s, n);
}

static void pad8(struct obuf *b)
{
	size_t n = (8 - at_end(b) % 8) % 8;
	uint8_t *p = room(b, n);

	if (p)
		memset(p, 0, n);
}

static void patch(struct obuf *b, uint64_t at, const void *v, size_t n)
{
	if (b->oom || b->io)
		return;
	if (at >= b->flushed) {
		memcpy(b->p + (at - b->flushed), v, n);
	} else if (pwrite(b->fd, v, n, (off_t)at) != (ssize_t)n) {
		b->io = true;
		b->err_no = errno;
	}
}

static void patch64(struct obuf *b, uint64_t at, uint64_t v)
{
	v = htole64(v);
	patch(b, at, &v, 8);
}

static void patch32(struct obuf *b, uint64_t at, uint32_t v)
{
	v = htole32(v);
	patch(b, at, &v, 4);
}

static void header(struct obuf *b, uint32_t nr_dsos, uint32_t flags)
{
	uint8_t *p = room(b, BRPROF_HEADER);

	if (!p)
		return;
	memset(p, 0, BRPROF_HEADER);
	memcpy(p, BRPROF_MAGIC, 8);
	patch32(b, 8, BRPROF_VERSION);
	patch32(b, 12, BRPROF_HEADER);
	patch32(b, 32, nr_dsos);
	patch32(b, 36, flags);
}

/* Start writing @path ("-": stdout, from memory). */
static int obuf_open(struct obuf *b, const char *path, char *err,
		     size_t errsz)
{
	struct stat st;

	memset(b, 0, sizeof(*b));
	b->fd = -1;
	if (!strcmp(path, "-"))
		return 0;
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		b->out = fopen(path, "w");
		if (!b->out) {
			snprintf(err, errsz, "%s: %s", path, strerror(errno));
			return BR_ESYS;
		}
		return 0;
	}
	if (asprintf(&b->tmp, "%s.XXXXXX", path) < 0) {
		b->tmp = NULL;
		snprintf(err, errsz, "%s: out of memory", path);
		return BR_ESYS;
	}
	b->fd = mkstemp(b->tmp);
	if (b->fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(b->tmp);
		b->tmp = NULL;
		return BR_ESYS;
	}
	return 0;
}

static void obuf_abort(struct obuf *b)
{
	if (b->fd >= 0) {
		close(b->fd);
		unlink(b->tmp);
	}
	if (b->out)
		fclose(b->out);
	free(b->tmp);
	free(b->p);
	memset(b, 0, sizeof(*b));
	b->fd = -1;
}

/*
 * Finish: sizes and checksums, then the file renamed to @path (or the
 * bytes to stdout or the device).  0 or BR_ESYS with a message; frees @b
 * either way.
 * *@bytes: the profile's size.
 */
static int obuf_close(struct obuf *b, const char *path, size_t *bytes,
		      char *err, size_t errsz)
{
	uint8_t hdr[BRPROF_HEADER];
	uint64_t len = at_end(b), v;
	const uint8_t *m = b->p;
	void *map = NULL;

	if (b->oom) {
		snprintf(err, errsz, "%s: out of memory", path);
		obuf_abort(b);
		return BR_ESYS;
	}
	if (b->fd >= 0) {
		flush_buf(b);
		if (!b->io) {
			map = mmap(NULL, len, PROT_READ, MAP_SHARED, b->fd, 0);
			if (map == MAP_FAILED) {
				b->io = true;
				b->err_no = errno;
				map = NULL;
			}
			m = map;
		}
	}
	if (!b->io) {
		memcpy(hdr, m, BRPROF_HEADER);
		v = htole64(len - BRPROF_HEADER);
		memcpy(hdr + 16, &v, 8);
		v = htole64(brprof_hash_mapped(m + BRPROF_HEADER,
						len - BRPROF_HEADER,
						map != NULL));
		memcpy(hdr + 24, &v, 8);
		v = htole64(brprof_hash(hdr, 56));
		memcpy(hdr + 56, &v, 8);
		if (map)
			munmap(map, len);
		if (b->fd < 0) {
			FILE *f = b->out ? b->out : stdout;

			memcpy(b->p, hdr, BRPROF_HEADER);
			if (fwrite(b->p, 1, len, f) != len || fflush(f)) {
				b->io = true;
				b->err_no = errno;
			}
		} else if (pwrite(b->fd, hdr, BRPROF_HEADER, 0) !=
			   BRPROF_HEADER) {
			b->io = true;
			b->err_no = errno;
		}
	}
	if (!b->io && b->fd >= 0) {
		mode_t um = umask(0);

		umask(um);
		(void)fchmod(b->fd, 0666 & ~um);
		if (close(b->fd) || rename(b->tmp, path)) {
			b->io = true;
			b->err_no = errno;
			unlink(b->tmp);
		}
		b->fd = -1;
	}
	if (b->io) {
		snprintf(err, errsz, "%s: cannot write the profile: %s", path,
			 strerror(b->err_no));
		obuf_abort(b);
		return BR_ESYS;
	}
	if (b->out && fclose(b->out)) {
		b->out = NULL;
		snprintf(err, errsz, "%s: cannot write the profile: %s", path,
			 strerror(errno));
		obuf_abort(b);
		return BR_ESYS;
	}
	*bytes = len;
	free(b->tmp);
	free(b->p);
	return 0;
}

/* ---- writing a collector ------------------------------------------------------ */

static int cmp_u64x3(const void *x, const void *y)
{
	const uint64_t *a = x, *b = y;
	int i;

	for (i = 0; i < 3; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

static void put_blocks(struct obuf *b, const struct blockrange_agg *agg,
		       uint64_t *nr)
{
	size_t n = agg ? blockrange_agg_nr_blocks(agg) : 0, pos = 0, i = 0;
	uint64_t *v = malloc((n ? n : 1) * 4 * sizeof(*v));
	struct blockrange_block blk;

	if (!v) {
		b->oom = true;
		return;
	}
	while (agg && blockrange_agg_next(agg, &pos, &blk)) {
		v[4 * i] = blk.start;
		v[4 * i + 1] = blk.end;
		v[4 * i + 2] = (uint64_t)blk.pred;
		v[4 * i + 3] = blk.count;
		i++;
	}
	/* blocks differ in (start, end, pred): the count never decides */
	qsort(v, i, 4 * sizeof(*v), cmp_u64x3);
	for (n = 0; n < 4 * i; n++)
		put64(b, v[n]);
	*nr = i;
	free(v);
}

/* Sorted slots of @pm, with @extra's count for the same key. */
static void put_pairs(struct obuf *b, const struct pairmap *pm,
		      const struct pairmap *extra, bool one_key,
		      uint64_t *nr)
{
	struct pairmap_slot *v = pairmap_sorted(pm);
	size_t i;

	if (!v) {
		b->oom = true;
		return;
	}
	for (i = 0; i < pm->nr; i++) {
		put64(b, v[i].a);
		if (!one_key)
			put64(b, v[i].b);
		put64(b, v[i].count);
		if (extra)
			put64(b, pairmap_get(extra, v[i].a, v[i].b));
	}
	*nr = pm->nr;
	free(v);
}

/* BOLT traces: the union of both maps' keys, both counts. */
static void put_traces(struct obuf *b, const struct bolt_dso *bd,
		       uint64_t *nr)
{
	struct pairmap_slot *x = pairmap_sorted(&bd->ft);
	struct pairmap_slot *y = pairmap_sorted(&bd->ft_ext);
	size_t i = 0, j = 0, n = 0;

	if (!x || !y) {
		free(x);
		free(y);
		b->oom = true;
		return;
	}
	while (i < bd->ft.nr || j < bd->ft_ext.nr) {
		int c;

		if (i == bd->ft.nr)
			c = 1;
		else if (j == bd->ft_ext.nr)
			c = -1;
		else
			c = x[i].a != y[j].a ? (x[i].a < y[j].a ? -1 : 1) :
			    x[i].b != y[j].b ? (x[i].b < y[j].b ? -1 : 1) : 0;
		put64(b, c <= 0 ? x[i].a : y[j].a);
		put64(b, c <= 0 ? x[i].b : y[j].b);
		put64(b, c <= 0 ? x[i].count : 0);
		put64(b, c >= 0 ? y[j].count : 0);
		i += c <= 0;
		j += c >= 0;
		n++;
	}
	*nr = n;
	free(x);
	free(y);
}

static void put_stats(struct obuf *b, const uint64_t *st, const char *event,
		      size_t ev_len)
{
	int k;

	put32(b, BRPROF_NR_STATS);
	put32(b, (uint32_t)ev_len);
	for (k = 0; k < BRPROF_NR_STATS; k++)
		put64(b, st[k]);
	put_bytes(b, event, ev_len);
	pad8(b);
}

static void stats_of(const struct annot *a, uint64_t *st)
{
	const struct resolver_stats *s = &a->s.st;
	int k;

	st[0] = s->samples;
	st[1] = s->brstack_samples;
	st[2] = s->entries;
	st[3] = s->blocks;
	st[4] = s->counted;
	for (k = 0; k < SKIP_NR; k++)
		st[5 + k] = s->skipped[k];
	st[5 + SKIP_NR] = s->ips_kernel;
	st[6 + SKIP_NR] = a->total;
}

_Static_assert(7 + SKIP_NR == BRPROF_NR_STATS, "the statistics of a profile");

/* A DSO entry's fixed part; returns where its counts go. */
static uint64_t put_dso_head(struct obuf *b, const char *path, size_t path_len,
			   const uint8_t *id, unsigned id_size, unsigned flags,
			   uint64_t text_base, uint64_t samples,
			   uint64_t prof_samples)
{
	uint8_t bid[BR_BUILD_ID_MAX] = { 0 };
	uint64_t at;
	int s;

	memcpy(bid, id, id_size);
	put32(b, (uint32_t)path_len);
	put_bytes(b, (uint8_t[4]){ (uint8_t)id_size, (uint8_t)flags, 0, 0 }, 4);
	put_bytes(b, bid, BR_BUILD_ID_MAX);
	put32(b, 0);
	put64(b, text_base);
	put64(b, samples);
	put64(b, prof_samples);
	at = at_end(b);
	for (s = 0; s < BRP_NR_SECTIONS; s++)
		put64(b, 0);
	put_bytes(b, path, path_len);
	pad8(b);
	return at;
}

int brprof_write(const struct annot *a, const char *path, size_t *bytes,
		 char *err, size_t errsz)
{
	struct obuf b;
	uint64_t st[BRPROF_NR_STATS];
	uint32_t nr = 0;
	size_t i;
	int r;

	r = obuf_open(&b, path, err, errsz);
	if (r)
		return r;
	for (i = 0; i < a->nr_per; i++) {
		const struct annot_dso *ad = a->per[i];

		nr += ad && (ad->has_blocks || ad->has_prof || ad->has_bolt);
	}
	header(&b, nr, (a->s.mixed_events ? BRPROF_MIXED : 0) |
		  (a->s.exact ? BRPROF_EXACT : 0));
	stats_of(a, st);
	put_stats(&b, st, a->s.event ? a->s.event : "",
		  a->s.event ? strlen(a->s.event) : 0);
	for (i = 0; i < a->nr_per; i++) {
		const struct annot_dso *ad = a->per[i];
		const struct dso *d;
		uint64_t n[BRP_NR_SECTIONS] = { 0 };
		unsigned flags;
		uint64_t at;
		int s;

		if (!ad || !(ad->has_blocks || ad->has_prof || ad->has_bolt))
			continue;
		d = ad->dso;
		flags = (d->kernel ? BRPROF_DSO_KERNEL : 0) |
			(ad->has_blocks ? BRPROF_DSO_BLOCKS : 0) |
			(ad->has_prof ? BRPROF_DSO_PROF : 0) |
			(ad->has_bolt ? BRPROF_DSO_BOLT : 0);
		at = put_dso_head(&b, d->path, strlen(d->path), d->build_id,
				  d->build_id_size, flags,
				  d->state == DSO_READY ? d->bin.text_base : 0,
				  ad->samples, ad->prof.samples);
		put_blocks(&b, ad->has_blocks ? ad->agg : NULL, &n[BRP_BLOCKS]);
		put_pairs(&b, &ad->ips, NULL, true, &n[BRP_IPS]);
		put_pairs(&b, &ad->edges, &ad->edges_miss, false,
			  &n[BRP_EDGES]);
		put_pairs(&b, &ad->prof.ranges, NULL, false, &n[BRP_RANGES]);
		put_pairs(&b, &ad->prof.branches, NULL, false,
			  &n[BRP_BRANCHES]);
		put_pairs(&b, &ad->bolt.br, &ad->bolt.br_miss, false,
			  &n[BRP_BOLT_BR]);
		put_traces(&b, &ad->bolt, &n[BRP_BOLT_FT]);
		for (s = 0; s < BRP_NR_SECTIONS; s++)
			patch64(&b, at + 8 * s, n[s]);
	}
	return obuf_close(&b, path, bytes, err, errsz);
}

/* ---- merging --------------------------------------------------------------------- */

struct ref {
	const struct brprof_dso *d;
};

static int cmp_ref(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;

	return brprof_dso_cmp(a->d, b->d);
}

/* The path a merged DSO keeps: the least of its inputs' (by bytes). */
static bool path_less(const struct brprof_dso *a, const struct brprof_dso *b)
{
	size_t n = a->path_len < b->path_len ? a->path_len : b->path_len;
	int c = memcmp(a->path, b->path, n);

	return c < 0 || (!c && a->path_len < b->path_len);
}

/*
 * Section @s of @g DSO entries merged into @b: a k-way merge of sorted
 * records, values of equal keys added.  Returns the records written, or
 * BR_EINPUT when a sum passes 2^64 - 1.
 */
static int64_t merge_section(struct obuf *b, struct ref *g, size_t n,
			     enum brprof_section s, uint64_t *cur)
{
	unsigned f = brprof_fields[s], k = brprof_keys[s], i;
	uint64_t out = 0;
	size_t x;

	for (x = 0; x < n; x++)
		cur[x] = 0;
	for (;;) {
		const uint8_t *min = NULL;
		uint64_t sum[4] = { 0 };
		uint8_t *o;

		for (x = 0; x < n; x++) {
			const uint8_t *r;

			if (cur[x] >= g[x].d->nr[s])
				continue;
			r = g[x].d->sec[s] + 8 * f * cur[x];
			if (!min || brprof_key_cmp(r, min, s) < 0)
				min = r;
		}
		if (!min)
			return (int64_t)out;
		o = room(b, 8 * f);
		if (!o)
			return (int64_t)out;
		memcpy(o, min, 8 * k);
		for (x = 0; x < n; x++) {
			const uint8_t *r;

			if (cur[x] >= g[x].d->nr[s])
				continue;
			r = g[x].d->sec[s] + 8 * f * cur[x];
			if (brprof_key_cmp(r, min, s))
				continue;
			for (i = k; i < f; i++) {
				uint64_t v = ld64(r + 8 * i);

				if (sum[i - k] > UINT64_MAX - v)
					return BR_EINPUT;
				sum[i - k] += v;
			}
			cur[x]++;
		}
		for (i = k; i < f; i++) {
			uint64_t v = htole64(sum[i - k]);

			memcpy(o + 8 * i, &v, 8);
		}
		/* the records merged so far leave the process (mappings) */
		if (!(++out & 0xffff))
			for (x = 0; x < n; x++)
				br_drop_pages(g[x].d->sec[s],
					      g[x].d->sec[s] + 8 * f * cur[x]);
	}
}

/* The pages of a merged DSO entry leave the process (mapped inputs). */
static void drop_entry(const struct brprof_dso *d)
{
	int s = BRP_NR_SECTIONS - 1;

	br_drop_pages(d->path, d->sec[s] + 8 * brprof_fields[s] * d->nr[s]);
}

static uint64_t sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* The inputs mapped and checked; *@nr: their DSO entries in all. */
static int merge_open(const char *const *in, size_t n, struct brprof_file *m,
		      struct brprof *p, size_t *nr, char *err, size_t errsz)
{
	size_t i;
	int r = 0;

	*nr = 0;
	for (i = 0; i < n && !r; i++) {
		const char *name = input_name(in[i]);

		r = brprof_map(in[i], name, &m[i], err, errsz);
		if (!r)
			r = brprof_parse(m[i].p, m[i].len, name, &p[i],
					 m[i].mapped, err, errsz);
		*nr += p[i].nr_dsos;
	}
	return r;
}

/* Is event name @a (@na bytes) before @b (@nb) in byte order? */
static bool name_less(const char *a, size_t na, const char *b, size_t nb)
{
	int c = memcmp(a, b, na < nb ? na : nb);

	return c < 0 || (!c && na < nb);
}

/*
 * The statistics add (saturating, as one resolver's do; the samples
 * annotate counted exactly), the event is the least non-empty name,
 * mixed if they differ.  Exact only if every input is: a sum with samples
 * is not.
 */
static int merge_stats(const char *const *in, const struct brprof *p,
		       size_t n, uint64_t *st, const char **event,
		       size_t *ev_len, uint32_t *flags, char *err,
		       size_t errsz)
{
	uint32_t all = n ? BRPROF_EXACT : 0;
	size_t i;
	int k;

	for (i = 0; i < n; i++) {
		all &= p[i].flags;
		for (k = 0; k < BRPROF_NR_STATS - 1; k++)
			st[k] = sat(st[k], p[i].stats[k]);
		k = BRPROF_NR_STATS - 1;
		if (st[k] > UINT64_MAX - p[i].stats[k]) {
			snprintf(err, errsz, "%s: expected sample counts whose sum fits in 64 bits, got a sum that overflows",
				 in[i]);
			return BR_EINPUT;
		}
		st[k] += p[i].stats[k];
		*flags |= p[i].flags & ~BRPROF_EXACT;
		if (!p[i].event_len)
			continue;
		if (*event && (*ev_len != p[i].event_len ||
			       memcmp(*event, p[i].event, *ev_len)))
			*flags |= BRPROF_MIXED;
		if (!*event ||
		    name_less(p[i].event, p[i].event_len, *event, *ev_len)) {
			*event = p[i].event;
			*ev_len = p[i].event_len;
		}
	}
	*flags |= all & BRPROF_EXACT;
	return BR_OK;
}

/* The @nr DSO entries of all inputs, sorted by identity; *@groups: DSOs. */
static struct ref *merge_refs(const struct brprof *p, size_t n, size_t nr,
			      size_t *groups)
{
	struct ref *refs = calloc(nr ? nr : 1, sizeof(*refs));
	size_t i, j;

	*groups = 0;
	if (!refs)
		return NULL;
	nr = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < p[i].nr_dsos; j++)
			refs[nr++].d = &p[i].dsos[j];
	qsort(refs, nr, sizeof(*refs), cmp_ref);
	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && !cmp_ref(&refs[i], &refs[j]); j++)
			;
		(*groups)++;
	}
	return refs;
}

/*
 * @n bytes of a recorded path for a message: printable ASCII as it is,
 * any other byte as \xHH, cut with "..." past @dsz.
 */
static void path_text(char *d, size_t dsz, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	size_t o = 0, i;

	for (i = 0; i < n && o + 8 < dsz; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c >= 0x20 && c < 0x7f && c != '\\') {
			d[o++] = (char)c;
			continue;
		}
		d[o++] = '\\';
		d[o++] = 'x';
		d[o++] = hex[c >> 4];
		d[o++] = hex[c & 15];
	}
	if (i < n)
		o += (size_t)snprintf(d + o, dsz - o, "...");
	d[o] = '\0';
}

/*
 * One DSO of the output from its @ng entries @g (one per input that has
 * it): the least path, the least text base, every flag, the sums.
 */
static int merge_group(struct obuf *b, struct ref *g, size_t ng,
		       uint64_t *cur, char *err, size_t errsz)
{
	const struct brprof_dso *path = g[0].d;
	uint64_t base = g[0].d->text_base, smp = 0, psmp = 0, at;
	unsigned fl = 0;
	size_t x;
	int s, r = 0;

	for (x = 0; x < ng; x++) {
		const struct brprof_dso *d = g[x].d;

		if (path_less(d, path))
			path = d;
		if (d->text_base < base)
			base = d->text_base;
		fl |= d->flags;
		if (smp > UINT64_MAX - d->samples ||
		    psmp > UINT64_MAX - d->prof_samples)
			r = BR_EINPUT;
		smp += d->samples;
		psmp += d->prof_samples;
	}
	at = put_dso_head(b, path->path, path->path_len, g[0].d->build_id,
			  g[0].d->build_id_size, fl, base, smp, psmp);
	for (s = 0; s < BRP_NR_SECTIONS && !r; s++) {
		int64_t w = merge_section(b, g, ng, (enum brprof_section)s, cur);

		if (w < 0)
			r = BR_EINPUT;
		else
			patch64(b, at + 8 * s, (uint64_t)w);
	}
	if (r) {
		char text[1024];

		path_text(text, sizeof(text), path->path, path->path_len);
		snprintf(err, errsz, "%s: expected counts whose sums fit in 64 bits, got sums that overflow",
			 text);
	}
	/* these entries are done with: their pages may go */
	for (x = 0; x < ng; x++)
		drop_entry(g[x].d);
	return r;
}

/* The merged profile of the checked inputs @p[0..n), to @out. */
static int merge_write(const char *const *in, struct brprof *p, size_t n,
		       size_t nr, const char *out, size_t *bytes, char *err,
		       size_t errsz)
{
	uint64_t st[BRPROF_NR_STATS] = { 0 }, *cur = NULL;
	const char *event = NULL;
	size_t ev_len = 0, groups, i, j;
	uint32_t flags = 0;
	struct ref *refs = NULL;
	struct obuf b;
	int r = merge_stats(in, p, n, st, &event, &ev_len, &flags, err, errsz);

	if (r)
		return r;
	refs = merge_refs(p, n, nr, &groups);
	cur = calloc(n ? n : 1, sizeof(*cur));
	if (!refs || !cur) {
		snprintf(err, errsz, "out of memory");
		r = BR_ESYS;
	}
	if (!r)
		r = obuf_open(&b, out, err, errsz);
	if (!r) {
		header(&b, (uint32_t)groups, flags);
		put_stats(&b, st, event ? event : "", ev_len);
		for (i = 0; i < nr && !r; i = j) {
			for (j = i + 1; j < nr && !cmp_ref(&refs[i], &refs[j]);
			     j++)
				;
			r = merge_group(&b, refs + i, j - i, cur, err, errsz);
		}
		if (r)
			obuf_abort(&b);
		else
			r = obuf_close(&b, out, bytes, err, errsz);
	}
	free(refs);
	free(cur);
	return r;
}

int brprof_merge(const char *const *in, size_t n, const char *out,
		 size_t *bytes, char *err, size_t errsz)
{
	struct brprof_file *m = calloc(n ? n : 1, sizeof(*m));
	struct brprof *p = calloc(n ? n : 1, sizeof(*p));
	size_t nr, i;
	int r;

	*bytes = 0;
	if (!m || !p) {
		snprintf(err, errsz, "out of memory");
		r = BR_ESYS;
	} else {
		r = merge_open(in, n, m, p, &nr, err, errsz);
		if (!r)
			r = merge_write(in, p, n, nr, out, bytes, err, errsz);
	}
	for (i = 0; i < n; i++) {
		if (p)
			brprof_free(&p[i]);
		if (m)
			brprof_unmap(&m[i]);
	}
	free(p);
	free(m);
	return r;
}
