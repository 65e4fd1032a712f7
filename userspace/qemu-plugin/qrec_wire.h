/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire format between the QEMU recorder plugin (plugin.c) and
 * `blockrange record` (the CLI's reader): what the plugin writes while
 * the program runs, and what the CLI turns into perf.data or a .brprof.
 *
 * The CLI makes an empty recording directory and passes it to the plugin
 * (out=DIR).  Every process image writes its own file there: the program
 * started, every forked child, every program an execve starts (the plugin
 * follows execve by starting qemu-x86_64 again, same pid).  A file is
 * named "PID.N.qrec", N = 0, 1, ... the first name free (created with
 * O_EXCL), so the images of one pid sort in the order they ran.  The CLI
 * reads the files only after every process of the recording has ended.
 *
 * A file is a header, then records.  Every integer is little-endian (the
 * plugin runs on x86-64 only), every record a multiple of 8 bytes.  Each
 * thread buffers its records and appends them with one write(2) of whole
 * records to the file (opened O_APPEND), so the records of the threads of
 * a process interleave in chunks; each thread's own records are in the
 * order they happened.  Times are CLOCK_MONOTONIC nanoseconds, comparable
 * across all files of a recording.  A file whose last record is not
 * QREC_END was cut short: its process was killed (SIGKILL) or a write
 * failed; the CLI says so.
 */
#ifndef BLOCKRANGE_QREC_WIRE_H
#define BLOCKRANGE_QREC_WIRE_H

#include <stdint.h>

#define QREC_MAGIC "\x7f" "BRQREC\n"
#define QREC_VERSION 1

enum qrec_mode {
	QREC_SAMPLED = 0,	/* rings of taken branches, one every period */
	QREC_EXACT = 1,		/* every straight-line range, counted */
};

/* The file header, 64 bytes. */
struct qrec_header {
	char magic[8];		/* QREC_MAGIC */
	uint32_t version;	/* QREC_VERSION */
	uint32_t size;		/* sizeof(struct qrec_header) */
	uint32_t mode;		/* enum qrec_mode */
	uint32_t depth;		/* sampled: entries of the ring */
	uint64_t period;	/* sampled: taken branches between samples */
	uint64_t jitter;	/* sampled: the period varies by +- this */
	int32_t pid;
	int32_t ppid;		/* the parent process */
	uint32_t flags;		/* QREC_H_* */
	uint32_t zero;
	uint64_t time;		/* when the image began */
};

/* The image is a forked child (else the started program or an exec). */
#define QREC_H_FORKED 1u

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
	QREC_THREAD,	/* struct qrec_thread: one thread's totals */
	QREC_EXEC,	/* struct qrec_exec, then the path: an execve followed */
	QREC_END,	/* struct qrec_end: the image ended */
	QREC_NOTE,	/* struct qrec_note, then the text */
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

/* A sample: the thread's last @nr taken branches, newest first. */
struct qrec_sample {
	uint64_t time;
	int32_t pid;
	int32_t tid;
	uint32_t nr;
	uint32_t zero;
};

/*
 * Exact mode: @count executions of the straight-line range [start, end]
 * (addresses of its first and last instruction) in mapping @map, entered
 * by the taken branch from @from (in mapping @from_map) to @start; @from 0
 * if it was entered otherwise (the thread's first instruction, a signal
 * handler, a forked child's return from fork, a block split that changed
 * mappings).  The range ends at a taken branch from @end or where the
 * thread stopped (exit, exec).  A key (from, start, end, maps) may come
 * in several records: the counts add up.
 */
struct qrec_trace {
	uint64_t from;
	uint64_t start;
	uint64_t end;
	uint64_t count;
	uint32_t from_map;
	uint32_t map;
};

struct qrec_traces {
	int32_t pid;
	int32_t tid;
	uint32_t nr;
	uint32_t zero;
};

/* A thread's totals, written when it ends (or its image does). */
struct qrec_thread {
	uint64_t time;
	int32_t pid;
	int32_t tid;
	uint64_t insns;		/* instructions executed */
	uint64_t taken;		/* taken branches */
	uint64_t samples;	/* samples written */
	uint64_t signals;	/* signal handlers entered */
	uint64_t breaks;	/* transfers that were no branch (signal
				 * delivery and return, a syscall that did
				 * not come back to its next instruction) */
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
};

enum qrec_note_kind {
	QREC_NOTE_INFO = 0,	/* for the summary */
	QREC_NOTE_ERROR,	/* the recording failed: the text says why */
};

struct qrec_note {
	uint32_t kind;		/* enum qrec_note_kind */
	uint32_t len;		/* bytes of text after the struct */
};

#endif /* BLOCKRANGE_QREC_WIRE_H */
