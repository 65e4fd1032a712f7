// SPDX-License-Identifier: GPL-2.0
/*
 * Following execve: qemu-x86_64 would run the new program natively,
 * unrecorded, so the plugin writes everything of the image and starts
 * qemu-x86_64 with itself again (the same options) on the new program,
 * same pid, resolved as execve would (qexec.h).  Calls image.c, guest.c,
 * output.c and context.c.
 */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/qexec.h"
#include "qemu-plugin/plugin.h"

/* Append ",K=V" to the plugin option @spec, commas doubled as QEMU wants. */
static bool spec_add(char *spec, size_t size, const char *k, const char *v)
{
	size_t n = strlen(spec);
	int w = snprintf(spec + n, size - n, ",%s=", k);

	if (w < 0 || (size_t)w >= size - n)
		return false;
	n += (size_t)w;
	for (; *v; v++) {
		if (n + 3 > size)
			return false;
		spec[n++] = *v;
		if (*v == ',')
			spec[n++] = ',';
	}
	spec[n] = '\0';
	return true;
}

static bool spec_add_u64(char *spec, size_t size, const char *k, uint64_t v)
{
	char num[24];

	snprintf(num, sizeof(num), "%" PRIu64, v);
	return spec_add(spec, size, k, num);
}

/*
 * The -plugin option of the qemu-x86_64 that runs the program @exe (named
 * @comm): this plugin with the same options, the next seed.
 */
static bool spec_make(char *spec, size_t size, const char *exe,
		      const char *comm)
{
	snprintf(spec, size, "%s", g.self);
	return spec_add(spec, size, "out", g.dir) &&
	       spec_add(spec, size, "mode", g.exact ? "exact" : "sampled") &&
	       spec_add_u64(spec, size, "depth", g.depth) &&
	       spec_add_u64(spec, size, "period", g.period) &&
	       spec_add_u64(spec, size, "jitter", g.jitter) &&
	       spec_add_u64(spec, size, "stack", g.stack) &&
	       spec_add_u64(spec, size, "seed", g.seed + 1) &&
	       spec_add(spec, size, "qemu", g.qemu) &&
	       spec_add(spec, size, "cpu", g.cpu) &&
	       spec_add(spec, size, "exe", exe) &&
	       spec_add(spec, size, "comm", comm);
}

/*
 * execve(@path, @argv_addr, @envp_addr) of the program (guest addresses):
 * qemu-x86_64 would run the new program natively, unrecorded, so run it
 * under qemu-x86_64 and this plugin instead, same pid.  A file that
 * execve would refuse (or arguments it would fault on) is left to fail as
 * it would.
 */
void follow_exec(struct th *t, const char *path, uint64_t argv_addr,
		 uint64_t envp_addr)
{
	struct exec_bufs *x = &g.ex;
	char comm[QREC_COMM_LEN];
	const char *run = path;
	const char *base;
	char **argv, **envp, **args;
	size_t nargs, nenv, i, k;
	int res;

	argv = guest_argv(argv_addr, &nargs);
	envp = guest_argv(envp_addr, &nenv);
	if (!argv || !envp ||
	    (nargs && !guest_str(x->argv0, sizeof(x->argv0),
				 (uint64_t)(uintptr_t)argv[0])))
		goto out;
	snprintf(x->self_exe, sizeof(x->self_exe), "/proc/%d/exe", (int)g.pid);
	if (!strcmp(path, "/proc/self/exe") || !strcmp(path, x->self_exe)) {
		run = g.exe;
	} else if (!strncmp(path, "/proc/self/fd/", 14) ||
		   !strncmp(path, "/dev/fd/", 8)) {
		ssize_t n = readlink(path, x->real, sizeof(x->real) - 1);

		if (n > 0) {
			x->real[n] = '\0';
			run = x->real;
		}
	}
	res = qexec_resolve(run, nargs ? x->argv0 : path, &x->q);
	if (res == QEXEC_ERRNO || res == QEXEC_UNKNOWN)
		goto out;	/* execve fails (or a shell runs it itself) */
	if (res == QEXEC_FOREIGN)
		fatal("%s: cannot follow execve of %s (%s): qemu-x86_64 records x86-64 programs only",
		      g.comm, path, x->q.why);
	if (res == QEXEC_LOOP)
		fatal("%s: cannot follow execve of %s: more than %d #! levels",
		      g.comm, path, QEXEC_DEPTH);
	/* everything of this image is written before it is replaced */
	pthread_mutex_lock(&g.lock);
	rec_exec(t, path);
	pthread_mutex_unlock(&g.lock);
	image_finish(t, QREC_END_EXEC);
	base = strrchr(path, '/');
	str_copy(comm, sizeof(comm), base ? base + 1 : path);
	if (!spec_make(x->spec, sizeof(x->spec), x->q.exe, comm))
		fatal("%s: cannot follow execve of %s: paths too long", g.comm,
		      path);
	args = calloc(nargs + (size_t)x->q.nhead + 10, sizeof(*args));
	if (!args)
		fatal("out of memory");
	k = 0;
	args[k++] = g.qemu;
	args[k++] = "-cpu";
	args[k++] = g.cpu;
	args[k++] = "-plugin";
	args[k++] = x->spec;
	args[k++] = "-0";
	args[k++] = (char *)x->q.head[0];
	args[k++] = x->q.exe;
	for (i = 1; i < (size_t)x->q.nhead; i++)
		args[k++] = (char *)x->q.head[i];
	for (i = 1; i < nargs; i++)
		args[k++] = argv[i];
	args[k] = NULL;
	execve(g.qemu, args, envp);
	/* the image is gone already: nothing may run unrecorded */
	fatal("%s: cannot follow execve of %s: starting %s: %s", g.comm, path,
	      g.qemu, strerror(errno));
out:
	free(argv);
	free(envp);
}

/* execveat(@dirfd, @path_addr, @argv_addr, @envp_addr, @flags). */
void follow_execveat(struct th *t, uint64_t dirfd, uint64_t path_addr,
		     uint64_t argv_addr, uint64_t envp_addr, uint64_t flags)
{
	char rel[PATH_MAX], path[PATH_MAX];

	if (!guest_str(rel, sizeof(rel), path_addr))
		return;
	if ((int)dirfd != AT_FDCWD && rel[0] != '/') {
		/* relative to a directory fd, or the fd itself */
		if (!rel[0] && (flags & AT_EMPTY_PATH))
			snprintf(path, sizeof(path), "/proc/self/fd/%d",
				 (int)dirfd);
		else if (snprintf(path, sizeof(path), "/proc/self/fd/%d/%s",
				  (int)dirfd, rel) >= (int)sizeof(path))
			return;
	} else {
		memcpy(path, rel, sizeof(rel));
	}
	follow_exec(t, path, argv_addr, envp_addr);
}
