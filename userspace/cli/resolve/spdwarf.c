// SPDX-License-Identifier: GPL-2.0
/* The DWARF view of a binary for sample profiles.  See spdwarf.h. */
#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <libelf.h>

#include "common/hash.h"
#include "common/search.h"
#include "base/grow.h"
#include "base/pairmap.h"
#include "base/status.h"
#include "resolve/elfbin.h"
#include "resolve/spdwarf.h"

#ifndef DW_AT_GNU_discriminator
#define DW_AT_GNU_discriminator 0x2136
#endif

/* ---- names ---- */

static const char *rfind(const char *s, size_t len, const char *sub)
{
	size_t n = strlen(sub), i;

	if (n > len)
		return NULL;
	for (i = len - n + 1; i-- > 0;)
		if (!memcmp(s + i, sub, n))
			return s + i;
	return NULL;
}

void sp_canonical_name(char *name)
{
	/*
	 * ".llvm.N" and ".part.N" are cut when nothing but the number
	 * follows them (".__uniq.N" stays: llvm-profgen keeps it).
	 */
	static const char *const suffixes[] = { ".llvm.", ".part." };
	size_t i;

	for (i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		size_t len = strlen(name);
		const char *it = rfind(name, len, suffixes[i]);
		const char *dot = strrchr(name, '.');

		if (it && dot == it + strlen(suffixes[i]) - 1)
			name[it - name] = '\0';
	}
}

/* ---- interned strings ---- */

/*
 * Each distinct string once, found by its hash in the CLI's one hash table:
 * key (hash, k) for the k-th string of that hash, the value its index + 1
 * in @strs.
 */
struct sp_names {
	struct pairmap map;
	char **strs;
	size_t nr;
	size_t cap;
};

static uint64_t str_hash(const char *s, size_t len)
{
	uint64_t h = BR_HASH_K ^ len;
	size_t i;

	for (i = 0; i + 8 <= len; i += 8) {
		uint64_t w;

		memcpy(&w, s + i, 8);
		h = br_hash64(h ^ w);
	}
	if (i < len) {
		uint64_t w = 0;

		memcpy(&w, s + i, len - i);
		h = br_hash64(h ^ w ^ ((uint64_t)(len - i) << 59));
	}
	return h;
}

struct sp_names *sp_names_new(void)
{
	return calloc(1, sizeof(struct sp_names));
}

void sp_names_free(struct sp_names *n)
{
	size_t i;

	if (!n)
		return;
	for (i = 0; i < n->nr; i++)
		free(n->strs[i]);
	free(n->strs);
	pairmap_free(&n->map);
	free(n);
}

const char *sp_intern(struct sp_names *n, const char *s, size_t len)
{
	uint64_t h = str_hash(s, len), k, idx, *ref;
	char *c;

	for (k = 0; (idx = pairmap_get(&n->map, h, k)); k++) {
		const char *t = n->strs[idx - 1];

		if (!strncmp(t, s, len) && !t[len])
			return t;
	}
	if (br_grow_from((void **)&n->strs, &n->cap, n->nr + 1,
			 sizeof(*n->strs), 256))
		return NULL;
	c = strndup(s, len);
	if (!c)
		return NULL;
	ref = pairmap_ref(&n->map, h, k);
	if (!ref) {
		free(c);
		return NULL;
	}
	n->strs[n->nr++] = c;
	*ref = n->nr;
	return c;
}

/* ---- the index ---- */

/* A DW_TAG_subprogram or DW_TAG_inlined_subroutine. */
struct node {
	const char *name;	/* canonical, interned; NULL: none */
	uint32_t decl_line;
	uint32_t call_line;
	uint32_t call_disc;
	int32_t parent;		/* enclosing node, -1: none */
	uint32_t cu;		/* its compile unit (index) */
	bool subprogram;
};

/* A range of a node, for the innermost-node lookup. */
struct paint {
	uint64_t lo;
	uint64_t hi;
	uint32_t node;
	uint32_t order;		/* DIE order: later ones are nested deeper */
	int64_t up;		/* the enclosing paint (sorted index), -1 */
};

struct func {
	const char *name;	/* as in DWARF, interned */
	const char *canon;	/* canonical, interned */
	struct spd_range *ranges;
	size_t nr;
	size_t cap;
};

struct frange {
	uint64_t lo;
	uint64_t hi;
	uint32_t func;
	uint32_t seq;
	bool entry;
};

struct spd {
	int fd;
	Dwarf *dw;
	struct sp_names *names;
	uint64_t text_base;
	struct node *nodes;
	size_t nr_nodes, cap_nodes;
	struct paint *paint;
	size_t nr_paint, cap_paint;
	struct func *funcs;
	size_t nr_funcs, cap_funcs;
	struct pairmap func_idx;	/* raw name -> index + 1 */
	struct frange *fr;
	size_t nr_fr, cap_fr;
	Dwarf_Die *cus;		/* compile units, by index */
	size_t nr_cus, cap_cus;
	struct spd_frame *frames;
	size_t cap_frames;
	uint32_t *chain;
	size_t cap_chain;
	bool fs_disc;
	char *line_err;		/* the first line table libdw could not read */
};

static const char *die_string(Dwarf_Die *die, unsigned at)
{
	Dwarf_Attribute a;

	if (!dwarf_attr_integrate(die, at, &a))
		return NULL;
	return dwarf_formstring(&a);
}

/* llvm's DINameKind::LinkageName: the linkage name, else the name. */
static const char *die_name(Dwarf_Die *die)
{
	const char *s = die_string(die, DW_AT_linkage_name);

	if (!s)
		s = die_string(die, DW_AT_MIPS_linkage_name);
	if (!s)
		s = die_string(die, DW_AT_name);
	return s;
}

static uint32_t die_udata(Dwarf_Die *die, unsigned at, bool integrate)
{
	Dwarf_Attribute a;
	Dwarf_Word w;

	if (!(integrate ? dwarf_attr_integrate(die, at, &a) :
	      dwarf_attr(die, at, &a)))
		return 0;
	if (dwarf_formudata(&a, &w))
		return 0;
	return (uint32_t)w;
}

static int func_of(struct spd *d, const char *name, uint32_t *idx)
{
	uint64_t *slot = pairmap_ref(&d->func_idx, (uintptr_t)name, 0);

	if (!slot)
		return BR_ESYS;
	if (*slot) {
		*idx = (uint32_t)(*slot - 1);
		return 0;
	}
	if (br_grow((void **)&d->funcs, &d->cap_funcs, d->nr_funcs + 1,
		 sizeof(*d->funcs)))
		return BR_ESYS;
	{
		struct func *f = &d->funcs[d->nr_funcs];
		char *c = strdup(name);

		if (!c)
			return BR_ESYS;
		sp_canonical_name(c);
		memset(f, 0, sizeof(*f));
		f->name = name;
		f->canon = sp_intern(d->names, c, strlen(c));
		free(c);
		if (!f->canon)
			return BR_ESYS;
	}
	*slot = d->nr_funcs + 1;
	*idx = (uint32_t)d->nr_funcs++;
	return 0;
}

static int add_node(struct spd *d, Dwarf_Die *die, int tag, int32_t parent,
		    uint32_t *order)
{
	struct node *n;
	const char *name = die_name(die), *canon = NULL;
	uint32_t self, fidx = 0;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;
	bool is_sub = tag == DW_TAG_subprogram;

	if (name) {
		char *c = strdup(name);

		if (!c)
			return BR_ESYS;
		sp_canonical_name(c);
		canon = sp_intern(d->names, c, strlen(c));
		free(c);
		if (!canon)
			return BR_ESYS;
	}
	if (br_grow((void **)&d->nodes, &d->cap_nodes, d->nr_nodes + 1,
		 sizeof(*d->nodes)))
		return BR_ESYS;
	self = (uint32_t)d->nr_nodes++;
	n = &d->nodes[self];
	n->name = canon;
	n->decl_line = die_udata(die, DW_AT_decl_line, true);
	n->call_line = die_udata(die, DW_AT_call_line, false);
	n->call_disc = die_udata(die, DW_AT_GNU_discriminator, false);
	n->parent = parent;
	n->cu = (uint32_t)(d->nr_cus - 1);
	n->subprogram = is_sub;
	if (is_sub && name) {
		const char *raw = sp_intern(d->names, name, strlen(name));

		if (!raw || func_of(d, raw, &fidx))
			return BR_ESYS;
	}
	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (hi > lo) {
			struct paint *p;

			if (br_grow((void **)&d->paint, &d->cap_paint,
				 d->nr_paint + 1, sizeof(*d->paint)))
				return BR_ESYS;
			p = &d->paint[d->nr_paint++];
			p->lo = lo;
			p->hi = hi;
			p->node = self;
			p->order = (*order)++;
			p->up = -1;
		}
		if (is_sub && name && hi > lo && lo >= d->text_base) {
			struct func *f = &d->funcs[fidx];
			struct frange *r;

			if (br_grow((void **)&f->ranges, &f->cap, f->nr + 1,
				 sizeof(*f->ranges)) ||
			    br_grow((void **)&d->fr, &d->cap_fr, d->nr_fr + 1,
				 sizeof(*d->fr)))
				return BR_ESYS;
			f->ranges[f->nr].lo = lo;
			f->ranges[f->nr].hi = hi;
			f->nr++;
			r = &d->fr[d->nr_fr];
			r->lo = lo;
			r->hi = hi;
			r->func = fidx;
			r->seq = (uint32_t)d->nr_fr;
			r->entry = false;
			d->nr_fr++;
		}
	}
	return (int)self;
}

static int walk(struct spd *d, Dwarf_Die *die, int32_t parent,
		uint32_t *order, unsigned depth)
{
	Dwarf_Die child;
	int r;

	if (depth > 256)
		return 0;
	do {
		int tag = dwarf_tag(die);
		int32_t p = parent;

		if (tag == DW_TAG_subprogram ||
		    tag == DW_TAG_inlined_subroutine) {
			r = add_node(d, die, tag, parent, order);
			if (r < 0)
				return BR_ESYS;
			p = r;
		}
		if (dwarf_haschildren(die) && dwarf_child(die, &child) == 0 &&
		    walk(d, &child, p, order, depth + 1))
			return BR_ESYS;
	} while (dwarf_siblingof(die, die) == 0);
	return 0;
}

static int cmp_paint(const void *a, const void *b)
{
	const struct paint *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	if (x->hi != y->hi)
		return x->hi > y->hi ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int cmp_frange(const void *a, const void *b)
{
	const struct frange *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Enclosing links: for each paint, the nearest earlier one containing it. */
static int link_paint(struct spd *d)
{
	int64_t *stack = malloc((d->nr_paint + 1) * sizeof(*stack));
	size_t top = 0, i;

	if (!stack)
		return BR_ESYS;
	for (i = 0; i < d->nr_paint; i++) {
		struct paint *p = &d->paint[i];

		while (top && d->paint[stack[top - 1]].hi <= p->lo)
			top--;
		p->up = top ? stack[top - 1] : -1;
		stack[top++] = (int64_t)i;
	}
	free(stack);
	return 0;
}

/* The function ranges: sorted by start, the first of equal starts kept. */
static void dedup_franges(struct spd *d)
{
	size_t i, u = 0;

	if (d->nr_fr > 1)
		qsort(d->fr, d->nr_fr, sizeof(*d->fr), cmp_frange);
	for (i = 0; i < d->nr_fr; i++) {
		if (u && d->fr[u - 1].lo == d->fr[i].lo)
			continue;
		d->fr[u++] = d->fr[i];
	}
	d->nr_fr = u;
}

struct sym_scan {
	struct spd *d;
	size_t shstrndx;
};

/* One symbol of read_symbols(): 0, or BR_ESYS out of memory. */
static int entry_of_symbol(void *arg, Elf *elf, const GElf_Shdr *symtab,
			   const GElf_Sym *s)
{
	struct sym_scan *sc = arg;
	struct spd *d = sc->d;
	GElf_Shdr ss;
	Elf_Scn *sec;
	const char *name, *secname;
	char *c;
	long fr;

	if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
		return 0;
	sec = elf_getscn(elf, s->st_shndx);
	if (!sec || !gelf_getshdr(sec, &ss))
		return 0;
	secname = elf_strptr(elf, sc->shstrndx, ss.sh_name);
	name = elf_strptr(elf, symtab->sh_link, s->st_name);
	if (GELF_ST_TYPE(s->st_info) == STT_SECTION)
		name = secname;
	if (!name)
		name = "";
	if (!(ss.sh_flags & SHF_EXECINSTR)) {
		if (!strcmp(name, "__llvm_fs_discriminator__") &&
		    ss.sh_size && ss.sh_type == SHT_PROGBITS)
			d->fs_disc = true;
		return 0;
	}
	if (!ss.sh_size || (secname && !strcmp(secname, ".plt")))
		return 0;
	fr = spd_find_range(d, s->st_value);
	if (fr < 0 || d->fr[fr].entry)
		return 0;
	if (d->funcs[d->fr[fr].func].nr == 1) {
		d->fr[fr].entry = true;
		return 0;
	}
	c = strdup(name);
	if (!c)
		return BR_ESYS;
	sp_canonical_name(c);
	if (!strcmp(c, d->funcs[d->fr[fr].func].name))
		d->fr[fr].entry = true;
	free(c);
	return 0;
}

/*
 * The entries (llvm-profgen's setIsFuncEntry on every symbol of a text
 * section other than .plt) and the FS-discriminator marker symbol.
 */
static int read_symbols(struct spd *d, const char *sym_path, char *err,
			size_t errsz)
{
	int fd = open(sym_path, O_RDONLY);
	struct sym_scan sc = { .d = d };
	Elf *elf;
	int r;

	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", sym_path, strerror(errno));
		return BR_EINPUT;
	}
	elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF ||
	    elf_getshdrstrndx(elf, &sc.shstrndx)) {
		snprintf(err, errsz, "%s: expected an ELF file", sym_path);
		if (elf)
			elf_end(elf);
		close(fd);
		return BR_EINPUT;
	}
	r = eb_each_symtab_sym(elf, entry_of_symbol, &sc);
	elf_end(elf);
	close(fd);
	return r;
}

struct spd *spd_open(const char *path, const char *sym_path,
		     uint64_t text_base, struct sp_names *names, char *err,
		     size_t errsz, bool *oom)
{
	struct spd *d = calloc(1, sizeof(*d));
	Dwarf_Off off = 0, next;
	size_t hsize;
	uint32_t order = 0;
	int r;

	*oom = false;
	if (!d)
		goto nomem;
	d->names = names;
	d->text_base = text_base;
	d->fd = open(path, O_RDONLY);
	if (d->fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		free(d);
		return NULL;
	}
	d->dw = dwarf_begin(d->fd, DWARF_C_READ);
	if (!d->dw) {
		snprintf(err, errsz,
			 "%s: no debug info: expected DWARF (.debug_info), got none (%s)",
			 path, dwarf_errmsg(-1));
		close(d->fd);
		free(d);
		return NULL;
	}
	while (dwarf_nextcu(d->dw, off, &next, &hsize, NULL, NULL, NULL) == 0) {
		Dwarf_Die cu;

		if (dwarf_offdie(d->dw, off + hsize, &cu)) {
			if (br_grow((void **)&d->cus, &d->cap_cus, d->nr_cus + 1,
				 sizeof(*d->cus)))
				goto nomem;
			d->cus[d->nr_cus++] = cu;
			if (walk(d, &cu, -1, &order, 0))
				goto nomem;
		}
		off = next;
	}
	if (!d->nr_nodes) {
		snprintf(err, errsz,
			 "%s: expected DWARF functions (DW_TAG_subprogram), got none",
			 path);
		spd_close(d);
		return NULL;
	}
	if (d->nr_paint > 1)
		qsort(d->paint, d->nr_paint, sizeof(*d->paint), cmp_paint);
	if (link_paint(d))
		goto nomem;
	dedup_franges(d);
	r = read_symbols(d, sym_path, err, errsz);
	if (r == BR_ESYS)
		goto nomem;
	if (r) {
		spd_close(d);
		return NULL;
	}
	return d;
nomem:
	snprintf(err, errsz, "out of memory");
	*oom = true;
	spd_close(d);
	return NULL;
}

void spd_close(struct spd *d)
{
	size_t i;

	if (!d)
		return;
	if (d->dw)
		dwarf_end(d->dw);
	if (d->fd >= 0)
		close(d->fd);
	for (i = 0; i < d->nr_funcs; i++)
		free(d->funcs[i].ranges);
	free(d->funcs);
	pairmap_free(&d->func_idx);
	free(d->nodes);
	free(d->paint);
	free(d->fr);
	free(d->line_err);
	free(d->cus);
	free(d->frames);
	free(d->chain);
	free(d);
}

bool spd_fs_discriminators(const struct spd *d)
{
	return d->fs_disc;
}

/* The innermost node containing @addr, or -1. */
static long innermost(const struct spd *d, uint64_t addr)
{
	size_t lo = br_count_le(d->paint, d->nr_paint, sizeof(*d->paint),
				offsetof(struct paint, lo), addr);
	int64_t i;

	if (!lo)
		return -1;
	i = (int64_t)lo - 1;
	while (i >= 0 && addr >= d->paint[i].hi)
		i = d->paint[i].up;
	return i < 0 ? -1 : (long)d->paint[i].node;
}

/*
 * Line and discriminator of the row of @addr in the line table of the
 * compile unit @cu: 0 if none.
 */
static void line_of(struct spd *d, uint32_t cu, uint64_t addr,
		    uint32_t *line, uint32_t *disc)
{
	Dwarf_Line *l;
	int ln;
	unsigned int ds;

	*line = 0;
	*disc = 0;
	l = dwarf_getsrc_die(&d->cus[cu], addr);
	if (!l) {
		Dwarf_Lines *lines;
		size_t n;

		/* No row for @addr is fine; a table libdw cannot read is not. */
		if (!d->line_err && dwarf_getsrclines(&d->cus[cu], &lines, &n)) {
			const char *name = dwarf_diename(&d->cus[cu]);

			if (asprintf(&d->line_err,
				     "cannot read the line table of compile unit %s: %s",
				     name ? name : "?", dwarf_errmsg(-1)) < 0)
				d->line_err = NULL;
		}
		return;
	}
	if (!dwarf_lineno(l, &ln) && ln > 0)
		*line = (uint32_t)ln;
	if (!dwarf_linediscriminator(l, &ds))
		*disc = ds;
}

int spd_frames(struct spd *d, uint64_t addr, const struct spd_frame **frames)
{
	long leaf = innermost(d, addr);
	size_t n = 0, i, k;
	uint32_t line, disc;

	*frames = NULL;
	if (leaf < 0)
		return 0;
	/* The chain, innermost first, up to the subprogram. */
	for (i = (size_t)leaf;;) {
		if (br_grow((void **)&d->chain, &d->cap_chain, n + 1,
			 sizeof(*d->chain)))
			return BR_ESYS;
		d->chain[n++] = (uint32_t)i;
		if (d->nodes[i].subprogram || d->nodes[i].parent < 0)
			break;
		i = (size_t)d->nodes[i].parent;
	}
	if (br_grow((void **)&d->frames, &d->cap_frames, n, sizeof(*d->frames)))
		return BR_ESYS;
	line_of(d, d->nodes[leaf].cu, addr, &line, &disc);
	/* Outermost first; stop at the first frame without a name. */
	for (k = 0; k < n; k++) {
		size_t ci = n - 1 - k;
		const struct node *nd = &d->nodes[d->chain[ci]];
		uint32_t l, ds;

		if (!nd->name || !*nd->name)
			break;
		if (ci == 0) {
			l = line;
			ds = disc;
		} else {
			const struct node *inner = &d->nodes[d->chain[ci - 1]];

			l = inner->call_line;
			ds = inner->call_disc;
		}
		d->frames[k].name = nd->name;
		d->frames[k].line = (l - nd->decl_line) & 0xffff;
		d->frames[k].disc = ds;
	}
	*frames = d->frames;
	return (int)k;
}

const char *spd_line_error(const struct spd *d)
{
	return d->line_err;
}

size_t spd_nr_ranges(const struct spd *d)
{
	return d->nr_fr;
}

long spd_find_range(const struct spd *d, uint64_t addr)
{
	size_t lo = br_count_le(d->fr, d->nr_fr, sizeof(*d->fr),
				offsetof(struct frange, lo), addr);

	if (!lo || addr >= d->fr[lo - 1].hi)
		return -1;
	return (long)lo - 1;
}

long spd_range_at(const struct spd *d, uint64_t addr)
{
	long r = spd_find_range(d, addr);

	return r >= 0 && d->fr[r].lo == addr ? r : -1;
}

uint64_t spd_range_start(const struct spd *d, long r)
{
	return d->fr[r].lo;
}

bool spd_range_entry(const struct spd *d, long r)
{
	return d->fr[r].entry;
}

const char *spd_range_name(const struct spd *d, long r)
{
	return d->funcs[d->fr[r].func].canon;
}

void spd_range_func(const struct spd *d, long r,
		    const struct spd_range **ranges, size_t *nr)
{
	const struct func *f = &d->funcs[d->fr[r].func];

	*ranges = f->ranges;
	*nr = f->nr;
}
