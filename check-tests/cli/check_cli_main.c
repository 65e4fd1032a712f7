// SPDX-License-Identifier: GPL-2.0
/*
 * Check runner for the blockrange CLI: the suites in one SRunner, so the
 * last line is Check's summary.  Exit status 0 only if every test passed.
 *
 * BLOCKRANGE_SUITES, when set, is a space-separated list of suite names:
 * only those run; BLOCKRANGE_SKIP_SUITES: all but those.  The make targets
 * run a list and the same list skipped side by side, so that together they
 * run every suite.  An unknown name or an empty selection is an error, so
 * a list cannot silently run nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

static const struct {
	const char *name;
	Suite *(*make)(void);
} suites[] = {
	{ "parser", parser_suite },
	{ "addrspace", addrspace_suite },
	{ "output", output_suite },
	{ "fixtures", fixtures_suite },
	{ "parity", parity_suite },
	{ "exactness", exact_suite },
	{ "bad-input", badinput_suite },
	{ "fuzz-corpus", fuzzcorpus_suite },
	{ "lookup", lookup_suite },
	{ "kernel", kernel_suite },
	{ "record", record_suite },
	{ "qemu-record", qemu_record_suite },
	{ "perfdata-writer", pdwrite_suite },
	{ "report", report_suite },
	{ "manners", manners_suite },
	{ "perfdata", perfdata_suite },
	{ "scale", scale_suite },
	{ "oom", oom_suite },
	{ "options", options_suite },
	{ "autofdo", autofdo_suite },
	{ "pseudoprobe", pseudoprobe_suite },
	{ "context", context_suite },
};

#define NR_SUITES (sizeof(suites) / sizeof(suites[0]))

/* Is @name a word of the space-separated @list? */
static int listed(const char *list, const char *name)
{
	size_t n = strlen(name);
	const char *p = list;

	while (*p) {
		size_t w;

		p += strspn(p, " ");
		w = strcspn(p, " ");
		if (w == n && !strncmp(p, name, n))
			return 1;
		p += w;
	}
	return 0;
}

/* Every word of @list names a suite; else a message and 0. */
static int list_is_known(const char *list)
{
	const char *p = list;
	size_t i;

	while (*p) {
		size_t w;

		p += strspn(p, " ");
		w = strcspn(p, " ");
		if (!w)
			break;
		for (i = 0; i < NR_SUITES; i++)
			if (strlen(suites[i].name) == w &&
			    !strncmp(p, suites[i].name, w))
				break;
		if (i == NR_SUITES) {
			fprintf(stderr,
				"BLOCKRANGE_SUITES: no suite named '%.*s'\n",
				(int)w, p);
			return 0;
		}
		p += w;
	}
	return 1;
}

int main(void)
{
	const char *only = getenv("BLOCKRANGE_SUITES");
	const char *skip = getenv("BLOCKRANGE_SKIP_SUITES");
	SRunner *sr = NULL;
	size_t i;
	int failed;

	if ((only && !list_is_known(only)) || (skip && !list_is_known(skip)))
		return 2;
	for (i = 0; i < NR_SUITES; i++) {
		if (only && !listed(only, suites[i].name))
			continue;
		if (skip && listed(skip, suites[i].name))
			continue;
		if (!sr)
			sr = srunner_create(suites[i].make());
		else
			srunner_add_suite(sr, suites[i].make());
	}
	if (!sr) {
		fprintf(stderr, "BLOCKRANGE_SUITES/BLOCKRANGE_SKIP_SUITES: no suite selected\n");
		return 2;
	}
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
