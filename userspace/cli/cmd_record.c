// SPDX-License-Identifier: GPL-2.0
/* `blockrange record`: the software branch sampler.  See record.h. */
#define _GNU_SOURCE

#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "record.h"

static const char synopsis[] =
	"usage: blockrange record [-o FILE] [--depth N] [--period P] [--counts FILE] -- PROGRAM [ARGS...]\n";

static const char help[] =
	"Run PROGRAM under ptrace, single-step it and write branch stacks of its taken\n"
	"branches, for machines without LBR.\n"
	"\n"
	"  -o, --output FILE   where to write (default blockrange.perfscript; - is stdout)\n"
	"  --depth N           branches per sample (default 32; 0: every branch since the\n"
	"                      previous sample, a full trace with --period 1)\n"
	"  --period P          one sample every P taken branches (default 1)\n"
	"  --counts FILE       write 'VADDR COUNT' for every executed instruction\n"
	"  -h, --help          this help\n"
	"\n"
	"Example:\n"
	"  blockrange record -o sort.perfscript --depth 32 --period 7 -- ./sortsearch 48\n"
	"\n"
	"Exit status: 0 success, 1 usage error or a program that cannot be run.\n";

enum {
	O_DEPTH = 256,
	O_PERIOD,
	O_COUNTS,
	O_HELP = 'h',
};

static const struct option opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "depth", required_argument, NULL, O_DEPTH },
	{ "period", required_argument, NULL, O_PERIOD },
	{ "counts", required_argument, NULL, O_COUNTS },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct record_opts o;
	char err[CLI_ERR_MAX];
	uint64_t depth = 32;
	int c;

	memset(&o, 0, sizeof(o));
	o.output = "blockrange.perfscript";
	o.period = 1;
	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option (PROGRAM). */
	while ((c = getopt_long(argc, argv, "+:o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.output = optarg;
			break;
		case O_COUNTS:
			o.counts = optarg;
			break;
		case O_DEPTH:
			if (!cli_parse_u64(optarg, &depth) || depth > 1u << 20)
				return cli_usage(cmd, "expected --depth N (0 = unbounded, at most 1048576), got '%s'",
						 optarg);
			break;
		case O_PERIOD:
			if (!cli_parse_u64(optarg, &o.period) || !o.period)
				return cli_usage(cmd, "expected --period P >= 1, got '%s'",
						 optarg);
			break;
		case O_HELP:
			return cli_help(cmd);
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage(cmd, "record needs -- PROGRAM [ARGS...]");
	o.depth = (unsigned)depth;
	o.argv = argv + optind;
	if (record_run(&o, err, sizeof(err))) {
		fprintf(stderr, "blockrange record: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	return 0;
}

const struct cli_cmd cli_cmd_record = {
	.name = "record",
	.summary = "record branch stacks in software (ptrace single-stepping)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
