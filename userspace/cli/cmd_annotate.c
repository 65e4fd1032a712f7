// SPDX-License-Identifier: GPL-2.0
/* `blockrange annotate`: the seed's annotated disassembly.  See annotate.h. */
#define _GNU_SOURCE

#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "cli.h"

static const char synopsis[] =
	"usage: blockrange annotate --perfscript FILE|- --binary BIN [--symbol NAME]...\n"
	"                           [--color=auto|always|never] [--format=text|json] [--skip-bad]\n";

static const char help[] =
	"Annotate the disassembly of the hot symbols, hottest first, with the basic-block\n"
	"statistics of the branch stacks: per instruction the share of sample IPs, its\n"
	"coverage as colour, '# +NN.NN%' on branch targets (entries / coverage of the next\n"
	"branch) and '# -NN.NN% (p:NN.NN%)' on branches (taken / coverage, predicted / taken).\n"
	"\n"
	"  --perfscript FILE|-   the text of `perf script -F ip,brstack` (- is stdin)\n"
	"  --binary BIN          the profiled ELF executable\n"
	"  --symbol NAME         only this symbol (repeatable)\n"
	"  --color=WHEN          auto (a terminal and NO_COLOR unset), always or never\n"
	"  --format=text|json    json: the same numbers and the raw counters\n"
	"  --skip-bad            skip malformed lines (their count goes to stderr)\n"
	"\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input.\n";

enum {
	O_PERFSCRIPT = 256,
	O_BINARY,
	O_SYMBOL,
	O_COLOR,
	O_FORMAT,
	O_SKIP_BAD,
	O_HELP,
};

static const struct option opts[] = {
	{ "perfscript", required_argument, NULL, O_PERFSCRIPT },
	{ "binary", required_argument, NULL, O_BINARY },
	{ "symbol", required_argument, NULL, O_SYMBOL },
	{ "color", required_argument, NULL, O_COLOR },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "skip-bad", no_argument, NULL, O_SKIP_BAD },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *perfscript;
	const char *binary;
	const char **symbols;
	size_t nr_symbols;
	int color;
	bool json;
	bool skip_bad;
};

static int parse(const struct cli_cmd *cmd, int argc, char **argv,
		 struct args *a)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (c) {
		case O_PERFSCRIPT:
			a->perfscript = optarg;
			break;
		case O_BINARY:
			a->binary = optarg;
			break;
		case O_SYMBOL: {
			const char **s = realloc(a->symbols,
						 (a->nr_symbols + 1) * sizeof(*s));

			if (!s)
				return cli_fail(CLI_EXIT_USAGE, "out of memory");
			a->symbols = s;
			s[a->nr_symbols++] = optarg;
			break;
		}
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
		case O_SKIP_BAD:
			a->skip_bad = true;
			break;
		case O_HELP:
			cli_help(cmd);
			return -1;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (!a->perfscript || !a->binary)
		return cli_usage(cmd, "annotate needs --perfscript FILE|- and --binary BIN");
	return 0;
}

static int annotate(const struct args *a)
{
	struct eb_binary bin;
	struct annot an;
	struct annot_opts o;
	struct ps_callbacks cb;
	struct ps_stats st = { 0 };
	char err[CLI_ERR_MAX];
	const char *name;
	FILE *in;
	size_t i;
	int r;

	r = cli_open_binary(a->binary, &bin);
	if (r)
		return r;
	/* An unknown --symbol is reported before the input is read. */
	for (i = 0; i < a->nr_symbols; i++) {
		if (!eb_sym_by_name(&bin, a->symbols[i])) {
			eb_close(&bin);
			return cli_fail(CLI_EXIT_INPUT,
					"expected a function symbol of %s for --symbol, got '%s'",
					a->binary, a->symbols[i]);
		}
	}
	name = cli_input_name(a->perfscript);
	if (annot_init(&an, name, &bin, err, sizeof(err))) {
		eb_close(&bin);
		return cli_fail(CLI_EXIT_USAGE, "%s", err);
	}
	cb.sample = annot_sample;
	cb.mmap = annot_mmap;
	cb.arg = &an;
	in = cli_open_input(a->perfscript, "a perf script file");
	if (!in) {
		r = CLI_EXIT_USAGE;
		goto out;
	}
	r = cli_read_status(ps_read(in, name, a->skip_bad, &cb, &st, err,
				    sizeof(err)), err, name, &st, a->skip_bad);
	cli_close_input(in);
	if (r)
		goto out;
	o.symbols = a->symbols;
	o.nr_symbols = a->nr_symbols;
	o.json = a->json;
	o.color = cli_color_on(a->color);
	if (annot_print(&an, &o, stdout, err, sizeof(err)))
		r = cli_fail(CLI_EXIT_USAGE, "%s", err);
	else if (fflush(stdout))
		r = cli_fail(CLI_EXIT_USAGE, "cannot write the output");
out:
	annot_free(&an);
	eb_close(&bin);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .color = -1 };
	int r = parse(cmd, argc, argv, &a);

	if (!r)
		r = annotate(&a);
	else if (r < 0)
		r = 0;
	free(a.symbols);
	return r;
}

const struct cli_cmd cli_cmd_annotate = {
	.name = "annotate",
	.summary = "annotated disassembly of the hot symbols with basic-block statistics",
	.synopsis = synopsis,
	.help = help,
	.run = run,
};
