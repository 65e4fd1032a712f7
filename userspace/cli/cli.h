/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The blockrange command line: one module per subcommand (cmd_*.c), each
 * with its own options and help, dispatched by main.c through struct
 * cli_cmd.  Helpers shared by the subcommands live in cli.c.
 *
 * Exit status of every subcommand: 0 success, CLI_EXIT_USAGE (1) for usage
 * and I/O errors, CLI_EXIT_INPUT (2) for malformed input (a perf-script
 * line or file, a perf.data record, a binary whose content is unusable,
 * nothing that could be annotated).  Every error is one line on stderr
 * ("blockrange: ..."); usage errors add the subcommand's synopsis.
 */
#ifndef BLOCKRANGE_CLI_CLI_H
#define BLOCKRANGE_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "elfbin.h"
#include "perfscript.h"

#define CLI_EXIT_USAGE 1
#define CLI_EXIT_INPUT 2

/* Room for any message a reader or a subcommand builds. */
#define CLI_ERR_MAX 4608

/**
 * struct cli_cmd - one subcommand
 * @name:     as typed ("annotate")
 * @summary:  one line for `blockrange --help`
 * @synopsis: the "usage: blockrange NAME ..." lines (each ending in '\n')
 * @help:     the rest of `blockrange NAME --help`: what it does, every
 *            option, examples
 * @run:      runs it; argv[0] is @name, options follow.  Returns the exit
 *            status.
 */
struct cli_cmd {
	const char *name;
	const char *summary;
	const char *synopsis;
	const char *help;
	int (*run)(const struct cli_cmd *cmd, int argc, char **argv);
};

extern const struct cli_cmd cli_cmd_annotate;
extern const struct cli_cmd cli_cmd_ranges;
extern const struct cli_cmd cli_cmd_record;
extern const struct cli_cmd cli_cmd_script;

/*
 * Print "blockrange: MESSAGE" and the synopsis of @cmd on stderr; returns
 * CLI_EXIT_USAGE.
 */
int cli_usage(const struct cli_cmd *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Print "blockrange: MESSAGE" on stderr; returns @status. */
int cli_fail(int status, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/*
 * getopt_long() returned '?' (unknown option) or ':' (missing value; the
 * option string must start with "+:" or ":"): the usage message for it.
 */
int cli_bad_option(const struct cli_cmd *cmd, int c, char **argv);

/* `blockrange NAME --help`: synopsis and help on stdout; returns 0. */
int cli_help(const struct cli_cmd *cmd);

/* A u64 in hex (0x...) or decimal, no sign, nothing after it. */
bool cli_parse_u64(const char *s, uint64_t *v);

/*
 * --color=auto|always|never -> -1, 1, 0; false if @s is none of them.
 * cli_color_on() resolves auto: stdout is a terminal and NO_COLOR is unset
 * or empty.
 */
bool cli_parse_color(const char *s, int *color);
bool cli_color_on(int color);

/*
 * Open an input file for reading ("-" is stdin).  NULL after a one-line
 * message (missing, unreadable, a directory).  @what names the expected
 * content in the directory message ("a perf script file").
 */
FILE *cli_open_input(const char *path, const char *what);
void cli_close_input(FILE *f);

/* "<stdin>" for "-", else @path. */
const char *cli_input_name(const char *path);

/*
 * ps_read()'s result as an exit status, with its one-line message; an input
 * without a single sample line is malformed too (llvm-profgen refuses it as
 * well).  With @skip_bad the count of skipped lines is printed.
 */
int cli_read_status(int r, const char *err, const char *name,
		    const struct ps_stats *st, bool skip_bad);

/*
 * Open the profiled binary of the single-binary mode (--binary), which
 * tells code from data by its function symbols: a binary without any is
 * refused.  0 or an exit status after the message.
 */
int cli_open_binary(const char *path, struct eb_binary *bin);

#endif /* BLOCKRANGE_CLI_CLI_H */
