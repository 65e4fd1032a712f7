/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire format between the QEMU recorder plugin (qemu-plugin/) and
 * `blockrange record` (the CLI's reader, cli/input/qrec.c; its writers,
 * cli/record/qemu_rec.c): what the plugin writes while the program runs,
 * and what the CLI turns into perf.data or a .brprof once every process
 * of the program has ended.
 *
 * The CLI makes an empty recording directory and passes it to the plugin
 * (out=DIR).  Every thread of every process image writes its own files
 * there; an image is the program started, a forked child, or a program an
 * execve started (the plugin follows execve by starting qemu-x86_64 again,
 * same pid):
 *
 *   PID.N.TID.qrec   the thread's header page (struct qrec_header, with its
 *                    live totals) and its records
 *   PID.N.TID.qtab   exact mode: the thread's table of trace counts
 *                    (struct qrec_table, then its slots)
 *
 * N is the image's number among the images of PID: 0 for the started
 * program and a forked child, one more for each execve followed (the
 * plugin takes the first N free for its main thread, with O_EXCL).
 *
 * The plugin writes through shared mappings of the files, preallocated
 * with fallocate(2) (a full disk is an error it reports, never a SIGBUS):
 * whatever it wrote survives the process being killed, by a fatal signal
 * (QEMU then exits without telling its plugins) or by SIGKILL.  Only the
 * taken branches of a thread since its last sample (sampled) or its
 * current straight line (exact) are lost then.
 *
 * Every integer is little-endian (the plugin runs on x86-64 only), every
 * record a multiple of 8 bytes.  The records of a file follow its header
 * page and end at the first record of type 0 (zero-filled room the thread
 * had not used) or at the end of the file.  A thread's records are in the
 * order they happened; times are CLOCK_MONOTONIC nanoseconds, comparable
 * across all files of a recording.
 */
#ifndef BLOCKRANGE_FORMAT_QREC_WIRE_H
#define BLOCKRANGE_FORMAT_QREC_WIRE_H

#include <stdint.h>

#define QREC_MAGIC "\x7f" "BRQREC\n"
/*
 * 2: a sample may carry the thread's call stack (struct qrec_sample's
 * @stack).  A reader takes version 1 too, whose samples have none (the
 * field was zero).
 */
#define QREC_VERSION 2
#define QREC_VERSION_MIN 1

enum qrec_mode {
	QREC_SAMPLED = 0,	/* rings of taken branches, one every period */
	QREC_EXACT = 1,		/* every straight-line range, counted */
};

/* A thread's totals, kept up to date in its header page. */
struct qrec_counts {
	uint64_t insns;		/* instructions executed */
	uint64_t taken;		/* taken branches */
	uint64_t samples;	/* samples written */
	uint64_t signals;	/* signal handlers entered */
	uint64_t breaks;	/* transfers that were no branch (a signal
				 * delivered or returned from, a system call
				 * that did not come back to its next
				 * instruction, a straight line that went
				 * into another mapping) */
};

#define QREC_HEADER_SIZE 4096

/* The header page of a thread's file (the rest of the page is zero). */
struct qrec_header {
	char magic[8];		/* QREC_MAGIC */
	uint32_t version;	/* QREC_VERSION */
	uint32_t size;		/* QREC_HEADER_SIZE: where the records start */
	uint32_t mode;		/* enum qrec_mode */
	uint32_t depth;		/* sampled: entries of the ring */
	uint64_t period;	/* sampled: taken branches between samples */
	uint64_t jitter;	/* sampled: the period varies by +- this */
	int32_t pid;
	int32_t ppid;		/* the parent process */
	int32_t tid;
	uint32_t image;		/* N */
	uint32_t flags;		/* QREC_H_* */
	uint32_t state;		/* enum qrec_state */
	uint64_t time;		/* when the image began */
	struct qrec_counts counts;
};

/* The image is a forked child (else the started program or an exec). */
#define QREC_H_FORKED 1u

enum qrec_state {
	QREC_RUNNING = 0,	/* still, or killed: its records stop short */
	QREC_FINISHED,		/* exited, or its image ended (exit, exec) */
};

/* Every record starts with this. */
struct qrec_rec {
	uint32_t type;		/* enum qrec_type */
	uint32_t size;		/* of the whole record, a multiple of 8 */
};

enum qrec_type {
	QREC_MAP = 1,	/* struct qrec_map, then the path */
	QREC_COMM,	/* struct qrec_comm */
	QREC_FORK,	/* struct qrec_task: a thread or process began */
	QREC_EXIT,	/* struct qrec_task: a thread ended */
	QREC_SAMPLE,	/* struct qrec_sample, then nr struct qrec_branch */
	QREC_TRACES,	/* struct qrec_traces, then nr struct qrec_trace */
	QREC_PAD,	/* nothing: the room left at the end of a window */
	QREC_EXEC,	/* struct qrec_exec, then the path: an execve followed */
	QREC_END,	/* struct qrec_end: the image ended */
	QREC_NR_TYPES,
};

/*
 * An address range in which guest code was first translated: the host
 * mapping (/proc/self/maps) that holds it, which is the guest's (guest
 * addresses are host addresses).  QEMU maps the guest's PROT_EXEC pages
 * readable only, so neighbouring segments of a file may appear as one
 * mapping: the CLI narrows it to the file's executable segments.  @id
 * names it in traces (ids are per file; a forked child restates the
 * mappings it inherited with their ids).  @ino 0 and no path: anonymous.
 * The mappings of an image are in the files of its threads: each is
 * described once, by the thread that first ran code in it.
 */
struct qrec_map {
	uint64_t time;
	uint32_t id;
	uint32_t path_len;	/* bytes of the path after the struct, no NUL */
	uint64_t start;
	uint64_t end;
	uint64_t pgoff;
	uint32_t maj;
	uint32_t min;
	uint64_t ino;
};

#define QREC_COMM_LEN 16

/* A task's name: at the start of an image (@exec 1) or by prctl. */
struct qrec_comm {
	uint64_t time;
	int32_t pid;
	int32_t tid;
	uint32_t exec;
	uint32_t zero;
	char comm[QREC_COMM_LEN];	/* NUL-padded */
};

/* QREC_FORK: @tid of @pid made by @ptid of @ppid; QREC_EXIT: @tid ended. */
struct qrec_task {
	uint64_t time;
	int32_t pid;
	int32_t ppid;
	int32_t tid;
	int32_t ptid;
};

/* One taken branch: source and target addresses. */
struct qrec_branch {
	uint64_t from;
	uint64_t to;
};

/*
 * A sample: the thread's last @nr taken branches, newest first, then (in
 * version 2) QREC_STACK_FRAMES(@stack) return addresses of the thread's
 * shadow call stack, innermost first: the addresses the calls that are
 * still open will return to, when the sample's newest branch has been
 * taken.  QREC_STACK_CUT: the stack was deeper than QREC_STACK_MAX frames
 * at some point, and its outermost frames were dropped (the frames given
 * are the innermost ones).  Other bits of @stack are zero; in version 1
 * all of it is.
 */
struct qrec_sample {
	uint64_t time;
	int32_t pid;
	int32_t tid;
	uint32_t nr;
	uint32_t stack;
};

#define QREC_STACK_MAX 1024u	/* frames a thread keeps (a power of 2) */
#define QREC_STACK_FRAMES(s) ((s) & 0xffffu)
#define QREC_STACK_CUT (1u << 31)

/*
 * Exact mode: @count executions of the straight-line range [start, end]
 * (addresses of its first and last instruction) in mapping @map, entered
 * by the taken branch from @from (in mapping @from_map) to @start; @from 0
 * if it was entered otherwise (the thread's first instruction, a signal
 * handler, a forked child's return from fork, a block split that changed
 * mappings).  The range ends at a taken branch from @end or where the
 * thread stopped (exit, exec).  A key (from, start, end, maps) may come
 * several times (TRACES records, a table): the counts add up.
 */
struct qrec_trace {
	uint64_t from;
	uint64_t start;
	uint64_t end;
	uint64_t count;
	uint32_t from_map;
	uint32_t map;
};

/* A table's counts written out when it grew (the new table starts empty). */
struct qrec_traces {
	int32_t pid;
	int32_t tid;
	uint32_t nr;
	uint32_t zero;
};

#define QREC_TABLE_MAGIC "\x7f" "BRQTAB\n"

/*
 * A thread's trace table: @cap slots of struct qrec_trace follow, those
 * with a count of 0 empty.  @valid is 0 while the plugin writes the table
 * out as TRACES records and starts a larger one: the slots then count
 * nothing more.
 */
struct qrec_table {
	char magic[8];		/* QREC_TABLE_MAGIC */
	uint32_t valid;
	uint32_t zero;
	uint64_t cap;
	uint64_t zero2[5];	/* 64 bytes */
};

/* execve(@path) is followed: a new file of the same pid continues. */
struct qrec_exec {
	uint64_t time;
	int32_t pid;
	int32_t tid;
	uint32_t path_len;
	uint32_t zero;
};

enum qrec_end_how {
	QREC_END_EXIT = 1,	/* exit_group or the last thread's exit */
	QREC_END_EXEC,		/* an execve replaced it */
	QREC_END_SIGNAL,	/* a signal ended it (QEMU's own exit path) */
};

struct qrec_end {
	uint64_t time;
	int32_t pid;
	uint32_t how;		/* enum qrec_end_how */
	int64_t status;		/* QREC_END_EXIT: the exit status */
	uint64_t decode_misses;	/* last instructions the plugin could not
				 * classify (taken as no branch) */
	uint64_t maps;		/* mappings described */
};

#endif /* BLOCKRANGE_FORMAT_QREC_WIRE_H */
