// SPDX-License-Identifier: GPL-2.0
/*
 * Translation: when QEMU translates a block, the block's last instruction
 * is decoded (x86dec.h) into how the block ends: the address of that
 * instruction, its fall-through address, its kind and its direct target,
 * with the block's mapping; the block is interned (blocks.c) and its
 * execution callback (pair.c, one per mode) is set with it.  Calls pair.c
 * (the callbacks' addresses), threads.c, maps.c, blocks.c and context.c.
 */
#define _GNU_SOURCE

#include <string.h>

#include "common/x86dec.h"
#include "qemu-plugin/plugin.h"

static uint8_t kind_of(enum xd_kind k)
{
	switch (k) {
	case XD_COND: return K_COND;
	case XD_JMP: return K_JMP;
	case XD_CALL: return K_CALL;
	case XD_RET: return K_RET;
	case XD_IND_JMP: return K_IND_JMP;
	case XD_IND_CALL: return K_IND_CALL;
	case XD_SYSCALL: return K_SYSCALL;
	case XD_REP: return K_REP;
	case XD_TRAP: return K_TRAP;
	default: return K_PLAIN;
	}
}

void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *li;
	struct th *t = cur ? cur : th_start();
	struct tbi k;
	struct xd_insn d;
	size_t size;
	int r;

	(void)id;
	if (!n)
		return;
	memset(&k, 0, sizeof(k));
	li = qemu_plugin_tb_get_insn(tb, n - 1);
	k.start = qemu_plugin_tb_vaddr(tb);
	k.end.last = qemu_plugin_insn_vaddr(li);
	size = qemu_plugin_insn_size(li);
	r = xd_decode(qemu_plugin_insn_data(li), size, k.end.last, &d);
	if (r == 0 && n > 1) {
		/*
		 * QEMU 7.2 lists an instruction that crosses into the next
		 * page cut short as the block's last, but does not run it
		 * there: the next block starts at it.
		 */
		k.end.fall = k.end.last;
		k.end.last = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, n - 2));
		k.ninsns = (uint32_t)n - 1;
		k.end.kind = K_PLAIN;
	} else {
		k.end.fall = k.end.last + size;
		k.ninsns = (uint32_t)n;
		k.end.kind = r > 0 ? kind_of(d.kind) : K_PLAIN;
		k.end.target = r > 0 ? d.target : 0;
	}
	pthread_mutex_lock(&g.lock);
	if (r < 0 || (r > 0 && (size_t)r != size))
		g.decode_misses++;
	if (!g.program_seen) {
		/*
		 * The program's own mapping first, as perf records it at exec:
		 * the loader runs before any block of the program, and a
		 * sample taken there must find the program already mapped.
		 */
		uint64_t code = qemu_plugin_start_code();

		g.program_seen = true;
		if (code && !map_find(code))
			map_discover(t, code);
	}
	{
		struct map *m = map_find(k.start);

		k.end.map = m ? m->id : map_discover(t, k.start);
	}
	k.handler = is_handler(k.start);
	{
		struct tbi *b = tbi_intern(&k);

		if (k.handler)
			tbi_mark_handler(b);
		pthread_mutex_unlock(&g.lock);
		qemu_plugin_register_vcpu_tb_exec_cb(tb, g.exact ? on_exec_exact :
						     on_exec_sampled,
						     QEMU_PLUGIN_CB_NO_REGS, b);
		if (g.stack && r > 0 && (k.end.kind == K_CALL ||
					 k.end.kind == K_IND_CALL))
			qemu_plugin_register_vcpu_mem_cb(li, on_call_mem,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, b);
		else if (g.stack && r > 0 && k.end.kind == K_RET)
			qemu_plugin_register_vcpu_mem_cb(li, on_ret_mem,
							 QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, b);
	}
}
