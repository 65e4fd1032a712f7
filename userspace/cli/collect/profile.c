// SPDX-License-Identifier: GPL-2.0
#include "collect/profile.h"

#include <stddef.h>

void profile_free(struct profile *prof)
{
	pairmap_free(&prof->ranges);
	pairmap_free(&prof->branches);
	hybrid_free(&prof->hybrid);
}

bool profile_code_of(const struct profile *prof, const struct resolver_addr *e)
{
	return e->ok && e->r.dso == prof->dso &&
	       eb_is_code(&prof->dso->bin, e->r.vaddr);
}

int profile_apply(struct profile *prof, const struct ev_branch *br,
		  size_t nr, uint64_t repeat,
		  const struct resolver_addr *ends, struct profile_kept *k,
		  bool exact_range)
{
	size_t i, m = 0;
	int ret = 0;

	for (i = 0; i < nr; i++) {
		uint64_t f = br[i].from, t = br[i].to;
		bool fc = true, tc = true;

		if (ends) {
			fc = profile_code_of(prof, &ends[2 * i]);
			tc = profile_code_of(prof, &ends[2 * i + 1]);
			f = ends[2 * i].r.vaddr;
			t = ends[2 * i + 1].r.vaddr;
		}
		if (!fc && !tc)
			continue;
		k[m].src = fc ? f : PROFILE_EXTERNAL;
		k[m].dst = tc ? t : PROFILE_EXTERNAL;
		k[m].src_code = fc;
		k[m].dst_code = tc;
		k[m].branch = !exact_range || (i && br[i].from);
		m++;
	}
	for (i = 0; i < m && !ret; i++) {
		if (k[i].dst_code && k[i].branch)
			ret = pairmap_add(&prof->branches, k[i].src, k[i].dst,
					  repeat);
		if (!ret && i + 1 < m && k[i + 1].dst_code && k[i].src_code) {
			uint64_t start = k[i + 1].dst, end = k[i].src;
			bool ok = prof->dso ?
				  eb_range_valid(&prof->dso->bin, start, end) :
				  start <= end;

			if (ok)
				ret = pairmap_add(&prof->ranges, start, end,
						  repeat);
		}
	}
	return ret;
}
