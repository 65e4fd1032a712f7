// SPDX-License-Identifier: GPL-2.0
/*
 * Exact mode's counts: every straight line a thread runs, known by the
 * taken branch that entered it (struct rent), and the thread's trace table
 * (a file it maps, see qrec_wire.h) counting (entering branch source,
 * range start, range end).  The table is written out as TRACES records
 * and started again twice as large when half full, so that the memory
 * grows with the distinct traces; the ways of the straight lines point
 * into it and are forgotten whenever it moves.  The per-block callbacks
 * call taken_exact_slow() when no way knew a taken branch (way_taken() in
 * plugin.h is the fast path).  Calls output.c and context.c.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/hash.h"
#include "qemu-plugin/plugin.h"

/* The ways of every straight line of @t, and where it is, are forgotten. */
void rents_forget(struct th *t)
{
	size_t i;

	range_sync(t);
	for (i = 0; i < t->rents_cap; i++)
		if (t->rents[i])
			memset(t->rents[i]->w, 0, sizeof(t->rents[i]->w));
	t->re = &t->re0;
}

/* The straight lines of @t are freed (the table stays, empty). */
void rents_free(struct th *t)
{
	size_t i;

	range_sync(t);
	for (i = 0; i < t->rents_cap; i++) {
		free(t->rents[i]);
		t->rents[i] = NULL;
	}
	t->rents_nr = 0;
	t->re = &t->re0;
}

static inline size_t rent_hash(const struct tbi *a, const struct tbi *b)
{
	return (size_t)br_hash2((uint64_t)(uintptr_t)a, (uint64_t)(uintptr_t)b);
}

/* A table of @t's straight lines twice as large (or the first). */
static void rents_grow(struct th *t)
{
	size_t cap = t->rents_cap ? 2 * t->rents_cap : RENTS_MIN_SLOTS, i, k;
	struct rent **n = calloc(cap, sizeof(*n));

	if (!n)
		fatal("out of memory");
	for (i = 0; i < t->rents_cap; i++) {
		struct rent *e = t->rents[i];

		if (!e)
			continue;
		for (k = rent_hash(e->a, e->b) & (cap - 1); n[k];
		     k = (k + 1) & (cap - 1))
			;
		n[k] = e;
	}
	free(t->rents);
	t->rents = n;
	t->rents_cap = cap;
}

/* The straight line entered by a taken branch from @a to @b, in @t. */
static struct rent *rent_get(struct th *t, const struct tbi *a,
			     const struct tbi *b)
{
	struct rent *e;
	size_t k;

	if (2 * (t->rents_nr + 1) > t->rents_cap)
		rents_grow(t);
	for (k = rent_hash(a, b) & (t->rents_cap - 1);;
	     k = (k + 1) & (t->rents_cap - 1)) {
		e = t->rents[k];
		if (!e)
			break;
		if (e->a == a && e->b == b)
			return e;
	}
	e = calloc(1, sizeof(*e));
	if (!e)
		fatal("out of memory");
	e->a = a;
	e->b = b;
	t->rents[k] = e;
	t->rents_nr++;
	return e;
}

static inline size_t trace_hash(uint64_t from, uint64_t start, uint64_t end)
{
	return (size_t)(br_hash2(start, end) ^ br_hash64(from));
}

/* At most this many traces a TRACES record (it fits the smallest window). */
#define TRACES_PER_REC ((WIN_MIN - 64) / sizeof(struct qrec_trace))

/*
 * Write @t's table out as TRACES records: the table then counts nothing
 * more (its valid flag is cleared first, so that a table cut short by a
 * kill is not counted twice).
 */
static void traces_flush(struct th *t)
{
	size_t i = 0, left = t->tab_nr;

	t->tabh->valid = 0;
	while (left) {
		struct qrec_traces *h;
		struct qrec_trace *e;
		uint32_t n = 0, want = left < TRACES_PER_REC ?
				       (uint32_t)left : TRACES_PER_REC;

		h = rec_begin(t, QREC_TRACES, sizeof(struct qrec_rec) +
			      sizeof(*h) + want * sizeof(*e));
		h->pid = g.pid;
		h->tid = t->tid;
		h->nr = want;
		e = (struct qrec_trace *)(h + 1);
		for (; n < want; i++)
			if (t->tab[i].count)
				e[n++] = t->tab[i];
		left -= n;
	}
}

/* A new, empty table of @cap slots, in the thread's table file. */
static void table_open(struct th *t, size_t cap)
{
	char path[PATH_MAX + 64];
	size_t len = sizeof(struct qrec_table) + cap * sizeof(struct qrec_trace);
	int fd;

	file_path(path, sizeof(path), t->seq, "qtab");
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		fatal("cannot create %s: %s", path, strerror(errno));
	file_room(fd, path, 0, len);
	t->tabh = file_map(fd, path, 0, len);
	close(fd);
	memcpy(t->tabh->magic, QREC_TABLE_MAGIC, sizeof(t->tabh->magic));
	t->tabh->cap = cap;
	t->tab = (struct qrec_trace *)(t->tabh + 1);
	t->tab_cap = cap;
	t->tab_nr = 0;
	t->tabh->valid = 1;
}

void table_close(struct th *t)
{
	rents_forget(t);
	if (!t->tabh)
		return;
	munmap(t->tabh, sizeof(struct qrec_table) +
	       t->tab_cap * sizeof(struct qrec_trace));
	t->tabh = NULL;
	t->tab = NULL;
	t->tab_cap = 0;
	t->tab_nr = 0;
}

/*
 * The table is half full: its counts go out as TRACES records and a table
 * twice as large (at most TRACES_MAX_SLOTS) starts empty, so that the
 * memory grows with the distinct traces, not with the run time.
 */
static void trace_grow(struct th *t)
{
	size_t cap = t->tab_cap ? 2 * t->tab_cap : TRACES_MIN_SLOTS;

	if (cap > TRACES_MAX_SLOTS)
		cap = TRACES_MAX_SLOTS;
	if (t->tabh) {
		traces_flush(t);
		table_close(t);
	}
	rents_forget(t);
	table_open(t, cap);
	counts_sync(t);
}

struct qrec_trace *trace_add(struct th *t, uint64_t from, uint64_t start,
			     uint64_t end, uint32_t from_map, uint32_t map)
{
	struct qrec_trace *s;
	size_t k;

	if (unlikely(2 * (t->tab_nr + 1) > t->tab_cap))
		trace_grow(t);
	for (k = trace_hash(from, start, end) & (t->tab_cap - 1);;
	     k = (k + 1) & (t->tab_cap - 1)) {
		s = &t->tab[k];
		if (!s->count)
			break;
		if (s->start == start && s->end == end && s->from == from &&
		    s->map == map && s->from_map == from_map) {
			s->count++;
			return s;
		}
	}
	*s = (struct qrec_trace){ .from = from, .start = start, .end = end,
				  .count = 1, .from_map = from_map, .map = map };
	t->tab_nr++;
	return s;
}

/* Does @s, a slot maybe of another thread's table, count this key? */
static inline bool hint_ok(const struct th *t, const struct qrec_trace *s,
			   const struct tbi *p)
{
	return (size_t)(s - t->tab) < t->tab_cap && s->start == t->rt &&
	       s->from == t->rf && s->end == p->end.last &&
	       s->map == p->end.map && s->from_map == t->rfm && s->count;
}

/*
 * The straight line ends at @p's last instruction: count it.  Most times
 * a block ends one of the few ranges it ended last, so the block keeps
 * pointers to those slots (NHINTS of them); one is used only if it lies
 * in this thread's table and holds this very key (blocks are shared by
 * the threads).
 */
static struct qrec_trace *trace_end(struct th *t, struct tbi *p)
{
	struct qrec_trace *s = __atomic_load_n(&p->hint[0], __ATOMIC_RELAXED);
	struct qrec_trace *o = NULL;
	unsigned i, k;

	if (likely(hint_ok(t, s, p))) {
		s->count++;
		return s;
	}
	for (k = 1; k < NHINTS; k++) {
		o = __atomic_load_n(&p->hint[k], __ATOMIC_RELAXED);
		if (hint_ok(t, o, p))
			break;
	}
	if (k < NHINTS) {
		o->count++;
	} else {
		o = trace_add(t, t->rf, t->rt, p->end.last, t->rfm,
			      p->end.map);
		k = NHINTS - 1;
	}
	/* the latest first: the ones before it move down one */
	for (i = k; i > 0; i--)
		__atomic_store_n(&p->hint[i],
				 __atomic_load_n(&p->hint[i - 1], __ATOMIC_RELAXED),
				 __ATOMIC_RELAXED);
	__atomic_store_n(&p->hint[0], o, __ATOMIC_RELAXED);
	return o;
}

/*
 * The taken branch from @p to @c ends the straight line being run (its
 * ways did not know it): count it (trace_end()), and let the straight
 * line remember it (see struct rent).
 */
void __attribute__((noinline)) taken_exact_slow(struct th *t, struct tbi *p,
						struct tbi *c)
{
	struct rent *e = t->re;
	struct qrec_trace *s;
	struct rway w;
	unsigned i;

	/* the ways way_taken() does not look at */
	for (i = 2; i < RWAYS; i++)
		if (e->w[i].p == p && e->w[i].c == c)
			break;
	if (i < RWAYS) {
		w = e->w[i];
		w.slot->count++;
	} else {
		range_sync(t);
		if (t->rents_nr >= RENTS_MAX) {
			rents_free(t);
			e = t->re;
		}
		/* first, as it may move the slots (and forget the ways) */
		s = trace_end(t, p);
		w = (struct rway){ p, c, s, rent_get(t, p, c) };
		i = RWAYS - 1;
		if (e == &t->re0) {
			t->re = w.next;
			return;
		}
	}
	/* the latest first */
	memmove(&e->w[1], &e->w[0], i * sizeof(e->w[0]));
	e->w[0] = w;
	t->re = w.next;
}

/* The straight line ends at @p's last instruction (no branch). */
void range_close(struct th *t, struct tbi *p)
{
	range_sync(t);
	if (g.exact && t->rt && p->end.kind != K_START)
		trace_add(t, t->rf, t->rt, p->end.last, t->rfm, p->end.map);
	t->rt = 0;
	t->re = &t->re0;
}
