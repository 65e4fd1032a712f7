// SPDX-License-Identifier: GPL-2.0
/*
 * Check runner for libblockrange: every suite in one SRunner, so the last
 * line is Check's summary for all of them.  Logs: set CK_TAP_LOG_FILE_NAME /
 * CK_XML_LOG_FILE_NAME (make check-userspace does).  Exit status 0 only if
 * every test passed.
 */
#include <stdlib.h>

#include "tests.h"

int main(void)
{
	SRunner *sr = srunner_create(rbtree_suite());
	int failed;

	srunner_add_suite(sr, split_suite());
	srunner_add_suite(sr, nav_suite());
	srunner_add_suite(sr, figures_suite());
	srunner_add_suite(sr, stack_suite());
	srunner_add_suite(sr, alloc_suite());
	srunner_add_suite(sr, sweep_suite());
	srunner_add_suite(sr, prop_suite());
	srunner_add_suite(sr, batch_suite());
	srunner_add_suite(sr, plan_suite());
	srunner_add_suite(sr, corpus_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
