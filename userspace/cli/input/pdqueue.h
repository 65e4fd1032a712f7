/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data's ordering queue: the records the reader holds back until
 * their time is safe to deliver, in a binary heap ordered by (time, seq):
 * the smallest time first, and records of equal time in the order they
 * were read.  Zero-initialise a queue; pdq_free() releases it.
 */
#ifndef BLOCKRANGE_CLI_INPUT_PDQUEUE_H
#define BLOCKRANGE_CLI_INPUT_PDQUEUE_H

#include <stddef.h>
#include <stdint.h>

struct qent {
	uint64_t time;
	uint64_t seq;
	uint64_t off;		/* for messages */
	uint32_t sub;		/* offset in decompressed data + 1, or 0 */
	uint32_t size;
	const uint8_t *rec;
	int32_t chunk;		/* -1: points into the mapped file */
};

struct pdq {
	struct qent *v;
	size_t nr;
	size_t cap;
};

/* Queue @e: BR_OK, or BR_ESYS out of memory (the queue unchanged). */
int pdq_push(struct pdq *q, const struct qent *e);

/* The first entry, the queue not empty. */
static inline const struct qent *pdq_first(const struct pdq *q)
{
	return &q->v[0];
}

/* Take the first entry out into *@e, the queue not empty. */
void pdq_pop(struct pdq *q, struct qent *e);

void pdq_free(struct pdq *q);

#endif /* BLOCKRANGE_CLI_INPUT_PDQUEUE_H */
