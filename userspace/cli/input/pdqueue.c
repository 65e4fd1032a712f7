// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data's ordering queue (pdqueue.h): a binary heap on (time, seq).
 */
#include "input/pdqueue.h"

#include <stdbool.h>
#include <stdlib.h>

#include "base/grow.h"
#include "base/status.h"

static bool qless(const struct qent *a, const struct qent *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int pdq_push(struct pdq *q, const struct qent *e)
{
	size_t i;

	if (br_grow_from((void **)&q->v, &q->cap, q->nr + 1, sizeof(*q->v),
			 1024))
		return BR_ESYS;
	i = q->nr++;
	while (i && qless(e, &q->v[(i - 1) / 2])) {
		q->v[i] = q->v[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	q->v[i] = *e;
	return BR_OK;
}

void pdq_pop(struct pdq *q, struct qent *e)
{
	struct qent *h = q->v;
	size_t n, i = 0;

	*e = h[0];
	h[0] = h[--q->nr];
	n = q->nr;
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct qent t;

		if (l < n && qless(&h[l], &h[m]))
			m = l;
		if (l + 1 < n && qless(&h[l + 1], &h[m]))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

void pdq_free(struct pdq *q)
{
	free(q->v);
	q->v = NULL;
	q->nr = q->cap = 0;
}
