// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a block-pairing recorder under QEMU's plugin API version 1,
 * measured by `make bench-qemu-record` beside the recorder's own plugin.
 *
 * API version 1 (QEMU 7.2) gives a plugin no register and no inline
 * operation but an add of a constant, so a recorder that pairs each block
 * with the one before (as an LBR does: a branch is taken iff the next
 * block is not the fall-through) needs a callback in every block.  This
 * plugin does no more than that, in one of two modes (argument mode=):
 *
 *   empty  every block calls a callback that does nothing: what QEMU's
 *          call of a per-block callback costs alone;
 *   pair   every block calls a callback that swaps the thread's previous
 *          block for this one and compares this block's start with the
 *          previous block's fall-through, counting the blocks that were
 *          not reached by falling through: the least any pairing does.
 *
 * Nothing is written; at exit the pair mode prints its counts of blocks
 * to stderr, so that the work cannot be optimised away.  A benchmark
 * probe: no record, no care for threads beyond a state each.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu-plugin/qemu_api.h"

QAPI_EXPORT int qemu_plugin_version = QAPI_VERSION;

/* A translated block: what the callback of the next block compares. */
struct pblock {
	uint64_t start;
	uint64_t fall;		/* the address after its last instruction */
};

/* A guest thread (a vCPU on its host thread). */
struct pthr {
	const struct pblock *prev;
	uint64_t blocks;
	uint64_t jumps;		/* blocks not reached by falling through */
	struct pthr *next;
};

#define always_inline inline __attribute__((always_inline))

static const struct pblock p_none = { .fall = UINT64_MAX };

static struct {
	pthread_mutex_t lock;
	struct pthr *threads;
} pg = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread struct pthr *p_cur __attribute__((tls_model("initial-exec")));

static void on_exec_empty(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
}

static struct pthr *__attribute__((noinline)) thr_start(void)
{
	struct pthr *t = calloc(1, sizeof(*t));

	if (!t) {
		fputs("qemu-probe: out of memory\n", stderr);
		abort();
	}
	t->prev = &p_none;
	pthread_mutex_lock(&pg.lock);
	t->next = pg.threads;
	pg.threads = t;
	pthread_mutex_unlock(&pg.lock);
	p_cur = t;
	return t;
}

static always_inline void pair(struct pthr *t, const struct pblock *c)
{
	const struct pblock *p = t->prev;

	t->prev = c;
	t->blocks++;
	if (c->start != p->fall)
		t->jumps++;
}

/* A thread's first block (out of line: the callback saves no register). */
static void __attribute__((noinline)) pair_first(const struct pblock *c)
{
	pair(thr_start(), c);
}

static void on_exec_pair(unsigned int vcpu, void *udata)
{
	struct pthr *t = p_cur;

	(void)vcpu;
	if (__builtin_expect(!t, 0)) {
		pair_first(udata);
		return;
	}
	pair(t, udata);
}

static bool pair_mode;

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *last;
	struct pblock *b;

	(void)id;
	if (!n)
		return;
	if (!pair_mode) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec_empty,
						     QEMU_PLUGIN_CB_NO_REGS,
						     NULL);
		return;
	}
	b = calloc(1, sizeof(*b));
	if (!b) {
		fputs("qemu-probe: out of memory\n", stderr);
		abort();
	}
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	b->start = qemu_plugin_tb_vaddr(tb);
	b->fall = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
	qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec_pair,
					     QEMU_PLUGIN_CB_NO_REGS, b);
}

/*
 * The counts, summed over the threads.  Nothing is freed: the process
 * ends right after, and a vCPU of another thread may still be inside a
 * callback with its block.
 */
static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	uint64_t blocks = 0, jumps = 0;
	const struct pthr *t;

	(void)id;
	(void)udata;
	if (!pair_mode)
		return;
	pthread_mutex_lock(&pg.lock);
	for (t = pg.threads; t; t = t->next) {
		blocks += t->blocks;
		jumps += t->jumps;
	}
	pthread_mutex_unlock(&pg.lock);
	fprintf(stderr, "qemu-probe: %llu blocks, %llu not reached by falling through\n",
		(unsigned long long)blocks, (unsigned long long)jumps);
}

QAPI_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				    const qemu_info_t *info, int argc,
				    char **argv)
{
	if (info->version.cur < QAPI_VERSION ||
	    info->version.min > QAPI_VERSION) {
		fprintf(stderr, "qemu-probe: QEMU's plugin API %d..%d lacks version %d\n",
			info->version.min, info->version.cur, QAPI_VERSION);
		return -1;
	}
	if (argc != 1 || (strcmp(argv[0], "mode=empty") &&
			  strcmp(argv[0], "mode=pair"))) {
		fputs("qemu-probe: want one argument, mode=empty or mode=pair\n",
		      stderr);
		return -1;
	}
	pair_mode = !strcmp(argv[0], "mode=pair");
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
