// SPDX-License-Identifier: GPL-2.0
/*
 * The pseudo-probe decoder (pseudoprobe.h): the two sections found with
 * libelf in the binary's image, .pseudo_probe_desc read into a table by
 * GUID, .pseudo_probe walked depth first with an explicit stack (hostile
 * input cannot nest deeper than its bytes allow, and never the C stack).
 */
#include "resolve/pseudoprobe.h"

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "base/md5.h"
#include "base/status.h"
#include "common/search.h"
#include "resolve/elfbin.h"

/* A section being read, for messages: which file, which section, where. */
struct pp_cursor {
	const uint8_t *p;
	size_t n;
	size_t off;
	const char *path;
	const char *sec;
	char *err;
	size_t errsz;
};

/* A function start by the GUID of its symbol's name. */
struct pp_start {
	uint64_t guid;
	uint64_t start;
};

/* An open body and the inlined bodies it has still to read. */
struct pp_frame {
	uint32_t node;
	uint64_t left;
};

struct pp_dec {
	struct pp_cursor c;
	struct pp_table *t;
	size_t cap_nodes;
	size_t cap_probes;
	const struct pp_start *starts;
	size_t nr_starts;
	uint64_t last;		/* address of the previous probe */
	bool placed;		/* last is known */
	uint32_t seq;
};

static int pp_bad(struct pp_cursor *c, size_t at, const char *want)
{
	if (at >= c->n)
		snprintf(c->err, c->errsz,
			 "%s: %s offset %zu: expected %s, got the end of the section",
			 c->path, c->sec, at, want);
	else
		snprintf(c->err, c->errsz,
			 "%s: %s offset %zu: expected %s, got byte 0x%02x",
			 c->path, c->sec, at, want, c->p[at]);
	return BR_EINPUT;
}

static int rd_u64(struct pp_cursor *c, uint64_t *v, const char *what)
{
	if (c->n - c->off < 8)
		return pp_bad(c, c->n, what);
	*v = 0;
	for (int i = 7; i >= 0; i--)
		*v = *v << 8 | c->p[c->off + i];
	c->off += 8;
	return 0;
}

/* An LEB128 number of at most 64 bits; @sign: signed. */
static int rd_leb(struct pp_cursor *c, uint64_t *v, bool sign,
		  const char *what)
{
	size_t at = c->off;
	unsigned shift = 0;
	uint8_t byte;

	*v = 0;
	do {
		if (c->off >= c->n)
			return pp_bad(c, c->n, what);
		byte = c->p[c->off++];
		if (shift == 63 && (byte & 0x7f) > 1 &&
		    (!sign || (byte & 0x7f) != 0x7f))
			return pp_bad(c, at, what);
		if (shift > 63)
			return pp_bad(c, at, what);
		*v |= (uint64_t)(byte & 0x7f) << shift;
		shift += 7;
	} while (byte & 0x80);
	if (sign && shift < 64 && (byte & 0x40))
		*v |= ~(uint64_t)0 << shift;
	return 0;
}

static int rd_u32(struct pp_cursor *c, uint32_t *v, const char *what)
{
	size_t at = c->off;
	uint64_t x;
	int r = rd_leb(c, &x, false, what);

	if (r)
		return r;
	if (x > UINT32_MAX)
		return pp_bad(c, at, what);
	*v = (uint32_t)x;
	return 0;
}

static int desc_cmp(const void *a, const void *b)
{
	const struct pp_desc *x = a, *y = b;

	return (x->guid > y->guid) - (x->guid < y->guid);
}

static int read_descs(struct pp_cursor *c, struct pp_table *t)
{
	size_t cap = 0;

	while (c->off < c->n) {
		struct pp_desc d;
		uint64_t len;
		int r;

		r = rd_u64(c, &d.guid, "a function's GUID (8 bytes)");
		if (!r)
			r = rd_u64(c, &d.hash, "a function's checksum (8 bytes)");
		if (!r)
			r = rd_leb(c, &len, false, "a name length (ULEB128)");
		if (r)
			return r;
		if (len > c->n - c->off || len > UINT32_MAX)
			return pp_bad(c, c->n, "a name of the length given");
		d.name = (const char *)c->p + c->off;
		d.name_len = (uint32_t)len;
		c->off += len;
		if (br_grow((void **)&t->descs, &cap, t->nr_descs + 1,
			    sizeof(*t->descs)))
			return BR_ESYS;
		t->descs[t->nr_descs++] = d;
	}
	qsort(t->descs, t->nr_descs, sizeof(*t->descs), desc_cmp);
	return 0;
}

static bool start_of(const struct pp_dec *d, uint64_t guid, uint64_t *start)
{
	size_t i = br_count_lt(d->starts, d->nr_starts, sizeof(*d->starts),
			       offsetof(struct pp_start, guid), guid);

	if (i == d->nr_starts || d->starts[i].guid != guid)
		return false;
	*start = d->starts[i].start;
	return true;
}

/* Where a probe is, from its address field (@byte: its flags). */
static int probe_addr(struct pp_dec *d, uint8_t byte, unsigned attr)
{
	uint64_t v;
	int r;

	if (byte & 0x80) {
		r = rd_leb(&d->c, &v, true, "an address delta (SLEB128)");
		if (!r)
			d->last += v;
		return r;
	}
	r = rd_u64(&d->c, &v, "an address (8 bytes)");
	if (r)
		return r;
	if (attr & PP_ATTR_SENTINEL) {
		d->placed = start_of(d, v, &d->last);
	} else {
		d->last = v;
		d->placed = true;
	}
	return 0;
}

static int read_probe(struct pp_dec *d, uint32_t node)
{
	struct pp_probe p = { .node = node };
	size_t at;
	uint8_t byte;
	int r;

	r = rd_u32(&d->c, &p.index, "a probe index (ULEB128)");
	if (r)
		return r;
	at = d->c.off;
	if (at >= d->c.n)
		return pp_bad(&d->c, at, "a probe's type and attributes");
	byte = d->c.p[d->c.off++];
	p.type = byte & 0x0f;
	p.attr = (byte >> 4) & 0x07;
	if (p.type > PP_DIRECT_CALL || (p.attr & 1))
		return pp_bad(&d->c, at,
			      "a probe type 0..2 and attributes 2 or 4");
	r = probe_addr(d, byte, p.attr);
	if (!r && (p.attr & PP_ATTR_DISCRIMINATOR))
		r = rd_u32(&d->c, &p.discriminator,
			   "a discriminator (ULEB128)");
	if (r || (p.attr & PP_ATTR_SENTINEL))
		return r;
	p.seq = d->seq++;
	if (!d->placed) {
		d->t->unplaced++;
		return 0;
	}
	p.addr = d->last;
	if (br_grow((void **)&d->t->probes, &d->cap_probes,
		    d->t->nr_probes + 1, sizeof(*d->t->probes)))
		return BR_ESYS;
	d->t->probes[d->t->nr_probes++] = p;
	return 0;
}

/* One body: its header and probes; its inlined bodies are left in *@ninl. */
static int read_body(struct pp_dec *d, uint32_t parent, uint32_t site,
		     uint64_t *ninl)
{
	struct pp_node n = { .parent = parent, .site = site };
	uint64_t nprobes;
	uint32_t id;
	int r;

	r = rd_u64(&d->c, &n.guid, "a function's GUID (8 bytes)");
	if (!r)
		r = rd_leb(&d->c, &nprobes, false, "a number of probes (ULEB128)");
	if (!r)
		r = rd_leb(&d->c, ninl, false,
			   "a number of inlined functions (ULEB128)");
	if (r)
		return r;
	if (d->t->nr_nodes >= UINT32_MAX - 1)
		return pp_bad(&d->c, d->c.off, "fewer function bodies");
	if (br_grow((void **)&d->t->nodes, &d->cap_nodes, d->t->nr_nodes + 1,
		    sizeof(*d->t->nodes)))
		return BR_ESYS;
	id = (uint32_t)d->t->nr_nodes;
	d->t->nodes[d->t->nr_nodes++] = n;
	if (parent == PP_NO_NODE)
		d->placed = start_of(d, n.guid, &d->last);
	for (uint64_t i = 0; i < nprobes && !r; i++)
		r = read_probe(d, id);
	return r;
}

/* An outermost body and, depth first, everything inlined into it. */
static int read_tree(struct pp_dec *d, struct pp_frame **stack, size_t *cap)
{
	size_t sp = 0;
	uint64_t ninl;
	int r = read_body(d, PP_NO_NODE, 0, &ninl);

	while (!r) {
		struct pp_frame f = { .node = (uint32_t)(d->t->nr_nodes - 1),
				      .left = ninl };
		uint32_t site = 0;

		if (br_grow((void **)stack, cap, sp + 1, sizeof(**stack)))
			return BR_ESYS;
		(*stack)[sp++] = f;
		while (sp && !(*stack)[sp - 1].left)
			sp--;
		if (!sp)
			break;
		(*stack)[sp - 1].left--;
		r = rd_u32(&d->c, &site, "an inline site's probe index (ULEB128)");
		if (!r)
			r = read_body(d, (*stack)[sp - 1].node, site, &ninl);
	}
	return r;
}

static int probe_cmp(const void *a, const void *b)
{
	const struct pp_probe *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static int start_cmp(const void *a, const void *b)
{
	const struct pp_start *x = a, *y = b;

	if (x->guid != y->guid)
		return x->guid < y->guid ? -1 : 1;
	return (x->start > y->start) - (x->start < y->start);
}

/* The binary's function starts by GUID (the lowest start of a GUID first). */
static int make_starts(const struct eb_binary *b, struct pp_start **out)
{
	struct pp_start *s = calloc(b->nr_syms ? b->nr_syms : 1, sizeof(*s));

	if (!s)
		return BR_ESYS;
	for (size_t i = 0; i < b->nr_syms; i++) {
		s[i].guid = br_md5_guid(b->syms[i].name,
					strlen(b->syms[i].name));
		s[i].start = b->syms[i].start;
	}
	qsort(s, b->nr_syms, sizeof(*s), start_cmp);
	*out = s;
	return 0;
}

static int read_probes(const struct eb_binary *b, struct pp_cursor *c,
		       struct pp_table *t)
{
	struct pp_dec d = { .c = *c, .t = t };
	struct pp_start *starts = NULL;
	struct pp_frame *stack = NULL;
	size_t cap = 0;
	int r = make_starts(b, &starts);

	d.starts = starts;
	d.nr_starts = b->nr_syms;
	while (!r && d.c.off < d.c.n)
		r = read_tree(&d, &stack, &cap);
	free(stack);
	free(starts);
	if (!r)
		qsort(t->probes, t->nr_probes, sizeof(*t->probes), probe_cmp);
	return r;
}

/* The section named @name of @elf as a cursor; 0 when there is none. */
static int find_section(const struct eb_binary *b, Elf *elf, size_t shstrndx,
			const char *name, struct pp_cursor *c)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *n;

		if (!gelf_getshdr(scn, &sh))
			continue;
		n = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!n || strcmp(n, name) || sh.sh_type == SHT_NOBITS)
			continue;
		if (sh.sh_flags & SHF_COMPRESSED) {
			snprintf(c->err, c->errsz,
				 "%s: %s: expected an uncompressed section, got a compressed one",
				 b->path, name);
			return BR_EINPUT;
		}
		if (sh.sh_offset > b->image_size ||
		    sh.sh_size > b->image_size - sh.sh_offset) {
			snprintf(c->err, c->errsz,
				 "%s: %s: expected a section inside the file, got one past its end",
				 b->path, name);
			return BR_EINPUT;
		}
		c->p = b->image + sh.sh_offset;
		c->n = sh.sh_size;
		break;
	}
	c->sec = name;
	return 0;
}

int pp_read(const struct eb_binary *b, struct pp_table *t, char *err,
	    size_t errsz)
{
	struct pp_cursor desc = { .path = b->path, .err = err, .errsz = errsz };
	struct pp_cursor probes = desc;
	size_t shstrndx;
	Elf *elf;
	int r;

	memset(t, 0, sizeof(*t));
	elf = elf_memory((char *)b->image, b->image_size);
	if (!elf || elf_getshdrstrndx(elf, &shstrndx)) {
		if (elf)
			elf_end(elf);
		snprintf(err, errsz, "%s: expected ELF section headers: %s",
			 b->path, elf_errmsg(-1));
		return BR_EINPUT;
	}
	r = find_section(b, elf, shstrndx, ".pseudo_probe_desc", &desc);
	if (!r)
		r = find_section(b, elf, shstrndx, ".pseudo_probe", &probes);
	elf_end(elf);
	if (!r && desc.p)
		r = read_descs(&desc, t);
	if (!r && probes.p)
		r = read_probes(b, &probes, t);
	if (r == BR_ESYS)
		snprintf(err, errsz, "%s: out of memory decoding pseudo probes",
			 b->path);
	return r;
}

void pp_free(struct pp_table *t)
{
	free(t->descs);
	free(t->nodes);
	free(t->probes);
	memset(t, 0, sizeof(*t));
}

size_t pp_at(const struct pp_table *t, uint64_t addr,
	     const struct pp_probe **first)
{
	size_t lo = br_count_lt(t->probes, t->nr_probes, sizeof(*t->probes),
				offsetof(struct pp_probe, addr), addr);
	size_t hi = br_count_le(t->probes, t->nr_probes, sizeof(*t->probes),
				offsetof(struct pp_probe, addr), addr);

	*first = t->probes + lo;
	return hi - lo;
}

const struct pp_desc *pp_desc_of(const struct pp_table *t, uint64_t guid)
{
	size_t i = br_count_lt(t->descs, t->nr_descs, sizeof(*t->descs),
			       offsetof(struct pp_desc, guid), guid);

	return i < t->nr_descs && t->descs[i].guid == guid ? t->descs + i : NULL;
}
