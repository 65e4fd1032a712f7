/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The profiled x86-64 ELF executable: segments, symbols and instructions,
 * read with libelf and decoded with capstone.
 *
 * Two instruction views:
 *  - the *code set* (eb_code_at()): what llvm-profgen counts as code, i.e.
 *    instructions decoded from every symbol of an executable section up to
 *    the next symbol or the section end (bytes no symbol covers, such as
 *    .plt, are not code);
 *  - eb_decode(): any address of an executable section (used by `record`
 *    and for printing).
 * Addresses are ELF virtual addresses.
 */
#ifndef BLOCKRANGE_CLI_ELFBIN_H
#define BLOCKRANGE_CLI_ELFBIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

#include "base/buildid.h"

/* Control-flow class of an instruction. */
enum eb_kind {
	EB_OTHER = 0,
	EB_COND,	/* conditional jump, loop, jrcxz */
	EB_JMP,		/* direct unconditional jump */
	EB_JMP_IND,	/* indirect jump */
	EB_CALL,	/* direct or indirect call */
	EB_RET,		/* ret, iret */
};

/* True for the kinds that always transfer control. */
static inline bool eb_kind_uncond(enum eb_kind k)
{
	return k == EB_JMP || k == EB_JMP_IND || k == EB_CALL || k == EB_RET;
}

static inline bool eb_kind_branch(enum eb_kind k)
{
	return k != EB_OTHER;
}

struct eb_insn {
	uint64_t addr;
	uint8_t size;
	uint8_t kind;	/* enum eb_kind */
};

struct eb_sym {
	uint64_t start;
	uint64_t end;	/* exclusive: st_size, else the next symbol */
	char *name;
};

struct eb_load {
	uint64_t vaddr;
	uint64_t memsz;
	uint64_t offset;
	uint64_t filesz;
	bool exec;
};

struct eb_section {
	uint64_t addr;
	uint64_t size;
	uint64_t offset;
	char *name;
};

/* Where eb_binary's symbols came from. */
enum eb_symsrc {
	EB_SYMS_NONE = 0,	/* no symbol of an executable section */
	EB_SYMS_SYMTAB,		/* .symtab */
	EB_SYMS_DYNSYM,		/* .dynsym only */
};

struct altdis;

struct eb_binary {
	char *path;
	const char *base_name;	/* basename of path */
	uint8_t build_id[BR_BUILD_ID_MAX];	/* NT_GNU_BUILD_ID */
	uint8_t build_id_size;	/* 0: none */
	enum eb_symsrc symsrc;
	const char *sym_path;	/* file the symbols came from (path or the
				 * debug file) */
	bool pie;		/* ET_DYN */
	uint64_t entry;
	uint64_t text_base;	/* first executable PT_LOAD vaddr & ~0xfff */
	struct eb_load *loads;
	size_t nr_loads;
	struct eb_section *xsecs;	/* executable PROGBITS sections */
	size_t nr_xsecs;
	struct eb_sym *syms;	/* in executable sections, by address */
	size_t nr_syms;
	struct eb_insn *code;	/* llvm-profgen's code set, by address */
	size_t nr_code;
	uint32_t *xfer_prefix;	/* xfer_prefix[i]: calls/rets/direct jmps
				 * among code[0..i-1] */
	/*
	 * O(1) eb_code_index(): bit (a - code_lo) of code_bits is set when a
	 * code-set instruction starts at a; code_rank[w] counts the bits set
	 * in the words before w.  NULL (binary search) when the code set is
	 * empty or too sparse for a bitmap to pay.
	 */
	uint64_t *code_bits;
	uint32_t *code_rank;
	uint64_t code_lo;
	size_t code_words;
	unsigned char *image;	/* the whole file */
	size_t image_size;
	size_t cs_handle;	/* capstone csh */
	struct altdis *alt;	/* LLVM, for what capstone cannot decode */
	char *sym_path_buf;
};

/**
 * struct eb_open_opts - how eb_open_ex() reads a binary
 * @sym_path:  read the symbols from this ELF file (a separate debug file
 *             with the same section addresses) instead of @path; NULL:
 *             from @path.  Its .symtab is used, else @path's own .symtab,
 *             else @path's .dynsym.
 * @code_set:  decode llvm-profgen's code set (eb_code_index(),
 *             eb_range_valid()); without it those report nothing as
 *             code, and opening a large binary is much cheaper
 * @need_syms: refuse (BR_EINPUT) a binary without function symbols in
 *             its executable sections
 * @threads:   decode the code set of a large binary on up to this many
 *             threads (0 or 1: the calling thread alone); the code set is
 *             the same for any number
 */
struct eb_open_opts {
	const char *sym_path;
	bool code_set;
	bool need_syms;
	unsigned threads;
};

/*
 * Open and decode; 0, or with a message in @err BR_ESYS if the file could
 * not be read (missing, unreadable, not a regular file, out of memory) and
 * BR_EINPUT if its content is not a usable binary (not ELF, cut off,
 * 32-bit, another machine, not an executable, no code; base/status.h).
 * eb_open() is eb_open_ex() with symbols from @path and the code set.
 */
int eb_open(const char *path, struct eb_binary *b, char *err, size_t errsz);
int eb_open_ex(const char *path, const struct eb_open_opts *o,
	       struct eb_binary *b, char *err, size_t errsz);

/*
 * The NT_GNU_BUILD_ID of the ELF file at @path (its PT_NOTE segments, else
 * its note sections): its size (1..BR_BUILD_ID_MAX), 0 if it has none, -1
 * if the file cannot be read as ELF.
 */
int eb_file_build_id(const char *path, uint8_t id[BR_BUILD_ID_MAX]);
void eb_close(struct eb_binary *b);

/* Index of the code-set instruction starting exactly at @addr, or -1. */
long eb_code_index(const struct eb_binary *b, uint64_t addr);

static inline bool eb_is_code(const struct eb_binary *b, uint64_t addr)
{
	return eb_code_index(b, addr) >= 0;
}

/*
 * llvm-profgen's fall-through check for a range of code addresses
 * [start, end]: start <= end and no call, ret or direct jmp in [start, end).
 */
bool eb_range_valid(const struct eb_binary *b, uint64_t start, uint64_t end);

/* The symbol containing @addr (by [start, end)), or NULL. */
const struct eb_sym *eb_sym_at(const struct eb_binary *b, uint64_t addr);
const struct eb_sym *eb_sym_by_name(const struct eb_binary *b,
				    const char *name);

/* Executable section containing @addr, or NULL. */
const struct eb_section *eb_xsec_at(const struct eb_binary *b, uint64_t addr);

/* File offset <-> virtual address through the PT_LOADs. */
bool eb_off_to_vaddr(const struct eb_binary *b, uint64_t off, uint64_t *vaddr);
bool eb_vaddr_to_off(const struct eb_binary *b, uint64_t vaddr, uint64_t *off);

/*
 * Decode the instruction at @addr (in an executable section).  Fills @insn;
 * if @text is not NULL, writes "mnemonic operands" in AT&T syntax with
 * direct branch targets as "ADDR <sym+0xOFF>".  Returns 0 or -1 (not in an
 * executable section, or undecodable bytes).
 */
int eb_decode(const struct eb_binary *b, uint64_t addr, struct eb_insn *insn,
	      char *mnem, size_t mnemsz, char *ops, size_t opssz);

/*
 * Instructions of any code, not only of an opened binary (record decodes
 * the bytes it reads from the traced process): eb_cs_open() opens a
 * capstone handle (x86-64, details on), 0 or BR_ESYS; eb_decode_bytes()
 * decodes the instruction at the start of @code (@len bytes, at address
 * @addr) into @insn, 0 or -1 when the bytes are undecodable (an answer,
 * not an error: base/status.h).
 */
int eb_cs_open(size_t *handle);
void eb_cs_close(size_t handle);
int eb_decode_bytes(size_t handle, const uint8_t *code, size_t len,
		    uint64_t addr, struct eb_insn *insn);

/*
 * Call @fn for every symbol of the SHT_SYMTAB sections of @elf (an ELF file
 * has one at most), in table order, with the table's header (@symtab: its
 * sh_link is the section of the names), until @fn returns non-zero; that
 * value, or 0 when every symbol was seen.  Symbols libelf cannot read are
 * passed over.
 */
int eb_each_symtab_sym(Elf *elf,
		       int (*fn)(void *arg, Elf *elf, const GElf_Shdr *symtab,
				 const GElf_Sym *sym),
		       void *arg);

#endif /* BLOCKRANGE_CLI_ELFBIN_H */
