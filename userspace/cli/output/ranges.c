// SPDX-License-Identifier: GPL-2.0
/* llvm-profgen's raw profile text.  See ranges.h. */
#include "output/ranges.h"

#include <inttypes.h>
#include <stdlib.h>

#include "base/status.h"

/* The entries of @pm by address: their number, then "A<sep>B:COUNT". */
static int write_pairs(FILE *out, const char *indent,
		       const struct pairmap *pm, const char *sep,
		       uint64_t base)
{
	struct pairmap_slot *v = pairmap_sorted(pm);
	size_t i;

	if (!v)
		return BR_ENOMEM;
	fprintf(out, "%s%zu\n", indent, pm->nr);
	for (i = 0; i < pm->nr; i++)
		fprintf(out, "%s%" PRIx64 "%s%" PRIx64 ":%" PRIu64 "\n", indent,
			v[i].a - base, sep, v[i].b - base, v[i].count);
	free(v);
	return 0;
}

static int finish(FILE *out, int r, char *err, size_t errsz)
{
	if (r) {
		snprintf(err, errsz, "out of memory");
		return r;
	}
	if (ferror(out) || fflush(out)) {
		snprintf(err, errsz, "cannot write the profile");
		return BR_ESYS;
	}
	return 0;
}

int profile_write(const struct profile *prof, uint64_t base, FILE *out,
		  char *err, size_t errsz)
{
	int r = write_pairs(out, "", &prof->ranges, "-", base);

	if (!r)
		r = write_pairs(out, "", &prof->branches, "->", base);
	return finish(out, r, err, errsz);
}

int csprof_write(const struct csprof *p, uint64_t base, FILE *out,
		 char *err, size_t errsz)
{
	const struct cs_context **v = csprof_sorted(p);
	size_t i;
	int r = v ? 0 : BR_ENOMEM;

	for (i = 0; !r && i < p->nr; i++) {
		fprintf(out, "[%s]\n", v[i]->key);
		r = write_pairs(out, "  ", &v[i]->ranges, "-", base);
		if (!r)
			r = write_pairs(out, "  ", &v[i]->branches, "->", base);
	}
	free(v);
	return finish(out, r, err, errsz);
}
