// SPDX-License-Identifier: GPL-2.0
#define _POSIX_C_SOURCE 200809L

#include "annotate.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#define C_RED "\033[31m"
#define C_MAGENTA "\033[35m"
#define C_BLUE "\033[34m"
#define C_RESET "\033[m"

int annot_init(struct annot *a, const char *name, const struct eb_binary *bin,
	       char *err, size_t errsz)
{
	memset(a, 0, sizeof(*a));
	a->name = name;
	a->bin = bin;
	mapper_init(&a->map, bin);
	a->ctx = blockrange_ctx_new(NULL);
	a->sym_samples = calloc(bin->nr_syms ? bin->nr_syms : 1,
				sizeof(*a->sym_samples));
	if (!a->ctx || !a->sym_samples) {
		annot_free(a);
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	return 0;
}

void annot_free(struct annot *a)
{
	blockrange_ctx_free(a->ctx);
	mapper_free(&a->map);
	pairmap_free(&a->ips);
	free(a->sym_samples);
	free(a->br);
	free(a->event);
	a->event = NULL;
	a->ctx = NULL;
	a->sym_samples = NULL;
	a->br = NULL;
}

int annot_mmap(void *arg, const struct ps_mmap *m, char *err, size_t errsz)
{
	struct annot *a = arg;
	char why[PS_ERR_MAX];
	int r = mapper_add(&a->map, m, why, sizeof(why));

	if (r == -1) {
		snprintf(err, errsz, "%s:%lu: out of memory", a->name, m->line);
		return -2;
	}
	if (r == -2) {
		snprintf(err, errsz, "%s:%lu: %s", a->name, m->line, why);
		return -1;
	}
	return 0;
}

/* Runtime address -> vaddr inside an executable section, else 0. */
static uint64_t map_code(const struct annot *a, long pid, uint64_t addr)
{
	uint64_t v;

	if (!mapper_map(&a->map, pid, addr, &v) || !eb_xsec_at(a->bin, v))
		return 0;
	return v;
}

int annot_sample(void *arg, const struct ps_sample *s, char *err,
		 size_t errsz)
{
	struct annot *a = arg;
	uint64_t ip, r;
	size_t i;

	if (mapper_missing(&a->map)) {
		snprintf(err, errsz,
			 "%s:%lu: expected a PERF_RECORD_MMAP2 line for '%s' before the first sample (it is a PIE, its load address is unknown), got a sample",
			 a->name, s->line, a->bin->base_name);
		return -1;
	}
	if (s->repeat > ANNOT_MAX_REPEAT) {
		snprintf(err, errsz,
			 "%s:%lu: expected a repeat count of at most %u for annotate (each repeat replays the stack), got %" PRIu64,
			 a->name, s->repeat_line, ANNOT_MAX_REPEAT, s->repeat);
		return -1;
	}
	if (*s->event) {
		if (!a->event) {
			a->event = strdup(s->event);
			if (!a->event)
				goto oom;
		} else if (strcmp(a->event, s->event)) {
			a->mixed_events = true;
		}
	}
	/* Every other sum is at most this one. */
	if (a->samples > UINT64_MAX - s->repeat)
		goto overflow;
	a->samples += s->repeat;
	ip = map_code(a, s->pid, s->ip);
	if (ip) {
		const struct eb_sym *sym = eb_sym_at(a->bin, ip);

		if (pairmap_add(&a->ips, ip, 0, s->repeat))
			goto oom;
		if (sym)
			a->sym_samples[sym - a->bin->syms] += s->repeat;
	}
	if (s->nr > a->br_cap) {
		struct blockrange_branch *nb = realloc(a->br, s->nr * sizeof(*nb));

		if (!nb)
			goto oom;
		a->br = nb;
		a->br_cap = s->nr;
	}
	for (i = 0; i < s->nr; i++) {
		const struct ps_entry *e = &s->entries[i];
		struct blockrange_branch *b = &a->br[i];

		b->from = map_code(a, s->pid, e->from);
		b->to = map_code(a, s->pid, e->to);
		b->to_owner = b->to ? eb_sym_at(a->bin, b->to) : NULL;
		b->cycles = e->cycles;
		b->predicted = e->predicted;
		b->mispredicted = e->mispredicted;
		b->in_tx = e->in_tx;
		b->abort = e->abort;
	}
	for (r = 0; r < s->repeat; r++)
		if (blockrange_apply_stack(a->ctx, a->br, s->nr, &a->stats))
			goto oom;
	return 0;
oom:
	snprintf(err, errsz, "%s:%lu: out of memory", a->name, s->line);
	return -2;
overflow:
	snprintf(err, errsz,
		 "%s:%lu: expected repeat counts whose sum fits in 64 bits, got %" PRIu64 ", which overflows the sample count",
		 a->name, s->repeat_line ? s->repeat_line : s->line, s->repeat);
	return -1;
}

uint64_t annot_coverage_at(const struct annot *a, uint64_t vaddr)
{
	const struct blockrange *br = blockrange_find(a->ctx, vaddr);

	return br ? br->coverage : 0;
}

static uint64_t ip_count(const struct annot *a, uint64_t v)
{
	return pairmap_get(&a->ips, v, 0);
}

struct pick {
	const struct eb_sym *sym;
	uint64_t samples;
	uint64_t maxcov;
};

static int cmp_pick(const void *x, const void *y)
{
	const struct pick *p = x, *q = y;

	if (p->samples != q->samples)
		return p->samples > q->samples ? -1 : 1;
	if (p->maxcov != q->maxcov)
		return p->maxcov > q->maxcov ? -1 : 1;
	return p->sym->start < q->sym->start ? -1 : 1;
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void json_fig(FILE *out, const char *key, struct blockrange_fig f,
		     double scale, const char *fmt)
{
	fprintf(out, ", \"%s\": ", key);
	if (f.status == BLOCKRANGE_FIG_OK)
		fprintf(out, fmt, f.value * scale);
	else
		fputs("null", out);
}

/* The seed's colours. */
static const char *addr_color(struct blockrange_fig cov)
{
	if (cov.status == BLOCKRANGE_FIG_OK) {
		if (cov.value > 0.75)
			return C_RED;
		if (cov.value < 0.01)
			return NULL;
	}
	return C_MAGENTA;
}

static const char *asm_color(struct blockrange_fig cov)
{
	if (cov.status == BLOCKRANGE_FIG_OK && cov.value < 0.01)
		return NULL;
	return C_BLUE;
}

static void colored(FILE *out, bool color, const char *c, const char *fmt,
		    const char *s)
{
	if (color && c)
		fputs(c, out);
	fprintf(out, fmt, s);
	if (color && c)
		fputs(C_RESET, out);
}

/*
 * One instruction's text, with room for capstone's operands or a direct
 * branch target named by the binary's longest symbol: nothing is cut.
 */
struct insn_text {
	char mnem[32];
	char *ops;
	size_t opssz;
	char *line;
	size_t linesz;
};

static int insn_text_init(struct insn_text *t, const struct eb_binary *b)
{
	size_t longest = 0, i;

	for (i = 0; i < b->nr_syms; i++)
		if (strlen(b->syms[i].name) > longest)
			longest = strlen(b->syms[i].name);
	/* capstone's op_str is < 160; "ADDR <NAME+0xOFF>" < NAME + 40 */
	t->opssz = longest + 192;
	t->linesz = t->opssz + sizeof(t->mnem) + 8;
	t->ops = malloc(t->opssz);
	t->line = malloc(t->linesz);
	if (!t->ops || !t->line) {
		free(t->ops);
		free(t->line);
		return -1;
	}
	return 0;
}

static void insn_text_free(struct insn_text *t)
{
	free(t->ops);
	free(t->line);
}

/*
 * Decode @addr into t->line, "MNEMONIC OPERANDS" with the mnemonic padded
 * to @pad; returns the instruction size (1 for undecodable bytes).
 */
static unsigned insn_line(const struct annot *a, uint64_t addr,
			  struct insn_text *t, int pad)
{
	struct eb_insn in;

	if (eb_decode(a->bin, addr, &in, t->mnem, sizeof(t->mnem), t->ops,
		      t->opssz)) {
		in.size = 1;
		snprintf(t->mnem, sizeof(t->mnem), "(bad)");
		t->ops[0] = '\0';
	}
	if (t->ops[0])
		snprintf(t->line, t->linesz, "%-*s %s", pad, t->mnem, t->ops);
	else
		snprintf(t->line, t->linesz, "%s", t->mnem);
	return in.size;
}

static void print_text_sym(const struct annot *a, const struct pick *p,
			   const char *event, bool color, struct insn_text *tx,
			   FILE *out)
{
	const struct eb_sym *sym = p->sym;
	uint64_t addr = sym->start;
	int width = snprintf(NULL, 0, "%" PRIx64, sym->end);

	fprintf(out, " Percent |\tSource code & Disassembly of %s for %s (%" PRIu64 " samples)\n",
		a->bin->base_name, event, p->samples);
	fputs("---------------------------------------------------------------------------------\n", out);
	fprintf(out, "         :\t%s():\n", sym->name);
	while (addr < sym->end) {
		struct blockrange_addr_info info;
		char abuf[32];
		uint64_t n = ip_count(a, addr);
		double pct = p->samples ? 100.0 * (double)n / (double)p->samples : 0;
		bool hash = false;
		unsigned size = insn_line(a, addr, tx, 6);

		blockrange_addr_info(a->ctx, addr, &info);
		fprintf(out, "%8.2f :\t  ", pct);
		snprintf(abuf, sizeof(abuf), "%*" PRIx64 ":", width, addr);
		colored(out, color, addr_color(info.coverage), "%s", abuf);
		fputs("       ", out);
		colored(out, color, asm_color(info.coverage), "%s", tx->line);
		if (info.entry.status == BLOCKRANGE_FIG_OK &&
		    info.entry.value > 0.1) {
			fputs("\t#", out);
			hash = true;
			fprintf(out, " +%.2f%%", info.entry.value);
		}
		if (info.taken.status == BLOCKRANGE_FIG_OK &&
		    info.taken.value > 0.1) {
			if (!hash)
				fputs("\t#", out);
			fprintf(out, " -%.2f%%", info.taken.value);
			if (info.pred.status == BLOCKRANGE_FIG_OK)
				fprintf(out, " (p:%.2f%%)", info.pred.value);
			else
				fputs(" (p:n/a)", out);
		}
		fputc('\n', out);
		addr += size;
	}
}

static void print_json_sym(const struct annot *a, const struct pick *p,
			   struct insn_text *tx, FILE *out, bool last)
{
	const struct eb_sym *sym = p->sym;
	struct blockrange_iter it;
	const struct blockrange *br;
	uint64_t addr = sym->start;
	bool first = true;

	fputs("    {\"name\": ", out);
	json_str(out, sym->name);
	fprintf(out, ", \"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"samples\": %" PRIu64 ", \"max_coverage\": %" PRIu64 ",\n",
		sym->start, sym->end, p->samples, p->maxcov);
	fputs("     \"instructions\": [", out);
	while (addr < sym->end) {
		struct blockrange_addr_info info;
		uint64_t n = ip_count(a, addr);
		unsigned size = insn_line(a, addr, tx, 0);

		blockrange_addr_info(a->ctx, addr, &info);
		fprintf(out, "%s\n      {\"addr\": \"0x%" PRIx64 "\", \"size\": %u, \"asm\": ",
			first ? "" : ",", addr, size);
		json_str(out, tx->line);
		fprintf(out, ", \"samples\": %" PRIu64 ", \"percent\": %.2f, \"coverage\": %" PRIu64,
			n, p->samples ? 100.0 * (double)n / (double)p->samples : 0.0,
			info.range ? info.range->coverage : 0);
		json_fig(out, "coverage_pct", info.coverage, 100, "%.2f");
		json_fig(out, "entry_pct", info.entry, 1, "%.2f");
		json_fig(out, "taken_pct", info.taken, 1, "%.2f");
		json_fig(out, "pred_pct", info.pred, 1, "%.2f");
		fputc('}', out);
		first = false;
		addr += size;
	}
	fputs("\n     ],\n     \"ranges\": [", out);
	first = true;
	if (!blockrange_span(a->ctx, sym->start, sym->end - 1, &it)) {
		while ((br = blockrange_iter_next(&it))) {
			fprintf(out, "%s\n      {\"start\": \"0x%" PRIx64 "\", \"end\": \"0x%" PRIx64 "\", \"coverage\": %" PRIu64 ", \"entry\": %" PRIu64 ", \"taken\": %" PRIu64 ", \"pred\": %" PRIu64 ", \"is_target\": %s, \"is_branch\": %s",
				first ? "" : ",", br->start, br->end,
				br->coverage, br->entry, br->taken, br->pred,
				br->is_target ? "true" : "false",
				br->is_branch ? "true" : "false");
			json_fig(out, "entry_pct", blockrange_entry_pct(br), 1, "%.2f");
			json_fig(out, "taken_pct", blockrange_taken_pct(br), 1, "%.2f");
			json_fig(out, "pred_pct", blockrange_pred_pct(a->ctx, br), 1, "%.2f");
			fputc('}', out);
			first = false;
		}
	}
	fprintf(out, "\n     ]}%s\n", last ? "" : ",");
}

int annot_print(const struct annot *a, const struct annot_opts *o, FILE *out,
		char *err, size_t errsz)
{
	const struct eb_binary *b = a->bin;
	struct pick *picks;
	struct insn_text tx;
	size_t n = 0, i;
	const char *event = a->event ? a->event : "unknown event";

	if (insn_text_init(&tx, b)) {
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	picks = calloc(b->nr_syms + o->nr_symbols + 1, sizeof(*picks));
	if (!picks) {
		insn_text_free(&tx);
		snprintf(err, errsz, "out of memory");
		return -1;
	}
	if (o->nr_symbols) {
		for (i = 0; i < o->nr_symbols; i++) {
			const struct eb_sym *s = eb_sym_by_name(b, o->symbols[i]);

			if (!s) {
				snprintf(err, errsz,
					 "expected a function symbol of %s for --symbol, got '%s'",
					 b->path, o->symbols[i]);
				free(picks);
				insn_text_free(&tx);
				return -1;
			}
			picks[n].sym = s;
			picks[n].samples = a->sym_samples[s - b->syms];
			picks[n].maxcov = blockrange_owner_max(a->ctx, s);
			n++;
		}
	} else {
		for (i = 0; i < b->nr_syms; i++) {
			const struct eb_sym *s = &b->syms[i];
			uint64_t mc = blockrange_owner_max(a->ctx, s);

			if (!a->sym_samples[i] && !mc)
				continue;
			picks[n].sym = s;
			picks[n].samples = a->sym_samples[i];
			picks[n].maxcov = mc;
			n++;
		}
		qsort(picks, n, sizeof(*picks), cmp_pick);
	}
	if (o->json) {
		fputs("{\"binary\": ", out);
		json_str(out, b->base_name);
		fputs(", \"event\": ", out);
		json_str(out, a->event ? a->event : "");
		fprintf(out, ", \"samples\": %" PRIu64 ", \"prediction_flags\": %s,\n",
			a->samples,
			blockrange_has_pred(a->ctx) ? "true" : "false");
		fprintf(out, " \"blocks\": {\"seen\": %" PRIu64 ", \"counted\": %" PRIu64 ", \"skipped_abort\": %" PRIu64 ", \"skipped_in_tx\": %" PRIu64 ", \"skipped_outside\": %" PRIu64 ", \"skipped_reversed\": %" PRIu64 "},\n",
			a->stats.blocks, a->stats.counted,
			a->stats.skipped_abort, a->stats.skipped_in_tx,
			a->stats.skipped_zero, a->stats.skipped_reversed);
		fputs(" \"symbols\": [\n", out);
		for (i = 0; i < n; i++)
			print_json_sym(a, &picks[i], &tx, out, i + 1 == n);
		fputs(" ]}\n", out);
	} else {
		for (i = 0; i < n; i++) {
			if (i)
				fputc('\n', out);
			print_text_sym(a, &picks[i], event, o->color, &tx, out);
		}
	}
	free(picks);
	insn_text_free(&tx);
	return 0;
}
