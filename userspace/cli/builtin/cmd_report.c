// SPDX-License-Identifier: GPL-2.0
/* `blockrange report`: the HTML report.  See report.h. */
#define _GNU_SOURCE

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output/annotate.h"
#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "output/report.h"

static const char synopsis[] =
	"usage: blockrange report [-i FILE|-] [-o FILE.html] [--dso NAME]... [--symbol NAME]...\n"
	"                         [--max-symbols N] [--max-blocks N] [--symfs DIR]\n"
	"                         [--vmlinux FILE | --kallsyms FILE] [--binary BIN] [--skip-bad]\n"
	"                         [-j N] [--engine=batch|tree] [--progress]\n";

static const char help[] =
	"Write one self-contained HTML page (no network access, no other file: it opens\n"
	"from disk) with an overview of the DSOs and hot symbols (samples, blocks, taken\n"
	"branches, mispredict rates; sortable tables) and, per hot symbol, its\n"
	"control-flow graph beside its annotated disassembly.  The graph's nodes are the\n"
	"basic blocks of the disassembly, coloured by coverage like annotate's addresses\n"
	"(red above 75 % of the symbol's highest coverage, magenta from 1 %, grey below;\n"
	"dashed: never executed); its edges are the taken branches of the branch records\n"
	"(count, share mispredicted; calls and returns to other symbols go to small\n"
	"external nodes) and the fall-throughs (count from the coverage), with widths\n"
	"following their counts.  Graphviz (dot) lays the graphs out.  Clicking a block\n"
	"scrolls the disassembly to it.  The numbers are annotate's; all of them are also\n"
	"in a JSON document inside the page (script#blockrange-data).\n"
	"\n"
	"  -i, --input FILE|-    perf.data (file or pipe mode), the text of\n"
	"                        `perf script -F ip,brstack` or a .brprof profile\n"
	"                        (default perf.data; - is stdin)\n"
	"  --perfscript FILE|-   the same as --input\n"
	"  -o, --output FILE     the page (default report.html; - is stdout)\n"
	"  --dso NAME            only this DSO (basename or recorded path; repeatable)\n"
	"  --symbol NAME         only this symbol (repeatable)\n"
	"  --max-symbols N       show at most N symbols, the hottest (default 25)\n"
	"  --max-blocks N        draw at most N blocks per graph, the hottest (default\n"
	"                        150); the disassembly still lists every instruction\n"
	"  --skip-bad            perf script text: skip malformed lines\n"
	"  -h, --help            this help\n"
	CMD_RUN_HELP
	CMD_ENGINE_HELP
	CMD_LOOKUP_HELP
	"\n"
	"Examples:\n"
	"  blockrange report -i perf.data -o report.html\n"
	"  blockrange report -i sort.perfscript --binary ./sortsearch --max-symbols 5\n"
	"\n"
	"One summary line on stderr says what was counted, then 'wrote FILE (N bytes)'.\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input or nothing to\n"
	"report.\n";

struct args {
	struct cmd_common c;
	uint64_t max_symbols;
	uint64_t max_blocks;
};

static const struct cli_opt opts[] = {
	CMD_LOOKUP_OPTIONS(struct args),
	CMD_RUN_OPTIONS(struct args),
	CMD_ENGINE_OPTION(struct args),
	CMD_OUTPUT_OPTION(struct args),
	CLI_CALL("symbol", 0, struct args, c.symbols, cli_strings_add, NULL),
	CLI_U64("max-symbols", 0, struct args, max_symbols, 1, 1000000,
		"--max-symbols N (1 to 1000000)"),
	CLI_U64("max-blocks", 0, struct args, max_blocks, 1, 1000000,
		"--max-blocks N (1 to 1000000)"),
	CLI_OPT_HELP_END,
};

static int report(const struct cli_cmd *cmd, void *arg)
{
	const struct args *a = arg;
	struct report_opts ro;
	struct annot_syms syms;
	struct annot an;
	char err[BR_ERR_MAX];
	bool to_stdout = !strcmp(a->c.output, "-");
	FILE *out = NULL;
	struct stat st;
	bool regular;
	long size;
	int r = cmd_load(&a->c, ANNOT_BLOCKS, &an, "reported", "report");

	(void)cmd;
	if (r)
		return r;
	out = to_stdout ? stdout : fopen(a->c.output, "w");
	if (!out) {
		r = cli_fail(CLI_EXIT_USAGE, "%s: %s", a->c.output,
			     strerror(errno));
		goto out;
	}
	/* a failed report is removed, unless -o named a device or a FIFO */
	regular = !to_stdout && !fstat(fileno(out), &st) && S_ISREG(st.st_mode);
	memset(&ro, 0, sizeof(ro));
	ro.input = cli_input_name(a->c.input);
	ro.max_symbols = (size_t)a->max_symbols;
	ro.max_blocks = (size_t)a->max_blocks;
	r = annot_symbols(&an, a->c.symbols.v,
			  a->c.symbols.nr, &syms, err, sizeof(err));
	if (!r)
		r = report_write(&an, &syms, &ro, out, err, sizeof(err));
	annot_symbols_free(&syms);
	if (r) {
		r = cli_fail(cli_status(r), "%s", err);
	} else if (fflush(out) || ferror(out)) {
		r = cli_fail(CLI_EXIT_USAGE, "%s: cannot write the report",
			     a->c.output);
	}
	size = to_stdout ? -1 : ftell(out);
	if (!to_stdout && fclose(out) && !r)
		r = cli_fail(CLI_EXIT_USAGE, "%s: %s", a->c.output,
			     strerror(errno));
	if (r && regular)
		unlink(a->c.output);
	else if (!to_stdout && !r)
		fprintf(stderr, "blockrange: wrote %s (%ld bytes)\n", a->c.output,
			size);
out:
	annot_free(&an);
	return r;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = {
		.max_symbols = REPORT_MAX_SYMBOLS,
		.max_blocks = REPORT_MAX_BLOCKS,
	};

	cmd_common_init(&a.c);
	a.c.output = "report.html";
	return cmd_run(cmd, argc, argv, &a, &a.c, report);
}

const struct cli_cmd cli_cmd_report = {
	.name = "report",
	.summary = "an HTML page: control-flow graphs and annotated disassembly",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
