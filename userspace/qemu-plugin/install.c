// SPDX-License-Identifier: GPL-2.0
/*
 * Loading: qemu_plugin_install() reads the plugin's arguments (the CLI
 * passes them, see docs/record.md), checks QEMU's plugin API version and
 * the target, maps the CLI's status page, starts the first thread's state
 * and registers the callbacks.  With qemu_plugin_version, the only symbols
 * the plugin exports.  Calls image.c, syscall.c, translate.c, threads.c,
 * output.c and context.c.
 */
#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "qemu-plugin/plugin.h"

QAPI_EXPORT int qemu_plugin_version = QAPI_VERSION;

static void atfork_prepare(void)
{
	pthread_mutex_lock(&g.lock);
}

static void atfork_parent(void)
{
	pthread_mutex_unlock(&g.lock);
}

static void atfork_child(void)
{
	pthread_mutex_init(&g.lock, NULL);
}

static bool arg_u64(const char *v, uint64_t *out)
{
	char *e;

	errno = 0;
	*out = strtoull(v, &e, 10);
	return !errno && *v && !*e && *v != '-';
}

/* The CLI's status page in the recording directory, if there is one. */
static void map_status(void)
{
	char st[PATH_MAX + 16];
	int fd;

	if (!g.dir[0])
		return;
	snprintf(st, sizeof(st), "%s/status", g.dir);
	fd = open(st, O_RDWR | O_CLOEXEC);
	if (fd >= 0) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED,
			       fd, 0);

		if (p != MAP_FAILED)
			g.status = p;
		close(fd);
	}
}

static int fail_install(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int fail_install(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (g.status && __sync_bool_compare_and_swap(&g.status[0], 0, 1)) {
		snprintf(g.status + 8, 4096 - 8, "%s", msg);
		__sync_synchronize();
		g.status[1] = 1;
	}
	dprintf(2, "blockrange record: %s\n", msg);
	return -1;
}

QAPI_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				    const qemu_info_t *info, int argc,
				    char **argv)
{
	const char *mode = "sampled";
	Dl_info dl;
	int i;

	g.depth = 32;
	g.period = 10007;
	snprintf(g.cpu, sizeof(g.cpu), "max");
	for (i = 0; i < argc; i++) {
		char *v = strchr(argv[i], '=');
		const char *k = argv[i];
		bool ok = true;

		if (!v)
			return fail_install("plugin argument '%s' is not KEY=VALUE", argv[i]);
		*v++ = '\0';
		if (!strcmp(k, "out"))
			ok = snprintf(g.dir, sizeof(g.dir), "%s", v) < (int)sizeof(g.dir);
		else if (!strcmp(k, "mode"))
			mode = v;
		else if (!strcmp(k, "depth")) {
			uint64_t d;

			ok = arg_u64(v, &d) && d >= 1 && d <= 65536;
			g.depth = (unsigned)d;
		} else if (!strcmp(k, "period"))
			ok = arg_u64(v, &g.period) && g.period >= 1;
		else if (!strcmp(k, "jitter"))
			ok = arg_u64(v, &g.jitter);
		else if (!strcmp(k, "stack")) {
			uint64_t s;

			ok = arg_u64(v, &s) && s <= 1;
			g.stack = s;
		} else if (!strcmp(k, "seed"))
			ok = arg_u64(v, &g.seed);
		else if (!strcmp(k, "qemu"))
			snprintf(g.qemu, sizeof(g.qemu), "%s", v);
		else if (!strcmp(k, "cpu"))
			snprintf(g.cpu, sizeof(g.cpu), "%s", v);
		else if (!strcmp(k, "exe"))
			snprintf(g.exe, sizeof(g.exe), "%s", v);
		else if (!strcmp(k, "comm"))
			snprintf(g.comm, sizeof(g.comm), "%s", v);
		else
			return fail_install("unknown plugin argument '%s'", k);
		if (!ok)
			return fail_install("bad value of plugin argument %s: '%s'", k, v);
	}
	map_status();
	if (info->version.min > QAPI_VERSION || info->version.cur < QAPI_VERSION)
		return fail_install("QEMU's plugin API is version %d..%d, the recorder needs version %d",
				    info->version.min, info->version.cur, QAPI_VERSION);
	if (info->system_emulation || strcmp(info->target_name, "x86_64"))
		return fail_install("the recorder runs in qemu-x86_64 (user mode) only, not %s%s",
				    info->target_name,
				    info->system_emulation ? " system emulation" : "");
	if (!g.dir[0] || !g.qemu[0] || !g.exe[0])
		return fail_install("the plugin needs out=DIR, qemu=PATH and exe=PATH (blockrange record passes them)");
	if (!strcmp(mode, "exact"))
		g.exact = true;
	else if (strcmp(mode, "sampled"))
		return fail_install("mode must be sampled or exact, not '%s'", mode);
	if (g.exact && g.stack)
		return fail_install("call stacks (stack=1) are for sampled mode only");
	if (g.jitter >= g.period)
		return fail_install("jitter %" PRIu64 " must be below the period %" PRIu64,
				    g.jitter, g.period);
	if (!g.comm[0]) {
		const char *b = strrchr(g.exe, '/');

		str_copy(g.comm, sizeof(g.comm), b ? b + 1 : g.exe);
	}
	if (!dladdr((void *)qemu_plugin_install, &dl) || !dl.dli_fname)
		return fail_install("cannot find the plugin's own path");
	if (!realpath(dl.dli_fname, g.self))
		snprintf(g.self, sizeof(g.self), "%s", dl.dli_fname);
	g.pid = (int32_t)getpid();
	g.ppid = (int32_t)getppid();
	g.t0 = now();
	pthread_atfork(atfork_prepare, atfork_parent, atfork_child);
	cur = th_alloc(gettid_());
	rec_comm(cur, g.comm, true);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_vcpu_syscall_cb(id, on_syscall);
	qemu_plugin_register_vcpu_syscall_ret_cb(id, on_syscall_ret);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
