// SPDX-License-Identifier: GPL-2.0
/*
 * Check runner for the blockrange CLI: every suite in one SRunner, so the
 * last line is Check's summary.  Exit status 0 only if every test passed.
 */
#include <stdlib.h>

#include "cli_tests.h"

int main(void)
{
	SRunner *sr = srunner_create(parser_suite());
	int failed;

	srunner_add_suite(sr, addrspace_suite());
	srunner_add_suite(sr, output_suite());
	srunner_add_suite(sr, fixtures_suite());
	srunner_add_suite(sr, parity_suite());
	srunner_add_suite(sr, exact_suite());
	srunner_add_suite(sr, badinput_suite());
	srunner_add_suite(sr, fuzzcorpus_suite());
	srunner_add_suite(sr, lookup_suite());
	srunner_add_suite(sr, kernel_suite());
	srunner_add_suite(sr, record_suite());
	srunner_add_suite(sr, pdwrite_suite());
	srunner_add_suite(sr, report_suite());
	srunner_add_suite(sr, manners_suite());
	srunner_add_suite(sr, perfdata_suite());
	srunner_add_suite(sr, scale_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
