// SPDX-License-Identifier: GPL-2.0
/*
 * The block table: every distinct block QEMU translated (struct tbi),
 * interned so that a block translated again costs no memory, with what it
 * expects of the block that runs after it (its key, fall-through, target,
 * rep-string iteration), and the signal handlers' entries that mark the
 * blocks starting there.  Translation fills it, system calls add handlers,
 * the per-block callbacks read it.  Calls context.c only.
 */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "qemu-plugin/plugin.h"

/*
 * A block's start @addr and its mapping @map in one word: user addresses
 * have 47 bits, mapping ids below 0xffff take the top 16 bits (a larger
 * one gives NO_KEY: step() decides then).
 */
static uint64_t tbi_key(uint64_t addr, uint32_t map)
{
	if (addr >> 48 || map >= 0xffff)
		return NO_KEY;
	return addr | (uint64_t)map << 48;
}

/* @b's expectations of the next block (struct tbi), from its end. */
static void tbi_expect(struct tbi *b)
{
	uint64_t fall = tbi_key(b->end.fall, b->end.map);
	uint64_t target = tbi_key(b->end.target, b->end.map);

	b->key = tbi_key(b->start, b->end.map);
	if (b->handler && b->key != NO_KEY)
		b->key |= KEY_HANDLER;
	b->efall = NO_ADDR;
	b->etgt = NO_ADDR;
	b->emask = UINT64_MAX;
	b->erep = NO_ADDR;
	switch (b->end.kind) {
	case K_PLAIN:
		b->efall = fall;
		break;
	case K_COND:
		b->efall = fall;
		/* a jump to the fall-through: step() says it continues */
		if (b->end.target != b->end.fall)
			b->etgt = target;
		break;
	case K_JMP:
	case K_CALL:
		b->etgt = target;
		break;
	case K_RET:
	case K_IND_JMP:
	case K_IND_CALL:
		b->etgt = 0;
		b->emask = KEY_HANDLER;
		break;
	case K_REP:
		b->efall = fall;
		b->erep = tbi_key(b->end.last, b->end.map);
		break;
	default:	/* system calls, traps: step_slow() */
		break;
	}
	if (b->efall == NO_KEY)
		b->efall = NO_ADDR;
	if (b->etgt == NO_KEY)
		b->etgt = NO_ADDR;
	if (b->erep == NO_KEY)
		b->erep = NO_ADDR;
}

void tbi_mark_handler(struct tbi *b)
{
	b->handler = 1;
	if (b->key != NO_KEY)
		__atomic_store_n(&b->key, b->key | KEY_HANDLER, __ATOMIC_RELAXED);
}

bool is_handler(uint64_t addr)
{
	size_t i;

	for (i = 0; i < g.nr_handlers; i++)
		if (g.handlers[i] == addr)
			return true;
	return false;
}

struct tbi *tbi_intern(struct tbi *k)
{
	size_t h = (size_t)(br_hash64(k->start) % TBI_BUCKETS);
	struct tbi *b;

	for (b = g.tbis[h]; b; b = b->next)
		if (b->start == k->start && b->end.last == k->end.last &&
		    b->end.fall == k->end.fall && b->end.target == k->end.target &&
		    b->ninsns == k->ninsns && b->end.map == k->end.map &&
		    b->end.kind == k->end.kind)
			return b;
	if (!g.chunk || g.chunk_used == TBI_CHUNK) {
		struct tbi **cs = realloc(g.chunks, (g.nr_chunks + 1) * sizeof(*cs));

		if (!cs || !(g.chunk = aligned_alloc(_Alignof(struct tbi),
						     TBI_CHUNK * sizeof(*g.chunk))))
			fatal("out of memory");
		memset(g.chunk, 0, TBI_CHUNK * sizeof(*g.chunk));
		g.chunks = cs;
		g.chunks[g.nr_chunks++] = g.chunk;
		g.chunk_used = 0;
	}
	b = &g.chunk[g.chunk_used++];
	*b = *k;
	tbi_expect(b);
	b->next = g.tbis[h];
	g.tbis[h] = b;
	return b;
}

/* A handler at @addr: mark the blocks that start there (g.lock not held). */
void add_handler(uint64_t addr)
{
	struct tbi *b;
	size_t h;

	if (addr <= 1)	/* SIG_DFL, SIG_IGN */
		return;
	pthread_mutex_lock(&g.lock);
	if (!is_handler(addr)) {
		if (g.nr_handlers == g.cap_handlers) {
			size_t cap = g.cap_handlers ? 2 * g.cap_handlers : 16;
			uint64_t *n = realloc(g.handlers, cap * sizeof(*n));

			if (!n)
				fatal("out of memory");
			g.handlers = n;
			g.cap_handlers = cap;
		}
		g.handlers[g.nr_handlers++] = addr;
		h = (size_t)(br_hash64(addr) % TBI_BUCKETS);
		for (b = g.tbis[h]; b; b = b->next)
			if (b->start == addr)
				tbi_mark_handler(b);
	}
	pthread_mutex_unlock(&g.lock);
}

void blocks_free(void)
{
	size_t i;

	for (i = 0; i < g.nr_chunks; i++)
		free(g.chunks[i]);
	free(g.chunks);
	free(g.handlers);
}
