// SPDX-License-Identifier: GPL-2.0
/* The .brprof format: checksum, checks, and the reader.  See brprof.h. */
#define _GNU_SOURCE

#include "input/brprof.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/pages.h"
#include "base/status.h"
#include "common/hash.h"

const unsigned brprof_fields[BRP_NR_SECTIONS] = { 4, 2, 4, 3, 3, 4, 4 };
const unsigned brprof_keys[BRP_NR_SECTIONS] = { 3, 1, 2, 2, 2, 2, 2 };

static const char *const sec_names[BRP_NR_SECTIONS] = {
	"block", "sample IP", "branch", "range", "llvm-profgen branch",
	"BOLT branch", "BOLT trace",
};

#define DSO_HDR 112	/* bytes of a DSO entry before its path */

/* ---- the checksum ----------------------------------------------------------- */

/* K1 is the one hash constant; the checksum is the format's, see brprof.h. */
#define K1 BR_HASH_K
#define K2 0xbf58476d1ce4e5b9ull
#define K3 0x94d049bb133111ebull

static inline uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t ld64(const uint8_t *p)
{
	return ev_u64le(p);
}

static inline uint32_t ld32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return le32toh(v);
}

static inline uint64_t mix(uint64_t h)
{
	h ^= h >> 31;
	h *= K2;
	h ^= h >> 29;
	h *= K3;
	h ^= h >> 32;
	return h;
}

/*
 * Four lanes of multiply-rotate over 32-byte stripes, then the rest word
 * by word and byte by byte, then an avalanche: every input bit reaches
 * every output bit, and a stripe costs four independent multiplies.
 */
static void hash_stripes(uint64_t v[4], const uint8_t *p, size_t n)
{
	const uint8_t *e = p + n;

	while (e - p >= 32) {
		for (int i = 0; i < 4; i++)
			v[i] = rotl(v[i] + ld64(p + 8 * i) * K2, 29) * K1;
		p += 32;
	}
}

/* The end of a hash: @p .. @e are the last (fewer than 32) bytes. */
static uint64_t hash_final(const uint64_t v[4], const uint8_t *p,
			   const uint8_t *e, size_t n)
{
	uint64_t h = rotl(v[0], 1) + rotl(v[1], 9) + rotl(v[2], 17) +
		     rotl(v[3], 25) + (uint64_t)n * K3;

	while (e - p >= 8) {
		h = rotl(h ^ (ld64(p) * K2), 27) * K1 + K3;
		p += 8;
	}
	while (p < e)
		h = rotl(h ^ (*p++ * K3), 11) * K1;
	return mix(h);
}

uint64_t brprof_hash(const void *data, size_t n)
{
	uint64_t v[4] = { K1, K2, K3, K1 ^ K2 };
	const uint8_t *p = data;
	size_t whole = n & ~(size_t)31;

	hash_stripes(v, p, whole);
	return hash_final(v, p + whole, p + n, n);
}

uint64_t brprof_hash_mapped(const uint8_t *p, size_t n, bool drop)
{
	const size_t window = (size_t)4 << 20;
	uint64_t v[4] = { K1, K2, K3, K1 ^ K2 };
	size_t whole = n & ~(size_t)31, done = 0;

	if (!drop)
		return brprof_hash(p, n);
	while (done < whole) {
		size_t w = whole - done < window ? whole - done : window;

		hash_stripes(v, p + done, w);
		br_drop_pages(p + done, p + done + w);
		done += w;
	}
	return hash_final(v, p + whole, p + n, n);
}

/* ---- parsing ----------------------------------------------------------------- */

static int bad(const char *name, uint64_t off, char *err, size_t errsz,
	       const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int bad(const char *name, uint64_t off, char *err, size_t errsz,
	       const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errsz, "%s: offset %" PRIu64 ": %s", name, off, msg);
	return BR_EINPUT;
}

bool brprof_sniff(const uint8_t *head, size_t n)
{
	return n >= 8 && !memcmp(head, BRPROF_MAGIC, 8);
}

/* Compare the keys of two records of section @s. */
int brprof_key_cmp(const uint8_t *a, const uint8_t *b, enum brprof_section s)
{
	unsigned i;

	for (i = 0; i < brprof_keys[s]; i++) {
		uint64_t x = ld64(a + 8 * i), y = ld64(b + 8 * i);

		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

/* Check one record's values. */
static int check_rec(const uint8_t *r, enum brprof_section s, const char *name,
		     uint64_t off, char *err, size_t errsz)
{
	uint64_t a = ld64(r), b = ld64(r + 8), c, d;

	switch (s) {
	case BRP_BLOCKS:
		c = ld64(r + 16);
		d = ld64(r + 24);
		if (!a || a > b)
			return bad(name, off, err, errsz,
				   "expected a block with 0 < start <= end, got [0x%" PRIx64 ", 0x%" PRIx64 "]",
				   a, b);
		if (c > 2)
			return bad(name, off, err, errsz,
				   "expected a block prediction of 0, 1 or 2, got %" PRIu64,
				   c);
		if (!d)
			return bad(name, off, err, errsz,
				   "expected a block count of at least 1, got 0");
		return 0;
	case BRP_IPS:
		if (!b)
			return bad(name, off, err, errsz,
				   "expected a sample IP count of at least 1, got 0");
		return 0;
	case BRP_RANGES:
		if (a > b)
			return bad(name, off, err, errsz,
				   "expected a range with start <= end, got [0x%" PRIx64 ", 0x%" PRIx64 "]",
				   a, b);
		/* fall through */
	case BRP_BRANCHES:
		if (!ld64(r + 16))
			return bad(name, off, err, errsz,
				   "expected a %s count of at least 1, got 0",
				   sec_names[s]);
		return 0;
	case BRP_BOLT_BR:
		if (!a && !b)
			return bad(name, off, err, errsz,
				   "expected a BOLT branch with an end in the DSO, got 0 -> 0");
		/* fall through */
	case BRP_EDGES:
		c = ld64(r + 16);
		d = ld64(r + 24);
		if (!c || d > c)
			return bad(name, off, err, errsz,
				   "expected a %s count of at least 1 and no more mispredicted, got %" PRIu64 " and %" PRIu64,
				   sec_names[s], c, d);
		return 0;
	case BRP_BOLT_FT:
		c = ld64(r + 16);
		d = ld64(r + 24);
		if (!a || !b)
			return bad(name, off, err, errsz,
				   "expected a BOLT trace in the DSO, got 0x%" PRIx64 " -> 0x%" PRIx64,
				   a, b);
		if ((!c && !d) || c > UINT64_MAX - d)
			return bad(name, off, err, errsz,
				   "expected BOLT trace counts of at least 1 in all whose sum fits in 64 bits, got %" PRIu64 " and %" PRIu64,
				   c, d);
		return 0;
	default:
		return 0;
	}
}

int brprof_dso_cmp(const struct brprof_dso *a, const struct brprof_dso *b)
{
	int c;

	if ((a->flags & BRPROF_DSO_KERNEL) != (b->flags & BRPROF_DSO_KERNEL))
		return (a->flags & BRPROF_DSO_KERNEL) ? 1 : -1;
	if (a->build_id_size != b->build_id_size)
		return a->build_id_size < b->build_id_size ? -1 : 1;
	if (a->build_id_size)
		return memcmp(a->build_id, b->build_id, a->build_id_size);
	c = memcmp(a->path, b->path, a->path_len < b->path_len ?
		   a->path_len : b->path_len);
	if (c)
		return c;
	return a->path_len < b->path_len ? -1 : a->path_len > b->path_len;
}

static int cmp_dso_ptr(const void *x, const void *y)
{
	const struct brprof_dso *const *a = x, *const *b = y;

	return brprof_dso_cmp(*a, *b);
}

/* The 64-byte header: magic, checksums, version, sizes, flags. */
static int parse_header(const uint8_t *buf, size_t len, const char *name,
			struct brprof *out, bool drop, char *err, size_t errsz)
{
	uint64_t body;

	if (len < BRPROF_HEADER)
		return bad(name, 0, err, errsz,
			   "expected a .brprof header of %d bytes, got %zu",
			   BRPROF_HEADER, len);
	if (!brprof_sniff(buf, len))
		return bad(name, 0, err, errsz, "expected the .brprof magic, got another file");
	if (brprof_hash(buf, 56) != ld64(buf + 56))
		return bad(name, 56, err, errsz,
			   "expected the header checksum %016" PRIx64 ", got %016" PRIx64 " (a damaged header)",
			   brprof_hash(buf, 56), ld64(buf + 56));
	if (ld32(buf + 8) != BRPROF_VERSION)
		return bad(name, 8, err, errsz,
			   "expected .brprof version %d, got %" PRIu32,
			   BRPROF_VERSION, ld32(buf + 8));
	if (ld32(buf + 12) != BRPROF_HEADER || ld64(buf + 40) || ld64(buf + 48))
		return bad(name, 12, err, errsz,
			   "expected a %d-byte version 1 header with zero reserved fields, got size %" PRIu32,
			   BRPROF_HEADER, ld32(buf + 12));
	body = ld64(buf + 16);
	if (body != len - BRPROF_HEADER)
		return bad(name, 16, err, errsz,
			   "expected a body of %zu bytes (the rest of the file), got %" PRIu64 " (a cut or padded file)",
			   len - BRPROF_HEADER, body);
	if (brprof_hash_mapped(buf + BRPROF_HEADER, body, drop) != ld64(buf + 24))
		return bad(name, 24, err, errsz,
			   "expected the body checksum %016" PRIx64 ", got %016" PRIx64 " (a damaged file)",
			   brprof_hash(buf + BRPROF_HEADER, body), ld64(buf + 24));
	out->flags = ld32(buf + 36);
	if (out->flags & ~(BRPROF_MIXED | BRPROF_EXACT))
		return bad(name, 36, err, errsz,
			   "expected header flags of at most 0x%x, got 0x%" PRIx32,
			   BRPROF_MIXED | BRPROF_EXACT, out->flags);
	out->nr_dsos = ld32(buf + 32);
	return BR_OK;
}

/* The statistics and the event name at *@p; *@p: what follows them. */
static int parse_stats(const uint8_t *buf, size_t len, const char *name,
		       struct brprof *out, uint64_t *pp, char *err,
		       size_t errsz)
{
	uint64_t p = *pp;
	uint32_t nr_stats, k;

	if (len - p < 8)
		return bad(name, p, err, errsz, "expected the statistics, got the end of the file");
	nr_stats = ld32(buf + p);
	out->event_len = ld32(buf + p + 4);
	if (nr_stats != BRPROF_NR_STATS)
		return bad(name, p, err, errsz,
			   "expected %d statistics, got %" PRIu32,
			   BRPROF_NR_STATS, nr_stats);
	p += 8;
	if ((len - p) / 8 < nr_stats)
		return bad(name, p, err, errsz, "expected %" PRIu32 " statistics, got the end of the file",
			   nr_stats);
	for (k = 0; k < nr_stats; k++)
		out->stats[k] = ld64(buf + p + 8 * k);
	p += 8 * nr_stats;
	if (out->event_len > 4096 || out->event_len > len - p)
		return bad(name, p, err, errsz,
			   "expected an event name of at most 4096 bytes within the file, got %" PRIu32,
			   out->event_len);
	out->event = (const char *)buf + p;
	if (memchr(out->event, '\0', out->event_len))
		return bad(name, p, err, errsz, "expected an event name without NUL, got one");
	p += (out->event_len + 7) & ~7u;
	if (p > len)
		return bad(name, len, err, errsz, "expected the event name's padding, got the end of the file");
	*pp = p;
	return BR_OK;
}

/* The fixed part of DSO entry @d (number @i) and its path, at *@pp. */
static int parse_dso_head(const uint8_t *buf, size_t len, const char *name,
			  const struct brprof *out, uint64_t i,
			  struct brprof_dso *d, uint64_t *pp, char *err,
			  size_t errsz)
{
	uint64_t p = *pp;
	unsigned s;

	d->offset = p;
	if (len - p < DSO_HDR)
		return bad(name, p, err, errsz,
			   "expected DSO %" PRIu64 " of %" PRIu32 ", got the end of the file",
			   i + 1, out->nr_dsos);
	d->path_len = ld32(buf + p);
	d->build_id_size = buf[p + 4];
	d->flags = buf[p + 5];
	if (d->build_id_size > BR_BUILD_ID_MAX || buf[p + 6] ||
	    buf[p + 7] || ld32(buf + p + 28))
		return bad(name, p, err, errsz,
			   "expected a build-id of at most 20 bytes and zero reserved fields, got a build-id of %u",
			   d->build_id_size);
	if (d->flags & ~0xfu)
		return bad(name, p + 5, err, errsz,
			   "expected DSO flags of at most 0xf, got 0x%x",
			   d->flags);
	memcpy(d->build_id, buf + p + 8, BR_BUILD_ID_MAX);
	d->text_base = ld64(buf + p + 32);
	d->samples = ld64(buf + p + 40);
	d->prof_samples = ld64(buf + p + 48);
	for (s = 0; s < BRP_NR_SECTIONS; s++)
		d->nr[s] = ld64(buf + p + 56 + 8 * s);
	p += DSO_HDR;
	if (!d->path_len || d->path_len > BRPROF_PATH_MAX ||
	    d->path_len > len - p)
		return bad(name, d->offset, err, errsz,
			   "expected a path of 1 to %d bytes within the file, got %" PRIu32,
			   BRPROF_PATH_MAX, d->path_len);
	d->path = (const char *)buf + p;
	if (memchr(d->path, '\0', d->path_len))
		return bad(name, p, err, errsz, "expected a path without NUL, got one");
	p += (d->path_len + 7) & ~7u;
	if (p > len)
		return bad(name, len, err, errsz, "expected the path's padding, got the end of the file");
	*pp = p;
	return BR_OK;
}

/* The sections of DSO entry @d at *@pp: sizes, order, values. */
static int parse_sections(const uint8_t *buf, size_t len, const char *name,
			  struct brprof_dso *d, uint64_t *pp, char *err,
			  size_t errsz)
{
	uint64_t p = *pp;
	unsigned s;

	for (s = 0; s < BRP_NR_SECTIONS; s++) {
		enum brprof_section sec = (enum brprof_section)s;
		uint64_t rs = 8 * brprof_fields[s], r;

		if (d->nr[s] > (len - p) / rs)
			return bad(name, d->offset + 56 + 8 * s, err, errsz,
				   "expected at most %" PRIu64 " %s records in the %zu bytes left, got %" PRIu64,
				   (uint64_t)((len - p) / rs), sec_names[s],
				   (size_t)(len - p), d->nr[s]);
		d->sec[s] = buf + p;
		for (r = 0; r < d->nr[s]; r++) {
			const uint8_t *rec = buf + p + rs * r;

			if (r && brprof_key_cmp(rec - rs, rec, sec) >= 0)
				return bad(name, p + rs * r, err, errsz,
					   "expected %s records in increasing order of their key, got one out of order or repeated",
					   sec_names[s]);
			if (check_rec(rec, sec, name, p + rs * r, err, errsz))
				return BR_EINPUT;
		}
		p += rs * d->nr[s];
	}
	*pp = p;
	return BR_OK;
}

/* No DSO twice (by build-id, else path). */
static int check_unique(const struct brprof *out, const char *name,
			char *err, size_t errsz)
{
	const struct brprof_dso **v;
	uint32_t i;

	if (out->nr_dsos < 2)
		return BR_OK;
	v = malloc(out->nr_dsos * sizeof(*v));
	if (!v) {
		snprintf(err, errsz, "%s: out of memory", name);
		return BR_ESYS;
	}
	for (i = 0; i < out->nr_dsos; i++)
		v[i] = &out->dsos[i];
	qsort(v, out->nr_dsos, sizeof(*v), cmp_dso_ptr);
	for (i = 1; i < out->nr_dsos; i++) {
		if (!brprof_dso_cmp(v[i - 1], v[i])) {
			uint64_t o = v[i]->offset > v[i - 1]->offset ?
				     v[i]->offset : v[i - 1]->offset;

			free(v);
			return bad(name, o, err, errsz,
				   "expected every DSO once (by build-id, else path), got one twice");
		}
	}
	free(v);
	return BR_OK;
}

int brprof_parse(const uint8_t *buf, size_t len, const char *name,
		 struct brprof *out, bool drop, char *err, size_t errsz)
{
	uint64_t p = BRPROF_HEADER, i;
	int r;

	memset(out, 0, sizeof(*out));
	out->buf = buf;
	out->len = len;
	r = parse_header(buf, len, name, out, drop, err, errsz);
	if (!r)
		r = parse_stats(buf, len, name, out, &p, err, errsz);
	if (r)
		return r;
	/* every DSO entry is at least DSO_HDR + 8 bytes */
	if (out->nr_dsos > (len - p) / (DSO_HDR + 8))
		return bad(name, 32, err, errsz,
			   "expected at most %" PRIu64 " DSOs in %zu bytes, got %" PRIu32,
			   (uint64_t)((len - p) / (DSO_HDR + 8)), len, out->nr_dsos);
	out->dsos = calloc(out->nr_dsos ? out->nr_dsos : 1, sizeof(*out->dsos));
	if (!out->dsos) {
		snprintf(err, errsz, "%s: out of memory", name);
		return BR_ESYS;
	}
	for (i = 0; i < out->nr_dsos && !r; i++) {
		struct brprof_dso *d = &out->dsos[i];

		r = parse_dso_head(buf, len, name, out, i, d, &p, err, errsz);
		if (!r)
			r = parse_sections(buf, len, name, d, &p, err, errsz);
		if (!r && drop)
			br_drop_pages(buf + d->offset, buf + p);
	}
	if (!r)
		r = check_unique(out, name, err, errsz);
	if (!r && p != len)
		return bad(name, p, err, errsz,
			   "expected the end of the profile, got %zu more bytes",
			   (size_t)(len - p));
	return r;
}

void brprof_free(struct brprof *p)
{
	free(p->dsos);
	p->dsos = NULL;
}

/* ---- reading a file ------------------------------------------------------------ */

int brprof_map_fd(int fd, const char *name, struct brprof_file *m,
		  char *err, size_t errsz)
{
	struct stat sb;

	memset(m, 0, sizeof(*m));
	if (fstat(fd, &sb)) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		return BR_ESYS;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errsz, "%s: expected a .brprof file, got %s", name,
			 S_ISDIR(sb.st_mode) ? "a directory" : "a pipe or device");
		return BR_ESYS;
	}
	m->len = (size_t)sb.st_size;
	if (m->len) {
		void *x = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);

		if (x == MAP_FAILED) {
			snprintf(err, errsz, "%s: %s", name, strerror(errno));
			return BR_ESYS;
		}
		m->p = x;
		m->mapped = true;
	}
	return BR_OK;
}

int brprof_map(const char *path, const char *name, struct brprof_file *m,
	       char *err, size_t errsz)
{
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				     dup(STDIN_FILENO);
	int r;

	memset(m, 0, sizeof(*m));
	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		return BR_ESYS;
	}
	r = brprof_map_fd(fd, name, m, err, errsz);
	close(fd);
	return r;
}

void brprof_unmap(struct brprof_file *m)
{
	if (m->mapped)
		munmap((void *)m->p, m->len);
	memset(m, 0, sizeof(*m));
}

/* The DSO entry @e as an event (its path and the kinds it holds). */
static void dso_event(const struct brprof_dso *e, const char *name,
		      char *path, struct ev_profile_dso *ev)
{
	unsigned s;

	memset(ev, 0, sizeof(*ev));
	memcpy(path, e->path, e->path_len);
	path[e->path_len] = '\0';
	ev->path = path;
	ev->build_id = e->build_id;
	ev->build_id_size = e->build_id_size;
	ev->kernel = e->flags & BRPROF_DSO_KERNEL;
	ev->has_blocks = e->flags & BRPROF_DSO_BLOCKS;
	ev->has_prof = e->flags & BRPROF_DSO_PROF;
	ev->has_bolt = e->flags & BRPROF_DSO_BOLT;
	ev->text_base = e->text_base;
	ev->samples = e->samples;
	ev->prof_samples = e->prof_samples;
	for (s = 0; s < BRP_NR_SECTIONS; s++) {
		ev->nr[s] = e->nr[s];
		ev->rec[s] = e->sec[s];
	}
	ev->pos.name = name;
	ev->pos.offset = e->offset;
}

/* The checked profile @p as events: its statistics, then its DSOs. */
static int deliver(const struct brprof *p, const char *name,
		   const struct ev_sink *sink, char *err, size_t errsz)
{
	char path[BRPROF_PATH_MAX + 1];
	struct ev_profile ev = { 0 };
	uint32_t i;
	int r = 0;

	ev.stats = p->stats;
	ev.event = strndup(p->event, p->event_len);
	if (!ev.event) {
		snprintf(err, errsz, "%s: out of memory", name);
		return BR_ESYS;
	}
	ev.mixed_events = p->flags & BRPROF_MIXED;
	ev.exact = p->flags & BRPROF_EXACT;
	ev.pos.name = name;
	if (sink->profile)
		r = sink->profile(sink->arg, &ev, err, errsz);
	free((char *)ev.event);
	for (i = 0; !r && i < p->nr_dsos; i++) {
		struct ev_profile_dso d;

		dso_event(&p->dsos[i], name, path, &d);
		r = sink->profile_dso(sink->arg, &d, err, errsz);
	}
	return r;
}

int brprof_read(int fd, const char *name, const struct ev_sink *sink,
		char *err, size_t errsz)
{
	struct brprof_file m;
	struct brprof p;
	int r;

	r = brprof_map_fd(fd, name, &m, err, errsz);
	if (r)
		return r;
	r = brprof_parse(m.p, m.len, name, &p, m.mapped, err, errsz);
	if (!r)
		r = deliver(&p, name, sink, err, errsz);
	brprof_free(&p);
	brprof_unmap(&m);
	return r;
}
