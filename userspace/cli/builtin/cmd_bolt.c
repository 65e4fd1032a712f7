// SPDX-License-Identifier: GPL-2.0
/* `blockrange bolt`: BOLT's pre-aggregated profile of one DSO.  See bolt.h. */
#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "collect/annot.h"
#include "output/bolt.h"
#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "output/summary.h"

static const char synopsis[] =
	"usage: blockrange bolt [-i FILE|-] [--dso NAME | --binary BIN] [-o FILE] [-j N]\n"
	"                       [--symfs DIR] [--skip-bad] [--progress]\n";

static const char help[] =
	"Write BOLT's pre-aggregated profile of one DSO, the input of\n"
	"`perf2bolt -pa`: one line per taken branch ('B FROM TO COUNT MISPREDICTED',\n"
	"an end outside the DSO written as 0) and per fall-through trace between two\n"
	"consecutive branch records ('F START END COUNT' when the branch into START\n"
	"came from the same function, 'f START END COUNT' otherwise), addresses in hex\n"
	"in the DSO's ELF layout.  perf2bolt -pa turns it into the same .fdata as\n"
	"perf2bolt -p on the recording, without running perf, in a fraction of the\n"
	"time and memory; it also reads a .brprof (blockrange profile, merge).\n"
	"\n"
	"  -i, --input FILE|-    perf.data, `perf script -F ip,brstack` text or a\n"
	"                        .brprof (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  --dso NAME            the DSO (basename or recorded path); needed when the\n"
	"                        profile has several\n"
	"  -o, --output FILE     the profile (default: stdout)\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Example:\n"
	"  blockrange bolt -i perf.data --dso app -o app.preagg &&\n"
	"    perf2bolt -pa -p app.preagg -o app.fdata ./app\n"
	"\n"
	"One summary line on stderr says what was counted.\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input or nothing to\n"
	"export.\n";

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct cmd_args),
	CMD_RUN_OPTIONS(struct cmd_args),
	CMD_OUTPUT_OPTION(struct cmd_args),
	CLI_OPT_HELP_END,
};

static int export(const struct cli_cmd *cmd, void *arg)
{
	const struct cmd_common *c = &((struct cmd_args *)arg)->c;
	const char *output = c->output;
	const struct annot_dso *pick = NULL;
	char err[BR_ERR_MAX];
	struct annot an;
	size_t i, n = 0;
	FILE *out;
	int r;

	r = cmd_dso_or_binary(cmd, c);
	if (!r)
		r = cmd_annot_open(c, ANNOT_BOLT, &an);
	if (r)
		return r;
	r = cmd_collect(c, &an);
	if (r)
		goto out;
	for (i = 0; i < an.nr_per; i++) {
		if (an.per[i] && an.per[i]->has_bolt) {
			n++;
			if (!pick || an.per[i]->dso == an.s.bin_dso)
				pick = an.per[i];
		}
	}
	summary_print(stderr, &an.s, "exported", pick ? 1 : 0);
	if (!n) {
		summary_nothing(stderr, &an.s, "export");
		r = CLI_EXIT_INPUT;
		goto out;
	}
	if (n > 1 && !an.s.bin_dso && c->dsos.nr != 1) {
		fprintf(stderr, "blockrange: the profile has %zu DSOs (", n);
		for (i = 0, n = 0; i < an.nr_per; i++)
			if (an.per[i] && an.per[i]->has_bolt)
				fprintf(stderr, "%s%s", n++ ? ", " : "",
					an.per[i]->dso->short_name);
		fputs("): pick one with --dso NAME\n", stderr);
		r = CLI_EXIT_USAGE;
		goto out;
	}
	out = output ? fopen(output, "w") : stdout;
	if (!out) {
		r = cli_fail(CLI_EXIT_USAGE, "%s: %s", output, strerror(errno));
		goto out;
	}
	r = bolt_write(&pick->bolt, out, output ? output : "<stdout>", err,
		       sizeof(err));
	if (r)
		r = cli_fail(cli_status(r), "%s", err);
	if (output && fclose(out) && !r)
		r = cli_fail(CLI_EXIT_USAGE, "%s: %s", output, strerror(errno));
out:
	annot_free(&an);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct cmd_args a;

	cmd_common_init(&a.c);
	return cmd_run(cmd, argc, argv, &a, &a.c, export);
}

const struct cli_cmd cli_cmd_bolt = {
	.name = "bolt",
	.summary = "BOLT's pre-aggregated profile of a DSO (perf2bolt -pa input)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
