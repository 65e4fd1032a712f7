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

#include "cli.h"
#include "events.h"
#include "session.h"

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
	CMD_OPT_NEXT,		/* first value free for a subcommand */
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
};

void cmd_common_init(struct cmd_common *c);
void cmd_common_free(struct cmd_common *c);

/*
 * Handle option @c if it is a common one: 0 handled, -1 not a common
 * option, > 0 an exit status after a usage message.
 */
int cmd_common_opt(const struct cli_cmd *cmd, struct cmd_common *c, int opt,
		   char **argv);

/* Append @s to a growing array of strings; 0 or -1. */
int cmd_push(const char ***v, size_t *nr, const char *s);

/* The session options the common options give. */
void cmd_session_opts(const struct cmd_common *c, struct session_opts *o);

/*
 * Read the input into @sink: 0, or an exit status after its one-line
 * message.  With --skip-bad, prints how many lines were skipped.
 */
int cmd_read(const struct cmd_common *c, const struct ev_sink *sink,
	     char *err, size_t errsz);

#endif /* BLOCKRANGE_CLI_CMD_COMMON_H */
