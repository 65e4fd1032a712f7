// SPDX-License-Identifier: GPL-2.0
/*
 * The collector's side of a .brprof: the aggregated counts of each DSO
 * (the profile events of input/events.h) added to its data as if the
 * samples behind them had been read, for the parts the collector was
 * asked for, and the profile's statistics as the resolver's.
 */
#define _GNU_SOURCE

#include "collect/annot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The records of @kind of @e: record @i's field @f. */
static uint64_t field(const struct ev_profile_dso *e, enum ev_agg_kind kind,
		      unsigned fields, uint64_t i, unsigned f)
{
	return ev_u64le(e->rec[kind] + 8 * (fields * i + f));
}

/*
 * The taken branches of @kind (from, to, times taken, times mispredicted)
 * into @taken and, those mispredicted, @miss.  0, or pairmap_add()'s error.
 */
static int add_branches(const struct ev_profile_dso *e, enum ev_agg_kind kind,
			struct pairmap *taken, struct pairmap *miss)
{
	uint64_t i;
	int r = 0;

	for (i = 0; i < e->nr[kind] && !r; i++) {
		uint64_t f = field(e, kind, 4, i, 0);
		uint64_t t = field(e, kind, 4, i, 1);
		uint64_t m = field(e, kind, 4, i, 3);

		r = pairmap_add(taken, f, t, field(e, kind, 4, i, 2));
		if (!r && m)
			r = pairmap_add(miss, f, t, m);
	}
	return r;
}

/* The records of @kind (a, b, count) into @pm. */
static int add_pairs(const struct ev_profile_dso *e, enum ev_agg_kind kind,
		     struct pairmap *pm)
{
	uint64_t i;
	int r = 0;

	for (i = 0; i < e->nr[kind] && !r; i++)
		r = pairmap_add(pm, field(e, kind, 3, i, 0),
				field(e, kind, 3, i, 1),
				field(e, kind, 3, i, 2));
	return r;
}

static int load_blocks(struct annot *a, struct annot_dso *ad,
		       const struct ev_profile_dso *e)
{
	uint64_t i;
	int r = 0;

	if (ad->samples > UINT64_MAX - e->samples)
		return BR_EINPUT;
	ad->samples += e->samples;
	for (i = 0; i < e->nr[EV_AGG_BLOCKS] && !r; i++)
		r = annot_add_block(a, ad, field(e, EV_AGG_BLOCKS, 4, i, 0),
				    field(e, EV_AGG_BLOCKS, 4, i, 1),
				    (enum blockrange_pred)
				    field(e, EV_AGG_BLOCKS, 4, i, 2),
				    field(e, EV_AGG_BLOCKS, 4, i, 3));
	for (i = 0; i < e->nr[EV_AGG_IPS] && !r; i++)
		r = pairmap_add(&ad->ips, field(e, EV_AGG_IPS, 2, i, 0), 0,
				field(e, EV_AGG_IPS, 2, i, 1));
	if (!r)
		r = add_branches(e, EV_AGG_EDGES, &ad->edges, &ad->edges_miss);
	return r;
}

static int load_prof(struct annot_dso *ad, const struct ev_profile_dso *e)
{
	int r;

	ad->prof.has_base = true;
	ad->prof.base = e->text_base;
	if (ad->prof.samples > UINT64_MAX - e->prof_samples)
		return BR_EINPUT;
	ad->prof.samples += e->prof_samples;
	r = add_pairs(e, EV_AGG_RANGES, &ad->prof.ranges);
	if (!r)
		r = add_pairs(e, EV_AGG_BRANCHES, &ad->prof.branches);
	return r;
}

static int load_bolt(struct bolt_dso *bd, const struct ev_profile_dso *e)
{
	uint64_t i;
	int r = add_branches(e, EV_AGG_BOLT_BR, &bd->br, &bd->br_miss);

	for (i = 0; i < e->nr[EV_AGG_BOLT_FT] && !r; i++) {
		uint64_t s = field(e, EV_AGG_BOLT_FT, 4, i, 0);
		uint64_t t = field(e, EV_AGG_BOLT_FT, 4, i, 1);
		uint64_t in = field(e, EV_AGG_BOLT_FT, 4, i, 2);
		uint64_t ext = field(e, EV_AGG_BOLT_FT, 4, i, 3);

		if (in)
			r = pairmap_add(&bd->ft, s, t, in);
		if (!r && ext)
			r = pairmap_add(&bd->ft_ext, s, t, ext);
	}
	return r;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s && s[1] ? s + 1 : path;
}

/* The registry's DSO of @e (--binary takes its basename; NULL: not it). */
static struct dso *dso_of(struct annot *a, const struct ev_profile_dso *e)
{
	if (a->s.bin_dso)
		return !strcmp(base_name(e->path), a->s.bin_dso->short_name) &&
		       !e->kernel ? a->s.bin_dso : NULL;
	return dso_get(a->s.reg, e->path, e->build_id, e->build_id_size,
		       e->kernel);
}

/* The parts of @e the collector was asked for, into @d's data. */
static int load_parts(struct annot *a, struct dso *d,
		      const struct ev_profile_dso *e)
{
	struct annot_dso *ad;
	int r = 0;

	if ((a->cfg.parts & ANNOT_BLOCKS) && e->has_blocks) {
		if (dso_load(a->s.reg, d) == DSO_NO_MEMORY)
			return BR_ESYS;
		ad = annot_blocks_of(a, d);
		if (!ad)
			return BR_ESYS;
		ad->has_blocks = true;
		r = load_blocks(a, ad, e);
	}
	if (!r && (a->cfg.parts & ANNOT_PROFGEN) && e->has_prof) {
		ad = annot_per_dso(a, d);
		if (!ad)
			return BR_ESYS;
		ad->has_prof = true;
		r = load_prof(ad, e);
	}
	if (!r && (a->cfg.parts & ANNOT_BOLT) && e->has_bolt) {
		ad = annot_per_dso(a, d);
		if (!ad)
			return BR_ESYS;
		ad->has_bolt = true;
		r = load_bolt(&ad->bolt, e);
	}
	return r;
}

int annot_profile_dso(void *arg, const struct ev_profile_dso *e, char *err,
		      size_t errsz)
{
	struct annot *a = arg;
	struct dso *d = dso_of(a, e);
	int r;

	if (!d && a->s.bin_dso)
		return BR_OK;
	r = !d ? BR_ESYS : resolver_wants(&a->s, d) ? load_parts(a, d, e) : 0;
	if (r == BR_EINPUT)
		snprintf(err, errsz,
			 "%s: offset %" PRIu64 ": expected counts whose sums fit in 64 bits, got sums that overflow in this DSO",
			 e->pos.name, e->pos.offset);
	else if (r)
		snprintf(err, errsz, "%s: out of memory", e->pos.name);
	return r;
}

int annot_profile(void *arg, const struct ev_profile *p, char *err,
		  size_t errsz)
{
	struct annot *a = arg;
	struct resolver_stats *st = &a->s.st;
	int k;

	if (a->cfg.event || a->cfg.leading_ip_only || a->cfg.raw) {
		snprintf(err, errsz,
			 "%s: a .brprof holds llvm-profgen's profile of every sample of each DSO; --perf-event, --leading-ip-only and --base or --use-offset=0 without --dso need the input itself",
			 p->pos.name);
		return BR_EUSAGE;
	}
	st->samples = p->stats[0];
	st->brstack_samples = p->stats[1];
	st->entries = p->stats[2];
	st->blocks = p->stats[3];
	st->counted = p->stats[4];
	for (k = 0; k < SKIP_NR; k++)
		st->skipped[k] = p->stats[5 + k];
	st->ips_kernel = p->stats[5 + SKIP_NR];
	a->total = p->stats[6 + SKIP_NR];
	a->s.mixed_events = p->mixed_events;
	a->s.exact = p->exact;
	if (*p->event) {
		a->s.event = strdup(p->event);
		if (!a->s.event) {
			snprintf(err, errsz, "%s: out of memory", p->pos.name);
			return BR_ESYS;
		}
	}
	return BR_OK;
}

_Static_assert(7 + SKIP_NR == EV_PROFILE_NR_STATS, "a profile's statistics");
