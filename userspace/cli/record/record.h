/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange record`: a software branch sampler for machines without LBR.
 *
 * The program runs under ptrace, with every thread, fork, vfork and exec
 * followed (PTRACE_O_TRACECLONE, _TRACEFORK, _TRACEVFORK, _TRACEEXEC).
 * Each program (the one started and every one a task execs) runs freely
 * through its dynamic loader to its ELF entry point (AT_ENTRY), unless
 * @from_exec, and is single-stepped from there, in every executable
 * mapping: later calls into ld.so (lazy binding) are traced too.
 *
 * Each instruction about to be stepped is decoded (capstone) from the
 * process's memory (process_vm_readv), once per address and address
 * space: the decode cache is dropped when the executable mappings change.
 * A *taken branch* is an instruction whose next PC is not its fall-through:
 * jumps, calls and returns (unconditional kinds always count, even to the
 * next instruction), and any other instruction that moved the PC elsewhere
 * than its fall-through or itself (rt_sigreturn; a signal handler entered
 * before the instruction ran is a branch from it, which is not counted as
 * executed).
 *
 * Every task has its own ring of the last @depth branches and its own
 * period: after every @period-th taken branch of a task one sample of that
 * task is written, newest entry first, IP = the newest branch's source.
 * Depth 0 means unbounded: each sample holds every branch of the task
 * since its previous sample plus that sample's newest entry, so every
 * block is counted exactly once; at exit (and exec) the branches not yet
 * written form one last sample.
 *
 * Mappings: /proc/PID/maps is read at the start of tracing of each
 * program, after every mmap, mprotect, munmap, mremap, shmat, shmdt,
 * pkey_mprotect or remap_file_pages system call, and when a PC lands
 * outside the known executable mappings; each executable mapping not
 * seen before gets a PERF_RECORD_MMAP2 (device/inode form, prot and flags
 * from the permissions, path; [vsyscall] excluded) before any sample that
 * could touch it.  A forked process inherits its parent's mappings (perf
 * does the same on PERF_RECORD_FORK); an exec starts afresh.
 *
 * Records: COMM (exec flag at the start and after every exec; a thread
 * renamed with prctl(PR_SET_NAME) gets a plain COMM), FORK for every new
 * thread and process, EXIT for every task that ends, MMAP2, samples, and
 * the build-id (ELF NT_GNU_BUILD_ID note) of every file whose code a
 * recorded branch touched.
 *
 * Timestamps are not wall-clock: a record's time is 1000 ns times the
 * number of instructions stepped (all tasks) before it, bumped by 1 ns
 * when several records fall on the same step, so they strictly increase
 * and a recording of a deterministic single-threaded program is
 * reproducible.
 *
 * Output: perf.data (event "taken-branches-sw:u", see recout.h) or the
 * text of `perf script -F FIELDS --show-mmap-events [--show-task-events]`
 * (pswrite.h), or both (@script_copy).
 *
 * @counts receives "PATH 0xVADDR COUNT" per executed instruction of every
 * mapped file (sorted by path, then address), VADDR being the ELF virtual
 * address (runtime address -> file offset through the mapping's pgoff ->
 * vaddr through the file's PT_LOADs; for [vdso] and anonymous code the
 * offset in the mapping).  An instruction repeated in place by a rep
 * prefix counts once.
 */
#ifndef BLOCKRANGE_CLI_RECORD_H
#define BLOCKRANGE_CLI_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "record/recout.h"

struct record_opts {
	const char *output;	/* "-" for stdout (perf.data: pipe mode) */
	enum record_format format;
	const char *script_copy; /* NULL, or also write the text there */
	unsigned fields;	/* PSW_* of the text */
	bool task_events;	/* text: COMM/FORK/EXIT lines */
	const char *counts;	/* NULL: none */
	unsigned depth;		/* 0: unbounded */
	uint64_t period;	/* >= 1 */
	bool from_exec;		/* step from the first instruction after exec */
	char *const *argv;	/* program and arguments */
	int cmd_argc;		/* blockrange's own command line, for */
	char *const *cmd_argv;	/* perf.data's HEADER_CMDLINE */
};

/* What a recording did (for the summary line of `blockrange record`). */
struct record_stats {
	int status;		/* the program's, as waitpid(2) gives it */
	uint64_t executed;	/* instructions executed */
	uint64_t steps;		/* single steps */
	uint64_t tasks;		/* tasks traced */
	uint64_t taken;		/* taken branches */
	uint64_t samples;	/* samples written */
};

/* 0, or BR_ESYS with a message in @err; @st: what it did. */
int record_run(const struct record_opts *o, struct record_stats *st,
	       char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_RECORD_H */
