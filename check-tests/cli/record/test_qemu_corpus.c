// SPDX-License-Identifier: GPL-2.0
/*
 * The qemu-record suite, the reader's fuzz corpus
 * (check-tests/fuzz/qrec-corpus/, $BLOCKRANGE_QREC_CORPUS): every input
 * replayed through the harness (check-tests/fuzz/fuzz_qrec.c: the
 * reader's properties), then its directory converted by the whole writer
 * in the input's mode (perf-script text, or a .brprof): a result, or an
 * error of one line.  The recordings the plugin made (rec-*) are read and
 * converted without error, and described as the plugin wrote them.
 */
#define _GNU_SOURCE

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"
#include "qemu_tests.h"
#include "base/status.h"
#include "input/qrec.h"
#include "output/perfdata_write.h"

int qrec_fuzz_one(const uint8_t *data, size_t size);
int qrec_fuzz_dir(const uint8_t *data, size_t size, const char *dir,
		  uint32_t *mode);

#define MAX_CORPUS 128

static char corpus[MAX_CORPUS][128];
static int nr_corpus;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The corpus's file names, sorted. */
static void scan_corpus(void)
{
	const char *dir = getenv("BLOCKRANGE_QREC_CORPUS");
	struct dirent *e;
	DIR *d;

	nr_corpus = 0;
	d = dir ? opendir(dir) : NULL;
	while (d && (e = readdir(d)) && nr_corpus < MAX_CORPUS)
		if (e->d_name[0] != '.' && strlen(e->d_name) < sizeof(corpus[0]))
			strcpy(corpus[nr_corpus++], e->d_name);
	if (d)
		closedir(d);
	qsort(corpus, (size_t)nr_corpus, sizeof(corpus[0]), name_cmp);
}

/* The input @name of the corpus as a fresh directory @dir; its mode. */
static uint32_t corpus_dir(const char *name, char *dir, size_t dirsz)
{
	char path[1024], cmd[1200];
	uint32_t mode;
	size_t len;
	uint8_t *data;

	snprintf(path, sizeof(path), "%s/%s", env_path("BLOCKRANGE_QREC_CORPUS"),
		 name);
	data = (uint8_t *)slurp(path, &len);
	ck_assert_int_eq(qrec_fuzz_one(data, len), 0);
	snprintf(path, sizeof(path), "qrec-corpus-%s", name);
	scratch(path, dir, dirsz);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s'", dir, dir);
	ck_assert_int_eq(system(cmd), 0);
	qrec_fuzz_dir(data, len, dir, &mode);
	free(data);
	return mode;
}

START_TEST(corpus_present)
{
	int i, rec = 0;

	env_path("BLOCKRANGE_QREC_CORPUS");
	for (i = 0; i < nr_corpus; i++)
		rec += !strncmp(corpus[i], "rec-", 4);
	ck_assert_msg(rec >= 6, "%d recordings in $BLOCKRANGE_QREC_CORPUS", rec);
}
END_TEST

START_TEST(corpus_replay)
{
	const char *name = corpus[_i];
	char dir[700], out[800], err[4608];
	uint32_t mode = corpus_dir(name, dir, sizeof(dir));
	int ret;

	snprintf(out, sizeof(out), "%s.out", dir);
	ret = qt_convert(dir, mode == QREC_EXACT, true, out, err, sizeof(err));
	if (!strncmp(name, "rec-", 4))
		ck_assert_msg(ret == 0, "%s: %s", name, err);
	ck_assert_msg(ret == 0 || ret == BR_EINPUT || ret == BR_ESYS, "%s: %d",
		      name, ret);
	ck_assert_msg(!ret || (err[0] && !strchr(err, '\n')), "%s: '%s'", name,
		      err);
}
END_TEST

/* What the reader describes of a recording of exec running calls. */
START_TEST(corpus_described)
{
	static const uint32_t modes[] = { QREC_SAMPLED, QREC_EXACT };
	static const char *const names[] = { "rec-exec-sampled", "rec-exec-exact" };
	struct qrec_tracev tv = { 0 };
	char dir[700], err[4608];
	size_t i, k;

	for (i = 0; i < 2; i++) {
		struct qrec_read_opts o = { modes[i], PDW_MAX_BRANCHES };
		struct qrec_recording rec;

		ck_assert_uint_eq(corpus_dir(names[i], dir, sizeof(dir)), modes[i]);
		ck_assert_msg(!qrec_read(&rec, dir, &o, err, sizeof(err)), "%s", err);
		/* one process, two images: exec, then calls (static) */
		ck_assert_uint_eq(rec.nr_images, 2);
		ck_assert_uint_eq(rec.processes, 1);
		ck_assert_uint_eq(rec.threads, 1);
		ck_assert_int_eq(rec.images[0].pid, rec.images[1].pid);
		ck_assert_uint_eq(rec.images[0].image, 0);
		ck_assert_uint_eq(rec.images[1].image, 1);
		ck_assert(rec.images[0].ended && rec.images[0].how == QREC_END_EXEC);
		ck_assert(rec.images[1].ended && rec.images[1].how == QREC_END_EXIT);
		ck_assert_int_eq(qrec_cut_pid(&rec), -1);
		ck_assert(rec.t0 == rec.images[0].t0 && rec.t0 < rec.images[1].t0);
		ck_assert(rec.counts.insns > 0 && rec.counts.taken > 0);
		ck_assert_uint_eq(rec.images[1].nr_maps, 1);
		ck_assert_msg(strstr(rec.images[1].maps[0].path, "/calls"), "%s",
			      rec.images[1].maps[0].path);
		ck_assert_ptr_eq(qrec_mapping_of(&rec.images[1],
						 rec.images[1].maps[0].m.id),
				 &rec.images[1].maps[0]);
		ck_assert_ptr_null(qrec_mapping_of(&rec.images[1], 0));
		if (modes[i] == QREC_EXACT) {
			/* every trace of calls names its one mapping */
			ck_assert(!qrec_image_traces(&rec, 1, &tv, err, sizeof(err)));
			ck_assert(tv.n > 0);
			for (k = 0; k < tv.n; k++)
				ck_assert_ptr_nonnull(qrec_mapping_of(&rec.images[1],
								      tv.v[k].map));
		} else {
			/* in time order: a COMM of each image as it began */
			struct qrec_ref *refs;
			size_t nr, comms = 0;
			uint64_t last = 0;

			ck_assert(!qrec_order(&rec, &refs, &nr, err, sizeof(err)));
			for (k = 0; k < nr; k++) {
				struct qrec_item it;

				qrec_item_at(&rec, &refs[k], &it);
				ck_assert(refs[k].time >= last);
				last = refs[k].time;
				comms += it.type == QREC_COMM && it.u.comm.exec;
			}
			ck_assert_uint_eq(comms, 2);
			free(refs);
		}
		qrec_recording_free(&rec);
	}
	free(tv.v);
}
END_TEST

void qemu_add_corpus_tests(TCase *tc)
{
	scan_corpus();
	tcase_add_test(tc, corpus_present);
	tcase_add_test(tc, corpus_described);
	if (nr_corpus)
		tcase_add_loop_test(tc, corpus_replay, 0, nr_corpus);
}
