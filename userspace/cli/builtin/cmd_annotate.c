// SPDX-License-Identifier: GPL-2.0
/* `blockrange annotate`: the seed's annotation.  See output/annotate.h. */
#define _GNU_SOURCE

#include <getopt.h>
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

enum {
	O_SYMBOL = CMD_OPT_NEXT,
	O_COLOR,
	O_FORMAT,
	O_SOURCE,
	O_NO_PAGER,
	O_HELP = 'h',
};

static const struct option opts[] = {
	CMD_LOOKUP_OPTIONS,
	CMD_RUN_OPTIONS,
	CMD_ENGINE_OPTION,
	{ "symbol", required_argument, NULL, O_SYMBOL },
	{ "color", required_argument, NULL, O_COLOR },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "source", no_argument, NULL, O_SOURCE },
	{ "no-pager", no_argument, NULL, O_NO_PAGER },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

struct args {
	struct cmd_common c;
	const char **symbols;
	size_t nr_symbols;
	int color;
	bool json;
	bool source;
	bool no_pager;
};

static int parse(const struct cli_cmd *cmd, int argc, char **argv,
		 struct args *a)
{
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:i:j:h", opts, NULL)) != -1) {
		r = cmd_common_opt(cmd, &a->c, c, argv);
		if (r > 0)
			return r;
		if (!r)
			continue;
		switch (c) {
		case O_SYMBOL:
			if (cmd_push(&a->symbols, &a->nr_symbols, optarg))
				return cli_fail(CLI_EXIT_USAGE, "out of memory");
			break;
		case O_COLOR:
			if (!cli_parse_color(optarg, &a->color))
				return cli_usage(cmd, "expected --color=auto|always|never, got '%s'",
						 optarg);
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "json"))
				a->json = true;
			else if (strcmp(optarg, "text"))
				return cli_usage(cmd, "expected --format=text|json, got '%s'",
						 optarg);
			break;
		case O_SOURCE:
			a->source = true;
			break;
		case O_NO_PAGER:
			a->no_pager = true;
			break;
		case O_HELP:
			cli_help(cmd);
			return CLI_HELP_SHOWN;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	return 0;
}

static int annotate(const struct args *a)
{
	struct resolver_opts so;
	struct annot_cfg cfg;
	struct annot an;
	struct annot_opts o;
	struct annot_syms syms;
	struct cli_pager pager;
	char err[BR_ERR_MAX];
	int r;

	cmd_resolver_opts(&a->c, &so);
	so.dso.source = a->source;
	cmd_annot_cfg(&a->c, ANNOT_BLOCKS, &cfg);
	r = cmd_annot_init(&a->c, &an, &so, &cfg);
	if (r)
		return r;
	r = cmd_load(&a->c, &an, a->symbols, a->nr_symbols, "annotated",
		     "annotate");
	if (r)
		goto out;
	o.json = a->json;
	o.source = a->source;
	o.color = cli_color_on(a->color);
	cli_pager_start(&pager, a->no_pager);
	r = annot_symbols(&an, a->symbols, a->nr_symbols, &syms, err,
			  sizeof(err));
	if (!r)
		r = annot_print(&an, &syms, &o, stdout, err, sizeof(err));
	annot_symbols_free(&syms);
	if (r)
		r = cli_fail(cli_status(r), "%s", err);
	else if (fflush(stdout))
		r = cli_fail(CLI_EXIT_USAGE, "cannot write the output");
	cli_pager_end(&pager);
out:
	annot_free(&an);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .color = -1 };
	int r;

	cmd_common_init(&a.c);
	r = parse(cmd, argc, argv, &a);
	if (!r)
		r = annotate(&a);
	else if (r == CLI_HELP_SHOWN)
		r = 0;
	free(a.symbols);
	cmd_common_free(&a.c);
	return r;
}

const struct cli_cmd cli_cmd_annotate = {
	.name = "annotate",
	.summary = "annotated disassembly of the hot symbols of every DSO",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
