// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record`: the software branch recorders, QEMU's (the default,
 * qemu_rec.h) and ptrace's (record.h).
 */
#define _GNU_SOURCE

#include <stddef.h>
#include <inttypes.h>
#include <string.h>
#include <sys/wait.h>

#include "builtin/cli.h"
#include "output/perfdata_write.h"
#include "output/pswrite.h"
#include "record/qemu_rec.h"
#include "record/record.h"

static const char synopsis[] =
	"usage: blockrange record [--engine=qemu|ptrace] [-o FILE] [--exact] [-g]\n"
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
	"  -g, --call-graph    qemu: every sample also carries the thread's call stack\n"
	"                      (the calls not returned from, kept exactly by the\n"
	"                      plugin, no frame pointers needed), as perf record -g\n"
	"                      writes user call chains: perf script shows them,\n"
	"                      llvm-profgen reads them as hybrid samples (a\n"
	"                      context-sensitive profile); --depth at most 2048\n"
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
	SEEN_OUTPUT = 1u << 8,
};

/* The options: the recorder's, and those that pick and tune an engine. */
struct args {
	struct record_opts o;
	int qemu;		/* --engine=qemu 1 (the default), ptrace 0 */
	int format;		/* --format=perfscript 1, perfdata 0 */
	int from_exec;		/* --start=exec 1, entry 0 */
	bool exact;
	bool call_graph;	/* -g */
	uint64_t jitter;
	const char *cpu;
	uint64_t depth;
	unsigned seen;		/* SEEN_* */
};

/* --cpu MODEL: a name, no list. */
static int parse_cpu(void *field, const char *value)
{
	if (!*value || strchr(value, ','))
		return BR_EUSAGE;
	*(const char **)field = value;
	return 0;
}

/* -F LIST */
static int parse_fields(void *field, const char *value)
{
	return psw_parse_fields(value, field) ? 0 : BR_EUSAGE;
}

#define OPT(N, L, K, F, SEEN) \
	.name = (N), .letter = (L), .kind = (K), \
	.off = offsetof(struct args, F), .mark = (SEEN)

static const struct cli_opt opts[] = {
	CLI_WORD("engine", struct args, qemu, "--engine=qemu or ptrace",
		 "ptrace", "qemu"),
	{ OPT("output", 'o', CLI_OPT_STRING, o.output, SEEN_OUTPUT) },
	CLI_FLAG("exact", 0, struct args, exact),
	CLI_FLAG("call-graph", 'g', struct args, call_graph),
	{ OPT("jitter", 0, CLI_OPT_U64, jitter, SEEN_JITTER),
	  .max = UINT64_MAX,
	  .expect = "--jitter J (a number of taken branches)" },
	{ OPT("cpu", 0, CLI_OPT_CALL, cpu, SEEN_CPU), .call = parse_cpu,
	  .expect = "--cpu MODEL (a name from qemu-x86_64 -cpu help)" },
	{ OPT("format", 0, CLI_OPT_WORD, format, SEEN_FORMAT),
	  .expect = "--format=perfdata or perfscript",
	  .words = (const char *const[]){ "perfdata", "perfscript", NULL } },
	{ OPT("depth", 0, CLI_OPT_U64, depth, SEEN_DEPTH), .max = 1u << 20,
	  .expect = "--depth N (0 = unbounded, at most 1048576)" },
	{ OPT("period", 0, CLI_OPT_U64, o.period, SEEN_PERIOD), .min = 1,
	  .max = UINT64_MAX, .expect = "--period P >= 1" },
	{ OPT("start", 0, CLI_OPT_WORD, from_exec, SEEN_START),
	  .expect = "--start=entry or exec",
	  .words = (const char *const[]){ "entry", "exec", NULL } },
	{ OPT("counts", 0, CLI_OPT_STRING, o.counts, SEEN_COUNTS) },
	{ OPT("script-copy", 0, CLI_OPT_STRING, o.script_copy, SEEN_TEXT) },
	{ OPT("fields", 'F', CLI_OPT_CALL, o.fields, SEEN_TEXT),
	  .call = parse_fields,
	  .expect = "-F with some of comm,pid,tid,time,ip,brstack" },
	{ OPT("show-task-events", 0, CLI_OPT_FLAG, o.task_events, SEEN_TEXT) },
	CLI_OPT_HELP_END,
};

/* What the options say together; 0 or an exit status after a message. */
static int check(const struct cli_cmd *cmd, struct args *x)
{
	struct record_opts *o = &x->o;
	uint64_t depth = x->depth;

	o->format = x->format ? RECORD_PERFSCRIPT : RECORD_PERFDATA;
	o->from_exec = x->from_exec;
	if (!(x->seen & SEEN_OUTPUT) && x->exact)
		o->output = "blockrange.brprof";
	else if (!(x->seen & SEEN_OUTPUT) && o->format == RECORD_PERFSCRIPT)
		o->output = "blockrange.perfscript";
	if (!x->qemu && (x->exact || x->call_graph ||
			 (x->seen & (SEEN_JITTER | SEEN_CPU))))
		return cli_usage(cmd, "%s is an option of --engine=qemu",
				 x->exact ? "--exact" : x->call_graph ? "-g" :
				 x->seen & SEEN_JITTER ? "--jitter" : "--cpu");
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
static int run_qemu(const struct cli_cmd *cmd, const struct args *x)
{
	const struct record_opts *ro = &x->o;
	uint64_t depth = x->depth;
	struct qrec_opts o = {
		.output = ro->output, .format = ro->format,
		.script_copy = ro->script_copy, .fields = ro->fields,
		.task_events = ro->task_events, .exact = x->exact,
		.depth = (unsigned)depth,
		.period = x->seen & SEEN_PERIOD ? ro->period :
			  QREC_DEFAULT_PERIOD,
		.jitter = x->jitter, .call_graph = x->call_graph,
		.cpu = x->cpu, .argv = ro->argv,
		.cmd_argc = ro->cmd_argc, .cmd_argv = ro->cmd_argv,
	};
	char err[BR_ERR_MAX];
	int r, status = 0;

	if (x->seen & (SEEN_START | SEEN_COUNTS))
		return cli_usage(cmd, "%s is an option of --engine=ptrace",
				 x->seen & SEEN_START ? "--start" : "--counts");
	if (x->exact && (x->seen & (SEEN_DEPTH | SEEN_PERIOD | SEEN_JITTER |
				    SEEN_FORMAT | SEEN_TEXT)))
		return cli_usage(cmd, "--exact counts every branch into a .brprof: it takes no --depth, --period, --jitter, --format, --script-copy, -F or --show-task-events");
	if (x->call_graph && x->exact)
		return cli_usage(cmd, "-g samples call stacks: --exact has no samples");
	if (x->call_graph && depth > QREC_CG_MAX_DEPTH)
		return cli_usage(cmd, "expected --depth of at most %d with -g (a perf.data record holds the branches and up to %u frames), got '%llu'",
				 QREC_CG_MAX_DEPTH, 1024u,
				 (unsigned long long)depth);
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
	struct args a = { .qemu = 1, .depth = 32 };
	struct cli_parsed p;
	int r;

	a.o.output = "perf.data";
	a.o.fields = PSW_DEFAULT_FIELDS;
	a.o.period = 1;
	a.o.cmd_argc = argc;
	a.o.cmd_argv = argv;
	if (cli_parse_options(cmd, argc, argv, &a, &p) != CLI_PARSE_RUN)
		return p.status;
	a.seen = p.marks;
	r = check(cmd, &a);
	if (r)
		return r;
	a.o.depth = (unsigned)a.depth;
	a.o.argv = argv + p.first;
	if (a.qemu)
		return run_qemu(cmd, &a);
	return run_ptrace(&a.o);
}

const struct cli_cmd cli_cmd_record = {
	.name = "record",
	.summary = "record branch stacks in software (QEMU, or ptrace single-stepping)",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.operands = CLI_OPERANDS_REST,
	.operands_needed = "-- PROGRAM [ARGS...]",
	.run = run,
};
