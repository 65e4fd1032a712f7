/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version of the blockrange CLI and of libblockrange, in one place:
 * `blockrange --version` prints it, and userspace/install.mk reads it for
 * the shared library's file name (libblockrange.so.VERSION, SONAME
 * libblockrange.so.MAJOR) and blockrange.pc.
 */
#ifndef BLOCKRANGE_CLI_VERSION_H
#define BLOCKRANGE_CLI_VERSION_H

#define BLOCKRANGE_VERSION "1.0.0"

#endif /* BLOCKRANGE_CLI_VERSION_H */
