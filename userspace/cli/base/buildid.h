/* SPDX-License-Identifier: GPL-2.0 */
/*
 * GNU build-ids (the NT_GNU_BUILD_ID note of an ELF file): at most
 * BR_BUILD_ID_MAX bytes (a SHA-1), shown in lower-case hex.  The one size
 * of the events, the DSOs, the binaries, the perf.data writer and the
 * .brprof format.
 */
#ifndef BLOCKRANGE_CLI_BASE_BUILDID_H
#define BLOCKRANGE_CLI_BASE_BUILDID_H

#include <stddef.h>
#include <stdint.h>

#define BR_BUILD_ID_MAX 20

/* Room for br_build_id_hex() of any build-id. */
#define BR_BUILD_ID_HEX (2 * BR_BUILD_ID_MAX + 1)

/* "ab12..." of the @size bytes of @id into @buf (2 * @size + 1 bytes). */
static inline void br_build_id_hex(const uint8_t *id, size_t size, char *buf)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < size; i++) {
		buf[2 * i] = digits[id[i] >> 4];
		buf[2 * i + 1] = digits[id[i] & 15];
	}
	buf[2 * size] = '\0';
}

#endif /* BLOCKRANGE_CLI_BASE_BUILDID_H */
