// SPDX-License-Identifier: GPL-2.0
/*
 * blockrange: annotated hot paths from LBR branch stacks.
 *
 *   blockrange annotate --perfscript FILE|- --binary BIN [--symbol NAME]...
 *                       [--color=auto|always|never] [--format=text|json]
 *                       [--skip-bad]
 *   blockrange ranges   --perfscript FILE|- (--binary BIN | --base ADDR)
 *                       [--base ADDR] [--use-offset=0|1] [--perf-event=EV]
 *                       [--leading-ip-only] [--skip-bad]
 *   blockrange record   [-o FILE] [--depth N] [--period P] [--counts FILE]
 *                       -- PROGRAM ARGS...
 *
 * Exit status: 0 success, 1 usage or I/O error, 2 malformed input (a
 * perf-script line or file, including one without samples, or a binary
 * whose content is unusable).  Every error is one line on stderr.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "annotate.h"
#include "elfbin.h"
#include "perfscript.h"
#include "profile.h"
#include "record.h"

#define EXIT_USAGE 1
#define EXIT_INPUT 2

static const char usage_text[] =
	"usage: blockrange annotate --perfscript FILE|- --binary BIN [--symbol NAME]...\n"
	"                           [--color=auto|always|never] [--format=text|json] [--skip-bad]\n"
	"       blockrange ranges --perfscript FILE|- (--binary BIN | --base ADDR) [--base ADDR]\n"
	"                         [--use-offset=0|1] [--perf-event=EVENT] [--leading-ip-only] [--skip-bad]\n"
	"       blockrange record [-o FILE] [--depth N] [--period P] [--counts FILE] -- PROGRAM [ARGS...]\n"
	"See userspace/cli/README.md.\n";

static int usage(const char *fmt, const char *arg)
{
	fputs("blockrange: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	fputs(usage_text, stderr);
	return EXIT_USAGE;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (!*s || *s == '-')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 0);
	return !errno && !*end;
}

static FILE *open_input(const char *path)
{
	struct stat st;
	FILE *f;

	if (!strcmp(path, "-"))
		return stdin;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "blockrange: %s: %s\n", path, strerror(errno));
		return NULL;
	}
	/* fopen() opens a directory; reading it would fail with EISDIR. */
	if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
		fprintf(stderr, "blockrange: %s: expected a perf script file, got a directory\n",
			path);
		fclose(f);
		return NULL;
	}
	return f;
}

static void close_input(FILE *f)
{
	if (f && f != stdin)
		fclose(f);
}

/*
 * Map ps_read()'s result to an exit status, printing the message.  An input
 * without a single sample line is malformed too (llvm-profgen refuses it
 * as well): empty, truncated to its header, or every sample line skipped.
 * With --skip-bad, the count of skipped lines is printed.  One line on
 * stderr either way.
 */
static int read_status(int r, const char *err, const char *name,
		       const struct ps_stats *st, bool skip_bad)
{
	if (r) {
		fprintf(stderr, "blockrange: %s\n", err);
		return r == -1 ? EXIT_INPUT : EXIT_USAGE;
	}
	if (!st->samples) {
		if (!st->lines)
			fprintf(stderr, "blockrange: %s: expected perf script sample lines, got an empty file\n",
				name);
		else if (skip_bad)
			fprintf(stderr, "blockrange: %s: expected perf script sample lines, got none in %lu line%s (%lu malformed, skipped)\n",
				name, st->lines, st->lines == 1 ? "" : "s",
				st->bad_lines);
		else
			fprintf(stderr, "blockrange: %s: expected perf script sample lines, got none in %lu line%s\n",
				name, st->lines, st->lines == 1 ? "" : "s");
		return EXIT_INPUT;
	}
	if (skip_bad)
		fprintf(stderr, "blockrange: skipped %lu malformed line%s\n",
			st->bad_lines, st->bad_lines == 1 ? "" : "s");
	return 0;
}

/*
 * Open the profiled binary for annotate and ranges, which tell code from
 * data by its function symbols: a binary without any is refused.
 */
static int open_binary(const char *path, struct eb_binary *bin)
{
	char err[PS_ERR_MAX + 256];

	int r = eb_open(path, bin, err, sizeof(err));

	if (r) {
		fprintf(stderr, "blockrange: %s\n", err);
		return r == -2 ? EXIT_INPUT : EXIT_USAGE;
	}
	if (!bin->nr_syms) {
		fprintf(stderr, "blockrange: %s: expected function symbols in its executable sections, got none (stripped?)\n",
			path);
		eb_close(bin);
		return EXIT_INPUT;
	}
	return 0;
}

enum {
	OPT_PERFSCRIPT = 256,
	OPT_BINARY,
	OPT_SYMBOL,
	OPT_COLOR,
	OPT_FORMAT,
	OPT_SKIP_BAD,
	OPT_BASE,
	OPT_USE_OFFSET,
	OPT_EVENT,
	OPT_LEADING_IP,
	OPT_DEPTH,
	OPT_PERIOD,
	OPT_COUNTS,
	OPT_HELP,
};

static const struct option long_opts[] = {
	{ "perfscript", required_argument, NULL, OPT_PERFSCRIPT },
	{ "binary", required_argument, NULL, OPT_BINARY },
	{ "symbol", required_argument, NULL, OPT_SYMBOL },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "skip-bad", no_argument, NULL, OPT_SKIP_BAD },
	{ "base", required_argument, NULL, OPT_BASE },
	{ "use-offset", required_argument, NULL, OPT_USE_OFFSET },
	{ "perf-event", required_argument, NULL, OPT_EVENT },
	{ "leading-ip-only", no_argument, NULL, OPT_LEADING_IP },
	{ "depth", required_argument, NULL, OPT_DEPTH },
	{ "period", required_argument, NULL, OPT_PERIOD },
	{ "counts", required_argument, NULL, OPT_COUNTS },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, OPT_HELP },
	{ NULL, 0, NULL, 0 },
};

struct args {
	const char *perfscript;
	const char *binary;
	const char **symbols;
	size_t nr_symbols;
	int color;		/* -1 auto, 0 never, 1 always */
	bool json;
	bool skip_bad;
	bool have_base;
	uint64_t base;
	bool no_offset;
	const char *event;
	bool leading_ip;
	const char *output;
	const char *counts;
	uint64_t depth;
	uint64_t period;
	bool help;
};

/* Which options each subcommand takes (bit = option - OPT_PERFSCRIPT). */
#define B(o) (1u << ((o) - OPT_PERFSCRIPT))
#define B_OUT (1u << 31)

static unsigned allowed(const char *cmd)
{
	if (!strcmp(cmd, "annotate"))
		return B(OPT_PERFSCRIPT) | B(OPT_BINARY) | B(OPT_SYMBOL) |
		       B(OPT_COLOR) | B(OPT_FORMAT) | B(OPT_SKIP_BAD) |
		       B(OPT_HELP);
	if (!strcmp(cmd, "ranges"))
		return B(OPT_PERFSCRIPT) | B(OPT_BINARY) | B(OPT_SKIP_BAD) |
		       B(OPT_BASE) | B(OPT_USE_OFFSET) | B(OPT_EVENT) |
		       B(OPT_LEADING_IP) | B(OPT_HELP);
	if (!strcmp(cmd, "record"))
		return B(OPT_DEPTH) | B(OPT_PERIOD) | B(OPT_COUNTS) |
		       B(OPT_HELP) | B_OUT;
	return ~0u;	/* unknown subcommand: reported later */
}

static int parse_args(const char *cmd, int argc, char **argv, struct args *a)
{
	unsigned ok = allowed(cmd);
	int c;

	memset(a, 0, sizeof(*a));
	a->color = -1;
	a->depth = 32;
	a->period = 1;
	a->output = "blockrange.perfscript";
	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option (record's PROGRAM). */
	while ((c = getopt_long(argc, argv, "+o:", long_opts, NULL)) != -1) {
		if ((c == 'o' && !(ok & B_OUT)) ||
		    (c >= OPT_PERFSCRIPT && c <= OPT_HELP && !(ok & B(c)))) {
			const struct option *lo = long_opts;

			while (lo->name && lo->val != c)
				lo++;
			fprintf(stderr, "blockrange: %s does not take option '%s%s'\n",
				cmd, c == 'o' ? "-" : "--",
				c == 'o' ? "o" : lo->name);
			fputs(usage_text, stderr);
			return EXIT_USAGE;
		}
		switch (c) {
		case OPT_PERFSCRIPT:
			a->perfscript = optarg;
			break;
		case OPT_BINARY:
			a->binary = optarg;
			break;
		case OPT_SYMBOL: {
			const char **s = realloc(a->symbols,
						 (a->nr_symbols + 1) * sizeof(*s));

			if (!s)
				return usage("%s", "out of memory");
			a->symbols = s;
			s[a->nr_symbols++] = optarg;
			break;
		}
		case OPT_COLOR:
			if (!strcmp(optarg, "auto"))
				a->color = -1;
			else if (!strcmp(optarg, "always"))
				a->color = 1;
			else if (!strcmp(optarg, "never"))
				a->color = 0;
			else
				return usage("expected --color=auto|always|never, got '%s'",
					     optarg);
			break;
		case OPT_FORMAT:
			if (!strcmp(optarg, "json"))
				a->json = true;
			else if (strcmp(optarg, "text"))
				return usage("expected --format=text|json, got '%s'",
					     optarg);
			break;
		case OPT_SKIP_BAD:
			a->skip_bad = true;
			break;
		case OPT_BASE:
			if (!parse_u64(optarg, &a->base))
				return usage("expected --base ADDR (hex 0x... or decimal), got '%s'",
					     optarg);
			a->have_base = true;
			break;
		case OPT_USE_OFFSET:
			if (!strcmp(optarg, "0"))
				a->no_offset = true;
			else if (strcmp(optarg, "1"))
				return usage("expected --use-offset=0|1, got '%s'",
					     optarg);
			break;
		case OPT_EVENT:
			a->event = optarg;
			break;
		case OPT_LEADING_IP:
			a->leading_ip = true;
			break;
		case 'o':
			a->output = optarg;
			break;
		case OPT_COUNTS:
			a->counts = optarg;
			break;
		case OPT_DEPTH:
			if (!parse_u64(optarg, &a->depth) || a->depth > 1u << 20)
				return usage("expected --depth N (0 = unbounded, at most 1048576), got '%s'",
					     optarg);
			break;
		case OPT_PERIOD:
			if (!parse_u64(optarg, &a->period) || !a->period)
				return usage("expected --period P >= 1, got '%s'",
					     optarg);
			break;
		case OPT_HELP:
			a->help = true;
			break;
		default:
			return usage("unknown or incomplete option '%s'",
				     argv[optind - 1]);
		}
	}
	return 0;
}

static int cmd_ranges(struct args *a, int argc, char **argv)
{
	struct eb_binary bin;
	struct mapper map;
	struct profile p;
	struct ps_callbacks cb;
	struct ps_stats st = { 0 };
	char err[PS_ERR_MAX + 256];
	FILE *in;
	int r;

	if (optind < argc)
		return usage("unexpected argument '%s'", argv[optind]);
	if (!a->perfscript)
		return usage("%s", "ranges needs --perfscript FILE|-");
	if (!a->binary && !a->have_base && !a->no_offset)
		return usage("%s", "ranges needs --binary BIN, or --base ADDR without a binary");
	memset(&p, 0, sizeof(p));
	if (a->binary) {
		r = open_binary(a->binary, &bin);
		if (r)
			return r;
	}
	mapper_init(&map, a->binary ? &bin : NULL);
	p.name = !strcmp(a->perfscript, "-") ? "<stdin>" : a->perfscript;
	p.bin = a->binary ? &bin : NULL;
	p.map = &map;
	p.base = a->no_offset ? 0 : a->have_base ? a->base :
		 a->binary ? bin.text_base : 0;
	p.event = a->event;
	p.leading_ip_only = a->leading_ip;
	cb.sample = profile_sample;
	cb.mmap = profile_mmap;
	cb.arg = &p;
	in = open_input(a->perfscript);
	if (!in) {
		r = EXIT_USAGE;
		goto out;
	}
	r = read_status(ps_read(in, p.name, a->skip_bad, &cb, &st, err,
				sizeof(err)), err, p.name, &st, a->skip_bad);
	close_input(in);
	if (!r) {
		if (profile_write(&p, stdout) || fflush(stdout)) {
			fprintf(stderr, "blockrange: cannot write the profile\n");
			r = EXIT_USAGE;
		}
	}
out:
	profile_free(&p);
	mapper_free(&map);
	if (a->binary)
		eb_close(&bin);
	return r;
}

static int cmd_annotate(struct args *a, int argc, char **argv)
{
	struct eb_binary bin;
	struct annot an;
	struct annot_opts o;
	struct ps_callbacks cb;
	struct ps_stats st = { 0 };
	char err[PS_ERR_MAX + 256];
	const char *name;
	FILE *in;
	size_t i;
	int r;

	if (optind < argc)
		return usage("unexpected argument '%s'", argv[optind]);
	if (!a->perfscript || !a->binary)
		return usage("%s", "annotate needs --perfscript FILE|- and --binary BIN");
	r = open_binary(a->binary, &bin);
	if (r)
		return r;
	/* An unknown --symbol is reported before the input is read. */
	for (i = 0; i < a->nr_symbols; i++) {
		if (!eb_sym_by_name(&bin, a->symbols[i])) {
			fprintf(stderr, "blockrange: expected a function symbol of %s for --symbol, got '%s'\n",
				a->binary, a->symbols[i]);
			eb_close(&bin);
			return EXIT_INPUT;
		}
	}
	name = !strcmp(a->perfscript, "-") ? "<stdin>" : a->perfscript;
	if (annot_init(&an, name, &bin, err, sizeof(err))) {
		fprintf(stderr, "blockrange: %s\n", err);
		eb_close(&bin);
		return EXIT_USAGE;
	}
	cb.sample = annot_sample;
	cb.mmap = annot_mmap;
	cb.arg = &an;
	in = open_input(a->perfscript);
	if (!in) {
		r = EXIT_USAGE;
		goto out;
	}
	r = read_status(ps_read(in, name, a->skip_bad, &cb, &st, err,
				sizeof(err)), err, name, &st, a->skip_bad);
	close_input(in);
	if (r)
		goto out;
	o.symbols = a->symbols;
	o.nr_symbols = a->nr_symbols;
	o.json = a->json;
	if (a->color < 0) {
		const char *nc = getenv("NO_COLOR");

		o.color = isatty(STDOUT_FILENO) && !(nc && *nc);
	} else {
		o.color = a->color;
	}
	if (annot_print(&an, &o, stdout, err, sizeof(err))) {
		fprintf(stderr, "blockrange: %s\n", err);
		r = EXIT_USAGE;
	} else if (fflush(stdout)) {
		fprintf(stderr, "blockrange: cannot write the output\n");
		r = EXIT_USAGE;
	}
out:
	annot_free(&an);
	eb_close(&bin);
	return r;
}

static int cmd_record(struct args *a, int argc, char **argv)
{
	struct record_opts o;
	char err[4608];

	if (optind >= argc)
		return usage("%s", "record needs -- PROGRAM [ARGS...]");
	memset(&o, 0, sizeof(o));
	o.output = a->output;
	o.counts = a->counts;
	o.depth = (unsigned)a->depth;
	o.period = a->period;
	o.argv = argv + optind;
	if (record_run(&o, err, sizeof(err))) {
		fprintf(stderr, "blockrange record: %s\n", err);
		return EXIT_USAGE;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a;
	const char *cmd;
	int r;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	cmd = argv[1];
	r = parse_args(cmd, argc - 1, argv + 1, &a);
	if (r)
		goto out;
	if (a.help) {
		fputs(usage_text, stdout);
		goto out;
	}
	if (!strcmp(cmd, "ranges"))
		r = cmd_ranges(&a, argc - 1, argv + 1);
	else if (!strcmp(cmd, "annotate"))
		r = cmd_annotate(&a, argc - 1, argv + 1);
	else if (!strcmp(cmd, "record"))
		r = cmd_record(&a, argc - 1, argv + 1);
	else
		r = usage("expected a subcommand annotate, ranges or record, got '%s'",
			  cmd);
out:
	free(a.symbols);
	return r;
}
