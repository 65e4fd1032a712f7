// SPDX-License-Identifier: GPL-2.0
/* `blockrange record`: the software branch sampler.  See record.h. */
#define _GNU_SOURCE

#include <getopt.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>

#include "builtin/cli.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "record/record.h"

static const char synopsis[] =
	"usage: blockrange record [-o FILE] [--format=perfdata|perfscript] [--depth N]\n"
	"                         [--period P] [--start=entry|exec] [--counts FILE]\n"
	"                         [--script-copy FILE] [-F FIELDS] [--show-task-events]\n"
	"                         -- PROGRAM [ARGS...]\n";

static const char help[] =
	"Run PROGRAM under ptrace (every thread, fork and exec), single-step it and write\n"
	"branch stacks of its taken branches in every executable mapping, for machines\n"
	"without LBR.\n"
	"\n"
	"  -o, --output FILE   where to write (default perf.data, an existing one is kept\n"
	"                      as perf.data.old; with --format=perfscript the default is\n"
	"                      blockrange.perfscript; - is stdout: perf.data in pipe\n"
	"                      mode, and PROGRAM's stdout goes to stderr)\n"
	"  --format=perfdata   perf.data for perf 6.1 (script, annotate, report) and\n"
	"                      llvm-profgen --perfdata (the default)\n"
	"  --format=perfscript the text `perf script -F ip,brstack` prints for it, with\n"
	"                      its mmap events\n"
	"  --depth N           branches per sample (default 32; 0: every branch since the\n"
	"                      task's previous sample, a full trace with --period 1)\n"
	"  --period P          one sample every P taken branches of a task (default 1)\n"
	"  --start=entry       step each program from its ELF entry point, after the\n"
	"                      dynamic loader (the default)\n"
	"  --start=exec        step from the first instruction after exec (the loader\n"
	"                      too; slower)\n"
	"  --counts FILE       write 'PATH 0xVADDR COUNT' for every executed instruction\n"
	"                      of every mapped file\n"
	"  --script-copy FILE  also write the recording as perf-script text to FILE\n"
	"  -F, --fields LIST   fields of the text, as perf script -F: comm, pid, tid,\n"
	"                      time, ip, brstack (default ip,brstack)\n"
	"  --show-task-events  the text has COMM, FORK and EXIT lines, as perf script\n"
	"                      --show-task-events\n"
	"  -h, --help          this help\n"
	"\n"
	"Timestamps count stepped instructions (1 us each), not wall-clock time.\n"
	"\n"
	"Example:\n"
	"  blockrange record --depth 32 --period 7 -- ./sortsearch 48\n"
	"  perf script -F ip,brstack -i perf.data | head\n"
	"\n"
	"Exit status: 0 success, 1 usage error or a program that cannot be run.\n";

enum {
	O_DEPTH = 256,
	O_PERIOD,
	O_COUNTS,
	O_FORMAT,
	O_START,
	O_COPY,
	O_TASKS,
	O_HELP = 'h',
};

static const struct option opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, O_FORMAT },
	{ "depth", required_argument, NULL, O_DEPTH },
	{ "period", required_argument, NULL, O_PERIOD },
	{ "start", required_argument, NULL, O_START },
	{ "counts", required_argument, NULL, O_COUNTS },
	{ "script-copy", required_argument, NULL, O_COPY },
	{ "fields", required_argument, NULL, 'F' },
	{ "show-task-events", no_argument, NULL, O_TASKS },
	{ "help", no_argument, NULL, O_HELP },
	{ NULL, 0, NULL, 0 },
};

/*
 * The options of @argv into @o (*@depth, *@have_output: -o was given): 0
 * to go on, CLI_HELP_SHOWN after the help, or an exit status after a
 * usage message.
 */
static int parse(const struct cli_cmd *cmd, int argc, char **argv,
		 struct record_opts *o, uint64_t *depth, bool *have_output)
{
	int c;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option (PROGRAM). */
	while ((c = getopt_long(argc, argv, "+:o:F:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			*have_output = true;
			break;
		case O_FORMAT:
			if (!strcmp(optarg, "perfdata"))
				o->format = RECORD_PERFDATA;
			else if (!strcmp(optarg, "perfscript"))
				o->format = RECORD_PERFSCRIPT;
			else
				return cli_usage(cmd, "expected --format=perfdata or perfscript, got '%s'",
						 optarg);
			break;
		case O_START:
			if (!strcmp(optarg, "entry"))
				o->from_exec = false;
			else if (!strcmp(optarg, "exec"))
				o->from_exec = true;
			else
				return cli_usage(cmd, "expected --start=entry or exec, got '%s'",
						 optarg);
			break;
		case O_COUNTS:
			o->counts = optarg;
			break;
		case O_COPY:
			o->script_copy = optarg;
			break;
		case 'F':
			if (!psw_parse_fields(optarg, &o->fields))
				return cli_usage(cmd, "expected -F with some of comm,pid,tid,time,ip,brstack, got '%s'",
						 optarg);
			break;
		case O_TASKS:
			o->task_events = true;
			break;
		case O_DEPTH:
			if (!cli_parse_u64(optarg, depth) || *depth > 1u << 20)
				return cli_usage(cmd, "expected --depth N (0 = unbounded, at most 1048576), got '%s'",
						 optarg);
			break;
		case O_PERIOD:
			if (!cli_parse_u64(optarg, &o->period) || !o->period)
				return cli_usage(cmd, "expected --period P >= 1, got '%s'",
						 optarg);
			break;
		case O_HELP:
			cli_help(cmd);
			return CLI_HELP_SHOWN;
		default:
			return cli_bad_option(cmd, c, argv);
		}
	}
	if (optind >= argc)
		return cli_usage(cmd, "record needs -- PROGRAM [ARGS...]");
	return 0;
}

/* What the options say together; 0 or an exit status after a message. */
static int check(const struct cli_cmd *cmd, struct record_opts *o,
		 uint64_t depth, bool have_output)
{
	if (!have_output && o->format == RECORD_PERFSCRIPT)
		o->output = "blockrange.perfscript";
	if (o->format == RECORD_PERFDATA && depth > PDW_MAX_BRANCHES)
		return cli_usage(cmd, "expected --depth of at most %d for perf.data (a record holds no more), got '%llu'",
				 PDW_MAX_BRANCHES, (unsigned long long)depth);
	if (o->format == RECORD_PERFDATA && !depth &&
	    o->period >= PDW_MAX_BRANCHES)
		return cli_usage(cmd, "expected --period below %d with --depth 0 for perf.data (a sample holds period + 1 branches), got '%llu'",
				 PDW_MAX_BRANCHES, (unsigned long long)o->period);
	if (o->script_copy && o->format == RECORD_PERFSCRIPT &&
	    !strcmp(o->script_copy, o->output))
		return cli_usage(cmd, "--script-copy names the output itself");
	if (o->script_copy && !strcmp(o->script_copy, "-") &&
	    !strcmp(o->output, "-"))
		return cli_usage(cmd, "only one of -o and --script-copy can be stdout");
	return 0;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct record_opts o;
	struct record_stats st;
	char err[BR_ERR_MAX];
	uint64_t depth = 32;
	bool have_output = false;
	int r;

	memset(&o, 0, sizeof(o));
	o.output = "perf.data";
	o.format = RECORD_PERFDATA;
	o.fields = PSW_DEFAULT_FIELDS;
	o.period = 1;
	o.cmd_argc = argc;
	o.cmd_argv = argv;
	r = parse(cmd, argc, argv, &o, &depth, &have_output);
	if (!r)
		r = check(cmd, &o, depth, have_output);
	if (r)
		return r == CLI_HELP_SHOWN ? 0 : r;
	o.depth = (unsigned)depth;
	o.argv = argv + optind;
	if (record_run(&o, &st, err, sizeof(err))) {
		fprintf(stderr, "blockrange record: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	fprintf(stderr,
		"blockrange record: %s %s %d; %" PRIu64 " instructions executed (%" PRIu64 " steps) in %" PRIu64 " task%s, %" PRIu64 " taken branches, %" PRIu64 " samples written to %s\n",
		o.argv[0], WIFEXITED(st.status) ? "exited with status" :
		"killed by signal", WIFEXITED(st.status) ?
		WEXITSTATUS(st.status) : WTERMSIG(st.status), st.executed,
		st.steps, st.tasks, st.tasks == 1 ? "" : "s", st.taken,
		st.samples, strcmp(o.output, "-") ? o.output : "<stdout>");
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
