// SPDX-License-Identifier: GPL-2.0
/*
 * The perf.data reader through `blockrange script` ($BLOCKRANGE):
 *
 *  - oracle: every input of $BLOCKRANGE_PD_ORACLE/manifest (the generated
 *    variants of gen_perfdata.py and the files perf 6.1 recorded at build
 *    time, see perf_oracle.py): `script` equals perf's
 *    `perf script -F ip,brstack` byte for byte, and `script --dump-events`
 *    equals perf's sample and side-band lines (normalised), in order;
 *  - stdin: the same output from -i - on a regular file and on a pipe;
 *  - fixtures: the perf 4.14 file byte for byte, the perf 6.12 pipe file
 *    against its perf script text (comm, tid, ip), perf script text in;
 *  - statistics perf also reports (out of order events, unknown records);
 *  - call chains: the frames perf prints, in its order, markers left out;
 *  - the hostile corpus (bad-perfdata/NAME.expect, NAME.data in $BLOCKRANGE_PD_BAD),
 *    each by name, on stdin and through a pipe;
 *  - the replay of the fuzz harness on the committed corpus, the
 *    generated variants and the hostile files.
 * Inputs perf could not make are listed in the manifest's "skipped" file
 * and printed as SKIP, never run as passing tests.
 */
#define _POSIX_C_SOURCE 200809L

#include <dirent.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli_tests.h"
#include "input/perfdata.h"

int perfdata_fuzz_one(const uint8_t *data, size_t size);

#define MAX_ENTRIES 1024
#define NAME_LEN 64

static char oracle[MAX_ENTRIES][NAME_LEN];
static int nr_oracle;
static char bad[MAX_ENTRIES][NAME_LEN];
static int nr_bad;
static char replay[2 * MAX_ENTRIES][600];
/* Files and manifest lines that did not fit the tables above. */
static int nr_left_out;
static int nr_replay;

/*
 * Run BLOCKRANGE with @args; stdin from @in (NULL: /dev/null), through a
 * pipe fed by a child when @piped.  Output to files.  The exit status.
 */
static int run_in(char *const args[], const char *in, bool piped,
		  const char *out, const char *err)
{
	char *argv[16];
	int n = 0, st, fds[2] = { -1, -1 };
	pid_t pid, feeder = -1;

	argv[n++] = (char *)env_path("BLOCKRANGE");
	for (; *args; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	fflush(NULL);
	if (piped) {
		ck_assert(!pipe(fds));
		feeder = fork();
		ck_assert(feeder >= 0);
		if (!feeder) {
			int f = open(in, O_RDONLY);
			char buf[4096];
			ssize_t r;

			close(fds[0]);
			if (f < 0)
				_exit(1);
			while ((r = read(f, buf, sizeof(buf))) > 0)
				if (write(fds[1], buf, (size_t)r) != r)
					_exit(0);	/* reader quit early */
			_exit(0);
		}
		close(fds[1]);
	}
	pid = fork();
	ck_assert(pid >= 0);
	if (!pid) {
		int o = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int e = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int i = piped ? fds[0] : open(in ? in : "/dev/null", O_RDONLY);

		if (o < 0 || e < 0 || i < 0)
			_exit(126);
		dup2(o, 1);
		dup2(e, 2);
		dup2(i, 0);
		execv(argv[0], argv);
		_exit(127);
	}
	if (piped)
		close(fds[0]);
	ck_assert(waitpid(pid, &st, 0) == pid);
	if (feeder > 0)
		waitpid(feeder, NULL, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static const char *odir(void)
{
	return env_path("BLOCKRANGE_PD_ORACLE");
}

/* Our --dump-events without the A/B lines (perf prints neither). */
static char *dump_events(const char *data, bool no_cpu)
{
	char out[512], err[512];
	char *args[] = { "script", "--dump-events", "-i", (char *)data, NULL };
	char *text, *p, *q;

	scratch("pd-dump.out", out, sizeof(out));
	scratch("pd-dump.err", err, sizeof(err));
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	text = slurp(out, NULL);
	for (p = q = text; *p;) {
		char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) + 1 : strlen(p);

		/*
		 * perf 6.1's script prints no PERF_RECORD_LOST_SAMPLES, even
		 * with --show-lost-events (a loaded machine makes them).
		 */
		if (p[0] != 'A' && p[0] != 'B' &&
		    strncmp(p, "R LOST_SAMPLES ", 15)) {
			memmove(q, p, len);
			if (no_cpu && q[0] == 'S') {
				char *c = strstr(q, " [");

				if (c && c < q + len) {
					char *e = strchr(c, ']');

					memmove(c, e + 1, strlen(e + 1) + 1);
					len -= (size_t)(e + 1 - c);
				}
			}
			q += len;
		}
		p += len;
	}
	*q = '\0';
	return text;
}

START_TEST(oracle_input)
{
	const char *name = oracle[_i];
	char data[512], want[512], out[512], err[512];
	char *args[] = { "script", "-i", data, NULL };
	char *a, *b, *ev;
	bool no_cpu;

	snprintf(data, sizeof(data), "%s/%s.data", odir(), name);
	snprintf(want, sizeof(want), "%s/%s.brstack", odir(), name);
	scratch("pd-oracle.out", out, sizeof(out));
	scratch("pd-oracle.err", err, sizeof(err));
	ck_assert_msg(run_in(args, NULL, false, out, err) == 0, "%s: %s", name,
		      slurp(err, NULL));
	a = slurp(out, NULL);
	b = slurp(want, NULL);
	ck_assert_msg(*b, "%s: perf printed no sample", name);
	ck_assert_msg(!strcmp(a, b), "%s: script output differs from perf's", name);
	free(a);
	free(b);

	snprintf(want, sizeof(want), "%s/%s.events", odir(), name);
	b = slurp(want, NULL);
	no_cpu = !strncmp(b, "# no-cpu\n", 9);
	ev = dump_events(data, no_cpu);
	ck_assert_msg(!strcmp(ev, no_cpu ? b + 9 : b),
		      "%s: events differ from perf's", name);
	free(ev);
	free(b);
}
END_TEST

/* -i - on a regular file and through a pipe: the same as by name. */
START_TEST(stdin_forms)
{
	static const char *const names[] = {
		"basic-file-le", "basic-pipe-be", "compressed-file-le",
		"compressed-pipe-le", "rounds-pipe-le", "allbits-file-be",
	};
	const char *name = names[_i];
	char data[512], out[512], err[512], out2[512];
	char *args[] = { "script", "-i", data, NULL };
	char *dash[] = { "script", "-i", "-", NULL };
	char *a, *b;

	snprintf(data, sizeof(data), "%s/%s.data", odir(), name);
	scratch("pd-stdin.out", out, sizeof(out));
	scratch("pd-stdin2.out", out2, sizeof(out2));
	scratch("pd-stdin.err", err, sizeof(err));
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	a = slurp(out, NULL);
	ck_assert(*a);
	for (int piped = 0; piped < 2; piped++) {
		ck_assert_msg(run_in(dash, data, piped, out2, err) == 0,
			      "%s piped=%d: %s", name, piped, slurp(err, NULL));
		b = slurp(out2, NULL);
		ck_assert_msg(!strcmp(a, b), "%s piped=%d differs", name, piped);
		free(b);
	}
	free(a);
}
END_TEST

/*
 * -j 2 and -j 3 print what -j 1 prints, in units of 64 bytes: samples read
 * in place in the mapped file (file mode, both byte orders), copied
 * (decompressed, pipe mode) and both in one file (compressed records
 * between plain ones).
 */
START_TEST(jobs_in_place)
{
	static const char *const names[] = {
		"basic-file-le", "basic-pipe-be", "compressed-file-le",
		"compressed-pipe-le", "rounds-pipe-le", "allbits-file-be",
	};
	const char *name = names[_i];
	char data[512], out[512], err[512], out2[512], err2[512];
	char *args[] = { "script", "-j", "1", "-i", data, NULL };
	char *a, *b, *ea, *eb;
	int st1;

	snprintf(data, sizeof(data), "%s/%s.data", odir(), name);
	scratch("pd-j1.out", out, sizeof(out));
	scratch("pd-j1.err", err, sizeof(err));
	scratch("pd-jn.out", out2, sizeof(out2));
	scratch("pd-jn.err", err2, sizeof(err2));
	setenv("BLOCKRANGE_PAR_UNIT", "64", 1);
	st1 = run_in(args, NULL, false, out, err);
	ck_assert_msg(st1 == 0, "%s: %s", name, slurp(err, NULL));
	a = slurp(out, NULL);
	ea = slurp(err, NULL);
	ck_assert(*a);
	for (int j = 2; j <= 3; j++) {
		args[2] = j == 2 ? "2" : "3";
		ck_assert_int_eq(run_in(args, NULL, false, out2, err2), st1);
		b = slurp(out2, NULL);
		eb = slurp(err2, NULL);
		ck_assert_msg(!strcmp(a, b), "%s -j %d: stdout differs", name,
			      j);
		ck_assert_str_eq(ea, eb);
		free(b);
		free(eb);
	}
	free(a);
	free(ea);
}
END_TEST

START_TEST(fixture_branch_414)
{
	char data[512], want[600], out[512], err[512];
	char *args[] = { "script", "-i", data, NULL };
	char *a, *b;

	snprintf(data, sizeof(data), "%s/perf.data.branch-4.14",
		 env_path("BLOCKRANGE_PD_FIXTURES"));
	snprintf(want, sizeof(want), "%s.brstack.txt", data);
	scratch("pd-414.out", out, sizeof(out));
	scratch("pd-414.err", err, sizeof(err));
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	a = slurp(out, NULL);
	b = slurp(want, NULL);
	ck_assert_msg(!strcmp(a, b), "perf.data.branch-4.14: differs from perf 6.1's");
	free(a);
	free(b);
	/* the text perf printed, read back (by name, from a pipe): the same */
	args[2] = want;
	b = slurp(want, NULL);
	for (int piped = 0; piped < 2; piped++) {
		char *dash[] = { "script", "-i", "-", NULL };

		ck_assert_int_eq(piped ? run_in(dash, want, true, out, err) :
					 run_in(args, NULL, false, out, err), 0);
		a = slurp(out, NULL);
		ck_assert_msg(!strcmp(a, b), "perf script text read back differs (piped %d)",
			      piped);
		free(a);
	}
	free(b);
}
END_TEST

/*
 * The perf 6.12 pipe file: its samples' comm (from the COMM records),
 * tid and ip against perf 6.1's `-F comm,tid,ip,sym` text.
 */
/*
 * A file-mode perf.data on a pipe is copied to a temporary file in TMPDIR
 * first: a TMPDIR that cannot hold one is a clear error (status 1), not a
 * crash or an empty result, and so is a full disk there; an empty TMPDIR
 * means /tmp.
 */
START_TEST(pipe_needs_a_temporary_file)
{
	static const struct {
		const char *dir, *why;
	} bad[] = {
		{ "/nonexistent-blockrange-dir", "No such file or directory" },
		{ "/dev/null", "Not a directory" },
	};
	char data[512], out[512], err[512], msg[700];
	char *args[] = { "script", "-i", data, NULL };
	char *dash[] = { "script", "-i", "-", NULL };
	char *a, *b;

	snprintf(data, sizeof(data), "%s/perf.data.branch-4.14",
		 env_path("BLOCKRANGE_PD_FIXTURES"));
	scratch("pd-tmp.out", out, sizeof(out));
	scratch("pd-tmp.err", err, sizeof(err));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ck_assert(!setenv("TMPDIR", bad[i].dir, 1));
		ck_assert_int_eq(run_in(dash, data, true, out, err), 1);
		snprintf(msg, sizeof(msg),
			 "blockrange: <stdin>: cannot make a temporary file in %s for a file-mode perf.data on a pipe: %s\n",
			 bad[i].dir, bad[i].why);
		b = slurp(err, NULL);
		ck_assert_str_eq(b, msg);
		free(b);
		b = slurp(out, NULL);
		ck_assert_str_eq(b, "");
		free(b);
	}
	/* a full disk under TMPDIR: the copy cannot be written */
	{
		char sh[2048];
		char *argv[] = { "sh", "-c", sh, NULL };

		ck_assert(!setenv("TMPDIR", "", 1));
		snprintf(sh, sizeof(sh),
			 "cat '%s' | { LD_PRELOAD='%s/fullfs.so' ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0\" '%s' script -i - 2>&1 >/dev/null; echo status $?; } | cat",
			 data, env_path("BLOCKRANGE_TOOLS"),
			 env_path("BLOCKRANGE"));
		ck_assert_int_eq(run_cmd(argv, err, NULL), 0);
		b = slurp(err, NULL);
		ck_assert_str_eq(b, "blockrange: <stdin>: cannot write the temporary copy of the input: File too large\nstatus 1\n");
		free(b);
	}
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	a = slurp(out, NULL);
	ck_assert(*a);
	ck_assert(!setenv("TMPDIR", "", 1));
	ck_assert_int_eq(run_in(dash, data, true, out, err), 0);
	b = slurp(out, NULL);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	unsetenv("TMPDIR");
}
END_TEST

START_TEST(fixture_pipe_612)
{
	char data[512], want[600];
	char comm[64] = "", line[256], got[8192] = "";
	char *ev, *p, *b, *wl;
	size_t o = 0;

	snprintf(data, sizeof(data), "%s/perf.data.piped.header_features_aligned-6.12",
		 env_path("BLOCKRANGE_PD_FIXTURES"));
	snprintf(want, sizeof(want), "%s.script.txt", data);
	ev = dump_events(data, false);
	for (p = strtok(ev, "\n"); p; p = strtok(NULL, "\n")) {
		int pid, tid;
		unsigned long long ip;
		char c[64];

		if (sscanf(p, "R COMM exec: %63[^:]:%d/%d", c, &pid, &tid) == 3 ||
		    sscanf(p, "R COMM: %63[^:]:%d/%d", c, &pid, &tid) == 3)
			strcpy(comm, c);
		if (sscanf(p, "S %d/%d %*s %*s %*s %llx", &pid, &tid, &ip) == 3) {
			snprintf(line, sizeof(line), "%s %d %llx\n", comm, tid, ip);
			ck_assert(o + strlen(line) < sizeof(got));
			strcpy(got + o, line);
			o += strlen(line);
		}
	}
	free(ev);
	/* perf's lines: "%16s %7d %16llx SYMBOL" -> "comm tid ip" */
	b = slurp(want, NULL);
	{
		char norm[8192] = "";
		size_t n = 0;

		for (wl = strtok(b, "\n"); wl; wl = strtok(NULL, "\n")) {
			char c[64];
			int tid;
			unsigned long long ip;

			ck_assert(sscanf(wl, "%63s %d %llx", c, &tid, &ip) == 3);
			snprintf(line, sizeof(line), "%s %d %llx\n", c, tid, ip);
			strcpy(norm + n, line);
			n += strlen(line);
		}
		ck_assert_msg(n > 0 && !strcmp(got, norm), "got\n%s\nwant\n%s",
			      got, norm);
	}
	free(b);
}
END_TEST

/* Statistics that perf reports too. */
START_TEST(stats_match_perf)
{
	char data[512], out[512], err[512];
	char *args[] = { "script", "--stats", "-i", data, NULL };
	char *e;

	scratch("pd-stats.out", out, sizeof(out));
	scratch("pd-stats.err", err, sizeof(err));
	/* perf 6.1: "2 out of order events recorded." */
	snprintf(data, sizeof(data), "%s/rounds-file-le.data", odir());
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "out of order 2,"), "%s", e);
	ck_assert_msg(strstr(e, "time order"), "%s", e);
	free(e);
	/* two record types it does not know (100 and 25), skipped */
	snprintf(data, sizeof(data), "%s/unknown-pipe-be.data", odir());
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "unknown records skipped 2,"), "%s", e);
	ck_assert_msg(strstr(e, "perf.data (pipe mode), byte-swapped"), "%s", e);
	free(e);
	/* three compressed records, one sample split between two */
	snprintf(data, sizeof(data), "%s/compressed-file-le.data", odir());
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "compressed 3 ("), "%s", e);
	ck_assert_msg(strstr(e, "samples 12 ("), "%s", e);
	free(e);
	/* names from the pipe's EVENT_DESC feature record; record counts */
	snprintf(data, sizeof(data), "%s/multi-pipe-be.data", odir());
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "events: cycles:u, branches:u, cpu-clock:u\n"), "%s", e);
	ck_assert_msg(strstr(e, "records by type: MMAP 1, COMM 2, FORK 1, SAMPLE 9, MMAP2 1, HEADER_ATTR 3, FINISHED_ROUND 1, HEADER_FEATURE 1\n"),
		      "%s", e);
	free(e);
	/* sample_id_all unset in file mode: perf does not sort */
	snprintf(data, sizeof(data), "%s/nosidall-file-le.data", odir());
	ck_assert_int_eq(run_in(args, NULL, false, out, err), 0);
	e = slurp(err, NULL);
	ck_assert_msg(strstr(e, "file order"), "%s", e);
	free(e);
}
END_TEST

/* The call chains the reader delivers: up to 4 samples of 4 frames. */
struct chains {
	size_t samples;
	size_t nr[4];
	uint64_t ip[4][4];
};

static int chain_sample(void *arg, const struct ev_sample *s, char *e,
			size_t n)
{
	struct chains *c = arg;

	(void)e;
	(void)n;
	ck_assert_uint_lt(c->samples, 4);
	ck_assert_uint_le(s->callchain_nr, 4);
	ck_assert(!s->callchain_nr == !s->callchain);
	c->nr[c->samples] = s->callchain_nr;
	if (s->callchain_nr)
		memcpy(c->ip[c->samples], s->callchain,
		       s->callchain_nr * sizeof(*s->callchain));
	c->samples++;
	return 0;
}

/*
 * gen_perfdata.py's scenario "callchain" in every mode and byte order:
 * perf 6.1 prints 3, 3, 2 and 0 frame lines for its four samples (a
 * leading PERF_CONTEXT_USER, a kernel frame after PERF_CONTEXT_KERNEL then
 * the user frames, no marker at all, an empty chain), innermost first.
 */
START_TEST(callchain_frames)
{
	static const char *const variant[] = { "file-le", "file-be",
					       "pipe-le", "pipe-be" };
	static const uint64_t want[4][3] = {
		{ 0x401234, 0x402345, 0x7f0000001000 },
		{ 0xffffffff81001000, 0x401234, 0x402345 },
		{ 0x401234, 0x402345 },
		{ 0 },
	};
	static const size_t want_nr[4] = { 3, 3, 2, 0 };
	char path[512], msg[PD_ERR_MAX];
	struct chains c = { 0 };
	struct ev_sink sink = { 0 };
	size_t len, i, k;
	char *data;

	snprintf(path, sizeof(path), "%s/callchain-%s.data", odir(),
		 variant[_i]);
	data = slurp(path, &len);
	sink.sample = chain_sample;
	sink.arg = &c;
	ck_assert_msg(!pd_read_mem((const uint8_t *)data, len, path, NULL,
				   &sink, NULL, msg, sizeof(msg)), "%s", msg);
	ck_assert_uint_eq(c.samples, 4);
	for (i = 0; i < 4; i++) {
		ck_assert_uint_eq(c.nr[i], want_nr[i]);
		for (k = 0; k < want_nr[i]; k++)
			ck_assert_uint_eq(c.ip[i][k], want[i][k]);
	}
	free(data);
}
END_TEST

static void expect_line(const char *path, const char *key, char *v, size_t vsz)
{
	char *text = slurp(path, NULL), *p;
	size_t n = strlen(key);

	v[0] = '\0';
	for (p = strtok(text, "\n"); p; p = strtok(NULL, "\n")) {
		if (!strncmp(p, key, n) && p[n] == ':' && p[n + 1] == ' ') {
			ck_assert(strlen(p + n + 2) < vsz);
			strcpy(v, p + n + 2);
		}
	}
	free(text);
}

/* "%I" in @t replaced by @in. */
static void subst_input(const char *t, const char *in, char *o, size_t osz)
{
	const char *at = strstr(t, "%I");

	ck_assert(at);
	ck_assert(strlen(t) + strlen(in) < osz);
	snprintf(o, osz, "%.*s%s%s", (int)(at - t), t, in, at + 2);
}

START_TEST(bad_class)
{
	const char *name = bad[_i];
	char ex[512], data[512], out[512], err[512], want[1024], msg[1024];
	char status[16], args_s[64];
	char *args[] = { "script", "-i", data, NULL };
	char *dash[] = { "script", "-i", "-", NULL };

	snprintf(ex, sizeof(ex), "%s/%s.expect", env_path("BLOCKRANGE_PD_EXPECT"),
		 name);
	snprintf(data, sizeof(data), "%s/%s.data", env_path("BLOCKRANGE_PD_BAD"),
		 name);
	expect_line(ex, "exit", status, sizeof(status));
	expect_line(ex, "args", args_s, sizeof(args_s));
	expect_line(ex, "stderr", msg, sizeof(msg));
	ck_assert_str_eq(args_s, "script -i %I");
	scratch("pd-bad.out", out, sizeof(out));
	scratch("pd-bad.err", err, sizeof(err));
	for (int form = 0; form < 3; form++) {
		char *e, *o;
		int st;

		if (form == 0)
			st = run_in(args, NULL, false, out, err);
		else
			st = run_in(dash, data, form == 2, out, err);
		subst_input(msg, form ? "<stdin>" : data, want, sizeof(want));
		strcat(want, "\n");
		e = slurp(err, NULL);
		o = slurp(out, NULL);
		ck_assert_msg(st == atoi(status), "%s form %d: status %d", name,
			      form, st);
		ck_assert_msg(!strcmp(e, want), "%s form %d: stderr\n%s\nnot\n%s",
			      name, form, e, want);
		ck_assert_msg(!*o, "%s form %d: output on an error", name, form);
		free(e);
		free(o);
	}
}
END_TEST

START_TEST(bad_corpus_size)
{
	ck_assert_msg(nr_bad >= 25, "only %d hostile perf.data classes", nr_bad);
}
END_TEST

START_TEST(replay_one)
{
	size_t len;
	char *data = slurp(replay[_i], &len);

	ck_assert_int_eq(perfdata_fuzz_one((const uint8_t *)data, len), 0);
	free(data);
}
END_TEST

static int cmp_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* NAME of every DIR/NAME.SUFFIX (or every file when @suffix is ""). */
static int scan(const char *dir, const char *suffix, char (*names)[NAME_LEN],
		int max)
{
	struct dirent *d;
	DIR *dp = dir ? opendir(dir) : NULL;
	int n = 0;
	size_t sl = strlen(suffix);

	if (!dp)
		return 0;
	while ((d = readdir(dp))) {
		size_t l = strlen(d->d_name);

		if (d->d_name[0] == '.' || l <= sl ||
		    strcmp(d->d_name + l - sl, suffix))
			continue;
		if (l - sl >= NAME_LEN || n == max) {
			nr_left_out++;
			continue;
		}
		memcpy(names[n], d->d_name, l - sl);
		names[n][l - sl] = '\0';
		n++;
	}
	closedir(dp);
	qsort(names, (size_t)n, NAME_LEN, cmp_name);
	return n;
}

static void add_replay(const char *dir, const char *name, const char *suffix)
{
	if (nr_replay < 2 * MAX_ENTRIES &&
	    strlen(dir) + strlen(name) + strlen(suffix) + 2 < sizeof(replay[0]))
		snprintf(replay[nr_replay++], sizeof(replay[0]), "%.300s/%.63s%.16s",
			 dir, name, suffix);
	else
		nr_left_out++;
}

/* Every file of the corpora and every manifest line has a test. */
START_TEST(nothing_is_left_out)
{
	ck_assert_msg(nr_left_out == 0,
		      "%d files or manifest lines did not fit the suite's tables (MAX_ENTRIES %d, names < %d bytes)",
		      nr_left_out, MAX_ENTRIES, NAME_LEN);
}
END_TEST

Suite *perfdata_suite(void)
{
	Suite *s = suite_create("perfdata");
	TCase *t = tcase_create("oracle");
	TCase *b = tcase_create("hostile");
	TCase *r = tcase_create("replay");
	const char *od = getenv("BLOCKRANGE_PD_ORACLE");
	static char corpus[MAX_ENTRIES][NAME_LEN];
	char path[512];
	FILE *f;
	int i, n;

	if (od) {
		snprintf(path, sizeof(path), "%s/manifest", od);
		f = fopen(path, "r");
		while (f && fscanf(f, "%63s %*s %*s", oracle[nr_oracle]) == 1)
			if (++nr_oracle == MAX_ENTRIES)
				break;
		if (f && nr_oracle == MAX_ENTRIES && fscanf(f, "%*s") != EOF)
			nr_left_out++;
		if (f)
			fclose(f);
		snprintf(path, sizeof(path), "%s/skipped", od);
		f = fopen(path, "r");
		while (f && fgets(path, sizeof(path), f))
			fprintf(stderr, "perfdata: SKIP (not run, not counted) %s",
				path);
		if (f)
			fclose(f);
	}
	tcase_add_test(t, fixture_branch_414);
	tcase_add_test(t, fixture_pipe_612);
	tcase_add_test(t, pipe_needs_a_temporary_file);
	if (nr_oracle) {
		tcase_add_loop_test(t, oracle_input, 0, nr_oracle);
		tcase_add_loop_test(t, stdin_forms, 0, 6);
		tcase_add_loop_test(t, jobs_in_place, 0, 6);
		tcase_add_test(t, stats_match_perf);
		tcase_add_loop_test(t, callchain_frames, 0, 4);
	} else {
		fprintf(stderr, "perfdata: SKIP (not run, not counted) no perf 6.1 oracle files in %s\n",
			od ? od : "(BLOCKRANGE_PD_ORACLE unset)");
	}
	tcase_set_timeout(t, 60);
	suite_add_tcase(s, t);

	nr_bad = scan(getenv("BLOCKRANGE_PD_EXPECT"), ".expect", bad,
		      MAX_ENTRIES);
	tcase_add_test(b, bad_corpus_size);
	if (nr_bad)
		tcase_add_loop_test(b, bad_class, 0, nr_bad);
	tcase_set_timeout(b, 60);
	suite_add_tcase(s, b);

	/* replay: committed corpus, hostile files, generated variants */
	n = scan(getenv("BLOCKRANGE_PD_CORPUS"), "", corpus, MAX_ENTRIES);
	for (i = 0; i < n; i++)
		add_replay(getenv("BLOCKRANGE_PD_CORPUS"), corpus[i], "");
	for (i = 0; i < nr_bad; i++)
		add_replay(getenv("BLOCKRANGE_PD_BAD"), bad[i], ".data");
	for (i = 0; i < nr_oracle; i++)
		if (!strncmp(oracle[i], "rec-", 4) ||
		    strstr(oracle[i], "-le") || strstr(oracle[i], "-be"))
			add_replay(od, oracle[i], ".data");
	if (nr_replay)
		tcase_add_loop_test(r, replay_one, 0, nr_replay);
	tcase_add_test(r, nothing_is_left_out);
	tcase_set_timeout(r, 60);
	suite_add_tcase(s, r);
	return s;
}
