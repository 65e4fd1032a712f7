// SPDX-License-Identifier: GPL-2.0
/* BOLT's pre-aggregated profile.  See bolt.h. */
#include "output/bolt.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/status.h"

static int lines(FILE *out, const struct pairmap *pm, const struct pairmap *miss,
		 char kind)
{
	struct pairmap_slot *v = pairmap_sorted(pm);
	size_t i;

	if (!v)
		return BR_ESYS;
	for (i = 0; i < pm->nr; i++) {
		fprintf(out, "%c %" PRIx64 " %" PRIx64 " %" PRIu64, kind, v[i].a,
			v[i].b, v[i].count);
		if (miss)
			fprintf(out, " %" PRIu64, pairmap_get(miss, v[i].a, v[i].b));
		fputc('\n', out);
	}
	free(v);
	return 0;
}

int bolt_write(const struct bolt_dso *bd, FILE *out, const char *name,
	       char *err, size_t errsz)
{
	if (lines(out, &bd->br, &bd->br_miss, 'B') ||
	    lines(out, &bd->ft, NULL, 'F') ||
	    lines(out, &bd->ft_ext, NULL, 'f')) {
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	if (ferror(out) || fflush(out)) {
		snprintf(err, errsz, "%s: cannot write the profile", name);
		return BR_ESYS;
	}
	return 0;
}
