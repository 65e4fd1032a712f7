// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness for the perf.data reader (userspace/cli/input/perfdata.c).
 * Built by `make fuzz-perfdata` (with BLOCKRANGE_FUZZ_LIBFUZZER: the
 * LLVMFuzzerTestOneInput entry point) and into the CLI's Check runner,
 * which replays corpora through perfdata_fuzz_one().
 *
 * For any input, pd_read_mem() with small limits (1 MiB of decompressed
 * data per record, a 256 KiB ordering queue):
 *  - returns 0 or -1 (malformed), never -2, and -1 comes with one line
 *    "in: offset N...: expected ..." of printable text;
 *  - every event is sane: branch counts within PD_MAX_BRANCHES, strings
 *    terminated within the input's size, positions inside the input;
 *  - the statistics count what the sink saw;
 *  - a second read delivers exactly the same events (no hidden state);
 *  - a sink that stops after k events stops the read there with its value,
 *    after exactly the first k events of the full read.
 */
#define _POSIX_C_SOURCE 200809L

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hash.h"
#include "input/perfdata.h"

#include "fuzz_check.h"

#define STOP_VALUE 77

struct run {
	size_t size;
	uint64_t *digests;
	size_t nr, cap;
	size_t stop_after;	/* 0: never */
	uint64_t samples;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return br_hash2(h, v);
}

static uint64_t mix_str(uint64_t h, const char *s, size_t max)
{
	size_t n = strnlen(s, max + 1);

	CHECK(n <= max);
	while (n--)
		h = mix(h, (unsigned char)*s++);
	return h;
}

static int push(struct run *r, uint64_t d, char *err, size_t errsz)
{
	if (r->nr == r->cap) {
		size_t n = r->cap ? 2 * r->cap : 64;
		uint64_t *x = realloc(r->digests, n * sizeof(*x));

		CHECK(x);
		r->digests = x;
		r->cap = n;
	}
	r->digests[r->nr++] = d;
	if (r->stop_after && r->nr == r->stop_after) {
		snprintf(err, errsz, "stop");
		return STOP_VALUE;
	}
	return 0;
}

static void pos_ok(const struct run *r, const struct ev_pos *p)
{
	CHECK(p->name && !strcmp(p->name, "in"));
	CHECK(p->offset < r->size);
}

static int on_sample(void *arg, const struct ev_sample *s, char *err,
		     size_t errsz)
{
	struct run *r = arg;
	uint64_t h = 1;
	size_t i;

	pos_ok(r, &s->pos);
	CHECK(s->nr <= PD_MAX_BRANCHES);
	CHECK(!s->nr || (s->has_brstack && s->br));
	CHECK(s->callchain_nr <= PD_MAX_CALLCHAIN);
	CHECK(!s->callchain_nr == !s->callchain);
	CHECK(s->repeat == 1);
	h = mix_str(h, s->event, PD_NAME_MAX);
	h = mix(h, (uint64_t)s->pid);
	h = mix(h, (uint64_t)s->tid);
	h = mix(h, s->ip);
	for (i = 0; i < s->callchain_nr; i++)
		h = mix(h, s->callchain[i]);
	h = mix(h, s->time);
	h = mix(h, s->cpu);
	h = mix(h, s->period);
	h = mix(h, s->event_idx);
	h = mix(h, s->nr);
	for (i = 0; i < s->nr; i++) {
		const struct ev_branch *b = &s->br[i];

		CHECK(b->type < 16 && b->spec < 4 && b->new_type < 16 &&
		      b->priv < 8);
		CHECK(pd_branch_type_name(b->type, b->new_type));
		h = mix(h, b->from);
		h = mix(h, b->to);
		h = mix(h, (uint64_t)b->cycles << 32 | (uint64_t)b->type << 24 |
			   (uint64_t)b->new_type << 16 | (uint64_t)b->spec << 8 |
			   b->priv);
		h = mix(h, (uint64_t)b->predicted | (uint64_t)b->mispredicted << 1 |
			   (uint64_t)b->in_tx << 2 | (uint64_t)b->abort << 3);
	}
	r->samples++;
	return push(r, h, err, errsz);
}

static int on_mmap(void *arg, const struct ev_mmap *m, char *err,
		   size_t errsz)
{
	struct run *r = arg;
	uint64_t h = 2;

	pos_ok(r, &m->pos);
	CHECK(m->build_id_size <= BR_BUILD_ID_MAX);
	h = mix_str(h, m->path, r->size);
	h = mix(h, m->start);
	h = mix(h, m->len);
	h = mix(h, m->pgoff);
	h = mix(h, m->prot);
	return push(r, h, err, errsz);
}

static int on_comm(void *arg, const struct ev_comm *c, char *err,
		   size_t errsz)
{
	struct run *r = arg;

	pos_ok(r, &c->pos);
	return push(r, mix(mix_str(3, c->comm, r->size), (uint64_t)c->tid),
		    err, errsz);
}

static int on_task(void *arg, const struct ev_task *t, char *err,
		   size_t errsz)
{
	struct run *r = arg;

	pos_ok(r, &t->pos);
	return push(r, mix(mix(4, (uint64_t)t->tid), t->exit), err, errsz);
}

static int on_build_id(void *arg, const struct ev_build_id *b, char *err,
		       size_t errsz)
{
	struct run *r = arg;

	pos_ok(r, &b->pos);
	CHECK(b->size <= BR_BUILD_ID_MAX);
	return push(r, mix_str(5, b->path, r->size), err, errsz);
}

static int on_lost(void *arg, const struct ev_lost *l, char *err,
		   size_t errsz)
{
	struct run *r = arg;

	pos_ok(r, &l->pos);
	return push(r, mix(6, l->lost), err, errsz);
}

static int on_attr(void *arg, const struct ev_attr *a, char *err,
		   size_t errsz)
{
	struct run *r = arg;

	CHECK(a->name);
	return push(r, mix(mix_str(7, a->name, PD_NAME_MAX), a->idx), err,
		    errsz);
}

static void check_message(const char *err)
{
	size_t i;

	CHECK(!strncmp(err, "in: offset ", 11));
	CHECK(strstr(err, ": expected "));
	for (i = 0; err[i]; i++)
		CHECK(err[i] >= 0x20 && err[i] < 0x7f);
	CHECK(i < PD_ERR_MAX - 1);
}

static int read_it(const uint8_t *data, size_t size, struct run *r,
		   struct pd_stats *st, char *err, size_t errsz)
{
	struct ev_sink sink = {
		.sample = on_sample, .mmap = on_mmap, .comm = on_comm,
		.task = on_task, .build_id = on_build_id, .lost = on_lost,
		.attr = on_attr, .arg = r,
	};
	struct pd_opts o = { 256 << 10, 1 << 20 };

	r->size = size;
	return pd_read_mem(data, size, "in", &o, &sink, st, err, errsz);
}

int perfdata_fuzz_one(const uint8_t *data, size_t size);

int perfdata_fuzz_one(const uint8_t *data, size_t size)
{
	struct run a = { 0 }, b = { 0 }, c = { 0 };
	struct pd_stats sa, sb, sc;
	char ea[PD_ERR_MAX], eb[PD_ERR_MAX], ec[PD_ERR_MAX];
	int ra, rb, rc;

	ra = read_it(data, size, &a, &sa, ea, sizeof(ea));
	CHECK(ra == 0 || ra == -1);
	if (ra)
		check_message(ea);
	CHECK(sa.samples == a.samples);
	CHECK(sa.samples_brstack <= sa.samples);

	rb = read_it(data, size, &b, &sb, eb, sizeof(eb));
	CHECK(rb == ra && b.nr == a.nr);
	CHECK(!a.nr || !memcmp(a.digests, b.digests, a.nr * sizeof(*a.digests)));
	CHECK(!ra || !strcmp(ea, eb));

	c.stop_after = size % 5 + 1;
	rc = read_it(data, size, &c, &sc, ec, sizeof(ec));
	if (a.nr >= c.stop_after) {
		CHECK(rc == STOP_VALUE && !strcmp(ec, "stop"));
		CHECK(c.nr == c.stop_after);
		CHECK(!memcmp(a.digests, c.digests, c.nr * sizeof(*c.digests)));
	} else {
		CHECK(rc == ra && c.nr == a.nr);
	}
	free(a.digests);
	free(b.digests);
	free(c.digests);
	return 0;
}

#ifdef BLOCKRANGE_FUZZ_LIBFUZZER
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	return perfdata_fuzz_one(data, size);
}
#endif
