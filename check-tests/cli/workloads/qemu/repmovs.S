/* SPDX-License-Identifier: GPL-2.0 */
/*
 * rep movsb of 37 bytes, 100 times: QEMU runs the rep instruction's block
 * once per byte, which is no branch; only the loop's jnz (99 times) is.
 */
	.globl _start, again, rep, back
	.text
_start:
	mov	$100, %r12d
again:
	lea	src(%rip), %rsi
	lea	dst(%rip), %rdi
	mov	$37, %ecx
rep:
	rep movsb
	dec	%r12d
back:
	jnz	again
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.data
src:	.fill	64, 1, 0x5a
	.bss
dst:	.skip	64
