// SPDX-License-Identifier: GPL-2.0
/*
 * Finding binaries, symbols and source lines of a DSO however it was
 * shipped: the same recording of sortsearch-pie annotated from the
 * unstripped build, from a stripped copy whose debug file is found by
 * build-id, by .gnu_debuglink or from a debuginfod server (each must be
 * byte for byte the unstripped output), from a stripped copy without any
 * debug file and from a .dynsym-only build (the documented pseudo-symbol
 * output and warning), and from a missing file (exit 2 with the path).
 * lookup/setup.sh lays the variants out.
 */
#define _GNU_SOURCE

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli_tests.h"
#include "output/perfdata_write.h"
#include "resolve/elfbin.h"

#define WL "sortsearch-pie"

/* scratch/lookup-TAG/ with the variants of @wl and a recording of it. */
struct lk {
	char dir[512];
	char wl[512];
	char trace[600];
	char id[64];
};

static void lk_setup(struct lk *l, const char *tag, const char *wl)
{
	char setup[600], id[700], *s;
	char *rec[] = { (char *)env_path("BLOCKRANGE"), "record",
			"--engine=ptrace", "--format=perfscript", "-o",
			l->trace, "--depth", "32", "--period", "7", "--",
			l->wl, "48", NULL };
	char *sh[] = { "sh", setup, l->wl, l->dir, NULL };

	snprintf(id, sizeof(id), "lookup-%s", tag);
	scratch(id, l->dir, sizeof(l->dir));
	snprintf(l->wl, sizeof(l->wl), "%s/%s", env_path("BLOCKRANGE_WORKLOADS"),
		 wl);
	snprintf(setup, sizeof(setup), "%s/lookup/setup.sh",
		 env_path("BLOCKRANGE_LOOKUP"));
	ck_assert_int_eq(run_cmd(sh, NULL, NULL), 0);
	snprintf(l->trace, sizeof(l->trace), "%s/trace.perfscript", l->dir);
	ck_assert_int_eq(run_cmd(rec, NULL, NULL), 0);
	snprintf(id, sizeof(id), "%s/buildid", l->dir);
	s = slurp(id, NULL);
	ck_assert(strlen(s) > 30 && strlen(s) < sizeof(l->id));
	snprintf(l->id, sizeof(l->id), "%.*s", (int)strcspn(s, "\n"), s);
	free(s);
}

/*
 * The tests are about the workload's lookup: keep what a recording of the
 * executable alone would hold, its mmap line and the branch entries with
 * an end in it (record traces libc and ld.so too).  Frees @text.
 */
static char *exe_only(char *text, const char *wl)
{
	char *p = text, *out = malloc(strlen(text) * 2 + 16), *w = out, *m;
	uint64_t start = 0, len = 0;

	ck_assert_ptr_nonnull(out);
	while (*p) {
		char *eol = strchr(p, '\n'), *q, *save = NULL;

		ck_assert(eol);
		*eol = '\0';
		if (!strncmp(p, "PERF_RECORD_MMAP2 ", 18)) {
			if (strstr(p, wl)) {
				m = strchr(p, '[');
				ck_assert(m && sscanf(m, "[0x%" SCNx64 "(0x%" SCNx64 ")",
						      &start, &len) == 2);
				w += sprintf(w, "%s\n", p);
			}
		} else {
			/* the IP, then the entries that touch the mapping */
			q = strtok_r(p, " ", &save);
			w += sprintf(w, " %16s", q ? q : "");
			while ((q = strtok_r(NULL, " ", &save))) {
				uint64_t from = strtoull(q, NULL, 16);
				uint64_t to = strtoull(strchr(q, '/') + 1, NULL, 16);

				if (from - start < len || to - start < len)
					w += sprintf(w, " %s ", q);
			}
			*w++ = '\n';
		}
		p = eol + 1;
	}
	*w = '\0';
	free(text);
	return out;
}

/* The recording with its mmap path moved to @dir/NAME; returns the copy. */
static void moved(const struct lk *l, const char *variant, char *out,
		  size_t outsz)
{
	char *text = slurp(l->trace, NULL), *p, *r;
	char to[600];
	size_t from_len = strlen(l->wl), n = 0;

	text = exe_only(text, l->wl);
	snprintf(to, sizeof(to), "%s/%s/%s", l->dir, variant,
		 strrchr(l->wl, '/') + 1);
	r = malloc(strlen(text) * 2 + 4096);
	ck_assert_ptr_nonnull(r);
	for (p = text; *p;) {
		if (!strncmp(p, l->wl, from_len)) {
			n += (size_t)sprintf(r + n, "%s", to);
			p += from_len;
		} else {
			r[n++] = *p++;
		}
	}
	r[n] = '\0';
	snprintf(out, outsz, "%s/trace-%s.perfscript", l->dir, variant);
	spew(out, r);
	free(r);
	free(text);
}

/* annotate with @extra options; returns the status, output in files. */
static int annotate(const struct lk *l, const char *variant,
		    const char *const *extra, const char *tag, char *out,
		    char *err)
{
	char in[700];
	char *argv[24];
	size_t i = 0;

	moved(l, variant, in, sizeof(in));
	argv[i++] = (char *)env_path("BLOCKRANGE");
	argv[i++] = "annotate";
	argv[i++] = "-i";
	argv[i++] = in;
	argv[i++] = "--color=never";
	argv[i++] = "--no-debuginfod";
	/* nothing from the host's own debug directories */
	argv[i++] = "--debug-file-directory";
	argv[i++] = (char *)l->dir;
	argv[i++] = "--buildid-dir";
	argv[i++] = (char *)l->dir;
	for (; extra && *extra; extra++)
		argv[i++] = (char *)*extra;
	argv[i] = NULL;
	sprintf(out, "%s/%s.out", l->dir, tag);
	sprintf(err, "%s/%s.err", l->dir, tag);
	return run_cmd(argv, out, err);
}

static void same_files(const char *a, const char *b)
{
	char *x = slurp(a, NULL), *y = slurp(b, NULL);

	ck_assert_msg(*x && !strcmp(x, y), "%s and %s differ", a, b);
	free(x);
	free(y);
}

/* The one line of stderr is the summary: no warning. */
static void only_summary(const char *err)
{
	char *e = slurp(err, NULL);

	ck_assert_msg(!strncmp(e, "blockrange: ", 12) && strstr(e, " samples, ") &&
		      strchr(e, '\n') == e + strlen(e) - 1, "stderr:\n%s", e);
	free(e);
}

START_TEST(debug_file_by_build_id)
{
	struct lk l;
	char ro[700], re[700], so[700], se[700], dd[700];
	const char *ex[] = { "--debug-file-directory", dd, NULL };

	lk_setup(&l, "buildid", WL);
	snprintf(dd, sizeof(dd), "%s/debugdir", l.dir);
	ck_assert_int_eq(annotate(&l, "ref", NULL, "ref", ro, re), 0);
	ck_assert_int_eq(annotate(&l, "stripped", ex, "stripped", so, se), 0);
	same_files(ro, so);
	only_summary(se);
}
END_TEST

START_TEST(debug_file_by_debuglink)
{
	struct lk l;
	char ro[700], re[700], so[700], se[700];

	lk_setup(&l, "debuglink", WL);
	ck_assert_int_eq(annotate(&l, "ref", NULL, "ref", ro, re), 0);
	ck_assert_int_eq(annotate(&l, "linked", NULL, "linked", so, se), 0);
	same_files(ro, so);
	only_summary(se);
}
END_TEST

/* The JSON says where the symbols came from. */
START_TEST(json_names_the_debug_file)
{
	struct lk l;
	char so[700], se[700], dd[700], want[4096];
	const char *ex[] = { "--debug-file-directory", dd, "--format=json",
			     NULL };
	char *o;

	lk_setup(&l, "json", WL);
	snprintf(dd, sizeof(dd), "%s/debugdir", l.dir);
	ck_assert_int_eq(annotate(&l, "stripped", ex, "stripped", so, se), 0);
	o = slurp(so, NULL);
	snprintf(want, sizeof(want),
		 "\"debug_file\": \"%s/debugdir/.build-id/%.2s/%s.debug\", \"symbols_from\": \"debug symtab\"",
		 l.dir, l.id, l.id + 2);
	ck_assert_msg(strstr(o, want), "no %s in\n%.600s", want, o);
	free(o);
}
END_TEST

static int free_port(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM, 0), port;

	ck_assert_int_ge(fd, 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	port = ntohs(a.sin_port);
	close(fd);
	return port;
}

START_TEST(debug_file_from_debuginfod)
{
	struct lk l;
	char ro[700], re[700], so[700], se[700], served[700], db[700];
	char url[64], ports[16], cache[700], log[700];
	char *srv[] = { "debuginfod", "-F", served, "-p", ports, "-d", db,
			NULL };
	char poll[2048];
	/* a fresh client cache per try: a miss would be cached for minutes */
	char *find[] = { "sh", "-c", poll, NULL };
	pid_t pid;
	int i, st, ok = 0;

	if (access("/usr/bin/debuginfod", X_OK)) {
		fprintf(stderr, "lookup: debuginfod not installed (make deps); this test cannot run\n");
		ck_abort_msg("debuginfod is not installed");
	}
	lk_setup(&l, "debuginfod", WL);
	snprintf(served, sizeof(served), "%s/served", l.dir);
	snprintf(db, sizeof(db), "%s/debuginfod.sqlite", l.dir);
	snprintf(cache, sizeof(cache), "%s/client-cache", l.dir);
	snprintf(log, sizeof(log), "%s/debuginfod.log", l.dir);
	snprintf(ports, sizeof(ports), "%d", free_port());
	snprintf(url, sizeof(url), "http://127.0.0.1:%s", ports);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		freopen(log, "w", stdout);
		freopen(log, "a", stderr);
		execvp(srv[0], srv);
		_exit(127);
	}
	setenv("DEBUGINFOD_URLS", url, 1);
	snprintf(poll, sizeof(poll),
		 "rm -rf '%s/poll-cache' && DEBUGINFOD_CACHE_PATH='%s/poll-cache' debuginfod-find debuginfo %s",
		 l.dir, l.dir, l.id);
	setenv("DEBUGINFOD_CACHE_PATH", cache, 1);
	/* Until the server has scanned the directory (at most 60 s). */
	for (i = 0; i < 240 && !ok; i++) {
		struct timespec ts = { 0, 250000000 };

		ok = !run_cmd(find, NULL, NULL);
		if (!ok)
			nanosleep(&ts, NULL);
	}
	ck_assert_int_eq(annotate(&l, "ref", NULL, "ref", ro, re), 0);
	/* without --no-debuginfod this time */
	{
		char in[700];
		char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate",
				 "-i", in, "--color=never",
				 "--debug-file-directory", l.dir,
				 "--buildid-dir", l.dir, NULL };

		moved(&l, "stripped", in, sizeof(in));
		sprintf(so, "%s/dbgd.out", l.dir);
		sprintf(se, "%s/dbgd.err", l.dir);
		/* a fresh client cache: the file comes from the server */
		st = run_cmd(argv, so, se);
	}
	kill(pid, SIGTERM);
	waitpid(pid, NULL, 0);
	ck_assert_msg(ok, "debuginfod on %s never served %s (see %s)", url,
		      l.id, log);
	ck_assert_int_eq(st, 0);
	same_files(ro, so);
	only_summary(se);
}
END_TEST

START_TEST(stripped_without_debug_file)
{
	struct lk l;
	char so[700], se[700], want[4096];
	const char *ex[] = { NULL };
	char *o, *e;

	lk_setup(&l, "nodebug", WL);
	ck_assert_int_eq(annotate(&l, "stripped", ex, "stripped", so, se), 0);
	e = slurp(se, NULL);
	snprintf(want, sizeof(want),
		 "blockrange: warning: %s/stripped/" WL ": no symbol table and no debug file found (build-id %s; looked in %s/.build-id, %s/.build-id, beside it for its .gnu_debuglink, not debuginfod (DEBUGINFOD_URLS unset)): its code outside symbols is shown as " WL "+0xADDR pseudo-symbols\n",
		 l.dir, l.id, l.dir, l.dir);
	ck_assert_msg(!strncmp(e, want, strlen(want)), "stderr:\n%s\nnot\n%s",
		      e, want);
	o = slurp(so, NULL);
	/* One pseudo-symbol over the whole hot text, from _init's 0x1000. */
	ck_assert_msg(strstr(o, "         :\t" WL "+0x1000():\n"), "%.400s", o);
	ck_assert(!strstr(o, "cmp():"));
	free(o);
	free(e);
}
END_TEST

/* Only .dynsym: exported main is named, the static functions are not. */
START_TEST(dynsym_only)
{
	struct lk l;
	char so[700], se[700];
	const char *ex[] = { NULL };
	char *o, *e;

	lk_setup(&l, "dynsym", "sortsearch-rdynamic");
	ck_assert_int_eq(annotate(&l, "stripped", ex, "stripped", so, se), 0);
	o = slurp(so, NULL);
	e = slurp(se, NULL);
	ck_assert_msg(strstr(e, ": no symbol table (only .dynsym) and no debug file found"),
		      "%s", e);
	ck_assert_msg(strstr(e, "its code outside its .dynsym symbols is shown as sortsearch-rdynamic+0xADDR pseudo-symbols"),
		      "%s", e);
	ck_assert_msg(strstr(o, "         :\tmain():\n"), "%.400s", o);
	ck_assert_msg(strstr(o, "         :\tsortsearch-rdynamic+0x"), "%.400s",
		      o);
	ck_assert(!strstr(o, "cmp():"));
	free(o);
	free(e);
}
END_TEST

START_TEST(source_lines_from_the_debug_file)
{
	struct lk l;
	char ro[700], re[700], so[700], se[700], dd[700];
	const char *ref[] = { "--source", NULL };
	const char *ex[] = { "--source", "--debug-file-directory", dd, NULL };
	char *o;

	lk_setup(&l, "source", WL);
	snprintf(dd, sizeof(dd), "%s/debugdir", l.dir);
	ck_assert_int_eq(annotate(&l, "ref", ref, "ref", ro, re), 0);
	ck_assert_int_eq(annotate(&l, "stripped", ex, "stripped", so, se), 0);
	same_files(ro, so);
	o = slurp(ro, NULL);
	/* cmp()'s body, by the line numbers of workloads/sortsearch.c */
	ck_assert_msg(strstr(o, "/sortsearch.c:18\t\treturn x < y ? -1 : x > y;\n"),
		      "%.1200s", o);
	free(o);
}
END_TEST

/* "blocks: N counted" of a summary line */
static unsigned long counted(const char *err)
{
	char *e = slurp(err, NULL), *p = strstr(e, " blocks: ");
	unsigned long n = 0;

	ck_assert_msg(p && sscanf(p, " blocks: %lu counted", &n) == 1, "%s", e);
	free(e);
	return n;
}

START_TEST(missing_binary)
{
	struct lk l;
	char ro[700], re[700], so[700], se[700], want[4096];
	char *e, *o;

	lk_setup(&l, "missing", WL);
	ck_assert_int_eq(annotate(&l, "ref", NULL, "ref", ro, re), 0);
	ck_assert_int_eq(annotate(&l, "gone", NULL, "gone", so, se), 2);
	e = slurp(se, NULL);
	snprintf(want, sizeof(want),
		 "binary not found (%s/gone/" WL "), ", l.dir);
	ck_assert_msg(strstr(e, want), "%s", e);
	snprintf(want, sizeof(want),
		 "nothing to annotate: %lu blocks are in binaries that were not found (%s/gone/" WL "); install them (or their debug packages), or pass --symfs DIR\n",
		 counted(re), l.dir);
	ck_assert_msg(strstr(e, want), "%s\nlacks\n%s", e, want);
	o = slurp(so, NULL);
	ck_assert_str_eq(o, "");
	free(o);
	free(e);
}
END_TEST


/*
 * perf.data of a copy of the workload at OUT/rec/NAME (with build-ids);
 * the copy is then removed or replaced by the caller.
 */
static void record_copy(const struct lk *l, const char *src, char *data,
			size_t datasz, char *bin, size_t binsz)
{
	char cmd[2048];
	char *sh[] = { "sh", "-c", cmd, NULL };
	char *rec[] = { (char *)env_path("BLOCKRANGE"), "record",
			"--engine=ptrace", "-o", data, "--depth", "32",
			"--period", "7", "--", bin, "48", NULL };

	snprintf(bin, binsz, "%s/rec/" WL, l->dir);
	snprintf(data, datasz, "%s/rec.data", l->dir);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/rec' && cp '%s' '%s'",
		 l->dir, src, bin);
	ck_assert_int_eq(run_cmd(sh, NULL, NULL), 0);
	ck_assert_int_eq(run_cmd(rec, NULL, NULL), 0);
}

static int annotate_data(const struct lk *l, const char *data,
			 const char *cache, const char *tag, char *out,
			 char *err)
{
	char *argv[] = { (char *)env_path("BLOCKRANGE"), "annotate", "-i",
			 (char *)data, "--color=never", "--no-debuginfod",
			 "--dso", WL, "--debug-file-directory", (char *)l->dir,
			 "--buildid-dir", (char *)cache, NULL };

	sprintf(out, "%s/%s.out", l->dir, tag);
	sprintf(err, "%s/%s.err", l->dir, tag);
	return run_cmd(argv, out, err);
}

/*
 * perf.data records the build-id: with the binary gone from its recorded
 * path, perf's build-id cache (the stripped binary as .../elf and its debug
 * file as .../debug) gives the same annotation.
 */
START_TEST(perf_buildid_cache)
{
	struct lk l;
	char data[700], bin[700], ro[700], re[700], co[700], ce[700];
	char cache[700], want[1200];
	char *e;

	lk_setup(&l, "cache", WL);
	record_copy(&l, l.wl, data, sizeof(data), bin, sizeof(bin));
	ck_assert_int_eq(annotate_data(&l, data, l.dir, "present", ro, re), 0);
	ck_assert_int_eq(unlink(bin), 0);
	snprintf(cache, sizeof(cache), "%s/cache", l.dir);
	ck_assert_int_eq(annotate_data(&l, data, cache, "cached", co, ce), 0);
	same_files(ro, co);
	/* and without the cache: not found, with the path and build-id */
	ck_assert_int_eq(annotate_data(&l, data, l.dir, "gone", co, ce), 2);
	e = slurp(ce, NULL);
	snprintf(want, sizeof(want),
		 "binary not found (%s build-id %s)", bin, l.id);
	ck_assert_msg(strstr(e, want), "%s\nlacks\n%s", e, want);
	free(e);
}
END_TEST

/* Another build at the recorded path: a warning, its blocks skipped. */
START_TEST(build_id_mismatch)
{
	struct lk l;
	char data[700], bin[700], o[700], e[700], other[700], want[1600];
	char cmd[2048];
	char *sh[] = { "sh", "-c", cmd, NULL };
	char *text;
	uint8_t id[20];
	char hex[41];
	int n, i;

	lk_setup(&l, "mismatch", WL);
	record_copy(&l, l.wl, data, sizeof(data), bin, sizeof(bin));
	snprintf(other, sizeof(other), "%s/sortsearch-rdynamic",
		 env_path("BLOCKRANGE_WORKLOADS"));
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", other, bin);
	ck_assert_int_eq(run_cmd(sh, NULL, NULL), 0);
	n = eb_file_build_id(bin, id);
	ck_assert_int_gt(n, 0);
	for (i = 0; i < n; i++)
		sprintf(hex + 2 * i, "%02x", id[i]);
	ck_assert_int_eq(annotate_data(&l, data, l.dir, "mismatch", o, e), 2);
	text = slurp(e, NULL);
	snprintf(want, sizeof(want),
		 "blockrange: warning: %s has build-id %s, the profile recorded %s; its samples are skipped\n",
		 bin, hex, l.id);
	ck_assert_msg(!strncmp(text, want, strlen(want)), "%s\nnot\n%s", text,
		      want);
	ck_assert_msg(strstr(text, " 0 counted, 0 DSOs annotated;"), "%s", text);
	ck_assert_msg(strstr(text, "blocks are in binaries whose build-id differs from the recorded one"),
		      "%s", text);
	free(text);
	text = slurp(o, NULL);
	ck_assert_str_eq(text, "");
	free(text);
}
END_TEST

Suite *lookup_suite(void)
{
	Suite *s = suite_create("lookup");
	TCase *t = tcase_create("lookup");

	tcase_set_timeout(t, 90);
	tcase_add_test(t, debug_file_by_build_id);
	tcase_add_test(t, debug_file_by_debuglink);
	tcase_add_test(t, json_names_the_debug_file);
	tcase_add_test(t, debug_file_from_debuginfod);
	tcase_add_test(t, stripped_without_debug_file);
	tcase_add_test(t, dynsym_only);
	tcase_add_test(t, source_lines_from_the_debug_file);
	tcase_add_test(t, missing_binary);
	tcase_add_test(t, perf_buildid_cache);
	tcase_add_test(t, build_id_mismatch);
	suite_add_tcase(s, t);
	return s;
}
