// SPDX-License-Identifier: GPL-2.0
/*
 * Replays the committed libFuzzer corpus (check-tests/fuzz/blockrange-corpus/, or the
 * directory in $BLOCKRANGE_CORPUS) through the harness, one test per file.
 * The harness aborts on any difference from the model, which Check reports
 * as an error of that test.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#ifndef CORPUS_DIR
#define CORPUS_DIR "check-tests/fuzz/blockrange-corpus"
#endif

#define MAX_FILES 512

static char *files[MAX_FILES];
static int nr_files;
static const char *dir;

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_files(void)
{
	while (nr_files > 0)
		free(files[--nr_files]);
}

/* Sorted list of the files in the corpus directory. */
static void scan(void)
{
	DIR *d;
	struct dirent *de;

	atexit(free_files);

	dir = getenv("BLOCKRANGE_CORPUS");
	if (!dir)
		dir = CORPUS_DIR;
	d = opendir(dir);
	if (!d)
		return;
	while ((de = readdir(d)) && nr_files < MAX_FILES) {
		if (de->d_name[0] == '.')
			continue;
		files[nr_files] = strdup(de->d_name);
		if (files[nr_files])
			nr_files++;
	}
	closedir(d);
	qsort(files, (size_t)nr_files, sizeof(files[0]), cmp_str);
}

START_TEST(test_corpus_found)
{
	/* A missing or empty corpus is a failure, not a silent pass. */
	ck_assert_msg(nr_files >= 10, "corpus %s: %d files, expected >= 10",
		      dir, nr_files);
}
END_TEST

START_TEST(test_corpus_replay)
{
	char path[4096];
	unsigned char *buf;
	long len;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, files[_i]);
	f = fopen(path, "rb");
	ck_assert_msg(f, "%s: cannot open", path);
	ck_assert_int_eq(fseek(f, 0, SEEK_END), 0);
	len = ftell(f);
	ck_assert_int_ge(len, 0);
	rewind(f);
	buf = malloc((size_t)len + 1);
	ck_assert_ptr_nonnull(buf);
	ck_assert_uint_eq(fread(buf, 1, (size_t)len, f), (size_t)len);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)len);
	free(buf);
}
END_TEST

Suite *corpus_suite(void)
{
	Suite *s = suite_create("fuzz-corpus");
	TCase *tc = tcase_create("replay");

	scan();
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_corpus_found);
	if (nr_files)
		tcase_add_loop_test(tc, test_corpus_replay, 0, nr_files);
	suite_add_tcase(s, tc);
	return s;
}
