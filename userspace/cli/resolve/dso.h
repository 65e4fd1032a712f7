/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The DSO registry: every object file a profile mentions (executables,
 * shared libraries, the kernel), found on the host and opened once.
 *
 * A DSO is identified by its build-id when the profile recorded one
 * (MMAP2 build-id form, the HEADER_BUILD_ID table), else by the recorded
 * path.  dso_load() looks its files up, in perf's order:
 *
 *   code (the ELF whose bytes are disassembled):
 *     1. --symfs DIR + the recorded path
 *     2. perf's build-id cache: BUILDID_DIR/.build-id/xx/yyyy.../elf
 *     3. the recorded path
 *     4. debuginfod (DEBUGINFOD_URLS set), by build-id
 *   symbols and DWARF (a separate debug file, if any):
 *     1. perf's build-id cache: BUILDID_DIR/.build-id/xx/yyyy.../debug
 *     2. DEBUG_DIR/.build-id/xx/yyyy....debug (DEBUG_DIR: /usr/lib/debug,
 *        under --symfs if given)
 *     3. the code file's .gnu_debuglink (next to it, in .debug/ beside it,
 *        under DEBUG_DIR + its directory), CRC-checked
 *     4. debuginfod, by build-id
 *   The debug-file search (2-4) is elfutils' dwfl_standard_find_debuginfo.
 *   Symbols then come from the debug file's .symtab, else the code file's
 *   .symtab, else its .dynsym, else there are none (annotate then makes
 *   DSO+0xOFFSET pseudo-symbols over the hot ranges).
 *
 * A candidate code file whose build-id differs from the recorded one is
 * never used; if no candidate matches and one mismatched, the DSO's state
 * is DSO_MISMATCH (a warning, and its samples are skipped).
 *
 * The kernel ("[kernel.kallsyms]" and its "_text" mmap) is a DSO too: its
 * code comes only from --vmlinux FILE, its symbols from that file or from
 * --kallsyms FILE (symbols only, no disassembly).
 *
 * No global state: a registry owns its DSOs, their files and the elfutils
 * resolver; dso_registry_free() releases everything.
 */
#ifndef BLOCKRANGE_CLI_DSO_H
#define BLOCKRANGE_CLI_DSO_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buildid.h"

#include "resolve/elfbin.h"

struct dso_opts {
	const char *symfs;	/* --symfs DIR, NULL: none */
	const char *buildid_dir;	/* perf's cache; NULL: $PERF_BUILDID_DIR
					 * or $HOME/.debug */
	const char *debug_dir;	/* NULL: /usr/lib/debug */
	const char *vmlinux;	/* --vmlinux FILE */
	const char *kallsyms;	/* --kallsyms FILE */
	bool code_set;		/* decode llvm-profgen's code set (ranges) */
	unsigned threads;	/* ... on up to this many threads */
	bool source;		/* DWARF line info (--source) */
	bool debuginfod;	/* ask debuginfod when DEBUGINFOD_URLS is set */
};

enum dso_state {
	DSO_UNLOADED = 0,
	DSO_READY,		/* code and symbols (or pseudo-symbols) */
	DSO_SYMS_ONLY,		/* kernel with --kallsyms: no code */
	DSO_NOT_FOUND,		/* no file for it (why says where we looked) */
	DSO_MISMATCH,		/* only files with another build-id */
	DSO_UNUSABLE,		/* a file, but not a usable binary */
	DSO_NO_KERNEL,		/* the kernel, without --vmlinux/--kallsyms */
	DSO_NO_MEMORY,		/* loading it ran out of memory: whoever
				 * resolves through it stops (BR_ESYS) */
};

struct kallsym {
	uint64_t start;
	uint64_t end;
	char *name;
};

struct dso {
	unsigned idx;		/* in the registry, creation order */
	char *path;		/* as recorded */
	const char *short_name;	/* basename of @path ("[kernel.kallsyms]") */
	uint8_t build_id[BR_BUILD_ID_MAX];
	uint8_t build_id_size;	/* 0: none recorded */
	bool kernel;
	enum dso_state state;	/* read it after dso_load() */
	atomic_bool loaded;	/* dso_load() ran (set once, under the lock) */
	char *why;		/* one-line reason for the states > SYMS_ONLY */
	char *file;		/* code file used (READY) */
	char *debug_file;	/* separate debug file used, NULL: none */
	struct eb_binary bin;	/* READY: code + symbols */
	struct kallsym *ksyms;	/* SYMS_ONLY: sorted */
	size_t nr_ksyms;
	/*
	 * Kernel: vmlinux address = runtime address - @reloc (the runtime
	 * _text recorded in the kernel mmap minus vmlinux's _text); 0 for
	 * user DSOs.
	 */
	uint64_t reloc;
	uint64_t kernel_text;	/* runtime _text from the mmap, 0: unknown */
	void *dwfl_mod;		/* elfutils module (for --source) */
};

struct dso_registry;

struct dso_registry *dso_registry_new(const struct dso_opts *o);
void dso_registry_free(struct dso_registry *r);

/*
 * The DSO for a recorded path and build-id (@id_size 0: unknown, then a
 * build-id known for @path from the build-id table is used), created if
 * new.  NULL if out of memory.
 */
struct dso *dso_get(struct dso_registry *r, const char *path,
		    const uint8_t *id, size_t id_size, bool kernel);

/*
 * Record a build-id table entry (path -> id) for DSOs made later: 0 or
 * BR_ESYS (base/status.h) out of memory.
 */
int dso_note_build_id(struct dso_registry *r, const char *path,
		      const uint8_t *id, size_t id_size, bool kernel);

/*
 * The build-id the recording gave a user DSO whose recorded path has the
 * basename @base (the last one, if several), into @id: its size, 0 if none.
 */
size_t dso_noted_build_id(struct dso_registry *r, const char *base,
			  uint8_t id[BR_BUILD_ID_MAX]);

/* The runtime address of the kernel's _text (the kernel mmap's offset). */
void dso_set_kernel_text(struct dso_registry *r, struct dso *d,
			 uint64_t text);

/* perf's build-id cache directory in use. */
const char *dso_buildid_dir(const struct dso_registry *r);

/* Number of DSOs and the i-th (creation order). */
size_t dso_count(const struct dso_registry *r);
struct dso *dso_at(const struct dso_registry *r, size_t i);

/*
 * Look the DSO's files up and open them, once; returns its state.  Out of
 * memory is DSO_NO_MEMORY with why "out of memory".  Threads: dso_load() and
 * the read-only lookups (dso_addr(), dso_ksym_at(), the eb_* queries of a
 * loaded DSO) may run on several threads at once, and so may dso_get(),
 * dso_note_build_id() and dso_set_kernel_text() (under the registry's
 * lock); the order in which DSOs are made is their index, so one thread
 * should make them for reproducible output (par.h).
 */
enum dso_state dso_load(struct dso_registry *r, struct dso *d);

/*
 * File offset -> ELF address through the code file's PT_LOADs (user
 * DSOs), or runtime -> vmlinux address (kernel).  false if the offset is in
 * no PT_LOAD.
 */
bool dso_addr(const struct dso *d, uint64_t off_or_addr, uint64_t *vaddr);

/* The kallsyms symbol containing @addr (SYMS_ONLY), or NULL. */
const struct kallsym *dso_ksym_at(const struct dso *d, uint64_t addr);

/*
 * The symbol of @d containing @vaddr: a struct eb_sym of its binary
 * (READY) or a struct kallsym (SYMS_ONLY), its index among them in *@idx;
 * NULL if none contains it.  The owner of a block (the symbol of its
 * start) and BOLT's function of an address.
 */
const void *dso_sym_at(const struct dso *d, uint64_t vaddr, size_t *idx);

/*
 * Source position of the instruction at @vaddr (with dso_opts.source):
 * true and *file / *line, or false if DWARF has none.  *file stays valid
 * until the registry is freed.
 */
bool dso_source_line(struct dso_registry *r, struct dso *d, uint64_t vaddr,
		     const char **file, int *line);

#endif /* BLOCKRANGE_CLI_DSO_H */
