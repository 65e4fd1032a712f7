/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one option parser of the subcommands.  Each subcommand declares its
 * options in a table (struct cli_opt, NULL-terminated, its cli_cmd's
 * @options): the long name, the short letter, what the option does with
 * its value (set a flag, store a string, check a number's range, pick one
 * of some words, call a function) and where in the subcommand's arguments
 * (an offset into the structure it passes to cli_parse_options()) the
 * result goes.
 *
 * The command line is read as getopt_long() reads it:
 *   --name VALUE, --name=VALUE, and any unambiguous prefix of a name;
 *   -x VALUE, -xVALUE, and letters of options without a value together
 *   (-hx); "--" ends the options; "-" alone is an argument.
 * What the subcommand does with arguments other than options is its
 * cli_cmd's @operands (enum cli_operands).
 *
 * The messages, each on stderr after "blockrange: " and followed by the
 * subcommand's synopsis (cli_usage()), exit status CLI_EXIT_USAGE:
 *   NAME does not take option '--bogus'   (also '-x'; a prefix of several
 *                                          names, or a value given to an
 *                                          option that takes none)
 *   option '--input' needs a value        (as typed: '-i', '--inp')
 *   expected EXPECT, got 'VALUE'          (a value the option refuses)
 *   unexpected argument 'WORD'            (CLI_OPERANDS_NONE)
 * and "out of memory" (no synopsis, CLI_EXIT_NOMEM) when a callback's
 * allocation fails.  -h and --help print the help (cli_help()).
 */
#ifndef BLOCKRANGE_CLI_OPTIONS_H
#define BLOCKRANGE_CLI_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cli_cmd;

/* What an option does; the first three take no value, the others one. */
enum cli_opt_kind {
	CLI_OPT_HELP = 1,	/* print the help; the subcommand exits 0 */
	CLI_OPT_FLAG,		/* the bool at @off becomes true */
	CLI_OPT_SET,		/* the int at @off becomes @val */
	CLI_OPT_STRING,		/* the const char * at @off points to the value */
	CLI_OPT_U64,		/* the uint64_t at @off: a number (decimal or
				 * 0x hex, cli_parse_u64()) from @min to @max */
	CLI_OPT_WORD,		/* the int at @off: the index of the value in
				 * @words */
	CLI_OPT_CALL,		/* @call(field at @off, value) */
};

/**
 * struct cli_opt - one option of a subcommand
 * @name:   the long name, without "--"; NULL ends a table
 * @letter: the short letter, or 0
 * @kind:   what it does (enum cli_opt_kind)
 * @off:    where the result goes: offsetof() into the subcommand's
 *          arguments
 * @mark:   bits ORed into cli_parsed.marks when the option is given (what
 *          a subcommand must know beyond the value: that it was given)
 * @expect: what a good value looks like, for "expected @expect, got
 *          'VALUE'" (CLI_OPT_U64, CLI_OPT_WORD, CLI_OPT_CALL)
 * @min:    CLI_OPT_U64: the smallest value taken
 * @max:    CLI_OPT_U64: the largest value taken
 * @words:  CLI_OPT_WORD: the values taken, NULL-terminated
 * @val:    CLI_OPT_SET: the value stored
 * @call:   CLI_OPT_CALL: takes the value; returns 0, BR_EUSAGE (the value
 *          is refused: the parser says what it expected) or BR_ENOMEM
 * @needed: NULL, or the subcommand cannot go without the option: "NAME
 *          needs @needed" when it is not given
 *
 * A table has at most 64 options.
 */
struct cli_opt {
	const char *name;
	char letter;
	enum cli_opt_kind kind;
	size_t off;
	unsigned mark;
	const char *expect;
	uint64_t min, max;
	const char *const *words;
	int val;
	int (*call)(void *field, const char *value);
	const char *needed;
};

/* Does option @o take a value? */
static inline bool cli_opt_takes_value(const struct cli_opt *o)
{
	return o->kind >= CLI_OPT_STRING;
}

/* The arguments of a subcommand that are not options. */
enum cli_operands {
	/* none: the first one is a usage error ("unexpected argument") */
	CLI_OPERANDS_NONE = 0,
	/* the first one and everything after it (record's PROGRAM ARGS) */
	CLI_OPERANDS_REST,
	/* any number, between the options too (merge's files) */
	CLI_OPERANDS_ANY,
};

/* Table entries.  T is the subcommand's arguments, F a field of it. */
#define CLI_OPT_HELP_ENTRY \
	{ .name = "help", .letter = 'h', .kind = CLI_OPT_HELP }
#define CLI_FLAG(N, L, T, F) \
	{ .name = (N), .letter = (L), .kind = CLI_OPT_FLAG, \
	  .off = offsetof(T, F) }
#define CLI_SET(N, T, F, V) \
	{ .name = (N), .kind = CLI_OPT_SET, .off = offsetof(T, F), .val = (V) }
#define CLI_STRING(N, L, T, F) \
	{ .name = (N), .letter = (L), .kind = CLI_OPT_STRING, \
	  .off = offsetof(T, F) }
#define CLI_U64(N, L, T, F, LO, HI, EXPECT) \
	{ .name = (N), .letter = (L), .kind = CLI_OPT_U64, \
	  .off = offsetof(T, F), .min = (LO), .max = (HI), .expect = (EXPECT) }
#define CLI_WORD(N, T, F, EXPECT, ...) \
	{ .name = (N), .kind = CLI_OPT_WORD, .off = offsetof(T, F), \
	  .expect = (EXPECT), \
	  .words = (const char *const[]){ __VA_ARGS__, NULL } }
#define CLI_CALL(N, L, T, F, FN, EXPECT) \
	{ .name = (N), .letter = (L), .kind = CLI_OPT_CALL, \
	  .off = offsetof(T, F), .call = (FN), .expect = (EXPECT) }
/* The end of every table: -h and --help, then the terminator. */
#define CLI_OPT_HELP_END CLI_OPT_HELP_ENTRY, { .name = NULL }

/* What cli_parse_options() says to do next. */
enum cli_parse_result {
	CLI_PARSE_RUN = 1,	/* the options are in place: run */
	CLI_PARSE_EXIT,		/* exit with cli_parsed.status: 0 after the
				 * help, else after the message */
};

/**
 * struct cli_parsed - what cli_parse_options() found besides the options
 * @status: CLI_PARSE_EXIT: the subcommand's exit status
 * @first:  the operands are argv[@first] to argv[@end - 1]
 * @end:    (CLI_OPERANDS_ANY moves them there, in their order)
 * @marks:  the @mark bits of every option given
 */
struct cli_parsed {
	int status;
	int first;
	int end;
	unsigned marks;
};

/*
 * Parse argv[1] to argv[@argc - 1] of subcommand @cmd against its table
 * @cmd->options into @args (the structure the table's offsets are of), in
 * the order given (a later option overrides an earlier one); the first
 * error stops it, after its message.  Then, in this order: an argument
 * where @cmd takes none, an option of @needed not given, no operand where
 * @cmd->operands_needed says what they are.
 */
enum cli_parse_result cli_parse_options(const struct cli_cmd *cmd, int argc,
					char **argv, void *args,
					struct cli_parsed *p);

/* A growing list of strings (the values of a repeatable option). */
struct cli_strings {
	const char **v;
	size_t nr;
};

/*
 * A CLI_OPT_CALL function: append @value to the struct cli_strings
 * @field.  0 or BR_ENOMEM.
 */
int cli_strings_add(void *field, const char *value);
void cli_strings_free(struct cli_strings *s);

#endif /* BLOCKRANGE_CLI_OPTIONS_H */
