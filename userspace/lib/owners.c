// SPDX-License-Identifier: GPL-2.0
/*
 * The owner table of contexts and aggregates (see internal.h): owner keys
 * get small indices in first-seen order, so that ranges and blocks hold a
 * 32-bit index instead of a pointer.  Index 0 is "no owner".
 */
#include <errno.h>
#include <string.h>

#include "common/hash.h"
#include "internal.h"

#define OWNERS_MIN	8

static uint32_t slot(const void *key, uint32_t cap)
{
	return (uint32_t)br_hash64((uint64_t)(uintptr_t)key) & (cap - 1);
}

uint32_t br_owners_find(const struct br_owners *o, const void *key)
{
	uint32_t i, idx;

	if (!key || !o->hash_cap)
		return 0;
	for (i = slot(key, o->hash_cap); (idx = o->hash[i]);
	     i = (i + 1) & (o->hash_cap - 1)) {
		if (o->rec[idx].key == key)
			return idx;
	}
	return 0;
}

static void hash_put(uint32_t *hash, uint32_t cap, const void *key,
		     uint32_t idx)
{
	uint32_t i = slot(key, cap);

	while (hash[i])
		i = (i + 1) & (cap - 1);
	hash[i] = idx;
}

int br_owners_reserve(struct br_owners *o, struct br_mem *m, uint64_t more)
{
	uint64_t need = (uint64_t)o->nr + 1 + more;	/* slot 0 */
	uint64_t cap, hcap;
	struct owner_rec *rec;
	uint32_t *hash, i;

	if (need <= o->cap && 2 * (need - 1) <= o->hash_cap)
		return 0;
	/* Indices must fit the 31 bits a frozen range has for them. */
	if (need >= FR_OWNER_MASK / 2)
		return -ENOMEM;
	cap = o->cap ? o->cap : OWNERS_MIN;
	while (cap < need)
		cap *= 2;
	hcap = o->hash_cap ? o->hash_cap : 2 * OWNERS_MIN;
	while (hcap < 2 * (need - 1))
		hcap *= 2;
	rec = br_alloc(m, cap * sizeof(*rec));
	if (!rec)
		return -ENOMEM;
	hash = br_alloc(m, hcap * sizeof(*hash));
	if (!hash) {
		br_free(m, rec, cap * sizeof(*rec));
		return -ENOMEM;
	}
	memset(rec, 0, cap * sizeof(*rec));
	memset(hash, 0, hcap * sizeof(*hash));
	if (o->rec)
		memcpy(rec, o->rec, (o->nr + 1) * sizeof(*rec));
	for (i = 1; i <= o->nr; i++)
		hash_put(hash, (uint32_t)hcap, rec[i].key, i);
	br_owners_free(o, m);
	o->rec = rec;
	o->cap = (uint32_t)cap;
	o->hash = hash;
	o->hash_cap = (uint32_t)hcap;
	return 0;
}

uint32_t br_owners_insert(struct br_owners *o, const void *key)
{
	uint32_t idx = ++o->nr;

	o->rec[idx].key = key;
	o->rec[idx].max_coverage = 0;
	hash_put(o->hash, o->hash_cap, key, idx);
	return idx;
}

void br_owners_free(struct br_owners *o, struct br_mem *m)
{
	br_free(m, o->rec, o->cap * sizeof(o->rec[0]));
	br_free(m, o->hash, o->hash_cap * sizeof(o->hash[0]));
	o->rec = NULL;
	o->hash = NULL;
	o->cap = o->hash_cap = 0;
}
