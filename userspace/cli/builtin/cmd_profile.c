// SPDX-License-Identifier: GPL-2.0
/* `blockrange profile`: a mergeable .brprof.  See output/brprof_write.h. */
#define _GNU_SOURCE

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "collect/annot.h"
#include "output/brprof_write.h"
#include "builtin/cli.h"
#include "builtin/cmd_common.h"

static const char synopsis[] =
	"usage: blockrange profile [-i FILE|-] -o FILE.brprof [-j N] [--dso NAME]...\n"
	"                          [--symfs DIR] [--vmlinux FILE | --kallsyms FILE]\n"
	"                          [--binary BIN] [--skip-bad] [--progress]\n";

static const char help[] =
	"Aggregate the branch stacks of an input into a profile that later commands\n"
	"read instead of the input, and that adds up with other profiles (blockrange\n"
	"merge): per DSO (by build-id and path) its distinct blocks with their counts,\n"
	"sample IPs, taken branches with mispredicted counts, llvm-profgen's raw ranges\n"
	"and branches, BOLT's branches and traces, plus the summary statistics and the\n"
	"event.  annotate, report, ranges and bolt take a .brprof as -i and print what\n"
	"they print for the input itself.  Binaries are looked up as annotate does\n"
	"(addresses are stored as ELF addresses of each DSO).\n"
	"\n"
	"  -i, --input FILE|-    perf.data (file or pipe mode) or the text of\n"
	"                        `perf script -F ip,brstack` (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  -o, --output FILE     the profile (- is stdout)\n"
	"  --dso NAME            only this DSO (basename or recorded path; repeatable)\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Example:\n"
	"  blockrange profile -i perf.data -o host1.brprof\n"
	"\n"
	"One summary line on stderr says what was counted, then 'wrote FILE (N bytes)'.\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input or nothing to\n"
	"profile.\n";

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct cmd_args),
	CMD_RUN_OPTIONS(struct cmd_args),
	{ .name = "output", .letter = 'o', .kind = CLI_OPT_STRING,
	  .off = offsetof(struct cmd_args, c.output),
	  .needed = "-o FILE.brprof" },
	CLI_OPT_HELP_END,
};

/* The batch engine always: profile takes no --engine. */
static int profile(const struct cli_cmd *cmd, void *arg)
{
	const struct cmd_common *c = &((struct cmd_args *)arg)->c;
	const char *output = c->output;
	char err[BR_ERR_MAX];
	struct annot an;
	size_t bytes = 0;
	int r = cmd_load(c, ANNOT_BLOCKS | ANNOT_PROFGEN | ANNOT_BOLT, &an,
			 "profiled", "profile");

	(void)cmd;
	if (r)
		return r;
	r = brprof_write(&an, output, &bytes, err, sizeof(err));
	if (r)
		r = cli_fail(CLI_EXIT_USAGE, "%s", err);
	else if (strcmp(output, "-"))
		fprintf(stderr, "blockrange: wrote %s (%zu bytes)\n", output,
			bytes);
	annot_free(&an);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct cmd_args a;

	cmd_common_init(&a.c);
	return cmd_run(cmd, argc, argv, &a, &a.c, profile);
}

const struct cli_cmd cli_cmd_profile = {
	.name = "profile",
	.summary = "a mergeable .brprof profile of an input (per-DSO counts)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
