// SPDX-License-Identifier: GPL-2.0
/*
 * The per-block callbacks, the plugin's hot path: every time a block runs,
 * it is paired with the block the same thread ran before.  A conditional
 * jump was taken iff this block starts at its target and not at its
 * fall-through; an unconditional jump, call, return or indirect branch
 * always is; a block that ended without a branch (a page boundary, QEMU's
 * instruction limit, a rep-string iteration, a system call, a
 * page-crossing instruction QEMU listed truncated) continues the straight
 * line.  Anything else (a signal handler entered, a sigreturn, fork's
 * return in the child) is a break: no branch, the straight line ends.
 * The common cases are a few compares against what the block before
 * expects (struct tbi) and, in exact mode, the ways of the straight line
 * (way_taken()); everything here but the callbacks is static, so that
 * they inline what they use.  Calls threads.c (a thread's first block),
 * exact.c, ring.c and context.c.
 */
#include <string.h>

#include "qemu-plugin/plugin.h"

/* One more taken branch: every SYNC_EVERY the totals go to the header page. */
static always_inline void taken_count(struct th *t)
{
	t->pos++;
	if (unlikely(--t->countdown == 0))
		tick(t);
}

/* A taken branch from the last instruction of @p (its end: @pe) to @c. */
static always_inline void taken_(struct th *t, struct tbi *p,
				 const struct tend *pe, struct tbi *c,
				 bool exact)
{
	if (exact) {
		if (!way_taken(t, p, c))
			taken_exact_slow(t, p, c);
	} else {
		struct qrec_branch *e = &t->ring[t->pos & t->ring_mask];

		e->from = pe->last;
		e->to = c->start;
	}
	taken_count(t);
}

static void taken(struct th *t, struct tbi *p, struct tbi *c)
{
	taken_(t, p, &p->end, c, g.exact);
}

/* A new straight line begins at @c, entered by no branch. */
static void range_begin(struct th *t, struct tbi *c)
{
	t->rf = 0;
	t->rfm = 0;
	t->rt = c->start;
	t->re = &t->re0;
	ring_reset(t);
}

static void range_break(struct th *t, struct tbi *p, struct tbi *c)
{
	range_close(t, p);
	range_begin(t, c);
	t->n.breaks++;
}

/* @c is a signal handler's entry that @p did not branch to. */
static void deliver(struct th *t, struct tbi *p, struct tbi *c)
{
	struct sigframe *f;

	range_sync(t);
	if (t->nsig == MAX_SIGFRAMES) {
		/* handlers left by longjmp: forget the oldest */
		f = &t->sig[0];
		if (f->rt && f->prev->end.kind != K_START && g.exact)
			trace_add(t, f->rf, f->rt, f->prev->end.last, f->rfm,
				  f->prev->end.map);
		memmove(&t->sig[0], &t->sig[1], sizeof(t->sig[0]) * (MAX_SIGFRAMES - 1));
		t->nsig--;
	}
	f = &t->sig[t->nsig++];
	f->prev = p;
	f->rf = t->rf;
	f->rt = t->rt;
	f->rfm = t->rfm;
	f->stk_top = t->stk_top;
	t->n.signals++;
	t->n.breaks++;
	range_begin(t, c);
}

static void step(struct th *t, struct tbi *p, struct tbi *c);

/* The slow cases of step(). */
static void step_slow(struct th *t, struct tbi *p, struct tbi *c)
{
	switch (p->end.kind) {
	case K_START:
		range_begin(t, c);
		return;
	case K_SYSCALL:
		if (t->sigreturn) {
			struct tbi *q;

			t->sigreturn = false;
			range_close(t, p);
			ring_reset(t);
			t->n.breaks++;
			if (!t->nsig) {
				range_begin(t, c);
				return;
			}
			/* back in the interrupted context */
			t->nsig--;
			t->rf = t->sig[t->nsig].rf;
			t->rt = t->sig[t->nsig].rt;
			t->rfm = t->sig[t->nsig].rfm;
			t->re = &t->re0;
			q = t->sig[t->nsig].prev;
			step(t, q, c);
			return;
		}
		if (c->start == p->end.fall && c->end.map == p->end.map)
			return;
		break;
	case K_REP:
		if (c->start == p->end.last) {
			/* the same instruction again: counted once */
			t->n.insns -= c->ninsns;
			return;
		}
		if (c->start == p->end.fall && c->end.map == p->end.map)
			return;
		break;
	case K_IND_JMP:
	case K_IND_CALL:
		/* a handler's entry reached by an indirect branch: a call */
		taken(t, p, c);
		return;
	default:
		break;
	}
	if (c->handler && c->start != p->end.fall) {
		deliver(t, p, c);
		return;
	}
	range_break(t, p, c);
}

/* Pair the block @c that runs now with @p (its end: @pe), the one before. */
static always_inline void step_(struct th *t, struct tbi *p,
				const struct tend *pe, struct tbi *c,
				bool exact)
{
	switch (pe->kind) {
	case K_PLAIN:
		if (likely(c->start == pe->fall && c->end.map == pe->map))
			return;
		break;
	case K_COND:
		if (c->start == pe->fall)
			return;
		if (c->start == pe->target) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	case K_JMP:
	case K_CALL:
		if (c->start == pe->target) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	case K_RET:
	case K_IND_JMP:
	case K_IND_CALL:
		if (likely(!c->handler)) {
			taken_(t, p, pe, c, exact);
			return;
		}
		break;
	default:
		break;
	}
	step_slow(t, p, c);
}

static void __attribute__((noinline)) step(struct th *t, struct tbi *p,
					    struct tbi *c)
{
	step_(t, p, &p->end, c, g.exact);
}

/*
 * The same rep string instruction again: counted once (out of line, so
 * that the callback adds each block's instructions in one instruction).
 */
static void __attribute__((noinline)) rep_again(struct th *t,
						 const struct tbi *c)
{
	t->n.insns -= c->ninsns;
}


/* The first block a thread runs (no state yet). */
static void __attribute__((noinline)) exec_first(struct tbi *c)
{
	struct th *t = th_start();
	struct tbi *p = t->prev;

	t->prev = c;
	t->n.insns += c->ninsns;
	step(t, p, c);
}

/* What the block before expects of @c, but for the fall-through. */
static always_inline void pair_(struct th *t, struct tbi *p, struct tbi *c,
				bool exact)
{
	if (likely((c->key & p->emask) == p->etgt)) {
		taken_(t, p, &p->end, c, exact);
		return;
	}
	if (c->key == p->erep) {
		rep_again(t, c);
		return;
	}
	step(t, p, c);
}

/* Exact mode: no way of the straight line knew @p to @c (out of line). */
static void __attribute__((noinline)) pair_exact(struct th *t, struct tbi *p,
						  struct tbi *c)
{
	pair_(t, p, c, true);
}

/*
 * The callbacks of every block run, one per mode: the common cases in a
 * few compares against what the block before expects (struct tbi), no
 * jump table, no call but for the rare ones (tail calls: the common
 * cases save no register).
 */
static always_inline void on_exec_(void *udata, bool exact)
{
	struct tbi *c = udata;
	struct th *t = cur;
	struct tbi *p;

	if (unlikely(!t)) {
		exec_first(c);
		return;
	}
	p = t->prev;
	t->prev = c;
	t->n.insns += c->ninsns;
	/* the fall-through, in the same mapping */
	if (likely(c->key == p->efall))
		return;
	if (exact) {
		/* a handler's entry is decided by step() */
		if (likely(!c->handler) && way_taken(t, p, c))
			taken_count(t);
		else
			pair_exact(t, p, c);
		return;
	}
	pair_(t, p, c, false);
}

void on_exec_sampled(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	on_exec_(udata, false);
}

void on_exec_exact(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	on_exec_(udata, true);
}
