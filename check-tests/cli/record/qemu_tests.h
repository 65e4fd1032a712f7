/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the qemu-record suite's files share: running `blockrange record`,
 * the micro workloads, exact profiles (.brprof) and sampled text.
 */
#ifndef QEMU_TESTS_H
#define QEMU_TESTS_H

#include <stdbool.h>
#include <stdint.h>

#include <check.h>

#include "input/brprof.h"
#include "resolve/elfbin.h"

#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

struct prof {
	uint8_t *buf;
	struct brprof p;
};

struct sample {
	uint64_t ip;
	uint64_t from[64];
	uint64_t to[64];
	unsigned nr;
};

const char *qt_qwl(const char *name, char *buf, size_t sz);

int qt_rec(const char *tag, char *const opts[], char *const prog[],
	   char **err);

long long qt_after(const char *s, const char *key);

void qt_prof_load(const char *path, struct prof *pf);

void qt_prof_free(struct prof *pf);

const struct brprof_dso *qt_prof_dso(const struct prof *pf,
				     const char *name);

uint64_t qt_field(const struct brprof_dso *d, enum brprof_section s,
		  uint64_t rec, unsigned f);

uint64_t qt_edge(const struct brprof_dso *d, uint64_t from, uint64_t to);

uint64_t qt_cover(const struct brprof_dso *d, uint64_t addr);

uint64_t qt_sym(const struct eb_binary *eb, const char *name);

void qt_bin_open(const char *path, struct eb_binary *eb);

int qt_rec_exact(const char *tag, char *const prog[], struct prof *pf,
		 char **err);

bool qt_parse_sample(const char *line, struct sample *s);

size_t qt_count(const char *path, const char *needle);

/*
 * qrec_convert() of the recording directory @dir to perf-script text
 * (sampled, with COMM/FORK/EXIT lines if @task_events, period 1) or a
 * .brprof (@exact) at @out: its status, its message in @err.
 */
int qt_convert(const char *dir, bool exact, bool task_events, const char *out,
	       char *err, size_t errsz);

/* The test cases of the suite's other files, each in a tcase of its own. */
void qemu_add_oracle_tests(TCase *tc);
void qemu_add_reader_tests(TCase *tc);
void qemu_add_corpus_tests(TCase *tc);
void qemu_add_plugin_tests(TCase *tc);
void qemu_add_stack_tests(TCase *tc);

#endif
