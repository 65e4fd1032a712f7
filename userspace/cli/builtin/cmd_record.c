// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record`: the software branch recorders, QEMU's (the default,
 * qemu_rec.h) and ptrace's (record.h).
 */
#define _GNU_SOURCE

#include <getopt.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>

#include "builtin/cli.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "record/record.h"

static const char synopsis[] =
	"usage: blockrange record [--engine=qemu|ptrace] [-o FILE] [--exact]\n"
	"                         [--format=perfdata|perfscript] [--depth N]\n"
	"                         [--period P] [--jitter J] [--cpu MODEL]\n"
	"                         [--start=entry|exec] [--counts FILE]\n"
	"                         [--script-copy FILE] [-F FIELDS] [--show-task-events]\n"
	"                         -- PROGRAM [ARGS...]\n";

static const char help[] =
	"Run PROGRAM and record the taken branches of every thread and process it\n"
	"starts, in every executable mapping, for machines without LBR: as sampled\n"
	"branch stacks in perf.data (what perf record -b writes) or, with --exact, as\n"
	"a .brprof profile counting every taken branch and every straight-line range.\n"
	"\n"
	"  --engine=qemu       run PROGRAM under qemu-x86_64 (Debian's qemu-user) with\n"
	"                      blockrange's TCG plugin, a few times slower than the\n"
	"                      program itself (the default)\n"
	"  --engine=ptrace     single-step PROGRAM under ptrace, some 100,000 times\n"
	"                      slower: tiny programs only\n"
	"  -o, --output FILE   where to write (default perf.data, an existing one is kept\n"
	"                      as perf.data.old; with --format=perfscript the default is\n"
	"                      blockrange.perfscript, with --exact blockrange.brprof;\n"
	"                      - is stdout: perf.data in pipe mode, and PROGRAM's stdout\n"
	"                      goes to stderr)\n"
	"  --exact             qemu: count every taken branch and every straight-line\n"
	"                      range into a .brprof (marked exact) that annotate,\n"
	"                      report, ranges, bolt and merge read; no sampling\n"
	"  --format=perfdata   perf.data for perf 6.1 (script, annotate, report) and\n"
	"                      llvm-profgen --perfdata (the default)\n"
	"  --format=perfscript the text `perf script -F ip,brstack` prints for it, with\n"
	"                      its mmap events\n"
	"  --depth N           branches per sample (default 32; ptrace: 0 is every\n"
	"                      branch since the task's previous sample, a full trace\n"
	"                      with --period 1)\n"
	"  --period P          one sample every P taken branches of a thread (default\n"
	"                      10007 with qemu, 1 with ptrace)\n"
	"  --jitter J          qemu: vary each period by up to +-J taken branches, so\n"
	"                      that loops do not alias with it (default 0, J < P)\n"
	"  --cpu MODEL         qemu: the guest CPU model (qemu-x86_64 -cpu help; default\n"
	"                      max, every feature QEMU emulates, so that the C library\n"
	"                      picks routines close to the host's)\n"
	"  --start=entry       ptrace: step each program from its ELF entry point, after\n"
	"                      the dynamic loader (the default; qemu records from exec)\n"
	"  --start=exec        ptrace: step from the first instruction after exec (the\n"
	"                      loader too; slower)\n"
	"  --counts FILE       ptrace: write 'PATH 0xVADDR COUNT' for every executed\n"
	"                      instruction of every mapped file\n"
	"  --script-copy FILE  also write the recording as perf-script text to FILE\n"
	"  -F, --fields LIST   fields of the text, as perf script -F: comm, pid, tid,\n"
	"                      time, ip, brstack (default ip,brstack)\n"
	"  --show-task-events  the text has COMM, FORK and EXIT lines, as perf script\n"
	"                      --show-task-events\n"
	"  -h, --help          this help\n"
	"\n"
	"Timestamps: qemu, nanoseconds since the start; ptrace, stepped instructions\n"
	"(1 us each).  The summary line on stderr says what was recorded and the CPU\n"
	"model; record exits with PROGRAM's status (128 + N if signal N ended it).\n"
	"\n"
	"Examples:\n"
	"  blockrange record -- sort words.txt\n"
	"  blockrange annotate -i perf.data\n"
	"  blockrange record --exact -o sort.brprof -- sort words.txt\n"
	"  blockrange record --engine=ptrace --depth 32 --period 7 -- ./sortsearch 48\n"
	"\n"
	"Exit status: PROGRAM's; 1 usage error, a program that cannot be run or a\n"
	"recording that failed.\n";

enum {
	O_DEPTH = 256,
	O_PERIOD,
	O_COUNTS,
	O_FORMAT,
	O_START,
	O_COPY,
	O_TASKS,
	O_ENGINE,
	O_EXACT,
	O_JITTER,
	O_CPU,
	O_HELP = 'h',
};

static const struct option opts[] = {
	{ "engine", required_argument, NULL, O_ENGINE },
	{ "output", required_argument, NULL, 'o' },
	{ "exact", no_argument, NULL, O_EXACT },
	{ "jitter", required_argument, NULL, O_JITTER },
	{ "cpu", required_argument, NULL, O_CPU },
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

/* What each engine takes: an option of the other one is a usage error. */
enum {
	SEEN_START = 1u << 0,
	SEEN_COUNTS = 1u << 1,
	SEEN_JITTER = 1u << 2,
	SEEN_CPU = 1u << 3,
	SEEN_DEPTH = 1u << 4,
	SEEN_PERIOD = 1u << 5,
	SEEN_FORMAT = 1u << 6,
	SEEN_TEXT = 1u << 7,	/* --script-copy, -F, --show-task-events */
};

/* The options that pick and tune an engine. */
struct engine_opts {
	bool qemu;		/* --engine=qemu (the default) */
	bool exact;
	uint64_t jitter;
	const char *cpu;
	unsigned seen;		/* SEEN_* */
};

/*
 * The engine's own option @c into @x: 0, an exit status after a usage
 * message, or 1 if @c is none of them.
 */
static int parse_engine(const struct cli_cmd *cmd, int c,
			struct engine_opts *x)
{
	switch (c) {
	case O_ENGINE:
		if (!strcmp(optarg, "qemu"))
			x->qemu = true;
		else if (!strcmp(optarg, "ptrace"))
			x->qemu = false;
		else
			return cli_usage(cmd, "expected --engine=qemu or ptrace, got '%s'",
					 optarg);
		return 0;
	case O_EXACT:
		x->exact = true;
		return 0;
	case O_JITTER:
		x->seen |= SEEN_JITTER;
		if (!cli_parse_u64(optarg, &x->jitter))
			return cli_usage(cmd, "expected --jitter J (a number of taken branches), got '%s'",
					 optarg);
		return 0;
	case O_CPU:
		x->seen |= SEEN_CPU;
		if (!*optarg || strchr(optarg, ','))
			return cli_usage(cmd, "expected --cpu MODEL (a name from qemu-x86_64 -cpu help), got '%s'",
					 optarg);
		x->cpu = optarg;
		return 0;
	default:
		return 1;
	}
}

/* The text options of @c into @o and @x; as parse_engine(). */
static int parse_text(const struct cli_cmd *cmd, int c,
		      struct record_opts *o, struct engine_opts *x)
{
	switch (c) {
	case O_FORMAT:
		x->seen |= SEEN_FORMAT;
		if (!strcmp(optarg, "perfdata"))
			o->format = RECORD_PERFDATA;
		else if (!strcmp(optarg, "perfscript"))
			o->format = RECORD_PERFSCRIPT;
		else
			return cli_usage(cmd, "expected --format=perfdata or perfscript, got '%s'",
					 optarg);
		return 0;
	case O_COPY:
		x->seen |= SEEN_TEXT;
		o->script_copy = optarg;
		return 0;
	case 'F':
		x->seen |= SEEN_TEXT;
		if (!psw_parse_fields(optarg, &o->fields))
			return cli_usage(cmd, "expected -F with some of comm,pid,tid,time,ip,brstack, got '%s'",
					 optarg);
		return 0;
	case O_TASKS:
		x->seen |= SEEN_TEXT;
		o->task_events = true;
		return 0;
	default:
		return parse_engine(cmd, c, x);
	}
}

/*
 * The options of @argv into @o and @x (*@depth, *@have_output: -o was
 * given): 0 to go on, CLI_HELP_SHOWN after the help, or an exit status
 * after a usage message.
 */
static int parse(const struct cli_cmd *cmd, int argc, char **argv,
		 struct record_opts *o, struct engine_opts *x,
		 uint64_t *depth, bool *have_output)
{
	int c, r;

	optind = 1;
	opterr = 0;
	/* '+': stop at the first non-option (PROGRAM). */
	while ((c = getopt_long(argc, argv, "+:o:F:h", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			*have_output = true;
			break;
		case O_START:
			x->seen |= SEEN_START;
			if (!strcmp(optarg, "entry"))
				o->from_exec = false;
			else if (!strcmp(optarg, "exec"))
				o->from_exec = true;
			else
				return cli_usage(cmd, "expected --start=entry or exec, got '%s'",
						 optarg);
			break;
		case O_COUNTS:
			x->seen |= SEEN_COUNTS;
			o->counts = optarg;
			break;
		case O_DEPTH:
			x->seen |= SEEN_DEPTH;
			if (!cli_parse_u64(optarg, depth) || *depth > 1u << 20)
				return cli_usage(cmd, "expected --depth N (0 = unbounded, at most 1048576), got '%s'",
						 optarg);
			break;
		case O_PERIOD:
			x->seen |= SEEN_PERIOD;
			if (!cli_parse_u64(optarg, &o->period) || !o->period)
				return cli_usage(cmd, "expected --period P >= 1, got '%s'",
						 optarg);
			break;
		case O_HELP:
			cli_help(cmd);
			return CLI_HELP_SHOWN;
		default:
			r = parse_text(cmd, c, o, x);
			if (r == 1)
				return cli_bad_option(cmd, c, argv);
			if (r)
				return r;
		}
	}
	if (optind >= argc)
		return cli_usage(cmd, "record needs -- PROGRAM [ARGS...]");
	return 0;
}

/* What the options say together; 0 or an exit status after a message. */
static int check(const struct cli_cmd *cmd, struct record_opts *o,
		 const struct engine_opts *x, uint64_t depth, bool have_output)
{
	if (!have_output && x->exact)
		o->output = "blockrange.brprof";
	else if (!have_output && o->format == RECORD_PERFSCRIPT)
		o->output = "blockrange.perfscript";
	if (!x->qemu && (x->exact || (x->seen & (SEEN_JITTER | SEEN_CPU))))
		return cli_usage(cmd, "%s is an option of --engine=qemu",
				 x->exact ? "--exact" : x->seen & SEEN_JITTER ?
				 "--jitter" : "--cpu");
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

/* The QEMU engine's checks and run; record's exit status. */
static int run_qemu(const struct cli_cmd *cmd, const struct record_opts *ro,
		    const struct engine_opts *x, uint64_t depth)
{
	struct qrec_opts o;
	char err[BR_ERR_MAX];
	int r, status = 0;

	if (x->seen & (SEEN_START | SEEN_COUNTS))
		return cli_usage(cmd, "%s is an option of --engine=ptrace",
				 x->seen & SEEN_START ? "--start" : "--counts");
	if (x->exact && (x->seen & (SEEN_DEPTH | SEEN_PERIOD | SEEN_JITTER |
				    SEEN_FORMAT | SEEN_TEXT)))
		return cli_usage(cmd, "--exact counts every branch into a .brprof: it takes no --depth, --period, --jitter, --format, --script-copy, -F or --show-task-events");
	memset(&o, 0, sizeof(o));
	o.output = ro->output;
	o.format = ro->format;
	o.script_copy = ro->script_copy;
	o.fields = ro->fields;
	o.task_events = ro->task_events;
	o.exact = x->exact;
	o.depth = (unsigned)depth;
	o.period = x->seen & SEEN_PERIOD ? ro->period : QREC_DEFAULT_PERIOD;
	o.jitter = x->jitter;
	o.cpu = x->cpu;
	o.argv = ro->argv;
	o.cmd_argc = ro->cmd_argc;
	o.cmd_argv = ro->cmd_argv;
	if (!depth)
		return cli_usage(cmd, "expected --depth of at least 1 with --engine=qemu (ptrace's --depth 0 is a full trace: use --exact)");
	if (x->jitter >= o.period)
		return cli_usage(cmd, "expected --jitter below the period (%llu), got '%llu'",
				 (unsigned long long)o.period,
				 (unsigned long long)x->jitter);
	r = qrec_record(&o, &status, err, sizeof(err));
	if (r) {
		fprintf(stderr, "blockrange record: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	return status;
}

/* The ptrace engine's run and summary line; record's exit status. */
static int run_ptrace(struct record_opts *o)
{
	struct record_stats st;
	char err[BR_ERR_MAX];

	if (record_run(o, &st, err, sizeof(err))) {
		fprintf(stderr, "blockrange record: %s\n", err);
		return CLI_EXIT_USAGE;
	}
	fprintf(stderr,
		"blockrange record: %s %s %d; %" PRIu64 " instructions executed (%" PRIu64 " steps) in %" PRIu64 " task%s, %" PRIu64 " taken branches, %" PRIu64 " samples written to %s\n",
		o->argv[0], WIFEXITED(st.status) ? "exited with status" :
		"killed by signal", WIFEXITED(st.status) ?
		WEXITSTATUS(st.status) : WTERMSIG(st.status), st.executed,
		st.steps, st.tasks, st.tasks == 1 ? "" : "s", st.taken,
		st.samples, strcmp(o->output, "-") ? o->output : "<stdout>");
	return 0;
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct record_opts o;
	struct engine_opts x = { .qemu = true };
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
	r = parse(cmd, argc, argv, &o, &x, &depth, &have_output);
	if (!r)
		r = check(cmd, &o, &x, depth, have_output);
	if (r)
		return r == CLI_HELP_SHOWN ? 0 : r;
	o.depth = (unsigned)depth;
	o.argv = argv + optind;
	if (x.qemu)
		return run_qemu(cmd, &o, &x, depth);
	return run_ptrace(&o);
}

const struct cli_cmd cli_cmd_record = {
	.name = "record",
	.summary = "record branch stacks in software (QEMU, or ptrace single-stepping)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
