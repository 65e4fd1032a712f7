// SPDX-License-Identifier: GPL-2.0
/* `blockrange merge`: profiles added up.  See output/brprof_write.h. */
#define _GNU_SOURCE

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "output/brprof_write.h"
#include "builtin/cli.h"

static const char synopsis[] =
	"usage: blockrange merge FILE.brprof... -o FILE.brprof\n";

static const char help[] =
	"Add .brprof profiles (blockrange profile) into one: every count of every DSO\n"
	"(matched by build-id, else by path) is summed, and so are the statistics.  The\n"
	"result depends only on which profiles go in, not on their order or grouping:\n"
	"merge(A, B) = merge(B, A) and merge(merge(A, B), C) = merge(A, merge(B, C)),\n"
	"byte for byte, so profiles of a fleet can be reduced in any order, in any\n"
	"number of steps, on any number of machines.  A DSO keeps the first of its\n"
	"paths in byte order; a merged profile's event is the first name in byte\n"
	"order (it notes when its inputs had several).\n"
	"\n"
	"  -o, --output FILE     the merged profile (- is stdout); it may be one of the\n"
	"                        inputs\n"
	"  -h, --help            this help\n"
	"\n"
	"Example:\n"
	"  blockrange merge host1.brprof host2.brprof -o fleet.brprof\n"
	"\n"
	"Prints 'wrote FILE (N bytes)' on stderr.\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 a malformed profile or counts\n"
	"whose sum does not fit in 64 bits.\n";

struct args {
	const char *output;
};

static const struct cli_opt opts[] = {
	{ .name = "output", .letter = 'o', .kind = CLI_OPT_STRING,
	  .off = offsetof(struct args, output), .needed = "-o FILE.brprof" },
	CLI_OPT_HELP_END,
};

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { NULL };
	struct cli_parsed p;
	char err[BR_ERR_MAX];
	size_t bytes;
	int r;

	if (cli_parse_options(cmd, argc, argv, &a, &p) != CLI_PARSE_RUN)
		return p.status;
	r = brprof_merge((const char *const *)argv + p.first,
			 (size_t)(p.end - p.first), a.output, &bytes, err,
			 sizeof(err));
	if (r)
		return cli_fail(cli_status(r), "%s", err);
	if (strcmp(a.output, "-"))
		fprintf(stderr, "blockrange: wrote %s (%zu bytes)\n", a.output,
			bytes);
	return 0;
}

const struct cli_cmd cli_cmd_merge = {
	.name = "merge",
	.summary = "add .brprof profiles into one (commutative, associative)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.operands = CLI_OPERANDS_ANY,
	.operands_needed = "at least one FILE.brprof",
	.run = run,
};
