/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The outputs of a software recording, shared by both engines of
 * `blockrange record` (record.h, qemu_rec.h): perf.data, or the text
 * `perf script -F FIELDS --show-mmap-events [--show-task-events]` prints
 * for it (pswrite.h), and that text besides (--script-copy).  Every record
 * goes to each output; a PERF_RECORD_FINISHED_ROUND follows every 4096.
 *
 * The event: perf.data needs a perf_event_attr, and no kernel counter
 * ran.  The attr says what it is: PERF_TYPE_SOFTWARE with config
 * PERF_COUNT_SW_MAX (12 in the 6.1 headers, which no kernel event uses),
 * sample_period = the period in taken branches, user-only, branch stacks
 * of any branch (PERF_SAMPLE_BRANCH_USER | _ANY | _HW_INDEX, hw_idx -1 as
 * for branch stacks that do not come from an LBR), sample type
 * IP|TID|TIME|PERIOD|BRANCH_STACK (and CALLCHAIN with call stacks, as
 * `perf record -g` adds it), and its name in HEADER_EVENT_DESC is
 * "taken-branches-sw:u": taken branches, sampled in software.  perf 6.1
 * prints that name, runs `script -F ip,brstack`, `annotate` and `report
 * --branch-history` on it (it does not print the IP of
 * PERF_COUNT_SW_DUMMY samples, hence not the dummy event).
 *
 * A new or regular output file is written as NAME.tmp and renamed when it
 * is complete, so that a failed recording (a full disk) leaves nothing
 * that looks valid; "-" (perf.data in pipe mode) and other files
 * (/dev/null, a FIFO) are written in place.  An existing non-empty
 * perf.data is kept as NAME.old, as perf record does.
 *
 * Errors: a function returns 0, or BR_ESYS (base/status.h) after writing
 * one line into the @err buffer given to recout_open().
 */
#ifndef BLOCKRANGE_CLI_RECOUT_H
#define BLOCKRANGE_CLI_RECOUT_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "output/perfdata_write.h"
#include "output/pswrite.h"

#define RECOUT_EVENT "taken-branches-sw:u"

enum record_format {
	RECORD_PERFDATA,
	RECORD_PERFSCRIPT,
};

struct recout_opts {
	const char *output;	/* "-": stdout */
	enum record_format format;
	const char *script_copy;	/* NULL, or also the text there */
	unsigned fields;	/* PSW_* of the text */
	bool task_events;	/* text: COMM/FORK/EXIT lines */
	uint64_t period;	/* the event's sample_period */
	bool callchain;		/* perf.data: samples carry call chains */
	const char *version;	/* perf.data's VERSION feature */
	int cmd_argc;		/* blockrange's command line (CMDLINE) */
	char *const *cmd_argv;
};

struct recout {
	struct pdw *pdw;
	struct psw *psw[2];
	uint64_t records;
	char **bid;		/* paths whose build-id was given */
	size_t nr_bid;
	const char *output;
	char tmp[PATH_MAX + 8];	/* "" if written in place */
	bool perfdata;
	char *err;
	size_t errsz;
};

/*
 * The NAME.tmp that output @out is written as, in @buf ("" when it is
 * written in place).
 */
void recout_tmp_name(const char *out, char *buf, size_t size);

int recout_open(struct recout *o, const struct recout_opts *ro, char *err,
		size_t errsz);
int recout_comm(struct recout *o, int32_t pid, int32_t tid,
		const char *comm, bool exec, uint64_t time);
/* PERF_RECORD_EXIT if @exit, else PERF_RECORD_FORK. */
int recout_task(struct recout *o, bool exit, int32_t pid, int32_t ppid,
		int32_t tid, int32_t ptid, uint64_t time);
int recout_mmap(struct recout *o, const struct pdw_mmap *m);
/*
 * The build-id @id (@id_size bytes, 0: none) of the file @path, written
 * once per path.
 */
int recout_build_id(struct recout *o, const char *path, const uint8_t *id,
		    size_t id_size);
int recout_sample(struct recout *o, const struct pdw_sample *s);

/*
 * Close every output; with @ret 0 the file becomes the output, else it is
 * removed.  Returns @ret, or BR_ESYS if closing failed (message in err).
 */
int recout_close(struct recout *o, int ret);

#endif /* BLOCKRANGE_CLI_RECOUT_H */
