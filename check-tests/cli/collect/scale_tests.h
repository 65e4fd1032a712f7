/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the scale suite's files share: the recordings it makes once (kept
 * in the scratch directory) and running blockrange on them.
 */
#ifndef SCALE_TESTS_H
#define SCALE_TESTS_H

#include <stdbool.h>
#include <stddef.h>

#include <check.h>

/* Recordings the suite shares (made once, kept in the scratch directory). */
struct fixture {
	const char *name;
	const char *fields;	/* perf script fields of the text copy */
	bool tasks;
	bool pipe;		/* perf.data in pipe mode */
	const char *prog;	/* in BLOCKRANGE_WORKLOADS */
	const char *args[4];
};

extern const struct fixture sc_fixtures[];
/* The fixtures every -j, engine and profile test runs on. */
#define NR_FIXTURES 3

void sc_fixture(size_t i, char *data, size_t dsz, char *txt, size_t tsz);

int sc_br_pipe(const char *tag, const char *input, const char *cmdline,
	       char **out, char **err);

int sc_br_in(const char *dir, const char *tag, const char *cmdline,
	     char **out, char **err);

void sc_profile_of(const char *in, const char *out, const char *extra);

/* The .brprof test cases (test_scale_brprof.c), a tcase of their own. */
void scale_add_brprof_tests(TCase *tc);

#endif
