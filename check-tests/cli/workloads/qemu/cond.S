/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A conditional jump taken exactly 750 of 1000 times (i % 4 != 0), the
 * loop's jne 999 of 1000 times.
 */
	.globl _start, top, cond, notaken, skip, back
	.text
_start:
	xor	%ecx, %ecx
top:
	test	$3, %ecx
cond:
	jnz	skip
notaken:
	add	$1, %rbx
skip:
	inc	%ecx
	cmp	$1000, %ecx
back:
	jne	top
	mov	$60, %eax
	xor	%edi, %edi
	syscall
