// SPDX-License-Identifier: GPL-2.0
/* The .brprof format: write, check, load, merge.  See brprof.h. */
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

const unsigned brprof_fields[BRP_NR_SECTIONS] = { 4, 2, 4, 3, 3, 4, 4 };
const unsigned brprof_keys[BRP_NR_SECTIONS] = { 3, 1, 2, 2, 2, 2, 2 };

static const char *const sec_names[BRP_NR_SECTIONS] = {
	"block", "sample IP", "branch", "range", "llvm-profgen branch",
	"BOLT branch", "BOLT trace",
};

#define DSO_HDR 112	/* bytes of a DSO entry before its path */

/* ---- the checksum ----------------------------------------------------------- */

#define K1 0x9e3779b97f4a7c15ull
#define K2 0xbf58476d1ce4e5b9ull
#define K3 0x94d049bb133111ebull

static inline uint64_t rotl(uint64_t x, unsigned r)
{
	return (x << r) | (x >> (64 - r));
}

static inline uint64_t ld64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
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

/*
 * The pages wholly inside [@from, @to) of a read-only file mapping leave
 * the process (they are read again from the page cache if touched), so
 * that reading a profile does not keep all of it resident.
 */
static void drop_pages(const uint8_t *from, const uint8_t *to)
{
	uintptr_t a = ((uintptr_t)from + 4095) & ~(uintptr_t)4095;
	uintptr_t e = (uintptr_t)to & ~(uintptr_t)4095;

	if (e > a)
		(void)madvise((void *)a, e - a, MADV_DONTNEED);
}

/* brprof_hash() of a file mapping, dropping its pages behind (@drop). */
static uint64_t hash_mapped(const uint8_t *p, size_t n, bool drop)
{
	const size_t window = (size_t)4 << 20;
	uint64_t v[4] = { K1, K2, K3, K1 ^ K2 };
	size_t whole = n & ~(size_t)31, done = 0;

	if (!drop)
		return brprof_hash(p, n);
	while (done < whole) {
		size_t w = whole - done < window ? whole - done : window;

		hash_stripes(v, p + done, w);
		drop_pages(p + done, p + done + w);
		done += w;
	}
	return hash_final(v, p + whole, p + n, n);
}

/* ---- output --------------------------------------------------------------- */

/*
 * The profile being written: to a temporary file beside the output (then
 * renamed over it) in pieces of OBUF_FLUSH bytes, so that writing needs
 * little memory however large the profile; to stdout from memory.
 * Offsets are of the whole file; a patch of bytes already written goes to
 * the file.  The checksums are computed from the file at the end.
 */
#define OBUF_FLUSH ((size_t)4 << 20)

struct obuf {
	uint8_t *p;
	size_t len, cap;
	uint64_t flushed;	/* file bytes before p[0] */
	int fd;			/* -1: all in memory (stdout) */
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
	if (b->len + n > b->cap) {
		size_t c = b->cap ? b->cap : 65536;
		uint8_t *x;

		while (c < b->len + n)
			c *= 2;
		x = realloc(b->p, c);
		if (!x) {
			b->oom = true;
			return NULL;
		}
		b->p = x;
		b->cap = c;
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
	memset(b, 0, sizeof(*b));
	b->fd = -1;
	if (!strcmp(path, "-"))
		return 0;
	if (asprintf(&b->tmp, "%s.XXXXXX", path) < 0) {
		b->tmp = NULL;
		snprintf(err, errsz, "%s: out of memory", path);
		return -2;
	}
	b->fd = mkstemp(b->tmp);
	if (b->fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(b->tmp);
		b->tmp = NULL;
		return -2;
	}
	return 0;
}

static void obuf_abort(struct obuf *b)
{
	if (b->fd >= 0) {
		close(b->fd);
		unlink(b->tmp);
	}
	free(b->tmp);
	free(b->p);
	memset(b, 0, sizeof(*b));
	b->fd = -1;
}

/*
 * Finish: sizes and checksums, then the file renamed to @path (or the
 * bytes to stdout).  0 or -2 with a message; frees @b either way.
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
		return -2;
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
		v = htole64(hash_mapped(m + BRPROF_HEADER, len - BRPROF_HEADER,
					 map != NULL));
		memcpy(hdr + 24, &v, 8);
		v = htole64(brprof_hash(hdr, 56));
		memcpy(hdr + 56, &v, 8);
		if (map)
			munmap(map, len);
		if (b->fd < 0) {
			memcpy(b->p, hdr, BRPROF_HEADER);
			if (fwrite(b->p, 1, len, stdout) != len ||
			    fflush(stdout)) {
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
		return -2;
	}
	*bytes = len;
	free(b->tmp);
	free(b->p);
	return 0;
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
	return -1;
}

bool brprof_sniff(const uint8_t *head, size_t n)
{
	return n >= 8 && !memcmp(head, BRPROF_MAGIC, 8);
}

/* Compare the keys of two records of section @s. */
static int key_cmp(const uint8_t *a, const uint8_t *b, enum brprof_section s)
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

static int dso_key_cmp(const struct brprof_dso *a, const struct brprof_dso *b)
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

	return dso_key_cmp(*a, *b);
}

/* brprof_parse(); @drop: @buf is a file mapping whose pages may be dropped. */
static int parse(const uint8_t *buf, size_t len, const char *name,
		 struct brprof *out, bool drop, char *err, size_t errsz)
{
	uint64_t body, p, i;
	uint32_t nr_stats, k;

	memset(out, 0, sizeof(*out));
	out->buf = buf;
	out->len = len;
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
	if (hash_mapped(buf + BRPROF_HEADER, body, drop) != ld64(buf + 24))
		return bad(name, 24, err, errsz,
			   "expected the body checksum %016" PRIx64 ", got %016" PRIx64 " (a damaged file)",
			   brprof_hash(buf + BRPROF_HEADER, body), ld64(buf + 24));
	out->flags = ld32(buf + 36);
	if (out->flags & ~(BRPROF_MIXED | BRPROF_EXACT))
		return bad(name, 36, err, errsz,
			   "expected header flags of at most 0x%x, got 0x%" PRIx32,
			   BRPROF_MIXED | BRPROF_EXACT, out->flags);
	out->nr_dsos = ld32(buf + 32);
	p = BRPROF_HEADER;
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
	/* every DSO entry is at least DSO_HDR + 8 bytes */
	if (out->nr_dsos > (len - p) / (DSO_HDR + 8))
		return bad(name, 32, err, errsz,
			   "expected at most %" PRIu64 " DSOs in %zu bytes, got %" PRIu32,
			   (uint64_t)((len - p) / (DSO_HDR + 8)), len, out->nr_dsos);
	out->dsos = calloc(out->nr_dsos ? out->nr_dsos : 1, sizeof(*out->dsos));
	if (!out->dsos) {
		snprintf(err, errsz, "%s: out of memory", name);
		return -2;
	}
	for (i = 0; i < out->nr_dsos; i++) {
		struct brprof_dso *d = &out->dsos[i];
		unsigned s;

		d->offset = p;
		if (len - p < DSO_HDR)
			return bad(name, p, err, errsz,
				   "expected DSO %" PRIu64 " of %" PRIu32 ", got the end of the file",
				   i + 1, out->nr_dsos);
		d->path_len = ld32(buf + p);
		d->build_id_size = buf[p + 4];
		d->flags = buf[p + 5];
		if (d->build_id_size > 20 || buf[p + 6] || buf[p + 7] ||
		    ld32(buf + p + 28))
			return bad(name, p, err, errsz,
				   "expected a build-id of at most 20 bytes and zero reserved fields, got a build-id of %u",
				   d->build_id_size);
		if (d->flags & ~0xfu)
			return bad(name, p + 5, err, errsz,
				   "expected DSO flags of at most 0xf, got 0x%x",
				   d->flags);
		memcpy(d->build_id, buf + p + 8, 20);
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
		for (s = 0; s < BRP_NR_SECTIONS; s++) {
			uint64_t rs = 8 * brprof_fields[s], r;

			if (d->nr[s] > (len - p) / rs)
				return bad(name, d->offset + 56 + 8 * s, err, errsz,
					   "expected at most %" PRIu64 " %s records in the %zu bytes left, got %" PRIu64,
					   (uint64_t)((len - p) / rs), sec_names[s],
					   (size_t)(len - p), d->nr[s]);
			d->sec[s] = buf + p;
			for (r = 0; r < d->nr[s]; r++) {
				const uint8_t *rec = buf + p + rs * r;

				if (r && key_cmp(rec - rs, rec, (enum brprof_section)s) >= 0)
					return bad(name, p + rs * r, err, errsz,
						   "expected %s records in increasing order of their key, got one out of order or repeated",
						   sec_names[s]);
				if (check_rec(rec, (enum brprof_section)s, name,
					      p + rs * r, err, errsz))
					return -1;
			}
			p += rs * d->nr[s];
		}
		if (drop)
			drop_pages(buf + d->offset, buf + p);
	}
	if (out->nr_dsos > 1) {
		const struct brprof_dso **v = malloc(out->nr_dsos * sizeof(*v));

		if (!v) {
			snprintf(err, errsz, "%s: out of memory", name);
			return -2;
		}
		for (i = 0; i < out->nr_dsos; i++)
			v[i] = &out->dsos[i];
		qsort(v, out->nr_dsos, sizeof(*v), cmp_dso_ptr);
		for (i = 1; i < out->nr_dsos; i++) {
			if (!dso_key_cmp(v[i - 1], v[i])) {
				uint64_t o = v[i]->offset > v[i - 1]->offset ?
					     v[i]->offset : v[i - 1]->offset;

				free(v);
				return bad(name, o, err, errsz,
					   "expected every DSO once (by build-id, else path), got one twice");
			}
		}
		free(v);
	}
	if (p != len)
		return bad(name, p, err, errsz,
			   "expected the end of the profile, got %zu more bytes",
			   (size_t)(len - p));
	return 0;
}

int brprof_parse(const uint8_t *buf, size_t len, const char *name,
		 struct brprof *out, char *err, size_t errsz)
{
	return parse(buf, len, name, out, false, err, errsz);
}

void brprof_free(struct brprof *p)
{
	free(p->dsos);
	p->dsos = NULL;
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
	const struct session_stats *s = &a->s.st;
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
	uint8_t bid[20] = { 0 };
	uint64_t at;
	int s;

	memcpy(bid, id, id_size);
	put32(b, (uint32_t)path_len);
	put_bytes(b, (uint8_t[4]){ (uint8_t)id_size, (uint8_t)flags, 0, 0 }, 4);
	put_bytes(b, bid, 20);
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

/* ---- reading a file ------------------------------------------------------------ */

struct mapped {
	const uint8_t *p;
	size_t len;
	bool mapped;
};

static int map_file(const char *path, const char *name, struct mapped *m,
		    char *err, size_t errsz)
{
	struct stat sb;
	int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) :
				     dup(STDIN_FILENO);

	memset(m, 0, sizeof(*m));
	if (fd < 0 || fstat(fd, &sb)) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -2;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errsz, "%s: expected a .brprof file, got %s", name,
			 S_ISDIR(sb.st_mode) ? "a directory" : "a pipe or device");
		close(fd);
		return -2;
	}
	m->len = (size_t)sb.st_size;
	if (m->len) {
		void *x = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);

		if (x == MAP_FAILED) {
			snprintf(err, errsz, "%s: %s", name, strerror(errno));
			close(fd);
			return -2;
		}
		m->p = x;
		m->mapped = true;
	}
	close(fd);
	return 0;
}

static void unmap_file(struct mapped *m)
{
	if (m->mapped)
		munmap((void *)m->p, m->len);
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* The registry's DSO of entry @e (--binary takes its basename). */
static struct dso *dso_of(struct annot *a, const struct brprof_dso *e)
{
	char path[BRPROF_PATH_MAX + 1];

	memcpy(path, e->path, e->path_len);
	path[e->path_len] = '\0';
	if (a->s.bin_dso)
		return !strcmp(base_name(path), a->s.bin_dso->short_name) &&
		       !(e->flags & BRPROF_DSO_KERNEL) ? a->s.bin_dso : NULL;
	return dso_get(a->s.reg, path, e->build_id, e->build_id_size,
		       e->flags & BRPROF_DSO_KERNEL);
}

static int load_dso(struct annot *a, const struct brprof_dso *e,
		    const char *name, char *err, size_t errsz)
{
	struct dso *d = dso_of(a, e);
	struct annot_dso *ad;
	uint64_t i;
	int r = 0;

	if (!d) {
		if (a->s.bin_dso)
			return 0;
		snprintf(err, errsz, "%s: out of memory", name);
		return -2;
	}
	if (!session_wants(&a->s, d))
		return 0;
	if ((a->cfg.parts & ANNOT_BLOCKS) && (e->flags & BRPROF_DSO_BLOCKS)) {
		dso_load(a->s.reg, d);
		ad = annot_blocks_of(a, d);
		if (!ad)
			goto oom;
		ad->has_blocks = true;
		if (ad->samples > UINT64_MAX - e->samples)
			goto overflow;
		ad->samples += e->samples;
		for (i = 0; i < e->nr[BRP_BLOCKS] && !r; i++) {
			const uint8_t *p = e->sec[BRP_BLOCKS] + 32 * i;

			r = annot_add_block(a, ad, ld64(p), ld64(p + 8),
					    (enum blockrange_pred)ld64(p + 16),
					    ld64(p + 24));
		}
		for (i = 0; i < e->nr[BRP_IPS] && !r; i++) {
			const uint8_t *p = e->sec[BRP_IPS] + 16 * i;

			r = pairmap_add(&ad->ips, ld64(p), 0, ld64(p + 8));
			r = r == -2 ? -1 : r ? -2 : 0;
		}
		for (i = 0; i < e->nr[BRP_EDGES] && !r; i++) {
			const uint8_t *p = e->sec[BRP_EDGES] + 32 * i;

			r = pairmap_add(&ad->edges, ld64(p), ld64(p + 8),
					ld64(p + 16));
			if (!r && ld64(p + 24))
				r = pairmap_add(&ad->edges_miss, ld64(p),
						ld64(p + 8), ld64(p + 24));
			r = r == -2 ? -1 : r ? -2 : 0;
		}
		if (r)
			goto fail;
	}
	if ((a->cfg.parts & ANNOT_PROFGEN) && (e->flags & BRPROF_DSO_PROF)) {
		ad = annot_per_dso(a, d);
		if (!ad)
			goto oom;
		ad->has_prof = true;
		ad->prof.has_base = true;
		ad->prof.base = e->text_base;
		if (ad->prof.samples > UINT64_MAX - e->prof_samples)
			goto overflow;
		ad->prof.samples += e->prof_samples;
		for (i = 0; i < e->nr[BRP_RANGES] && !r; i++) {
			const uint8_t *p = e->sec[BRP_RANGES] + 24 * i;

			r = pairmap_add(&ad->prof.ranges, ld64(p), ld64(p + 8),
					ld64(p + 16));
		}
		for (i = 0; i < e->nr[BRP_BRANCHES] && !r; i++) {
			const uint8_t *p = e->sec[BRP_BRANCHES] + 24 * i;

			r = pairmap_add(&ad->prof.branches, ld64(p),
					ld64(p + 8), ld64(p + 16));
		}
		r = r == -2 ? -1 : r ? -2 : 0;
		if (r)
			goto fail;
	}
	if ((a->cfg.parts & ANNOT_BOLT) && (e->flags & BRPROF_DSO_BOLT)) {
		ad = annot_per_dso(a, d);
		if (!ad)
			goto oom;
		ad->has_bolt = true;
		for (i = 0; i < e->nr[BRP_BOLT_BR] && !r; i++) {
			const uint8_t *p = e->sec[BRP_BOLT_BR] + 32 * i;

			r = pairmap_add(&ad->bolt.br, ld64(p), ld64(p + 8),
					ld64(p + 16));
			if (!r && ld64(p + 24))
				r = pairmap_add(&ad->bolt.br_miss, ld64(p),
						ld64(p + 8), ld64(p + 24));
		}
		for (i = 0; i < e->nr[BRP_BOLT_FT] && !r; i++) {
			const uint8_t *p = e->sec[BRP_BOLT_FT] + 32 * i;

			if (ld64(p + 16))
				r = pairmap_add(&ad->bolt.ft, ld64(p),
						ld64(p + 8), ld64(p + 16));
			if (!r && ld64(p + 24))
				r = pairmap_add(&ad->bolt.ft_ext, ld64(p),
						ld64(p + 8), ld64(p + 24));
		}
		r = r == -2 ? -1 : r ? -2 : 0;
		if (r)
			goto fail;
	}
	return 0;
fail:
	if (r == -1)
		goto overflow;
oom:
	snprintf(err, errsz, "%s: out of memory", name);
	return -2;
overflow:
	return bad(name, e->offset, err, errsz,
		   "expected counts whose sums fit in 64 bits, got sums that overflow in this DSO");
}

int brprof_load(const char *path, struct annot *a, char *err, size_t errsz)
{
	const char *name = strcmp(path, "-") ? path : "<stdin>";
	struct mapped m;
	struct brprof p;
	struct session_stats *st = &a->s.st;
	uint32_t i;
	int r, k;

	r = map_file(path, name, &m, err, errsz);
	if (r)
		return r;
	r = parse(m.p, m.len, name, &p, m.mapped, err, errsz);
	for (i = 0; !r && i < p.nr_dsos; i++)
		r = load_dso(a, &p.dsos[i], name, err, errsz);
	if (!r) {
		st->samples = p.stats[0];
		st->brstack_samples = p.stats[1];
		st->entries = p.stats[2];
		st->blocks = p.stats[3];
		st->counted = p.stats[4];
		for (k = 0; k < SKIP_NR; k++)
			st->skipped[k] = p.stats[5 + k];
		st->ips_kernel = p.stats[5 + SKIP_NR];
		a->total = p.stats[6 + SKIP_NR];
		a->s.mixed_events = p.flags & BRPROF_MIXED;
		a->s.exact = p.flags & BRPROF_EXACT;
		if (p.event_len) {
			a->s.event = strndup(p.event, p.event_len);
			if (!a->s.event) {
				snprintf(err, errsz, "%s: out of memory", name);
				r = -2;
			}
		}
	}
	brprof_free(&p);
	unmap_file(&m);
	return r;
}

/* ---- merging --------------------------------------------------------------------- */

struct ref {
	const struct brprof_dso *d;
};

static int cmp_ref(const void *x, const void *y)
{
	const struct ref *a = x, *b = y;

	return dso_key_cmp(a->d, b->d);
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
 * -1 when a sum passes 2^64 - 1.
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
			if (!min || key_cmp(r, min, s) < 0)
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
			if (key_cmp(r, min, s))
				continue;
			for (i = k; i < f; i++) {
				uint64_t v = ld64(r + 8 * i);

				if (sum[i - k] > UINT64_MAX - v)
					return -1;
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
				drop_pages(g[x].d->sec[s],
					   g[x].d->sec[s] + 8 * f * cur[x]);
	}
}

/* The pages of a merged DSO entry leave the process (mapped inputs). */
static void drop_entry(const struct brprof_dso *d)
{
	int s = BRP_NR_SECTIONS - 1;

	drop_pages((const uint8_t *)d->path,
		   d->sec[s] + 8 * brprof_fields[s] * d->nr[s]);
}

static uint64_t sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

int brprof_merge(const char *const *in, size_t n, const char *out,
		 size_t *bytes, char *err, size_t errsz)
{
	struct mapped *m = calloc(n ? n : 1, sizeof(*m));
	struct brprof *p = calloc(n ? n : 1, sizeof(*p));
	struct ref *refs = NULL;
	uint64_t st[BRPROF_NR_STATS] = { 0 }, *cur = NULL;
	const char *event = NULL;
	size_t ev_len = 0, nr = 0, i, j, groups = 0;
	uint32_t flags = 0;
	bool all_exact = true;
	struct obuf b = { .fd = -1 };
	bool open = false;
	int r = 0, k;

	*bytes = 0;
	if (!m || !p) {
		snprintf(err, errsz, "out of memory");
		r = -2;
		goto out;
	}
	for (i = 0; i < n && !r; i++) {
		const char *name = strcmp(in[i], "-") ? in[i] : "<stdin>";

		r = map_file(in[i], name, &m[i], err, errsz);
		if (!r)
			r = parse(m[i].p, m[i].len, name, &p[i], m[i].mapped, err,
					 errsz);
		nr += p[i].nr_dsos;
	}
	if (r)
		goto out;
	/* the statistics add (saturating, as one session's do), the event
	 * is the least non-empty name, mixed if they differ */
	for (i = 0; i < n; i++) {
		for (k = 0; k < BRPROF_NR_STATS - 1; k++)
			st[k] = sat(st[k], p[i].stats[k]);
		k = BRPROF_NR_STATS - 1;
		if (st[k] > UINT64_MAX - p[i].stats[k]) {
			snprintf(err, errsz, "%s: expected sample counts whose sum fits in 64 bits, got a sum that overflows",
				 in[i]);
			r = -1;
			goto out;
		}
		st[k] += p[i].stats[k];
		/* exact only if every input is: a sum with samples is not */
		flags |= p[i].flags & ~BRPROF_EXACT;
		all_exact &= !!(p[i].flags & BRPROF_EXACT);
		if (!p[i].event_len)
			continue;
		if (event && (ev_len != p[i].event_len ||
			      memcmp(event, p[i].event, ev_len)))
			flags |= BRPROF_MIXED;
		if (!event || memcmp(p[i].event, event,
				     ev_len < p[i].event_len ? ev_len :
				     p[i].event_len) < 0 ||
		    (!memcmp(p[i].event, event, ev_len < p[i].event_len ?
			     ev_len : p[i].event_len) &&
		     p[i].event_len < ev_len)) {
			event = p[i].event;
			ev_len = p[i].event_len;
		}
	}
	refs = calloc(nr ? nr : 1, sizeof(*refs));
	cur = calloc(n ? n : 1, sizeof(*cur));
	if (!refs || !cur) {
		snprintf(err, errsz, "out of memory");
		r = -2;
		goto out;
	}
	nr = 0;
	for (i = 0; i < n; i++)
		for (j = 0; j < p[i].nr_dsos; j++)
			refs[nr++].d = &p[i].dsos[j];
	qsort(refs, nr, sizeof(*refs), cmp_ref);
	for (i = 0; i < nr; i = j) {
		for (j = i + 1; j < nr && !cmp_ref(&refs[i], &refs[j]); j++)
			;
		groups++;
	}
	r = obuf_open(&b, out, err, errsz);
	if (r)
		goto out;
	open = true;
	header(&b, (uint32_t)groups, flags | (all_exact ? BRPROF_EXACT : 0));
	put_stats(&b, st, event ? event : "", ev_len);
	for (i = 0; i < nr && !r; i = j) {
		const struct brprof_dso *path = refs[i].d;
		uint64_t base = refs[i].d->text_base, smp = 0, psmp = 0;
		unsigned fl = 0;
		uint64_t at;
		size_t x;
		int s;

		for (j = i; j < nr && !cmp_ref(&refs[i], &refs[j]); j++) {
			const struct brprof_dso *d = refs[j].d;

			if (path_less(d, path))
				path = d;
			if (d->text_base < base)
				base = d->text_base;
			fl |= d->flags;
			if (smp > UINT64_MAX - d->samples ||
			    psmp > UINT64_MAX - d->prof_samples)
				r = -1;
			smp += d->samples;
			psmp += d->prof_samples;
		}
		at = put_dso_head(&b, path->path, path->path_len,
				  refs[i].d->build_id, refs[i].d->build_id_size,
				  fl, base, smp, psmp);
		for (s = 0; s < BRP_NR_SECTIONS && !r; s++) {
			int64_t w = merge_section(&b, refs + i, j - i,
						  (enum brprof_section)s, cur);

			if (w < 0)
				r = -1;
			else
				patch64(&b, at + 8 * s, (uint64_t)w);
		}
		if (r)
			snprintf(err, errsz, "%.*s: expected counts whose sums fit in 64 bits, got sums that overflow",
				 (int)path->path_len, path->path);
		/* these entries are done with: their pages may go */
		for (x = i; x < j; x++)
			drop_entry(refs[x].d);
	}
	if (r)
		goto out;
	open = false;
	r = obuf_close(&b, out, bytes, err, errsz);
out:
	if (open)
		obuf_abort(&b);
	for (i = 0; i < n; i++) {
		if (p)
			brprof_free(&p[i]);
		if (m)
			unmap_file(&m[i]);
	}
	free(refs);
	free(cur);
	free(p);
	free(m);
	return r;
}
