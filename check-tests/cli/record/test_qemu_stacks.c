// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record -g`: the call stacks of the samples, on workloads of
 * known call structure (check-tests/cli/workloads/qemu/stacks.c, throw.cc),
 * read back by perf 6.1 (`perf script -F tid,ip,sym,brstacksym`, the
 * oracle of what perf.data says) and by llvm-profgen-19 (the script copy
 * read as hybrid samples into a context-sensitive profile):
 *
 *  - every sample's leaf is where its newest branch went (the same
 *    function), and every pair of adjacent frames of the workload's own
 *    functions is a call of its call graph (a tail call shows the function
 *    jumped to as called by the caller of the one that jumped);
 *  - the shapes: recursion of known depth, longjmp out of 7 frames, a C++
 *    throw caught 7 frames up (no frame of the functions left may stay),
 *    a signal handler on the interrupted frames and none of it after, a
 *    tail call, two threads of their own depth, a forked child (its
 *    parent's stack), an exec'ed program (an empty one), and a stack
 *    deeper than the 1024 frames kept (its innermost 1024, marked cut);
 *  - llvm-profgen's contexts, and none of its stack/LBR mismatch
 *    warnings where the program leaves no frame by a jump;
 *  - the perf.data reader delivers each sample's call chain: the same
 *    addresses perf prints (perf prints them relative to their mapping).
 * Periods are fixed and the programs deterministic: the samples are the
 * same on every run.
 */
#define _GNU_SOURCE

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/perf_event.h>

#include "cli_tests.h"
#include "qemu_tests.h"
#include "input/input.h"

#define MAX_FRAMES 1100
#define NAME 64

struct ssample {
	int tid;
	unsigned nf;
	char f[MAX_FRAMES][NAME];	/* frame symbols, leaf first */
	char to[NAME];			/* the newest branch's target symbol */
};

/* What a workload's checks count. */
struct stk_state {
	const char *mode;
	unsigned samples;
	unsigned good;		/* samples of the mode's main shape */
	unsigned good2;		/* of its second shape */
	int tids[2];		/* threads: the tids and their depths */
	unsigned depth[2];
	unsigned per[2];
};

/* The workloads' functions, and the calls between them. */
static const char *const funcs[] = {
	"main", "outer", "mid", "rec", "spin", "deep", "landed", "hwork",
	"handler", "after", "work", "tail_target", "tailer", "thr",
	"child_work", "forker", "execer",
	"_Z4spinj", "_Z7throweri", "_Z7handledv", "_Z7catcherv", NULL,
};

static const char *const edges[][2] = {
	{ "main", "outer" }, { "outer", "mid" }, { "mid", "rec" },
	{ "rec", "rec" }, { "rec", "spin" }, { "main", "deep" },
	{ "deep", "deep" }, { "deep", "spin" }, { "main", "landed" },
	{ "landed", "spin" }, { "main", "work" }, { "work", "after" },
	{ "after", "spin" }, { "handler", "hwork" }, { "hwork", "spin" },
	/* the tail call: tailer jumps to tail_target */
	{ "main", "tail_target" }, { "tail_target", "spin" },
	{ "thr", "rec" }, { "main", "rec" },
	{ "main", "forker" }, { "forker", "child_work" },
	{ "child_work", "spin" }, { "main", "execer" },
	{ "main", "_Z7catcherv" }, { "_Z7catcherv", "_Z7throweri" },
	{ "_Z7throweri", "_Z7throweri" }, { "_Z7throweri", "_Z4spinj" },
	{ "_Z7catcherv", "_Z7handledv" }, { "_Z7handledv", "_Z4spinj" },
};

static bool is_func(const char *s)
{
	unsigned i;

	for (i = 0; funcs[i]; i++)
		if (!strcmp(funcs[i], s))
			return true;
	return false;
}

static bool is_edge(const char *caller, const char *callee)
{
	size_t i;

	for (i = 0; i < sizeof(edges) / sizeof(edges[0]); i++)
		if (!strcmp(edges[i][0], caller) && !strcmp(edges[i][1], callee))
			return true;
	return false;
}

/* Frames @i.. of @s are @names (NULL-terminated), then nothing or no more of ours. */
static bool frames_are(const struct ssample *s, unsigned i,
		       const char *const names[])
{
	unsigned k;

	for (k = 0; names[k]; k++, i++)
		if (i >= s->nf || strcmp(s->f[i], names[k]))
			return false;
	return true;
}

static unsigned count_of(const struct ssample *s, const char *name)
{
	unsigned i, n = 0;

	for (i = 0; i < s->nf; i++)
		n += !strcmp(s->f[i], name);
	return n;
}

static bool has(const struct ssample *s, const char *name)
{
	return count_of(s, name) > 0;
}

/* Index of the first frame that is not @name, from @i. */
static unsigned skip(const struct ssample *s, unsigned i, const char *name)
{
	while (i < s->nf && !strcmp(s->f[i], name))
		i++;
	return i;
}

static void dump(const struct ssample *s, char *buf, size_t size)
{
	size_t n = 0;
	unsigned i;

	n += (size_t)snprintf(buf, size, "tid %d to %s:", s->tid, s->to);
	for (i = 0; i < s->nf && i < 40 && n < size; i++)
		n += (size_t)snprintf(buf + n, size - n, " %s", s->f[i]);
}

/* The checks of every sample, then those of its workload. */
static void check_sample(struct stk_state *st, const struct ssample *s)
{
	char d[2048];
	unsigned i, k;

	dump(s, d, sizeof(d));
	st->samples++;
	ck_assert_msg(s->nf >= 1, "no call chain: %s", d);
	ck_assert_msg(!strcmp(s->f[0], s->to),
		      "the leaf is not where the newest branch went: %s", d);
	for (i = 1; i < s->nf; i++)
		if (is_func(s->f[i]) && is_func(s->f[i - 1]))
			ck_assert_msg(is_edge(s->f[i], s->f[i - 1]),
				      "%s does not call %s: %s", s->f[i],
				      s->f[i - 1], d);
	ck_assert_msg(!has(s, "tailer"), "a frame of the tail-calling function: %s", d);
	/*
	 * Every stack starts where the thread began: the loader's _start
	 * (its return address is _dl_start_user's), the program's _start
	 * it jumps to, or a new thread's clone (QEMU 7.2 has no clone3, glibc
	 * falls back to clone).
	 */
	if (strcmp(st->mode, "deep") && s->nf > 1) {
		const char *root = s->f[s->nf - 1];

		ck_assert_msg(!strcmp(root, "_start") ||
			      strstr(root, "_dl_start_user") ||
			      !strcmp(root, "__clone") ||
			      !strcmp(root, "clone3"), "rooted at %s: %s", root, d);
	}
	if (!strcmp(st->mode, "rec") && !strcmp(s->f[0], "spin") && has(s, "mid")) {
		ck_assert_msg(frames_are(s, 0, (const char *const[]){ "spin",
			"rec", "rec", "rec", "rec", "rec", "rec", "mid",
			"outer", "main", NULL }), "not 6 levels of rec: %s", d);
		st->good++;
	} else if (!strcmp(st->mode, "rec") && !strcmp(s->f[0], "main")) {
		/* after outer returned: main's own loop */
		st->good2 += frames_are(s, 0, (const char *const[]){ "main",
					"__libc_start_call_main", NULL });
	} else if (!strcmp(st->mode, "longjmp")) {
		if (has(s, "landed")) {
			ck_assert_msg(!has(s, "deep"), "a frame longjmp left: %s", d);
			st->good += frames_are(s, 0, (const char *const[]){
				"spin", "landed", "main", NULL });
		}
		ck_assert_msg(count_of(s, "deep") <= 7, "more than 7 deep: %s", d);
		if (!strcmp(s->f[0], "spin") && count_of(s, "deep") == 7)
			st->good2++;
	} else if (!strcmp(st->mode, "signal")) {
		ck_assert_msg(!(has(s, "handler") && has(s, "after")),
			      "a handler's frame after it returned: %s", d);
		if (frames_are(s, 0, (const char *const[]){ "spin", "hwork",
							     "handler", NULL })) {
			/* the interrupted frames below: raise's, work, main */
			for (k = 3; k < s->nf && !is_func(s->f[k]); k++)
				;
			ck_assert_msg(k > 3 && frames_are(s, k,
				(const char *const[]){ "work", "main", NULL }),
				"the handler is not on the interrupted frames: %s", d);
			st->good++;
		}
		st->good2 += frames_are(s, 0, (const char *const[]){ "spin",
					"after", "work", "main", NULL });
	} else if (!strcmp(st->mode, "tail")) {
		st->good += frames_are(s, 0, (const char *const[]){ "spin",
				       "tail_target", "main", NULL });
	} else if (!strcmp(st->mode, "threads") && has(s, "thr") &&
		   !strcmp(s->f[0], "spin")) {
		unsigned depth = count_of(s, "rec"), t;

		ck_assert_msg(frames_are(s, skip(s, 1, "rec"),
			      (const char *const[]){ "thr", NULL }) &&
			      (depth == 4 || depth == 8), "%s", d);
		for (t = 0; t < 2 && st->tids[t] && st->tids[t] != s->tid; t++)
			;
		ck_assert_msg(t < 2, "a third thread: %s", d);
		if (!st->tids[t]) {
			st->tids[t] = s->tid;
			st->depth[t] = depth;
		}
		ck_assert_msg(st->depth[t] == depth, "thread %d changed depth: %s",
			      s->tid, d);
		st->per[t]++;
	} else if (!strcmp(st->mode, "deep") && !strcmp(s->f[0], "spin") &&
		   has(s, "rec")) {
		/* the innermost 1024 frames: all rec, main lost */
		ck_assert_msg(s->nf == 1025 && skip(s, 1, "rec") == 1025,
			      "%u frames: %s", s->nf, d);
		st->good++;
	} else if (!strcmp(st->mode, "fork")) {
		/* the child's stack is its parent thread's */
		st->good += frames_are(s, 0, (const char *const[]){ "spin",
				       "child_work", "forker", "main", NULL });
	} else if (!strcmp(st->mode, "exec")) {
		/* the new program's stacks start empty */
		ck_assert_msg(!has(s, "execer"), "a frame from before the exec: %s", d);
		st->good += frames_are(s, 0, (const char *const[]){ "spin",
			"rec", "rec", "rec", "rec", "rec", "rec", "mid",
			"outer", "main", NULL });
	} else if (!strcmp(st->mode, "throw")) {
		if (has(s, "_Z7handledv")) {
			ck_assert_msg(!has(s, "_Z7throweri") && !has(s, "__cxa_throw"),
				      "a frame the exception left: %s", d);
			st->good += frames_are(s, 0, (const char *const[]){
				"_Z4spinj", "_Z7handledv", "_Z7catcherv", "main",
				NULL });
		}
		ck_assert_msg(count_of(s, "_Z7throweri") <= 6, "%s", d);
	}
}

/* The symbol of "SYM+0xOFF" (or "[unknown]") at @p, up to @end. */
static void sym_of(const char *p, const char *end, char *out)
{
	size_t n = (size_t)(end - p);
	const char *plus = memchr(p, '+', n);

	if (plus && plus > p)
		n = (size_t)(plus - p);
	if (n >= NAME)
		n = NAME - 1;
	memcpy(out, p, n);
	out[n] = '\0';
}

/* perf script's text of @data, every sample checked; the samples seen. */
static void perf_stacks(const char *data, struct stk_state *st)
{
	char out[512], name[128];
	char *argv[] = { "perf", "script", "--force", "--no-demangle",
			 "--max-stack=1100", "-i", (char *)data, "-F",
			 "tid,ip,sym,symoff,brstacksym", NULL };
	struct ssample *s = calloc(1, sizeof(*s));
	char *text, *line, *save = NULL;

	ck_assert_ptr_nonnull(s);
	snprintf(name, sizeof(name), "stacks-%s.perf-script", st->mode);
	scratch(name, out, sizeof(out));
	ck_assert_int_eq(run_cmd(argv, out, NULL), 0);
	text = slurp(out, NULL);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '\t') {
			char *p = line + strspn(line, " \t");

			p += strcspn(p, " ");	/* the address */
			p += strspn(p, " ");
			ck_assert_uint_lt(s->nf, MAX_FRAMES);
			/*
			 * A return address at a function's start follows a
			 * call that ends the function before (a noreturn
			 * call): not that function's frame.
			 */
			if (s->nf && strstr(p, "+0x0") && !p[strcspn(p, "+") + 4])
				snprintf(s->f[s->nf++], NAME, "(after %s)", p);
			else
				sym_of(p, p + strlen(p), s->f[s->nf++]);
		} else if (strchr(line, '/')) {
			/* brstacksym, newest first: FROM/TO/... */
			char *p = line + strspn(line, " "), *a = strchr(p, '/');
			char *b = a ? strchr(a + 1, '/') : NULL;

			ck_assert_msg(b, "%s", line);
			sym_of(a + 1, b, s->to);
			check_sample(st, s);
			s->nf = 0;
		} else {
			s->tid = atoi(line);
			s->nf = 0;
		}
	}
	free(text);
	free(s);
}

/* Record MODE of the stacks workload (or throw) with -g and check it all. */
static void record_stacks(const char *mode, struct stk_state *st, char **err)
{
	char bin[512], data[512], txt[512], tag[64], name[128];

	memset(st, 0, sizeof(*st));
	st->mode = mode;
	snprintf(tag, sizeof(tag), "stacks-%s", mode);
	snprintf(name, sizeof(name), "%s.data", tag);
	scratch(name, data, sizeof(data));
	snprintf(name, sizeof(name), "%s.perfscript", tag);
	scratch(name, txt, sizeof(txt));
	if (!strcmp(mode, "throw"))
		ck_assert_int_eq(qt_rec(tag, ARGV("-g", "--period", "997", "-o",
						  data, "--script-copy", txt),
					ARGV((char *)qt_qwl("throw", bin, sizeof(bin))), err), 0);
	else
		ck_assert_int_eq(qt_rec(tag, ARGV("-g", "--period", "997", "-o",
						  data, "--script-copy", txt),
					ARGV((char *)qt_qwl("stacks", bin, sizeof(bin)),
					     (char *)mode), err), 0);
	ck_assert_msg(strstr(*err, " and the call stack every 997 "), "%s", *err);
	perf_stacks(data, st);
	ck_assert_uint_gt(st->samples, 20);
}

/* llvm-profgen-19 on the script copy of MODE: its profile and warnings. */
static void profgen(const char *mode, const char *binary, char **prof,
		    char **warn)
{
	char txt[512], out[512], errf[512], name[128], in[600], bin[600];
	char wl[512];
	char *argv[] = { (char *)env_path("LLVM_PROFGEN"), in, bin,
			 "--output", out, "--format=text",
			 "--csspgo-preinliner=false",
			 "--gen-cs-nested-profile=false",
			 "--show-detailed-warning", NULL };

	snprintf(name, sizeof(name), "stacks-%s.perfscript", mode);
	scratch(name, txt, sizeof(txt));
	snprintf(name, sizeof(name), "stacks-%s.prof", mode);
	scratch(name, out, sizeof(out));
	snprintf(name, sizeof(name), "stacks-%s.profgen-err", mode);
	scratch(name, errf, sizeof(errf));
	snprintf(in, sizeof(in), "--perfscript=%s", txt);
	snprintf(bin, sizeof(bin), "--binary=%s", qt_qwl(binary, wl, sizeof(wl)));
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 0);
	*prof = slurp(out, NULL);
	*warn = slurp(errf, NULL);
}

/* A line of @prof that holds every string of @parts, in order. */
static bool has_context(const char *prof, const char *const parts[])
{
	const char *line = prof;

	while (line && *line) {
		const char *end = strchr(line, '\n'), *p = line;
		unsigned k;

		if (!end)
			end = line + strlen(line);
		for (k = 0; parts[k]; k++) {
			p = memmem(p, (size_t)(end - p), parts[k], strlen(parts[k]));
			if (!p)
				break;
			p += strlen(parts[k]);
		}
		if (!parts[k])
			return true;
		line = *end ? end + 1 : NULL;
	}
	return false;
}

/* llvm-profgen's warnings that the stacks and the branches disagree. */
static bool mismatch(const char *warn)
{
	return strstr(warn, "doesn't match call frame stack") ||
	       strstr(warn, "Bogus trace") ||
	       strstr(warn, "doesn't have another external address") ||
	       strstr(warn, "doesn't have an external frame to match");
}

START_TEST(stacks_rec)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("rec", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	ck_assert_uint_ge(st.good2, 10);
	profgen("rec", "stacks", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ outer:", " @ mid:", " @ rec:", " @ rec:", " @ spin]:",
		      NULL }), "%s", prof);
	ck_assert_msg(!mismatch(warn), "%s", warn);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_longjmp)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("longjmp", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	ck_assert_uint_ge(st.good2, 5);
	/* the branches before a longjmp are of frames the stack lost: */
	/* llvm-profgen may warn of them, as with any LBR */
	profgen("longjmp", "stacks", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ landed:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ deep:", " @ deep:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(!has_context(prof, (const char *const[]){ "deep:",
		      " @ landed", NULL }), "%s", prof);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_throw)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("throw", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	profgen("throw", "throw", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ _Z7catcherv:", " @ _Z7handledv:", " @ _Z4spinj]:",
		      NULL }), "%s", prof);
	ck_assert_msg(!has_context(prof, (const char *const[]){ "_Z7throweri:",
		      " @ _Z7handledv", NULL }), "%s", prof);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_signal)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("signal", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	ck_assert_uint_ge(st.good2, 10);
	profgen("signal", "stacks", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ work:", " @ after:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[handler:",
		      " @ hwork:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(!mismatch(warn), "%s", warn);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_tail)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("tail", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	profgen("tail", "stacks", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[main:",
		      " @ tail_target:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(!mismatch(warn), "%s", warn);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_threads)
{
	struct stk_state st;
	char *err, *prof, *warn;

	record_stacks("threads", &st, &err);
	free(err);
	ck_assert_msg(st.tids[0] && st.tids[1] &&
		      st.depth[0] + st.depth[1] == 12 &&
		      st.per[0] >= 5 && st.per[1] >= 5,
		      "threads %d (depth %u, %u samples) and %d (%u, %u)",
		      st.tids[0], st.depth[0], st.per[0], st.tids[1],
		      st.depth[1], st.per[1]);
	profgen("threads", "stacks", &prof, &warn);
	ck_assert_msg(has_context(prof, (const char *const[]){ "[thr:",
		      " @ rec:", " @ spin]:", NULL }), "%s", prof);
	ck_assert_msg(!mismatch(warn), "%s", warn);
	free(prof);
	free(warn);
}
END_TEST

START_TEST(stacks_deep)
{
	struct stk_state st;
	char *err;

	record_stacks("deep", &st, &err);
	ck_assert_msg(strstr(err, " with stacks cut to their innermost 1024 frames)"),
		      "%s", err);
	free(err);
	ck_assert_uint_ge(st.good, 5);
}
END_TEST

/* What the reader delivered: the mappings, and every chain as perf prints it. */
struct chains {
	struct ev_mmap maps[16];
	unsigned nr_maps;
	FILE *out;
	unsigned samples;
};

static int ch_mmap(void *arg, const struct ev_mmap *m, char *err, size_t errsz)
{
	struct chains *c = arg;

	(void)err;
	(void)errsz;
	if (c->nr_maps < 16)
		c->maps[c->nr_maps++] = *m;
	return 0;
}

/*
 * The chain's frames, each address relative to its
 * mapping as perf 6.1 prints it, one "\t%16lx" line each, then an empty
 * line (perf script -F ip's layout).
 */
static int ch_sample(void *arg, const struct ev_sample *s, char *err,
		     size_t errsz)
{
	struct chains *c = arg;
	size_t i;
	unsigned k;

	(void)err;
	(void)errsz;
	/* the PERF_CONTEXT_USER marker is not a frame */
	ck_assert_uint_ge(s->callchain_nr, 1);
	ck_assert_uint_eq(s->callchain[0], s->ip);
	fputc('\n', c->out);
	for (i = 0; i < s->callchain_nr; i++) {
		uint64_t a = s->callchain[i];

		for (k = c->nr_maps; k-- > 0;)
			if (c->maps[k].pid == s->pid && a >= c->maps[k].start &&
			    a - c->maps[k].start < c->maps[k].len) {
				a = a - c->maps[k].start + c->maps[k].pgoff;
				break;
			}
		fprintf(c->out, "\t%16" PRIx64 "\n", a);
	}
	fputc('\n', c->out);
	c->samples++;
	return 0;
}

/* The perf.data reader's call chains are the addresses perf prints. */
START_TEST(stacks_reader)
{
	struct stk_state st;
	struct chains c = { .nr_maps = 0 };
	struct ev_sink sink = { .sample = ch_sample, .mmap = ch_mmap, .arg = &c };
	struct input_opts io = { .skip_bad = false };
	struct input_stats stats;
	char data[512], mine[512], perfs[512], err[1024], *a, *b;
	char *argv[] = { "perf", "script", "--force", "--max-stack=1100", "-i",
			 data, "-F", "ip", NULL };

	record_stacks("signal", &st, &a);
	free(a);
	scratch("stacks-signal.data", data, sizeof(data));
	scratch("stacks-signal.reader", mine, sizeof(mine));
	scratch("stacks-signal.perf-ip", perfs, sizeof(perfs));
	c.out = fopen(mine, "w");
	ck_assert_ptr_nonnull(c.out);
	ck_assert_msg(!input_read(data, &io, &sink, &stats, err, sizeof(err)),
		      "%s", err);
	fclose(c.out);
	ck_assert_uint_eq(c.samples, st.samples);
	ck_assert_int_eq(run_cmd(argv, perfs, NULL), 0);
	a = slurp(mine, NULL);
	b = slurp(perfs, NULL);
	ck_assert_msg(!strcmp(a, b), "%s and %s differ", mine, perfs);
	free(a);
	free(b);
}
END_TEST

/* fork: the child inherits its stack; exec: the new program's is empty. */
START_TEST(stacks_fork_exec)
{
	struct stk_state st;
	char *err;

	record_stacks("fork", &st, &err);
	ck_assert_msg(strstr(err, " in 2 processes"), "%s", err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
	record_stacks("exec", &st, &err);
	free(err);
	ck_assert_uint_ge(st.good, 10);
}
END_TEST

/* -g: the options it does not go with. */
START_TEST(stacks_usage)
{
	char *err;

	ck_assert_int_eq(qt_rec("stacks-usage1", ARGV("-g", "--exact"),
				ARGV("/bin/true"), &err), 1);
	ck_assert_msg(strstr(err, "-g samples call stacks: --exact has no samples"), "%s", err);
	free(err);
	ck_assert_int_eq(qt_rec("stacks-usage2", ARGV("-g", "--engine=ptrace"),
				ARGV("/bin/true"), &err), 1);
	ck_assert_msg(strstr(err, "-g is an option of --engine=qemu"), "%s", err);
	free(err);
	ck_assert_int_eq(qt_rec("stacks-usage3", ARGV("-g", "--depth", "2049"),
				ARGV("/bin/true"), &err), 1);
	ck_assert_msg(strstr(err, "expected --depth of at most 2048 with -g"), "%s", err);
	free(err);
}
END_TEST

void qemu_add_stack_tests(TCase *tc)
{
	tcase_add_test(tc, stacks_rec);
	tcase_add_test(tc, stacks_longjmp);
	tcase_add_test(tc, stacks_throw);
	tcase_add_test(tc, stacks_signal);
	tcase_add_test(tc, stacks_tail);
	tcase_add_test(tc, stacks_threads);
	tcase_add_test(tc, stacks_deep);
	tcase_add_test(tc, stacks_usage);
	tcase_add_test(tc, stacks_reader);
	tcase_add_test(tc, stacks_fork_exec);
}
