/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange annotate`'s printer: the seed's annotated disassembly (text)
 * or the same numbers as JSON, for the hot symbols of every DSO, hottest
 * first (collect/symbols.h), from the collected blocks (collect/annot.h).
 * The colour scale, the comments and the instruction text are shared with
 * the report (output/report.h, output/cfg.h).
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_ANNOTATE_H
#define BLOCKRANGE_CLI_OUTPUT_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <blockrange/blockrange.h>

#include "collect/annot.h"
#include "collect/symbols.h"

struct annot_opts {
	bool color;
	bool json;
	bool source;			/* interleave file:line */
};

/*
 * The annotate colour scale of a coverage figure (the seed's): HOT above
 * 75 % of the symbol's highest coverage (red), COLD below 1 % (no colour),
 * WARM otherwise and when the coverage is unknown (magenta).
 */
enum annot_heat {
	ANNOT_COLD = 0,
	ANNOT_WARM,
	ANNOT_HOT,
};

enum annot_heat annot_heat_of(struct blockrange_fig cov);

/*
 * The comment annotate prints after an instruction, without the "\t# ":
 * "+NN.NN%" on a branch target, "-NN.NN% (p:NN.NN%)" on a branch (each
 * only above 0.1 %), both separated by a space, or "".  Returns its length.
 */
#define ANNOT_COMMENT_MAX 64
size_t annot_comment(const struct blockrange_addr_rec *info, char *buf,
		     size_t bufsz);

/*
 * One instruction's text, with room for capstone's operands or a direct
 * branch target named by the longest symbol of any DSO: nothing is cut.
 * @insn: the last decoded instruction (kind EB_OTHER and size 1 for
 * undecodable bytes, shown as "(bad)").
 */
struct annot_insn_text {
	char mnem[32];
	char *ops;
	size_t opssz;
	char *line;
	size_t linesz;
	struct eb_insn insn;
};

/* 0, or BR_ESYS out of memory.  Free with annot_insn_text_free(). */
int annot_insn_text_init(struct annot_insn_text *t, const struct annot *a);
void annot_insn_text_free(struct annot_insn_text *t);

/*
 * Decode @addr of @d into t->line, "MNEMONIC OPERANDS" with the mnemonic
 * padded to @pad, and t->insn; returns the instruction size (1 for
 * undecodable bytes).
 */
unsigned annot_insn_line(const struct dso *d, uint64_t addr,
			 struct annot_insn_text *t, int pad);

/*
 * Where @d's symbols came from: "symtab", "debug symtab", "dynsym",
 * "kallsyms" or "none".
 */
const char *annot_symsrc_name(const struct dso *d);

/*
 * Print @syms (annot_symbols(), which finished @a) of @a, in their order;
 * neither is changed.  0, or BR_ESYS with a message in @err (out of
 * memory).
 */
int annot_print(const struct annot *a, const struct annot_syms *syms,
		const struct annot_opts *o, FILE *out, char *err,
		size_t errsz);

#endif /* BLOCKRANGE_CLI_OUTPUT_ANNOTATE_H */
