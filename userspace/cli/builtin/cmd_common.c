// SPDX-License-Identifier: GPL-2.0
/* Options shared by the profile-reading subcommands.  See cmd_common.h. */
#define _GNU_SOURCE

#include "builtin/cmd_common.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "collect/annot.h"
#include "input/input.h"
#include "input/par.h"
#include "output/progress.h"
#include "output/summary.h"

void cmd_common_init(struct cmd_common *c)
{
	memset(c, 0, sizeof(*c));
	c->input = "perf.data";
	c->progress = -1;
}

void cmd_common_free(struct cmd_common *c)
{
	cli_strings_free(&c->dsos);
	cli_strings_free(&c->symbols);
}

int cmd_run(const struct cli_cmd *cmd, int argc, char **argv, void *args,
	    struct cmd_common *c,
	    int (*work)(const struct cli_cmd *cmd, void *args))
{
	struct cli_parsed p;
	int r;

	if (cli_parse_options(cmd, argc, argv, args, &p) == CLI_PARSE_RUN)
		r = work(cmd, args);
	else
		r = p.status;
	cmd_common_free(c);
	return r;
}

int cmd_dso_or_binary(const struct cli_cmd *cmd, const struct cmd_common *c)
{
	if (c->binary && c->dsos.nr)
		return cli_usage(cmd, "%s takes --dso NAME or --binary BIN, not both",
				 cmd->name);
	return 0;
}

void cmd_resolver_opts(const struct cmd_common *c, struct resolver_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->dso.symfs = c->symfs;
	o->dso.buildid_dir = c->buildid_dir;
	o->dso.debug_dir = c->debug_dir;
	o->dso.vmlinux = c->vmlinux;
	o->dso.kallsyms = c->kallsyms;
	o->dso.debuginfod = !c->no_debuginfod;
	o->dso.source = c->source;
	o->dso.threads = c->tree ? 1 : cmd_jobs(c);
	o->binary = c->binary;
	o->dsos = c->dsos.v;
	o->nr_dsos = c->dsos.nr;
}

int cmd_annot_init(const struct cmd_common *c, struct annot *a,
		   const struct resolver_opts *so, const struct annot_cfg *cfg)
{
	char err[BR_ERR_MAX];
	int r = annot_init(a, cli_input_name(c->input), so, cfg, err,
			   sizeof(err));

	return r ? cli_fail(cli_status(r), "%s", err) : 0;
}

int cmd_annot_open(const struct cmd_common *c, unsigned parts,
		   struct annot *a)
{
	struct resolver_opts so;
	struct annot_cfg cfg;

	cmd_resolver_opts(c, &so);
	cmd_annot_cfg(c, parts, &cfg);
	return cmd_annot_init(c, a, &so, &cfg);
}

int cmd_load(const struct cmd_common *c, unsigned parts, struct annot *a,
	     const char *done, const char *verb)
{
	const struct cli_strings *sy = &c->symbols;
	int r = cmd_annot_open(c, parts, a);

	if (r)
		return r;
	r = cmd_check_symbols(c, a, sy->v, sy->nr);
	if (!r)
		r = cmd_collect(c, a);
	if (!r) {
		summary_print(stderr, &a->s, done, annot_nr_dsos(a));
		if (!annot_nr_dsos(a) && !annot_nr_profiles(a) && !sy->nr) {
			summary_nothing(stderr, &a->s, verb);
			r = CLI_EXIT_INPUT;
		}
	}
	if (r)
		annot_free(a);
	return r;
}

void cmd_annot_cfg(const struct cmd_common *c, unsigned parts,
		   struct annot_cfg *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->parts = parts;
	cfg->engine = c->tree ? ANNOT_ENGINE_TREE : ANNOT_ENGINE_BATCH;
}

unsigned cmd_jobs(const struct cmd_common *c)
{
	return c->jobs ? (unsigned)c->jobs : par_default_jobs();
}

bool cmd_progress(const struct cmd_common *c)
{
	return c->progress < 0 ? isatty(STDERR_FILENO) : c->progress;
}

const struct par_progress *cmd_progress_of(const struct cmd_common *c,
					   struct par_progress *pr,
					   struct progress *prog)
{
	if (!cmd_progress(c))
		return NULL;
	progress_init(prog, stderr);
	pr->show = progress_show;
	pr->arg = prog;
	return pr;
}

int cmd_check_symbols(const struct cmd_common *c, const struct annot *a,
		      const char *const *symbols, size_t nr_symbols)
{
	size_t i;

	for (i = 0; a->s.bin_dso && i < nr_symbols; i++)
		if (!eb_sym_by_name(&a->s.bin_dso->bin, symbols[i]))
			return cli_fail(CLI_EXIT_INPUT,
					"expected a function symbol of %s for --symbol, got '%s'",
					c->binary, symbols[i]);
	return 0;
}

int cmd_collect(const struct cmd_common *c, struct annot *a)
{
	struct input_opts io = { .skip_bad = c->skip_bad };
	struct input_stats st;
	struct par_consumer pc;
	struct par_progress pr;
	struct progress prog;
	char err[BR_ERR_MAX];
	int r;

	annot_par_consumer(a, &pc);
	r = par_collect(c->input, &io,
			a->cfg.engine == ANNOT_ENGINE_TREE ? 1 : cmd_jobs(c),
			cmd_progress_of(c, &pr, &prog), &pc, &st, err,
			sizeof(err));
	if (r)
		return cli_fail(cli_status(r), "%s", err);
	if (c->skip_bad && st.format != INPUT_BRPROF)
		fprintf(stderr, "blockrange: skipped %lu malformed line%s\n",
			(unsigned long)st.ps.bad_lines,
			st.ps.bad_lines == 1 ? "" : "s");
	return 0;
}
