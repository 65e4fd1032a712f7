/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `blockrange report`: one self-contained HTML page (no network access, no
 * other file) from an annotate model (annotate.h):
 *
 *   - an overview: the DSOs and the shown symbols with their samples,
 *     blocks, taken branches and mispredict rates, in sortable tables;
 *   - per hot symbol (hottest first, as annotate orders them) its
 *     control-flow graph (cfg.h), laid out by Graphviz's dot into inline
 *     SVG, beside its annotated disassembly (annotate's numbers and
 *     comments); clicking a node scrolls the disassembly to the block;
 *   - every number of the page in a JSON document embedded in it
 *     (<script type="application/json" id="blockrange-data">), for tools
 *     and tests.
 *
 * Caps keep large profiles usable, and the page states them: at most
 * @max_symbols symbols (the hottest), at most @max_blocks blocks drawn per
 * graph (cfg.h); the disassembly always lists every instruction of a shown
 * symbol.
 *
 * Graphviz: libcgraph builds the graphs, libgvc lays them out with the dot
 * plugin and renders SVG with the core plugin.  Both plugins are linked in
 * and registered explicitly (no plugin configuration file is read, no
 * other plugin is loaded): text sizes then come from Graphviz's built-in
 * font metrics, so the layout does not depend on the fonts installed.
 */
#ifndef BLOCKRANGE_CLI_REPORT_H
#define BLOCKRANGE_CLI_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "output/annotate.h"

#define REPORT_MAX_SYMBOLS 25
#define REPORT_MAX_BLOCKS 150

struct report_opts {
	const char *input;		/* shown in the title */
	size_t max_symbols;
	size_t max_blocks;
};

/*
 * Write the page of @syms (annot_symbols(), which finished @a; the first
 * @o->max_symbols of them are shown) to @out; neither is changed.  0, or
 * BR_ESYS with a message in @err (out of memory, Graphviz failed, an
 * output error).
 */
int report_write(const struct annot *a, const struct annot_syms *syms,
		 const struct report_opts *o, FILE *out, char *err,
		 size_t errsz);

#endif /* BLOCKRANGE_CLI_REPORT_H */
