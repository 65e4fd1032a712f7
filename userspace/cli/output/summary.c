// SPDX-License-Identifier: GPL-2.0
/* The summary line and the "nothing to ..." message.  See summary.h. */
#define _GNU_SOURCE

#include "output/summary.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

const char *const skip_names[SKIP_NR] = {
	[SKIP_ABORT] = "abort",
	[SKIP_IN_TX] = "in transaction",
	[SKIP_EMPTY] = "empty entry",
	[SKIP_KERNEL] = "kernel",
	[SKIP_NO_MAPPING] = "no mapping",
	[SKIP_NOT_FOUND] = "binary not found",
	[SKIP_MISMATCH] = "build-id mismatch",
	[SKIP_UNUSABLE] = "unusable binary",
	[SKIP_OUTSIDE] = "outside code",
	[SKIP_CROSS] = "cross-DSO",
	[SKIP_OTHER_DSO] = "other DSO",
	[SKIP_REVERSED] = "reversed",
};

const char *const skip_keys[SKIP_NR] = {
	[SKIP_ABORT] = "abort",
	[SKIP_IN_TX] = "in_tx",
	[SKIP_EMPTY] = "empty",
	[SKIP_KERNEL] = "kernel",
	[SKIP_NO_MAPPING] = "no_mapping",
	[SKIP_NOT_FOUND] = "not_found",
	[SKIP_MISMATCH] = "build_id_mismatch",
	[SKIP_UNUSABLE] = "unusable",
	[SKIP_OUTSIDE] = "outside",
	[SKIP_CROSS] = "cross_dso",
	[SKIP_OTHER_DSO] = "other_dso",
	[SKIP_REVERSED] = "reversed",
};

/* "path (build-id ab12...)" of the first few DSOs in @state. */
static void list_dsos(const struct resolver *s, enum dso_state state,
		      FILE *f)
{
	size_t i, n = 0, shown = 0;

	for (i = 0; i < dso_count(s->reg); i++)
		n += dso_at(s->reg, i)->state == state;
	for (i = 0; i < dso_count(s->reg) && shown < 3; i++) {
		const struct dso *d = dso_at(s->reg, i);
		char hex[BR_BUILD_ID_HEX];

		if (d->state != state)
			continue;
		br_build_id_hex(d->build_id, d->build_id_size, hex);
		fprintf(f, "%s%s%s%s%s", shown ? ", " : " (", d->path,
			d->build_id_size ? " build-id " : "",
			d->build_id_size ? hex : "", "");
		shown++;
	}
	if (n > shown)
		fprintf(f, " and %zu more", n - shown);
	if (shown)
		fputc(')', f);
}

void summary_print(FILE *f, const struct resolver *s, const char *what,
		   size_t nr_done)
{
	const struct resolver_stats *st = &s->st;
	size_t i;
	int k;

	for (i = 0; i < dso_count(s->reg); i++) {
		const struct dso *d = dso_at(s->reg, i);

		if (d->state == DSO_READY && !d->kernel &&
		    d->bin.symsrc != EB_SYMS_SYMTAB) {
			char hex[BR_BUILD_ID_HEX];

			br_build_id_hex(d->bin.build_id, d->bin.build_id_size,
					 hex);
			fprintf(f, "blockrange: warning: %s: no symbol table%s and no debug file found (%s%s%s; looked in %s/.build-id, %s/.build-id, beside it for its .gnu_debuglink%s): its code outside %s is shown as %s+0xADDR pseudo-symbols\n",
				d->file, d->bin.symsrc == EB_SYMS_DYNSYM ?
				" (only .dynsym)" : "",
				d->bin.build_id_size ? "build-id " : "no build-id",
				d->bin.build_id_size ? hex : "", "",
				s->o.dso.debug_dir ? s->o.dso.debug_dir :
				"/usr/lib/debug", dso_buildid_dir(s->reg),
				s->o.dso.debuginfod && getenv("DEBUGINFOD_URLS") &&
				*getenv("DEBUGINFOD_URLS") ? ", debuginfod" :
				", not debuginfod (DEBUGINFOD_URLS unset)",
				d->bin.symsrc == EB_SYMS_DYNSYM ?
				"its .dynsym symbols" : "symbols",
				d->short_name);
		}
		if (d->state == DSO_MISMATCH)
			fprintf(f, "blockrange: warning: %s; its samples are skipped\n",
				d->why ? d->why : d->path);
		else if (d->state == DSO_UNUSABLE)
			fprintf(f, "blockrange: warning: %s; its samples are skipped\n",
				d->why ? d->why : d->path);
	}
	if (s->exact)
		fprintf(f, "blockrange: exact profile, every taken branch counted: %" PRIu64 " blocks: %" PRIu64 " counted, %zu DSO%s %s; skipped",
			st->blocks, st->counted, nr_done,
			nr_done == 1 ? "" : "s", what);
	else
		fprintf(f, "blockrange: %" PRIu64 " samples, %" PRIu64 " branch records, %" PRIu64 " blocks: %" PRIu64 " counted, %zu DSO%s %s; skipped",
			st->samples, st->entries, st->blocks, st->counted,
			nr_done, nr_done == 1 ? "" : "s", what);
	for (k = 0; k < SKIP_NR; k++) {
		fprintf(f, "%s %" PRIu64 " %s", k ? "," : "",
			st->skipped[k], skip_names[k]);
		if (k == SKIP_NOT_FOUND && st->skipped[k])
			list_dsos(s, DSO_NOT_FOUND, f);
	}
	fputc('\n', f);
}

/* What summary_nothing() says of the blocks skipped for a reason, if more. */
static const char *const nothing_advice[SKIP_NR] = {
	[SKIP_KERNEL] = "are in the kernel; pass --vmlinux FILE or --kallsyms FILE",
	[SKIP_MISMATCH] = "are in binaries whose build-id differs from the recorded one; pass --symfs DIR with the recorded files",
	[SKIP_OTHER_DSO] = "are in DSOs that --dso/--binary left out",
};

void summary_nothing(FILE *f, const struct resolver *s, const char *what)
{
	const struct resolver_stats *st = &s->st;
	int k, worst = -1;

	/* The DSOs left out on purpose explain nothing, unless alone. */
	for (k = 0; k < SKIP_NR; k++)
		if (st->skipped[k] && k != SKIP_OTHER_DSO &&
		    (worst < 0 || st->skipped[k] > st->skipped[worst]))
			worst = k;
	if (worst < 0 && st->skipped[SKIP_OTHER_DSO])
		worst = SKIP_OTHER_DSO;
	fprintf(f, "blockrange: %s: nothing to %s: ", s->name, what);
	if (!st->samples) {
		fputs("expected samples, got none\n", f);
		return;
	}
	if (!st->entries && !st->ips_kernel) {
		fputs("expected samples with branch stacks (perf record -b), got none\n",
		      f);
		return;
	}
	if (worst < 0) {
		fputs("no block and no sample IP in any DSO\n", f);
		return;
	}
	if (worst == SKIP_KERNEL)
		fputs("the ", f);
	fprintf(f, "%" PRIu64 " blocks ", st->skipped[worst]);
	if (worst == SKIP_NOT_FOUND) {
		fputs("are in binaries that were not found", f);
		list_dsos(s, DSO_NOT_FOUND, f);
		fputs("; install them (or their debug packages), or pass --symfs DIR\n",
		      f);
	} else if (nothing_advice[worst]) {
		fprintf(f, "%s\n", nothing_advice[worst]);
	} else {
		fprintf(f, "were skipped as '%s'\n", skip_names[worst]);
	}
}
