// SPDX-License-Identifier: GPL-2.0
/* The annotate printer: the seed's text and its JSON.  See annotate.h. */
#define _GNU_SOURCE

#include "output/annotate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

#include "output/json.h"
#include "output/summary.h"

#define C_RED "\033[31m"
#define C_MAGENTA "\033[35m"
#define C_BLUE "\033[34m"
#define C_RESET "\033[m"


enum annot_heat annot_heat_of(struct blockrange_fig cov)
{
	if (cov.status == BLOCKRANGE_FIG_OK) {
		if (cov.value > 0.75)
			return ANNOT_HOT;
		if (cov.value < 0.01)
			return ANNOT_COLD;
	}
	return ANNOT_WARM;
}

/* The seed's colours. */
static const char *addr_color(struct blockrange_fig cov)
{
	switch (annot_heat_of(cov)) {
	case ANNOT_HOT:
		return C_RED;
	case ANNOT_COLD:
		return NULL;
	default:
		return C_MAGENTA;
	}
}

static const char *asm_color(struct blockrange_fig cov)
{
	if (annot_heat_of(cov) == ANNOT_COLD)
		return NULL;
	return C_BLUE;
}

static void colored(FILE *out, bool color, const char *c, const char *s)
{
	if (color && c)
		fputs(c, out);
	fputs(s, out);
	if (color && c)
		fputs(C_RESET, out);
}

int annot_insn_text_init(struct annot_insn_text *t, const struct annot *a)
{
	size_t longest = 0, i, k;

	for (i = 0; i < dso_count(a->s.reg); i++) {
		const struct dso *d = dso_at(a->s.reg, i);

		if (d->state != DSO_READY)
			continue;
		for (k = 0; k < d->bin.nr_syms; k++)
			if (strlen(d->bin.syms[k].name) > longest)
				longest = strlen(d->bin.syms[k].name);
	}
	/* capstone's op_str is < 160; "ADDR <NAME+0xOFF>" < NAME + 40 */
	t->opssz = longest + 192;
	t->linesz = t->opssz + sizeof(t->mnem) + 8;
	t->ops = malloc(t->opssz);
	t->line = malloc(t->linesz);
	if (!t->ops || !t->line) {
		free(t->ops);
		free(t->line);
		return BR_ESYS;
	}
	return 0;
}

void annot_insn_text_free(struct annot_insn_text *t)
{
	free(t->ops);
	free(t->line);
}

unsigned annot_insn_line(const struct dso *d, uint64_t addr,
			 struct annot_insn_text *t, int pad)
{
	struct eb_insn *inp = &t->insn, in;

	if (eb_decode(&d->bin, addr, &in, t->mnem, sizeof(t->mnem), t->ops,
		      t->opssz)) {
		in.addr = addr;
		in.size = 1;
		in.kind = EB_OTHER;
		snprintf(t->mnem, sizeof(t->mnem), "(bad)");
		t->ops[0] = '\0';
	}
	*inp = in;
	if (t->ops[0])
		snprintf(t->line, t->linesz, "%-*s %s", pad, t->mnem, t->ops);
	else
		snprintf(t->line, t->linesz, "%s", t->mnem);
	return in.size;
}

/* Source files read for --source, each once. */
struct src_file {
	char *path;
	char *text;
	char **lines;
	size_t nr;
};

struct src_cache {
	struct src_file *v;
	size_t nr;
};

static const struct src_file *src_get(struct src_cache *c, const char *path)
{
	struct src_file *f;
	FILE *in;
	size_t i, len = 0, cap = 0;
	char *p;

	for (i = 0; i < c->nr; i++)
		if (!strcmp(c->v[i].path, path))
			return &c->v[i];
	f = realloc(c->v, (c->nr + 1) * sizeof(*f));
	if (!f)
		return NULL;
	c->v = f;
	f = &c->v[c->nr];
	memset(f, 0, sizeof(*f));
	f->path = strdup(path);
	if (!f->path)
		return NULL;
	c->nr++;
	in = fopen(path, "r");
	if (!in)
		return f;
	for (;;) {
		char *t;
		size_t n;

		if (len + 4096 + 1 > cap) {
			cap = cap ? 2 * cap : 65536;
			if (cap > (64u << 20))
				break;
			t = realloc(f->text, cap);
			if (!t)
				break;
			f->text = t;
		}
		n = fread(f->text + len, 1, cap - len - 1, in);
		if (!n)
			break;
		len += n;
	}
	fclose(in);
	if (!f->text)
		return f;
	f->text[len] = '\0';
	for (p = f->text; *p; ) {
		char **l = realloc(f->lines, (f->nr + 1) * sizeof(*l));
		char *nl;

		if (!l)
			break;
		f->lines = l;
		l[f->nr++] = p;
		nl = strchr(p, '\n');
		if (!nl)
			break;
		*nl = '\0';
		p = nl + 1;
	}
	return f;
}

static void src_free(struct src_cache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++) {
		free(c->v[i].path);
		free(c->v[i].text);
		free(c->v[i].lines);
	}
	free(c->v);
}

struct printer {
	const struct annot *a;
	const struct annot_opts *o;
	FILE *out;
	struct annot_insn_text tx;
	struct src_cache src;
	const char *event;
};

static void print_source(struct printer *pr, struct dso *d, uint64_t addr,
			 const char **last_file, int *last_line)
{
	const char *file;
	int line;
	const struct src_file *sf;

	if (!dso_source_line(pr->a->s.reg, d, addr, &file, &line))
		return;
	if (*last_file && !strcmp(*last_file, file) && *last_line == line)
		return;
	*last_file = file;
	*last_line = line;
	fprintf(pr->out, "         :\t%s:%d", file, line);
	sf = src_get(&pr->src, file);
	if (sf && line > 0 && (size_t)line <= sf->nr)
		fprintf(pr->out, "\t%s", sf->lines[line - 1]);
	fputc('\n', pr->out);
}

size_t annot_comment(const struct blockrange_addr_rec *info, char *buf,
		     size_t bufsz)
{
	size_t n = 0;
	int k;

	buf[0] = '\0';
	if (info->entry.status == BLOCKRANGE_FIG_OK && info->entry.value > 0.1) {
		k = snprintf(buf, bufsz, "+%.2f%%", info->entry.value);
		n = k > 0 && (size_t)k < bufsz ? (size_t)k : 0;
	}
	if (info->taken.status == BLOCKRANGE_FIG_OK && info->taken.value > 0.1) {
		if (info->pred.status == BLOCKRANGE_FIG_OK)
			k = snprintf(buf + n, bufsz - n, "%s-%.2f%% (p:%.2f%%)",
				     n ? " " : "", info->taken.value,
				     info->pred.value);
		else
			k = snprintf(buf + n, bufsz - n, "%s-%.2f%% (p:n/a)",
				     n ? " " : "", info->taken.value);
		n += k > 0 && (size_t)k < bufsz - n ? (size_t)k : 0;
	}
	return n;
}

static void print_comments(FILE *out, const struct blockrange_addr_rec *info)
{
	char buf[ANNOT_COMMENT_MAX];

	if (annot_comment(info, buf, sizeof(buf)))
		fprintf(out, "\t# %s", buf);
}

/* kallsyms only: the ranges of the symbol, no instructions. */
static void print_text_ranges(struct printer *pr, const struct annot_sym *p)
{
	struct blockrange_cursor cur;
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	FILE *out = pr->out;

	fputs("         :\t(no code: symbols only; ranges with their coverage)\n",
	      out);
	if (blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur))
		return;
	while (blockrange_rec_iter(p->ad->ctx, &cur, &rec)) {
		struct blockrange_addr_rec info, end;
		uint64_t n = 0;
		size_t k;
		char abuf[64];

		for (k = 0; k < p->ad->ips.cap; k++) {
			const struct pairmap_slot *sl = &p->ad->ips.slots[k];

			if (sl->used && sl->a >= br->start && sl->a <= br->end)
				n += sl->count;
		}
		blockrange_addr_rec(p->ad->ctx, br->start, &info);
		blockrange_addr_rec(p->ad->ctx, br->end, &end);
		info.taken = end.taken;
		info.pred = end.pred;
		fprintf(out, "%8.2f :\t  ", p->samples ?
			100.0 * (double)n / (double)p->samples : 0.0);
		snprintf(abuf, sizeof(abuf), "%" PRIx64 "-%" PRIx64 ":",
			 br->start, br->end);
		colored(out, pr->o->color, addr_color(info.coverage), abuf);
		fprintf(out, "       coverage %" PRIu64, br->coverage);
		print_comments(out, &info);
		fputc('\n', out);
	}
}

static void print_text_sym(struct printer *pr, const struct annot_sym *p)
{
	struct dso *d = p->ad->dso;
	FILE *out = pr->out;
	uint64_t addr = p->start;
	int width = snprintf(NULL, 0, "%" PRIx64, p->end);
	const char *last_file = NULL;
	int last_line = 0;

	if (pr->a->s.exact)
		fprintf(out, " Percent |\tSource code & Disassembly of %s for %s (exact counts)\n",
			d->short_name, pr->event);
	else
		fprintf(out, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples)\n",
			d->short_name, pr->event, p->samples);
	fputs("---------------------------------------------------------------------------------\n", out);
	fprintf(out, "         :\t%s():\n", p->name);
	if (p->ksym) {
		print_text_ranges(pr, p);
		return;
	}
	while (addr < p->end) {
		struct blockrange_addr_rec info;
		char abuf[32];
		uint64_t n = pairmap_get(&p->ad->ips, addr, 0);
		double pct = p->samples ? 100.0 * (double)n / (double)p->samples : 0;
		unsigned size;

		if (pr->o->source)
			print_source(pr, d, addr, &last_file, &last_line);
		size = annot_insn_line(d, addr, &pr->tx, 6);
		annot_sym_addr_info(p, addr, &info);
		fprintf(out, "%8.2f :\t  ", pct);
		snprintf(abuf, sizeof(abuf), "%*" PRIx64 ":", width, addr);
		colored(out, pr->o->color, addr_color(info.coverage), abuf);
		fputs("       ", out);
		colored(out, pr->o->color, asm_color(info.coverage),
			pr->tx.line);
		print_comments(out, &info);
		fputc('\n', out);
		if (addr + size < addr)
			break;
		addr += size;
	}
}

const char *annot_symsrc_name(const struct dso *d)
{
	if (d->state == DSO_SYMS_ONLY)
		return "kallsyms";
	if (d->state != DSO_READY)
		return "none";
	switch (d->bin.symsrc) {
	case EB_SYMS_SYMTAB:
		return d->debug_file ? "debug symtab" : "symtab";
	case EB_SYMS_DYNSYM:
		return "dynsym";
	default:
		return "none";
	}
}

static void print_json_ranges(struct printer *pr, const struct annot_sym *p)
{
	struct blockrange_cursor cur;
	struct blockrange_rec rec;
	const struct blockrange_rec *br = &rec;
	FILE *out = pr->out;
	bool first = true;

	fputs("\n     ],\n     \"ranges\": [", out);
	if (!blockrange_rec_span(p->ad->ctx, p->start, p->end - 1, &cur)) {
		while (blockrange_rec_iter(p->ad->ctx, &cur, &rec)) {
			fprintf(out, "%s\n      {\"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"coverage\": %" PRIu64 ", \"entry\": %" PRIu64 ", \"taken\": %" PRIu64 ", \"pred\": %" PRIu64 ", \"is_target\": %s, \"is_branch\": %s",
				first ? "" : ",", br->start, br->end,
				br->coverage, br->entry, br->taken, br->pred,
				br->is_target ? "true" : "false",
				br->is_branch ? "true" : "false");
			json_fig(out, "coverage_pct", annot_sym_coverage(p, br), 100);
			json_fig(out, "entry_pct",
				 blockrange_rec_entry_pct(p->ad->ctx, br), 1);
			json_fig(out, "taken_pct", blockrange_rec_taken_pct(br),
				 1);
			json_fig(out, "pred_pct",
				 blockrange_rec_pred_pct(p->ad->ctx, br), 1);
			fputc('}', out);
			first = false;
		}
	}
	fputs("\n     ]", out);
}

/* Taken branches from or into the symbol (annot_sym_branches()). */
static int print_json_branches(struct printer *pr, const struct annot_sym *p)
{
	struct annot_branch *b;
	long n = annot_sym_branches(p, &b), i;
	FILE *out = pr->out;

	if (n < 0)
		return BR_ESYS;
	fputs(",\n     \"branches\": [", out);
	for (i = 0; i < n; i++)
		fprintf(out, "%s\n      {\"from\": \"0x%" PRIx64 "\", \"to\": \"0x%" PRIx64 "\", \"count\": %" PRIu64 ", \"mispredicted\": %" PRIu64 "}",
			i ? "," : "", b[i].from, b[i].to, b[i].count,
			b[i].mispredicted);
	fputs(n ? "\n     ]}" : "]}", out);
	free(b);
	return 0;
}

static int print_json_sym(struct printer *pr, const struct annot_sym *p)
{
	struct dso *d = p->ad->dso;
	FILE *out = pr->out;
	uint64_t addr = p->start;
	bool first = true;

	fputs("    {\"name\": ", out);
	json_str(out, p->name);
	fprintf(out, ", \"pseudo\": %s, \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64 ", \"max_coverage\": %" PRIu64 ",\n",
		p->pseudo ? "true" : "false", p->start, p->end, p->samples,
		p->maxcov);
	fputs("     \"instructions\": [", out);
	while (!p->ksym && addr < p->end) {
		struct blockrange_addr_rec info;
		uint64_t n = pairmap_get(&p->ad->ips, addr, 0);
		unsigned size = annot_insn_line(d, addr, &pr->tx, 0);
		const char *file;
		int line;

		annot_sym_addr_info(p, addr, &info);
		fprintf(out, "%s\n      {\"addr\": \"0x%" PRIx64 "\", \"size\": %u, \"asm\": ",
			first ? "" : ",", addr, size);
		json_str(out, pr->tx.line);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"percent\": %.2f, \"coverage\": %" PRIu64,
			n, p->samples ? 100.0 * (double)n / (double)p->samples : 0.0,
			info.found ? info.range.coverage : 0);
		json_fig(out, "coverage_pct", info.coverage, 100);
		json_fig(out, "entry_pct", info.entry, 1);
		json_fig(out, "taken_pct", info.taken, 1);
		json_fig(out, "pred_pct", info.pred, 1);
		if (pr->o->source &&
		    dso_source_line(pr->a->s.reg, d, addr, &file, &line)) {
			fputs(", \"source\": ", out);
			json_str(out, file);
			fprintf(out, ", \"line\": %d", line);
		}
		fputc('}', out);
		first = false;
		if (addr + size < addr)
			break;
		addr += size;
	}
	print_json_ranges(pr, p);
	return print_json_branches(pr, p);
}

static int print_json(struct printer *pr, const struct annot_syms *ps)
{
	const struct annot *a = pr->a;
	const struct resolver_stats *st = &a->s.st;
	FILE *out = pr->out;
	bool has_pred = false, firstd = true;
	size_t i, k;
	int r;

	for (i = 0; i < a->nr_per; i++)
		if (a->per[i] && a->per[i]->ctx &&
		    blockrange_has_pred(a->per[i]->ctx))
			has_pred = true;
	fputs("{\"event\": ", out);
	json_str(out, a->s.event ? a->s.event : "");
	if (a->s.exact)
		fputs(", \"exact\": true", out);
	fprintf(out, ", \"samples\": %" PRIu64 ", \"prediction_flags\": %s,\n",
		st->samples, has_pred ? "true" : "false");
	fprintf(out, " \"blocks\": {\"seen\": %" PRIu64 ", \"counted\": %" PRIu64 ", \"skipped\": {",
		st->blocks, st->counted);
	for (r = 0; r < SKIP_NR; r++) {
		fprintf(out, "%s", r ? ", " : "");
		json_str(out, skip_keys[r]);
		fprintf(out, ": %" PRIu64, st->skipped[r]);
	}
	fputs("}},\n \"dsos\": [", out);
	/* DSOs in the order of their hottest symbol, symbols in pick order. */
	for (i = 0; i < ps->nr; i++) {
		const struct annot_dso *ad = ps->v[i].ad;
		const struct dso *d = ad->dso;
		char hex[BR_BUILD_ID_HEX];
		bool seen = false, firsts = true;
		uint64_t taken, missed;

		for (k = 0; k < i; k++)
			if (ps->v[k].ad == ad)
				seen = true;
		if (seen)
			continue;
		br_build_id_hex(d->build_id, d->build_id_size, hex);
		fprintf(out, "%s\n  {\"name\": ", firstd ? "" : ",");
		json_str(out, d->short_name);
		fputs(", \"path\": ", out);
		json_str(out, d->path);
		fputs(", \"build_id\": ", out);
		json_str_or_null(out, d->build_id_size ? hex : NULL);
		fputs(", \"file\": ", out);
		json_str_or_null(out, d->file);
		fputs(", \"debug_file\": ", out);
		json_str_or_null(out, d->debug_file);
		fputs(", \"symbols_from\": ", out);
		json_str(out, annot_symsrc_name(d));
		annot_dso_branch_totals(ad, &taken, &missed);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"taken_branches\": %" PRIu64 ", \"mispredicted\": %" PRIu64 ",\n   \"symbols\": [\n",
			ad->samples, taken, missed);
		for (k = i; k < ps->nr; k++) {
			if (ps->v[k].ad != ad)
				continue;
			if (!firsts)
				fputs(",\n", out);
			if (print_json_sym(pr, &ps->v[k]))
				return BR_ESYS;
			firsts = false;
		}
		fputs("\n   ]}", out);
		firstd = false;
	}
	fputs("\n ]}\n", out);
	return 0;
}

int annot_print(const struct annot *a, const struct annot_syms *ps,
		const struct annot_opts *o, FILE *out, char *err,
		size_t errsz)
{
	struct printer pr = { .a = a, .o = o, .out = out };
	size_t i;
	int r = 0;

	pr.event = a->s.event ? a->s.event : "unknown event";
	if (annot_insn_text_init(&pr.tx, a)) {
		snprintf(err, errsz, "out of memory");
		return BR_ESYS;
	}
	if (o->json) {
		if (print_json(&pr, ps)) {
			snprintf(err, errsz, "out of memory");
			r = BR_ESYS;
		}
	} else {
		for (i = 0; i < ps->nr; i++) {
			if (i)
				fputc('\n', out);
			print_text_sym(&pr, &ps->v[i]);
		}
	}
	src_free(&pr.src);
	annot_insn_text_free(&pr.tx);
	return r;
}
