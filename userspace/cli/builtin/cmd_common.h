/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options every profile-reading subcommand shares (input, DSO selection,
 * binary and debug-file lookup) and the read itself.
 */
#ifndef BLOCKRANGE_CLI_CMD_COMMON_H
#define BLOCKRANGE_CLI_CMD_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "builtin/cli.h"
#include "input/events.h"
#include "resolve/resolver.h"

/*
 * The entries of the shared options in a subcommand's table
 * (builtin/options.h).  T is the subcommand's arguments: a structure with
 * its struct cmd_common as the member c.
 */
#define CMD_LOOKUP_OPTIONS(T) \
	CLI_STRING("input", 'i', T, c.input), \
	CLI_STRING("perfscript", 0, T, c.input), \
	CLI_STRING("binary", 0, T, c.binary), \
	CLI_CALL("dso", 0, T, c.dsos, cli_strings_add, NULL), \
	CLI_STRING("symfs", 0, T, c.symfs), \
	CLI_STRING("vmlinux", 0, T, c.vmlinux), \
	CLI_STRING("kallsyms", 0, T, c.kallsyms), \
	CLI_STRING("debug-file-directory", 0, T, c.debug_dir), \
	CLI_STRING("buildid-dir", 0, T, c.buildid_dir), \
	CLI_FLAG("no-debuginfod", 0, T, c.no_debuginfod), \
	CLI_FLAG("skip-bad", 0, T, c.skip_bad)

/* Most threads -j takes. */
#define CMD_MAX_JOBS 256
#define CMD_STR(x) #x
#define CMD_XSTR(x) CMD_STR(x)

/* Reading the input: threads and progress. */
#define CMD_RUN_OPTIONS(T) \
	CLI_U64("jobs", 'j', T, c.jobs, 1, CMD_MAX_JOBS, \
		"-j N with N from 1 to " CMD_XSTR(CMD_MAX_JOBS)), \
	CLI_SET("progress", T, c.progress, 1), \
	CLI_SET("no-progress", T, c.progress, 0)

/* -o FILE (each subcommand says what FILE is). */
#define CMD_OUTPUT_OPTION(T) CLI_STRING("output", 'o', T, c.output)

#define CMD_RUN_HELP \
	"  -j, --jobs N          read the input with N threads (default: the online CPUs;\n" \
	"                        the output is the same for every N)\n" \
	"  --progress            bytes read, samples per second and the time left on\n" \
	"                        stderr (default when stderr is a terminal)\n" \
	"  --no-progress         no progress line\n"

/* The libblockrange engine of annotate and report (c.tree: 1 for tree). */
#define CMD_ENGINE_OPTION(T) \
	CLI_WORD("engine", T, c.tree, "--engine=batch|tree", "batch", "tree")

#define CMD_ENGINE_HELP \
	"  --engine=batch|tree   batch (default): aggregate the distinct blocks, build the\n" \
	"                        ranges once; tree: count every block into the ranges as\n" \
	"                        it comes (one thread); both give the same output\n"

#define CMD_LOOKUP_HELP \
	"\n" \
	"Finding binaries and their symbols (for each DSO, in this order):\n" \
	"  --symfs DIR           look for every recorded path under DIR first\n" \
	"  --buildid-dir DIR     perf's build-id cache (default $PERF_BUILDID_DIR or ~/.debug)\n" \
	"  --debug-file-directory DIR\n" \
	"                        separate debug files by build-id and .gnu_debuglink\n" \
	"                        (default /usr/lib/debug)\n" \
	"  --no-debuginfod       do not ask debuginfod (asked when DEBUGINFOD_URLS is set)\n" \
	"  --vmlinux FILE        the kernel's code and symbols, for kernel samples\n" \
	"  --kallsyms FILE       kernel symbols only (/proc/kallsyms of the recording boot)\n" \
	"  --binary BIN          the single-binary mode: BIN is the file of the DSO with its\n" \
	"                        basename, and only that DSO is profiled\n"

struct cmd_common {
	const char *input;
	const char *output;	/* -o, when the subcommand takes it */
	const char *binary;
	struct cli_strings dsos;
	struct cli_strings symbols;	/* --symbol, where a subcommand takes it */
	bool source;			/* --source, likewise */
	const char *symfs;
	const char *vmlinux;
	const char *kallsyms;
	const char *debug_dir;
	const char *buildid_dir;
	bool no_debuginfod;
	bool skip_bad;
	uint64_t jobs;		/* -j N, 0: the online CPUs */
	int tree;		/* --engine=tree 1, batch 0 */
	int progress;		/* --progress 1, --no-progress 0, auto -1 */
};

/* The arguments of a subcommand whose options are the common ones only. */
struct cmd_args {
	struct cmd_common c;
};

void cmd_common_init(struct cmd_common *c);
void cmd_common_free(struct cmd_common *c);

/*
 * A subcommand's run: the options of @argv into @args, whose struct
 * cmd_common is @c (cmd_common_init()ed, with the subcommand's defaults),
 * then @work(@cmd, @args) unless the parser says to stop; @c is freed.
 * The exit status.
 */
int cmd_run(const struct cli_cmd *cmd, int argc, char **argv, void *args,
	    struct cmd_common *c,
	    int (*work)(const struct cli_cmd *cmd, void *args));

/*
 * For the subcommands that write the profile of one DSO: --dso and
 * --binary together are a usage error.  0, or the exit status after it.
 */
int cmd_dso_or_binary(const struct cli_cmd *cmd, const struct cmd_common *c);

/* The resolver options the common options give. */
void cmd_resolver_opts(const struct cmd_common *c, struct resolver_opts *o);

struct annot;
struct annot_cfg;

/*
 * annot_init() of @a for the input the common options name, with their
 * resolver and engine options and the collector's @parts (ANNOT_*): 0, or
 * an exit status after its one-line message.
 */
int cmd_annot_open(const struct cmd_common *c, unsigned parts,
		   struct annot *a);

/*
 * annot_init() of @a for the input the common options name: 0, or an exit
 * status after its one-line message.
 */
int cmd_annot_init(const struct cmd_common *c, struct annot *a,
		   const struct resolver_opts *so, const struct annot_cfg *cfg);

/*
 * What annotate, report and profile do first, into @a: cmd_annot_open()
 * with the collector's @parts; with --binary every --symbol must be one of
 * its function symbols (cmd_check_symbols(), before the input is read),
 * then the input is read (cmd_collect()) and the summary line says what
 * was @done ("annotated"); when no DSO has data (and no --symbol asks for
 * one anyway), the "nothing to @verb" line.  0 (annot_free() @a then), or
 * an exit status after its message (@a is freed).
 */
int cmd_load(const struct cmd_common *c, unsigned parts, struct annot *a,
	     const char *done, const char *verb);

/* The engine options the common options give (parts: ANNOT_*). */
void cmd_annot_cfg(const struct cmd_common *c, unsigned parts,
		   struct annot_cfg *cfg);

/* -j's value (default: the online CPUs) and whether to show progress. */
unsigned cmd_jobs(const struct cmd_common *c);
bool cmd_progress(const struct cmd_common *c);

/*
 * The progress line of a read (output/progress.h) in @pr and @prog, or
 * NULL when cmd_progress() says no.
 */
struct par_progress;
struct progress;
const struct par_progress *cmd_progress_of(const struct cmd_common *c,
					   struct par_progress *pr,
					   struct progress *prog);

/*
 * Read the input into @a (its sink; with -j N, N threads, see par.h): 0,
 * or an exit status after its one-line message.
 */
int cmd_collect(const struct cmd_common *c, struct annot *a);

/*
 * With --binary, every name of @symbols must be a function symbol of it:
 * else the usual error (exit status returned), before the input is read.
 * 0 when they all are, or without --binary.
 */
int cmd_check_symbols(const struct cmd_common *c, const struct annot *a,
		      const char *const *symbols, size_t nr_symbols);

#endif /* BLOCKRANGE_CLI_CMD_COMMON_H */
