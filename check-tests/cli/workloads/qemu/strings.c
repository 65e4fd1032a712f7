// SPDX-License-Identifier: GPL-2.0
/*
 * memcpy and strlen of 4 KiB, 2000 times: glibc picks both routines by the
 * CPU's features (ifuncs), so the hot libc symbols name the variant the
 * guest CPU model made it pick (for example __memmove_avx_unaligned_erms
 * under QEMU's max model, __memmove_sse2_unaligned_erms under qemu64).
 */
#include <stdio.h>
#include <string.h>

static char a[4096], b[4096];

int main(void)
{
	size_t n = 0;
	int i;

	memset(a, 'x', sizeof(a) - 1);
	for (i = 0; i < 2000; i++) {
		memcpy(b, a, sizeof(a));
		n += strlen(b);
	}
	printf("%zu\n", n);
	return 0;
}
