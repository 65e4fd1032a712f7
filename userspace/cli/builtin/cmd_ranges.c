// SPDX-License-Identifier: GPL-2.0
/* `blockrange ranges`: llvm-profgen's raw profile per DSO.  See profile.h. */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "output/ranges.h"
#include "output/summary.h"
#include "collect/annot.h"

static const char synopsis[] =
	"usage: blockrange ranges [-i FILE|-] [--dso NAME | --binary BIN] [-o DIR]\n"
	"                         [--base ADDR] [--use-offset=0|1] [--perf-event=EVENT]\n"
	"                         [--leading-ip-only] [--ignore-stack-samples]\n"
	"                         [--skip-bad] [-j N] [--progress]\n"
	"                         [--no-pager]\n";

static const char help[] =
	"Print the raw (unsymbolized) profile of the branch stacks in exactly the text of\n"
	"`llvm-profgen --format=text --skip-symbolization`: the address ranges executed\n"
	"straight through and the taken branches, with their counts, as offsets from the\n"
	"DSO's base.  Each DSO gets the profile llvm-profgen --binary=DSO would print\n"
	"(addresses in other DSOs are external to it).\n"
	"\n"
	"When the samples carry call stacks (perf record -g -b, blockrange record -g,\n"
	"perf script text with call-stack lines), the profile is context-sensitive, as\n"
	"llvm-profgen prints it for such input: the ranges and branches of each calling\n"
	"context (\"[main:3 @ mid:2 @ leaf]\", from the DSO's DWARF), unwound from the\n"
	"call stack through the branch stack.\n"
	"\n"
	"  -i, --input FILE|-    perf.data, `perf script -F ip,brstack` text or a .brprof\n"
	"                        profile (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  --dso NAME            the profile of this DSO only, on stdout\n"
	"  -o, --output DIR      one file per DSO: DIR/NAME.rawprof (needed when the\n"
	"                        profile has several DSOs and no --dso is given)\n"
	"  --base ADDR           subtract ADDR instead of the DSO's base; without --dso\n"
	"                        or --binary: every address counts as code (no binary)\n"
	"  --use-offset=0|1      0: print absolute addresses (no binary either)\n"
	"  --perf-event=EVENT    keep only the samples of EVENT\n"
	"  --leading-ip-only     count one ip-ip range per sample instead of the stack\n"
	"  --ignore-stack-samples\n"
	"                        the profile without contexts, whatever the samples carry\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  --no-pager            do not page the output on a terminal (see blockrange --help)\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Examples:\n"
	"  blockrange ranges -i perf.data --dso branches\n"
	"  blockrange ranges -i perf.data -o profiles/\n"
	"  blockrange ranges -i branches.perfscript --binary ./branches > branches.rawprof\n"
	"\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input or nothing to\n"
	"profile.\n";

/* --base ADDR */
struct base {
	bool given;
	uint64_t addr;
};

struct args {
	struct cmd_common c;	/* c.output: -o DIR */
	struct base base;
	int offset;		/* --use-offset=0 0, =1 1 */
	const char *event;
	bool leading_ip;
	bool ignore_stacks;
	bool no_pager;
};

static int parse_base(void *field, const char *value)
{
	struct base *b = field;

	if (!cli_parse_u64(value, &b->addr))
		return BR_EUSAGE;
	b->given = true;
	return 0;
}

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct args),
	CMD_RUN_OPTIONS(struct args),
	CMD_OUTPUT_OPTION(struct args),
	CLI_CALL("base", 0, struct args, base, parse_base,
		 "--base ADDR (hex 0x... or decimal)"),
	CLI_WORD("use-offset", struct args, offset, "--use-offset=0|1", "0",
		 "1"),
	CLI_STRING("perf-event", 0, struct args, event),
	CLI_FLAG("leading-ip-only", 0, struct args, leading_ip),
	CLI_FLAG("ignore-stack-samples", 0, struct args, ignore_stacks),
	CLI_FLAG("no-pager", 0, struct args, no_pager),
	CLI_OPT_HELP_END,
};

static uint64_t base_of(const struct args *a, const struct profile *prof)
{
	if (!a->offset)
		return 0;
	if (a->base.given)
		return a->base.addr;
	if (prof->has_base)
		return prof->base;
	return prof->dso ? prof->dso->bin.text_base : 0;
}

/*
 * The profile of @prof's DSO from its samples with call stacks into @out:
 * context-sensitive, or without contexts with --ignore-stack-samples.
 */
static int write_hybrid(const struct args *a, const struct profile *prof,
			uint64_t base, FILE *out, char *err, size_t errsz)
{
	const struct dso *d = prof->dso;
	const char *dwarf = d->debug_file ? d->debug_file : d->file;
	struct profile flat = { .dso = prof->dso };
	struct cs_stats st;
	struct csprof cs;
	int r;

	if (a->ignore_stacks) {
		r = csprof_flat(&flat, &st, &prof->hybrid, &d->bin, dwarf, err,
				errsz);
		if (!r)
			r = profile_write(&flat, base, out, err, errsz);
		profile_free(&flat);
		return r;
	}
	r = csprof_build(&cs, &prof->hybrid, &d->bin, dwarf, err, errsz);
	if (r)
		return r;
	r = csprof_write(&cs, base, out, err, errsz);
	csprof_free(&cs);
	return r;
}

static int write_one(const struct args *a, const struct annot *p,
		     const struct profile *prof, FILE *out, const char *path)
{
	char err[BR_ERR_MAX];
	int r = p->stacks && prof->dso ?
		write_hybrid(a, prof, base_of(a, prof), out, err,
			     sizeof(err)) :
		profile_write(prof, base_of(a, prof), out, err, sizeof(err));

	if (r && path)
		return cli_fail(cli_status(r), "%s: %s", path, err);
	return r ? cli_fail(cli_status(r), "%s", err) : 0;
}

/* -o DIR: DIR/NAME.rawprof per DSO (NAME-BUILDID when two share a name). */
static int write_dir(const struct args *a, const struct annot *p)
{
	size_t i, k, n = annot_nr_profiles(p);

	if (mkdir(a->c.output, 0777) && errno != EEXIST)
		return cli_fail(CLI_EXIT_USAGE, "%s: %s", a->c.output,
				strerror(errno));
	for (i = 0; i < n; i++) {
		const struct profile *prof = annot_profile_at(p, i);
		const struct dso *d = prof->dso;
		char hex[BR_BUILD_ID_HEX], *path;
		bool dup = false;
		FILE *f;
		int r;

		for (k = 0; k < n; k++)
			if (k != i && !strcmp(annot_profile_at(p, k)->dso->short_name,
					      d->short_name))
				dup = true;
		br_build_id_hex(d->build_id, d->build_id_size, hex);
		if (asprintf(&path, "%s/%s%s%s.rawprof", a->c.output,
			     d->short_name, dup ? "-" : "",
			     dup ? (d->build_id_size ? hex : "nobuildid") : "") < 0)
			return cli_fail(CLI_EXIT_NOMEM, "out of memory");
		f = fopen(path, "w");
		if (!f) {
			r = cli_fail(CLI_EXIT_USAGE, "%s: %s", path,
				     strerror(errno));
			free(path);
			return r;
		}
		r = write_one(a, p, prof, f, path);
		if (fclose(f) && !r)
			r = cli_fail(CLI_EXIT_USAGE, "%s: %s", path,
				     strerror(errno));
		if (!r)
			fprintf(stderr, "blockrange: wrote %s\n", path);
		free(path);
		if (r)
			return r;
	}
	return 0;
}

static int pick_output(const struct args *a, struct annot *p)
{
	const struct profile empty = { 0 };
	const struct profile *prof;
	size_t i, n = annot_nr_profiles(p);

	if (p->cfg.raw)
		return write_one(a, p, &p->raw, stdout, NULL);
	if (p->s.bin_dso) {
		prof = annot_profile_of(p, p->s.bin_dso);
		if (!prof) {
			struct profile e = empty;

			e.dso = p->s.bin_dso;
			return write_one(a, p, &e, stdout, NULL);
		}
		return write_one(a, p, prof, stdout, NULL);
	}
	if (!n) {
		summary_nothing(stderr, &p->s, "profile");
		return CLI_EXIT_INPUT;
	}
	if (a->c.output)
		return write_dir(a, p);
	if (n == 1)
		return write_one(a, p, annot_profile_at(p, 0), stdout, NULL);
	fprintf(stderr, "blockrange: the profile has %zu DSOs (", n);
	for (i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "",
			annot_profile_at(p, i)->dso->short_name);
	fputs("): pick one with --dso NAME, or write one profile per DSO with -o DIR\n",
	      stderr);
	return CLI_EXIT_USAGE;
}

static int ranges(const struct cli_cmd *cmd, void *arg)
{
	const struct args *a = arg;
	struct resolver_opts so;
	struct annot_cfg po = {
		.parts = ANNOT_PROFGEN,
		.event = a->event,
		.leading_ip_only = a->leading_ip,
		.raw = !a->c.binary && !a->c.dsos.nr &&
		       (a->base.given || !a->offset),
	};
	struct annot p;
	struct cli_pager pager = { 0 };
	int r = cmd_dso_or_binary(cmd, &a->c);

	cmd_resolver_opts(&a->c, &so);
	if (!r)
		r = cmd_annot_init(&a->c, &p, &so, &po);
	if (r)
		return r;
	r = cmd_collect(&a->c, &p);
	if (!r) {
		if (!po.raw)
			summary_print(stderr, &p.s, "profiled",
				      annot_nr_profiles(&p));
		else
			fprintf(stderr, "blockrange: %" PRIu64 " samples, %" PRIu64 " branch records: %zu ranges and %zu branches (no binary: every address counts as code)\n",
				p.s.st.samples, p.s.st.entries, p.raw.ranges.nr,
				p.raw.branches.nr);
		/* Only a profile on stdout is paged, not -o DIR's messages. */
		if (!a->c.output)
			cli_pager_start(&pager, a->no_pager);
		r = pick_output(a, &p);
		cli_pager_end(&pager);
	}
	annot_free(&p);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .offset = 1 };

	cmd_common_init(&a.c);
	return cmd_run(cmd, argc, argv, &a, &a.c, ranges);
}

const struct cli_cmd cli_cmd_ranges = {
	.name = "ranges",
	.summary = "llvm-profgen's raw profile per DSO (address ranges and branches)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
