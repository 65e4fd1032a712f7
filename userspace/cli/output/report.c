// SPDX-License-Identifier: GPL-2.0
/* The HTML report: overview, control-flow graphs, disassembly.  See report.h. */
#define _GNU_SOURCE

#include "output/report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/gvc.h>
#include <graphviz/gvplugin.h>

#include "base/status.h"
#include "base/version.h"
#include "output/cfg.h"
#include "output/json.h"

/* The two Graphviz plugins the report needs, linked in (see report.h). */
extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
extern gvplugin_library_t gvplugin_core_LTX_library;

static const lt_symlist_t gv_plugins[] = {
	{ "gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library },
	{ "gvplugin_core_LTX_library", &gvplugin_core_LTX_library },
	{ NULL, NULL },
};

/* One shown symbol and what the page says about it. */
struct rsym {
	const struct annot_sym *p;
	struct cfg g;
	bool has_cfg;
	size_t nr_ranges;
	uint64_t taken;		/* records of branches leaving from it */
	uint64_t missed;
	size_t executed;	/* blocks with coverage */
};

struct rep {
	const struct annot *a;
	const struct report_opts *o;
	FILE *out;
	GVC_t *gvc;
	struct annot_insn_text tx;
	const struct annot_syms *ps;
	struct rsym *rs;
	size_t nr_rs;
	bool pred;
};

/* ---- escaping ---- */

static void html(FILE *out, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs("&quot;", out);
			break;
		case '\'':
			fputs("&#39;", out);
			break;
		default:
			fputc(*s, out);
		}
	}
}

/* "%.2f" of a percentage figure, or @none. */
static const char *pct(char *buf, size_t sz, struct blockrange_fig f,
		       double scale, const char *none)
{
	if (f.status != BLOCKRANGE_FIG_OK)
		return none;
	snprintf(buf, sz, "%.2f", f.value * scale);
	return buf;
}

/* 100 * a / b as "%.2f", or @none when b is 0. */
static const char *ratio(char *buf, size_t sz, uint64_t a, uint64_t b,
			 const char *none)
{
	if (!b)
		return none;
	snprintf(buf, sz, "%.2f", 100.0 * (double)a / (double)b);
	return buf;
}

static const char *heat_name(enum annot_heat h)
{
	return h == ANNOT_HOT ? "hot" : h == ANNOT_WARM ? "warm" : "cold";
}

/* ---- the graph ---- */

static const char *const fill_of[] = {
	[ANNOT_COLD] = "#f3f4f6",
	[ANNOT_WARM] = "#f5c6f7",
	[ANNOT_HOT] = "#fca5a5",
};

static const char *const border_of[] = {
	[ANNOT_COLD] = "#6b7280",
	[ANNOT_WARM] = "#a21caf",
	[ANNOT_HOT] = "#b91c1c",
};

static const char *const edge_color[] = {
	[CFG_TAKEN] = "#1d4ed8",
	[CFG_CALL] = "#0f766e",
	[CFG_RETURN] = "#0f766e",
	[CFG_FALL] = "#374151",
	[CFG_AFTER_CALL] = "#9ca3af",
};

/* A Graphviz label: backslashes would start escapes (\N, \G...). */
static void gv_text(char *buf, size_t sz, const char *s)
{
	size_t n = 0;

	for (; *s && n + 3 < sz; s++) {
		if (*s == '\\')
			buf[n++] = '\\';
		buf[n++] = *s;
	}
	buf[n] = '\0';
}

static void set(void *obj, const char *attr, const char *val)
{
	agsafeset(obj, (char *)attr, (char *)val, "");
}

static void block_label(const struct rep *r, const struct cfg_block *b,
			char *buf, size_t sz)
{
	char p[32];
	int n;

	(void)r;
	n = snprintf(buf, sz, "%" PRIx64 "-%" PRIx64 "\\ncov %" PRIu64 " (%s%%)",
		     b->start, b->last, b->coverage,
		     pct(p, sizeof(p), b->coverage_fig, 100, "?"));
	if (b->samples && n > 0 && (size_t)n < sz)
		snprintf(buf + n, sz - n, "\\n%" PRIu64 " sample%s", b->samples,
			 b->samples == 1 ? "" : "s");
}

static void edge_label(const struct rep *r, const struct cfg_edge *e,
		       char *buf, size_t sz)
{
	char p[32];

	buf[0] = '\0';
	if (e->kind == CFG_AFTER_CALL)
		return;
	if (r->pred && e->kind != CFG_FALL && e->count)
		snprintf(buf, sz, "%" PRIu64 "\\n%s%% miss", e->count,
			 ratio(p, sizeof(p), e->mispredicted, e->count, "?"));
	else
		snprintf(buf, sz, "%" PRIu64, e->count);
}

static Agnode_t *node_of(Agnode_t **blocks, Agnode_t **exts,
			 struct cfg_node_ref ref)
{
	return ref.ext ? exts[ref.idx] : blocks[ref.idx];
}

static void graph_attrs(Agraph_t *gr)
{
	set(gr, "rankdir", "TB");
	set(gr, "nodesep", "0.25");
	set(gr, "ranksep", "0.35");
	set(gr, "bgcolor", "transparent");
	set(gr, "fontname", "Helvetica");
	agattr(gr, AGNODE, "shape", "box");
	agattr(gr, AGNODE, "fontname", "Courier");
	agattr(gr, AGNODE, "fontsize", "10");
	agattr(gr, AGNODE, "style", "filled");
	agattr(gr, AGNODE, "margin", "0.08,0.04");
	agattr(gr, AGEDGE, "fontname", "Helvetica");
	agattr(gr, AGEDGE, "fontsize", "9");
	agattr(gr, AGEDGE, "arrowsize", "0.6");
}

/* The drawn blocks as nodes (@bn: by block index); BR_ESYS out of memory. */
static int add_blocks(const struct rep *r, size_t si, const struct rsym *rs,
		      Agraph_t *gr, Agnode_t **bn)
{
	const struct cfg *g = &rs->g;
	char name[64], id[64], label[1024], buf[64];
	size_t i;

	for (i = 0; i < g->nr_blocks; i++) {
		const struct cfg_block *b = &g->blocks[i];
		Agnode_t *n;

		if (!b->drawn)
			continue;
		snprintf(name, sizeof(name), "b%zu", i);
		n = bn[i] = agnode(gr, name, 1);
		if (!n)
			return BR_ESYS;
		snprintf(id, sizeof(id), "s%zu_n%" PRIx64, si, b->start);
		set(n, "id", id);
		snprintf(buf, sizeof(buf), "block %s%s%s", heat_name(b->heat),
			 b->coverage ? "" : " never",
			 b->start == rs->p->start ? " entry" : "");
		set(n, "class", buf);
		block_label(r, b, label, sizeof(label));
		set(n, "label", label);
		set(n, "fillcolor", b->coverage ? fill_of[b->heat] : "#ffffff");
		set(n, "color", border_of[b->heat]);
		if (!b->coverage)
			set(n, "style", "filled,dashed");
		if (b->start == rs->p->start)
			set(n, "penwidth", "2.5");
	}
	return 0;
}

/* The drawn external nodes (@xn: by index); BR_ESYS out of memory. */
static int add_exts(size_t si, const struct cfg *g, Agraph_t *gr,
		    Agnode_t **xn)
{
	char name[64], id[64], label[1024];
	size_t i;

	for (i = 0; i < g->nr_exts; i++) {
		Agnode_t *n;

		if (!g->exts[i].drawn)
			continue;
		snprintf(name, sizeof(name), "x%zu", i);
		n = xn[i] = agnode(gr, name, 1);
		if (!n)
			return BR_ESYS;
		snprintf(id, sizeof(id), "s%zu_x%zu", si, i);
		set(n, "id", id);
		set(n, "class", "ext");
		gv_text(label, sizeof(label), g->exts[i].name);
		set(n, "label", label);
		set(n, "shape", "ellipse");
		set(n, "fontname", "Helvetica");
		set(n, "fontsize", "9");
		set(n, "style", "filled,dashed");
		set(n, "fillcolor", "#e0f2fe");
		set(n, "color", "#0369a1");
	}
	return 0;
}

/* An edge's look: dotted after a call, dashed and grey when never taken. */
static void edge_style(const struct rep *r, const struct cfg *g,
		       const struct cfg_edge *e, Agedge_t *ed)
{
	char buf[64];

	if (e->kind == CFG_AFTER_CALL) {
		set(ed, "style", "dotted");
		set(ed, "color", edge_color[e->kind]);
	} else if (!e->count) {
		set(ed, "style", "dashed");
		set(ed, "color", "#c0c0c0");
		set(ed, "fontcolor", "#9ca3af");
		set(ed, "penwidth", "0.8");
	} else {
		snprintf(buf, sizeof(buf), "%.2f", 1.0 + 5.0 *
			 (double)e->count / (double)g->max_count);
		set(ed, "penwidth", buf);
		set(ed, "color", edge_color[e->kind]);
		if (e->kind == CFG_CALL || e->kind == CFG_RETURN)
			set(ed, "style", "dashed");
		if (r->pred && e->kind != CFG_FALL &&
		    10 * e->mispredicted >= e->count)
			set(ed, "fontcolor", "#b91c1c");
	}
}

/* The drawn edges; BR_ESYS out of memory. */
static int add_edges(const struct rep *r, size_t si, const struct cfg *g,
		     Agraph_t *gr, Agnode_t **bn, Agnode_t **xn)
{
	char name[64], id[64], label[1024], buf[64];
	size_t i;

	for (i = 0; i < g->nr_edges; i++) {
		const struct cfg_edge *e = &g->edges[i];
		Agedge_t *ed;

		if (!e->drawn)
			continue;
		snprintf(name, sizeof(name), "e%zu", i);
		ed = agedge(gr, node_of(bn, xn, e->from), node_of(bn, xn, e->to),
			    name, 1);
		if (!ed)
			return BR_ESYS;
		snprintf(id, sizeof(id), "s%zu_e%zu", si, i);
		set(ed, "id", id);
		snprintf(buf, sizeof(buf), "%s%s", cfg_edge_kind_names[e->kind],
			 e->count || e->kind == CFG_AFTER_CALL ? "" : " zero");
		set(ed, "class", buf);
		edge_label(r, e, label, sizeof(label));
		if (label[0])
			set(ed, "label", label);
		edge_style(r, g, e, ed);
	}
	return 0;
}

/* Lay @gr out and write it inline as SVG; 0 or BR_ESYS with a message. */
static int render(struct rep *r, Agraph_t *gr, const struct rsym *rs,
		  char *err, size_t errsz)
{
	char *svg = NULL;
	unsigned len = 0;
	const char *start;

	if (gvLayout(r->gvc, gr, "dot")) {
		snprintf(err, errsz, "Graphviz could not lay out the graph of %s",
			 rs->p->name);
		return BR_ESYS;
	}
	if (gvRenderData(r->gvc, gr, "svg", &svg, &len) || !svg) {
		snprintf(err, errsz, "Graphviz could not render the graph of %s",
			 rs->p->name);
		gvFreeLayout(r->gvc, gr);
		return BR_ESYS;
	}
	/* Inline: without the XML declaration, doctype and comments before. */
	start = strstr(svg, "<svg");
	if (start)
		fwrite(start, 1, len - (size_t)(start - svg), r->out);
	gvFreeRenderData(svg);
	gvFreeLayout(r->gvc, gr);
	return 0;
}

/* Lay the graph of rs out and write its SVG; 0 or BR_ESYS with a message. */
static int write_graph(struct rep *r, size_t si, const struct rsym *rs,
		       char *err, size_t errsz)
{
	const struct cfg *g = &rs->g;
	Agnode_t **bn = calloc(g->nr_blocks + 1, sizeof(*bn));
	Agnode_t **xn = calloc(g->nr_exts + 1, sizeof(*xn));
	Agraph_t *gr = NULL;
	int ret = BR_ESYS;

	if (bn && xn)
		gr = agopen("cfg", Agdirected, NULL);
	if (gr)
		graph_attrs(gr);
	if (gr && !add_blocks(r, si, rs, gr, bn) && !add_exts(si, g, gr, xn) &&
	    !add_edges(r, si, g, gr, bn, xn))
		ret = render(r, gr, rs, err, errsz);
	else
		snprintf(err, errsz, "out of memory");
	if (gr)
		agclose(gr);
	free(bn);
	free(xn);
	return ret;
}

/* ---- page parts ---- */

static const char css[] =
	"body{font:14px/1.4 system-ui,sans-serif;margin:0 1.5em 3em;color:#111}\n"
	"h1{font-size:1.5em;margin:.8em 0 .2em}h2{font-size:1.2em;margin:0 0 .3em}\n"
	"code,.mono,td.addr,td.asm,td.cm{font-family:ui-monospace,monospace}\n"
	".meta,.symmeta{color:#444;margin:.2em 0}.cap{background:#fff7d6;border:1px solid #e6c200;padding:.3em .6em;display:inline-block;margin:.3em 0}\n"
	"table{border-collapse:collapse}\n"
	"table.sortable th{cursor:pointer;user-select:none}\n"
	"table.sortable th[data-dir=asc]::after{content:' \\25B2'}table.sortable th[data-dir=desc]::after{content:' \\25BC'}\n"
	"table.ov td,table.ov th{border:1px solid #ccc;padding:.15em .5em;text-align:right}\n"
	"table.ov td.l,table.ov th.l{text-align:left}\n"
	"section.sym{border-top:2px solid #999;margin-top:1.5em;padding-top:.8em}\n"
	".pair{display:flex;gap:1em;align-items:flex-start}\n"
	".graph{flex:0 1 auto;max-width:48%;max-height:80vh;overflow:auto;border:1px solid #ddd}\n"
	".graph svg{display:block}.graph g.node.block{cursor:pointer}\n"
	".graph g.node.sel polygon{stroke-width:4;stroke:#f59e0b}\n"
	".disasm{flex:1 1 auto;max-height:80vh;overflow:auto;position:relative;border:1px solid #ddd}\n"
	".disasm table{font-size:12px;width:100%}\n"
	".disasm thead th{position:sticky;top:0;background:#eee;text-align:left;padding:.1em .4em}\n"
	".disasm td{padding:0 .4em;white-space:pre}\n"
	".disasm td.pct,.disasm td.cov{text-align:right}\n"
	".disasm tr.bh td{background:#f3f4f6;color:#555;font-size:11px;border-top:1px solid #ccc}\n"
	".disasm tr.hot td.addr{color:#b91c1c;font-weight:bold}.disasm tr.warm td.addr{color:#a21caf}\n"
	".disasm tr.hot td.asm,.disasm tr.warm td.asm{color:#1d4ed8}\n"
	".disasm tr.sel td{background:#fde68a}\n"
	".legend span{display:inline-block;padding:0 .5em;margin-right:.5em;border:1px solid}\n";

static const char js[] =
	"(function () {\n"
	"  'use strict';\n"
	"  function key(td) {\n"
	"    var v = td.getAttribute('data-v');\n"
	"    if (v === null) return td.textContent;\n"
	"    return v === '' ? -Infinity : parseFloat(v);\n"
	"  }\n"
	"  Array.prototype.forEach.call(document.querySelectorAll('table.sortable'), function (t) {\n"
	"    var ths = t.tHead.rows[0].cells;\n"
	"    Array.prototype.forEach.call(ths, function (th, col) {\n"
	"      th.addEventListener('click', function () {\n"
	"        var asc = th.getAttribute('data-dir') !== 'asc';\n"
	"        var body = t.tBodies[0];\n"
	"        var rows = Array.prototype.slice.call(body.rows);\n"
	"        Array.prototype.forEach.call(ths, function (h) { h.removeAttribute('data-dir'); });\n"
	"        th.setAttribute('data-dir', asc ? 'asc' : 'desc');\n"
	"        rows.sort(function (a, b) {\n"
	"          var x = key(a.cells[col]), y = key(b.cells[col]), c;\n"
	"          if (typeof x === 'number' && typeof y === 'number')\n"
	"            c = x < y ? -1 : x > y ? 1 : 0;\n"
	"          else\n"
	"            c = String(x).localeCompare(String(y));\n"
	"          return asc ? c : -c;\n"
	"        });\n"
	"        rows.forEach(function (r) { body.appendChild(r); });\n"
	"      });\n"
	"    });\n"
	"  });\n"
	"  function show(node) {\n"
	"    var sec = node.closest('section.sym');\n"
	"    var row = document.getElementById(node.id.replace('_n', '_i'));\n"
	"    if (!sec || !row) return;\n"
	"    var pane = row.closest('.disasm');\n"
	"    var b = row.getAttribute('data-b');\n"
	"    Array.prototype.forEach.call(sec.querySelectorAll('.sel'), function (e) { e.classList.remove('sel'); });\n"
	"    node.classList.add('sel');\n"
	"    Array.prototype.forEach.call(pane.querySelectorAll('tr[data-b=\"' + b + '\"]'), function (e) { e.classList.add('sel'); });\n"
	"    var head = pane.querySelector('thead');\n"
	"    var bh = row.previousElementSibling;\n"
	"    var top = (bh && bh.classList.contains('bh')) ? bh : row;\n"
	"    pane.scrollTop = top.offsetTop - (head ? head.offsetHeight : 0);\n"
	"  }\n"
	"  Array.prototype.forEach.call(document.querySelectorAll('.graph g.node.block'), function (n) {\n"
	"    n.addEventListener('click', function () { show(n); });\n"
	"  });\n"
	"})();\n";

static void th(FILE *out, const char *cls, const char *text)
{
	fprintf(out, "<th%s%s%s>", cls ? " class=\"" : "", cls ? cls : "",
		cls ? "\"" : "");
	html(out, text);
	fputs("</th>", out);
}

/* A numeric cell: its text and the value the sort uses ("" sorts first). */
static void tdn(FILE *out, const char *cls, const char *text, const char *v)
{
	fprintf(out, "<td%s%s%s data-v=\"%s\">", cls ? " class=\"" : "",
		cls ? cls : "", cls ? "\"" : "", v);
	html(out, text);
	fputs("</td>", out);
}

static void tdu(FILE *out, const char *cls, uint64_t v)
{
	char b[32];

	snprintf(b, sizeof(b), "%" PRIu64, v);
	tdn(out, cls, b, b);
}

static void tdp(FILE *out, const char *p)
{
	tdn(out, NULL, p, strcmp(p, "n/a") ? p : "");
}

static bool dso_listed(const struct rep *r, size_t i)
{
	size_t k;

	for (k = 0; k < i; k++)
		if (r->ps->v[k].ad == r->ps->v[i].ad)
			return true;
	return false;
}

static void write_overview(struct rep *r)
{
	const struct resolver_stats *st = &r->a->s.st;
	FILE *out = r->out;
	char b1[32];
	size_t i, k;

	fputs("<section id=\"overview\">\n<h2>DSOs</h2>\n"
	      "<table class=\"ov sortable\" id=\"dso-table\"><thead><tr>", out);
	th(out, "l", "DSO");
	th(out, "l", "path");
	th(out, "l", "symbols from");
	th(out, NULL, "samples");
	th(out, NULL, "% samples");
	th(out, NULL, "symbols");
	th(out, NULL, "taken branches");
	th(out, NULL, "mispredicted %");
	fputs("</tr></thead><tbody>\n", out);
	for (i = 0; i < r->ps->nr; i++) {
		const struct annot_dso *ad = r->ps->v[i].ad;
		uint64_t taken, missed;
		size_t nsym = 0;

		if (dso_listed(r, i))
			continue;
		for (k = 0; k < r->ps->nr; k++)
			nsym += r->ps->v[k].ad == ad;
		annot_dso_branch_totals(ad, &taken, &missed);
		fputs("<tr>", out);
		fputs("<td class=\"l\">", out);
		html(out, ad->dso->short_name);
		fputs("</td><td class=\"l mono\">", out);
		html(out, ad->dso->path);
		fputs("</td><td class=\"l\">", out);
		html(out, annot_symsrc_name(ad->dso));
		fputs("</td>", out);
		tdu(out, NULL, ad->samples);
		tdp(out, ratio(b1, sizeof(b1), ad->samples, st->samples, "n/a"));
		tdu(out, NULL, nsym);
		tdu(out, NULL, taken);
		tdp(out, r->pred ? ratio(b1, sizeof(b1), missed, taken, "n/a") :
		    "n/a");
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n<h2>Symbols</h2>\n"
	      "<table class=\"ov sortable\" id=\"sym-table\"><thead><tr>", out);
	th(out, NULL, "#");
	th(out, "l", "symbol");
	th(out, "l", "DSO");
	th(out, NULL, "samples");
	th(out, NULL, "% samples");
	th(out, NULL, "max coverage");
	th(out, NULL, "ranges");
	th(out, NULL, "blocks");
	th(out, NULL, "executed blocks");
	th(out, NULL, "taken branches");
	th(out, NULL, "mispredicted %");
	fputs("</tr></thead><tbody>\n", out);
	for (i = 0; i < r->nr_rs; i++) {
		const struct rsym *rs = &r->rs[i];

		fprintf(out, "<tr id=\"row-s%zu\">", i);
		tdu(out, NULL, i + 1);
		fprintf(out, "<td class=\"l\"><a href=\"#s%zu\">", i);
		html(out, rs->p->name);
		fputs("</a></td><td class=\"l\">", out);
		html(out, rs->p->ad->dso->short_name);
		fputs("</td>", out);
		tdu(out, NULL, rs->p->samples);
		tdp(out, ratio(b1, sizeof(b1), rs->p->samples, st->samples,
			       "n/a"));
		tdu(out, NULL, rs->p->maxcov);
		tdu(out, NULL, rs->nr_ranges);
		if (rs->has_cfg) {
			tdu(out, NULL, rs->g.nr_blocks);
			tdu(out, NULL, rs->executed);
		} else {
			tdn(out, NULL, "n/a", "");
			tdn(out, NULL, "n/a", "");
		}
		tdu(out, NULL, rs->taken);
		tdp(out, r->pred ? ratio(b1, sizeof(b1), rs->missed, rs->taken,
					 "n/a") : "n/a");
		fputs("</tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

/* The disassembly of a symbol with code: annotate's numbers per row. */
static void write_disasm(struct rep *r, size_t si, const struct rsym *rs)
{
	const struct annot_sym *p = rs->p;
	const struct cfg *g = &rs->g;
	FILE *out = r->out;
	size_t bi, i;

	fputs("<div class=\"disasm\"><table><thead><tr><th>Percent</th>"
	      "<th>Coverage</th><th>Address</th><th>Instruction</th>"
	      "<th>Comment</th></tr></thead><tbody>\n", out);
	for (bi = 0; bi < g->nr_blocks; bi++) {
		const struct cfg_block *b = &g->blocks[bi];
		char c1[32];

		fprintf(out, "<tr class=\"bh\" data-b=\"%" PRIx64 "\"><td colspan=\"5\">block %" PRIx64 "-%" PRIx64 ": coverage %" PRIu64 " (%s%%), %" PRIu64 " sample%s%s</td></tr>\n",
			b->start, b->start, b->last, b->coverage,
			pct(c1, sizeof(c1), b->coverage_fig, 100, "?"),
			b->samples, b->samples == 1 ? "" : "s",
			b->drawn ? "" : ", not drawn");
		for (i = b->first; i < b->first + b->nr_insns; i++) {
			const struct cfg_insn *in = &g->insns[i];
			struct blockrange_addr_rec info;
			uint64_t n = pairmap_get(&p->ad->ips, in->addr, 0);
			char cm[ANNOT_COMMENT_MAX];

			annot_insn_line(p->ad->dso, in->addr, &r->tx, 6);
			annot_sym_addr_info(p, in->addr, &info);
			annot_comment(&info, cm, sizeof(cm));
			fprintf(out, "<tr id=\"s%zu_i%" PRIx64 "\" class=\"%s\" data-b=\"%" PRIx64 "\">"
				"<td class=\"pct\">%.2f</td><td class=\"cov\">%" PRIu64 "</td>"
				"<td class=\"addr\">%" PRIx64 ":</td><td class=\"asm\">",
				si, in->addr, heat_name(annot_heat_of(info.coverage)),
				b->start,
				p->samples ? 100.0 * (double)n / (double)p->samples : 0.0,
				info.found ? info.range.coverage : 0, in->addr);
			html(out, r->tx.line);
			fputs("</td><td class=\"cm\">", out);
			html(out, cm);
			fputs("</td></tr>\n", out);
		}
	}
	fputs("</tbody></table></div>\n", out);
}

/* kallsyms symbols: no code, so no graph; their ranges. */
static void write_ranges(struct rep *r, const struct rsym *rs)
{
	const struct annot_sym *p = rs->p;
	struct blockrange_cursor cur;
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	FILE *out = r->out;

	fputs("<p>No code for this symbol (kernel symbols from kallsyms only): its ranges.</p>\n"
	      "<div class=\"disasm\"><table><thead><tr><th>Range</th><th>Coverage</th>"
	      "<th>Entry</th><th>Taken</th></tr></thead><tbody>\n", out);
	if (!blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur))
		while (blockrange_rec_iter(p->ad->ctx, &cur, &rec))
			fprintf(out, "<tr><td class=\"addr\">%" PRIx64 "-%" PRIx64 "</td><td class=\"cov\">%" PRIu64 "</td><td class=\"cov\">%" PRIu64 "</td><td class=\"cov\">%" PRIu64 "</td></tr>\n",
				br->start, br->end, br->coverage, br->entry,
				br->taken);
	fputs("</tbody></table></div>\n", out);
}

static int write_symbol(struct rep *r, size_t si, char *err, size_t errsz)
{
	const struct rsym *rs = &r->rs[si];
	const struct annot_sym *p = rs->p;
	FILE *out = r->out;

	fprintf(out, "<section class=\"sym\" id=\"s%zu\">\n<h2>", si);
	html(out, p->name);
	fputs(" <small>(", out);
	html(out, p->ad->dso->short_name);
	fprintf(out, ")</small></h2>\n<p class=\"symmeta\">0x%" PRIx64 "-0x%" PRIx64 ", %" PRIu64 " sample%s, max coverage %" PRIu64,
		p->start, p->end, p->samples, p->samples == 1 ? "" : "s",
		p->maxcov);
	if (rs->has_cfg)
		fprintf(out, ", %zu blocks (%zu executed), %zu edges",
			rs->g.nr_blocks, rs->executed, rs->g.nr_edges);
	fputs("</p>\n", out);
	if (!rs->has_cfg) {
		write_ranges(r, rs);
		fputs("</section>\n", out);
		return 0;
	}
	if (rs->g.nr_hidden)
		fprintf(out, "<p class=\"cap\">%zu of %zu blocks not drawn (the graph shows the %zu hottest, at most %zu per graph; the highest coverage left out is %" PRIu64 "); the disassembly lists them all.</p>\n",
			rs->g.nr_hidden, rs->g.nr_blocks, rs->g.nr_drawn,
			r->o->max_blocks, rs->g.hidden_max_cov);
	fputs("<div class=\"pair\"><div class=\"graph\">\n", out);
	if (write_graph(r, si, rs, err, errsz))
		return BR_ESYS;
	fputs("</div>\n", out);
	write_disasm(r, si, rs);
	fputs("</div>\n</section>\n", out);
	return 0;
}

static void jref(FILE *out, size_t si, const struct cfg *g,
		 struct cfg_node_ref ref)
{
	if (ref.ext)
		fprintf(out, "\"s%zu_x%zu\"", si, ref.idx);
	else
		fprintf(out, "\"s%zu_n%" PRIx64 "\"", si,
			g->blocks[ref.idx].start);
}

/* Every number of the page, one record per line. */
static void write_data(struct rep *r)
{
	const struct resolver_stats *st = &r->a->s.st;
	FILE *out = r->out;
	size_t si, i;

	fputs("<script type=\"application/json\" id=\"blockrange-data\">\n{\"version\": ", out);
	json_str_html(out, BLOCKRANGE_VERSION);
	fputs(", \"input\": ", out);
	json_str_html(out, r->o->input);
	fputs(", \"event\": ", out);
	json_str_html(out, r->a->s.event ? r->a->s.event : "");
	if (r->a->s.exact)
		fputs(", \"exact\": true", out);
	fprintf(out, ", \"samples\": %" PRIu64 ", \"prediction_flags\": %s, \"blocks_seen\": %" PRIu64 ", \"blocks_counted\": %" PRIu64 ",\n",
		st->samples, r->pred ? "true" : "false", st->blocks,
		st->counted);
	fprintf(out, " \"max_symbols\": %zu, \"max_blocks\": %zu, \"symbols_with_data\": %zu,\n \"symbols\": [",
		r->o->max_symbols, r->o->max_blocks, r->ps->nr);
	for (si = 0; si < r->nr_rs; si++) {
		const struct rsym *rs = &r->rs[si];
		const struct annot_sym *p = rs->p;
		const struct cfg *g = &rs->g;

		fprintf(out, "%s\n  {\"id\": \"s%zu\", \"name\": ", si ? "," : "",
			si);
		json_str_html(out, p->name);
		fputs(", \"dso\": ", out);
		json_str_html(out, p->ad->dso->short_name);
		fprintf(out, ", \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64 ", \"max_coverage\": %" PRIu64 ", \"ranges\": %zu, \"taken_branches\": %" PRIu64 ", \"mispredicted\": %" PRIu64 ", \"hidden_blocks\": %zu,\n   \"blocks\": [",
			p->start, p->end, p->samples, p->maxcov, rs->nr_ranges,
			rs->taken, rs->missed, g->nr_hidden);
		for (i = 0; i < g->nr_blocks; i++) {
			const struct cfg_block *b = &g->blocks[i];

			fprintf(out, "%s\n    {\"id\": \"s%zu_n%" PRIx64 "\", \"start\": \"0x%" PRIx64 "\", \"last\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"insns\": %zu, \"coverage\": %" PRIu64,
				i ? "," : "", si, b->start, b->start, b->last,
				b->end, b->nr_insns, b->coverage);
			json_fig(out, "coverage_pct", b->coverage_fig, 100);
			fprintf(out, ", \"heat\": \"%s\", \"samples\": %" PRIu64 ", \"drawn\": %s}",
				heat_name(b->heat), b->samples,
				b->drawn ? "true" : "false");
		}
		fputs("],\n   \"externals\": [", out);
		for (i = 0; i < g->nr_exts; i++) {
			fprintf(out, "%s\n    {\"id\": \"s%zu_x%zu\", \"name\": ",
				i ? "," : "", si, i);
			json_str_html(out, g->exts[i].name);
			fprintf(out, ", \"drawn\": %s}",
				g->exts[i].drawn ? "true" : "false");
		}
		fputs("],\n   \"edges\": [", out);
		for (i = 0; i < g->nr_edges; i++) {
			const struct cfg_edge *e = &g->edges[i];

			fprintf(out, "%s\n    {\"id\": \"s%zu_e%zu\", \"kind\": \"%s\", \"from\": ",
				i ? "," : "", si, i,
				cfg_edge_kind_names[e->kind]);
			jref(out, si, g, e->from);
			fputs(", \"to\": ", out);
			jref(out, si, g, e->to);
			if (e->kind == CFG_AFTER_CALL)
				fputs(", \"count\": null", out);
			else
				fprintf(out, ", \"count\": %" PRIu64, e->count);
			if (e->kind != CFG_FALL && e->kind != CFG_AFTER_CALL)
				fprintf(out, ", \"mispredicted\": %" PRIu64,
					e->mispredicted);
			fprintf(out, ", \"drawn\": %s}",
				e->drawn ? "true" : "false");
		}
		fputs("]}", out);
	}
	fputs("\n ]}\n</script>\n", out);
}

/* Per shown symbol: its graph and the overview's figures. */
static int prepare(struct rep *r, size_t nr)
{
	size_t i;

	r->rs = calloc(nr ? nr : 1, sizeof(*r->rs));
	if (!r->rs)
		return BR_ESYS;
	for (i = 0; i < nr; i++) {
		struct rsym *rs = &r->rs[i];
		const struct annot_sym *p = &r->ps->v[i];
		struct blockrange_cursor cur;
		struct blockrange_rec rec;
		struct annot_branch *br;
		long n, k;
		size_t b;

		r->nr_rs++;
		rs->p = p;
		if (!blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur))
			while (blockrange_rec_iter(p->ad->ctx, &cur, &rec))
				rs->nr_ranges++;
		n = annot_sym_branches(p, &br);
		if (n < 0)
			return BR_ESYS;
		for (k = 0; k < n; k++) {
			if (br[k].from < p->start || br[k].from >= p->end)
				continue;
			rs->taken += br[k].count;
			rs->missed += br[k].mispredicted;
		}
		free(br);
		if (p->ksym)
			continue;
		if (cfg_build(p, r->o->max_blocks, &r->tx, &rs->g))
			return BR_ESYS;
		rs->has_cfg = true;
		for (b = 0; b < rs->g.nr_blocks; b++)
			rs->executed += rs->g.blocks[b].coverage > 0;
	}
	return 0;
}

static void write_head(struct rep *r)
{
	const struct resolver_stats *st = &r->a->s.st;
	FILE *out = r->out;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"generator\" content=\"blockrange " BLOCKRANGE_VERSION "\">\n"
	      "<title>blockrange report: ", out);
	html(out, r->o->input);
	fputs("</title>\n<style>\n", out);
	fputs(css, out);
	fputs("</style>\n</head>\n<body>\n<h1>blockrange report</h1>\n<p class=\"meta\">Input <code>",
	      out);
	html(out, r->o->input);
	fputs("</code>, event <code>", out);
	html(out, r->a->s.event ? r->a->s.event : "unknown");
	if (r->a->s.exact)
		fputs("</code> (exact: every taken branch counted, no sampling)<code>", out);
	fprintf(out, "</code>: <span id=\"samples\">%" PRIu64 "</span> samples, <span id=\"counted\">%" PRIu64 "</span> of <span id=\"seen\">%" PRIu64 "</span> blocks counted, prediction flags: %s.</p>\n",
		st->samples, st->counted, st->blocks, r->pred ? "yes" : "no");
	fprintf(out, "<p class=\"cap\" id=\"caps\">");
	if (r->nr_rs < r->ps->nr)
		fprintf(out, "Showing the %zu hottest of %zu symbols with data (at most %zu symbols per page, --max-symbols)",
			r->nr_rs, r->ps->nr, r->o->max_symbols);
	else
		fprintf(out, "Showing all %zu symbol%s with data (at most %zu per page, --max-symbols)",
			r->ps->nr, r->ps->nr == 1 ? "" : "s",
			r->o->max_symbols);
	fprintf(out, "; each graph draws at most %zu blocks (--max-blocks).</p>\n",
		r->o->max_blocks);
	fputs("<p class=\"legend\">Blocks: <span style=\"background:#fca5a5;border-color:#b91c1c\">coverage &gt; 75% of the symbol's highest</span>"
	      "<span style=\"background:#f5c6f7;border-color:#a21caf\">1-75%</span>"
	      "<span style=\"background:#f3f4f6;border-color:#6b7280\">&lt; 1%</span>"
	      "<span style=\"border-style:dashed\">never executed</span>"
	      " Edges: <span style=\"color:#1d4ed8\">taken branch</span>"
	      "<span style=\"color:#374151\">fall-through</span>"
	      "<span style=\"color:#0f766e\">call / return (dashed)</span>"
	      "<span style=\"color:#9ca3af\">after a call (dotted)</span>"
	      " Width follows the count; labels: count and the share mispredicted.</p>\n",
	      out);
}

int report_write(const struct annot *a, const struct annot_syms *syms,
		 const struct report_opts *o, FILE *out, char *err,
		 size_t errsz)
{
	struct rep r = { .a = a, .ps = syms, .o = o, .out = out };
	size_t i, nr;
	int ret;

	for (i = 0; i < a->nr_per; i++)
		if (a->per[i] && a->per[i]->ctx &&
		    blockrange_has_pred(a->per[i]->ctx))
			r.pred = true;
	if (annot_insn_text_init(&r.tx, a)) {
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	nr = r.ps->nr < o->max_symbols ? r.ps->nr : o->max_symbols;
	ret = BR_ESYS;
	if (prepare(&r, nr)) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	r.gvc = gvContextPlugins(gv_plugins, 0);
	if (!r.gvc) {
		snprintf(err, errsz, "out of memory");
		goto out;
	}
	write_head(&r);
	write_overview(&r);
	for (i = 0; i < r.nr_rs; i++)
		if (write_symbol(&r, i, err, errsz))
			goto out;
	write_data(&r);
	fprintf(out, "<script>\n%s</script>\n</body>\n</html>\n", js);
	ret = 0;
out:
	if (r.gvc)
		gvFreeContext(r.gvc);
	for (i = 0; i < r.nr_rs; i++)
		cfg_free(&r.rs[i].g);
	free(r.rs);
	annot_insn_text_free(&r.tx);
	return ret;
}
