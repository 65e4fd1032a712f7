// SPDX-License-Identifier: GPL-2.0
/*
 * blockrange: annotated hot paths from LBR branch stacks.
 *
 *   blockrange [--no-pager] [--] SUBCOMMAND [OPTIONS]
 *                                     (blockrange --help lists them)
 *   blockrange help SUBCOMMAND        its manual page
 *   blockrange --version              version
 *
 * Each subcommand lives in its own module (cmd_*.c, see cli.h).
 */
#define _GNU_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin/cli.h"
#include "base/version.h"

static const struct cli_cmd *const cmds[] = {
	&cli_cmd_annotate,
	&cli_cmd_autofdo,
	&cli_cmd_bolt,
	&cli_cmd_merge,
	&cli_cmd_profile,
	&cli_cmd_ranges,
	&cli_cmd_record,
	&cli_cmd_report,
	&cli_cmd_script,
};

#define NR_CMDS (sizeof(cmds) / sizeof(cmds[0]))

static const struct cli_cmd *find_cmd(const char *name)
{
	size_t i;

	for (i = 0; i < NR_CMDS; i++)
		if (!strcmp(cmds[i]->name, name))
			return cmds[i];
	return NULL;
}

static void overview(FILE *out)
{
	size_t i;

	fputs("usage: blockrange [--no-pager] [--] SUBCOMMAND [OPTIONS]\n"
	      "       blockrange help SUBCOMMAND\n"
	      "       blockrange --version\n"
	      "\n"
	      "Basic-block profiles from LBR branch stacks.  Subcommands:\n", out);
	for (i = 0; i < NR_CMDS; i++)
		fprintf(out, "  %-10s %s\n", cmds[i]->name, cmds[i]->summary);
	fputs("\n"
	      "  -h, --help     this overview\n"
	      "  -V, --version  print the version and exit\n"
	      "  --no-pager     never page the output (the same as BLOCKRANGE_PAGER=cat)\n"
	      "  --             end of these options: the next word is the subcommand\n"
	      "\n"
	      "Text output to a terminal goes through a pager: $BLOCKRANGE_PAGER, else $PAGER,\n"
	      "else less (with LESS=FRX unless LESS is set).\n"
	      "\n"
	      "'blockrange help SUBCOMMAND' shows its manual page, blockrange-SUBCOMMAND(1);\n"
	      "'blockrange SUBCOMMAND --help' a summary of its options.\n",
	      out);
}

static int unknown(const char *name)
{
	size_t i;

	fprintf(stderr, "blockrange: expected a subcommand ");
	for (i = 0; i < NR_CMDS; i++)
		fprintf(stderr, "%s%s", cmds[i]->name,
			i + 2 < NR_CMDS ? ", " : i + 2 == NR_CMDS ? " or " : "");
	fprintf(stderr, ", got '%s'\n", name);
	overview(stderr);
	return CLI_EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct cli_cmd *cmd;

	/* Options before the subcommand. */
	while (argc > 1 && argv[1][0] == '-') {
		if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
			overview(stdout);
			return 0;
		}
		if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
			printf("blockrange %s\n", BLOCKRANGE_VERSION);
			return 0;
		}
		if (!strcmp(argv[1], "--no-pager")) {
			/* The subcommand's cli_pager_start() reads it. */
			if (setenv("BLOCKRANGE_PAGER", "cat", 1))
				return cli_fail(CLI_EXIT_NOMEM, "out of memory");
		} else if (!strcmp(argv[1], "--")) {
			argc--;
			argv++;
			break;
		} else {
			fprintf(stderr, "blockrange: unknown option '%s'\n",
				argv[1]);
			overview(stderr);
			return CLI_EXIT_USAGE;
		}
		argc--;
		argv++;
	}
	if (argc < 2) {
		overview(stderr);
		return CLI_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "help")) {
		if (argc == 2) {
			overview(stdout);
			return 0;
		}
		cmd = find_cmd(argv[2]);
		if (!cmd || argc > 3)
			return unknown(argv[2]);
		return cli_man(cmd);
	}
	cmd = find_cmd(argv[1]);
	if (!cmd)
		return unknown(argv[1]);
	return cmd->run(cmd, argc - 1, argv + 1);
}
