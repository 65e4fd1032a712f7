/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The blockrange command line: one module per subcommand (cmd_*.c), each
 * with its own options and help, dispatched by main.c through struct
 * cli_cmd.  Helpers shared by the subcommands live in cli.c.
 *
 * Exit status of every subcommand: 0 success, CLI_EXIT_USAGE (1) for usage
 * and I/O errors, CLI_EXIT_INPUT (2) for malformed input (a perf-script
 * line or file, a perf.data record, a binary whose content is unusable,
 * nothing that could be annotated), CLI_EXIT_NOMEM (3) when memory ran
 * out.  Every error is one line on stderr ("blockrange: ..."); usage
 * errors add the subcommand's synopsis.
 *
 * Options are parsed by cli_parse_options() (builtin/options.h) from the
 * subcommand's table.
 */
#ifndef BLOCKRANGE_CLI_CLI_H
#define BLOCKRANGE_CLI_CLI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "base/status.h"
#include "builtin/options.h"

#define CLI_EXIT_USAGE 1
#define CLI_EXIT_INPUT 2
#define CLI_EXIT_NOMEM 3

/*
 * The exit status of a BR_* value of the layers below (base/status.h):
 * 0 for BR_OK, CLI_EXIT_INPUT for BR_EINPUT, CLI_EXIT_NOMEM for BR_ENOMEM
 * (out of memory), CLI_EXIT_USAGE otherwise (BR_ESYS, BR_EUSAGE).
 */
int cli_status(int br);

/**
 * struct cli_cmd - one subcommand
 * @name:     as typed ("annotate")
 * @summary:  one line for `blockrange --help`
 * @synopsis: the "usage: blockrange NAME ..." lines (each ending in '\n')
 * @help:     the rest of `blockrange NAME --help`: what it does, every
 *            option, examples
 * @options:  its options (NULL-terminated, builtin/options.h), which
 *            cli_parse_options() reads; tests check that @help and the man
 *            page name every one
 * @operands: what it does with arguments that are not options
 * @operands_needed: NULL, or the operands it cannot go without, for
 *            "NAME needs @operands_needed"
 * @run:      runs it; argv[0] is @name, options follow.  Returns the exit
 *            status.
 */
struct cli_cmd {
	const char *name;
	const char *summary;
	const char *synopsis;
	const char *help;
	const struct cli_opt *options;
	enum cli_operands operands;
	const char *operands_needed;
	int (*run)(const struct cli_cmd *cmd, int argc, char **argv);
};

extern const struct cli_cmd cli_cmd_annotate;
extern const struct cli_cmd cli_cmd_autofdo;
extern const struct cli_cmd cli_cmd_bolt;
extern const struct cli_cmd cli_cmd_merge;
extern const struct cli_cmd cli_cmd_profile;
extern const struct cli_cmd cli_cmd_ranges;
extern const struct cli_cmd cli_cmd_record;
extern const struct cli_cmd cli_cmd_report;
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

/* `blockrange NAME --help`: synopsis and help on stdout; returns 0. */
int cli_help(const struct cli_cmd *cmd);

/*
 * `blockrange help NAME`: the manual page blockrange-NAME(1), rendered at
 * build time (builtin/manpages.h), on stdout through the pager; returns
 * the exit status.
 */
int cli_man(const struct cli_cmd *cmd);

/* A u64 in hex (0x...) or decimal, no sign, nothing after it. */
bool cli_parse_u64(const char *s, uint64_t *v);

/*
 * --color=WHEN: the index of WHEN in CLI_COLOR_WORDS (a CLI_OPT_WORD).
 * cli_color_on() says whether to colour: always, or auto and stdout is a
 * terminal and NO_COLOR is unset or empty.
 */
enum { CLI_COLOR_NEVER, CLI_COLOR_ALWAYS, CLI_COLOR_AUTO };
#define CLI_COLOR_WORDS "never", "always", "auto"
bool cli_color_on(int color);

/* "<stdin>" for "-", else @path. */
const char *cli_input_name(const char *path);

/*
 * The pager, as perf and git page long output.  cli_pager_start() runs
 * one when stdout is a terminal and @no_pager is false: the command of
 * BLOCKRANGE_PAGER, else PAGER, else "less" (through /bin/sh -c), with
 * LESS=FRX (quit if one screen, raw colour codes, keep the screen) and
 * LV=-c unless they are set (set in the environment of blockrange, which
 * the pager inherits); an empty command or "cat" means no pager.
 * stdout then goes into a pipe to it; stderr stays as it is.  Decide
 * whether to colour (cli_color_on()) before starting it: stdout is no
 * longer a terminal afterwards.  cli_pager_end() flushes and closes stdout
 * and waits for the pager (the user reads the output until they quit it);
 * it does nothing when no pager runs.  Returns false if the pager could
 * not be started (the output then goes to stdout directly).
 */
struct cli_pager {
	pid_t pid;		/* 0: none */
};

bool cli_pager_start(struct cli_pager *p, bool no_pager);
void cli_pager_end(struct cli_pager *p);

#endif /* BLOCKRANGE_CLI_CLI_H */
