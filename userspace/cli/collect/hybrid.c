// SPDX-License-Identifier: GPL-2.0
/* Hybrid samples of one DSO, as llvm-profgen keeps them.  See hybrid.h. */
#include "collect/hybrid.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "collect/profile.h"
#include "common/hash.h"
#include "common/search.h"

uint64_t hybrid_call_before(const struct eb_binary *bin, uint64_t addr)
{
	size_t i;

	if (addr == PROFILE_EXTERNAL)
		return PROFILE_EXTERNAL;
	/* the instruction before the first one at or after @addr */
	i = br_count_lt(bin->code, bin->nr_code, sizeof(*bin->code),
			offsetof(struct eb_insn, addr), addr);
	if (!i || bin->code[i - 1].kind != EB_CALL)
		return 0;
	return bin->code[i - 1].addr;
}

/* Room for @n more words. */
static int room(struct hybrid *h, size_t n)
{
	if (n > SIZE_MAX - h->len)
		return BR_ENOMEM;
	return br_grow_from((void **)&h->w, &h->cap, h->len + n,
			    sizeof(*h->w), 1024);
}

/* The stack's frames as llvm-profgen keeps them, at @out: their number. */
static size_t keep_frames(struct hybrid *h, const struct eb_binary *bin,
			  const uint64_t *frames, size_t nframes,
			  uint64_t *out)
{
	size_t i, n = 0;

	for (i = 0; i < nframes; i++) {
		uint64_t a = frames[i];

		if (a == PROFILE_EXTERNAL) {
			if (!n || out[n - 1] != PROFILE_EXTERNAL)
				out[n++] = PROFILE_EXTERNAL;
			continue;
		}
		if (n) {
			a = hybrid_call_before(bin, a);
			if (!a) {
				h->truncated++;
				break;
			}
		}
		out[n++] = a;
	}
	if (n > 1 && out[n - 1] == PROFILE_EXTERNAL)
		n--;
	return n;
}

/* The hash of the @n words of a record's frames and entries. */
static uint64_t rec_hash(const uint64_t *v, size_t n)
{
	uint64_t x = n;
	size_t i;

	for (i = 0; i < n; i++)
		x = br_hash2(x, v[i]);
	return x;
}

/*
 * The record at @rec (not stored yet): counted into an equal one, or
 * stored.  0, BR_ENOMEM, BR_EINPUT.
 */
static int keep(struct hybrid *h, uint64_t *rec)
{
	size_t n = 3 + rec[1] + 2 * rec[2];
	uint64_t hash = rec_hash(rec + 1, n - 1), probe, *slot;

	for (probe = 0;; probe++) {
		uint64_t *old;

		slot = pairmap_ref(&h->index, hash, probe);
		if (!slot)
			return BR_ENOMEM;
		if (!*slot)
			break;
		old = h->w + *slot - 1;
		if (old[1] != rec[1] || old[2] != rec[2] ||
		    memcmp(old + 3, rec + 3, (n - 3) * sizeof(*rec)))
			continue;
		if (old[0] > UINT64_MAX - rec[0])
			return BR_EINPUT;
		old[0] += rec[0];
		return 0;
	}
	*slot = h->len + 1;
	h->len += n;
	h->nr++;
	return 0;
}

int hybrid_add(struct hybrid *h, const struct eb_binary *bin,
	       const uint64_t *frames, size_t nframes, const uint64_t *ends,
	       size_t nbr, uint64_t repeat)
{
	size_t i, nf, nb = 0;
	uint64_t *rec;

	if (nframes > (SIZE_MAX - 3) / 3 || nbr > (SIZE_MAX - 3) / 3 ||
	    room(h, 3 + nframes + 2 * nbr))
		return BR_ENOMEM;
	rec = h->w + h->len;
	nf = keep_frames(h, bin, frames, nframes, rec + 3);
	if (!nf) {
		h->dropped++;
		return 0;
	}
	for (i = 0; i < nbr; i++) {
		uint64_t s = ends[2 * i], t = ends[2 * i + 1];

		if (s == PROFILE_EXTERNAL && t == PROFILE_EXTERNAL)
			continue;
		rec[3 + nf + 2 * nb] = s;
		rec[3 + nf + 2 * nb + 1] = t;
		nb++;
	}
	if (!nb) {
		h->dropped++;
		return 0;
	}
	rec[0] = repeat;
	rec[1] = nf;
	rec[2] = nb;
	return keep(h, rec);
}

int hybrid_merge(struct hybrid *dst, const struct hybrid *src)
{
	size_t at = 0;
	int r = 0;

	while (!r && at < src->len) {
		const uint64_t *rec = src->w + at;
		size_t n = 3 + rec[1] + 2 * rec[2];

		r = room(dst, n);
		if (!r) {
			memcpy(dst->w + dst->len, rec, n * sizeof(*rec));
			r = keep(dst, dst->w + dst->len);
		}
		at += n;
	}
	dst->dropped += src->dropped;
	dst->truncated += src->truncated;
	return r;
}

void hybrid_free(struct hybrid *h)
{
	free(h->w);
	pairmap_free(&h->index);
	memset(h, 0, sizeof(*h));
}
