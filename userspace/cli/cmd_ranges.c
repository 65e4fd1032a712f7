// SPDX-License-Identifier: GPL-2.0
/* `blockrange ranges`: llvm-profgen's raw profile.  See profile.h. */
#define _GNU_SOURCE

#include <getopt.h>
#include <string.h>

#include "cli.h"
#include "mapper.h"
#include "profile.h"

static const char synopsis[] =
	"usage: blockrange ranges --perfscript FILE|- (--binary BIN | --base ADDR) [--base ADDR]\n"
	"                         [--use-offset=0|1] [--perf-event=EVENT] [--leading-ip-only] [--skip-bad]\n";

static const char help[] =
	"Print the raw (unsymbolized) profile of the branch stacks in exactly the text of\n"
	"`llvm-profgen --format=text --skip-symbolization`: the address ranges executed\n"
	"straight through and the taken branches, with their counts, as offsets from the\n"
	"binary's base.\n"
	"\n"
	"  --perfscript FILE|-   the text of `perf script -F ip,brstack` (- is stdin)\n"
	"  --binary BIN          the profiled ELF executable: tells code from other bytes\n"
	"  --base ADDR           subtract ADDR instead of the binary's base (without a\n"
	"                        binary every address counts as code)\n"
	"  --use-offset=0|1      0: print absolute addresses\n"
	"  --perf-event=EVENT    keep only the samples of EVENT\n"
	"  --leading-ip-only     count one ip-ip range per sample instead of the stack\n"
	"  --skip-bad            skip malformed lines (their count goes to stderr)\n"
	"\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input.\n";

enum {
	O_PERFSCRIPT = 256,
	O_BINARY,
	O_BASE,
	O_USE_OFFSET,
	O_EVENT,
	O_LEADING_IP,
	O_SKIP_BAD,
	O_HELP,
};

static const struct option opts[] = {
	{ "perfscript", required_argument, NULL, O_PERFSCRIPT },
	{ "binary", required_argument, NULL, O_BINARY },
	{ "base", required_argument, NULL, O_BASE },
	{ "use-offset", required_argument, NULL, O_USE_OFFSET },
	{ "perf-event", required_argument, NULL, O_EVENT },
	{ "leading-ip-only", no_argument, NULL, O_LEADING_IP },
	{ "skip-bad", no_argument, NULL, O_SKIP_BAD },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	const char *perfscript = NULL, *binary = NULL, *event = NULL;
	bool have_base = false, no_offset = false, leading_ip = false;
	bool skip_bad = false;
	uint64_t base = 0;
	struct eb_binary bin;
	struct mapper map;
	struct profile p;
	struct ps_callbacks cb;
	struct ps_stats st = { 0 };
	char err[CLI_ERR_MAX];
	FILE *in;
	int c, r;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:", opts, NULL)) != -1) {
		switch (c) {
		case O_PERFSCRIPT:
			perfscript = optarg;
			break;
		case O_BINARY:
			binary = optarg;
			break;
		case O_BASE:
			if (!cli_parse_u64(optarg, &base))
				return cli_usage(cmd, "expected --base ADDR (hex 0x... or decimal), got '%s'",
						 optarg);
			have_base = true;
			break;
		case O_USE_OFFSET:
			if (!strcmp(optarg, "0"))
				no_offset = true;
			else if (strcmp(optarg, "1"))
				return cli_usage(cmd, "expected --use-offset=0|1, got '%s'",
						 optarg);
			break;
		case O_EVENT:
			event = optarg;
			break;
		case O_LEADING_IP:
			leading_ip = true;
			break;
		case O_SKIP_BAD:
			skip_bad = true;
			break;
		case O_HELP:
			return cli_help(cmd);
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[optind]);
	if (!perfscript)
		return cli_usage(cmd, "ranges needs --perfscript FILE|-");
	if (!binary && !have_base && !no_offset)
		return cli_usage(cmd, "ranges needs --binary BIN, or --base ADDR without a binary");
	memset(&p, 0, sizeof(p));
	if (binary) {
		r = cli_open_binary(binary, &bin);
		if (r)
			return r;
	}
	mapper_init(&map, binary ? &bin : NULL);
	p.name = cli_input_name(perfscript);
	p.bin = binary ? &bin : NULL;
	p.map = &map;
	p.base = no_offset ? 0 : have_base ? base : binary ? bin.text_base : 0;
	p.event = event;
	p.leading_ip_only = leading_ip;
	cb.sample = profile_sample;
	cb.mmap = profile_mmap;
	cb.arg = &p;
	in = cli_open_input(perfscript, "a perf script file");
	if (!in) {
		r = CLI_EXIT_USAGE;
		goto out;
	}
	r = cli_read_status(ps_read(in, p.name, skip_bad, &cb, &st, err,
				    sizeof(err)), err, p.name, &st, skip_bad);
	cli_close_input(in);
	if (!r && (profile_write(&p, stdout) || fflush(stdout)))
		r = cli_fail(CLI_EXIT_USAGE, "cannot write the profile");
out:
	profile_free(&p);
	mapper_free(&map);
	if (binary)
		eb_close(&bin);
	return r;
}

const struct cli_cmd cli_cmd_ranges = {
	.name = "ranges",
	.summary = "llvm-profgen's raw profile (address ranges and branches with counts)",
	.synopsis = synopsis,
	.help = help,
	.run = run,
};
