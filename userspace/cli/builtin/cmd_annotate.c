// SPDX-License-Identifier: GPL-2.0
/* `blockrange annotate`: the seed's annotation.  See output/annotate.h. */
#define _GNU_SOURCE

#include <stdlib.h>
#include <string.h>

#include "output/annotate.h"
#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "input/input.h"

static const char synopsis[] =
	"usage: blockrange annotate [-i FILE|-] [--dso NAME]... [--symbol NAME]... [--source]\n"
	"                           [--symfs DIR] [--vmlinux FILE | --kallsyms FILE] [--binary BIN]\n"
	"                           [--color=auto|always|never] [--format=text|json] [--skip-bad]\n"
	"                           [-j N] [--engine=batch|tree] [--progress] [--no-pager]\n";

static const char help[] =
	"Annotate the disassembly of the hot symbols of every DSO (executables, shared\n"
	"libraries, the kernel), hottest first, with the basic-block statistics of the\n"
	"branch stacks: per instruction the share of sample IPs, its coverage as colour,\n"
	"'# +NN.NN%' on branch targets (entries / coverage of the next branch) and\n"
	"'# -NN.NN% (p:NN.NN%)' on branches (taken / coverage, predicted / taken).\n"
	"\n"
	"  -i, --input FILE|-    perf.data (file or pipe mode), the text of\n"
	"                        `perf script -F ip,brstack` or a .brprof profile\n"
	"                        (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  --dso NAME            only this DSO (basename or recorded path; repeatable)\n"
	"  --symbol NAME         only this symbol (repeatable)\n"
	"  --source              interleave file:line and the source line (DWARF)\n"
	"  --color=WHEN          auto (a terminal and NO_COLOR unset), always or never\n"
	"  --format=text|json    json: the same numbers and the raw counters\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  --no-pager            do not page the output on a terminal (see blockrange --help)\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_ENGINE_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Examples:\n"
	"  blockrange annotate -i perf.data\n"
	"  blockrange annotate -i branches.perfscript --binary ./branches --symbol branches\n"
	"  blockrange annotate -i perf.data --format=json > profile.json\n"
	"  blockrange annotate -i fleet.brprof --dso app -j 8\n"
	"\n"
	"One summary line on stderr says what was counted and why blocks were skipped.\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input or nothing to\n"
	"annotate (the message says why and what to pass or install).\n";

struct args {
	struct cmd_common c;
	int color;		/* CLI_COLOR_* */
	int json;		/* --format=json 1, text 0 */
	bool no_pager;
};

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct args),
	CMD_RUN_OPTIONS(struct args),
	CMD_ENGINE_OPTION(struct args),
	CLI_CALL("symbol", 0, struct args, c.symbols, cli_strings_add, NULL),
	CLI_WORD("color", struct args, color, "--color=auto|always|never",
		 CLI_COLOR_WORDS),
	CLI_WORD("format", struct args, json, "--format=text|json", "text",
		 "json"),
	CLI_FLAG("source", 0, struct args, c.source),
	CLI_FLAG("no-pager", 0, struct args, no_pager),
	CLI_OPT_HELP_END,
};

static int annotate(const struct cli_cmd *cmd, void *arg)
{
	const struct args *a = arg;
	struct annot an;
	struct annot_opts o;
	struct annot_syms syms;
	struct cli_pager pager;
	char err[BR_ERR_MAX];
	int r = cmd_load(&a->c, ANNOT_BLOCKS, &an, "annotated", "annotate");

	(void)cmd;
	if (r)
		return r;
	o.json = a->json;
	o.source = a->c.source;
	o.color = cli_color_on(a->color);
	cli_pager_start(&pager, a->no_pager);
	r = annot_symbols(&an, a->c.symbols.v,
			  a->c.symbols.nr, &syms, err, sizeof(err));
	if (!r)
		r = annot_print(&an, &syms, &o, stdout, err, sizeof(err));
	annot_symbols_free(&syms);
	if (r)
		r = cli_fail(cli_status(r), "%s", err);
	else if (fflush(stdout))
		r = cli_fail(CLI_EXIT_USAGE, "cannot write the output");
	cli_pager_end(&pager);
	annot_free(&an);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .color = CLI_COLOR_AUTO };

	cmd_common_init(&a.c);
	return cmd_run(cmd, argc, argv, &a, &a.c, annotate);
}

const struct cli_cmd cli_cmd_annotate = {
	.name = "annotate",
	.summary = "annotated disassembly of the hot symbols of every DSO",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
