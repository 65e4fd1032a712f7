/* SPDX-License-Identifier: GPL-2.0 */
/*
 * perf-script text writer: the records of a recording printed exactly as
 * perf 6.1's `perf script -F FIELDS --show-mmap-events
 * [--show-task-events]` prints them when it reads the same records from
 * perf.data (the writer takes the same record structs as perfdata_write.h,
 * so one recording can go to both and the outputs can be compared).
 *
 * Fields, in perf's order, each followed by one space when present:
 *   comm   "%16s "       the task's command at the time of the record
 *                        (COMM sets it; a forked task starts with its
 *                        parent thread's; unknown: ":TID")
 *   pid,tid "%5d/%-5d "; pid alone or tid alone "%5d "
 *   time   "%5lu.%06lu: " seconds and microseconds
 * then, for samples, ip " %16lx" and brstack entries
 * " 0xFROM/0xTO/P/X/A/CYCLES/ " (P is 'P', 'M' or '-', the empty field is
 * the branch type perf 6.1 prints for type 0).  A sample with a call chain
 * (pdw_sample's @chain) prints, for ip, a newline and one "\t%16lx\n" line
 * per address of the chain after its context marker: the layout perf 6.1
 * prints, but with the absolute addresses (perf 6.1 prints each one
 * relative to its mapping, which llvm-profgen takes as external frames),
 * so that llvm-profgen --perfscript reads it as hybrid samples.  For the other records the
 * PERF_RECORD_* line as perf prints it (an MMAP2 of the build-id form
 * shows "<BUILDID>" where the other has "MAJ:MIN INO GEN").  MMAP2 lines are always written;
 * COMM, FORK and EXIT only with @task_events.  Records are printed in the
 * order they are given (perf prints in timestamp order: give them sorted).
 */
#ifndef BLOCKRANGE_CLI_PSWRITE_H
#define BLOCKRANGE_CLI_PSWRITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "input/events.h"
#include "output/perfdata_write.h"

enum psw_field {
	PSW_COMM = 1 << 0,
	PSW_PID = 1 << 1,
	PSW_TID = 1 << 2,
	PSW_TIME = 1 << 3,
	PSW_IP = 1 << 4,
	PSW_BRSTACK = 1 << 5,
};

/* What `blockrange record --format=perfscript` writes by default. */
#define PSW_DEFAULT_FIELDS (PSW_IP | PSW_BRSTACK)

struct psw;

/*
 * Parse a perf-script -F list ("comm,pid,tid,time,ip,brstack", any subset
 * in any order) into PSW_* bits; false if a name is unknown or the list
 * is empty.
 */
bool psw_parse_fields(const char *s, unsigned *fields);

/*
 * Create @path ("-": stdout).  0, or BR_ESYS with a message in @err.  Errors
 * are reported like the perf.data writer's: sticky, by psw_close().
 */
int psw_open(struct psw **wp, const char *path, unsigned fields,
	     bool task_events, char *err, size_t errsz);

/* The first error's message ("" if none). */
const char *psw_error(const struct psw *w);

int psw_comm(struct psw *w, int32_t pid, int32_t tid, const char *comm,
	     bool exec, uint64_t time);
int psw_fork(struct psw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time);
int psw_exit(struct psw *w, int32_t pid, int32_t ppid, int32_t tid,
	     int32_t ptid, uint64_t time);
int psw_mmap2(struct psw *w, const struct pdw_mmap *m);
int psw_sample(struct psw *w, const struct pdw_sample *s);

/*
 * The text perf script prints for an MMAP or MMAP2 record (the one writer
 * of it: psw_mmap2() and script --dump-events use it), after @prefix
 * ("PERF_RECORD_" as perf prints it):
 *   MMAP2 PID/TID: [0xSTART(0xLEN) @ 0xPGOFF MAJ:MIN INO GEN]: rwxp PATH
 *   (the build-id form shows <BUILDID> instead of MAJ:MIN INO GEN), or
 *   MMAP PID/TID: [0xSTART(0xLEN) @ 0xPGOFF]: x PATH  (without prot)
 * with its newline.  Hex numbers as %#x prints them (0 is "0").
 */
void psw_mmap_text(FILE *f, const char *prefix, const struct ev_mmap *m);

/* Flush, close and free; 0 or BR_ESYS with the first error in @err. */
int psw_close(struct psw *w, char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_PSWRITE_H */
