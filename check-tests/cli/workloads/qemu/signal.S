/* SPDX-License-Identifier: GPL-2.0 */
/*
 * 20 times: kill(getpid(), SIGUSR1), whose handler runs a loop of 3
 * (its jnz taken twice) and returns through its own restorer
 * (rt_sigreturn).  Entering the handler and coming back are no branches
 * of the program; the main loop's jnz is taken 19 times, the handler's 40
 * times, its ret 20 times.
 */
	.globl _start, loop, kill_site, resume, back, handler, hloop, hback, hret, restorer, sigret
	.text
_start:
	mov	$13, %eax		/* rt_sigaction(SIGUSR1, &act, NULL, 8) */
	mov	$10, %edi
	lea	act(%rip), %rsi
	xor	%edx, %edx
	mov	$8, %r10d
	syscall
	mov	$20, %r12d
loop:
	mov	$39, %eax		/* getpid */
	syscall
	mov	%eax, %edi
	mov	$10, %esi
	mov	$62, %eax		/* kill */
kill_site:
	syscall
resume:
	dec	%r12d
back:
	jnz	loop
	mov	$60, %eax
	mov	hits(%rip), %edi	/* exit status: the handler's runs */
	syscall
handler:
	addl	$1, hits(%rip)	/* registers come back at sigreturn */
	mov	$3, %ecx
hloop:
	dec	%ecx
hback:
	jnz	hloop
hret:
	ret
restorer:
	mov	$15, %eax
sigret:
	syscall
	.data
act:
	.quad	handler
	.quad	0x04000000		/* SA_RESTORER */
	.quad	restorer
	.quad	0			/* mask */
hits:	.long	0
