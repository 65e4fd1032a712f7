/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Check suites of the blockrange CLI and their helpers.  The runner gets its
 * paths from the environment (set by `make check-cli`): BLOCKRANGE (the
 * binary), BLOCKRANGE_FIXTURES, BLOCKRANGE_GOLDEN, BLOCKRANGE_WORKLOADS,
 * BLOCKRANGE_WORKLOAD_NAMES, BLOCKRANGE_SCRATCH, LLVM_PROFGEN,
 * BLOCKRANGE_BADINPUT (the hostile-input corpus) and BLOCKRANGE_BADGEN (its
 * fixtures made at build time), BLOCKRANGE_FUZZ_CORPUS (the perf script
 * fuzz harness's corpus), BLOCKRANGE_PD_* (the perf.data suite, see
 * test_perfdata.c and userspace/perfdata.mk), BLOCKRANGE_TOOLS (the test
 * tools: pdreloc, failalloc.so), BLOCKRANGE_QEMU_WL (the QEMU recorder's
 * micro workloads, test_qemu.c and userspace/qemu-rec.mk).
 */
#ifndef BLOCKRANGE_CLI_TESTS_H
#define BLOCKRANGE_CLI_TESTS_H

#include <stddef.h>

#include <check.h>

Suite *parser_suite(void);
Suite *addrspace_suite(void);
Suite *output_suite(void);
Suite *fixtures_suite(void);
Suite *parity_suite(void);
Suite *exact_suite(void);
Suite *badinput_suite(void);
Suite *fuzzcorpus_suite(void);
Suite *lookup_suite(void);
Suite *kernel_suite(void);
Suite *record_suite(void);
Suite *qemu_record_suite(void);
Suite *pdwrite_suite(void);
Suite *report_suite(void);
Suite *manners_suite(void);
Suite *perfdata_suite(void);
Suite *scale_suite(void);
Suite *oom_suite(void);
Suite *options_suite(void);
Suite *autofdo_suite(void);
Suite *pseudoprobe_suite(void);
Suite *context_suite(void);

/* getenv() that fails the test when the variable is missing. */
const char *env_path(const char *name);

/*
 * Run argv with stdout and stderr to files (NULL: /dev/null) and return
 * the exit status (128 + signal if killed, -1 if it could not run).
 */
int run_cmd(char *const argv[], const char *out, const char *err);

/* Whole file as a NUL-terminated string (fails the test if unreadable). */
char *slurp(const char *path, size_t *len);

/* scratch/NAME, directory created; static buffer per call slot. */
const char *scratch(const char *name, char *buf, size_t bufsz);

/* Write @text to @path. */
void spew(const char *path, const char *text);

#endif
