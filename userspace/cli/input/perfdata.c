// SPDX-License-Identifier: GPL-2.0
/*
 * perf.data reader.  See perfdata.h for the contract and the layers.  The
 * format comes from the kernel's perf.data-file-format.txt and
 * <linux/perf_event.h>; perf's own output was the oracle for behaviour
 * (ordering, naming, READ samples).
 */
#define _GNU_SOURCE

#include "input/perfdata.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "base/grow.h"
#include "base/status.h"
#include "format/perf_file.h"
#include "input/pdqueue.h"

#define HDR 8			/* struct perf_event_header */
#define FILE_HDR_SIZE 104	/* struct pf_header */
#define FILE_HDR_OLD 72		/* without the feature bitmap */
#define PIPE_HDR_SIZE 16
#define EVENT_UPDATE_NAME 2	/* PERF_EVENT_UPDATE__NAME */
/* sample_type bits a perf 6.x writer may set (PERF_SAMPLE_MAX - 1). */
#define SAMPLE_KNOWN ((uint64_t)PERF_SAMPLE_MAX - 1)
#define READ_KNOWN ((uint64_t)PERF_FORMAT_MAX - 1)
/* branch_sample_type bit of 6.8's counters after the entries. */
#define BRANCH_COUNTERS (1ull << 19)

/* ------------------------------------------------------------------ */
/* byte order                                                          */

static inline uint64_t ld64(bool swap, const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return swap ? __builtin_bswap64(v) : v;
}

static inline uint32_t ld32(bool swap, const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint16_t ld16(bool swap, const uint8_t *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	return swap ? __builtin_bswap16(v) : v;
}

/*
 * A bitfield of a u64 word (already in host order): @off and @w as the
 * little-endian ABI lays it out; a big-endian writer allocates bitfields
 * from the most significant bit.
 */
static inline uint64_t bits(bool swap, uint64_t v, unsigned off, unsigned w)
{
	uint64_t mask = w == 64 ? ~0ull : (1ull << w) - 1;

	return (swap ? v >> (64 - off - w) : v >> off) & mask;
}

static int errf(char *err, size_t errsz, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int errf(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errsz, fmt, ap);
	va_end(ap);
	return BR_EINPUT;
}

/* ------------------------------------------------------------------ */
/* attrs and names                                                     */

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy", "bpf-output", "cgroup-switches",
};

static const char *const cache_names[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};

static const char *const cache_ops[][2] = {
	{ "load", "loads" }, { "store", "stores" },
	{ "prefetch", "prefetches" },
};

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

void pd_attr_name(const struct pd_attr *a, char *buf, size_t bufsz)
{
	size_t n;
	bool colon = false, guest_default = false;

	switch (a->type) {
	case PERF_TYPE_HARDWARE:
		snprintf(buf, bufsz, "%s", a->config < ARRAY_SIZE(hw_names) ?
			 hw_names[a->config] : "unknown-hardware");
		break;
	case PERF_TYPE_SOFTWARE:
		snprintf(buf, bufsz, "%s", a->config < ARRAY_SIZE(sw_names) ?
			 sw_names[a->config] : "unknown-software");
		break;
	case PERF_TYPE_HW_CACHE: {
		uint64_t c = a->config & 0xff, op = (a->config >> 8) & 0xff;
		uint64_t res = (a->config >> 16) & 0xff;

		if (c >= ARRAY_SIZE(cache_names) || op >= ARRAY_SIZE(cache_ops) ||
		    res > 1)
			snprintf(buf, bufsz, "unknown-ext-hardware-cache-type");
		else if (res)
			snprintf(buf, bufsz, "%s-%s-misses", cache_names[c],
				 cache_ops[op][0]);
		else
			snprintf(buf, bufsz, "%s-%s", cache_names[c],
				 cache_ops[op][1]);
		break;
	}
	case PERF_TYPE_RAW:
		snprintf(buf, bufsz, "raw 0x%" PRIx64, a->config);
		break;
	case PERF_TYPE_TRACEPOINT:
		snprintf(buf, bufsz, "tracepoint");
		break;
	case PERF_TYPE_BREAKPOINT:
		/* mem:ADDR:ACCESS, ACCESS some of r, w, x (perf 6.1) */
		snprintf(buf, bufsz, "mem:0x%" PRIx64 ":%s%s%s", a->bp_addr,
			 a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
			 a->bp_type & 4 ? "x" : "");
		break;
	default:
		/* perf 6.1 adds no modifiers to it */
		snprintf(buf, bufsz, "unknown attr type: %" PRIu32, a->type);
		return;
	}
	/* Modifiers, as perf 6.1 prints them. */
	n = strlen(buf);
#define MOD(c) do {							\
		if (n + 3 < bufsz) {					\
			if (!colon) {					\
				buf[n++] = ':';				\
				colon = true;				\
			}						\
			buf[n++] = (c);					\
		}							\
	} while (0)
	if (a->exclude_kernel || a->exclude_user || a->exclude_hv) {
		if (!a->exclude_kernel)
			MOD('k');
		if (!a->exclude_user)
			MOD('u');
		if (!a->exclude_hv)
			MOD('h');
		guest_default = true;
	}
	for (unsigned i = 0; i < a->precise_ip; i++) {
		MOD('p');
		guest_default = true;
	}
	if (a->exclude_host || a->exclude_guest == guest_default) {
		if (!a->exclude_host)
			MOD('H');
		if (!a->exclude_guest)
			MOD('G');
	}
#undef MOD
	buf[n] = '\0';
}

static int cmp_id(const void *a, const void *b)
{
	const struct pd_id *x = a, *y = b;

	return x->id < y->id ? -1 : x->id > y->id;
}

int pd_decoder_find_id(const struct pd_decoder *d, uint64_t id)
{
	size_t lo = 0, hi = d->nr_ids;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (d->ids[mid].id == id)
			return (int)d->ids[mid].attr;
		if (d->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

static unsigned popcount64(uint64_t v)
{
	return (unsigned)__builtin_popcountll(v);
}

/* Position of the id in a sample (u64 index), -1: none. */
static int sample_id_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 0;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return (int)popcount64(st & (PERF_SAMPLE_IP | PERF_SAMPLE_TID |
				     PERF_SAMPLE_TIME | PERF_SAMPLE_ADDR));
}

/* Position of the id in sample_id, u64s from the end; -1: none. */
static int sample_is_pos(uint64_t st)
{
	if (st & PERF_SAMPLE_IDENTIFIER)
		return 1;
	if (!(st & PERF_SAMPLE_ID))
		return -1;
	return 1 + (int)popcount64(st & (PERF_SAMPLE_STREAM_ID |
					 PERF_SAMPLE_CPU));
}

static void update_positions(struct pd_decoder *d)
{
	size_t i;

	d->id_pos = sample_id_pos(d->attrs[0].sample_type);
	d->is_pos = sample_is_pos(d->attrs[0].sample_type);
	for (i = 1; i < d->nr_attrs; i++) {
		if (sample_id_pos(d->attrs[i].sample_type) != d->id_pos)
			d->id_pos = -2;
		if (sample_is_pos(d->attrs[i].sample_type) != d->is_pos)
			d->is_pos = -2;
	}
}

/* The fields of the perf_event_attr at @p (@len bytes) into @a. */
static int parse_attr(const struct pd_decoder *d, const uint8_t *p,
		      size_t len, struct pd_attr *a, char *err, size_t errsz)
{
	uint64_t flags;
	uint32_t size;

	memset(a, 0, sizeof(*a));
	if (len < PERF_ATTR_SIZE_VER0)
		return errf(err, errsz,
			    "expected a perf_event_attr of at least %d bytes, got %zu",
			    PERF_ATTR_SIZE_VER0, len);
	size = ld32(d->swap, p + 4);
	if (!size)
		size = PERF_ATTR_SIZE_VER0;
	if (size < PERF_ATTR_SIZE_VER0 || size > 4096)
		return errf(err, errsz,
			    "expected attr.size 0 or %d..4096, got %" PRIu32,
			    PERF_ATTR_SIZE_VER0, size);
	if (len > size)
		len = size;
	a->type = ld32(d->swap, p);
	a->size = size;
	a->config = ld64(d->swap, p + 8);
	a->sample_period = ld64(d->swap, p + 16);
	a->sample_type = ld64(d->swap, p + 24);
	a->read_format = ld64(d->swap, p + 32);
	flags = ld64(d->swap, p + 40);
	a->bp_type = ld32(d->swap, p + 52);
	a->bp_addr = ld64(d->swap, p + 56);
	if (len >= PERF_ATTR_SIZE_VER2)
		a->branch_sample_type = ld64(d->swap, p + 72);
	if (len >= 88)
		a->sample_regs_user = ld64(d->swap, p + 80);
	if (len >= PERF_ATTR_SIZE_VER4)
		a->sample_regs_intr = ld64(d->swap, p + 96);
	if (a->sample_type & ~SAMPLE_KNOWN)
		return errf(err, errsz,
			    "expected sample_type bits below 0x%llx, got 0x%" PRIx64,
			    (unsigned long long)PERF_SAMPLE_MAX, a->sample_type);
	if (a->read_format & ~READ_KNOWN)
		return errf(err, errsz,
			    "expected read_format bits below 0x%x, got 0x%" PRIx64,
			    PERF_FORMAT_MAX, a->read_format);
	a->exclude_user = bits(d->swap, flags, 4, 1);
	a->exclude_kernel = bits(d->swap, flags, 5, 1);
	a->exclude_hv = bits(d->swap, flags, 6, 1);
	a->precise_ip = (uint8_t)bits(d->swap, flags, 15, 2);
	a->sample_id_all = bits(d->swap, flags, 18, 1);
	a->exclude_host = bits(d->swap, flags, 19, 1);
	a->exclude_guest = bits(d->swap, flags, 20, 1);
	if (a->sample_id_all)
		a->id_hdr_size = 8 * popcount64(a->sample_type &
			(PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID |
			 PERF_SAMPLE_STREAM_ID | PERF_SAMPLE_CPU |
			 PERF_SAMPLE_IDENTIFIER));
	pd_attr_name(a, a->name, sizeof(a->name));
	return 0;
}

/* Room for one more attr and @nr_ids more ids. */
static int reserve_attr(struct pd_decoder *d, size_t nr_ids, char *err,
			size_t errsz)
{
	if (d->nr_attrs >= PD_MAX_ATTRS)
		return errf(err, errsz, "expected at most %d events, got more",
			    PD_MAX_ATTRS);
	if (d->nr_ids + nr_ids > PD_MAX_IDS)
		return errf(err, errsz, "expected at most %u event ids, got %zu",
			    PD_MAX_IDS, d->nr_ids + nr_ids);
	if (br_grow((void **)&d->attrs, &d->cap_attrs, d->nr_attrs + 1,
		    sizeof(*d->attrs))) {
		snprintf(err, errsz, "out of memory for the events");
		return BR_ESYS;
	}
	if (br_grow_from((void **)&d->ids, &d->cap_ids, d->nr_ids + nr_ids,
			 sizeof(*d->ids), 16)) {
		snprintf(err, errsz, "out of memory for the event ids");
		return BR_ESYS;
	}
	return 0;
}

int pd_decoder_add_attr(struct pd_decoder *d, const uint8_t *p, size_t len,
			const uint8_t *ids, size_t nr_ids, char *err,
			size_t errsz)
{
	struct pd_attr a;
	size_t i;
	int r = parse_attr(d, p, len, &a, err, errsz);

	if (!r)
		r = reserve_attr(d, nr_ids, err, errsz);
	if (r)
		return r;
	for (i = 0; i < nr_ids; i++) {
		uint64_t id = ld64(d->swap, ids + 8 * i);

		/* A duplicate keeps its first attr (ids are unique). */
		if (pd_decoder_find_id(d, id) >= 0)
			continue;
		d->ids[d->nr_ids].id = id;
		d->ids[d->nr_ids].attr = (uint32_t)d->nr_attrs;
		d->nr_ids++;
		/* keep sorted: insertion from the end */
		for (size_t k = d->nr_ids - 1;
		     k > 0 && cmp_id(&d->ids[k - 1], &d->ids[k]) > 0; k--) {
			struct pd_id t = d->ids[k];

			d->ids[k] = d->ids[k - 1];
			d->ids[k - 1] = t;
		}
	}
	d->attrs[d->nr_attrs++] = a;
	update_positions(d);
	return 0;
}

void pd_decoder_free(struct pd_decoder *d)
{
	free(d->attrs);
	free(d->ids);
	memset(d, 0, sizeof(*d));
}

static const char *const br_type_names[] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL",
	"SYSRET", "COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX",
};

static const char *const br_new_type_names[] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2",
	"ARCH_3", "ARCH_4", "ARCH_5",
};

const char *pd_branch_type_name(uint8_t type, uint8_t new_type)
{
	if (type < ARRAY_SIZE(br_type_names))
		return br_type_names[type];
	if (type == PERF_BR_EXTEND_ABI && new_type < ARRAY_SIZE(br_new_type_names))
		return br_new_type_names[new_type];
	return "(null)";	/* what perf 6.1 prints for the others */
}

/* ------------------------------------------------------------------ */
/* record decoding                                                     */

/* Bounds-checked cursor over one record. */
struct cur {
	const uint8_t *base;
	const uint8_t *p;
	const uint8_t *e;
	bool swap;
	char *err;
	size_t errsz;
	int bad;
};

static bool take(struct cur *c, size_t n, const char *what)
{
	if (c->bad)
		return false;
	if ((size_t)(c->e - c->p) < n) {
		errf(c->err, c->errsz,
		     "expected %s (%zu bytes) at byte %zu of the record, got %zu bytes left of its %zu",
		     what, n, (size_t)(c->p - c->base), (size_t)(c->e - c->p),
		     (size_t)(c->e - c->base));
		c->bad = BR_EINPUT;
		return false;
	}
	return true;
}

static uint64_t get64(struct cur *c, const char *what)
{
	uint64_t v;

	if (!take(c, 8, what))
		return 0;
	v = ld64(c->swap, c->p);
	c->p += 8;
	return v;
}

static void get32x2(struct cur *c, const char *what, uint32_t *a, uint32_t *b)
{
	if (!take(c, 8, what)) {
		*a = *b = 0;
		return;
	}
	*a = ld32(c->swap, c->p);
	*b = ld32(c->swap, c->p + 4);
	c->p += 8;
}

static void skip(struct cur *c, size_t n, const char *what)
{
	if (take(c, n, what))
		c->p += n;
}

/* A count of @unit-byte items that must fit in what is left. */
static uint64_t get_count(struct cur *c, size_t unit, const char *what)
{
	uint64_t n = get64(c, what);

	if (c->bad)
		return 0;
	if (n > (uint64_t)(c->e - c->p) / unit) {
		errf(c->err, c->errsz,
		     "expected %s of at most %zu (the bytes left), got %" PRIu64,
		     what, (size_t)(c->e - c->p) / unit, n);
		c->bad = BR_EINPUT;
		return 0;
	}
	return n;
}

static enum ev_cpumode cpumode(uint16_t misc)
{
	switch (misc & PERF_RECORD_MISC_CPUMODE_MASK) {
	case PERF_RECORD_MISC_KERNEL:
		return EV_CPU_KERNEL;
	case PERF_RECORD_MISC_USER:
		return EV_CPU_USER;
	case PERF_RECORD_MISC_HYPERVISOR:
		return EV_CPU_HYPERVISOR;
	case PERF_RECORD_MISC_GUEST_KERNEL:
		return EV_CPU_GUEST_KERNEL;
	case PERF_RECORD_MISC_GUEST_USER:
		return EV_CPU_GUEST_USER;
	default:
		return EV_CPU_UNKNOWN;
	}
}

/* The attr a record belongs to; -1 with the message if that fails. */
static int record_attr(const struct pd_decoder *d, uint32_t type,
		       const uint8_t *rec, size_t size, bool *unknown,
		       char *err, size_t errsz)
{
	uint64_t id;
	int a;

	*unknown = false;
	if (!d->nr_attrs)
		return errf(err, errsz,
			    "expected the event attributes before the first record, got none");
	if (d->nr_attrs == 1)
		return 0;
	if (type == PERF_RECORD_SAMPLE) {
		if (d->id_pos == -2)
			return errf(err, errsz,
				    "expected every event's samples to hold the id at the same place (PERF_SAMPLE_IDENTIFIER), got different sample types");
		if (d->id_pos < 0)
			return errf(err, errsz,
				    "expected PERF_SAMPLE_ID or IDENTIFIER in the samples of several events, got neither");
		if (size < HDR + 8 * ((size_t)d->id_pos + 1))
			return errf(err, errsz,
				    "expected the sample id at byte %d, got a record of %zu bytes",
				    HDR + 8 * d->id_pos, size);
		id = ld64(d->swap, rec + HDR + 8 * d->id_pos);
	} else {
		/* perf takes the first event's sample_id layout */
		if (!d->attrs[0].sample_id_all || d->is_pos == -1)
			return 0;
		if (d->is_pos == -2)
			return errf(err, errsz,
				    "expected every event's records to hold the id at the same place (PERF_SAMPLE_IDENTIFIER), got different sample types");
		if (size < HDR + 8 * (size_t)d->is_pos)
			return errf(err, errsz,
				    "expected the sample_id of %d bytes at the end of the record, got a record of %zu bytes",
				    8 * d->is_pos, size);
		id = ld64(d->swap, rec + size - 8 * (size_t)d->is_pos);
	}
	if (!id)
		return 0;
	a = pd_decoder_find_id(d, id);
	if (a < 0) {
		*unknown = true;
		return 0;
	}
	return a;
}

/* struct sample_id at the end of a non-sample record: its time. */
static int parse_sample_id(const struct pd_attr *a, const uint8_t *rec,
			   size_t size, size_t fixed, bool swap,
			   struct pd_record *out, char *err, size_t errsz)
{
	struct cur c;
	uint64_t st = a->sample_type;

	if (!a->sample_id_all)
		return 0;
	if (size < fixed + a->id_hdr_size)
		return errf(err, errsz,
			    "expected %zu bytes of fields and %u of sample_id, got a record of %zu bytes",
			    fixed - HDR, a->id_hdr_size, size);
	c = (struct cur){ rec, rec + size - a->id_hdr_size, rec + size, swap,
			  err, errsz, 0 };
	if (st & PERF_SAMPLE_TID)
		skip(&c, 8, "sample_id pid/tid");
	if (st & PERF_SAMPLE_TIME) {
		out->time = get64(&c, "sample_id time");
		out->has_time = true;
	}
	return c.bad;
}

/* Skip PERF_SAMPLE_REGS_*: abi, then one u64 per bit of @mask. */
static void skip_regs(struct cur *c, uint64_t mask, const char *what)
{
	uint64_t abi = get64(c, what);

	if (abi)
		skip(c, 8 * (size_t)popcount64(mask), what);
}

/* PERF_SAMPLE_READ: where the values are, to be delivered one by one. */
static int decode_read(struct cur *c, const struct pd_attr *a,
		       struct pd_record *out)
{
	uint64_t rf = a->read_format;
	size_t per = 8 * (1 + !!(rf & PERF_FORMAT_ID) +
			  !!(rf & PERF_FORMAT_LOST));
	size_t times = 8 * popcount64(rf & (PERF_FORMAT_TOTAL_TIME_ENABLED |
					    PERF_FORMAT_TOTAL_TIME_RUNNING));

	if (rf & PERF_FORMAT_GROUP) {
		uint64_t nr = get_count(c, per, "the read group's nr");

		skip(c, times, "the read times");
		if (!c->bad && nr > (uint64_t)(c->e - c->p) / per)
			return errf(c->err, c->errsz,
				    "expected a read group of at most %zu values, got %" PRIu64,
				    (size_t)(c->e - c->p) / per, nr);
		out->read = c->p;
		out->nr_read = nr;
		out->read_group = true;
		skip(c, per * (size_t)nr, "the read group values");
	} else {
		if (take(c, 8 + times + per - 8, "the read value"))
			out->read = c->p;
		out->nr_read = 1;
		skip(c, 8 + times + per - 8, "the read value");
	}
	return 0;
}

/* The @nr entries of a branch stack at @q into @br (perf_branch_entry). */
static void decode_entries(bool sw, const uint8_t *q, uint64_t nr,
			   struct ev_branch *br)
{
	uint64_t i;

	for (i = 0; i < nr; i++, q += 24) {
		uint64_t f = ld64(sw, q + 16);
		struct ev_branch *b = &br[i];

		b->from = ld64(sw, q);
		b->to = ld64(sw, q + 8);
		b->mispredicted = bits(sw, f, 0, 1);
		b->predicted = bits(sw, f, 1, 1);
		b->in_tx = bits(sw, f, 2, 1);
		b->abort = bits(sw, f, 3, 1);
		b->cycles = (uint16_t)bits(sw, f, 4, 16);
		b->type = (uint8_t)bits(sw, f, 20, 4);
		b->spec = (uint8_t)bits(sw, f, 24, 2);
		b->new_type = (uint8_t)bits(sw, f, 26, 4);
		b->priv = (uint8_t)bits(sw, f, 30, 3);
		b->not_taken = false;
	}
}

/* PERF_SAMPLE_BRANCH_STACK (with hw_idx and counters when the attr has). */
static int decode_brstack(struct cur *c, const struct pd_attr *a,
			  struct ev_branch *br, struct ev_sample *s)
{
	uint64_t nr = get64(c, "the branch stack nr");

	if (a->branch_sample_type & PERF_SAMPLE_BRANCH_HW_INDEX) {
		s->hw_idx = get64(c, "the branch stack hw_idx");
		s->has_hw_idx = true;
	}
	if (!c->bad && nr > (uint64_t)(c->e - c->p) / 24)
		return errf(c->err, c->errsz,
			    "expected a branch stack nr of at most %zu (the bytes left), got %" PRIu64,
			    (size_t)(c->e - c->p) / 24, nr);
	if (c->bad)
		return 0;
	s->has_brstack = true;
	s->nr = (size_t)nr;
	s->br = br;
	if (br)
		decode_entries(c->swap, c->p, nr, br);
	c->p += 24 * (size_t)nr;
	if (a->branch_sample_type & BRANCH_COUNTERS)
		skip(c, 8 * (size_t)nr, "the branch counters");
	return 0;
}

/* The fields before PERF_SAMPLE_READ: ids, ip, pid/tid, time, cpu, period. */
static void decode_sample_head(struct cur *c, uint64_t st,
			       struct pd_record *out)
{
	struct ev_sample *s = &out->sample;

	if (st & PERF_SAMPLE_IDENTIFIER)
		get64(c, "the sample identifier");
	if (st & PERF_SAMPLE_IP) {
		s->ip = get64(c, "the sample ip");
		s->has_ip = true;
	}
	if (st & PERF_SAMPLE_TID) {
		uint32_t p, t;

		get32x2(c, "the sample pid/tid", &p, &t);
		s->pid = (int32_t)p;
		s->tid = (int32_t)t;
	}
	if (st & PERF_SAMPLE_TIME) {
		s->time = get64(c, "the sample time");
		s->has_time = true;
		out->has_time = true;
		out->time = s->time;
	}
	if (st & PERF_SAMPLE_ADDR)
		get64(c, "the sample addr");
	if (st & PERF_SAMPLE_ID)
		get64(c, "the sample id");
	if (st & PERF_SAMPLE_STREAM_ID)
		get64(c, "the sample stream_id");
	if (st & PERF_SAMPLE_CPU) {
		uint32_t cp, res;

		get32x2(c, "the sample cpu", &cp, &res);
		s->cpu = cp;
	}
	if (st & PERF_SAMPLE_PERIOD)
		s->period = get64(c, "the sample period");
}

/* The fields after the branch stack, only checked and skipped. */
static void skip_sample_tail(struct cur *c, const struct pd_attr *a,
			     uint64_t st)
{
	if (st & PERF_SAMPLE_REGS_USER)
		skip_regs(c, a->sample_regs_user, "the user registers");
	if (st & PERF_SAMPLE_STACK_USER) {
		uint64_t n = get_count(c, 1, "the user stack size");

		skip(c, (size_t)n, "the user stack");
		if (n)
			get64(c, "the user stack dyn_size");
	}
	if (st & (PERF_SAMPLE_WEIGHT | PERF_SAMPLE_WEIGHT_STRUCT))
		get64(c, "the sample weight");
	if (st & PERF_SAMPLE_DATA_SRC)
		get64(c, "the sample data_src");
	if (st & PERF_SAMPLE_TRANSACTION)
		get64(c, "the sample transaction");
	if (st & PERF_SAMPLE_REGS_INTR)
		skip_regs(c, a->sample_regs_intr, "the interrupt registers");
	if (st & PERF_SAMPLE_PHYS_ADDR)
		get64(c, "the sample phys_addr");
	if (st & PERF_SAMPLE_CGROUP)
		get64(c, "the sample cgroup");
	if (st & PERF_SAMPLE_DATA_PAGE_SIZE)
		get64(c, "the sample data_page_size");
	if (st & PERF_SAMPLE_CODE_PAGE_SIZE)
		get64(c, "the sample code_page_size");
	if (st & PERF_SAMPLE_AUX) {
		uint64_t n = get_count(c, 1, "the aux sample size");

		skip(c, (size_t)n, "the aux sample");
	}
}

static int decode_sample(const struct pd_decoder *d, const struct pd_attr *a,
			 int ai, const uint8_t *rec, size_t size,
			 struct ev_branch *br, struct pd_record *out,
			 char *err, size_t errsz)
{
	struct cur c = { rec, rec + HDR, rec + size, d->swap, err, errsz, 0 };
	uint64_t st = a->sample_type;
	struct ev_sample *s = &out->sample;
	uint16_t misc = ld16(d->swap, rec + 4);

	s->pid = s->tid = -1;
	s->cpu = UINT32_MAX;
	s->period = a->sample_period;	/* perf's value without PERIOD */
	s->repeat = 1;
	s->cpumode = cpumode(misc);
	s->event = a->name;
	s->event_idx = (unsigned)ai;
	decode_sample_head(&c, st, out);
	if ((st & PERF_SAMPLE_READ) && decode_read(&c, a, out))
		return BR_EINPUT;
	if (st & PERF_SAMPLE_CALLCHAIN) {
		uint64_t nr = get_count(&c, 8, "the callchain nr");
		const uint8_t *chain = c.p;

		skip(&c, 8 * (size_t)nr, "the callchain");
		if (!c.bad) {
			s->chain = chain;
			s->nr_chain = (size_t)nr;
			s->chain_swap = d->swap;
		}
	}
	if ((st & PERF_SAMPLE_RAW) && take(&c, 4, "the raw data size")) {
		uint32_t n = ld32(d->swap, c.p);

		c.p += 4;
		skip(&c, n, "the raw data");
	}
	if ((st & PERF_SAMPLE_BRANCH_STACK) && decode_brstack(&c, a, br, s))
		return BR_EINPUT;
	skip_sample_tail(&c, a, st);
	return c.bad;
}

/* A NUL-terminated string in [p, e); false if there is no NUL. */
static bool cstring(const uint8_t *p, const uint8_t *e)
{
	return p < e && memchr(p, '\0', (size_t)(e - p));
}

/**
 * struct side_band - what every side-band record type has
 * @type:   its PERF_RECORD_* type
 * @kind:   its name in messages
 * @fixed:  the size of its own fields, header included
 * @string: a NUL-terminated string follows them (at least one byte)
 * @decode: its fields into @out (@end: where the sample_id trailer starts,
 *          at least @fixed + @string): 0 or BR_EINPUT with a message
 */
struct side_band {
	uint32_t type;
	const char *kind;
	size_t fixed;
	bool string;
	int (*decode)(const struct pd_decoder *d, const struct side_band *sb,
		      const uint8_t *rec, size_t end, struct pd_record *out,
		      char *err, size_t errsz);
};

/* PERF_RECORD_MMAP and MMAP2. */
static int decode_mmap(const struct pd_decoder *d, const struct side_band *sb,
		       const uint8_t *rec, size_t end, struct pd_record *out,
		       char *err, size_t errsz)
{
	uint16_t misc = ld16(d->swap, rec + 4);
	struct ev_mmap *m = &out->mmap;
	const uint8_t *p = rec + HDR;

	m->pid = (int32_t)ld32(d->swap, p);
	m->tid = (int32_t)ld32(d->swap, p + 4);
	m->start = ld64(d->swap, p + 8);
	m->len = ld64(d->swap, p + 16);
	m->pgoff = ld64(d->swap, p + 24);
	m->cpumode = cpumode(misc);
	if (sb->type == PERF_RECORD_MMAP2) {
		if (misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
			m->build_id_size = p[32];
			if (m->build_id_size > BR_BUILD_ID_MAX)
				return errf(err, errsz,
					    "expected an MMAP2 build-id size of at most %d, got %u",
					    BR_BUILD_ID_MAX, m->build_id_size);
			memcpy(m->build_id, p + 36, m->build_id_size);
		} else {
			m->has_dev = true;
			m->maj = ld32(d->swap, p + 32);
			m->min = ld32(d->swap, p + 36);
			m->ino = ld64(d->swap, p + 40);
			m->ino_generation = ld64(d->swap, p + 48);
		}
		m->has_prot = true;
		m->prot = ld32(d->swap, p + 56);
		m->flags = ld32(d->swap, p + 60);
		m->exec = m->prot & 4;	/* PROT_EXEC */
	} else {
		m->exec = !(misc & PERF_RECORD_MISC_MMAP_DATA);
	}
	if (!cstring(rec + sb->fixed, rec + end))
		return errf(err, errsz,
			    "expected a NUL-terminated file name in the %s record, got %zu bytes without NUL",
			    sb->kind, end - sb->fixed);
	m->path = (const char *)rec + sb->fixed;
	m->has_time = out->has_time;
	m->time = out->time;
	out->kind = PD_REC_MMAP;
	return 0;
}

static int decode_comm(const struct pd_decoder *d, const struct side_band *sb,
		       const uint8_t *rec, size_t end, struct pd_record *out,
		       char *err, size_t errsz)
{
	if (!cstring(rec + sb->fixed, rec + end))
		return errf(err, errsz,
			    "expected a NUL-terminated name in the COMM record, got %zu bytes without NUL",
			    end - sb->fixed);
	out->comm.pid = (int32_t)ld32(d->swap, rec + HDR);
	out->comm.tid = (int32_t)ld32(d->swap, rec + HDR + 4);
	out->comm.comm = (const char *)rec + sb->fixed;
	out->comm.exec = ld16(d->swap, rec + 4) & PERF_RECORD_MISC_COMM_EXEC;
	out->kind = PD_REC_COMM;
	return 0;
}

/* PERF_RECORD_FORK and EXIT. */
static int decode_task(const struct pd_decoder *d, const struct side_band *sb,
		       const uint8_t *rec, size_t end, struct pd_record *out,
		       char *err, size_t errsz)
{
	const uint8_t *p = rec + HDR;

	(void)end;
	(void)err;
	(void)errsz;
	out->task.pid = (int32_t)ld32(d->swap, p);
	out->task.ppid = (int32_t)ld32(d->swap, p + 4);
	out->task.tid = (int32_t)ld32(d->swap, p + 8);
	out->task.ptid = (int32_t)ld32(d->swap, p + 12);
	out->task.time = ld64(d->swap, p + 16);
	out->task.exit = sb->type == PERF_RECORD_EXIT;
	out->kind = PD_REC_TASK;
	return 0;
}

/* PERF_RECORD_LOST and LOST_SAMPLES: the count is the last field. */
static int decode_lost(const struct pd_decoder *d, const struct side_band *sb,
		       const uint8_t *rec, size_t end, struct pd_record *out,
		       char *err, size_t errsz)
{
	(void)end;
	(void)err;
	(void)errsz;
	out->lost.lost = ld64(d->swap, rec + sb->fixed - 8);
	out->lost.samples = sb->type == PERF_RECORD_LOST_SAMPLES;
	out->kind = PD_REC_LOST;
	return 0;
}

static const struct side_band side_bands[] = {
	{ PERF_RECORD_MMAP, "MMAP", HDR + 32, true, decode_mmap },
	{ PERF_RECORD_MMAP2, "MMAP2", HDR + 64, true, decode_mmap },
	{ PERF_RECORD_COMM, "COMM", HDR + 8, true, decode_comm },
	{ PERF_RECORD_FORK, "FORK", HDR + 24, false, decode_task },
	{ PERF_RECORD_EXIT, "EXIT", HDR + 24, false, decode_task },
	{ PERF_RECORD_LOST, "LOST", HDR + 16, false, decode_lost },
	{ PERF_RECORD_LOST_SAMPLES, "LOST", HDR + 8, false, decode_lost },
};

/*
 * A record of another type than SAMPLE: its sample_id trailer, then, for a
 * side-band record, that it has its fields, and those.
 */
static int decode_other(const struct pd_decoder *d, const struct pd_attr *a,
			uint32_t type, const uint8_t *rec, size_t size,
			struct pd_record *out, char *err, size_t errsz)
{
	size_t end = size - (a->sample_id_all ? a->id_hdr_size : 0);
	const struct side_band *sb = NULL;
	size_t i, min;
	int r;

	for (i = 0; i < sizeof(side_bands) / sizeof(side_bands[0]); i++)
		if (side_bands[i].type == type)
			sb = &side_bands[i];
	if (!sb) {
		/* THROTTLE, AUX, SWITCH, KSYMBOL, ...: only their time. */
		if (type < PERF_RECORD_MAX) {
			r = parse_sample_id(a, rec, size, HDR, d->swap, out,
					    err, errsz);
			if (r)
				return r;
		}
		out->kind = PD_REC_SKIP;
		return 0;
	}
	min = sb->fixed + sb->string;
	r = parse_sample_id(a, rec, size, min, d->swap, out, err, errsz);
	if (r)
		return r;
	/* parse_sample_id() made sure that @end did not wrap */
	if (end < min)
		return errf(err, errsz,
			    "expected a %s record of at least %zu bytes, got %zu",
			    sb->kind, min + (size - end), size);
	return sb->decode(d, sb, rec, end, out, err, errsz);
}

int pd_decode_record(const struct pd_decoder *d, const uint8_t *rec,
		     size_t size, struct ev_branch *br, struct pd_record *out,
		     char *err, size_t errsz)
{
	uint32_t type = ld32(d->swap, rec);
	const struct pd_attr *a;
	bool unknown;
	int ai;

	memset(out, 0, sizeof(*out));
	out->type = type;
	out->attr = -1;
	ai = record_attr(d, type, rec, size, &unknown, err, errsz);
	if (ai < 0)
		return BR_EINPUT;
	out->attr = ai;
	a = &d->attrs[ai];
	out->unknown_id = unknown;
	if (type == PERF_RECORD_SAMPLE) {
		out->kind = PD_REC_SAMPLE;
		if (unknown) {
			/* perf drops it; its time still orders nothing */
			out->kind = PD_REC_SKIP;
			return 0;
		}
		return decode_sample(d, a, ai, rec, size, br, out, err, errsz);
	}
	return decode_other(d, a, type, rec, size, out, err, errsz);
}

/* ------------------------------------------------------------------ */
/* the reader                                                          */

int pd_decode_sample(const struct pd_decoder *d, const uint8_t *rec,
		     size_t size, uint64_t off, const char *name,
		     struct ev_branch *br, struct ev_sample *out, char *err,
		     size_t errsz)
{
	struct pd_record pr;
	int ret = pd_decode_record(d, rec, size, br, &pr, err, errsz);

	if (ret)
		return ret;
	if (pr.kind != PD_REC_SAMPLE || pr.read)
		return errf(err, errsz, "expected a sample record without read values, got record type %" PRIu32,
			    pr.type);
	*out = pr.sample;
	out->pos.name = name;
	out->pos.line = 0;
	out->pos.offset = off;
	return 0;
}

/* Files this large drop the pages they read, every PD_DROP_STEP bytes. */
#define PD_DROP_MIN ((size_t)64 << 20)
#define PD_DROP_STEP ((size_t)16 << 20)

/* Queued record copies live in chunks; a chunk is reused when empty. */
#define CHUNK_SIZE ((size_t)128 << 10)	/* > the largest record */

struct chunk {
	uint8_t *mem;
	size_t used;
	size_t live;
};

struct pd_reader {
	const char *name;
	struct pd_decoder d;
	const struct ev_sink *sink;
	struct pd_stats *st;
	char *err;
	size_t errsz;
	size_t queue_max, decomp_max;
	/* source: a mapping (file mode, or memory) */
	const uint8_t *map;
	size_t map_len;
	bool own_map;		/* ours: pages read may be dropped */
	bool drop;		/* dropping them (a large file) */
	uint32_t *win_pending;	/* queued records per PD_DROP_STEP window */
	bool *win_kept;		/* windows with samples the sink reads in
				 * place (ev_sink.keep_raw): not dropped */
	size_t nr_win, win_dropped;
	/* source: a stream (pipe mode) */
	int fd;
	uint8_t *buf;
	size_t buf_cap, buf_pos, buf_len;
	uint64_t buf_off;	/* stream offset of buf[0] */
	const uint8_t *prefix;
	size_t prefix_len;
	bool eof;
	/* decompression */
	ZSTD_DCtx *zctx;
	uint8_t *dbuf;
	size_t dcap;
	uint8_t carry[65536];
	size_t carry_len;
	uint64_t carry_off;
	uint32_t carry_sub;	/* its sub-offset there (1 + its byte) */
	/* ordering */
	bool ordered;
	struct pdq q;		/* the ordering queue */
	uint64_t seq;
	uint64_t max_ts, next_flush, last_flush;
	size_t queued_bytes;
	struct chunk *chunks;
	size_t nr_chunks;
	int cur_chunk;
	/* delivery */
	size_t attrs_announced;
	bool announce_again;
	bool raw_passed;	/* a sample went to sink->sample_raw */
	bool raw_kept;		/* one that stays valid until the end */
	bool *renamed;
	uint64_t *id_value;	/* READ: last value per id (d.ids order) */
	size_t id_value_cap;
	struct ev_branch *br;
	/* current record, for messages */
	uint64_t off;
	uint32_t sub;
};

static int fail_at(struct pd_reader *r, uint64_t off, uint32_t sub,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static int fail_at(struct pd_reader *r, uint64_t off, uint32_t sub,
		   const char *fmt, ...)
{
	char msg[PD_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (sub)
		snprintf(r->err, r->errsz, "%s: offset %" PRIu64 "+%" PRIu32 ": %s",
			 r->name, off, sub - 1, msg);
	else
		snprintf(r->err, r->errsz, "%s: offset %" PRIu64 ": %s",
			 r->name, off, msg);
	return BR_EINPUT;
}

/* A message from a decoder function ("expected ...") at the record. */
static int fail_msg(struct pd_reader *r, int ret, const char *msg)
{
	char copy[PD_ERR_MAX];

	snprintf(copy, sizeof(copy), "%s", msg);
	if (ret == BR_ESYS) {
		snprintf(r->err, r->errsz, "%s: %s", r->name, copy);
		return BR_ESYS;
	}
	return fail_at(r, r->off, r->sub, "%s", copy);
}

static int oom(struct pd_reader *r, const char *what)
{
	snprintf(r->err, r->errsz, "%s: out of memory for %s", r->name, what);
	return BR_ESYS;
}

static struct ev_pos pos_of(const struct pd_reader *r, uint64_t off)
{
	struct ev_pos p = { r->name, 0, off };

	return p;
}

/* Deliver the attrs not yet announced (and renamed ones again). */
static int announce(struct pd_reader *r)
{
	const struct ev_sink *k = r->sink;
	size_t i;

	if (r->attrs_announced == r->d.nr_attrs && !r->announce_again)
		return 0;
	for (i = 0; i < r->d.nr_attrs; i++) {
		const struct pd_attr *a = &r->d.attrs[i];
		struct ev_attr ea;
		int ret;

		if (i < r->attrs_announced &&
		    !(r->announce_again && r->renamed && r->renamed[i]))
			continue;
		if (r->renamed)
			r->renamed[i] = false;
		if (!k || !k->attr)
			continue;
		ea = (struct ev_attr){
			.idx = (unsigned)i,
			.name = a->name,
			.type = a->type,
			.config = a->config,
			.sample_type = a->sample_type,
			.branch_sample_type = a->branch_sample_type,
			.read_format = a->read_format,
			.pos = pos_of(r, r->off),
		};
		ret = k->attr(k->arg, &ea, r->err, r->errsz);
		if (ret)
			return ret;
	}
	r->attrs_announced = r->d.nr_attrs;
	r->announce_again = false;
	return 0;
}

/* Before the decoder changes: whoever decodes raw samples must be done. */
static int quiesce(struct pd_reader *r)
{
	if (!r->raw_passed || !r->sink || !r->sink->sync)
		return 0;
	return r->sink->sync(r->sink->arg, r->err, r->errsz);
}

static int add_attr(struct pd_reader *r, const uint8_t *attr, size_t len,
		    const uint8_t *ids, size_t nr_ids)
{
	char msg[PD_ERR_MAX];
	bool *ren;
	int ret;

	ret = quiesce(r);
	if (ret)
		return ret;
	ret = pd_decoder_add_attr(&r->d, attr, len, ids, nr_ids, msg,
				  sizeof(msg));
	if (ret)
		return fail_msg(r, ret, msg);
	ren = realloc(r->renamed, r->d.nr_attrs * sizeof(*ren));
	if (!ren)
		return oom(r, "the events");
	r->renamed = ren;
	ren[r->d.nr_attrs - 1] = false;
	if (r->d.nr_ids > r->id_value_cap) {
		uint64_t *v = realloc(r->id_value, r->d.nr_ids * sizeof(*v));

		if (!v)
			return oom(r, "the event ids");
		r->id_value = v;
		r->id_value_cap = r->d.nr_ids;
	}
	/* ids were re-sorted: the READ values start again (perf: per id) */
	if (r->d.nr_ids)
		memset(r->id_value, 0, r->d.nr_ids * sizeof(*r->id_value));
	r->st->attrs++;
	return 0;
}

static int set_name(struct pd_reader *r, size_t i, const char *s, size_t n)
{
	struct pd_attr *a = &r->d.attrs[i];
	int ret;

	if (n >= sizeof(a->name))
		n = sizeof(a->name) - 1;
	if (a->named && strlen(a->name) == n && !memcmp(a->name, s, n))
		return 0;
	ret = quiesce(r);
	if (ret)
		return ret;
	memcpy(a->name, s, n);
	a->name[n] = '\0';
	a->named = true;
	if (i < r->attrs_announced) {
		r->renamed[i] = true;
		r->announce_again = true;
	}
	return 0;
}

/* ---- delivery ---- */

static int deliver_sample(struct pd_reader *r, struct pd_record *pr,
			  uint64_t off)
{
	const struct ev_sink *k = r->sink;
	struct ev_sample *s = &pr->sample;
	int ret;

	s->pos = pos_of(r, off);
	if (!pr->read) {
		r->st->samples++;
		if (s->has_brstack) {
			r->st->samples_brstack++;
			r->st->branch_entries += s->nr;
		}
		if (k && k->sample)
			return k->sample(k->arg, s, r->err, r->errsz);
		return 0;
	}
	/* PERF_SAMPLE_READ: one sample per value, as perf delivers them. */
	{
		const struct pd_attr *a = &r->d.attrs[pr->attr];
		uint64_t rf = a->read_format;
		size_t times = 8 * popcount64(rf & (PERF_FORMAT_TOTAL_TIME_ENABLED |
						    PERF_FORMAT_TOTAL_TIME_RUNNING));
		size_t per = 8 * (1 + !!(rf & PERF_FORMAT_ID) +
				  !!(rf & PERF_FORMAT_LOST));
		const uint8_t *p = pr->read;
		uint64_t i;

		for (i = 0; i < pr->nr_read; i++) {
			uint64_t value, id = 0;
			const uint8_t *q;
			int ai;

			if (pr->read_group) {
				q = p + per * i;
				value = ld64(r->d.swap, q);
				if (rf & PERF_FORMAT_ID)
					id = ld64(r->d.swap, q + 8);
			} else {
				value = ld64(r->d.swap, p);
				if (rf & PERF_FORMAT_ID)
					id = ld64(r->d.swap, p + 8 + times);
			}
			ai = pd_decoder_find_id(&r->d, id);
			if (ai < 0) {
				r->st->unknown_id++;
				continue;
			}
			{
				size_t lo = 0, hi = r->d.nr_ids, at = 0;

				while (lo < hi) {
					size_t mid = lo + (hi - lo) / 2;

					if (r->d.ids[mid].id < id) {
						lo = mid + 1;
					} else {
						hi = mid;
					}
				}
				at = lo;
				s->period = value - r->id_value[at];
				r->id_value[at] = value;
			}
			s->event = r->d.attrs[ai].name;
			s->event_idx = (unsigned)ai;
			r->st->samples++;
			if (s->has_brstack) {
				r->st->samples_brstack++;
				r->st->branch_entries += s->nr;
			}
			if (k && k->sample) {
				ret = k->sample(k->arg, s, r->err, r->errsz);
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* Does @rec stay valid for the sink until the end (see ev_sink)? */
static bool raw_kept(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	bool kept = r->sink->keep_raw && r->own_map && rec >= r->map &&
		    rec < r->map + r->map_len;

	if (kept && r->win_kept) {
		r->win_kept[(size_t)(rec - r->map) / PD_DROP_STEP] = true;
		r->win_kept[(size_t)(rec + size - 1 - r->map) / PD_DROP_STEP] =
			true;
	}
	r->raw_kept |= kept;
	return kept;
}

/* Decode a (checked) record again with its entries and deliver it. */
static int deliver(struct pd_reader *r, const uint8_t *rec, size_t size,
		   uint64_t off, uint32_t sub)
{
	const struct ev_sink *k = r->sink;
	struct pd_record pr;
	char msg[PD_ERR_MAX];
	int ret;

	ret = announce(r);
	if (ret)
		return ret;
	r->off = off;
	r->sub = sub;
	ret = pd_decode_record(&r->d, rec, size,
			       k && k->sample_raw ? NULL : r->br, &pr, msg,
			       sizeof(msg));
	if (ret)
		return fail_msg(r, ret, msg);
	switch (pr.kind) {
	case PD_REC_SAMPLE:
		if (k && k->sample_raw) {
			if (!pr.read) {
				r->st->samples++;
				if (pr.sample.has_brstack) {
					r->st->samples_brstack++;
					r->st->branch_entries += pr.sample.nr;
				}
				r->raw_passed = true;
				return k->sample_raw(k->arg, &r->d, rec, size,
						     off, raw_kept(r, rec, size),
						     r->err, r->errsz);
			}
			/* the read values: decoded here, in order */
			ret = pd_decode_record(&r->d, rec, size, r->br, &pr,
					       msg, sizeof(msg));
			if (ret)
				return fail_msg(r, ret, msg);
		}
		return deliver_sample(r, &pr, off);
	case PD_REC_MMAP:
		r->st->mmaps++;
		pr.mmap.pos = pos_of(r, off);
		return k && k->mmap ? k->mmap(k->arg, &pr.mmap, r->err, r->errsz) : 0;
	case PD_REC_COMM:
		r->st->comms++;
		pr.comm.pos = pos_of(r, off);
		return k && k->comm ? k->comm(k->arg, &pr.comm, r->err, r->errsz) : 0;
	case PD_REC_TASK:
		if (pr.task.exit)
			r->st->exits++;
		else
			r->st->forks++;
		pr.task.pos = pos_of(r, off);
		return k && k->task ? k->task(k->arg, &pr.task, r->err, r->errsz) : 0;
	case PD_REC_LOST:
		if (pr.lost.samples) {
			r->st->lost_samples += pr.lost.lost;
		} else {
			r->st->lost_records++;
			r->st->lost_events += pr.lost.lost;
		}
		pr.lost.pos = pos_of(r, off);
		return k && k->lost ? k->lost(k->arg, &pr.lost, r->err, r->errsz) : 0;
	case PD_REC_SKIP:
		if (pr.unknown_id && pr.type == PERF_RECORD_SAMPLE)
			r->st->unknown_id++;
		return 0;
	}
	return 0;
}

/* ---- ordering queue (input/pdqueue.h) ---- */

static void chunk_release(struct pd_reader *r, int c)
{
	if (c < 0)
		return;
	if (!--r->chunks[c].live && c != r->cur_chunk)
		r->chunks[c].used = 0;
}

/* Deliver queued records with time <= @limit, in order. */
static int flush(struct pd_reader *r, uint64_t limit)
{
	while (r->q.nr && pdq_first(&r->q)->time <= limit) {
		struct qent e;
		int ret;

		pdq_pop(&r->q, &e);
		r->queued_bytes -= e.size;
		r->last_flush = e.time;
		ret = deliver(r, e.rec, e.size, e.off, e.sub);
		if (e.chunk < 0 && r->drop)
			r->win_pending[(size_t)(e.rec - r->map) / PD_DROP_STEP]--;
		chunk_release(r, e.chunk);
		if (ret)
			return ret;
	}
	return 0;
}

/* Room for @size bytes in a chunk; the index, or -1 out of memory. */
static int chunk_alloc(struct pd_reader *r, size_t size, uint8_t **out)
{
	size_t i;
	struct chunk *c;

	if (r->cur_chunk >= 0) {
		c = &r->chunks[r->cur_chunk];
		if (CHUNK_SIZE - c->used >= size)
			goto take;
		if (!c->live)
			c->used = 0;
	}
	for (i = 0; i < r->nr_chunks; i++) {
		if (!r->chunks[i].live) {
			r->chunks[i].used = 0;
			r->cur_chunk = (int)i;
			c = &r->chunks[i];
			goto take;
		}
	}
	c = realloc(r->chunks, (r->nr_chunks + 1) * sizeof(*c));
	if (!c)
		return -1;
	r->chunks = c;
	c = &r->chunks[r->nr_chunks];
	c->mem = malloc(CHUNK_SIZE);
	if (!c->mem)
		return -1;
	c->used = c->live = 0;
	r->cur_chunk = (int)r->nr_chunks++;
take:
	*out = c->mem + c->used;
	c->used += (size + 7) & ~(size_t)7;
	c->live++;
	return r->cur_chunk;
}

static int enqueue(struct pd_reader *r, const uint8_t *rec, size_t size,
		   uint64_t time, bool stable)
{
	struct qent e = { time, r->seq++, r->off, r->sub, (uint32_t)size, rec, -1 };

	if (stable && r->drop)
		r->win_pending[(size_t)(rec - r->map) / PD_DROP_STEP]++;
	if (!stable) {
		uint8_t *copy;

		e.chunk = chunk_alloc(r, size, &copy);
		if (e.chunk < 0)
			return oom(r, "the ordering queue");
		memcpy(copy, rec, size);
		e.rec = copy;
	}
	if (pdq_push(&r->q, &e)) {
		chunk_release(r, e.chunk);
		return oom(r, "the ordering queue");
	}
	if (time < r->last_flush)
		r->st->out_of_order++;
	if (time > r->max_ts)
		r->max_ts = time;
	r->queued_bytes += size + sizeof(e);
	if (r->q.nr > r->st->max_queued)
		r->st->max_queued = r->q.nr;
	if (r->queued_bytes > r->queue_max) {
		/* Deliver the older half early. */
		size_t target = r->queued_bytes / 2;

		r->st->queue_overflows++;
		while (r->q.nr && r->queued_bytes > target) {
			int ret = flush(r, pdq_first(&r->q)->time);

			if (ret)
				return ret;
		}
	}
	return 0;
}

static int finished_round(struct pd_reader *r)
{
	int ret = 0;

	r->st->rounds++;
	if (r->next_flush)
		ret = flush(r, r->next_flush);
	r->next_flush = r->max_ts;
	return ret;
}

/* ---- records ---- */

static int process(struct pd_reader *r, const uint8_t *rec, size_t size,
		   bool stable, bool in_compressed);

static int kernel_record(struct pd_reader *r, const uint8_t *rec,
			 size_t size, bool stable)
{
	struct pd_record pr;
	char msg[PD_ERR_MAX];
	int ret;

	ret = pd_decode_record(&r->d, rec, size, NULL, &pr, msg, sizeof(msg));
	if (ret)
		return fail_msg(r, ret, msg);
	if (r->ordered && pr.has_time && pr.time && pr.time != UINT64_MAX)
		return enqueue(r, rec, size, pr.time, stable);
	return deliver(r, rec, size, r->off, r->sub);
}

/* perf_header_string: u32 len, then len bytes (NUL-padded). */
static int header_string(struct pd_reader *r, const uint8_t **pp,
			 const uint8_t *e, const char **s, size_t *n,
			 const char *what)
{
	const uint8_t *p = *pp;
	uint32_t len;

	if (e - p < 4)
		return fail_at(r, r->off, r->sub,
			       "expected the length of %s, got %zu bytes",
			       what, (size_t)(e - p));
	len = ld32(r->d.swap, p);
	p += 4;
	if (len > (size_t)(e - p))
		return fail_at(r, r->off, r->sub,
			       "expected %s of %" PRIu32 " bytes, got %zu left",
			       what, len, (size_t)(e - p));
	*s = (const char *)p;
	*n = strnlen(*s, len);
	*pp = p + len;
	return 0;
}

/* HEADER_EVENT_DESC (file feature or pipe HEADER_FEATURE): names. */
static int event_desc(struct pd_reader *r, const uint8_t *p, const uint8_t *e)
{
	uint32_t nr, asz, i;

	if (e - p < 8)
		return fail_at(r, r->off, r->sub,
			       "expected the EVENT_DESC counts (8 bytes), got %zu",
			       (size_t)(e - p));
	nr = ld32(r->d.swap, p);
	asz = ld32(r->d.swap, p + 4);
	p += 8;
	if (asz < PERF_ATTR_SIZE_VER0 || asz > 4096)
		return fail_at(r, r->off, r->sub,
			       "expected an EVENT_DESC attr size of %d..4096, got %" PRIu32,
			       PERF_ATTR_SIZE_VER0, asz);
	for (i = 0; i < nr; i++) {
		const char *name = NULL;
		size_t n = 0;
		uint32_t nr_ids;
		int ai = -1, ret;

		if ((size_t)(e - p) < (size_t)asz + 4)
			return fail_at(r, r->off, r->sub,
				       "expected EVENT_DESC entry %" PRIu32 " of %" PRIu32 ", got %zu bytes",
				       i + 1, nr, (size_t)(e - p));
		p += asz;
		nr_ids = ld32(r->d.swap, p);
		p += 4;
		ret = header_string(r, &p, e, &name, &n, "an event name");
		if (ret)
			return ret;
		if (nr_ids > (size_t)(e - p) / 8)
			return fail_at(r, r->off, r->sub,
				       "expected at most %zu ids in EVENT_DESC entry %" PRIu32 ", got %" PRIu32,
				       (size_t)(e - p) / 8, i + 1, nr_ids);
		if (nr_ids)
			ai = pd_decoder_find_id(&r->d, ld64(r->d.swap, p));
		if (ai < 0 && nr == r->d.nr_attrs)
			ai = (int)i;
		if (ai >= 0 && (size_t)ai < r->d.nr_attrs) {
			ret = set_name(r, (size_t)ai, name, n);
			if (ret)
				return ret;
		}
		p += 8 * (size_t)nr_ids;
	}
	return 0;
}

static int build_id_record(struct pd_reader *r, const uint8_t *p, size_t size,
			   uint64_t off)
{
	const struct ev_sink *k = r->sink;
	struct ev_build_id b;
	uint16_t misc = ld16(r->d.swap, p + 4);
	const uint8_t *e = p + size;

	if (size < HDR + 4 + 24 + 1)
		return fail_at(r, off, r->sub,
			       "expected a build-id record of at least %d bytes, got %zu",
			       HDR + 4 + 24 + 1, size);
	memset(&b, 0, sizeof(b));
	b.pid = (int32_t)ld32(r->d.swap, p + HDR);
	b.cpumode = cpumode(misc);
	b.size = BR_BUILD_ID_MAX;
	if (misc & PF_MISC_BUILD_ID_SIZE) {
		b.size = p[HDR + 4 + 20];
		if (b.size > BR_BUILD_ID_MAX)
			return fail_at(r, off, r->sub,
				       "expected a build-id size of at most %d, got %u",
				       BR_BUILD_ID_MAX, b.size);
	}
	memcpy(b.id, p + HDR + 4, b.size);
	if (!cstring(p + HDR + 28, e))
		return fail_at(r, off, r->sub,
			       "expected a NUL-terminated file name in the build-id record, got %zu bytes without NUL",
			       (size_t)(e - (p + HDR + 28)));
	b.path = (const char *)p + HDR + 28;
	b.pos = pos_of(r, off);
	r->st->build_ids++;
	return k && k->build_id ? k->build_id(k->arg, &b, r->err, r->errsz) : 0;
}

/* r->dbuf grown to @cap bytes: 0, or out of memory. */
static int dbuf_grow(struct pd_reader *r, size_t cap)
{
	uint8_t *b = realloc(r->dbuf, cap);

	if (!b)
		return oom(r, "decompressed data");
	r->dbuf = b;
	r->dcap = cap;
	return 0;
}

static int decompressed_too_large(struct pd_reader *r)
{
	return fail_at(r, r->off, r->sub,
		       "expected compressed data that decompresses to at most %zu bytes, got more",
		       r->decomp_max);
}

/*
 * One step of zstd from @in into r->dbuf after its first *@outlen bytes;
 * *@outlen: the bytes there now.  @at_byte: the message says where in @in
 * zstd stopped.
 */
static int zstd_step(struct pd_reader *r, ZSTD_inBuffer *in, size_t *outlen,
		     bool at_byte)
{
	ZSTD_outBuffer out = { r->dbuf, r->dcap, *outlen };
	size_t ret = ZSTD_decompressStream(r->zctx, &out, in);

	if (ZSTD_isError(ret) && at_byte)
		return fail_at(r, r->off, r->sub,
			       "expected zstd data in the COMPRESSED record, got '%s' at byte %zu of %zu",
			       ZSTD_getErrorName(ret), in->pos, in->size);
	if (ZSTD_isError(ret))
		return fail_at(r, r->off, r->sub,
			       "expected zstd data in the COMPRESSED record, got '%s'",
			       ZSTD_getErrorName(ret));
	*outlen = out.pos;
	return 0;
}

/*
 * zstd frames of a PERF_RECORD_COMPRESSED into r->dbuf; the length.  @n > 0
 * (compressed() refuses an empty record), so the buffer exists below.
 */
static int decompress(struct pd_reader *r, const uint8_t *src, size_t n,
		      size_t *outlen)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t limit = r->decomp_max;
	int ret;

	if (!r->zctx) {
		r->zctx = ZSTD_createDCtx();
		if (!r->zctx)
			return oom(r, "the zstd decompressor");
		/* no frame may ask for a window beyond the limit */
		ZSTD_DCtx_setParameter(r->zctx, ZSTD_d_windowLogMax, 27);
	}
	/*
	 * No reset: perf flushes its zstd stream at the end of each record
	 * without ending the frame, so a frame goes on in the next record.
	 */
	*outlen = 0;
	while (in.pos < in.size) {
		if (*outlen == r->dcap) {
			size_t cap = r->dcap ? 2 * r->dcap : 1 << 18;

			if (r->dcap >= limit)
				return decompressed_too_large(r);
			ret = dbuf_grow(r, cap > limit ? limit : cap);
			if (ret)
				return ret;
		}
		ret = zstd_step(r, &in, outlen, true);
		if (ret)
			return ret;
	}
	/* a frame not flushed out yet (output buffer was full) */
	while (*outlen >= r->dcap) {
		if (r->dcap >= limit) {
			/* is there more? */
			uint8_t one;
			ZSTD_outBuffer o1 = { &one, 1, 0 };
			size_t more = ZSTD_decompressStream(r->zctx, &o1, &in);

			if (!ZSTD_isError(more) && o1.pos)
				return decompressed_too_large(r);
			break;
		}
		ret = dbuf_grow(r, 2 * r->dcap > limit ? limit : 2 * r->dcap);
		if (!ret)
			ret = zstd_step(r, &in, outlen, false);
		if (ret)
			return ret;
	}
	return 0;
}

static int compressed(struct pd_reader *r, const uint8_t *rec, size_t size)
{
	uint64_t off = r->off;
	size_t len, pos = 0;
	int ret;

	r->st->compressed++;
	/* perf 6.1 too: "Couldn't decompress data" */
	if (size == HDR)
		return fail_at(r, off, 0,
			       "expected zstd data in the COMPRESSED record, got an empty record");
	ret = decompress(r, rec + HDR, size - HDR, &len);
	if (ret)
		return ret;
	r->st->decompressed_bytes += len;
	/* a record cut at the end of the previous COMPRESSED record */
	if (r->carry_len) {
		uint16_t rsz;
		size_t need;

		if (r->carry_len < HDR) {
			need = HDR - r->carry_len;
			if (need > len)
				need = len;
			memcpy(r->carry + r->carry_len, r->dbuf, need);
			r->carry_len += need;
			pos = need;
		}
		if (r->carry_len >= HDR) {
			rsz = ld16(r->d.swap, r->carry + 6);
			if (rsz < HDR)
				return fail_at(r, r->carry_off, r->carry_sub,
					       "expected a record size of at least 8, got %u",
					       rsz);
			need = rsz - r->carry_len;
			if (need > len - pos)
				return fail_at(r, off, 0,
					       "expected the %zu bytes that complete a record cut at the end of the previous COMPRESSED record, got %zu",
					       need, len - pos);
			memcpy(r->carry + r->carry_len, r->dbuf + pos, need);
			pos += need;
			r->off = off;
			r->sub = 1;
			ret = process(r, r->carry, rsz, false, true);
			r->carry_len = 0;
			if (ret)
				return ret;
		}
	}
	while (pos < len) {
		uint16_t rsz;

		if (len - pos < HDR) {
			memcpy(r->carry, r->dbuf + pos, len - pos);
			r->carry_len = len - pos;
			r->carry_off = off;
			r->carry_sub = (uint32_t)pos + 1;
			break;
		}
		rsz = ld16(r->d.swap, r->dbuf + pos + 6);
		if (rsz < HDR)
			return fail_at(r, off, (uint32_t)pos + 1,
				       "expected a record size of at least 8, got %u",
				       rsz);
		if (rsz > len - pos) {
			memcpy(r->carry, r->dbuf + pos, len - pos);
			r->carry_len = len - pos;
			r->carry_off = off;
			r->carry_sub = (uint32_t)pos + 1;
			break;
		}
		r->off = off;
		r->sub = (uint32_t)pos + 1;
		ret = process(r, r->dbuf + pos, rsz, false, true);
		if (ret)
			return ret;
		pos += rsz;
	}
	r->off = off;
	r->sub = 0;
	return 0;
}

/* Size of the payload that follows a record in the stream, or 0. */
static int payload_size(struct pd_reader *r, const uint8_t *rec, size_t size,
			uint64_t *n)
{
	uint32_t type = ld32(r->d.swap, rec);

	*n = 0;
	if (type == PF_RECORD_AUXTRACE) {
		if (size < HDR + 8)
			return fail_at(r, r->off, r->sub,
				       "expected an AUXTRACE record of at least 16 bytes, got %zu",
				       size);
		*n = ld64(r->d.swap, rec + HDR);
	} else if (type == PF_RECORD_HEADER_TRACING_DATA) {
		if (size < HDR + 4)
			return fail_at(r, r->off, r->sub,
				       "expected a TRACING_DATA record of at least 12 bytes, got %zu",
				       size);
		*n = ld32(r->d.swap, rec + HDR);
		*n = (*n + 7) & ~7ull;
	}
	return 0;
}

static int process(struct pd_reader *r, const uint8_t *rec, size_t size,
		   bool stable, bool in_compressed)
{
	uint32_t type = ld32(r->d.swap, rec);
	int ret;

	r->st->records++;
	r->st->by_type[type < 128 ? type : 0]++;	/* 0: type 0 or >= 128 */
	if (r->carry_len && !in_compressed && type != PF_RECORD_COMPRESSED)
		return fail_at(r, r->off, r->sub,
			       "expected the rest of the record cut at the end of the COMPRESSED record at offset %" PRIu64 ", got a record of type %" PRIu32,
			       r->carry_off, type);
	if (type && type < PF_RECORD_HEADER_ATTR) {
		if (type >= PERF_RECORD_MAX) {
			r->st->unknown_records++;
			return 0;
		}
		return kernel_record(r, rec, size, stable);
	}
	switch (type) {
	case PF_RECORD_HEADER_ATTR: {
		uint32_t asz;

		if (size < HDR + PERF_ATTR_SIZE_VER0)
			return fail_at(r, r->off, r->sub,
				       "expected a HEADER_ATTR record of at least %d bytes, got %zu",
				       HDR + PERF_ATTR_SIZE_VER0, size);
		asz = ld32(r->d.swap, rec + HDR + 4);
		if (!asz)
			asz = PERF_ATTR_SIZE_VER0;
		if (asz > size - HDR || asz < PERF_ATTR_SIZE_VER0)
			return fail_at(r, r->off, r->sub,
				       "expected an attr.size of %d..%zu in the HEADER_ATTR record, got %" PRIu32,
				       PERF_ATTR_SIZE_VER0, size - HDR, asz);
		return add_attr(r, rec + HDR, asz, rec + HDR + asz,
				(size - HDR - asz) / 8);
	}
	case PF_RECORD_HEADER_BUILD_ID:
		return build_id_record(r, rec, size, r->off);
	case PF_RECORD_FINISHED_ROUND:
		return r->ordered ? finished_round(r) : (r->st->rounds++, 0);
	case PF_RECORD_HEADER_FEATURE: {
		uint64_t feat;

		if (size < HDR + 8)
			return fail_at(r, r->off, r->sub,
				       "expected a HEADER_FEATURE record of at least 16 bytes, got %zu",
				       size);
		feat = ld64(r->d.swap, rec + HDR);
		if (feat == PF_FEAT_EVENT_DESC)
			return event_desc(r, rec + HDR + 8, rec + size);
		if (feat == PF_FEAT_COMPRESSED && size >= HDR + 8 + 20)
			r->d.comp_mmap_len = ld32(r->d.swap, rec + HDR + 8 + 16);
		return 0;
	}
	case PF_RECORD_EVENT_UPDATE: {
		uint64_t utype, id;
		int ai;

		if (size < HDR + 16)
			return fail_at(r, r->off, r->sub,
				       "expected an EVENT_UPDATE record of at least 24 bytes, got %zu",
				       size);
		utype = ld64(r->d.swap, rec + HDR);
		id = ld64(r->d.swap, rec + HDR + 8);
		ai = pd_decoder_find_id(&r->d, id);
		if (utype == EVENT_UPDATE_NAME && ai >= 0)
			return set_name(r, (size_t)ai,
					(const char *)rec + HDR + 16,
					strnlen((const char *)rec + HDR + 16,
						size - HDR - 16));
		return 0;
	}
	case PF_RECORD_COMPRESSED:
		if (in_compressed)
			return fail_at(r, r->off, r->sub,
				       "expected records inside the COMPRESSED record, got another COMPRESSED record");
		ret = compressed(r, rec, size);
		return ret;
	case PF_RECORD_HEADER_EVENT_TYPE:
	case PF_RECORD_HEADER_TRACING_DATA:
	case PF_RECORD_ID_INDEX:
	case PF_RECORD_AUXTRACE_INFO:
	case PF_RECORD_AUXTRACE:
	case PF_RECORD_AUXTRACE_ERROR:
	case PF_RECORD_THREAD_MAP:
	case PF_RECORD_CPU_MAP:
	case PF_RECORD_STAT_CONFIG:
	case PF_RECORD_STAT:
	case PF_RECORD_STAT_ROUND:
	case PF_RECORD_TIME_CONV:
	case PF_RECORD_FINISHED_INIT:
		return 0;
	default:
		r->st->unknown_records++;
		return 0;
	}
}

/* ---- file mode ---- */

static bool in_file(uint64_t off, uint64_t size, size_t len)
{
	return off <= len && size <= len - off;
}

static int file_features(struct pd_reader *r, const uint8_t *m, size_t len,
			 uint64_t feat_off, const uint64_t flags[4])
{
	unsigned bit, k = 0;
	int ret;

	for (bit = 0; bit < PF_FEAT_BITS; bit++) {
		uint64_t so = feat_off + 16ull * k, off, size;

		if (!(flags[bit / 64] >> (bit % 64) & 1))
			continue;
		k++;
		r->off = so;
		if (!in_file(so, 16, len))
			return fail_at(r, so, 0,
				       "expected the section of feature %u within the file (%zu bytes), got end of file",
				       bit, len);
		off = ld64(r->d.swap, m + so);
		size = ld64(r->d.swap, m + so + 8);
		if (!in_file(off, size, len))
			return fail_at(r, so, 0,
				       "expected feature %u's section within the file (%zu bytes), got offset %" PRIu64 " size %" PRIu64,
				       bit, len, off, size);
		r->off = off;
		if (bit == PF_FEAT_EVENT_DESC) {
			ret = event_desc(r, m + off, m + off + size);
			if (ret)
				return ret;
		} else if (bit == PF_FEAT_COMPRESSED) {
			if (size >= 20)
				r->d.comp_mmap_len = ld32(r->d.swap, m + off + 16);
		} else if (bit == PF_FEAT_BUILD_ID) {
			uint64_t p = off, e = off + size;

			while (p < e) {
				uint16_t rsz;

				if (e - p < HDR)
					return fail_at(r, p, 0,
						       "expected a build-id record header (8 bytes), got %" PRIu64,
						       e - p);
				rsz = ld16(r->d.swap, m + p + 6);
				if (rsz < HDR || rsz > e - p)
					return fail_at(r, p, 0,
						       "expected a build-id record of 8..%" PRIu64 " bytes, got %u",
						       e - p, rsz);
				r->off = p;
				ret = build_id_record(r, m + p, rsz, p);
				if (ret)
					return ret;
				p += rsz;
			}
		}
	}
	return 0;
}

/* The sections a file-mode header points at. */
struct file_hdr {
	uint64_t hsize;			/* of the header */
	uint64_t asize, aoff, alen;	/* attr entries */
	uint64_t doff, dlen;		/* data */
	uint64_t flags[4];		/* features */
};

/* The header: its size, and sections within the file and apart. */
static int file_header(struct pd_reader *r, struct file_hdr *h)
{
	const uint8_t *m = r->map;
	size_t len = r->map_len;

	memset(h, 0, sizeof(*h));
	if (len < FILE_HDR_OLD)
		return fail_at(r, 0, 0,
			       "expected a perf.data header of %d bytes, got %zu",
			       FILE_HDR_SIZE, len);
	h->hsize = ld64(r->d.swap, m + 8);
	if (h->hsize != FILE_HDR_SIZE && h->hsize != FILE_HDR_OLD)
		return fail_at(r, 8, 0,
			       "expected a header size of %d or %d (file mode) or %d (pipe mode), got %" PRIu64,
			       FILE_HDR_SIZE, FILE_HDR_OLD, PIPE_HDR_SIZE, h->hsize);
	if (len < h->hsize)
		return fail_at(r, 0, 0,
			       "expected a perf.data header of %" PRIu64 " bytes, got %zu",
			       h->hsize, len);
	h->asize = ld64(r->d.swap, m + 16);
	h->aoff = ld64(r->d.swap, m + 24);
	h->alen = ld64(r->d.swap, m + 32);
	h->doff = ld64(r->d.swap, m + 40);
	h->dlen = ld64(r->d.swap, m + 48);
	if (h->hsize == FILE_HDR_SIZE)
		for (int i = 0; i < 4; i++)
			h->flags[i] = ld64(r->d.swap, m + 72 + 8 * i);
	if (h->asize < PERF_ATTR_SIZE_VER0 + 16 || h->asize > 4096 + 16)
		return fail_at(r, 16, 0,
			       "expected an attr entry size of %d..%d, got %" PRIu64,
			       PERF_ATTR_SIZE_VER0 + 16, 4096 + 16, h->asize);
	if (!in_file(h->aoff, h->alen, len))
		return fail_at(r, 24, 0,
			       "expected the attr section within the file (%zu bytes), got offset %" PRIu64 " size %" PRIu64,
			       len, h->aoff, h->alen);
	if (h->alen % h->asize)
		return fail_at(r, 32, 0,
			       "expected an attr section of whole %" PRIu64 "-byte entries, got %" PRIu64 " bytes",
			       h->asize, h->alen);
	if (!in_file(h->doff, h->dlen, len))
		return fail_at(r, 40, 0,
			       "expected the data section within the file (%zu bytes), got offset %" PRIu64 " size %" PRIu64,
			       len, h->doff, h->dlen);
	if (h->doff < h->hsize || (h->alen && h->aoff < h->hsize))
		return fail_at(r, h->doff < h->hsize ? 40 : 24, 0,
			       "expected the %s section after the %" PRIu64 "-byte header, got offset %" PRIu64,
			       h->doff < h->hsize ? "data" : "attr", h->hsize,
			       h->doff < h->hsize ? h->doff : h->aoff);
	if (h->alen && h->dlen && h->aoff < h->doff + h->dlen &&
	    h->doff < h->aoff + h->alen)
		return fail_at(r, 24, 0,
			       "expected the attr section [%" PRIu64 ", %" PRIu64 ") apart from the data section [%" PRIu64 ", %" PRIu64 "), got them overlapping",
			       h->aoff, h->aoff + h->alen, h->doff,
			       h->doff + h->dlen);
	return 0;
}

/* The attr entries and their ids. */
static int file_attrs(struct pd_reader *r, const struct file_hdr *h)
{
	const uint8_t *m = r->map;
	uint64_t p;
	int ret;

	for (p = h->aoff; p < h->aoff + h->alen; p += h->asize) {
		uint64_t ioff = ld64(r->d.swap, m + p + h->asize - 16);
		uint64_t ilen = ld64(r->d.swap, m + p + h->asize - 8);

		r->off = p;
		if (!in_file(ioff, ilen, r->map_len) || ilen % 8)
			return fail_at(r, p + h->asize - 16, 0,
				       "expected the ids of attr %" PRIu64 " within the file in whole u64s, got offset %" PRIu64 " size %" PRIu64,
				       (p - h->aoff) / h->asize + 1, ioff, ilen);
		ret = add_attr(r, m + p, h->asize - 16, m + ioff, ilen / 8);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A large file streams through in constant memory: the pages of every
 * window of PD_DROP_STEP bytes behind the one being read are dropped
 * from the mapping once none of its records waits in the queue.
 */
static void drop_windows(struct pd_reader *r, uint64_t p)
{
	while (r->drop && r->win_dropped < p / PD_DROP_STEP &&
	       !r->win_pending[r->win_dropped]) {
		if (!r->win_kept || !r->win_kept[r->win_dropped])
			(void)madvise((void *)(r->map +
					       r->win_dropped * PD_DROP_STEP),
				      PD_DROP_STEP, MADV_DONTNEED);
		r->win_dropped++;
	}
}

/* The records of the data section [@p, @end). */
static int file_records(struct pd_reader *r, uint64_t p, uint64_t end)
{
	const uint8_t *m = r->map;
	int ret;

	while (p < end) {
		uint16_t size;
		uint32_t type;

		r->off = p;
		r->sub = 0;
		if (end - p < HDR)
			return fail_at(r, p, 0,
				       "expected a record header (8 bytes), got the %" PRIu64 " last bytes of the data section",
				       end - p);
		size = ld16(r->d.swap, m + p + 6);
		type = ld32(r->d.swap, m + p);
		if (size < HDR)
			return fail_at(r, p, 0,
				       "expected a record size of at least 8, got %u (type %" PRIu32 ")",
				       size, type);
		if (size > end - p)
			return fail_at(r, p, 0,
				       "expected a record of %u bytes within the data section, got %" PRIu64 " bytes left",
				       size, end - p);
		ret = process(r, m + p, size, true, false);
		if (ret)
			return ret;
		p += size;
		r->st->bytes = p;
		drop_windows(r, p);
		if (type == PF_RECORD_AUXTRACE ||
		    type == PF_RECORD_HEADER_TRACING_DATA) {
			uint64_t n;

			ret = payload_size(r, m + p - size, size, &n);
			if (ret)
				return ret;
			if (n > end - p)
				return fail_at(r, p - size, 0,
					       "expected a payload of %" PRIu64 " bytes after the record, got %" PRIu64 " left",
					       n, end - p);
			p += n;
		}
	}
	return 0;
}

static int read_file_mode(struct pd_reader *r)
{
	struct file_hdr h;
	size_t len = r->map_len;
	int ret;

	r->off = 0;
	ret = file_header(r, &h);
	if (!ret)
		ret = file_attrs(r, &h);
	if (!ret)
		ret = file_features(r, r->map, len, h.doff + h.dlen, h.flags);
	if (ret)
		return ret;
	r->ordered = r->d.nr_attrs && r->d.attrs[0].sample_id_all;
	r->st->ordered = r->ordered;
	(void)madvise((void *)((uintptr_t)r->map & ~(uintptr_t)4095),
		      len + ((uintptr_t)r->map & 4095), MADV_SEQUENTIAL);
	if (r->own_map && len >= PD_DROP_MIN) {
		bool keep = r->sink && r->sink->keep_raw;

		r->nr_win = len / PD_DROP_STEP + 1;
		r->win_pending = calloc(r->nr_win, sizeof(*r->win_pending));
		/* a sink that keeps samples drops their windows itself */
		if (keep)
			r->win_kept = calloc(r->nr_win, sizeof(*r->win_kept));
		r->drop = r->win_pending && (!keep || r->win_kept);
	}
	return file_records(r, h.doff, h.doff + h.dlen);
}

/* ---- pipe mode ---- */

/* Make @n bytes available at r->buf + r->buf_pos; 1 at a clean EOF. */
static int fill(struct pd_reader *r, size_t n, bool eof_ok)
{
	while (r->buf_len - r->buf_pos < n) {
		ssize_t got;

		if (r->buf_pos && r->buf_pos == r->buf_len) {
			r->buf_off += r->buf_pos;
			r->buf_pos = r->buf_len = 0;
		}
		if (r->buf_cap - r->buf_pos < n) {
			memmove(r->buf, r->buf + r->buf_pos,
				r->buf_len - r->buf_pos);
			r->buf_len -= r->buf_pos;
			r->buf_off += r->buf_pos;
			r->buf_pos = 0;
		}
		if (r->prefix_len) {
			size_t k = r->buf_cap - r->buf_len;

			if (k > r->prefix_len)
				k = r->prefix_len;
			memcpy(r->buf + r->buf_len, r->prefix, k);
			r->prefix += k;
			r->prefix_len -= k;
			r->buf_len += k;
			r->st->bytes += k;
			continue;
		}
		if (r->eof)
			got = 0;
		else
			got = read(r->fd, r->buf + r->buf_len,
				   r->buf_cap - r->buf_len);
		if (got < 0) {
			if (errno == EINTR)
				continue;
			snprintf(r->err, r->errsz, "%s: offset %" PRIu64 ": read error: %s",
				 r->name, r->buf_off + r->buf_len, strerror(errno));
			return BR_ESYS;
		}
		if (!got) {
			r->eof = true;
			if (eof_ok && r->buf_len == r->buf_pos)
				return 1;
			return fail_at(r, r->buf_off + r->buf_pos, 0,
				       "expected %zu bytes (a record), got the end of the stream after %zu",
				       n, r->buf_len - r->buf_pos);
		}
		r->buf_len += (size_t)got;
		r->st->bytes += (uint64_t)got;
	}
	return 0;
}

static int read_pipe_mode(struct pd_reader *r)
{
	int ret;

	r->ordered = true;
	r->st->ordered = true;
	r->buf_cap = 65536 + 64;	/* the largest record and its header */
	r->buf = malloc(r->buf_cap);
	if (!r->buf)
		return oom(r, "the input buffer");
	ret = fill(r, PIPE_HDR_SIZE, false);
	if (ret)
		return ret;
	/* its header size is 16: the callers of run() looked */
	r->buf_pos = PIPE_HDR_SIZE;
	for (;;) {
		uint64_t off = r->buf_off + r->buf_pos, n;
		const uint8_t *rec;
		uint16_t size;

		r->off = off;
		r->sub = 0;
		ret = fill(r, HDR, true);
		if (ret == 1)
			return 0;
		if (ret)
			return ret;
		size = ld16(r->d.swap, r->buf + r->buf_pos + 6);
		if (size < HDR)
			return fail_at(r, off, 0,
				       "expected a record size of at least 8, got %u (type %" PRIu32 ")",
				       size, ld32(r->d.swap, r->buf + r->buf_pos));
		ret = fill(r, size, false);
		if (ret)
			return ret;
		rec = r->buf + r->buf_pos;
		ret = payload_size(r, rec, size, &n);
		if (ret)
			return ret;
		ret = process(r, rec, size, false, false);
		if (ret)
			return ret;
		r->buf_pos += size;
		/* skip a payload without keeping it */
		while (n) {
			size_t k;

			ret = fill(r, 1, false);
			if (ret) {
				if (ret == BR_EINPUT)
					fail_at(r, off, 0,
						"expected a payload of %" PRIu64 " more bytes after the record, got the end of the stream",
						n);
				return ret;
			}
			k = r->buf_len - r->buf_pos;
			if (k > n)
				k = n;
			r->buf_pos += k;
			n -= k;
		}
	}
}

/* ---- entry points ---- */

static int run(struct pd_reader *r, bool pipe)
{
	int ret;

	r->br = malloc(PD_MAX_BRANCHES * sizeof(*r->br));
	if (!r->br)
		return oom(r, "branch entries");
	r->d.pipe = pipe;
	r->st->pipe = pipe;
	r->st->swapped = r->d.swap;
	ret = pipe ? read_pipe_mode(r) : read_file_mode(r);
	if (ret)
		return ret;
	if (r->carry_len)
		return fail_at(r, r->carry_off, 0,
			       "expected the rest of the record cut at the end of this COMPRESSED record, got the end of the input");
	ret = flush(r, UINT64_MAX);
	if (ret)
		return ret;
	return announce(r);
}

static void reader_free(struct pd_reader *r)
{
	size_t i;

	/* raw samples decode with @d: whoever has them must be done */
	if (r->raw_passed && r->sink && r->sink->sync) {
		char msg[PD_ERR_MAX];

		r->sink->sync(r->sink->arg, msg, sizeof(msg));
	}
	pd_decoder_free(&r->d);
	free(r->buf);
	free(r->dbuf);
	ZSTD_freeDCtx(r->zctx);
	pdq_free(&r->q);
	for (i = 0; i < r->nr_chunks; i++)
		free(r->chunks[i].mem);
	free(r->chunks);
	free(r->renamed);
	free(r->id_value);
	free(r->br);
	free(r->win_pending);
	free(r->win_kept);
}

/* Tell the byte order from the magic; false if it is not perf.data. */
static int magic(struct pd_reader *r, const uint8_t *p, size_t n)
{
	uint64_t m;

	if (n < 8)
		return fail_at(r, 0, 0,
			       "expected the perf.data magic 'PERFILE2' (8 bytes), got %zu bytes",
			       n);
	memcpy(&m, p, 8);
	if (m == PF_MAGIC2) {
		r->d.swap = false;
		return 0;
	}
	if (m == __builtin_bswap64(PF_MAGIC2)) {
		r->d.swap = true;
		return 0;
	}
	if (!memcmp(p, PF_MAGIC1, 8))
		return fail_at(r, 0, 0,
			       "expected the perf.data magic 'PERFILE2', got 'PERFFILE' (version 1, written by perf before 2.6.35: not supported)");
	return fail_at(r, 0, 0,
		       "expected the perf.data magic 'PERFILE2', got %02x %02x %02x %02x %02x %02x %02x %02x",
		       p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
}

static void reader_init(struct pd_reader *r, const char *name,
			const struct pd_opts *opts, const struct ev_sink *sink,
			struct pd_stats *st, char *err, size_t errsz)
{
	memset(r, 0, sizeof(*r));
	memset(st, 0, sizeof(*st));
	r->name = name;
	r->sink = sink;
	r->st = st;
	r->err = err;
	r->errsz = errsz;
	r->fd = -1;
	r->cur_chunk = -1;
	r->queue_max = opts && opts->queue_max ? opts->queue_max : PD_QUEUE_MAX;
	r->decomp_max = opts && opts->decomp_max ? opts->decomp_max : PD_DECOMP_MAX;
}

int pd_read_mem(const uint8_t *data, size_t len, const char *name,
		const struct pd_opts *opts, const struct ev_sink *sink,
		struct pd_stats *stats, char *err, size_t errsz)
{
	struct pd_stats dummy;
	struct pd_reader r;
	int ret;

	reader_init(&r, name, opts, sink, stats ? stats : &dummy, err, errsz);
	ret = magic(&r, data, len);
	if (!ret) {
		bool pipe = len >= 16 && ld64(r.d.swap, data + 8) == PIPE_HDR_SIZE;

		if (pipe) {
			r.prefix = data;
			r.prefix_len = len;
			r.eof = true;
		} else {
			r.map = data;
			r.map_len = len;
			r.st->bytes = len;
		}
		ret = run(&r, pipe);
	}
	reader_free(&r);
	return ret;
}

/* Copy the stream (after @prefix) to an unlinked temporary file. */
static int spool(struct pd_reader *r, int fd, const uint8_t *prefix,
		 size_t prefix_len, int *out)
{
	const char *dir = getenv("TMPDIR");
	uint8_t buf[1 << 16];
	int t;

	if (!dir || !*dir)
		dir = "/tmp";
	t = open(dir, O_TMPFILE | O_RDWR | O_EXCL, 0600);
	if (t < 0 && (errno == EOPNOTSUPP || errno == EISDIR ||
		      errno == EINVAL)) {
		/* a file system without O_TMPFILE: a named file, unlinked */
		char path[4096];

		snprintf(path, sizeof(path), "%s/blockrange-XXXXXX", dir);
		t = mkstemp(path);
		if (t >= 0)
			unlink(path);
	}
	if (t < 0) {
		snprintf(r->err, r->errsz,
			 "%s: cannot make a temporary file in %s for a file-mode perf.data on a pipe: %s",
			 r->name, dir, strerror(errno));
		return BR_ESYS;
	}
	if (prefix_len && write(t, prefix, prefix_len) != (ssize_t)prefix_len)
		goto werr;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->err, r->errsz, "%s: read error: %s", r->name,
				 strerror(errno));
			close(t);
			return BR_ESYS;
		}
		if (!n)
			break;
		if (write(t, buf, (size_t)n) != n)
			goto werr;
	}
	*out = t;
	return 0;
werr:
	snprintf(r->err, r->errsz, "%s: cannot write the temporary copy of the input: %s",
		 r->name, strerror(errno));
	close(t);
	return BR_ESYS;
}

/* The first 16 bytes of a stream (after @prefix), which tell its mode. */
static int stream_head(struct pd_reader *r, int fd, const uint8_t *prefix,
		       size_t prefix_len, uint8_t head[16], size_t *have)
{
	*have = prefix_len < 16 ? prefix_len : 16;
	memcpy(head, prefix, *have);
	while (*have < 16) {
		ssize_t n = read(fd, head + *have, 16 - *have);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			snprintf(r->err, r->errsz, "%s: read error: %s",
				 r->name, strerror(errno));
			return BR_ESYS;
		}
		if (!n)
			break;
		*have += (size_t)n;
	}
	return 0;
}

/*
 * A stream (not a regular file): pipe mode is read as it comes (*@fd is
 * then -1); file mode is spooled to an unlinked temporary file first
 * (*@fd, *@sb, *@tmp: that file).
 */
static int read_stream(struct pd_reader *r, int *fd, const uint8_t *prefix,
		       size_t prefix_len, struct stat *sb, int *tmp)
{
	uint8_t head[16], *all;
	size_t have;
	int ret = stream_head(r, *fd, prefix, prefix_len, head, &have);

	if (!ret)
		ret = magic(r, head, have);
	if (ret)
		return ret;
	if (have < 16)
		return fail_at(r, 0, 0,
			       "expected a perf.data header of %d bytes, got %zu",
			       FILE_HDR_SIZE, have);
	if (ld64(r->d.swap, head + 8) != PIPE_HDR_SIZE) {
		if (prefix_len > 16)	/* sniffing reads at most 16 */
			return fail_at(r, 0, 0,
				       "expected at most 16 sniffed bytes, got %zu",
				       prefix_len);
		ret = spool(r, *fd, head, 16, tmp);
		if (ret)
			return ret;
		if (fstat(*tmp, sb) < 0) {
			snprintf(r->err, r->errsz, "%s: %s", r->name,
				 strerror(errno));
			return BR_ESYS;
		}
		*fd = *tmp;
		return 0;
	}
	/* pipe mode: the bytes read so far come first */
	all = malloc(prefix_len > 16 ? prefix_len : 16);
	if (!all)
		return oom(r, "the input");
	memcpy(all, head, have);
	if (prefix_len > 16)
		memcpy(all + 16, prefix + 16, prefix_len - 16);
	r->fd = *fd;
	r->prefix = all;
	r->prefix_len = prefix_len > 16 ? prefix_len : 16;
	ret = run(r, true);
	free(all);
	*fd = -1;
	return ret;
}

/* A regular file of @len bytes, mapped: file mode, or pipe mode stored. */
static int read_mapped(struct pd_reader *r, int fd, size_t len)
{
	void *m;
	int ret;

	if (!len)
		return fail_at(r, 0, 0,
			       "expected the perf.data magic 'PERFILE2', got an empty file");
	m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED) {
		snprintf(r->err, r->errsz, "%s: cannot map the file: %s",
			 r->name, strerror(errno));
		return BR_ESYS;
	}
	ret = magic(r, m, len);
	if (!ret && len >= 16 &&
	    ld64(r->d.swap, (const uint8_t *)m + 8) == PIPE_HDR_SIZE) {
		r->prefix = m;
		r->prefix_len = len;
		r->eof = true;
		ret = run(r, true);
	} else if (!ret) {
		r->map = m;
		r->map_len = len;
		r->own_map = true;
		r->st->bytes = len;
		ret = run(r, false);
	}
	if (r->raw_kept) {
		/* the sink reads kept samples in the mapping until now */
		char msg[PD_ERR_MAX];

		(void)r->sink->sync(r->sink->arg, msg, sizeof(msg));
	}
	munmap(m, len);
	return ret;
}

int pd_read(int fd, const char *name, const uint8_t *prefix,
	    size_t prefix_len, const struct pd_opts *opts,
	    const struct ev_sink *sink, struct pd_stats *stats, char *err,
	    size_t errsz)
{
	struct pd_stats dummy;
	struct pd_reader r;
	struct stat sb;
	int ret = 0, tmp = -1;

	reader_init(&r, name, opts, sink, stats ? stats : &dummy, err, errsz);
	if (fstat(fd, &sb) < 0) {
		snprintf(err, errsz, "%s: %s", name, strerror(errno));
		ret = BR_ESYS;
	} else if (!S_ISREG(sb.st_mode)) {
		ret = read_stream(&r, &fd, prefix, prefix_len, &sb, &tmp);
	}
	if (!ret && fd >= 0)
		ret = read_mapped(&r, fd, (size_t)sb.st_size);
	if (tmp >= 0)
		close(tmp);
	reader_free(&r);
	return ret;
}
