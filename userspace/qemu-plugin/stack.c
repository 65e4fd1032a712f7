// SPDX-License-Identifier: GPL-2.0
/*
 * Sampled mode's shadow call stacks (`blockrange record -g`): every thread
 * keeps the calls it made and has not returned from, so that each sample
 * carries the return addresses of its stack (ring.c writes them).
 *
 * API version 1 gives no register, but a memory callback gives the
 * address each access of an instruction touched: a call's store of its
 * return address is at the stack pointer after the call (the frame's
 * slot), and a ret's load is at the stack pointer before it.  A frame is
 * live while the stack pointer is at or below its slot, so:
 *
 *  - a call at slot S first drops the frames whose slot is at or below S
 *    (a longjmp or an exception left them: their stack was reused), then
 *    pushes (its return address, S);
 *  - a ret at slot S drops every frame whose slot is at or below S: the
 *    frame it returns from, and any a longjmp or an exception left above
 *    it (libgcc's unwinder lands in the catching frame with a ret, so a
 *    throw is exact).  A ret pops by its slot, not by the address it
 *    returns to: a retpoline's ret, or one whose return address was
 *    rewritten, still pops its frame, and a `push; ret` pops none.
 *
 * Only frames within STACK_SPAN below the slot are dropped: a frame much
 * further down is on another stack (a signal handler's alternate stack
 * above the thread's), and the walk stops at it.  A signal handler runs
 * on top of the interrupted frames (it is entered without a call);
 * rt_sigreturn cuts the stack back to its depth at the delivery.  A tail
 * call (a jmp) pushes nothing: the function jumped to appears called from
 * the caller of the one that jumped, as a frame-pointer unwinder shows it.
 * A thread starts with an empty stack; a forked child keeps its parent's
 * thread's; an exec starts a new plugin, empty.
 *
 * QREC_STACK_MAX frames are kept, in a ring: a deeper call drops the
 * outermost, and the thread's samples are marked cut from then on.
 * Calls context.c (fatal).
 */
#include <stdlib.h>

#include "qemu-plugin/plugin.h"

#define STACK_MASK (QREC_STACK_MAX - 1)
/* Frames further below a slot than this are on another stack. */
#define STACK_SPAN (256ull << 20)

/* Drop the frames whose slot is at or below @slot (on the same stack). */
static inline void unwind(struct th *t, uint64_t slot)
{
	while (t->stk_top != t->stk_bot) {
		const struct frame *f = &t->stk[(t->stk_top - 1) & STACK_MASK];

		if (f->slot > slot || slot - f->slot >= STACK_SPAN)
			break;
		t->stk_top--;
	}
}

/*
 * The thread whose stack the callback of block @b's last instruction
 * changes, or NULL if the callback is not that instruction's: QEMU 7.2
 * goes on calling an instruction's memory callbacks for the accesses of
 * the blocks that run after it (until it leaves the chain of blocks), and
 * those come after the next block's execution callback, which moved
 * @t->prev on.  A call stores its return address (an indirect call
 * through memory first loads its target), a ret loads it.
 */
static struct th *stack_of(const struct tbi *b, qemu_plugin_meminfo_t info,
			   bool store)
{
	struct th *t = cur;

	if (unlikely(!t || !t->stk) || t->prev != b ||
	    qemu_plugin_mem_is_store(info) != store)
		return NULL;
	return t;
}

void on_call_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		 uint64_t vaddr, void *udata)
{
	const struct tbi *b = udata;
	struct th *t = stack_of(b, info, true);
	struct frame *f;

	(void)vcpu;
	if (!t)
		return;
	unwind(t, vaddr);
	if (t->stk_top - t->stk_bot == QREC_STACK_MAX) {
		t->stk_bot++;	/* the outermost frame goes */
		t->stk_cut = true;
	}
	f = &t->stk[t->stk_top++ & STACK_MASK];
	f->ret = b->end.fall;
	f->slot = vaddr;
}

void on_ret_mem(unsigned int vcpu, qemu_plugin_meminfo_t info,
		uint64_t vaddr, void *udata)
{
	struct th *t = stack_of(udata, info, false);

	(void)vcpu;
	if (t)
		unwind(t, vaddr);
}

/* rt_sigreturn: the frames of the handler that returns are gone. */
void stack_sigreturn(struct th *t)
{
	uint64_t d;

	if (!t->stk || !t->nsig)
		return;
	d = t->sig[t->nsig - 1].stk_top;
	if (d < t->stk_bot)
		d = t->stk_bot;
	if (d < t->stk_top)
		t->stk_top = d;
}
