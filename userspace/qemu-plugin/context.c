// SPDX-License-Identifier: GPL-2.0
/*
 * The plugin's one context (g) and the calling thread's state (cur): a QEMU
 * plugin has no context but what its callbacks pass, so the state shared by
 * the threads is this one struct, defined here; with the block every
 * thread starts after (k_start), the plugin's only variables outside a
 * function.  Also failing (fatal()), the clock and the small helpers every
 * unit uses.  Calls nothing of the plugin.
 */
#define _GNU_SOURCE

#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "qemu-plugin/plugin.h"

struct plugin g = { .lock = PTHREAD_MUTEX_INITIALIZER };

__thread struct th *cur __attribute__((tls_model("initial-exec")));

struct tbi k_start = {
	.efall = NO_ADDR, .etgt = NO_ADDR, .emask = UINT64_MAX,
	.erep = NO_ADDR, .key = NO_KEY, .end.kind = K_START
};

/* Copy @src into @dst of @size bytes, cut if longer. */
void str_copy(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

uint64_t now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int32_t gettid_(void)
{
	return (int32_t)syscall(SYS_gettid);
}

void fatal(const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	g.failed = true;
	if (g.status) {
		/* the first message wins: byte 0 is the claim */
		if (__sync_bool_compare_and_swap(&g.status[0], 0, 1)) {
			snprintf(g.status + 8, 4096 - 8, "%s", msg);
			__sync_synchronize();
			g.status[1] = 1;	/* complete */
		}
	} else {
		dprintf(2, "blockrange record: %s\n", msg);
	}
	syscall(SYS_exit_group, 125);
	__builtin_unreachable();
}
