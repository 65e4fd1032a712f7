// SPDX-License-Identifier: GPL-2.0
/*
 * ELF executable: libelf for headers, sections and symbols, capstone for
 * instruction lengths, classes and text.
 */
#define _POSIX_C_SOURCE 200809L

#include "resolve/elfbin.h"

#include "base/grow.h"
#include "base/status.h"
#include "resolve/altdis.h"
#include "common/search.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <capstone/capstone.h>

struct rawsym {
	uint64_t addr;
	uint64_t size;
	const char *name;
	int rank;	/* higher wins among symbols at one address */
};

static int cmp_rawsym(const void *a, const void *b)
{
	const struct rawsym *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank > y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int read_file(const char *path, unsigned char **data, size_t *size,
		     char *err, size_t errsz)
{
	int fd = open(path, O_RDONLY);
	struct stat st;
	unsigned char *buf;
	size_t done = 0;

	if (fd < 0) {
		snprintf(err, errsz, "%s: %s", path, strerror(errno));
		return BR_ESYS;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		snprintf(err, errsz, "%s: expected an ELF executable, got %s",
			 path, S_ISDIR(st.st_mode) ? "a directory" :
			 "a special file");
		close(fd);
		return BR_ESYS;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		snprintf(err, errsz, "%s: out of memory", path);
		close(fd);
		return BR_ESYS;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n <= 0) {
			snprintf(err, errsz, "%s: read error: %s", path,
				 n ? strerror(errno) : "short file");
			free(buf);
			close(fd);
			return BR_ESYS;
		}
		done += (size_t)n;
	}
	close(fd);
	*data = buf;
	*size = done;
	return 0;
}

static enum eb_kind classify(const cs_insn *in)
{
	const cs_detail *d = in->detail;
	bool jump = false;
	uint8_t i;

	switch (in->id) {
	case X86_INS_RET:
	case X86_INS_RETF:
	case X86_INS_RETFQ:
	case X86_INS_IRET:
	case X86_INS_IRETD:
	case X86_INS_IRETQ:
		return EB_RET;
	default:
		break;
	}
	if (!d)
		return EB_OTHER;
	for (i = 0; i < d->groups_count; i++) {
		if (d->groups[i] == CS_GRP_CALL)
			return EB_CALL;
		if (d->groups[i] == CS_GRP_RET || d->groups[i] == CS_GRP_IRET)
			return EB_RET;
		if (d->groups[i] == CS_GRP_JUMP)
			jump = true;
	}
	if (!jump)
		return EB_OTHER;
	if (in->id == X86_INS_JMP || in->id == X86_INS_LJMP) {
		if (d->x86.op_count == 1 && d->x86.operands[0].type == X86_OP_IMM)
			return EB_JMP;
		return EB_JMP_IND;
	}
	return EB_COND;
}

const struct eb_section *eb_xsec_at(const struct eb_binary *b, uint64_t addr)
{
	size_t i;

	for (i = 0; i < b->nr_xsecs; i++)
		if (addr >= b->xsecs[i].addr &&
		    addr - b->xsecs[i].addr < b->xsecs[i].size)
			return &b->xsecs[i];
	return NULL;
}

/* A capstone handle as every decoder here uses it: AT&T, details on. */
static bool open_capstone(csh *h)
{
	if (cs_open(CS_ARCH_X86, CS_MODE_64, h) != CS_ERR_OK)
		return false;
	cs_option(*h, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(*h, CS_OPT_DETAIL, CS_OPT_ON);
	return true;
}

/* A growing array of code-set instructions. */
struct codebuf {
	struct eb_insn *v;
	size_t n;
	size_t cap;
};

static int push_insn(struct codebuf *cb, uint64_t addr, unsigned size,
		     enum eb_kind kind)
{
	if (br_grow((void **)&cb->v, &cb->cap, cb->n + 1, sizeof(*cb->v)))
		return BR_ESYS;
	cb->v[cb->n].addr = addr;
	cb->v[cb->n].size = (uint8_t)size;
	cb->v[cb->n].kind = (uint8_t)kind;
	cb->n++;
	return 0;
}

/*
 * Disassemble [lo, hi) of section @s into @cb with capstone handle @h; what
 * capstone cannot decode, LLVM's disassembler may (@alt, altdis.h), else
 * the byte is not code.  Without @alt, stop at the first such byte:
 * *@stop is where (@hi when all was decoded).  0 or BR_ESYS.
 */
static int decode_region(const struct eb_binary *b, csh h,
			 struct altdis *alt, const struct eb_section *s,
			 uint64_t lo, uint64_t hi, struct codebuf *cb,
			 uint64_t *stop)
{
	cs_insn *in = cs_malloc(h);
	uint64_t addr = lo;
	int r = 0;

	if (!in)
		return BR_ESYS;
	while (addr < hi && !r) {
		const uint8_t *code = b->image + s->offset + (addr - s->addr);
		size_t size = (size_t)(hi - addr);
		uint64_t a = addr;
		unsigned n;

		if (cs_disasm_iter(h, &code, &size, &a, in)) {
			r = push_insn(cb, in->address, in->size, classify(in));
			addr = a;
			continue;
		}
		if (!alt)
			break;
		n = altdis_decode(alt, code, (size_t)(hi - addr), addr, NULL,
				  0, NULL, 0);
		if (n)
			r = push_insn(cb, addr, n, EB_OTHER);
		addr += n ? n : 1;
	}
	cs_free(in, 1);
	if (stop)
		*stop = addr;
	return r;
}

/* The first section of @type in @elf, with its header. */
static Elf_Scn *find_scn(Elf *elf, GElf_Word type, GElf_Shdr *sh)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, sh) && sh->sh_type == type)
			return scn;
	return NULL;
}

/*
 * Function symbols of @symscn that lie in executable sections of @b, one
 * per address (the best ranked), sorted.  0, or BR_ESYS out of memory.
 */
static int load_symbols(struct eb_binary *b, Elf *elf, Elf_Scn *symscn,
			const GElf_Shdr *symsh, char *err, size_t errsz)
{
	Elf_Data *data;
	struct rawsym *raw = NULL;
	size_t nraw = 0, i, n, u;

	data = elf_getdata(symscn, NULL);
	if (!data || !symsh->sh_entsize)
		return 0;
	n = symsh->sh_size / symsh->sh_entsize;
	raw = calloc(n ? n : 1, sizeof(*raw));
	if (!raw) {
		snprintf(err, errsz, "%s: out of memory", b->path);
		return BR_ESYS;
	}
	for (i = 0; i < n; i++) {
		GElf_Sym s;
		const char *name;
		int type, bind;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		bind = GELF_ST_BIND(s.st_info);
		if (type != STT_FUNC && type != STT_NOTYPE &&
		    type != STT_GNU_IFUNC)
			continue;
		if (s.st_shndx == SHN_UNDEF || s.st_shndx >= SHN_LORESERVE)
			continue;
		name = elf_strptr(elf, symsh->sh_link, s.st_name);
		if (!name || !*name || !eb_xsec_at(b, s.st_value))
			continue;
		raw[nraw].addr = s.st_value;
		raw[nraw].size = s.st_size;
		raw[nraw].name = name;
		raw[nraw].rank = (type == STT_FUNC ? 4 : 0) +
				 (bind == STB_GLOBAL ? 2 :
				  bind == STB_WEAK ? 1 : 0);
		nraw++;
	}
	qsort(raw, nraw, sizeof(*raw), cmp_rawsym);
	b->syms = calloc(nraw ? nraw : 1, sizeof(*b->syms));
	if (!b->syms) {
		free(raw);
		snprintf(err, errsz, "%s: out of memory", b->path);
		return BR_ESYS;
	}
	for (i = 0, u = 0; i < nraw; i++) {
		if (u && b->syms[u - 1].start == raw[i].addr)
			continue;
		b->syms[u].start = raw[i].addr;
		b->syms[u].end = raw[i].size ? raw[i].addr + raw[i].size : 0;
		b->syms[u].name = strdup(raw[i].name);
		if (!b->syms[u].name) {
			free(raw);
			b->nr_syms = u;
			snprintf(err, errsz, "%s: out of memory", b->path);
			return BR_ESYS;
		}
		u++;
	}
	b->nr_syms = u;
	free(raw);
	return 0;
}

/*
 * The symbols: @sym_path's .symtab if given and present, else the
 * binary's .symtab, else its .dynsym.  0, BR_ESYS out of memory, or
 * BR_EINPUT if @sym_path is not a readable ELF file (with a message).
 */
static int pick_symbols(struct eb_binary *b, Elf *elf, const char *sym_path,
			char *err, size_t errsz)
{
	GElf_Shdr sh;
	Elf_Scn *scn;
	int r;

	if (sym_path) {
		int fd = open(sym_path, O_RDONLY);
		Elf *dbg;

		if (fd < 0) {
			snprintf(err, errsz, "%s: %s", sym_path,
				 strerror(errno));
			return BR_EINPUT;
		}
		dbg = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (!dbg || elf_kind(dbg) != ELF_K_ELF) {
			snprintf(err, errsz,
				 "%s: expected an ELF debug file, got a file that is not ELF",
				 sym_path);
			if (dbg)
				elf_end(dbg);
			close(fd);
			return BR_EINPUT;
		}
		scn = find_scn(dbg, SHT_SYMTAB, &sh);
		r = scn ? load_symbols(b, dbg, scn, &sh, err, errsz) : 0;
		elf_end(dbg);
		close(fd);
		if (r)
			return r;
		if (b->nr_syms) {
			b->symsrc = EB_SYMS_SYMTAB;
			b->sym_path_buf = strdup(sym_path);
			if (!b->sym_path_buf) {
				snprintf(err, errsz, "%s: out of memory",
					 b->path);
				return BR_ESYS;
			}
			b->sym_path = b->sym_path_buf;
			return 0;
		}
		free(b->syms);
		b->syms = NULL;
	}
	b->sym_path = b->path;
	scn = find_scn(elf, SHT_SYMTAB, &sh);
	if (scn) {
		if (load_symbols(b, elf, scn, &sh, err, errsz))
			return BR_ESYS;
		if (b->nr_syms) {
			b->symsrc = EB_SYMS_SYMTAB;
			return 0;
		}
		free(b->syms);
		b->syms = NULL;
	}
	scn = find_scn(elf, SHT_DYNSYM, &sh);
	if (scn) {
		if (load_symbols(b, elf, scn, &sh, err, errsz))
			return BR_ESYS;
		if (b->nr_syms)
			b->symsrc = EB_SYMS_DYNSYM;
	}
	return 0;
}

static int cmp_sym(const void *a, const void *b)
{
	const struct eb_sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

/*
 * perf's "NAME@plt" symbols for the PLT entries no symbol covers: entry i
 * of .rela.plt is the i-th 16-byte stub of .plt.sec, or of .plt after its
 * first stub.  Display only: added after the code set was decoded, which
 * (as llvm-profgen's) has no PLT.  0, or BR_ESYS out of memory.
 */
static int add_plt_symbols(struct eb_binary *b, Elf *elf, size_t shstrndx)
{
	Elf_Scn *scn = NULL, *rela = NULL;
	GElf_Shdr sh, rsh = { 0 }, dsh;
	uint64_t plt = 0, step = 16;
	bool have_plt = false;
	Elf_Data *data, *dyn;
	size_t i, n, added = 0;
	struct eb_sym *v;

	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		if (!strcmp(name, ".rela.plt") && sh.sh_type == SHT_RELA) {
			rela = scn;
			rsh = sh;
		} else if (!strcmp(name, ".plt.sec")) {
			plt = sh.sh_addr;
			have_plt = true;
		} else if (!strcmp(name, ".plt") && !have_plt) {
			plt = sh.sh_addr + step;
			have_plt = true;
		}
	}
	if (!rela || !have_plt || !rsh.sh_entsize)
		return 0;
	scn = elf_getscn(elf, rsh.sh_link);
	if (!scn || !gelf_getshdr(scn, &dsh) || !dsh.sh_entsize)
		return 0;
	data = elf_getdata(rela, NULL);
	dyn = elf_getdata(scn, NULL);
	if (!data || !dyn)
		return 0;
	n = rsh.sh_size / rsh.sh_entsize;
	v = realloc(b->syms, (b->nr_syms + n + 1) * sizeof(*v));
	if (!v)
		return BR_ESYS;
	b->syms = v;
	for (i = 0; i < n; i++) {
		uint64_t addr = plt + step * i;
		const char *name;
		GElf_Rela r;
		GElf_Sym ds;
		char *full;

		if (!gelf_getrela(data, (int)i, &r) ||
		    !gelf_getsym(dyn, (int)GELF_R_SYM(r.r_info), &ds))
			continue;
		name = elf_strptr(elf, dsh.sh_link, ds.st_name);
		if (!name || !*name || !eb_xsec_at(b, addr) ||
		    eb_sym_at(b, addr))
			continue;
		full = malloc(strlen(name) + 5);
		if (!full)
			return BR_ESYS;
		sprintf(full, "%s@plt", name);
		v[b->nr_syms + added].start = addr;
		v[b->nr_syms + added].end = addr + step;
		v[b->nr_syms + added].name = full;
		added++;
	}
	b->nr_syms += added;
	qsort(b->syms, b->nr_syms, sizeof(*b->syms), cmp_sym);
	return 0;
}

/* NT_GNU_BUILD_ID among the notes of @d; its size, 0 if none. */
static int note_build_id(const Elf_Data *d, uint8_t id[BR_BUILD_ID_MAX])
{
	size_t off = 0, noff, doff;
	GElf_Nhdr nh;

	while (off < d->d_size &&
	       (off = gelf_getnote((Elf_Data *)d, off, &nh, &noff, &doff))) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)d->d_buf + noff, "GNU", 4) &&
		    nh.n_descsz && nh.n_descsz <= BR_BUILD_ID_MAX) {
			memcpy(id, (const char *)d->d_buf + doff, nh.n_descsz);
			return (int)nh.n_descsz;
		}
	}
	return 0;
}

/*
 * NT_GNU_BUILD_ID of @elf: from its PT_NOTE segments (what the loader
 * maps, there even without section headers), else its SHT_NOTE sections.
 * Its size, 0 if none.
 */
static int read_build_id(Elf *elf, uint8_t id[BR_BUILD_ID_MAX])
{
	Elf_Scn *scn = NULL;
	size_t phnum, i;
	int n = 0;

	if (!elf_getphdrnum(elf, &phnum)) {
		for (i = 0; i < phnum && !n; i++) {
			GElf_Phdr ph;
			Elf_Data *d;

			if (!gelf_getphdr(elf, (int)i, &ph) ||
			    ph.p_type != PT_NOTE)
				continue;
			d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
						 ph.p_filesz, ELF_T_NHDR);
			if (d)
				n = note_build_id(d, id);
		}
	}
	while (!n && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_NOTE)
			continue;
		d = elf_getdata(scn, NULL);
		if (d)
			n = note_build_id(d, id);
	}
	return n;
}

int eb_file_build_id(const char *path, uint8_t id[BR_BUILD_ID_MAX])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), n = -1;
	Elf *elf;

	if (fd < 0)
		return -1;
	if (elf_version(EV_CURRENT) != EV_NONE) {
		elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
		if (elf && elf_kind(elf) == ELF_K_ELF)
			n = read_build_id(elf, id);
		if (elf)
			elf_end(elf);
	}
	close(fd);
	return n;
}

/* Next symbol start in the same section, or the section end. */
static uint64_t region_end(const struct eb_binary *b, size_t i)
{
	const struct eb_section *s = eb_xsec_at(b, b->syms[i].start);
	uint64_t end = s->addr + s->size;

	if (i + 1 < b->nr_syms && b->syms[i + 1].start < end)
		end = b->syms[i + 1].start;
	return end;
}

/* Bits set in @x (portable; the build does not assume a POPCNT unit). */
static inline unsigned popcount64(uint64_t x)
{
	x -= (x >> 1) & 0x5555555555555555ull;
	x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
	return (unsigned)((x * 0x0101010101010101ull) >> 56);
}

/*
 * The bitmap of instruction starts behind eb_code_index(): one bit per text
 * byte plus a 32-bit rank per 64 bytes (a quarter of a byte per text byte).
 * Left out (binary search instead) when the code set is empty, not strictly
 * increasing, or spread so thinly that the bitmap and ranks would take
 * over 60 bytes per instruction.  0, or BR_ESYS if out of memory.
 */
static int build_code_bitmap(struct eb_binary *b)
{
	uint64_t span, words;
	uint32_t rank = 0;
	size_t i;

	if (!b->nr_code || b->nr_code > UINT32_MAX)
		return 0;
	for (i = 1; i < b->nr_code; i++)
		if (b->code[i].addr <= b->code[i - 1].addr)
			return 0;
	span = b->code[b->nr_code - 1].addr - b->code[0].addr;
	words = span / 64 + 1;
	if (words > 5 * (uint64_t)b->nr_code + 64)
		return 0;
	b->code_bits = calloc((size_t)words, sizeof(*b->code_bits));
	b->code_rank = malloc((size_t)words * sizeof(*b->code_rank));
	if (!b->code_bits || !b->code_rank)
		return BR_ESYS;
	b->code_lo = b->code[0].addr;
	b->code_words = (size_t)words;
	for (i = 0; i < b->nr_code; i++) {
		uint64_t off = b->code[i].addr - b->code_lo;

		b->code_bits[off / 64] |= (uint64_t)1 << (off % 64);
	}
	for (i = 0; i < b->code_words; i++) {
		b->code_rank[i] = rank;
		rank += (uint32_t)popcount64(b->code_bits[i]);
	}
	return 0;
}

static uint64_t end_of(uint64_t off, uint64_t n, uint64_t size)
{
	/* Saturate: an overflowing end is past any file. */
	if (n && size > (UINT64_MAX - off) / n)
		return UINT64_MAX;
	return off + n * size;
}

/*
 * The file size the ELF header and program headers imply: the header
 * tables and every PT_LOAD's file bytes.  A file cut short (a partial copy
 * or download) is shorter; libelf would otherwise report it as "invalid
 * data" or an ELF without sections.
 */
static uint64_t file_end(Elf *elf, const GElf_Ehdr *eh)
{
	uint64_t need = eh->e_ehsize, e;
	size_t i;

	/* 0 in e_phnum / e_shnum with an offset: the count is elsewhere. */
	e = end_of(eh->e_phoff, eh->e_phnum ? eh->e_phnum : !!eh->e_phoff,
		   eh->e_phentsize);
	if (e > need)
		need = e;
	e = end_of(eh->e_shoff, eh->e_shnum ? eh->e_shnum : !!eh->e_shoff,
		   eh->e_shentsize);
	if (e > need)
		need = e;
	for (i = 0; i < eh->e_phnum && eh->e_phoff && need != UINT64_MAX; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		e = end_of(ph.p_offset, 1, ph.p_filesz);
		if (e > need)
			need = e;
	}
	return need;
}

int eb_open(const char *path, struct eb_binary *b, char *err, size_t errsz)
{
	const struct eb_open_opts o = { .code_set = true };

	return eb_open_ex(path, &o, b, err, errsz);
}

/* An x86-64 executable, whole: its type and the extent its headers say. */
static int check_elf(struct eb_binary *b, Elf *elf, char *err, size_t errsz)
{
	const char *path = b->path;
	GElf_Ehdr eh;
	uint64_t need;

	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		snprintf(err, errsz, "%s: expected an ELF executable, got %s",
			 path, b->image_size ? "a file that is not ELF" :
			 "an empty file");
		return BR_EINPUT;
	}
	if (gelf_getclass(elf) != ELFCLASS64) {
		snprintf(err, errsz,
			 "%s: expected a 64-bit x86-64 executable, got a 32-bit ELF file",
			 path);
		return BR_EINPUT;
	}
	if (eh.e_machine != EM_X86_64) {
		snprintf(err, errsz,
			 "%s: expected an x86-64 executable, got an ELF file for machine %u",
			 path, (unsigned)eh.e_machine);
		return BR_EINPUT;
	}
	if (eh.e_type != ET_EXEC && eh.e_type != ET_DYN) {
		snprintf(err, errsz,
			 "%s: expected an executable (ELF type EXEC or DYN), got %s",
			 path, eh.e_type == ET_REL ? "a relocatable object (REL)" :
			 eh.e_type == ET_CORE ? "a core file (CORE)" :
			 "another ELF type");
		return BR_EINPUT;
	}
	b->pie = eh.e_type == ET_DYN;
	b->entry = eh.e_entry;
	need = file_end(elf, &eh);
	if (need > b->image_size) {
		snprintf(err, errsz,
			 "%s: expected %" PRIu64 " bytes or more (its ELF headers say so), got %zu (a cut-off file?)",
			 path, need, b->image_size);
		return BR_EINPUT;
	}
	return BR_OK;
}

/* The PT_LOADs, and the text base of the first executable one. */
static int read_loads(struct eb_binary *b, Elf *elf, char *err, size_t errsz)
{
	bool have_text = false;
	size_t nph, i;

	if (elf_getphdrnum(elf, &nph)) {
		snprintf(err, errsz, "%s: %s", b->path, elf_errmsg(-1));
		return BR_EINPUT;
	}
	b->loads = calloc(nph ? nph : 1, sizeof(*b->loads));
	if (!b->loads) {
		snprintf(err, errsz, "%s: out of memory", b->path);
		return BR_ESYS;
	}
	for (i = 0; i < nph; i++) {
		struct eb_load *l = &b->loads[b->nr_loads];
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		l->vaddr = ph.p_vaddr;
		l->memsz = ph.p_memsz;
		l->offset = ph.p_offset;
		l->filesz = ph.p_filesz;
		l->exec = ph.p_flags & PF_X;
		if (l->exec && !have_text) {
			b->text_base = ph.p_vaddr & ~(uint64_t)0xfff;
			have_text = true;
		}
		b->nr_loads++;
	}
	if (!have_text) {
		snprintf(err, errsz,
			 "%s: expected an executable PT_LOAD segment, got none",
			 b->path);
		return BR_EINPUT;
	}
	return BR_OK;
}

/* The executable PROGBITS sections (code). */
static int read_xsecs(struct eb_binary *b, Elf *elf, size_t shstrndx,
		      char *err, size_t errsz)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		struct eb_section *x;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !sh.sh_size)
			continue;
		if (sh.sh_offset > b->image_size ||
		    sh.sh_size > b->image_size - sh.sh_offset) {
			snprintf(err, errsz,
				 "%s: expected the code section at offset 0x%" PRIx64 " size 0x%" PRIx64 " within the file (%zu bytes), got it outside",
				 b->path, (uint64_t)sh.sh_offset,
				 (uint64_t)sh.sh_size, b->image_size);
			return BR_EINPUT;
		}
		x = realloc(b->xsecs, (b->nr_xsecs + 1) * sizeof(*x));
		if (!x)
			goto oom;
		b->xsecs = x;
		x += b->nr_xsecs;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		x->addr = sh.sh_addr;
		x->size = sh.sh_size;
		x->offset = sh.sh_offset;
		x->name = strdup(name ? name : "?");
		if (!x->name)
			goto oom;
		b->nr_xsecs++;
	}
	return BR_OK;
oom:
	snprintf(err, errsz, "%s: out of memory", b->path);
	return BR_ESYS;
}

/* capstone (AT&T syntax, details on), and LLVM's for what it cannot do. */
static int open_decoders(struct eb_binary *b, char *err, size_t errsz)
{
	csh h;

	if (!open_capstone(&h)) {
		snprintf(err, errsz, "capstone: cannot open an x86-64 handle");
		return BR_ESYS;
	}
	b->cs_handle = (size_t)h;
	b->alt = altdis_new();
	if (!b->alt) {
		snprintf(err, errsz, "%s: out of memory", b->path);
		return BR_ESYS;
	}
	return BR_OK;
}

/*
 * The code set: every symbol's region, [start, next symbol or section end),
 * disassembled from its start.  A large binary is cut into parts of about
 * equal bytes at symbol starts, and every part but the first is decoded on
 * a thread of its own with its own capstone handle; LLVM's disassembler
 * (one per binary) stays with the calling thread, which decodes what
 * capstone stopped at once the parts are back.  Each region is decoded
 * the same way whoever decodes it, so the set is the same for any number
 * of threads.
 */
#define DECODE_PART_MIN	((uint64_t)256 << 10)	/* bytes worth a thread */
#define DECODE_PARTS_MAX 8

struct decode_gap {
	size_t pos;	/* where it goes among the part's instructions */
	size_t sym;	/* the symbol whose region it is in */
	uint64_t addr;	/* where capstone stopped */
};

/* Symbols [first, last) of @b, decoded by capstone alone. */
struct decode_part {
	const struct eb_binary *b;
	size_t first;
	size_t last;
	struct codebuf code;
	struct decode_gap *gaps;
	size_t nr_gaps;
	size_t cap_gaps;
	pthread_t thread;
	bool started;
	bool failed;	/* the caller decodes the part itself */
};

static bool add_gap(struct decode_part *p, size_t sym, uint64_t addr)
{
	if (br_grow((void **)&p->gaps, &p->cap_gaps, p->nr_gaps + 1,
		    sizeof(*p->gaps)))
		return false;
	p->gaps[p->nr_gaps].pos = p->code.n;
	p->gaps[p->nr_gaps].sym = sym;
	p->gaps[p->nr_gaps].addr = addr;
	p->nr_gaps++;
	return true;
}

static void *decode_part_main(void *arg)
{
	struct decode_part *p = arg;
	const struct eb_binary *b = p->b;
	size_t i;
	csh h;

	if (!open_capstone(&h)) {
		p->failed = true;
		return NULL;
	}
	for (i = p->first; i < p->last && !p->failed; i++) {
		uint64_t end = region_end(b, i), stop;

		if (decode_region(b, h, NULL, eb_xsec_at(b, b->syms[i].start),
				  b->syms[i].start, end, &p->code, &stop) ||
		    (stop < end && !add_gap(p, i, stop)))
			p->failed = true;
	}
	cs_close(&h);
	return NULL;
}

/* Symbols [first, last) on the calling thread, into @cb. */
static int decode_syms(struct eb_binary *b, size_t first, size_t last,
		       struct codebuf *cb)
{
	size_t i;

	for (i = first; i < last; i++)
		if (decode_region(b, (csh)b->cs_handle, b->alt,
				  eb_xsec_at(b, b->syms[i].start),
				  b->syms[i].start, region_end(b, i), cb, NULL))
			return BR_ESYS;
	return 0;
}

/* Instructions [from, to) of @src after @cb's. */
static int append_insns(struct codebuf *cb, const struct codebuf *src,
			size_t from, size_t to)
{
	if (to <= from)
		return 0;
	if (br_grow((void **)&cb->v, &cb->cap, cb->n + (to - from),
		    sizeof(*cb->v)))
		return BR_ESYS;
	memcpy(cb->v + cb->n, src->v + from, (to - from) * sizeof(*cb->v));
	cb->n += to - from;
	return 0;
}

/* A part's instructions after @cb's, its gaps decoded here. */
static int join_part(struct eb_binary *b, struct decode_part *p,
		     struct codebuf *cb)
{
	size_t from = 0, g;

	if (p->started)
		pthread_join(p->thread, NULL);
	if (!p->started || p->failed)
		return decode_syms(b, p->first, p->last, cb);
	for (g = 0; g < p->nr_gaps; g++) {
		const struct decode_gap *x = &p->gaps[g];

		if (append_insns(cb, &p->code, from, x->pos) ||
		    decode_region(b, (csh)b->cs_handle, b->alt,
				  eb_xsec_at(b, b->syms[x->sym].start),
				  x->addr, region_end(b, x->sym), cb, NULL))
			return BR_ESYS;
		from = x->pos;
	}
	return append_insns(cb, &p->code, from, p->code.n);
}

/* Cut the symbols into @n parts of about equal bytes: parts[k].first. */
static void cut_parts(const struct eb_binary *b, struct decode_part *parts,
		      size_t n, uint64_t total)
{
	uint64_t acc = 0;
	size_t i, k = 1;

	parts[0].first = 0;
	for (i = 0; i < b->nr_syms && k < n; i++) {
		if (acc >= total / n * k)
			parts[k++].first = i;
		acc += region_end(b, i) - b->syms[i].start;
	}
	while (k < n)
		parts[k++].first = b->nr_syms;
	for (k = 0; k < n; k++)
		parts[k].last = k + 1 < n ? parts[k + 1].first : b->nr_syms;
}

static int decode_code_set(struct eb_binary *b, unsigned threads)
{
	struct decode_part parts[DECODE_PARTS_MAX];
	struct codebuf cb = { 0 };
	uint64_t total = 0;
	size_t i, n;
	int r = 0;

	for (i = 0; i < b->nr_syms; i++)
		total += region_end(b, i) - b->syms[i].start;
	n = threads < DECODE_PARTS_MAX ? threads : DECODE_PARTS_MAX;
	if (n > total / DECODE_PART_MIN)
		n = (size_t)(total / DECODE_PART_MIN);
	if (n < 2)
		n = 1;
	memset(parts, 0, sizeof(parts));
	cut_parts(b, parts, n, total);
	for (i = 1; i < n; i++) {
		parts[i].b = b;
		parts[i].started = !pthread_create(&parts[i].thread, NULL,
						   decode_part_main, &parts[i]);
	}
	r = decode_syms(b, parts[0].first, parts[0].last, &cb);
	for (i = 1; i < n; i++) {
		if (!r)
			r = join_part(b, &parts[i], &cb);
		else if (parts[i].started)
			pthread_join(parts[i].thread, NULL);
		free(parts[i].code.v);
		free(parts[i].gaps);
	}
	b->code = cb.v;
	b->nr_code = cb.n;
	return r;
}

/*
 * The symbols' ends, llvm-profgen's code set (@o->code_set), the PLT's
 * symbols, the prefix counts of calls, returns and direct jumps, and the
 * code bitmap.  0 or BR_ESYS out of memory.
 */
static int finish_code(struct eb_binary *b, Elf *elf, size_t shstrndx,
		       const struct eb_open_opts *o)
{
	size_t i;

	for (i = 0; i < b->nr_syms; i++) {
		uint64_t end = region_end(b, i);

		if (!b->syms[i].end || b->syms[i].end > end)
			b->syms[i].end = end;
	}
	if (o->code_set && decode_code_set(b, o->threads))
		return BR_ESYS;
	if (add_plt_symbols(b, elf, shstrndx))
		return BR_ESYS;
	b->xfer_prefix = malloc((b->nr_code + 1) * sizeof(*b->xfer_prefix));
	if (!b->xfer_prefix)
		return BR_ESYS;
	b->xfer_prefix[0] = 0;
	for (i = 0; i < b->nr_code; i++) {
		enum eb_kind k = b->code[i].kind;

		b->xfer_prefix[i + 1] = b->xfer_prefix[i] +
			(k == EB_CALL || k == EB_RET || k == EB_JMP);
	}
	return build_code_bitmap(b) ? BR_ESYS : 0;
}

/* What the file holds: segments, code sections, decoders, symbols, code. */
static int read_binary(struct eb_binary *b, Elf *elf,
		       const struct eb_open_opts *o, char *err, size_t errsz)
{
	size_t shstrndx;
	int r = check_elf(b, elf, err, errsz);

	if (!r && elf_getshdrstrndx(elf, &shstrndx)) {
		snprintf(err, errsz, "%s: %s", b->path, elf_errmsg(-1));
		r = BR_EINPUT;
	}
	if (!r)
		r = read_loads(b, elf, err, errsz);
	if (!r)
		r = read_xsecs(b, elf, shstrndx, err, errsz);
	if (!r)
		r = open_decoders(b, err, errsz);
	if (!r)
		r = pick_symbols(b, elf, o->sym_path, err, errsz);
	if (r)
		return r;
	if (o->need_syms && !b->nr_syms) {
		snprintf(err, errsz,
			 "%s: expected function symbols in its executable sections, got none (stripped?)",
			 b->path);
		return BR_EINPUT;
	}
	b->build_id_size = (uint8_t)read_build_id(elf, b->build_id);
	if (finish_code(b, elf, shstrndx, o)) {
		snprintf(err, errsz, "%s: out of memory", b->path);
		return BR_ESYS;
	}
	return BR_OK;
}

int eb_open_ex(const char *path, const struct eb_open_opts *o,
	       struct eb_binary *b, char *err, size_t errsz)
{
	Elf *elf;
	int r;

	memset(b, 0, sizeof(*b));
	b->path = strdup(path);
	if (!b->path) {
		snprintf(err, errsz, "%s: out of memory", path);
		return BR_ESYS;
	}
	b->base_name = strrchr(b->path, '/') ? strrchr(b->path, '/') + 1 :
		       b->path;
	if (read_file(path, &b->image, &b->image_size, err, errsz)) {
		eb_close(b);
		return BR_ESYS;
	}
	if (elf_version(EV_CURRENT) == EV_NONE) {
		snprintf(err, errsz, "libelf: %s", elf_errmsg(-1));
		eb_close(b);
		return BR_ESYS;
	}
	/* The file could be read: from here on, its content is at fault. */
	elf = elf_memory((char *)b->image, b->image_size);
	r = read_binary(b, elf, o, err, errsz);
	if (elf)
		elf_end(elf);
	if (r)
		eb_close(b);
	return r;
}

void eb_close(struct eb_binary *b)
{
	size_t i;

	if (b->cs_handle) {
		csh h = (csh)b->cs_handle;

		cs_close(&h);
	}
	for (i = 0; i < b->nr_syms; i++)
		free(b->syms[i].name);
	for (i = 0; i < b->nr_xsecs; i++)
		free(b->xsecs[i].name);
	free(b->syms);
	free(b->xsecs);
	free(b->loads);
	free(b->code);
	free(b->xfer_prefix);
	free(b->code_bits);
	free(b->code_rank);
	free(b->image);
	free(b->path);
	free(b->sym_path_buf);
	altdis_free(b->alt);
	memset(b, 0, sizeof(*b));
}

long eb_code_index(const struct eb_binary *b, uint64_t addr)
{
	size_t lo;

	if (b->code_bits) {
		uint64_t off = addr - b->code_lo, word, bit;

		if (addr < b->code_lo || off / 64 >= b->code_words)
			return -1;
		word = b->code_bits[off / 64];
		bit = (uint64_t)1 << (off % 64);
		if (!(word & bit))
			return -1;
		return (long)(b->code_rank[off / 64] +
			      popcount64(word & (bit - 1)));
	}

	lo = br_count_lt(b->code, b->nr_code, sizeof(*b->code),
			 offsetof(struct eb_insn, addr), addr);
	if (lo < b->nr_code && b->code[lo].addr == addr)
		return (long)lo;
	return -1;
}

bool eb_range_valid(const struct eb_binary *b, uint64_t start, uint64_t end)
{
	long i = eb_code_index(b, start), j = eb_code_index(b, end);

	if (i < 0 || j < 0 || start > end)
		return false;
	return b->xfer_prefix[j] == b->xfer_prefix[i];
}

const struct eb_sym *eb_sym_at(const struct eb_binary *b, uint64_t addr)
{
	size_t lo = br_count_le(b->syms, b->nr_syms, sizeof(*b->syms),
				offsetof(struct eb_sym, start), addr);

	if (lo && addr < b->syms[lo - 1].end)
		return &b->syms[lo - 1];
	return NULL;
}

const struct eb_sym *eb_sym_by_name(const struct eb_binary *b,
				    const char *name)
{
	size_t i;

	for (i = 0; i < b->nr_syms; i++)
		if (!strcmp(b->syms[i].name, name))
			return &b->syms[i];
	return NULL;
}

bool eb_off_to_vaddr(const struct eb_binary *b, uint64_t off, uint64_t *vaddr)
{
	size_t i;

	for (i = 0; i < b->nr_loads; i++) {
		const struct eb_load *l = &b->loads[i];

		if (off >= l->offset && off - l->offset < l->filesz) {
			*vaddr = l->vaddr + (off - l->offset);
			return true;
		}
	}
	return false;
}

bool eb_vaddr_to_off(const struct eb_binary *b, uint64_t vaddr, uint64_t *off)
{
	size_t i;

	for (i = 0; i < b->nr_loads; i++) {
		const struct eb_load *l = &b->loads[i];

		if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz) {
			*off = l->offset + (vaddr - l->vaddr);
			return true;
		}
	}
	return false;
}

int eb_decode(const struct eb_binary *b, uint64_t addr, struct eb_insn *insn,
	      char *mnem, size_t mnemsz, char *ops, size_t opssz)
{
	const struct eb_section *s = eb_xsec_at(b, addr);
	csh h = (csh)b->cs_handle;
	const uint8_t *code;
	size_t size;
	uint64_t a = addr;
	cs_insn *in;
	int ret = -1;

	if (!s)
		return -1;
	code = b->image + s->offset + (addr - s->addr);
	size = (size_t)(s->addr + s->size - addr);
	if (size > 16)
		size = 16;
	in = cs_malloc(h);
	if (!in)
		return -1;
	if (cs_disasm_iter(h, &code, &size, &a, in)) {
		enum eb_kind k = classify(in);

		insn->addr = addr;
		insn->size = (uint8_t)in->size;
		insn->kind = (uint8_t)k;
		if (mnem)
			snprintf(mnem, mnemsz, "%s", in->mnemonic);
		if (ops) {
			const cs_x86 *x = &in->detail->x86;

			if (k != EB_OTHER && k != EB_RET && x->op_count == 1 &&
			    x->operands[0].type == X86_OP_IMM) {
				uint64_t t = (uint64_t)x->operands[0].imm;
				const struct eb_sym *sym = eb_sym_at(b, t);

				if (sym && t == sym->start)
					snprintf(ops, opssz, "%" PRIx64 " <%s>",
						 t, sym->name);
				else if (sym)
					snprintf(ops, opssz,
						 "%" PRIx64 " <%s+0x%" PRIx64 ">",
						 t, sym->name, t - sym->start);
				else
					snprintf(ops, opssz, "%" PRIx64, t);
			} else {
				snprintf(ops, opssz, "%s", in->op_str);
			}
		}
		ret = 0;
	} else {
		unsigned n = altdis_decode(b->alt, code, size, addr, mnem,
					   mnemsz, ops, opssz);

		if (n) {
			insn->addr = addr;
			insn->size = (uint8_t)n;
			insn->kind = EB_OTHER;
			ret = 0;
		}
	}
	cs_free(in, 1);
	return ret;
}

int eb_cs_open(size_t *handle)
{
	csh h;

	if (cs_open(CS_ARCH_X86, CS_MODE_64, &h) != CS_ERR_OK)
		return BR_ESYS;
	cs_option(h, CS_OPT_DETAIL, CS_OPT_ON);
	*handle = (size_t)h;
	return 0;
}

void eb_cs_close(size_t handle)
{
	csh h = (csh)handle;

	cs_close(&h);
}

int eb_decode_bytes(size_t handle, const uint8_t *code, size_t len,
		    uint64_t addr, struct eb_insn *insn)
{
	csh h = (csh)handle;
	cs_insn *in = cs_malloc(h);
	int ret = -1;

	if (!in)
		return -1;
	if (cs_disasm_iter(h, &code, &len, &addr, in)) {
		insn->addr = in->address;
		insn->size = (uint8_t)in->size;
		insn->kind = (uint8_t)classify(in);
		ret = 0;
	}
	cs_free(in, 1);
	return ret;
}

int eb_each_symtab_sym(Elf *elf,
		       int (*fn)(void *arg, Elf *elf, const GElf_Shdr *symtab,
				 const GElf_Sym *sym),
		       void *arg)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB ||
		    !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		n = data ? sh.sh_size / sh.sh_entsize : 0;
		for (i = 0; i < n; i++) {
			GElf_Sym s;
			int r;

			if (!gelf_getsym(data, (int)i, &s))
				continue;
			r = fn(arg, elf, &sh, &s);
			if (r)
				return r;
		}
	}
	return 0;
}
