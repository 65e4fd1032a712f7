/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The second x86-64 disassembler, for what capstone 4 cannot decode
 * (AVX-512: EVEX-encoded instructions and mask-register moves, which
 * glibc's string functions use): LLVM's MC disassembler, the one
 * llvm-profgen and objdump-alikes of LLVM use, loaded with dlopen() from
 * libLLVM (Debian's libllvm19, installed with llvm-19) the first time it is
 * needed, so runs that never meet such an instruction never load it.
 *
 * Only lengths and text come from it: every branch, call and return is
 * decodable by capstone, so an instruction only LLVM decodes is never a
 * control transfer.
 */
#ifndef BLOCKRANGE_CLI_ALTDIS_H
#define BLOCKRANGE_CLI_ALTDIS_H

#include <stddef.h>
#include <stdint.h>

struct altdis;

/* A disassembler, not loaded yet; NULL if out of memory. */
struct altdis *altdis_new(void);
void altdis_free(struct altdis *a);

/*
 * Decode the instruction at @code (@size bytes available, at @addr): its
 * length (0 if LLVM cannot decode it either, or is not installed), and if
 * @mnem / @ops are given, its AT&T mnemonic and operands.
 */
unsigned altdis_decode(struct altdis *a, const uint8_t *code, size_t size,
		       uint64_t addr, char *mnem, size_t mnemsz, char *ops,
		       size_t opssz);

#endif /* BLOCKRANGE_CLI_ALTDIS_H */
