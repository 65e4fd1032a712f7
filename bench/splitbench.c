// SPDX-License-Identifier: GPL-2.0
/*
 * splitbench: replay one block stream (see stream.h) into one splitter and
 * print one JSON line with what it cost.  Built once per implementation,
 * because perf's block-range.c and libblockrange both define rb_*():
 *
 *   -DIMPL_OURS   libblockrange, blockrange_count_block() per block (tree)
 *   -DIMPL_BATCH  libblockrange's batch engine: blocks aggregated with
 *                 blockrange_agg_add_blocks() 256 at a time (converted
 *                 from the stream into a buffer of 256), then
 *                 blockrange_build(); the aggregate is freed after the build
 *                 (timed), so the heap figures are the result's
 *   -DIMPL_PERF   perf 6.1 block-range.c (+ tools/lib/rbtree.c), driven as
 *                 the seed's process_basic_block() drives it
 *   -DIMPL_BOUND  the offline lower bound: sort the block endpoints, sweep
 *                 with running sums; it sees the whole batch at once
 *
 * Usage: splitbench STREAM [--cap SECONDS] [--no-check] [--repeat N]
 *                        [--strategy adaptive|hash|append]
 *   --cap:      stop feeding blocks once SECONDS have passed (checked every
 *               1024 blocks); the output then says how many were fed.
 *   --no-check: skip the check below (for profiling the feeding alone;
 *               "verified" is then null).
 *   --repeat:   feed the stream N times (the check then expects every
 *               counter N times the bound's); not with --cap.
 *   --strategy: the batch engine only: let the aggregate choose (the
 *               default), or force hashing every block into an unbounded
 *               table (the engine's strategy before it adapted), or
 *               appending every block.
 *
 * Timed (wall clock and process CPU time): feeding the blocks (for the
 * bound: computing every range with its counters from the whole batch).
 * Not timed: loading the stream, and the check that follows: every
 * splitter's ranges, in address order, must equal the bound's for the
 * blocks fed (start, end, coverage, entry, taken, pred).
 * A mismatch prints the first difference and exits with status 3.
 * The tree and the batch engine also print a digest of their ranges with
 * every field, owners included (as stream owner ids): the benchmark
 * checks that the tree and every strategy of the batch engine agree.
 *
 * Memory: "req_bytes" is what the splitter asked its allocator for, "heap"
 * the growth of the memory held: glibc's in-use heap (mallinfo2: chunk
 * headers and rounding included) plus the anonymous mappings of the
 * process (those of malloc's large chunks and those libblockrange's default
 * allocator maps itself for arrays of 2 MiB or more), "rss" the growth of
 * the peak resident set over the resident set before feeding (the stream
 * itself excluded).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "stream.h"

#if defined(IMPL_OURS) + defined(IMPL_BATCH) + defined(IMPL_PERF) + \
	defined(IMPL_BOUND) != 1
#error "define exactly one of IMPL_OURS, IMPL_BATCH, IMPL_PERF, IMPL_BOUND"
#endif

#ifndef IMPL_NAME
#define IMPL_NAME "unnamed"
#endif

static void die(const char *what, const char *arg)
{
	fprintf(stderr, "splitbench[%s]: %s%s%s\n", IMPL_NAME, what,
		arg ? ": " : "", arg ? arg : "");
	exit(1);
}

static void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		die("out of memory", NULL);
	return p;
}

static double clock_s(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double now(void)
{
	return clock_s(CLOCK_MONOTONIC);
}

static double cpu_now(void)
{
	return clock_s(CLOCK_PROCESS_CPUTIME_ID);
}

/* Bytes of the anonymous mappings (no file, not the heap or the stack). */
static size_t anon_mapped(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[512];
	size_t sum = 0;

	if (!f)
		die("cannot read /proc/self/maps", NULL);
	while (fgets(line, sizeof(line), f)) {
		unsigned long lo, hi;
		int path = 0;

		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %n", &lo, &hi,
			   &path) < 2)
			continue;
		if (path && line[path] != '\n' && line[path] != '\0')
			continue;	/* a file, [heap], [stack], [vdso]... */
		sum += hi - lo;
	}
	fclose(f);
	return sum;
}

static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + anon_mapped();
}

static size_t rss_now(void)
{
	unsigned long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");

	if (!f || fscanf(f, "%lu %lu", &size, &resident) != 2)
		die("cannot read /proc/self/statm", NULL);
	fclose(f);
	return resident * (size_t)sysconf(_SC_PAGESIZE);
}

static size_t rss_peak(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (size_t)ru.ru_maxrss * 1024;
}

/* ---- the stream ---------------------------------------------------------- */

struct stream {
	struct bench_block *b;
	uint64_t n;
	uint64_t owners;
};

static void load(const char *path, struct stream *s)
{
	struct bench_stream_hdr h;
	int fd = open(path, O_RDONLY);
	size_t want, got = 0;
	char *p;

	if (fd < 0)
		die("cannot open", path);
	if (read(fd, &h, sizeof(h)) != (ssize_t)sizeof(h) ||
	    h.magic != BENCH_STREAM_MAGIC || h.n > SIZE_MAX / sizeof(*s->b))
		die("not a block stream (run blockgen)", path);
	want = h.n * sizeof(*s->b);
	p = xmalloc(want);
	while (got < want) {
		ssize_t r = read(fd, p + got, want - got);

		if (r <= 0)
			die("short block stream", path);
		got += (size_t)r;
	}
	close(fd);
	s->b = (struct bench_block *)p;
	s->n = h.n;
	s->owners = h.owners;
	for (uint64_t i = 0; i < s->n; i++) {
		const struct bench_block *b = &s->b[i];

		if (!b->start || b->start > b->end || b->end >> 63 ||
		    b->owner > s->owners || b->pred > BENCH_PRED_MISS)
			die("invalid block in stream", path);
	}
}

/* ---- ranges as every implementation reports them ----------------------- */

struct brange {
	uint64_t start, end, coverage, entry, taken, pred;
};

struct brvec {
	struct brange *r;
	size_t n, cap;
};

static struct brange *brvec_push(struct brvec *v)
{
	if (v->n == v->cap) {
		v->cap = v->cap ? 2 * v->cap : 1024;
		v->r = realloc(v->r, v->cap * sizeof(*v->r));
		if (!v->r)
			die("out of memory", NULL);
	}
	memset(&v->r[v->n], 0, sizeof(v->r[0]));
	return &v->r[v->n++];
}

/* FNV-1a over the fields of every range, owners as stream ids. */
struct digest {
	uint64_t h;
};

#if defined(IMPL_OURS) || defined(IMPL_BATCH)
static void digest_add(struct digest *d, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++) {
		d->h ^= v >> (8 * i) & 0xff;
		d->h *= 0x100000001b3ull;
	}
}

static void digest_range(struct digest *d, uint64_t start, uint64_t end,
			 uint64_t cov, uint64_t entry, uint64_t taken,
			 uint64_t pred, uint64_t owner)
{
	digest_add(d, start);
	digest_add(d, end);
	digest_add(d, cov);
	digest_add(d, entry);
	digest_add(d, taken);
	digest_add(d, pred);
	digest_add(d, owner);
}
#endif

/* ---- the offline bound --------------------------------------------------- */

/* LSD radix sort, 8-bit digits, skipping digits on which all keys agree. */
static void radix_sort(uint64_t *a, uint64_t *tmp, size_t n)
{
	static size_t cnt[8][256];
	uint64_t *src = a, *dst = tmp;

	memset(cnt, 0, sizeof(cnt));
	for (size_t i = 0; i < n; i++) {
		uint64_t k = a[i];

		for (int d = 0; d < 8; d++)
			cnt[d][(k >> (8 * d)) & 0xff]++;
	}
	for (int d = 0; d < 8; d++) {
		size_t sum = 0;

		if (n == 0 || cnt[d][(a[0] >> (8 * d)) & 0xff] == n)
			continue;
		for (int v = 0; v < 256; v++) {
			size_t c = cnt[d][v];

			cnt[d][v] = sum;
			sum += c;
		}
		for (size_t i = 0; i < n; i++)
			dst[cnt[d][(src[i] >> (8 * d)) & 0xff]++] = src[i];
		uint64_t *t = src;

		src = dst;
		dst = t;
	}
	if (src != a)
		memcpy(a, src, n * sizeof(*a));
}

/*
 * The ranges of @n blocks with their counters, from the sorted starts and
 * the sorted (end + 1, predicted) keys: the cut points are the distinct keys;
 * the coverage of [cut, next cut) is the running sum of starts minus ends;
 * a range exists where it is > 0.
 */
static void bound(const struct bench_block *b, size_t n, struct brvec *out)
{
	uint64_t *s = xmalloc(n * sizeof(*s)), *e = xmalloc(n * sizeof(*e));
	uint64_t *tmp = xmalloc(n * sizeof(*tmp));
	size_t i = 0, j = 0, open = SIZE_MAX;
	uint64_t cov = 0;

	for (size_t k = 0; k < n; k++) {
		s[k] = b[k].start;
		e[k] = (b[k].end + 1) << 1 | (b[k].pred == BENCH_PRED_HIT);
	}
	radix_sort(s, tmp, n);
	radix_sort(e, tmp, n);
	free(tmp);

	out->n = 0;
	while (i < n || j < n) {
		uint64_t x = UINT64_MAX, ends = 0, preds = 0, starts = 0;

		if (i < n)
			x = s[i];
		if (j < n && e[j] >> 1 < x)
			x = e[j] >> 1;
		for (; j < n && e[j] >> 1 == x; j++) {
			ends++;
			preds += e[j] & 1;
		}
		for (; i < n && s[i] == x; i++)
			starts++;
		if (open != SIZE_MAX) {
			out->r[open].end = x - 1;
			out->r[open].taken = ends;
			out->r[open].pred = preds;
		}
		cov = cov + starts - ends;
		open = SIZE_MAX;
		if (cov) {
			struct brange *r = brvec_push(out);

			r->start = x;
			r->coverage = cov;
			r->entry = starts;
			open = out->n - 1;
		}
	}
	free(s);
	free(e);
}

/* ---- the implementations ------------------------------------------------- */

#if defined(IMPL_OURS)
#include <blockrange/blockrange.h>

struct impl {
	struct blockrange_ctx *ctx;
	char *owner_keys;	/* owner i is the key &owner_keys[i] */
};

static void impl_init(struct impl *im, const struct stream *s,
		      const char *strategy)
{
	if (strcmp(strategy, "adaptive"))
		die("--strategy is for the batch engine", strategy);
	im->ctx = blockrange_ctx_new(NULL);
	im->owner_keys = xmalloc(s->owners + 1);
	if (!im->ctx)
		die("blockrange_ctx_new failed", NULL);
}

static inline void impl_block(struct impl *im, const struct bench_block *b)
{
	int err = blockrange_count_block(im->ctx, b->start, b->end,
					 b->owner ? &im->owner_keys[b->owner] : NULL,
					 (enum blockrange_pred)b->pred);

	if (err)
		die("blockrange_count_block failed", strerror(-err));
}

static size_t impl_nr_ranges(struct impl *im)
{
	return blockrange_ctx_nr_ranges(im->ctx);
}

static size_t impl_req_bytes(struct impl *im)
{
	return blockrange_ctx_mem(im->ctx);
}

static void impl_collect(struct impl *im, uint64_t lowest, struct brvec *out,
			 struct digest *d)
{
	const struct blockrange *br;

	(void)lowest;
	out->n = 0;
	for (br = blockrange_first(im->ctx); br; br = blockrange_next(br)) {
		struct brange *r = brvec_push(out);
		const char *o = blockrange_owner(im->ctx, br);

		*r = (struct brange){ br->start, br->end, br->coverage,
				      br->entry, br->taken, br->pred };
		digest_range(d, br->start, br->end, br->coverage, br->entry,
			     br->taken, br->pred,
			     o ? (uint64_t)(o - im->owner_keys) : 0);
	}
}

static void impl_finish(struct impl *im)
{
	(void)im;
}

#define impl_agg_bytes(im) 0
#define impl_distinct(im) 0
#define impl_print_stats(im) ((void)(im))
#define HAS_DIGEST 1

#elif defined(IMPL_BATCH)
#include <blockrange/blockrange.h>

/* The strategy's internals, to force one and to report what it did. */
#include "lib/internal.h"

#define BATCH_BUF 256

struct impl {
	struct blockrange_agg *agg;
	struct blockrange_ctx *ctx;
	char *owner_keys;	/* owner i is the key &owner_keys[i] */
	const void **owner_ptr;	/* owner id -> key (NULL for 0) */
	struct blockrange_block buf[BATCH_BUF];
	size_t nbuf;
	size_t agg_bytes;	/* the aggregate's size before the build */
	size_t distinct;
	struct agg_stats stats;
};

static void impl_init(struct impl *im, const struct stream *s,
		      const char *strategy)
{
	struct agg_tuning t = agg_tuning_default();

	im->agg = blockrange_agg_new(NULL);
	im->ctx = NULL;
	im->owner_keys = xmalloc(s->owners + 1);
	im->owner_ptr = xmalloc((s->owners + 1) * sizeof(*im->owner_ptr));
	im->owner_ptr[0] = NULL;
	for (uint64_t i = 1; i <= s->owners; i++)
		im->owner_ptr[i] = &im->owner_keys[i];
	im->nbuf = 0;
	if (!im->agg)
		die("blockrange_agg_new failed", NULL);
	if (!strcmp(strategy, "hash")) {
		t.force = AGG_HASH;
		t.hash_max = SIZE_MAX;
	} else if (!strcmp(strategy, "append")) {
		t.force = AGG_APPEND;
	} else if (strcmp(strategy, "adaptive")) {
		die("--strategy takes adaptive, hash or append", strategy);
	}
	agg_tune(im->agg, &t);
}

static void flush(struct impl *im)
{
	int err = blockrange_agg_add_blocks(im->agg, im->buf, im->nbuf);

	if (err)
		die("blockrange_agg_add_blocks failed", strerror(-err));
	im->nbuf = 0;
}

/* Blocks @b[0..n) into the buffer, a batch at a time. */
static void impl_feed(struct impl *im, const struct bench_block *b, uint64_t n)
{
	while (n) {
		size_t room = BATCH_BUF - im->nbuf, k;
		struct blockrange_block *d = &im->buf[im->nbuf];

		if (room > n)
			room = (size_t)n;
		for (k = 0; k < room; k++)
			d[k] = (struct blockrange_block){
				b[k].start, b[k].end, im->owner_ptr[b[k].owner],
				(enum blockrange_pred)b[k].pred, 1 };
		im->nbuf += room;
		b += room;
		n -= room;
		if (im->nbuf == BATCH_BUF)
			flush(im);
	}
}

static void impl_finish(struct impl *im)
{
	int err;

	flush(im);
	im->agg_bytes = blockrange_agg_mem(im->agg);
	agg_stats(im->agg, &im->stats);
	err = blockrange_build(im->agg, NULL, &im->ctx);
	if (err)
		die("blockrange_build failed", strerror(-err));
	/* The build counts the distinct blocks (the aggregate would settle). */
	im->distinct = blockrange_ctx_nr_blocks(im->ctx);
	blockrange_agg_free(im->agg);
	im->agg = NULL;
}

static size_t impl_nr_ranges(struct impl *im)
{
	return blockrange_ctx_nr_ranges(im->ctx);
}

static size_t impl_req_bytes(struct impl *im)
{
	return blockrange_ctx_mem(im->ctx);
}

static void impl_collect(struct impl *im, uint64_t lowest, struct brvec *out,
			 struct digest *d)
{
	struct blockrange_rec r;
	bool more;

	(void)lowest;
	out->n = 0;
	for (more = blockrange_rec_first(im->ctx, &r); more;
	     more = blockrange_rec_next(im->ctx, &r)) {
		struct brange *b = brvec_push(out);
		const char *o = r.owner;

		*b = (struct brange){ r.start, r.end, r.coverage, r.entry,
				      r.taken, r.pred };
		digest_range(d, r.start, r.end, r.coverage, r.entry, r.taken,
			     r.pred, o ? (uint64_t)(o - im->owner_keys) : 0);
	}
}

#define impl_agg_bytes(im) ((im)->agg_bytes)
#define impl_distinct(im) ((im)->distinct)

static void impl_print_stats(const struct impl *im)
{
	printf(", \"chunks_hash\": %" PRIu64 ", \"chunks_append\": %" PRIu64
	       ", \"switches\": %" PRIu64 ", \"compactions\": %" PRIu64,
	       im->stats.chunks_hash, im->stats.chunks_append,
	       im->stats.switches, im->stats.compactions);
}

#define HAS_DIGEST 1

#elif defined(IMPL_PERF)
#include "block-range.h"
#include "annotate.h"

/* block-range.c is compiled with -Dmalloc=perf61_counted_malloc. */
static size_t perf_req_bytes;

void *perf61_counted_malloc(size_t size);
void *perf61_counted_malloc(size_t size)
{
	perf_req_bytes += size;
	return malloc(size);
}

struct impl {
	struct symbol *syms;	/* owner i is &syms[i] */
};

static void impl_init(struct impl *im, const struct stream *s,
		      const char *strategy)
{
	if (strcmp(strategy, "adaptive"))
		die("--strategy is for the batch engine", strategy);
	im->syms = calloc(s->owners + 1, sizeof(*im->syms));
	if (!im->syms)
		die("out of memory", NULL);
}

/* What the seed's process_basic_block() does with one block. */
static inline void impl_block(struct impl *im, const struct bench_block *b)
{
	struct symbol *sym = b->owner ? &im->syms[b->owner] : NULL;
	struct annotation *notes = sym ? symbol__annotation(sym) : NULL;
	struct block_range_iter iter;
	struct block_range *br;

	if (!b->start || b->start > b->end)
		return;
	iter = block_range__create(b->start, b->end);
	if (!block_range_iter__valid(&iter))
		die("block_range__create failed", NULL);
	block_range_iter(&iter)->entry++;
	do {
		br = block_range_iter(&iter);
		br->coverage++;
		br->sym = sym;
		if (notes && notes->max_coverage < br->coverage)
			notes->max_coverage = br->coverage;
	} while (block_range_iter__next(&iter));
	br = block_range_iter(&iter);
	br->taken++;
	if (b->pred == BENCH_PRED_HIT)
		br->pred++;
}

static size_t impl_nr_ranges(struct impl *im)
{
	(void)im;
	return perf_req_bytes / sizeof(struct block_range);
}

static size_t impl_req_bytes(struct impl *im)
{
	(void)im;
	return perf_req_bytes;
}

/*
 * perf keeps one global tree: walk it from the range holding @lowest.  No
 * digest: perf gives a range the owner of the last block counted over it.
 */
static void impl_collect(struct impl *im, uint64_t lowest, struct brvec *out,
			 struct digest *d)
{
	(void)d;
	struct block_range *br;

	(void)im;
	out->n = 0;
	for (br = block_range__find(lowest); br; br = block_range__next(br)) {
		struct brange *r = brvec_push(out);

		*r = (struct brange){ br->start, br->end, br->coverage,
				      br->entry, br->taken, br->pred };
	}
}

static void impl_finish(struct impl *im)
{
	(void)im;
}

#define impl_agg_bytes(im) 0
#define impl_distinct(im) 0
#define impl_print_stats(im) ((void)(im))
#define HAS_DIGEST 0

#endif

/* ---- main -------------------------------------------------------------- */

#if !defined(IMPL_BATCH) && !defined(IMPL_BOUND)
/* Blocks @b[0..n), one by one (the batch engine buffers them instead). */
static inline void impl_feed(struct impl *im, const struct bench_block *b,
			     uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		impl_block(im, &b[i]);
}
#endif

#ifndef IMPL_BOUND
/* @a against the bound's @b with every counter times @rep. */
static bool same(const struct brvec *a, struct brvec *b, uint64_t rep)
{
	size_t i;

	for (i = 0; i < b->n; i++) {
		b->r[i].coverage *= rep;
		b->r[i].entry *= rep;
		b->r[i].taken *= rep;
		b->r[i].pred *= rep;
	}
	for (i = 0; i < a->n && i < b->n; i++) {
		const struct brange *x = &a->r[i], *y = &b->r[i];

		if (memcmp(x, y, sizeof(*x))) {
			fprintf(stderr,
				"splitbench[%s]: range %zu differs from the bound:\n"
				"  %s: [%#" PRIx64 ", %#" PRIx64 "] cov %" PRIu64
				" entry %" PRIu64 " taken %" PRIu64 " pred %" PRIu64 "\n"
				"  bound: [%#" PRIx64 ", %#" PRIx64 "] cov %" PRIu64
				" entry %" PRIu64 " taken %" PRIu64 " pred %" PRIu64 "\n",
				IMPL_NAME, i, IMPL_NAME, x->start, x->end,
				x->coverage, x->entry, x->taken, x->pred,
				y->start, y->end, y->coverage, y->entry,
				y->taken, y->pred);
			return false;
		}
	}
	if (a->n != b->n) {
		fprintf(stderr, "splitbench[%s]: %zu ranges, the bound has %zu\n",
			IMPL_NAME, a->n, b->n);
		return false;
	}
	return true;
}
#endif

int main(int argc, char **argv)
{
	struct stream s;
	struct brvec ref = { NULL, 0, 0 };
	double cap = 0, t0, t1, c0, c1;
	size_t heap0, rss0, peak, heap, req, ranges;
	uint64_t fed = 0, repeat = 1;
	bool ok = true, check = true;
	const char *strategy = "adaptive";
	struct digest dg = { 0xcbf29ce484222325ull };

	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--cap") && i + 1 < argc) {
			cap = strtod(argv[++i], NULL);
			if (!(cap > 0))
				die("--cap needs a positive number of seconds",
				    argv[i]);
		} else if (!strcmp(argv[i], "--no-check")) {
			check = false;
		} else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) {
			repeat = strtoull(argv[++i], NULL, 10);
			if (!repeat)
				die("--repeat needs a positive count", argv[i]);
		} else if (!strcmp(argv[i], "--strategy") && i + 1 < argc) {
			strategy = argv[++i];
		} else {
			argc = 0;
		}
	}
	if (argc < 2) {
		fprintf(stderr, "usage: %s STREAM [--cap SECONDS] [--no-check]"
			" [--repeat N] [--strategy adaptive|hash|append]\n",
			argv[0] ? argv[0] : "splitbench");
		return 2;
	}
	load(argv[1], &s);

#ifdef IMPL_BOUND
	(void)check;
	(void)dg;
	if (strcmp(strategy, "adaptive"))
		die("--strategy is for the batch engine", strategy);
	heap0 = heap_in_use();
	rss0 = rss_now();
	c0 = cpu_now();
	t0 = now();
	bound(s.b, s.n, &ref);
	t1 = now();
	c1 = cpu_now();
	peak = rss_peak();
	heap = heap_in_use() - heap0;
	fed = s.n;
	ranges = ref.n;
	req = ref.n * sizeof(ref.r[0]);
#else
	struct impl im;
	struct brvec got = { NULL, 0, 0 };
	uint64_t lowest = UINT64_MAX;

	impl_init(&im, &s, strategy);
	heap0 = heap_in_use();
	rss0 = rss_now();
	c0 = cpu_now();
	t0 = now();
	if (cap > 0) {
		while (fed < s.n) {
			uint64_t stop = fed + 1024 < s.n ? fed + 1024 : s.n;

			impl_feed(&im, &s.b[fed], stop - fed);
			fed = stop;
			if (now() - t0 > cap)
				break;
		}
	} else {
		for (uint64_t r = 0; r < repeat; r++)
			impl_feed(&im, s.b, s.n);
		fed = s.n;
	}
	impl_finish(&im);
	t1 = now();
	c1 = cpu_now();
	peak = rss_peak();
	heap = heap_in_use() - heap0;
	ranges = impl_nr_ranges(&im);
	req = impl_req_bytes(&im);

	/* The check (not timed). */
	for (uint64_t i = 0; i < fed; i++)
		if (s.b[i].start < lowest)
			lowest = s.b[i].start;
	if (check) {
		bound(s.b, fed, &ref);
		impl_collect(&im, lowest, &got, &dg);
		ok = same(&got, &ref, cap > 0 ? 1 : repeat);
	}
	if (check && ok && got.n != ranges) {
		fprintf(stderr, "splitbench[%s]: counts %zu ranges, walk finds %zu\n",
			IMPL_NAME, ranges, got.n);
		ok = false;
	}
	free(got.r);
#endif

	printf("{\"impl\": \"%s\", \"stream\": \"%s\", \"blocks\": %" PRIu64
	       ", \"stream_blocks\": %" PRIu64 ", \"capped\": %s"
	       ", \"seconds\": %.6f, \"cpu_seconds\": %.6f"
	       ", \"ranges\": %zu, \"req_bytes\": %zu"
	       ", \"heap_bytes\": %zu, \"rss_bytes\": %zu",
	       IMPL_NAME, argv[1], fed * (cap > 0 ? 1 : repeat), s.n,
	       fed < s.n ? "true" : "false",
	       t1 - t0, c1 - c0, ranges, req, heap, peak > rss0 ? peak - rss0 : 0);
#ifdef IMPL_BOUND
	printf(", \"verified\": null}\n");
#else
	printf(", \"repeat\": %" PRIu64 ", \"agg_bytes\": %zu"
	       ", \"distinct_blocks\": %zu, \"strategy\": \"%s\"",
	       cap > 0 ? (uint64_t)1 : repeat, (size_t)impl_agg_bytes(&im),
	       (size_t)impl_distinct(&im), strategy);
	if (HAS_DIGEST && check)
		printf(", \"digest\": \"%016" PRIx64 "\"", dg.h);
	impl_print_stats(&im);
	printf(", \"verified\": %s}\n", !check ? "null" : ok ? "true" : "false");
#endif
	free(ref.r);
	free(s.b);
	return ok ? 0 : 3;
}
