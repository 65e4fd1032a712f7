/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf.data writer: the records and header features perf 6.1 needs to
 * read a user-space branch-stack profile (`perf script -F ip,brstack`,
 * `perf annotate`, `perf report --branch-history`, llvm-profgen through
 * perf script).  Format: perf_file.h and the kernel's perf.data-file-format
 * document; records and struct perf_event_attr from <linux/perf_event.h>.
 *
 * Two modes:
 *  - file mode (pdw_open() with a path): header, attrs and their ids, the
 *    data section, then one section per feature; the header is written
 *    last, by pdw_close(), so the file must be seekable.  Build-ids go to
 *    the HEADER_BUILD_ID table.
 *  - pipe mode (pdw_open() with "-", or pdw_open_fd() with @pipe): the
 *    16-byte pipe header, then PERF_RECORD_HEADER_ATTR and
 *    PERF_RECORD_HEADER_FEATURE records, then the data; build-ids are
 *    PERF_RECORD_HEADER_BUILD_ID records written when added.  Nothing is
 *    ever sought, so stdout may be a pipe.
 *
 * Sequence: pdw_open(), pdw_add_event() for every event, the pdw_set_*()
 * features, then records (pdw_comm(), pdw_fork(), pdw_exit(), pdw_mmap2(),
 * pdw_sample(), pdw_build_id(), pdw_finished_round()) and pdw_close().
 * Events and header features are fixed by the first record (pipe mode
 * writes them then); adding one later is an error.
 *
 * Records carry what the events' attrs say: samples the fields of
 * attr.sample_type (supported: IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD,
 * BRANCH_STACK, with branch_sample_type's HW_INDEX), other records the
 * sample_id trailer of the first event when its attr has sample_id_all.
 * With more than one event every attr must have PERF_SAMPLE_IDENTIFIER,
 * which tells perf which event a record belongs to.  The writer assigns
 * the ids (1, 2, ... in the order the events were added).
 *
 * Every record is a multiple of 8 bytes (strings are NUL-padded).  The
 * caller passes timestamps; perf sorts by them within rounds, so they
 * should not decrease (pdw_finished_round() tells perf that nothing
 * earlier follows; the writer does not reorder).
 *
 * Errors: a function returns 0, or BR_ESYS after storing a one-line message
 * that pdw_error() returns; the writer then refuses everything but
 * pdw_close(), which returns BR_ESYS and frees it.  No global state: every
 * writer is independent.
 */
#ifndef BLOCKRANGE_CLI_PERFDATA_WRITE_H
#define BLOCKRANGE_CLI_PERFDATA_WRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <linux/perf_event.h>

#include "base/buildid.h"
#include "format/perf_file.h"

struct pdw;

/*
 * A record's size is a u16: a sample of the richest supported layout
 * (IDENTIFIER, IP, TID, TIME, ID, CPU, PERIOD, nr and hw_idx: 72 bytes)
 * fits at most this many branch entries of 24 bytes.
 */
#define PDW_MAX_BRANCHES 2727

/* A PERF_RECORD_MMAP2 (pid/tid also go to the sample_id trailer). */
struct pdw_mmap {
	int32_t pid;
	int32_t tid;
	uint64_t start;
	uint64_t len;
	uint64_t pgoff;
	uint32_t prot;		/* PROT_* */
	uint32_t flags;		/* MAP_PRIVATE / MAP_SHARED */
	/* device/inode form, or the build-id form if build_id_size > 0 */
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
	uint64_t ino_generation;
	uint8_t build_id_size;	/* <= BR_BUILD_ID_MAX */
	uint8_t build_id[BR_BUILD_ID_MAX];
	const char *path;
	uint16_t cpumode;	/* PERF_RECORD_MISC_USER etc. */
	uint64_t time;
};

/*
 * A PERF_RECORD_SAMPLE of event @event (index from pdw_add_event()).  The
 * fields its sample_type does not have are ignored.  @br holds @nr entries,
 * newest first, as the kernel writes them.
 */
struct pdw_sample {
	unsigned event;
	uint16_t cpumode;	/* PERF_RECORD_MISC_USER etc. */
	uint64_t ip;
	int32_t pid;
	int32_t tid;
	uint64_t time;
	uint32_t cpu;
	uint64_t period;
	uint64_t hw_idx;	/* with PERF_SAMPLE_BRANCH_HW_INDEX; -1: none */
	const struct perf_branch_entry *br;
	uint64_t nr;
	/*
	 * PERF_SAMPLE_CALLCHAIN: @nr_chain addresses, as the kernel writes
	 * them (a context marker such as PERF_CONTEXT_USER, then the sample's
	 * IP, then the return addresses, innermost first).
	 */
	const uint64_t *chain;
	uint64_t nr_chain;
};

/*
 * Create @path (truncating it) for file mode, or write pipe mode to stdout
 * if @path is "-".  @path is also the name in messages.
 */
int pdw_open(struct pdw **wp, const char *path, char *err, size_t errsz);

/*
 * Write to @fd (not closed by the writer); file mode needs a seekable fd
 * positioned at 0.  @name is for messages.
 */
int pdw_open_fd(struct pdw **wp, int fd, bool pipe, const char *name,
		char *err, size_t errsz);

/* The first error's message ("" if none). */
const char *pdw_error(const struct pdw *w);

/*
 * Add an event: @attr (attr->size is set by the writer to
 * sizeof(struct perf_event_attr)) and its name for HEADER_EVENT_DESC
 * (what perf prints as the event).  Returns its index (0, 1, ...) or
 * BR_ESYS.
 */
int pdw_add_event(struct pdw *w, const struct perf_event_attr *attr,
		  const char *name);

/*
 * Header features.  pdw_set_string(): HOSTNAME, OSRELEASE, VERSION, ARCH,
 * CPUDESC or CPUID.  pdw_set_host() fills HOSTNAME, OSRELEASE and ARCH
 * from uname(2) and NRCPUS from sysconf(3).  EVENT_DESC comes from the
 * events, SAMPLE_TIME (file mode) from the samples, BUILD_ID from
 * pdw_build_id(); BRANCH_STACK (no data: perf 6.1's `report
 * --branch-history` wants the bit) is set when an event samples branch
 * stacks.
 */
int pdw_set_string(struct pdw *w, enum pf_feature feat, const char *s);
int pdw_set_cmdline(struct pdw *w, int argc, char *const argv[]);
int pdw_set_nrcpus(struct pdw *w, uint32_t available, uint32_t online);
int pdw_set_host(struct pdw *w);

/* PERF_RECORD_COMM; @exec sets PERF_RECORD_MISC_COMM_EXEC. */
int pdw_comm(struct pdw *w, int32_t pid, int32_t tid, const char *comm,
	     bool exec, uint64_t time);

/*
 * PERF_RECORD_FORK: task @pid/@tid created by @ppid/@ptid.
 * PERF_RECORD_EXIT: task @pid/@tid ended; @ppid/@ptid its parent.  The
 * sample_id trailer names @pid/@tid.
 */
int pdw_fork(struct pdw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time);
int pdw_exit(struct pdw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time);

int pdw_mmap2(struct pdw *w, const struct pdw_mmap *m);
int pdw_sample(struct pdw *w, const struct pdw_sample *s);

/*
 * The build-id (@size <= BR_BUILD_ID_MAX bytes) of @path as process @pid (-1: any, what
 * perf writes for user DSOs) maps it, @cpumode PERF_RECORD_MISC_USER or
 * _KERNEL.  File mode: an entry of the HEADER_BUILD_ID table (a path given
 * twice keeps its first entry); pipe mode: a PERF_RECORD_HEADER_BUILD_ID
 * record, written now.
 */
int pdw_build_id(struct pdw *w, int32_t pid, uint16_t cpumode,
		 const char *path, const uint8_t *id, size_t size);

/* PERF_RECORD_FINISHED_ROUND. */
int pdw_finished_round(struct pdw *w);

/*
 * Finish (file mode: the feature sections and the header) and free @w.
 * 0, or BR_ESYS with the first error's message in @err.  A NULL @w is a
 * no-op.
 */
int pdw_close(struct pdw *w, char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_PERFDATA_WRITE_H */
