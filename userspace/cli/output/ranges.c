// SPDX-License-Identifier: GPL-2.0
/* llvm-profgen's raw profile text.  See ranges.h. */
#include "output/ranges.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/status.h"

int profile_write(const struct profile *prof, uint64_t base, FILE *out,
		  char *err, size_t errsz)
{
	struct pairmap_slot *r = pairmap_sorted(&prof->ranges);
	struct pairmap_slot *b = pairmap_sorted(&prof->branches);
	size_t i;

	if (!r || !b) {
		free(r);
		free(b);
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	fprintf(out, "%zu\n", prof->ranges.nr);
	for (i = 0; i < prof->ranges.nr; i++)
		fprintf(out, "%" PRIx64 "-%" PRIx64 ":%" PRIu64 "\n",
			r[i].a - base, r[i].b - base, r[i].count);
	fprintf(out, "%zu\n", prof->branches.nr);
	for (i = 0; i < prof->branches.nr; i++)
		fprintf(out, "%" PRIx64 "->%" PRIx64 ":%" PRIu64 "\n",
			b[i].a - base, b[i].b - base, b[i].count);
	free(r);
	free(b);
	if (ferror(out) || fflush(out)) {
		snprintf(err, errsz, "cannot write the profile");
		return BR_ESYS;
	}
	return 0;
}
