// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange script`: the samples' branch stacks in the text of perf 6.1's
 * `perf script -F ip,brstack`, from perf.data (file or pipe mode) or perf
 * script text.  See docs/cli-reference.md.
 */
#define _GNU_SOURCE

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin/cli.h"
#include "builtin/cmd_common.h"
#include "input/input.h"
#include "input/par.h"
#include "output/progress.h"
#include "output/pswrite.h"

static const char synopsis[] =
	"usage: blockrange script -i FILE|- [-j N] [--skip-bad] [--stats] [--progress]\n";

static const char help[] =
	"Print every sample as one line: the sample IP and every entry of its branch\n"
	"stack, newest first (none for a sample without one), in exactly the text of\n"
	"perf 6.1's `perf script -F ip,brstack`:\n"
	"\n"
	"  IP 0xFROM/0xTO/PRED/INTX/ABORT/CYCLES/TYPE  0xFROM/0xTO/...\n"
	"\n"
	"The input is perf.data (file or pipe mode, either byte order, zstd-compressed\n"
	"records) or the text of `perf script`, told apart by its first bytes; samples\n"
	"come in the order perf processes them (by time within perf's rounds).\n"
	"\n"
	"  -i, --input FILE|-   the input (- is stdin, also a perf.data pipe)\n"
	"  -j, --jobs N         decode and format with N threads (default: the online\n"
	"                       CPUs; the output is the same for every N)\n"
	"  --skip-bad           perf script text: skip malformed lines\n"
	"  --stats              print what was read (records by kind) on stderr\n"
	"  --progress           bytes read, samples per second and the time left on\n"
	"                       stderr (default when stderr is a terminal)\n"
	"  --no-progress        no progress line\n"
	"  --dump-events        every decoded event, one line each, as perf script prints\n"
	"                       samples and side-band records (to compare the reader\n"
	"                       with perf)\n"
	"  -h, --help           this help\n"
	"\n"
	"Example:\n"
	"  blockrange script -i perf.data | head\n"
	"  diff <(blockrange script -i perf.data) <(perf script -F ip,brstack -i perf.data)\n"
	"\n"
	"Exit status: 0 success, 1 usage or I/O error, 2 malformed input (or no\n"
	"sample at all).\n";

struct args {
	struct cmd_common c;
	bool stats;
	bool dump;
};

static const struct cli_opt opts[] = {
	{ .name = "input", .letter = 'i', .kind = CLI_OPT_STRING,
	  .off = offsetof(struct args, c.input), .needed = "-i FILE|-" },
	CMD_RUN_OPTIONS(struct args),
	CLI_FLAG("skip-bad", 0, struct args, c.skip_bad),
	CLI_FLAG("stats", 0, struct args, stats),
	/* test only: every event in a normalised text (check-tests/cli) */
	CLI_FLAG("dump-events", 0, struct args, dump),
	CLI_OPT_HELP_END,
};

struct out {
	FILE *f;
	char *buf;
	size_t cap;
	/* --stats: the event names, "name, name, ..." */
	char *names;
	size_t names_len;
};

static char *hex(char *p, uint64_t v)
{
	int n = v ? (64 - __builtin_clzll(v) + 3) / 4 : 1;

	for (int i = n - 1; i >= 0; i--) {
		p[i] = "0123456789abcdef"[v & 15];
		v >>= 4;
	}
	return p + n;
}

static char *dec(char *p, unsigned v)
{
	char tmp[12];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* " %16lx" of perf's ip column. */
static char *ip16(char *p, uint64_t v)
{
	char tmp[16];
	char *e = hex(tmp, v);
	size_t n = (size_t)(e - tmp);

	*p++ = ' ';
	for (size_t i = n; i < 16; i++)
		*p++ = ' ';
	memcpy(p, tmp, n);
	return p + n;
}

/* One sample's line, appended to @b (on any thread, see par.h). */
static int fmt_sample(void *arg, const struct ev_sample *s, struct par_buf *b,
		      char *err, size_t errsz)
{
	size_t need = 24 + s->nr * 64, i;
	char *p = par_buf_room(b, need), *start = p;

	(void)arg;
	if (!p) {
		snprintf(err, errsz, "out of memory for an output line");
		return BR_ESYS;
	}
	p = ip16(p, s->ip);
	for (i = 0; s->has_brstack && i < s->nr; i++) {
		const struct ev_branch *b = &s->br[i];
		const char *t = b->type ? pd_branch_type_name(b->type, b->new_type) : "";
		size_t tl = b->type ? strlen(t) : 0;

		*p++ = ' ';
		*p++ = '0';
		*p++ = 'x';
		p = hex(p, b->from);
		*p++ = '/';
		*p++ = '0';
		*p++ = 'x';
		p = hex(p, b->to);
		*p++ = '/';
		/* perf 6.1: P wins when both bits are set */
		*p++ = b->predicted ? 'P' : b->mispredicted ? 'M' : '-';
		*p++ = '/';
		*p++ = b->in_tx ? 'X' : '-';
		*p++ = '/';
		*p++ = b->abort ? 'A' : '-';
		*p++ = '/';
		p = dec(p, b->cycles);
		*p++ = '/';
		memcpy(p, t, tl);
		p += tl;
		*p++ = ' ';
	}
	*p++ = '\n';
	b->len += (size_t)(p - start);
	return 0;
}

/* ---- --dump-events: a normalised view for the tests ---- */

static void dump_time(FILE *f, bool has, uint64_t t)
{
	if (has)
		fprintf(f, " %" PRIu64, t);
	else
		fputs(" -", f);
}

static int dump_attr(void *arg, const struct ev_attr *a, char *err,
		     size_t errsz)
{
	(void)err;
	(void)errsz;
	fprintf(((struct out *)arg)->f, "A %u %s\n", a->idx, a->name);
	return 0;
}

static int dump_sample(void *arg, const struct ev_sample *s, char *err,
		       size_t errsz)
{
	FILE *f = ((struct out *)arg)->f;

	(void)err;
	(void)errsz;
	fprintf(f, "S %d/%d", s->pid, s->tid);
	if (s->cpu != UINT32_MAX)
		fprintf(f, " [%03u]", s->cpu);
	dump_time(f, s->has_time, s->time);
	fprintf(f, " %" PRIu64 " %s %" PRIx64 "\n", s->period, s->event, s->ip);
	return 0;
}

static int dump_mmap(void *arg, const struct ev_mmap *m, char *err,
		     size_t errsz)
{
	(void)err;
	(void)errsz;
	psw_mmap_text(((struct out *)arg)->f, "R ", m);
	return 0;
}

static int dump_comm(void *arg, const struct ev_comm *c, char *err,
		     size_t errsz)
{
	(void)err;
	(void)errsz;
	fprintf(((struct out *)arg)->f, "R COMM%s: %s:%d/%d\n",
		c->exec ? " exec" : "", c->comm, c->pid, c->tid);
	return 0;
}

static int dump_task(void *arg, const struct ev_task *t, char *err,
		     size_t errsz)
{
	(void)err;
	(void)errsz;
	fprintf(((struct out *)arg)->f, "R %s(%d:%d):(%d:%d)\n",
		t->exit ? "EXIT" : "FORK", t->pid, t->tid, t->ppid, t->ptid);
	return 0;
}

static int dump_build_id(void *arg, const struct ev_build_id *b, char *err,
			 size_t errsz)
{
	FILE *f = ((struct out *)arg)->f;

	(void)err;
	(void)errsz;
	fputs("B ", f);
	for (unsigned i = 0; i < b->size; i++)
		fprintf(f, "%02x", b->id[i]);
	fprintf(f, " %d %s\n", b->pid, b->path);
	return 0;
}

static int dump_lost(void *arg, const struct ev_lost *l, char *err,
		     size_t errsz)
{
	(void)err;
	(void)errsz;
	fprintf(((struct out *)arg)->f, "R LOST%s lost %" PRIu64 "\n",
		l->samples ? "_SAMPLES" : "", l->lost);
	return 0;
}

static int stats_attr(void *arg, const struct ev_attr *a, char *err,
		      size_t errsz)
{
	struct out *o = arg;
	size_t n = strlen(a->name);
	char *x = realloc(o->names, o->names_len + n + 3);

	if (!x) {
		snprintf(err, errsz, "out of memory for the event names");
		return BR_ESYS;
	}
	o->names = x;
	if (o->names_len) {
		memcpy(x + o->names_len, ", ", 2);
		o->names_len += 2;
	}
	memcpy(x + o->names_len, a->name, n + 1);
	o->names_len += n;
	return 0;
}

/* Names of the record types --stats lists (PERF_RECORD_* and perf's). */
static const char *const record_names[] = {
	[1] = "MMAP", [2] = "LOST", [3] = "COMM", [4] = "EXIT",
	[5] = "THROTTLE", [6] = "UNTHROTTLE", [7] = "FORK", [8] = "READ",
	[9] = "SAMPLE", [10] = "MMAP2", [11] = "AUX", [12] = "ITRACE_START",
	[13] = "LOST_SAMPLES", [14] = "SWITCH", [15] = "SWITCH_CPU_WIDE",
	[16] = "NAMESPACES", [17] = "KSYMBOL", [18] = "BPF_EVENT",
	[19] = "CGROUP", [20] = "TEXT_POKE", [21] = "AUX_OUTPUT_HW_ID",
	[64] = "HEADER_ATTR", [65] = "HEADER_EVENT_TYPE",
	[66] = "HEADER_TRACING_DATA", [67] = "HEADER_BUILD_ID",
	[68] = "FINISHED_ROUND", [69] = "ID_INDEX", [70] = "AUXTRACE_INFO",
	[71] = "AUXTRACE", [72] = "AUXTRACE_ERROR", [73] = "THREAD_MAP",
	[74] = "CPU_MAP", [75] = "STAT_CONFIG", [76] = "STAT",
	[77] = "STAT_ROUND", [78] = "EVENT_UPDATE", [79] = "TIME_CONV",
	[80] = "HEADER_FEATURE", [81] = "COMPRESSED", [82] = "FINISHED_INIT",
};

static void print_stats(const char *name, const struct input_stats *st,
			const struct out *o)
{
	const struct pd_stats *p = &st->pd;
	const char *sep = "";

	fprintf(stderr, "%s: %s%s\n", name, input_format_name(st->format),
		st->swapped ? ", byte-swapped" : "");
	if (st->format == INPUT_PERFSCRIPT) {
		fprintf(stderr, "  lines %lu, samples %lu, mmaps %lu, malformed skipped %lu\n",
			st->ps.lines, st->ps.samples, st->ps.mmaps,
			st->ps.bad_lines);
		return;
	}
	fprintf(stderr,
		"  %s order, %" PRIu64 " bytes, %" PRIu64 " records, %" PRIu64 " events\n"
		"  samples %" PRIu64 " (%" PRIu64 " with branch stacks, %" PRIu64 " entries)\n"
		"  mmaps %" PRIu64 ", comms %" PRIu64 ", forks %" PRIu64 ", exits %" PRIu64 "\n"
		"  lost %" PRIu64 " records (%" PRIu64 " events), lost samples %" PRIu64 "\n"
		"  build-ids %" PRIu64 ", rounds %" PRIu64 ", compressed %" PRIu64 " (%" PRIu64 " bytes)\n"
		"  unknown records skipped %" PRIu64 ", samples of unknown ids %" PRIu64 "\n"
		"  out of order %" PRIu64 ", most queued %" PRIu64 ", early flushes %" PRIu64 "\n",
		p->ordered ? "time" : "file", p->bytes, p->records, p->attrs,
		p->samples, p->samples_brstack, p->branch_entries, p->mmaps,
		p->comms, p->forks, p->exits, p->lost_records, p->lost_events,
		p->lost_samples, p->build_ids, p->rounds, p->compressed,
		p->decompressed_bytes, p->unknown_records, p->unknown_id,
		p->out_of_order, p->max_queued, p->queue_overflows);
	fprintf(stderr, "  events: %s\n  records by type:",
		o->names ? o->names : "");
	for (size_t t = 0; t < sizeof(p->by_type) / sizeof(p->by_type[0]); t++) {
		const char *rn = t < sizeof(record_names) / sizeof(record_names[0]) ?
				 record_names[t] : NULL;

		if (!p->by_type[t])
			continue;
		if (rn)
			fprintf(stderr, "%s %s %" PRIu64, sep, rn, p->by_type[t]);
		else
			fprintf(stderr, "%s type %zu: %" PRIu64, sep, t,
				p->by_type[t]);
		sep = ",";
	}
	fputc('\n', stderr);
}

/* The input to stdout: its samples' lines, or every event (--dump). */
static int script(const struct args *a, struct out *o, struct input_stats *st,
		  char *err, size_t errsz)
{
	struct input_opts io = { .skip_bad = a->c.skip_bad };
	struct par_progress pr;
	struct progress prog;
	struct ev_sink sink;

	if (a->dump) {
		memset(&sink, 0, sizeof(sink));
		sink.arg = o;
		sink.attr = dump_attr;
		sink.sample = dump_sample;
		sink.mmap = dump_mmap;
		sink.comm = dump_comm;
		sink.task = dump_task;
		sink.build_id = dump_build_id;
		sink.lost = dump_lost;
		return input_read(a->c.input, &io, &sink, st, err, errsz);
	}
	return par_script(a->c.input, &io, cmd_jobs(&a->c),
			  cmd_progress_of(&a->c, &pr, &prog), fmt_sample, NULL,
			  a->stats ? stats_attr : NULL, o, stdout, st, err,
			  errsz);
}

static int run(const struct cli_cmd *cmd, int argc, char **argv)
{
	struct args a = { .stats = false };
	struct input_stats st;
	struct out o = { stdout, NULL, 0, NULL, 0 };
	struct cli_parsed p;
	char err[BR_ERR_MAX];
	const char *name;
	int r;

	cmd_common_init(&a.c);
	if (cli_parse_options(cmd, argc, argv, &a, &p) != CLI_PARSE_RUN)
		return p.status;
	name = cli_input_name(a.c.input);
	/* whole lines go out in large writes */
	setvbuf(stdout, NULL, _IOFBF, 1 << 20);
	r = script(&a, &o, &st, err, sizeof(err));
	free(o.buf);
	if (fflush(stdout) && !r) {
		free(o.names);
		return cli_fail(CLI_EXIT_USAGE, "cannot write the output");
	}
	if (a.stats)
		print_stats(name, &st, &o);
	free(o.names);
	if (r)
		return cli_fail(cli_status(r), "%s", err);
	if (st.format == INPUT_PERFSCRIPT && a.c.skip_bad)
		fprintf(stderr, "blockrange: skipped %lu malformed line%s\n",
			st.ps.bad_lines, st.ps.bad_lines == 1 ? "" : "s");
	if (a.dump)
		return 0;
	if (!st.samples)
		return cli_fail(CLI_EXIT_INPUT, "%s: expected samples, got none",
				name);
	return 0;
}

const struct cli_cmd cli_cmd_script = {
	.name = "script",
	.summary = "branch stacks of perf.data or perf script input, as perf script -F ip,brstack",
	.synopsis = synopsis,
	.help = help,
	.options = opts,
	.run = run,
};
