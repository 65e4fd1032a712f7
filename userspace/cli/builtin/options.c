// SPDX-License-Identifier: GPL-2.0
/* The subcommands' option parser.  See options.h. */
#define _GNU_SOURCE

#include "builtin/options.h"

#include <stdlib.h>
#include <string.h>

#include "builtin/cli.h"

/* The state of one parse. */
struct parse {
	const struct cli_cmd *cmd;
	const struct cli_opt *opts;
	void *args;
	struct cli_parsed *p;
	bool help;		/* the help was printed */
	uint64_t given;		/* bit i: option i of the table was given */
};

/* The length of @arg up to its '=' (an option as typed, for messages). */
static int typed_len(const char *arg)
{
	const char *eq = strchr(arg, '=');

	return eq ? (int)(eq - arg) : (int)strlen(arg);
}

static int refused(const struct parse *ps, const char *arg)
{
	return cli_usage(ps->cmd, "%s does not take option '%.*s'",
			 ps->cmd->name, typed_len(arg), arg);
}

static int needs_value(const struct parse *ps, const char *arg)
{
	return cli_usage(ps->cmd, "option '%.*s' needs a value",
			 typed_len(arg), arg);
}

static int bad_value(const struct parse *ps, const struct cli_opt *o,
		     const char *value)
{
	return cli_usage(ps->cmd, "expected %s, got '%s'", o->expect, value);
}

/* Apply option @o (with @value if it takes one): 0 or an exit status. */
static int apply(struct parse *ps, const struct cli_opt *o,
		 const char *value)
{
	char *field = (char *)ps->args + o->off;
	uint64_t n;
	size_t i;
	int r;

	ps->p->marks |= o->mark;
	if (o - ps->opts < 64)
		ps->given |= 1ull << (o - ps->opts);
	switch (o->kind) {
	case CLI_OPT_HELP:
		cli_help(ps->cmd);
		ps->help = true;
		return 0;
	case CLI_OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case CLI_OPT_SET:
		*(int *)field = o->val;
		return 0;
	case CLI_OPT_STRING:
		*(const char **)field = value;
		return 0;
	case CLI_OPT_U64:
		if (!cli_parse_u64(value, &n) || n < o->min || n > o->max)
			return bad_value(ps, o, value);
		*(uint64_t *)field = n;
		return 0;
	case CLI_OPT_WORD:
		for (i = 0; o->words[i]; i++) {
			if (!strcmp(o->words[i], value)) {
				*(int *)field = (int)i;
				return 0;
			}
		}
		return bad_value(ps, o, value);
	case CLI_OPT_CALL:
		r = o->call(field, value);
		if (r == BR_EUSAGE)
			return bad_value(ps, o, value);
		return r ? cli_fail(cli_status(r), "out of memory") : 0;
	}
	return 0;
}

/*
 * The option of long name @name (@len bytes): an exact match, else the one
 * option it is a prefix of; NULL for none or several.
 */
static const struct cli_opt *by_name(const struct cli_opt *opts,
				     const char *name, size_t len)
{
	const struct cli_opt *o, *found = NULL;
	size_t nr = 0;

	for (o = opts; o->name; o++) {
		if (strncmp(o->name, name, len))
			continue;
		if (!o->name[len])
			return o;
		found = o;
		nr++;
	}
	return nr == 1 ? found : NULL;
}

static const struct cli_opt *by_letter(const struct cli_opt *opts, char c)
{
	const struct cli_opt *o;

	for (o = opts; o->name; o++)
		if (o->letter && o->letter == c)
			return o;
	return NULL;
}

/*
 * argv[*@i], "--NAME[=VALUE]"; its value may be the next argument, which
 * *@i then passes.  0 or an exit status.
 */
static int long_option(struct parse *ps, int argc, char **argv, int *i)
{
	const char *arg = argv[*i], *name = arg + 2;
	const char *eq = strchr(name, '=');
	const struct cli_opt *o;

	o = by_name(ps->opts, name, eq ? (size_t)(eq - name) : strlen(name));
	if (!o || (eq && !cli_opt_takes_value(o)))
		return refused(ps, arg);
	if (!cli_opt_takes_value(o))
		return apply(ps, o, NULL);
	if (eq)
		return apply(ps, o, eq + 1);
	if (*i + 1 >= argc)
		return needs_value(ps, arg);
	return apply(ps, o, argv[++*i]);
}

/*
 * argv[*@i], "-xyz": letters without a value, then perhaps one whose value
 * is the rest of the word or the next argument.  0 or an exit status.
 */
static int short_options(struct parse *ps, int argc, char **argv,
			 int *i)
{
	const char *arg = argv[*i], *c;
	const struct cli_opt *o;
	int r;

	for (c = arg + 1; *c; c++) {
		o = by_letter(ps->opts, *c);
		if (!o)
			return cli_usage(ps->cmd, "%s does not take option '-%c'",
					 ps->cmd->name, *c);
		if (cli_opt_takes_value(o)) {
			if (c[1])
				return apply(ps, o, c + 1);
			if (*i + 1 >= argc)
				return needs_value(ps, arg);
			return apply(ps, o, argv[++*i]);
		}
		r = apply(ps, o, NULL);
		if (r || ps->help)
			return r;
	}
	return 0;
}

/*
 * The end of the options at argv[@i]: where the operands are, or what is
 * missing.
 */
static int operands(const struct parse *ps, int argc, char **argv, int i,
		    int nr_before)
{
	const struct cli_cmd *cmd = ps->cmd;
	struct cli_parsed *p = ps->p;
	const struct cli_opt *o;

	if (cmd->operands == CLI_OPERANDS_NONE && i < argc)
		return cli_usage(cmd, "unexpected argument '%s'", argv[i]);
	for (o = ps->opts; o->name; o++)
		if (o->needed && !(ps->given & (1ull << (o - ps->opts))))
			return cli_usage(cmd, "%s needs %s", cmd->name, o->needed);
	p->first = i;
	p->end = argc;
	if (cmd->operands == CLI_OPERANDS_ANY) {
		/* those met between the options are argv[1] on; these follow */
		p->first = 1;
		p->end = 1 + nr_before;
		while (i < argc)
			argv[p->end++] = argv[i++];
	}
	if (cmd->operands_needed && p->first >= p->end)
		return cli_usage(cmd, "%s needs %s", cmd->name,
				 cmd->operands_needed);
	return 0;
}

enum cli_parse_result cli_parse_options(const struct cli_cmd *cmd, int argc,
					char **argv, void *args,
					struct cli_parsed *p)
{
	struct parse ps = { cmd, cmd->options, args, p, false, 0 };
	int i, r = 0, nr = 0;

	memset(p, 0, sizeof(*p));
	for (i = 1; !r && !ps.help && i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !arg[1]) {
			if (cmd->operands != CLI_OPERANDS_ANY)
				break;
			/* argv[1 + nr] was read already: the operand moves there */
			argv[1 + nr++] = argv[i];
			continue;
		}
		if (arg[1] == '-')
			r = long_option(&ps, argc, argv, &i);
		else
			r = short_options(&ps, argc, argv, &i);
	}
	if (!r && !ps.help)
		r = operands(&ps, argc, argv, i, nr);
	if (r || ps.help) {
		p->status = r;
		return CLI_PARSE_EXIT;
	}
	return CLI_PARSE_RUN;
}

int cli_strings_add(void *field, const char *value)
{
	struct cli_strings *s = field;
	const char **v = realloc(s->v, (s->nr + 1) * sizeof(*v));

	if (!v)
		return BR_ENOMEM;
	v[s->nr++] = value;
	s->v = v;
	return 0;
}

void cli_strings_free(struct cli_strings *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = 0;
}
