/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options every profile-reading subcommand shares (input, DSO selection,
 * binary and debug-file lookup) and the read itself.
 */
#ifndef BLOCKRANGE_CLI_CMD_COMMON_H
#define BLOCKRANGE_CLI_CMD_COMMON_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>

#include "builtin/cli.h"
#include "input/events.h"
#include "resolve/resolver.h"

enum {
	CMD_OPT_INPUT = 'i',
	CMD_OPT_PERFSCRIPT = 1000,
	CMD_OPT_BINARY,
	CMD_OPT_DSO,
	CMD_OPT_SYMFS,
	CMD_OPT_VMLINUX,
	CMD_OPT_KALLSYMS,
	CMD_OPT_DEBUG_DIR,
	CMD_OPT_BUILDID_DIR,
	CMD_OPT_NO_DEBUGINFOD,
	CMD_OPT_SKIP_BAD,
	CMD_OPT_ENGINE,
	CMD_OPT_PROGRESS,
	CMD_OPT_NO_PROGRESS,
	CMD_OPT_NEXT,		/* first value free for a subcommand */
	CMD_OPT_JOBS = 'j',
};

#define CMD_LOOKUP_OPTIONS \
	{ "input", required_argument, NULL, CMD_OPT_INPUT }, \
	{ "perfscript", required_argument, NULL, CMD_OPT_PERFSCRIPT }, \
	{ "binary", required_argument, NULL, CMD_OPT_BINARY }, \
	{ "dso", required_argument, NULL, CMD_OPT_DSO }, \
	{ "symfs", required_argument, NULL, CMD_OPT_SYMFS }, \
	{ "vmlinux", required_argument, NULL, CMD_OPT_VMLINUX }, \
	{ "kallsyms", required_argument, NULL, CMD_OPT_KALLSYMS }, \
	{ "debug-file-directory", required_argument, NULL, CMD_OPT_DEBUG_DIR }, \
	{ "buildid-dir", required_argument, NULL, CMD_OPT_BUILDID_DIR }, \
	{ "no-debuginfod", no_argument, NULL, CMD_OPT_NO_DEBUGINFOD }, \
	{ "skip-bad", no_argument, NULL, CMD_OPT_SKIP_BAD }

/* Most threads -j takes. */
#define CMD_MAX_JOBS 256

/* Reading the input: threads and progress (the subcommand's "j:" too). */
#define CMD_RUN_OPTIONS \
	{ "jobs", required_argument, NULL, CMD_OPT_JOBS }, \
	{ "progress", no_argument, NULL, CMD_OPT_PROGRESS }, \
	{ "no-progress", no_argument, NULL, CMD_OPT_NO_PROGRESS }

#define CMD_RUN_HELP \
	"  -j, --jobs N          read the input with N threads (default: the online CPUs;\n" \
	"                        the output is the same for every N)\n" \
	"  --progress            bytes read, samples per second and the time left on\n" \
	"                        stderr (default when stderr is a terminal)\n" \
	"  --no-progress         no progress line\n"

/* The libblockrange engine of annotate and report. */
#define CMD_ENGINE_OPTION \
	{ "engine", required_argument, NULL, CMD_OPT_ENGINE }

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
	const char *binary;
	const char **dsos;
	size_t nr_dsos;
	const char *symfs;
	const char *vmlinux;
	const char *kallsyms;
	const char *debug_dir;
	const char *buildid_dir;
	bool no_debuginfod;
	bool skip_bad;
	unsigned jobs;		/* -j N, 0: the online CPUs */
	bool tree;		/* --engine=tree */
	int progress;		/* --progress 1, --no-progress 0, auto -1 */
};

void cmd_common_init(struct cmd_common *c);
void cmd_common_free(struct cmd_common *c);

/*
 * Handle option @c if it is a common one: 0 handled, CMD_NOT_COMMON not a
 * common option, > 0 an exit status after a usage message.
 */
#define CMD_NOT_COMMON (-1)
int cmd_common_opt(const struct cli_cmd *cmd, struct cmd_common *c, int opt,
		   char **argv);

/*
 * Parse the command line of a subcommand whose options are the common
 * ones, -o FILE (into @output, left alone when absent) and -h: 0 to go on,
 * CLI_HELP_SHOWN after the help was printed, or an exit status after a
 * usage message.
 * Arguments other than options are a usage error.  @cmd->options must give
 * "output" and "help" the values 'o' and 'h'.
 */
int cmd_parse_output(const struct cli_cmd *cmd, struct cmd_common *c,
		     int argc, char **argv, const char **output);

/* Append @s to a growing array of strings; 0 or BR_ESYS (out of memory). */
int cmd_push(const char ***v, size_t *nr, const char *s);

/* The resolver options the common options give. */
void cmd_resolver_opts(const struct cmd_common *c, struct resolver_opts *o);

struct annot;
struct annot_cfg;

/*
 * annot_init() of @a for the input the common options name: 0, or an exit
 * status after its one-line message.
 */
int cmd_annot_init(const struct cmd_common *c, struct annot *a,
		   const struct resolver_opts *so, const struct annot_cfg *cfg);

/*
 * What annotate, report and profile do first, into @a (annot_init()ed):
 * with --binary every name of @symbols must be one of its function symbols
 * (cmd_check_symbols(), before the input is read), then the input is read
 * (cmd_collect()) and the summary line says what was @done ("annotated");
 * when no DSO has data (and no --symbol asks for one anyway), the "nothing
 * to @verb" line.  0, or an exit status after its message.
 */
int cmd_load(const struct cmd_common *c, struct annot *a,
	     const char *const *symbols, size_t nr_symbols, const char *done,
	     const char *verb);

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
