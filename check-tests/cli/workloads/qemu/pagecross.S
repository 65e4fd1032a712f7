/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A 10-byte instruction (cross) that starts 3 bytes before a page boundary,
 * run 50 times in a loop: QEMU 7.2 lists it truncated as the last
 * instruction of one block and runs it as the first of the next, which is
 * no branch.  Linked with .text at 0x401000 (see qemu-rec.mk).
 */
	.globl _start, loop, cross, after, back
	.text
_start:
	mov	$50, %ecx
	jmp	loop
	.org	0xff0
loop:
	add	$1, %eax
	.rept	10
	nop
	.endr
cross:
	movabs	$0x1122334455667788, %rbx	/* 0x401ffd .. 0x402006 */
after:
	add	$2, %eax
	dec	%ecx
back:
	jnz	loop
	mov	$60, %eax
	xor	%edi, %edi
	syscall
