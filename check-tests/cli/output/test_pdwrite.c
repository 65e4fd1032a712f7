// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data writer on its own, for what `record` does not write: two
 * events (PERF_SAMPLE_IDENTIFIER, CPU, ID), an MMAP2 in the build-id form,
 * prediction flags and cycles in branch entries, build-ids of two files,
 * file and pipe mode.  The same records also go to the perf-script text
 * writer; perf 6.1 must print the perf.data as that text, list the
 * build-ids (`perf buildid-list`) and name both events.  And the writer's
 * refusals: an event after the first record, several events without
 * IDENTIFIER, a branch stack too big for a record.
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/status.h"
#include "cli_tests.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "resolve/elfbin.h"

static void attr_of(struct perf_event_attr *a, uint64_t config)
{
	memset(a, 0, sizeof(*a));
	a->type = PERF_TYPE_SOFTWARE;
	a->config = config;
	a->sample_period = 3;
	a->sample_type = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP |
			 PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD |
			 PERF_SAMPLE_BRANCH_STACK;
	a->branch_sample_type = PERF_SAMPLE_BRANCH_USER | PERF_SAMPLE_BRANCH_ANY;
	a->exclude_kernel = 1;
	a->sample_id_all = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->task = 1;
}

/* Write the same records to @w and @t. */
static void write_records(struct pdw *w, struct psw *t, const char *bin,
			  const uint8_t *bid, int bidsz, const char *other,
			  const uint8_t *obid, int obidsz)
{
	struct perf_event_attr a;
	struct perf_branch_entry br[3];
	struct pdw_mmap m = {
		.pid = 4242, .tid = 4242, .start = 0x400000, .len = 0x3000,
		.pgoff = 0, .prot = PROT_READ | PROT_EXEC,
		.flags = MAP_PRIVATE, .path = bin,
		.cpumode = PERF_RECORD_MISC_USER, .time = 2000,
	};
	struct pdw_sample s = {
		.cpumode = PERF_RECORD_MISC_USER, .ip = 0x401010,
		.pid = 4242, .tid = 4243, .time = 3000, .cpu = 1,
		.period = 3, .br = br, .nr = 3,
	};
	int i;

	attr_of(&a, PERF_COUNT_SW_MAX);
	ck_assert_int_eq(pdw_add_event(w, &a, "first-sw:u"), 0);
	attr_of(&a, PERF_COUNT_SW_MAX);
	ck_assert_int_eq(pdw_add_event(w, &a, "second-sw:u"), 1);
	ck_assert(!pdw_set_host(w));
	ck_assert(!pdw_set_string(w, PF_FEAT_VERSION, "test"));
	ck_assert(!pdw_set_cmdline(w, 2, (char *[]){ "pdwrite", "test" }));

	ck_assert(!pdw_comm(w, 4242, 4242, "pdw", true, 1000));
	ck_assert(!psw_comm(t, 4242, 4242, "pdw", true, 1000));
	m.build_id_size = (uint8_t)bidsz;
	memcpy(m.build_id, bid, (size_t)bidsz);
	ck_assert(!pdw_mmap2(w, &m));
	ck_assert(!psw_mmap2(t, &m));
	ck_assert(!pdw_build_id(w, -1, PERF_RECORD_MISC_USER, bin, bid,
				(size_t)bidsz));
	ck_assert(!pdw_build_id(w, -1, PERF_RECORD_MISC_USER, other, obid,
				(size_t)obidsz));
	ck_assert(!pdw_fork(w, 4242, 4242, 4243, 4242, 2500));
	ck_assert(!psw_fork(t, 4242, 4242, 4243, 4242, 2500));
	memset(br, 0, sizeof(br));
	br[0].from = 0x401010;
	br[0].to = 0x401000;
	br[0].predicted = 1;
	br[0].cycles = 7;
	br[1].from = 0x401020;
	br[1].to = 0x401004;
	br[1].mispred = 1;
	br[2].from = 0x401030;
	br[2].to = 0x401008;
	for (i = 0; i < 4; i++) {
		s.event = (unsigned)(i & 1);
		s.time = 3000 + (uint64_t)i * 1000000;
		s.nr = 3 - (uint64_t)(i % 3);
		ck_assert(!pdw_sample(w, &s));
		ck_assert(!psw_sample(t, &s));
		if (i == 1)
			ck_assert(!pdw_finished_round(w));
	}
	ck_assert(!pdw_exit(w, 4242, 4242, 4243, 4242, 9000000));
	ck_assert(!psw_exit(t, 4242, 4242, 4243, 4242, 9000000));
	ck_assert(!pdw_exit(w, 4242, 1, 4242, 1, 9000001));
	ck_assert(!psw_exit(t, 4242, 1, 4242, 1, 9000001));
}

static const char *fields = "comm,pid,tid,time,ip,brstack";

START_TEST(file_and_pipe)
{
	char data[512], txt[512], got[512], errf[512], bin[512], other[512];
	char ids[512], hex[64], want[1200];
	uint8_t bid[20], obid[20];
	int bidsz, obidsz, k;
	unsigned f;
	struct pdw *w;
	struct psw *t;
	char err[512];
	char *s;
	bool pipe = _i;

	snprintf(bin, sizeof(bin), "%s/branches-nopie",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(other, sizeof(other), "%s/libhot.so",
		 env_path("BLOCKRANGE_WORKLOADS"));
	bidsz = eb_file_build_id(bin, bid);
	obidsz = eb_file_build_id(other, obid);
	ck_assert_int_eq(bidsz, 20);
	ck_assert_int_eq(obidsz, 20);
	scratch(pipe ? "pdw-pipe.data" : "pdw-file.data", data, sizeof(data));
	scratch(pipe ? "pdw-pipe.txt" : "pdw-file.txt", txt, sizeof(txt));
	scratch("pdw.perf-script", got, sizeof(got));
	scratch("pdw.err", errf, sizeof(errf));
	ck_assert(psw_parse_fields(fields, &f));
	if (pipe) {
		FILE *o = fopen(data, "w");

		ck_assert(o);
		ck_assert(!pdw_open_fd(&w, fileno(o), true, data, err,
				       sizeof(err)));
		ck_assert(!psw_open(&t, txt, f, true, err, sizeof(err)));
		write_records(w, t, bin, bid, bidsz, other, obid, obidsz);
		ck_assert_msg(!pdw_close(w, err, sizeof(err)), "%s", err);
		fclose(o);
	} else {
		ck_assert(!pdw_open(&w, data, err, sizeof(err)));
		ck_assert(!psw_open(&t, txt, f, true, err, sizeof(err)));
		write_records(w, t, bin, bid, bidsz, other, obid, obidsz);
		ck_assert_msg(!pdw_close(w, err, sizeof(err)), "%s", err);
	}
	ck_assert(!psw_close(t, err, sizeof(err)));

	{
		char cmd[1600];
		char *argv[] = { "sh", "-c", cmd, NULL };

		snprintf(cmd, sizeof(cmd),
			 "perf script -i %s%s -G -F %s --show-mmap-events --show-task-events",
			 pipe ? "- < " : "", data, fields);
		ck_assert_int_eq(run_cmd(argv, got, errf), 0);
	}
	s = slurp(errf, NULL);
	ck_assert_msg(!*s, "%s", s);
	free(s);
	{
		size_t la, lb;
		char *x = slurp(got, &la), *y = slurp(txt, &lb);

		ck_assert_msg(la == lb && !memcmp(x, y, la),
			      "perf script:\n%s\nwriter text:\n%s", x, y);
		/* the build-id form of the mmap line */
		for (k = 0; k < bidsz; k++)
			sprintf(hex + 2 * k, "%02x", bid[k]);
		snprintf(want, sizeof(want), "@ 0 <%s>]: r-xp %s\n", hex, bin);
		ck_assert_msg(strstr(x, want), "%s", x);
		free(x);
		free(y);
	}
	/* both events, by name, and the build-id table */
	{
		char cmd[1200];
		char *argv[] = { "sh", "-c", cmd, NULL };

		snprintf(cmd, sizeof(cmd), "perf script -i %s%s -F event",
			 pipe ? "- < " : "", data);
		ck_assert_int_eq(run_cmd(argv, got, errf), 0);
		s = slurp(got, NULL);
		ck_assert_msg(strstr(s, "first-sw:u:") &&
			      strstr(s, "second-sw:u:"), "%s", s);
		free(s);
		/*
		 * File mode: the whole table; pipe mode: perf lists the
		 * build-id records of DSOs it saw mapped.
		 */
		snprintf(cmd, sizeof(cmd), "perf buildid-list -i %s%s",
			 pipe ? "- < " : "", data);
		scratch("pdw.ids", ids, sizeof(ids));
		ck_assert_int_eq(run_cmd(argv, ids, errf), 0);
		s = slurp(ids, NULL);
		snprintf(want, sizeof(want), "%s %s\n", hex, bin);
		ck_assert_msg(strstr(s, want) &&
			      !!strstr(s, "/libhot.so\n") == !pipe, "%s", s);
		free(s);
	}
}
END_TEST

START_TEST(refusals)
{
	char data[512], err[512];
	struct perf_event_attr a;
	struct perf_branch_entry br[PDW_MAX_BRANCHES + 1];
	struct pdw_sample s = { .br = br, .nr = PDW_MAX_BRANCHES + 1 };
	struct pdw *w;

	scratch("pdw-refuse.data", data, sizeof(data));
	attr_of(&a, PERF_COUNT_SW_MAX);
	/* an event after the first record */
	ck_assert(!pdw_open(&w, data, err, sizeof(err)));
	ck_assert_int_eq(pdw_add_event(w, &a, "e"), 0);
	ck_assert(!pdw_comm(w, 1, 1, "x", false, 1));
	ck_assert_int_eq(pdw_add_event(w, &a, "f"), BR_ESYS);
	ck_assert_msg(strstr(pdw_error(w), "an event added after the first record"),
		      "%s", pdw_error(w));
	ck_assert_int_eq(pdw_close(w, err, sizeof(err)), BR_ESYS);
	/* two events without IDENTIFIER */
	a.sample_type &= ~(uint64_t)PERF_SAMPLE_IDENTIFIER;
	ck_assert(!pdw_open(&w, data, err, sizeof(err)));
	ck_assert_int_eq(pdw_add_event(w, &a, "e"), 0);
	ck_assert_int_eq(pdw_add_event(w, &a, "f"), 1);
	ck_assert_int_eq(pdw_comm(w, 1, 1, "x", false, 1), BR_ESYS);
	ck_assert_int_eq(pdw_close(w, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "several events need PERF_SAMPLE_IDENTIFIER"),
		      "%s", err);
	/* a branch stack that no record can hold */
	memset(br, 0, sizeof(br));
	ck_assert(!pdw_open(&w, data, err, sizeof(err)));
	ck_assert_int_eq(pdw_add_event(w, &a, "e"), 0);
	ck_assert_int_eq(pdw_sample(w, &s), BR_ESYS);
	ck_assert_int_eq(pdw_close(w, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "perf.data records hold at most 2727"), "%s",
		      err);
	/* an unsupported sample field */
	a.sample_type |= PERF_SAMPLE_RAW;
	ck_assert(!pdw_open(&w, data, err, sizeof(err)));
	ck_assert_int_eq(pdw_add_event(w, &a, "e"), BR_ESYS);
	ck_assert_int_eq(pdw_close(w, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, "fields the writer does not support"), "%s",
		      err);
}
END_TEST

/* One writer, one refused call: its message, and pdw_close() fails. */
static void refused(int (*call)(struct pdw *w), bool with_event,
		    const char *want)
{
	char data[512], err[512];
	struct perf_event_attr a;
	struct pdw *w;

	scratch("pdw-refuse2.data", data, sizeof(data));
	attr_of(&a, PERF_COUNT_SW_MAX);
	ck_assert(!pdw_open(&w, data, err, sizeof(err)));
	if (with_event)
		ck_assert_int_eq(pdw_add_event(w, &a, "e"), 0);
	ck_assert_int_eq(call(w), BR_ESYS);
	ck_assert_msg(strstr(pdw_error(w), want), "%s", pdw_error(w));
	ck_assert_int_eq(pdw_close(w, err, sizeof(err)), BR_ESYS);
	ck_assert_msg(strstr(err, want), "%s", err);
}

static int comm_first(struct pdw *w)
{
	return pdw_comm(w, 1, 1, "x", false, 1);
}

static int huge_comm(struct pdw *w)
{
	static char comm[70000];

	memset(comm, 'c', sizeof(comm) - 1);
	return pdw_comm(w, 1, 1, comm, false, 1);
}

static int long_build_id(struct pdw *w)
{
	struct pdw_mmap m = { .pid = 1, .tid = 1, .start = 0x1000,
			      .len = 0x1000, .build_id_size = 21,
			      .path = "/x" };

	return pdw_mmap2(w, &m);
}

static int long_table_id(struct pdw *w)
{
	static const uint8_t id[32];

	return pdw_build_id(w, -1, PERF_RECORD_MISC_USER, "/x", id, 21);
}

static int no_such_event(struct pdw *w)
{
	struct pdw_sample s = { .event = 5 };

	return pdw_sample(w, &s);
}

static int not_a_string(struct pdw *w)
{
	return pdw_set_string(w, PF_FEAT_NRCPUS, "x");
}

/* Calls the writer refuses, each with what it says. */
START_TEST(refused_calls)
{
	refused(comm_first, false, "no event added before the first record");
	refused(huge_comm, true, "does not fit perf's 16-bit size");
	refused(long_build_id, true, "build-id of 21 bytes (at most 20)");
	refused(long_table_id, true, "build-id of 21 bytes for /x");
	refused(no_such_event, true, "sample of event 5, which was not added");
	refused(not_a_string, true, "is not a string feature");
}
END_TEST

Suite *pdwrite_suite(void)
{
	Suite *s = suite_create("perfdata-writer");
	TCase *t = tcase_create("perf-6.1");

	tcase_set_timeout(t, 60);
	tcase_add_loop_test(t, file_and_pipe, 0, 2);
	tcase_add_test(t, refusals);
	tcase_add_test(t, refused_calls);
	suite_add_tcase(s, t);
	return s;
}
