// SPDX-License-Identifier: GPL-2.0
/*
 * The floor of a block-pairing recorder under QEMU's plugin API version 4
 * (QEMU 9.2 to 10.0), measured by `make bench-qemu-api4` against the same
 * QEMU without a plugin.  Version 3 brought what version 1 lacks: per-vCPU
 * scoreboards, inline stores and callbacks that run only when a scoreboard
 * entry compares true with a constant.  A recorder can then keep the
 * pairing of blocks in generated code and call out only where it must.
 * One mode per run (argument mode=):
 *
 *   empty   every block calls a callback that does nothing;
 *   pair    every block calls a callback that pairs it with the block
 *           before: the least the version-1 recorder does;
 *   inline  every block adds 1 to its vCPU's count of blocks, inline;
 *   one     every block stores, inline, the address it falls through to,
 *           and calls a callback (that counts) only if the block before
 *           did not fall through to it: only after taken branches, the
 *           least an exact recorder does;
 *   taken   as one, and every block also counts itself and stores which
 *           block it is, so that the callback knows the branch's source;
 *   burst   every block adds 1 to a count, inline, and calls a callback
 *           only once the count reaches a period; the callback then pairs
 *           blocks for a burst of 64 blocks and rearms the count: what a
 *           sampled ring of the last 32 taken branches needs.
 *
 * The declarations below are written here from QEMU's documentation of
 * the API (docs/devel/tcg-plugins.rst and the reference it includes);
 * QEMU refuses a plugin whose version is outside [min, cur] and the probe
 * checks the range again.  At exit it prints its counts to stderr, so
 * that no work can be optimised away.  A benchmark probe: no record.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part of API version 4 the probe uses ---------------------------- */

#define P4_VERSION 4
#define P4_EXPORT __attribute__((visibility("default")))

typedef uint64_t qemu_plugin_id_t;

typedef struct {
	const char *target_name;
	struct {
		int min;
		int cur;
	} version;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus;
			int max_vcpus;
		} system;
	};
} qemu_info_t;

struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_plugin_scoreboard;

/* One uint64_t at @offset in every vCPU's entry of @score. */
typedef struct {
	struct qemu_plugin_scoreboard *score;
	size_t offset;
} qemu_plugin_u64;

enum qemu_plugin_cb_flags {
	QEMU_PLUGIN_CB_NO_REGS = 0,
	QEMU_PLUGIN_CB_R_REGS,
	QEMU_PLUGIN_CB_RW_REGS,
};

enum qemu_plugin_cond {
	QEMU_PLUGIN_COND_NEVER = 0,
	QEMU_PLUGIN_COND_ALWAYS,
	QEMU_PLUGIN_COND_EQ,
	QEMU_PLUGIN_COND_NE,
	QEMU_PLUGIN_COND_LT,
	QEMU_PLUGIN_COND_LE,
	QEMU_PLUGIN_COND_GT,
	QEMU_PLUGIN_COND_GE,
};

enum qemu_plugin_op {
	QEMU_PLUGIN_INLINE_ADD_U64 = 0,
	QEMU_PLUGIN_INLINE_STORE_U64,
};

typedef void (*p4_trans_cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb);
typedef void (*p4_vcpu_udata_cb)(unsigned int vcpu_index, void *userdata);
typedef void (*p4_udata_cb)(qemu_plugin_id_t id, void *userdata);
typedef void (*p4_vcpu_cb)(qemu_plugin_id_t id, unsigned int vcpu_index);

extern P4_EXPORT int qemu_plugin_version;
P4_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				  const qemu_info_t *info, int argc,
				  char **argv);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
					   p4_trans_cb cb);
void qemu_plugin_register_vcpu_tb_exec_cb(struct qemu_plugin_tb *tb,
					  p4_vcpu_udata_cb cb,
					  enum qemu_plugin_cb_flags flags,
					  void *userdata);
/* Call @cb when @tb runs if (@entry @cond @imm) holds then. */
void qemu_plugin_register_vcpu_tb_exec_cond_cb(struct qemu_plugin_tb *tb,
					       p4_vcpu_udata_cb cb,
					       enum qemu_plugin_cb_flags flags,
					       enum qemu_plugin_cond cond,
					       qemu_plugin_u64 entry,
					       uint64_t imm, void *userdata);
/* When @tb runs, apply @op with @imm to the running vCPU's @entry. */
void qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(struct qemu_plugin_tb *tb,
						       enum qemu_plugin_op op,
						       qemu_plugin_u64 entry,
						       uint64_t imm);
void qemu_plugin_register_vcpu_init_cb(qemu_plugin_id_t id, p4_vcpu_cb cb);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, p4_udata_cb cb,
				    void *userdata);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
/* An entry of @element_size bytes per vCPU, zeroed; it may move. */
struct qemu_plugin_scoreboard *qemu_plugin_scoreboard_new(size_t element_size);
void *qemu_plugin_scoreboard_find(struct qemu_plugin_scoreboard *score,
				  unsigned int vcpu_index);

/* ---- the probe ----------------------------------------------------------- */

P4_EXPORT int qemu_plugin_version = P4_VERSION;

enum mode { M_EMPTY, M_PAIR, M_INLINE, M_ONE, M_TAKEN, M_BURST, M_MODES };

static const char *const mode_names[M_MODES] = {
	[M_EMPTY] = "empty", [M_PAIR] = "pair", [M_INLINE] = "inline",
	[M_ONE] = "one", [M_TAKEN] = "taken", [M_BURST] = "burst",
};

#define BURST_PERIOD 10000	/* blocks between two bursts */
#define BURST_LEN 64		/* blocks paired in a burst */

/* A translated block. */
struct pblock {
	uint64_t start;
	uint64_t fall;		/* the address after its last instruction */
};

/* A vCPU's entry in the scoreboard, written by inline operations. */
struct pvcpu {
	uint64_t blocks;	/* inline, taken, burst: blocks counted */
	uint64_t expect;	/* one, taken: the last block's fall-through */
	uint64_t last;		/* taken: the last block (a struct pblock *) */
};

/* A guest thread (a vCPU on its host thread): what callbacks keep. */
struct pthr {
	const struct pblock *prev;	/* pair, burst */
	uint64_t calls;		/* callbacks that ran */
	uint64_t jumps;		/* blocks not reached by falling through */
	uint64_t burst;		/* burst: blocks left in the running burst */
	struct pthr *next;
};

static const struct pblock p_none = { .fall = UINT64_MAX };

static struct {
	enum mode mode;
	struct qemu_plugin_scoreboard *sb;
	qemu_plugin_u64 blocks, expect, last;
	pthread_mutex_t lock;
	struct pthr *threads;
	unsigned int vcpus;	/* 1 + the highest vCPU index seen */
} pg = { .lock = PTHREAD_MUTEX_INITIALIZER };

static __thread struct pthr *p_cur __attribute__((tls_model("initial-exec")));

static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	(void)id;
	pthread_mutex_lock(&pg.lock);
	if (pg.vcpus < vcpu + 1)
		pg.vcpus = vcpu + 1;
	pthread_mutex_unlock(&pg.lock);
}

static struct pthr *__attribute__((noinline)) thr_start(void)
{
	struct pthr *t = calloc(1, sizeof(*t));

	if (!t) {
		fputs("qemu-probe4: out of memory\n", stderr);
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

static inline struct pthr *thr(void)
{
	struct pthr *t = p_cur;

	return __builtin_expect(!t, 0) ? thr_start() : t;
}

static void on_exec_empty(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	(void)udata;
}

static inline void pair(struct pthr *t, const struct pblock *c)
{
	const struct pblock *p = t->prev;

	t->prev = c;
	t->calls++;
	if (c->start != p->fall)
		t->jumps++;
}

static void on_exec_pair(unsigned int vcpu, void *udata)
{
	(void)vcpu;
	pair(thr(), udata);
}

/* one: a block not reached by falling through; count it, no more. */
static void on_exec_one(unsigned int vcpu, void *udata)
{
	struct pthr *t = thr();

	(void)vcpu;
	(void)udata;
	t->calls++;
	t->jumps++;
}

/* taken: the same, and the block the branch left (written inline). */
static void on_exec_taken(unsigned int vcpu, void *udata)
{
	struct pthr *t = thr();
	const struct pvcpu *v = qemu_plugin_scoreboard_find(pg.sb, vcpu);

	(void)udata;
	t->calls++;
	t->jumps += v->last != 0;
}

/* burst: the count reached the period, or a burst runs. */
static void on_exec_burst(unsigned int vcpu, void *udata)
{
	struct pthr *t = thr();
	struct pvcpu *v = qemu_plugin_scoreboard_find(pg.sb, vcpu);

	if (!t->burst) {
		t->burst = BURST_LEN;
		t->prev = &p_none;
	}
	pair(t, udata);
	/* at the period, the next block calls again; else count afresh */
	v->blocks = --t->burst ? BURST_PERIOD : 0;
}

static void inline_op(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
		      qemu_plugin_u64 entry, uint64_t imm)
{
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, op, entry, imm);
}

static void on_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct qemu_plugin_insn *last;
	struct pblock *b;

	(void)id;
	if (!n)
		return;
	b = calloc(1, sizeof(*b));
	if (!b) {
		fputs("qemu-probe4: out of memory\n", stderr);
		abort();
	}
	last = qemu_plugin_tb_get_insn(tb, n - 1);
	b->start = qemu_plugin_tb_vaddr(tb);
	b->fall = qemu_plugin_insn_vaddr(last) + qemu_plugin_insn_size(last);
	switch (pg.mode) {
	case M_EMPTY:
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec_empty,
						     QEMU_PLUGIN_CB_NO_REGS, b);
		break;
	case M_PAIR:
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_exec_pair,
						     QEMU_PLUGIN_CB_NO_REGS, b);
		break;
	case M_INLINE:
		inline_op(tb, QEMU_PLUGIN_INLINE_ADD_U64, pg.blocks, 1);
		break;
	case M_ONE:
		qemu_plugin_register_vcpu_tb_exec_cond_cb(
			tb, on_exec_one, QEMU_PLUGIN_CB_NO_REGS,
			QEMU_PLUGIN_COND_NE, pg.expect, b->start, b);
		inline_op(tb, QEMU_PLUGIN_INLINE_STORE_U64, pg.expect, b->fall);
		break;
	case M_TAKEN:
		inline_op(tb, QEMU_PLUGIN_INLINE_ADD_U64, pg.blocks, 1);
		qemu_plugin_register_vcpu_tb_exec_cond_cb(
			tb, on_exec_taken, QEMU_PLUGIN_CB_NO_REGS,
			QEMU_PLUGIN_COND_NE, pg.expect, b->start, b);
		inline_op(tb, QEMU_PLUGIN_INLINE_STORE_U64, pg.expect, b->fall);
		inline_op(tb, QEMU_PLUGIN_INLINE_STORE_U64, pg.last,
			  (uint64_t)(uintptr_t)b);
		break;
	case M_BURST:
		inline_op(tb, QEMU_PLUGIN_INLINE_ADD_U64, pg.blocks, 1);
		qemu_plugin_register_vcpu_tb_exec_cond_cb(
			tb, on_exec_burst, QEMU_PLUGIN_CB_NO_REGS,
			QEMU_PLUGIN_COND_GE, pg.blocks, BURST_PERIOD, b);
		break;
	default:
		break;
	}
}

/*
 * The counts, summed over the threads and vCPUs.  Nothing is freed: the
 * process ends right after.
 */
static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	uint64_t blocks = 0, calls = 0, jumps = 0;
	const struct pthr *t;
	unsigned int i;

	(void)id;
	(void)udata;
	pthread_mutex_lock(&pg.lock);
	for (t = pg.threads; t; t = t->next) {
		calls += t->calls;
		jumps += t->jumps;
	}
	for (i = 0; i < pg.vcpus; i++)
		blocks += ((const struct pvcpu *)
			   qemu_plugin_scoreboard_find(pg.sb, i))->blocks;
	pthread_mutex_unlock(&pg.lock);
	fprintf(stderr, "qemu-probe4 %s: %llu blocks counted inline, %llu callbacks, %llu not reached by falling through\n",
		mode_names[pg.mode], (unsigned long long)blocks,
		(unsigned long long)calls, (unsigned long long)jumps);
}

P4_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
				  const qemu_info_t *info, int argc,
				  char **argv)
{
	int m;

	if (info->version.cur < P4_VERSION || info->version.min > P4_VERSION) {
		fprintf(stderr, "qemu-probe4: QEMU's plugin API %d..%d lacks version %d\n",
			info->version.min, info->version.cur, P4_VERSION);
		return -1;
	}
	for (m = 0; m < M_MODES; m++)
		if (argc == 1 && !strncmp(argv[0], "mode=", 5) &&
		    !strcmp(argv[0] + 5, mode_names[m]))
			break;
	if (m == M_MODES) {
		fputs("qemu-probe4: want one argument, mode=empty, pair, inline, one, taken or burst\n",
		      stderr);
		return -1;
	}
	pg.mode = (enum mode)m;
	pg.sb = qemu_plugin_scoreboard_new(sizeof(struct pvcpu));
	pg.blocks = (qemu_plugin_u64){ pg.sb, offsetof(struct pvcpu, blocks) };
	pg.expect = (qemu_plugin_u64){ pg.sb, offsetof(struct pvcpu, expect) };
	pg.last = (qemu_plugin_u64){ pg.sb, offsetof(struct pvcpu, last) };
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_trans);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
