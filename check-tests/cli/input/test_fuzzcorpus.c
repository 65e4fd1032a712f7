// SPDX-License-Identifier: GPL-2.0
/*
 * Replay of the fuzz harnesses of check-tests/fuzz/ without libFuzzer: the
 * perf script harness (fuzz_perfscript.c) on every file of
 * perfscript-corpus/ (seeds, and inputs the fuzzer found bugs with) and of
 * the hostile-input corpus, the .brprof merge harness (fuzz_brprof.c) on
 * brprof-corpus/ and the ELF/DWARF harness (fuzz_dwarf.c) on dwarf-corpus/.
 * A broken invariant aborts the test.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int brprof_fuzz_one(const uint8_t *data, size_t size);
int dwarf_fuzz_one(const uint8_t *data, size_t size);

/* The committed corpora stay minimized, well below this. */
#define MAX_FILES 1024

/* "DIR-VARIABLE\0NAME", found when the suite is built (no heap). */
static char files[MAX_FILES][96];
static int nr_files;
static char scan_error[256];

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void scan(const char *var, const char *suffix)
{
	const char *dir = getenv(var);
	struct dirent *d;
	DIR *dp;

	if (!dir || !*dir || !(dp = opendir(dir))) {
		snprintf(scan_error, sizeof(scan_error), "cannot list $%s", var);
		return;
	}
	while ((d = readdir(dp))) {
		size_t n = strlen(d->d_name), v = strlen(var);

		if (d->d_name[0] == '.' || n < strlen(suffix) ||
		    strcmp(d->d_name + n - strlen(suffix), suffix))
			continue;
		if (nr_files == MAX_FILES || v + n + 2 > sizeof(files[0])) {
			snprintf(scan_error, sizeof(scan_error),
				 "too many or too long names: %.64s", d->d_name);
			break;
		}
		memcpy(files[nr_files], var, v + 1);
		memcpy(files[nr_files] + v + 1, d->d_name, n + 1);
		nr_files++;
	}
	closedir(dp);
}

START_TEST(replay)
{
	const char *var = files[_i], *name = var + strlen(var) + 1;
	char path[1024];
	size_t len;
	char *data;

	snprintf(path, sizeof(path), "%s/%s", env_path(var), name);
	data = slurp(path, &len);
	if (!strcmp(var, "BLOCKRANGE_FUZZ_BRPROF"))
		ck_assert_int_eq(brprof_fuzz_one((const uint8_t *)data, len), 0);
	else if (!strcmp(var, "BLOCKRANGE_FUZZ_DWARF"))
		ck_assert_int_eq(dwarf_fuzz_one((const uint8_t *)data, len), 0);
	else
		ck_assert_int_eq(LLVMFuzzerTestOneInput((const uint8_t *)data,
							len), 0);
	free(data);
}
END_TEST

START_TEST(scanned)
{
	ck_assert_msg(!scan_error[0], "%s", scan_error);
	ck_assert_msg(nr_files >= 16, "only %d files to replay", nr_files);
}
END_TEST

Suite *fuzzcorpus_suite(void)
{
	Suite *s = suite_create("fuzz-corpus");
	TCase *t = tcase_create("replay");

	scan("BLOCKRANGE_FUZZ_CORPUS", "");
	scan("BLOCKRANGE_BADINPUT", ".perfscript");
	scan("BLOCKRANGE_FUZZ_BRPROF", "");
	scan("BLOCKRANGE_FUZZ_DWARF", "");
	qsort(files, (size_t)nr_files, sizeof(files[0]), cmp_name);
	tcase_add_test(t, scanned);
	if (nr_files)
		tcase_add_loop_test(t, replay, 0, nr_files);
	suite_add_tcase(s, t);
	return s;
}
