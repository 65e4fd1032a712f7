// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange autofdo`: the LLVM sample profile of one DSO, as
 * llvm-profgen-19 writes it, for `clang -fprofile-sample-use`.  See
 * sampleprof.h and docs/autofdo.md.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "collect/annot.h"
#include "collect/csprofile.h"
#include "collect/sampleprof.h"
#include "collect/unwind.h"
#include "output/spwrite.h"
#include "output/summary.h"

static const char synopsis[] =
	"usage: blockrange autofdo [-i FILE|-] (--binary BIN | --dso NAME) [-o FILE]\n"
	"                          [--format=text|extbinary] [--debug-file FILE]\n"
	"                          [--skip-bad] [-j N] [--progress]\n";

static const char help[] =
	"Write the LLVM sample profile of one DSO (what `clang -fprofile-sample-use=FILE`\n"
	"reads), the profile llvm-profgen-19 writes for the same input and binary:\n"
	"per function its total and head samples, body samples by line offset and\n"
	"discriminator, call targets, and the functions inlined into it from DWARF.\n"
	"The DSO needs DWARF line info (clang: -g -fdebug-info-for-profiling).\n"
	"\n"
	"When the samples carry call stacks (perf record -g -b, blockrange record -g),\n"
	"the profile is context-sensitive: one profile per calling context\n"
	"(\"[main:3 @ mid:2 @ leaf]\"), as llvm-profgen-19 writes it with\n"
	"--csspgo-preinliner=false --gen-cs-nested-profile=false: contexts colder\n"
	"than the profile's hot count merged into their function's profile\n"
	"(--csprof-merge-cold-context=false keeps them); it is written as text only.\n"
	"\n"
	"  -i, --input FILE|-    perf.data, `perf script -F ip,brstack` text or a .brprof\n"
	"                        profile (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  --dso NAME            the DSO to profile (basename or recorded path); not\n"
	"                        needed when the input has samples in one DSO only\n"
	"  -o, --output FILE     write the profile to FILE (default stdout)\n"
	"  --format=FORMAT       extbinary (default, as llvm-profgen's) or text\n"
	"  --debug-file FILE     read DWARF from FILE (default: the DSO's debug file if\n"
	"                        one is found, else the DSO itself)\n"
	"  --csprof-merge-cold-context=true|false\n"
	"                        samples with call stacks: merge cold contexts (default\n"
	"                        true)\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Examples:\n"
	"  blockrange autofdo -i perf.data --binary ./app -o app.afdo\n"
	"  clang -O2 -g -fdebug-info-for-profiling -fprofile-sample-use=app.afdo app.c\n"
	"  blockrange autofdo -i fleet.brprof --dso app --format=text\n"
	"\n"
	"One line on stderr sums up the profile and names what had no line info.\n"
	"\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input, no DWARF,\n"
	"a DSO without samples or an empty profile.\n";

struct args {
	struct cmd_common c;
	const char *debug_file;
	int text;		/* --format=text 1, extbinary 0 */
	int merge_cold;		/* --csprof-merge-cold-context */
};

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct args),
	CMD_RUN_OPTIONS(struct args),
	CMD_OUTPUT_OPTION(struct args),
	CLI_WORD("format", struct args, text, "--format=text|extbinary",
		 "extbinary", "text"),
	CLI_STRING("debug-file", 0, struct args, debug_file),
	CLI_WORD("csprof-merge-cold-context", struct args, merge_cold,
		 "--csprof-merge-cold-context=true|false", "false", "true"),
	CLI_OPT_HELP_END,
};

/* "a, b, c": the DSOs the input mapped, for messages. */
static void list_dsos(const struct annot *p, FILE *f)
{
	size_t i, n = dso_count(p->s.reg), shown = 0;

	for (i = 0; i < n; i++) {
		const struct dso *d = dso_at(p->s.reg, i);

		if (d->kernel)
			continue;
		fprintf(f, "%s%s", shown++ ? ", " : "", d->short_name);
	}
	if (!shown)
		fputs("none", f);
}

static const struct dso *find_dso(const struct annot *p, const char *name)
{
	size_t i, n = dso_count(p->s.reg);

	for (i = 0; i < n; i++) {
		const struct dso *d = dso_at(p->s.reg, i);

		if (!strcmp(d->short_name, name) || !strcmp(d->path, name))
			return d;
	}
	return NULL;
}

/*
 * --binary BIN against the build-id the recording noted for its basename
 * (perf.data has them; perf script text does not): 0, or an exit status
 * after the message.
 */
static int check_build_id(struct annot *p)
{
	const struct eb_binary *b = &p->s.bin_dso->bin;
	uint8_t id[BR_BUILD_ID_MAX];
	char want[BR_BUILD_ID_HEX], have[BR_BUILD_ID_HEX];
	size_t n = dso_noted_build_id(p->s.reg, b->base_name, id);

	if (!n || (n == b->build_id_size && !memcmp(id, b->build_id, n)))
		return 0;
	br_build_id_hex(id, n, want);
	br_build_id_hex(b->build_id, b->build_id_size, have);
	return cli_fail(CLI_EXIT_INPUT,
			"autofdo: %s has build-id %s, the recording's %s has %s: pass the binary that was recorded",
			b->path, b->build_id_size ? have : "(none)",
			b->base_name, want);
}

/* The raw profile to convert, or NULL after a message (*status set). */
static const struct profile *pick(const struct args *a, struct annot *p,
				  int *status)
{
	const char *want = a->c.binary ? p->s.bin_dso->short_name :
			   a->c.dsos.nr ? a->c.dsos.v[0] : NULL;
	size_t n = annot_nr_profiles(p), i;

	*status = CLI_EXIT_INPUT;
	if (!want) {
		if (n == 1)
			return annot_profile_at(p, 0);
		if (!n) {
			summary_nothing(stderr, &p->s, "profile");
			return NULL;
		}
		fprintf(stderr, "blockrange: autofdo: the input has samples in %zu DSOs (", n);
		for (i = 0; i < n; i++)
			fprintf(stderr, "%s%s", i ? ", " : "",
				annot_profile_at(p, i)->dso->short_name);
		fputs("): pick one with --dso NAME or --binary BIN\n", stderr);
		*status = CLI_EXIT_USAGE;
		return NULL;
	}
	for (i = 0; i < n; i++) {
		const struct profile *prof = annot_profile_at(p, i);

		if (prof->samples &&
		    (prof->dso == p->s.bin_dso ||
		     !strcmp(prof->dso->short_name, want) ||
		     !strcmp(prof->dso->path, want)))
			return prof;
	}
	{
		const struct dso *d = a->c.binary ? p->s.bin_dso :
				      find_dso(p, want);

		if (d && d->state == DSO_MISMATCH) {
			fprintf(stderr, "blockrange: autofdo: %s: %s; pass the binary that was recorded (--binary, --symfs or --buildid-dir)\n",
				want, d->why ? d->why : "build-id mismatch");
			return NULL;
		}
		if (d && d->state > DSO_SYMS_ONLY) {
			fprintf(stderr, "blockrange: autofdo: %s: %s\n", want,
				d->why ? d->why : "no usable binary");
			return NULL;
		}
	}
	fprintf(stderr, "blockrange: autofdo: %s: no samples of this DSO in %s (DSOs in it: ",
		want, p->s.name);
	list_dsos(p, stderr);
	fputs(")\n", stderr);
	return NULL;
}

static int write_out(const struct args *a, const struct sp_profile *sp)
{
	FILE *f = stdout;
	char err[BR_ERR_MAX];
	int r;

	if (a->c.output) {
		f = fopen(a->c.output, "wb");
		if (!f)
			return cli_fail(CLI_EXIT_USAGE, "%s: %s", a->c.output,
					strerror(errno));
	}
	r = a->text ? sp_write_text(sp, f, err, sizeof(err)) :
		      sp_write_extbinary(sp, f, err, sizeof(err));
	/* a file is closed whatever happened; stdout is flushed */
	if ((a->c.output ? fclose(f) : fflush(f)) && !r) {
		snprintf(err, sizeof(err), "cannot write the profile: %s",
			 strerror(errno));
		r = BR_ESYS;
	}
	if (r)
		return cli_fail(CLI_EXIT_USAGE, "%s: %s",
				a->c.output ? a->c.output : "stdout", err);
	return 0;
}

/*
 * The context-sensitive profile of @prof's samples with call stacks, in
 * text: 0, or an exit status after the message.
 */
static int autofdo_cs(const struct args *a, const struct profile *prof,
		      const char *dwarf)
{
	const struct dso *d = prof->dso;
	char err[BR_ERR_MAX];
	struct csprof cs;
	struct csp_profile csp;
	FILE *f = stdout;
	int r;

	if (!a->text)
		return cli_fail(CLI_EXIT_USAGE,
				"autofdo: %s: the samples have call stacks: their context-sensitive profile is written as text only (--format=text)",
				d->short_name);
	r = csprof_build(&cs, &prof->hybrid, &d->bin, dwarf, err, sizeof(err));
	if (r)
		return cli_fail(cli_status(r), "autofdo: %s: %s", d->short_name,
				err);
	r = csp_build(&csp, &cs, &d->bin, dwarf, a->merge_cold, err,
		      sizeof(err));
	if (r) {
		csprof_free(&cs);
		return cli_fail(cli_status(r), "autofdo: %s: %s", d->short_name,
				err);
	}
	if (a->c.output && !(f = fopen(a->c.output, "w"))) {
		r = cli_fail(CLI_EXIT_USAGE, "%s: %s", a->c.output,
			     strerror(errno));
	} else {
		r = csp_write_text(&csp, f, err, sizeof(err));
		if ((a->c.output ? fclose(f) : fflush(f)) && !r) {
			snprintf(err, sizeof(err), "cannot write the profile: %s",
				 strerror(errno));
			r = BR_ESYS;
		}
		if (r)
			r = cli_fail(CLI_EXIT_USAGE, "%s: %s",
				     a->c.output ? a->c.output : "stdout", err);
	}
	fprintf(stderr, "blockrange: autofdo: %s: context-sensitive, %zu contexts from %" PRIu64 " samples with call stacks (%" PRIu64 " left out: first frame in a prologue or an epilogue)\n",
		d->short_name, cs.nr, cs.st.samples, cs.st.prologue);
	csp_free(&csp);
	csprof_free(&cs);
	return r;
}

static void summary(const struct dso *d, const struct sp_profile *sp)
{
	uint64_t total = 0, head = 0;
	size_t i;

	for (i = 0; i < sp->nr_funcs; i++) {
		total += sp->funcs[i]->total;
		head += sp->funcs[i]->head;
	}
	fprintf(stderr, "blockrange: autofdo: %s: %zu functions, %zu inlined instances, %" PRIu64 " total samples, %" PRIu64 " head samples; %zu functions without line info",
		d->short_name, sp->nr_funcs, sp_nr_inlined(sp), total, head,
		sp->st.funcs_no_line);
	if (sp->st.funcs_no_line)
		fprintf(stderr, " (%s: %" PRIu64 " samples on %" PRIu64 " instructions left out)",
			sp->st.no_line_names, sp->st.samples_no_line,
			sp->st.insns_no_line);
	fputc('\n', stderr);
}

/* What the options say together: 0, or an exit status after a message. */
static int check(const struct cli_cmd *cmd, const struct args *a)
{
	int r = cmd_dso_or_binary(cmd, &a->c);

	if (r)
		return r;
	if (a->c.dsos.nr > 1)
		return cli_usage(cmd, "autofdo writes the profile of one DSO: give one --dso");
	if (!a->text && !a->c.output && isatty(STDOUT_FILENO))
		return cli_usage(cmd, "the extbinary profile is binary: write it with -o FILE (or --format=text)");
	return 0;
}

static int autofdo(const struct cli_cmd *cmd, void *arg)
{
	const struct args *a = arg;
	struct annot p;
	const struct profile *prof;
	struct sp_profile sp;
	char err[BR_ERR_MAX];
	const char *dwarf;
	int r = check(cmd, a), status;

	if (!r)
		r = cmd_annot_open(&a->c, ANNOT_PROFGEN, &p);
	if (r)
		return r;
	r = cmd_collect(&a->c, &p);
	if (r)
		goto out;
	summary_print(stderr, &p.s, "profiled", annot_nr_profiles(&p));
	if (a->c.binary) {
		r = check_build_id(&p);
		if (r)
			goto out;
	}
	prof = pick(a, &p, &status);
	if (!prof) {
		r = status;
		goto out;
	}
	/* A .brprof names its DSOs: their files are found now. */
	if (prof->dso->state == DSO_UNLOADED)
		dso_load(p.s.reg, prof->dso);
	if (prof->dso->state != DSO_READY) {
		r = cli_fail(CLI_EXIT_INPUT, "autofdo: %s: %s",
			     prof->dso->short_name,
			     prof->dso->why ? prof->dso->why :
			     "no usable binary");
		goto out;
	}
	dwarf = a->debug_file ? a->debug_file :
		prof->dso->debug_file ? prof->dso->debug_file : prof->dso->file;
	if (p.stacks) {
		r = autofdo_cs(a, prof, dwarf);
		goto out;
	}
	r = sp_build(&sp, prof, &prof->dso->bin, dwarf, err, sizeof(err));
	if (r) {
		r = cli_fail(cli_status(r), "autofdo: %s: %s",
			     prof->dso->short_name, err);
		goto out;
	}
	summary(prof->dso, &sp);
	if (!sp.nr_funcs) {
		r = cli_fail(CLI_EXIT_INPUT,
			     "autofdo: %s: no sample has line info (%s): the profile would be empty",
			     prof->dso->short_name, dwarf);
	} else {
		r = write_out(a, &sp);
	}
	sp_free(&sp);
out:
	annot_free(&p);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .text = 0, .merge_cold = 1 };

	cmd_common_init(&a.c);
	return cmd_run(cmd, argc, argv, &a, &a.c, autofdo);
}

const struct cli_cmd cli_cmd_autofdo = {
	.name = "autofdo",
	.summary = "the LLVM sample profile of a DSO (clang -fprofile-sample-use)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
