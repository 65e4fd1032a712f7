// SPDX-License-Identifier: GPL-2.0
/*
 * The countdown of taken branches and sampled mode's ring.  The per-block
 * callbacks count every taken branch down (and, sampled, put it in the
 * thread's ring); when the countdown runs out, tick() writes a sample of
 * the ring's last `depth` branches if one is due (every `period` taken
 * branches, jittered) and copies the totals to the header page.  Calls
 * output.c and context.c.
 */
#include "qemu-plugin/plugin.h"

/* The countdown to the next tick(): a sample due or SYNC_EVERY. */
void tick_arm(struct th *t)
{
	uint64_t n = SYNC_EVERY;

	if (!g.exact && t->to_sample < n)
		n = t->to_sample;
	t->countdown = n;
	t->chunk = n;
}

uint64_t next_period(struct th *t)
{
	uint64_t r;

	if (!g.jitter)
		return g.period;
	/* xorshift64 */
	t->rng ^= t->rng << 13;
	t->rng ^= t->rng >> 7;
	t->rng ^= t->rng << 17;
	r = t->rng % (2 * g.jitter + 1);
	return g.period + r - g.jitter;	/* jitter < period */
}

static void sample(struct th *t)
{
	uint64_t have = t->pos - t->base, k;
	unsigned n = have < g.depth ? (unsigned)have : g.depth, i;
	unsigned nf = (unsigned)(t->stk_top - t->stk_bot);
	struct qrec_sample *s;
	struct qrec_branch *e;
	uint64_t *ret;

	s = rec_begin(t, QREC_SAMPLE, sizeof(struct qrec_rec) + sizeof(*s) +
		      n * sizeof(*e) + nf * sizeof(*ret));
	s->time = now();
	s->pid = g.pid;
	s->tid = t->tid;
	s->nr = n;
	s->stack = nf | (t->stk_cut ? QREC_STACK_CUT : 0);
	e = (struct qrec_branch *)(s + 1);
	/* newest first */
	for (i = 0, k = t->pos; i < n; i++)
		e[i] = t->ring[--k & t->ring_mask];
	/* innermost first */
	ret = (uint64_t *)(e + n);
	for (i = 0, k = t->stk_top; i < nf; i++)
		ret[i] = t->stk[--k & (QREC_STACK_MAX - 1)].ret;
	t->n.samples++;
}

/* The countdown of taken branches ran out (see struct th). */
void __attribute__((noinline)) tick(struct th *t)
{
	if (!g.exact) {
		t->to_sample -= t->chunk;
		if (!t->to_sample) {
			sample(t);
			t->to_sample = next_period(t);
		}
	}
	counts_sync(t);
	tick_arm(t);
}
