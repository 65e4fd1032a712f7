// SPDX-License-Identifier: GPL-2.0
/*
 * `blockrange record` against perf 6.1 and llvm-profgen-19:
 *
 *  - round trip: one recording written both as perf.data and (with
 *    --script-copy) as perf-script text; `perf script` with the same
 *    fields on the perf.data must print that text byte for byte: a
 *    single-threaded PIE (sampled), a non-PIE full trace, the multi-DSO
 *    workload, pipe mode (-o -), and the threads/fork/exec workload with
 *    comm, pid, tid, time and task events.  `perf annotate` and `perf
 *    report --branch-history` read the files without a word on stderr;
 *    llvm-profgen-19 --perfdata (which runs perf script itself) gives the
 *    raw profile it gives for the text.
 *  - multi-DSO counts: a full trace of the multi-DSO workload counts
 *    instructions of the executable, its libhot.so and libc; the sum of
 *    the counts is the number of executed instructions record reports;
 *    the loops' conditions ran N + 1 and M + 1 times (the arguments), the
 *    comparator's first instruction and one libc instruction (the call
 *    site in qsort) as often as the program counted comparator calls.
 *  - an unbounded ring (--depth 0) whose samples hold more than its first
 *    size: each sample continues the previous one, none lost.
 *  - tasks: every thread's samples carry its pid/tid, the exec'ed child
 *    its own pid and the exec'ed binary's DSO; FORK, COMM (exec and
 *    prctl names) and EXIT as perf shows them.
 */
#define _GNU_SOURCE

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_tests.h"
#include "resolve/elfbin.h"

static const char *wl(const char *name, char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/%s", env_path("BLOCKRANGE_WORKLOADS"), name);
	return buf;
}

/* argv (NULL-terminated) from a fixed list. */
#define ARGV(...) ((char *[]){ __VA_ARGS__, NULL })

/* Run and expect status 0 with nothing on stderr. */
static void run_quiet(char *const argv[], const char *out, const char *tag)
{
	char errf[512];
	char *msg;
	int st;

	scratch(tag, errf, sizeof(errf));
	st = run_cmd(argv, out, errf);
	msg = slurp(errf, NULL);
	ck_assert_msg(st == 0 && !*msg, "%s %s: status %d, stderr:\n%s",
		      argv[0], argv[1], st, msg);
	free(msg);
}

static void same_files(const char *a, const char *b)
{
	size_t la, lb;
	char *x = slurp(a, &la), *y = slurp(b, &lb);

	ck_assert_msg(la == lb && !memcmp(x, y, la), "%s and %s differ", a, b);
	free(x);
	free(y);
}

static size_t count_lines(const char *path, const char *needle)
{
	char *s = slurp(path, NULL), *p;
	size_t n = 0;

	for (p = s; (p = strstr(p, needle)); p++)
		n++;
	free(s);
	return n;
}

/*
 * Record @prog @args to NAME.data (plus NAME.txt as perf-script text of
 * @fields, task events if @tasks); stdout/stderr of record to NAME.out and
 * NAME.err.
 */
static void record(const char *name, const char *fields, bool tasks,
		   const char *depth, const char *period, char *const prog[])
{
	char data[512], txt[512], out[512], errf[512], tag[128];
	char *argv[32];
	size_t i = 0, k;

	snprintf(tag, sizeof(tag), "%s.data", name);
	scratch(tag, data, sizeof(data));
	snprintf(tag, sizeof(tag), "%s.txt", name);
	scratch(tag, txt, sizeof(txt));
	snprintf(tag, sizeof(tag), "%s.out", name);
	scratch(tag, out, sizeof(out));
	snprintf(tag, sizeof(tag), "%s.err", name);
	scratch(tag, errf, sizeof(errf));
	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "record";
	argv[i++] = "--engine=ptrace";
	argv[i++] = "-o";
	argv[i++] = data;
	argv[i++] = "--script-copy";
	argv[i++] = txt;
	argv[i++] = "-F";
	argv[i++] = (char *)fields;
	if (tasks)
		argv[i++] = "--show-task-events";
	argv[i++] = "--depth";
	argv[i++] = (char *)depth;
	argv[i++] = "--period";
	argv[i++] = (char *)period;
	argv[i++] = "--";
	for (k = 0; prog[k]; k++)
		argv[i++] = prog[k];
	argv[i] = NULL;
	ck_assert_msg(run_cmd(argv, out, errf) == 0, "record %s failed (%s)",
		      prog[0], errf);
}

/* `perf script -i NAME.data -F FIELDS --show-mmap-events [...]` == NAME.txt */
static void script_round_trip(const char *name, const char *fields,
			      bool tasks)
{
	char data[512], txt[512], got[512], tag[128];
	char *argv[] = { "perf", "script", "-i", data, "-F", (char *)fields,
			 "--show-mmap-events", tasks ? "--show-task-events" : NULL,
			 NULL };

	snprintf(tag, sizeof(tag), "%s.data", name);
	scratch(tag, data, sizeof(data));
	snprintf(tag, sizeof(tag), "%s.txt", name);
	scratch(tag, txt, sizeof(txt));
	snprintf(tag, sizeof(tag), "%s.perf-script", name);
	scratch(tag, got, sizeof(got));
	run_quiet(argv, got, "perf-script.err");
	same_files(got, txt);
}

/*
 * perf annotate (of @sym) and report --branch-history: quiet, status 0.
 * perf 6.1's annotate prints its branch comments ("# +NN%", "# -NN%")
 * only for non-PIE code (@comments); the sample percentages always.
 */
static void perf_reads(const char *name, const char *sym, bool comments)
{
	char data[512], out[512], tag[128];

	snprintf(tag, sizeof(tag), "%s.data", name);
	scratch(tag, data, sizeof(data));
	snprintf(tag, sizeof(tag), "%s.annotate", name);
	scratch(tag, out, sizeof(out));
	run_quiet(ARGV("perf", "annotate", "-i", data, "--stdio", (char *)sym),
		  out, "perf-annotate.err");
	ck_assert_msg(count_lines(out, "for taken-branches-sw:u (") >= 1, "%s",
		      out);
	if (comments)
		ck_assert_msg(count_lines(out, "\t# +") >= 1 &&
			      count_lines(out, "\t# -") >= 1, "%s", out);
	snprintf(tag, sizeof(tag), "%s.report", name);
	scratch(tag, out, sizeof(out));
	run_quiet(ARGV("perf", "report", "-i", data, "--branch-history",
		       "--stdio"), out, "perf-report.err");
	ck_assert_msg(count_lines(out, "of event 'taken-branches-sw:u'") == 1,
		      "%s", out);
}

/* llvm-profgen-19 on NAME.data equals it on NAME.txt (for @bin). */
static void profgen_same(const char *name, const char *bin)
{
	char data[512], txt[512], o1[512], o2[512], tag[128];
	char a1[600], a2[600], b[600], out1[600], out2[600];
	char *s;

	snprintf(tag, sizeof(tag), "%s.data", name);
	scratch(tag, data, sizeof(data));
	snprintf(tag, sizeof(tag), "%s.txt", name);
	scratch(tag, txt, sizeof(txt));
	snprintf(tag, sizeof(tag), "%s.profgen-data", name);
	scratch(tag, o1, sizeof(o1));
	snprintf(tag, sizeof(tag), "%s.profgen-text", name);
	scratch(tag, o2, sizeof(o2));
	snprintf(a1, sizeof(a1), "--perfdata=%s", data);
	snprintf(a2, sizeof(a2), "--perfscript=%s", txt);
	snprintf(b, sizeof(b), "--binary=%s", bin);
	snprintf(out1, sizeof(out1), "--output=%s", o1);
	snprintf(out2, sizeof(out2), "--output=%s", o2);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("LLVM_PROFGEN"),
				      "--format=text", "--skip-symbolization",
				      a1, b, out1), NULL, NULL), 0);
	ck_assert_int_eq(run_cmd(ARGV((char *)env_path("LLVM_PROFGEN"),
				      "--format=text", "--skip-symbolization",
				      a2, b, out2), NULL, NULL), 0);
	same_files(o1, o2);
	s = slurp(o1, NULL);
	ck_assert_msg(strtoul(s, NULL, 10) >= 10, "few ranges: %s", s);
	free(s);
}

START_TEST(round_trip_sampled_pie)
{
	char bin[512];

	wl("branches-pie", bin, sizeof(bin));
	record("rt-branches", "ip,brstack", false, "32", "7",
	       ARGV(bin, "300"));
	script_round_trip("rt-branches", "ip,brstack", false);
	perf_reads("rt-branches", "branches", false);
	profgen_same("rt-branches", bin);
}
END_TEST

START_TEST(round_trip_full_trace_nopie)
{
	char bin[512];

	wl("sortsearch-nopie", bin, sizeof(bin));
	record("rt-sort", "ip,brstack", false, "0", "1", ARGV(bin, "24"));
	script_round_trip("rt-sort", "ip,brstack", false);
	perf_reads("rt-sort", "search", true);
	profgen_same("rt-sort", bin);
}
END_TEST

START_TEST(round_trip_multidso)
{
	char bin[512], txt[512];

	wl("multidso-pie", bin, sizeof(bin));
	record("rt-dso", "ip,brstack", false, "32", "7",
	       ARGV(bin, "100", "100", "16"));
	script_round_trip("rt-dso", "ip,brstack", false);
	perf_reads("rt-dso", "lib_loop", false);
	profgen_same("rt-dso", bin);
	/* mmap lines of all three DSOs */
	scratch("rt-dso.txt", txt, sizeof(txt));
	ck_assert_uint_eq(count_lines(txt, "multidso-pie\n"), 1);
	ck_assert_uint_eq(count_lines(txt, "/libhot.so\n"), 1);
	ck_assert_uint_eq(count_lines(txt, "/libc.so.6\n"), 1);
}
END_TEST

/*
 * --start=exec: the loader is stepped too; it maps libc and libhot.so
 * while being stepped, so their MMAP2 lines come after the first
 * samples, each before the first sample that touches it.
 */
START_TEST(round_trip_from_exec)
{
	char bin[512], txt[512], lib[600];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "-o", NULL, "--script-copy", txt,
			 "--start=exec", "--depth", "16", "--period", "64", "--",
			 bin, "5", "5", "2", NULL };
	char data[512], out[512], errf[512];
	char *s, *first_sample, *libc, *hot, *p;
	uint64_t start, len;

	wl("multidso-nopie", bin, sizeof(bin));
	scratch("rt-exec.data", data, sizeof(data));
	scratch("rt-exec.txt", txt, sizeof(txt));
	scratch("rt-exec.out", out, sizeof(out));
	scratch("rt-exec.err", errf, sizeof(errf));
	argv[4] = data;
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	script_round_trip("rt-exec", "ip,brstack", false);
	s = slurp(txt, NULL);
	first_sample = strstr(s, "\n ");
	libc = strstr(s, "/libc.so.6\n");
	snprintf(lib, sizeof(lib), "%s/libhot.so\n", env_path("BLOCKRANGE_WORKLOADS"));
	hot = strstr(s, lib);
	ck_assert_msg(first_sample && libc && hot && libc > first_sample &&
		      hot > first_sample, "%.2000s", s);
	/* no sample touches libc before its mmap line */
	*libc = '\0';
	libc = strrchr(s, '\n') + 1;	/* the start of that line */
	p = strrchr(libc, '[');
	ck_assert(p && sscanf(p, "[0x%" SCNx64 "(0x%" SCNx64 ")", &start,
			      &len) == 2);
	for (p = s; p < libc; p = strchr(p, '\n') + 1) {
		char *q;

		for (q = p; (q = strstr(q, "0x")) && q < strchr(p, '\n'); q += 2) {
			uint64_t a = strtoull(q, NULL, 16);

			ck_assert_msg(a < start || a >= start + len,
				      "libc address before its mmap: %.80s", p);
		}
	}
	free(s);
}
END_TEST

/* -o - writes pipe mode; perf script -i - reads it (-G: see below). */
START_TEST(round_trip_pipe)
{
	char bin[512], data[512], txt[512], got[512], errf[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "-o", "-",
			 "--script-copy", txt, "--depth", "16", "--period",
			 "3", "--", bin, "60", "60", "8", NULL };
	char *s;

	wl("multidso-nopie", bin, sizeof(bin));
	scratch("rt-pipe.data", data, sizeof(data));
	scratch("rt-pipe.txt", txt, sizeof(txt));
	scratch("rt-pipe.perf-script", got, sizeof(got));
	scratch("rt-pipe.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, data, errf), 0);
	/* the program's own stdout went to stderr, not into the data */
	s = slurp(errf, NULL);
	ck_assert_msg(strstr(s, "cmp_calls="), "%s", s);
	free(s);
	s = slurp(data, NULL);
	ck_assert(!memcmp(s, "PERFILE2\x10\0\0\0\0\0\0\0", 16));
	free(s);
	/*
	 * In pipe mode perf 6.1's script adds the symbol to the IP of
	 * branch-stack samples unless call graphs are hidden (-G); it does
	 * so for its own pipe files as well.
	 */
	{
		char *pargv[] = { "sh", "-c",
				  "perf script -i - -G -F ip,brstack --show-mmap-events < \"$0\"",
				  data, NULL };

		run_quiet(pargv, got, "perf-pipe.err");
	}
	same_files(got, txt);
}
END_TEST

/* The value after @key in @s (decimal), or -1. */
static long long after(const char *s, const char *key)
{
	const char *p = strstr(s, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* Max count over the instructions of @sym in @counts lines of @path. */
struct counted {
	uint64_t max_in_sym;
	uint64_t at_start;
	uint64_t sum;
	size_t lines;
};

static struct counted counts_of(const char *counts, const char *path,
				const char *sym)
{
	struct counted c = { 0 };
	struct eb_binary eb;
	const struct eb_sym *s = NULL;
	char err[1024], line[1024];
	FILE *f;

	if (sym) {
		ck_assert_msg(!eb_open(path, &eb, err, sizeof(err)), "%s", err);
		s = eb_sym_by_name(&eb, sym);
		ck_assert_msg(s, "no symbol %s in %s", sym, path);
	}
	f = fopen(counts, "r");
	ck_assert(f);
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' '), *sp2;
		uint64_t a, n;

		ck_assert(sp);
		*sp = '\0';
		sp2 = strrchr(line, ' ');
		ck_assert(sp2);
		*sp2 = '\0';
		a = strtoull(sp2 + 1, NULL, 16);
		n = strtoull(sp + 1, NULL, 10);
		if (strcmp(line, path))
			continue;
		c.lines++;
		c.sum += n;
		if (s && a >= s->start && a < s->end && n > c.max_in_sym)
			c.max_in_sym = n;
		if (s && a == s->start)
			c.at_start = n;
	}
	fclose(f);
	if (sym)
		eb_close(&eb);
	return c;
}

/* The path of the libc the counts name ("/libc.so.6" at the end). */
static void libc_path(const char *counts, char *buf, size_t sz)
{
	char *s = slurp(counts, NULL), *p = strstr(s, "/libc.so.6 0x"), *b;

	ck_assert_msg(p, "no libc.so.6 in %s", counts);
	*p = '\0';
	b = strrchr(s, '\n');
	snprintf(buf, sz, "%s/libc.so.6", b ? b + 1 : s);
	free(s);
}

START_TEST(multidso_counts)
{
	const char *variant = _i ? "multidso-pie" : "multidso-nopie";
	char bin[512], lib[512], cnt[512], out[512], errf[512], libc[512];
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "--format=perfscript", "-o",
			 "/dev/null", "--depth", "0", "--period", "1", "--counts",
			 cnt, "--", bin, "150", "120", "20", NULL };
	struct counted exe, hot, c;
	long long cmp_calls, executed, total = 0;
	char *s, line[1024];
	FILE *f;
	bool libc_site = false;

	wl(variant, bin, sizeof(bin));
	wl("libhot.so", lib, sizeof(lib));
	scratch(_i ? "dso-pie.counts" : "dso-nopie.counts", cnt, sizeof(cnt));
	scratch("dso.out", out, sizeof(out));
	scratch("dso.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, out, errf), 0);
	s = slurp(out, NULL);
	cmp_calls = after(s, "cmp_calls=");
	free(s);
	s = slurp(errf, NULL);
	executed = after(s, "; ");
	ck_assert_msg(strstr(s, "instructions executed"), "%s", s);
	free(s);
	ck_assert_msg(cmp_calls > 20 && executed > 10000, "%lld %lld",
		      cmp_calls, executed);

	exe = counts_of(cnt, bin, "exe_loop");
	ck_assert_uint_eq(exe.max_in_sym, 150 + 1);
	ck_assert_uint_eq(exe.at_start, 1);
	c = counts_of(cnt, bin, "cmp");
	ck_assert_uint_eq(c.at_start, (uint64_t)cmp_calls);
	hot = counts_of(cnt, lib, "lib_loop");
	ck_assert_uint_eq(hot.max_in_sym, 120 + 1);
	ck_assert_uint_eq(hot.at_start, 1);
	ck_assert_uint_gt(hot.lines, 10);
	libc_path(cnt, libc, sizeof(libc));
	c = counts_of(cnt, libc, NULL);
	ck_assert_uint_gt(c.lines, 100);

	/* every line: total = executed; some libc line ran cmp_calls times */
	f = fopen(cnt, "r");
	ck_assert(f);
	while (fgets(line, sizeof(line), f)) {
		long long n = strtoll(strrchr(line, ' ') + 1, NULL, 10);

		total += n;
		if (n == cmp_calls && strstr(line, "/libc.so.6 0x"))
			libc_site = true;
	}
	fclose(f);
	ck_assert_int_eq(total, executed);
	ck_assert_msg(libc_site, "no libc instruction ran %lld times",
		      cmp_calls);
}
END_TEST

/* Field @n (0-based, blank-separated) of @line into @buf. */
static const char *field(const char *line, int n, char *buf, size_t sz)
{
	const char *p = line;
	size_t len;

	for (;;) {
		p += strspn(p, " ");
		len = strcspn(p, " \n");
		if (!n--)
			break;
		p += len;
	}
	snprintf(buf, sz, "%.*s", (int)len, p);
	return buf;
}

START_TEST(tasks)
{
	char bin[512], child[512], txt[512], dso[600], line[2048];
	char pt[64], f2[64], ev[4096];
	int main_pid = -1, child_pid = -1, threads = 0, forks = 0;
	int exits = 0, comm_exec = 0, named = 0, thread_samples = 0;
	int child_samples = 0;
	FILE *f;

	wl("tasks", bin, sizeof(bin));
	wl("branches-nopie", child, sizeof(child));
	record("tasks", "comm,pid,tid,time,ip,brstack", true, "8", "5",
	       ARGV(bin, "200", child, "40"));
	script_round_trip("tasks", "comm,pid,tid,time,ip,brstack", true);
	perf_reads("tasks", "spin", false);

	/* The text is perf's: read the tasks off it. */
	scratch("tasks.txt", txt, sizeof(txt));
	f = fopen(txt, "r");
	ck_assert(f);
	while (fgets(line, sizeof(line), f)) {
		int pid, tid;
		const char *rec = strstr(line, "PERF_RECORD_");

		field(line, 1, pt, sizeof(pt));
		ck_assert_msg(sscanf(pt, "%d/%d", &pid, &tid) == 2, "%s", line);
		if (main_pid < 0)
			main_pid = pid;
		if (rec && sscanf(rec, "PERF_RECORD_FORK(%d:%*d):(%*d:%*d)",
				  &pid) == 1) {
			forks++;
			if (pid == main_pid)
				threads++;
			else
				child_pid = pid;
		} else if (rec && !strncmp(rec, "PERF_RECORD_EXIT(", 17)) {
			exits++;
		} else if (rec && !strncmp(rec, "PERF_RECORD_COMM exec: ", 23)) {
			comm_exec++;
			if (comm_exec == 2) {
				ck_assert_int_eq(pid, child_pid);
				ck_assert_msg(strstr(rec, "exec: branches-nopie:"), "%s", rec);
			}
		} else if (rec && !strncmp(rec, "PERF_RECORD_COMM: worker", 24)) {
			named++;
			ck_assert_int_eq(pid, main_pid);
			ck_assert_int_ne(tid, main_pid);
		} else if (!rec) {
			/* a sample: comm pid/tid time: ip entries */
			field(line, 0, f2, sizeof(f2));
			if (pid == main_pid && tid != pid) {
				thread_samples++;
				ck_assert_msg(!strncmp(f2, "worker", 6) ||
					      !strcmp(f2, "tasks"), "%s", line);
			}
			if (pid == child_pid) {
				child_samples++;
				ck_assert_int_eq(tid, child_pid);
				/* the forked copy, then the exec'ed program */
				ck_assert_str_eq(f2, comm_exec == 2 ?
						 "branches-nopie" : "tasks");
			}
		}
	}
	fclose(f);
	ck_assert_int_eq(threads, 2);
	ck_assert_int_eq(forks, 3);
	ck_assert_int_eq(exits, 4);
	ck_assert_int_eq(comm_exec, 2);
	ck_assert_int_eq(named, 2);
	ck_assert_int_ge(thread_samples, 2 * 200 / 5);
	ck_assert_int_gt(child_samples, 40 / 5);

	/* perf maps the child's samples to the exec'ed program's DSOs */
	{
		char data[512], out[512];
		bool seen = false;

		scratch("tasks.data", data, sizeof(data));
		scratch("tasks.dso", out, sizeof(out));
		run_quiet(ARGV("perf", "script", "-i", data, "-F",
			       "pid,ip,dso"), out, "perf-dso.err");
		f = fopen(out, "r");
		ck_assert(f);
		snprintf(dso, sizeof(dso), "(%s)", child);
		snprintf(ev, sizeof(ev), "(%s)", bin);
		while (fgets(line, sizeof(line), f)) {
			char d[1024];

			if (atoi(field(line, 0, pt, sizeof(pt))) != child_pid)
				continue;
			/* before the exec: the forked copy of tasks */
			field(line, 2, d, sizeof(d));
			ck_assert_msg(strstr(d, "/libc.so.6)") ||
				      strstr(d, "/ld-linux-x86-64.so.2)") ||
				      !strcmp(d, dso) || (!seen && !strcmp(d, ev)),
				      "%s", line);
			seen |= !strcmp(d, dso);
		}
		fclose(f);
		ck_assert(seen);
	}
}
END_TEST

/*
 * --depth 0 with a period above the ring's first size (64): every sample
 * holds every branch since the previous one plus that one's newest (its
 * oldest entry), the first exactly @period, the last what was left; so
 * the entries add up to the taken branches record reports plus the
 * samples after the first.
 */
START_TEST(unbounded_ring)
{
	char bin[512], txt[512], errf[512], line[16384], prev[64] = "";
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "record",
			 "--engine=ptrace", "--format=perfscript", "-o", txt,
			 "--depth", "0", "--period", "100", "--", bin, "8", NULL };
	unsigned long long taken = 0, samples = 0, entries = 0, n;
	char *e, *p;
	FILE *f;

	wl("branches-nopie", bin, sizeof(bin));
	scratch("unbounded.ps", txt, sizeof(txt));
	scratch("unbounded.err", errf, sizeof(errf));
	ck_assert_int_eq(run_cmd(argv, NULL, errf), 0);
	e = slurp(errf, NULL);
	p = strstr(e, " taken branches, ");
	ck_assert_msg(p, "%s", e);
	while (p > e && p[-1] != ' ')
		p--;
	taken = strtoull(p, NULL, 10);
	ck_assert_msg(taken > 300, "%s", e);
	f = fopen(txt, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *w, *save = NULL, *last = NULL, *first = NULL;

		if (strstr(line, "PERF_RECORD_"))
			continue;
		n = 0;
		/* the ip, then the entries, newest first */
		for (w = strtok_r(line, " \n", &save); w;
		     w = strtok_r(NULL, " \n", &save)) {
			if (!strchr(w, '/'))
				continue;
			if (!n++)
				first = w;
			last = w;
		}
		ck_assert_msg(n == (samples ? 101 : 100) ||
			      (n < 101 && entries + n == taken + samples),
			      "sample %llu: %llu entries", samples, n);
		/* its oldest entry is the previous sample's newest */
		ck_assert_msg(!samples || !strcmp(last, prev),
			      "sample %llu starts with %s, not %s", samples,
			      last, prev);
		snprintf(prev, sizeof(prev), "%s", first);
		entries += n;
		samples++;
	}
	fclose(f);
	ck_assert_uint_gt(samples, 3);
	ck_assert_uint_eq(entries, taken + samples - 1);
	free(e);
}
END_TEST

Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *t = tcase_create("perf-6.1");

	tcase_set_timeout(t, 120);
	tcase_add_test(t, round_trip_sampled_pie);
	tcase_add_test(t, round_trip_full_trace_nopie);
	tcase_add_test(t, round_trip_multidso);
	tcase_add_test(t, round_trip_pipe);
	tcase_add_test(t, round_trip_from_exec);
	tcase_add_test(t, tasks);
	tcase_add_test(t, unbounded_ring);
	suite_add_tcase(s, t);
	t = tcase_create("multi-dso");
	tcase_set_timeout(t, 120);
	tcase_add_loop_test(t, multidso_counts, 0, 2);
	suite_add_tcase(s, t);
	return s;
}
