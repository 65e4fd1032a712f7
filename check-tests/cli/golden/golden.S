/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A tiny static program with a fixed layout (.text at 0x401000, no libc),
 * so that golden outputs do not depend on the compiler's code generation:
 * hot() loops three times over a data-dependent branch and a call.
 */
	.text
	.globl	_start
	.type	_start, @function
_start:
	mov	$3, %ecx
	call	hot
	mov	$60, %eax
	xor	%edi, %edi
	syscall
	.size	_start, .-_start

	.globl	hot
	.type	hot, @function
hot:
	xor	%eax, %eax
.Lloop:
	test	$1, %ecx
	je	.Leven
	add	$1, %eax
	jmp	.Ljoin
.Leven:
	sub	$1, %eax
.Ljoin:
	call	leaf
	dec	%ecx
	jne	.Lloop
	ret
	.size	hot, .-hot

	.globl	leaf
	.type	leaf, @function
leaf:
	ret
	.size	leaf, .-leaf
	.section .note.GNU-stack,"",@progbits
