// SPDX-License-Identifier: GPL-2.0
/*
 * A thread's life: its state (struct th, found through TLS as cur: state
 * per host thread, which is the guest thread) and its records file, made
 * when the thread first runs plugin code, its open straight lines closed
 * when it ends, freed.  Calls exact.c, ring.c, output.c and context.c
 * (k_start, the block a thread starts after, is the context's).
 */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "qemu-plugin/plugin.h"

/* A thread's state and its records file (g.lock not held). */
struct th *th_alloc(int32_t tid)
{
	struct th *t = aligned_alloc(_Alignof(struct th), sizeof(*t));

	if (!t)
		fatal("out of memory");
	memset(t, 0, sizeof(*t));
	if (!g.exact) {
		for (t->ring_mask = 1; t->ring_mask < g.depth; t->ring_mask <<= 1)
			;
		t->ring = calloc(t->ring_mask, sizeof(*t->ring));
		if (!t->ring)
			fatal("out of memory");
		t->ring_mask--;
	}
	if (g.stack) {
		t->stk = calloc(QREC_STACK_MAX, sizeof(*t->stk));
		if (!t->stk)
			fatal("out of memory");
	}
	t->tid = tid;
	t->prev = &k_start;
	t->re = &t->re0;
	t->to_sample = g.period;
	t->rng = g.seed ^ br_hash64((uint64_t)tid) ^ 1;
	if (g.jitter)
		t->to_sample = next_period(t);
	tick_arm(t);
	pthread_mutex_lock(&g.lock);
	t->seq = g.next_seq++;
	stream_open(t);
	counts_sync(t);
	t->next = g.threads;
	g.threads = t;
	pthread_mutex_unlock(&g.lock);
	return t;
}

/* A thread of this image runs plugin code for the first time. */
struct th *th_start(void)
{
	struct th *t = th_alloc(gettid_());

	cur = t;
	rec_task(t, QREC_FORK, g.pid, t->tid, g.cloner ? g.cloner : g.pid);
	return t;
}

/* Close every open straight line of @t (its own and its signal frames'). */
void th_close_ranges(struct th *t)
{
	range_close(t, t->prev);
	while (t->nsig) {
		struct sigframe *f = &t->sig[--t->nsig];

		if (g.exact && f->rt && f->prev->end.kind != K_START)
			trace_add(t, f->rf, f->rt, f->prev->end.last, f->rfm,
				  f->prev->end.map);
	}
	t->prev = &k_start;
}

/*
 * @t is done: its open straight lines counted, EXIT if @exit_rec, its
 * files closed (its table stays valid in its file).
 */
void th_finish(struct th *t, bool exit_rec)
{
	th_close_ranges(t);
	if (exit_rec)
		rec_task(t, QREC_EXIT, g.ppid, t->tid, g.ppid);
	table_close(t);
	stream_close(t);
}

void th_free(struct th *t)
{
	rents_free(t);
	free(t->rents);
	free(t->ring);
	free(t->stk);
	free(t);
}

/* @t off the thread list (g.lock not held). */
void th_unlink(struct th *t)
{
	struct th **pp;

	pthread_mutex_lock(&g.lock);
	for (pp = &g.threads; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	pthread_mutex_unlock(&g.lock);
}
