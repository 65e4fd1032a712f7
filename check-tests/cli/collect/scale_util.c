// SPDX-License-Identifier: GPL-2.0
/*
 * The scale suite's shared recordings and runners (scale_tests.h).
 */
#define _GNU_SOURCE

#include "cli_tests.h"
#include "scale_tests.h"

#include <endian.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const struct fixture sc_fixtures[] = {
	{ "scale-md", "ip,brstack", false, false, "multidso-pie",
	  { "300", "300", "16", NULL } },
	{ "scale-tasks", "comm,pid,tid,time,ip,brstack", true, false, "tasks",
	  { "300", "%W/branches-nopie", "300", NULL } },
	{ "scale-md-pipe", "ip,brstack", false, true, "multidso-nopie",
	  { "200", "200", "8", NULL } },
	/* BOLT's oracle only: perf2bolt reads no pipe-mode perf.data */
	{ "scale-mdn", "ip,brstack", false, false, "multidso-nopie",
	  { "200", "200", "8", NULL } },
};

static bool exists(const char *path)
{
	struct stat sb;

	return !stat(path, &sb) && sb.st_size > 0;
}

/* NAME.data and NAME.txt of fixture @i, recorded if missing. */
void sc_fixture(size_t i, char *data, size_t dsz, char *txt, size_t tsz)
{
	const struct fixture *f = &sc_fixtures[i];
	char tag[128], prog[512], out[512], errf[512], wl[4][512];
	char *argv[32];
	size_t n = 0, k;

	snprintf(tag, sizeof(tag), "%s.data", f->name);
	scratch(tag, data, dsz);
	snprintf(tag, sizeof(tag), "%s.txt", f->name);
	scratch(tag, txt, tsz);
	if (exists(data) && exists(txt))
		return;
	snprintf(prog, sizeof(prog), "%s/%s", env_path("BLOCKRANGE_WORKLOADS"),
		 f->prog);
	snprintf(tag, sizeof(tag), "%s.rec-err", f->name);
	scratch(tag, errf, sizeof(errf));
	argv[n++] = (char *)env_path("BLOCKRANGE");
	argv[n++] = "record";
	argv[n++] = "--engine=ptrace";
	argv[n++] = "-o";
	argv[n++] = f->pipe ? "-" : data;
	argv[n++] = "--script-copy";
	argv[n++] = txt;
	argv[n++] = "-F";
	argv[n++] = (char *)f->fields;
	if (f->tasks)
		argv[n++] = "--show-task-events";
	argv[n++] = "--depth";
	argv[n++] = "32";
	argv[n++] = "--period";
	argv[n++] = "7";
	argv[n++] = "--";
	argv[n++] = prog;
	for (k = 0; f->args[k]; k++) {
		if (!strncmp(f->args[k], "%W/", 3)) {
			snprintf(wl[k], sizeof(wl[k]), "%s/%s",
				 env_path("BLOCKRANGE_WORKLOADS"),
				 f->args[k] + 3);
			argv[n++] = wl[k];
		} else {
			argv[n++] = (char *)f->args[k];
		}
	}
	argv[n] = NULL;
	/* pipe mode: the program's stdout goes to stderr */
	snprintf(tag, sizeof(tag), "%s.rec-out", f->name);
	scratch(tag, out, sizeof(out));
	ck_assert_msg(run_cmd(argv, f->pipe ? data : out, errf) == 0,
		      "record %s failed (%s)", f->prog, errf);
}

/* The same through `cat INPUT | blockrange ... -i -`. */
int sc_br_pipe(const char *tag, const char *input, const char *cmdline,
	       char **out, char **err)
{
	char o[512], e[512], t[160], sh[2048];
	char *argv[] = { "sh", "-c", sh, NULL };
	int st;

	snprintf(t, sizeof(t), "%s.out", tag);
	scratch(t, o, sizeof(o));
	snprintf(t, sizeof(t), "%s.err", tag);
	scratch(t, e, sizeof(e));
	snprintf(sh, sizeof(sh), "cat '%s' | '%s' %s", input,
		 env_path("BLOCKRANGE"), cmdline);
	st = run_cmd(argv, o, e);
	*out = slurp(o, NULL);
	*err = slurp(e, NULL);
	return st;
}

/* `blockrange ARGS` in @dir (through sh), stdout/stderr into @tag files. */
int sc_br_in(const char *dir, const char *tag, const char *cmdline,
	     char **out, char **err)
{
	char o[512], e[512], t[160], sh[4096];
	char *argv[] = { "sh", "-c", sh, NULL };
	int st;

	snprintf(t, sizeof(t), "%s.out", tag);
	scratch(t, o, sizeof(o));
	snprintf(t, sizeof(t), "%s.err", tag);
	scratch(t, e, sizeof(e));
	snprintf(sh, sizeof(sh), "cd '%s' && '%s' %s", dir,
		 env_path("BLOCKRANGE"), cmdline);
	st = run_cmd(argv, o, e);
	*out = slurp(o, NULL);
	*err = slurp(e, NULL);
	return st;
}

void sc_profile_of(const char *in, const char *out, const char *extra)
{
	char cmd[2048], t[160];
	char *o, *e;

	snprintf(cmd, sizeof(cmd), "profile -i '%s' -o '%s' %s", in, out,
		 extra ? extra : "");
	snprintf(t, sizeof(t), "prof-%s", strrchr(out, '/') + 1);
	ck_assert_msg(sc_br_in("/", t, cmd, &o, &e) == 0, "profile: %s", e);
	free(o);
	free(e);
}
