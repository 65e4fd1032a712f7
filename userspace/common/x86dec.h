/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small x86-64 decoder for the QEMU recorder: the length of any
 * instruction of 64-bit mode (legacy, REX, VEX, EVEX and XOP encodings),
 * and, for the instructions that end a translation block, what kind of
 * control transfer they are and where a direct one goes.  Nothing else of
 * the instruction is decoded.
 *
 * The recorder classifies the last instruction of every translation
 * block with it (see docs/record.md): from the kind and the addresses of
 * the next block it tells a taken branch from a fall-through, a rep-string
 * iteration, a block split without a branch, or a page-crossing
 * instruction that QEMU 7.2 listed truncated.
 */
#ifndef BLOCKRANGE_COMMON_X86DEC_H
#define BLOCKRANGE_COMMON_X86DEC_H

#include <stddef.h>
#include <stdint.h>

/* The longest x86 instruction. */
#define XD_MAX_LEN 15

enum xd_kind {
	XD_PLAIN = 0,	/* no control transfer (or one that only traps) */
	XD_COND,	/* jcc, jrcxz, loop*: direct, may fall through */
	XD_JMP,	/* jmp rel8/rel32 */
	XD_CALL,	/* call rel32 */
	XD_RET,	/* ret, ret imm16, lret, iret */
	XD_IND_JMP,	/* jmp r/m, ljmp m */
	XD_IND_CALL,	/* call r/m, lcall m */
	XD_SYSCALL,	/* syscall, sysenter */
	XD_REP,	/* a rep/repne-prefixed string instruction */
	XD_TRAP,	/* int n, int3, int1, ud0/1/2, hlt, sysret...: an
			 * exception or a privileged instruction, the next
			 * block is a signal handler or nothing */
};

struct xd_insn {
	unsigned len;		/* bytes */
	enum xd_kind kind;
	uint64_t target;	/* XD_COND, XD_JMP, XD_CALL: the target */
};

/*
 * Decode the instruction at @addr from its first @n bytes @p.  Returns its
 * length (1..15) and fills @out; 0 if the bytes end before the instruction
 * does (a truncated instruction: @n is too small), -1 if the bytes are no
 * valid 64-bit-mode encoding this decoder knows (an instruction longer than
 * 15 bytes included).
 */
int xd_decode(const uint8_t *p, size_t n, uint64_t addr,
	       struct xd_insn *out);

/* The kind's name ("cond", "jmp", ...), for messages and tests. */
const char *xd_kind_name(enum xd_kind k);

#endif /* BLOCKRANGE_COMMON_X86DEC_H */
