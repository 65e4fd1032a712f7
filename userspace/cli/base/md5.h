/* SPDX-License-Identifier: GPL-2.0 */
/*
 * MD5 (RFC 1321), for the one place where a file format names things by
 * it: LLVM's function GUIDs, the first 8 bytes of the MD5 of a function's
 * name read as a little-endian u64, which pseudo probes
 * (resolve/pseudoprobe.h) and LLVM sample profiles use.  Not for security.
 */
#ifndef BLOCKRANGE_CLI_BASE_MD5_H
#define BLOCKRANGE_CLI_BASE_MD5_H

#include <stddef.h>
#include <stdint.h>

/* The 16-byte digest of @n bytes at @p. */
void br_md5(const void *p, size_t n, uint8_t digest[16]);

/* LLVM's GUID of the function named by @n bytes at @name. */
uint64_t br_md5_guid(const char *name, size_t n);

#endif /* BLOCKRANGE_CLI_BASE_MD5_H */
