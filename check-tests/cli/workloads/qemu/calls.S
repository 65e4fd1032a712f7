/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 1000 calls of leaf and 1000 returns; the loop's jnz is taken 999 times.
 * Static, no libc: every instruction and branch is known (test_qemu.c).
 */
	.globl _start, site, after, back, leaf, leaf_ret
	.text
_start:
	mov	$1000, %r12d
site:
	call	leaf
after:
	dec	%r12d
back:
	jnz	site
	mov	$60, %eax
	xor	%edi, %edi
	syscall
leaf:
	add	$1, %rax
leaf_ret:
	ret
