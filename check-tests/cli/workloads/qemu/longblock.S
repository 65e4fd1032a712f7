/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A straight line of 1000 instructions, run 10 times: QEMU ends a block
 * after at most 512 instructions, a split that is no branch; only the
 * loop's jnz is taken (9 times).
 */
	.globl _start, top, middle, back
	.text
_start:
	mov	$10, %ecx
top:
	.rept	500
	nop
	.endr
middle:
	.rept	500
	nop
	.endr
	dec	%ecx
back:
	jnz	top
	mov	$60, %eax
	xor	%edi, %edi
	syscall
