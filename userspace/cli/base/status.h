/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The return convention of the CLI's internal functions, in every layer
 * below builtin/: 0 for success, else one of the negative BR_E* values
 * below, with a one-line message in the caller's error buffer (the
 * `char *err, size_t errsz` pair of the function) that says which file,
 * where, and what was expected.  Event callbacks (input/events.h) return
 * the same values, and a reader passes a callback's value on unchanged.
 *
 * Only builtin/ turns them into exit statuses (cli_status(), builtin/cli.h):
 * BR_EINPUT is exit status 2, BR_ENOMEM 3, BR_ESYS and BR_EUSAGE are 1.
 *
 * The library keeps its own convention (0 or -errno, blockrange.h); a CLI
 * function that calls it translates (-ENOMEM: BR_ESYS, see below;
 * -EOVERFLOW, a sum past 2^64 - 1: BR_EINPUT).
 *
 * Not errors: a function that answers a question (an index, a size, a
 * decodable instruction) says "none" with -1 and writes no message.
 * builtin/ has its own values for what is not an error of a layer: the
 * option parser's results (enum cli_parse_result, builtin/options.h).
 */
#ifndef BLOCKRANGE_CLI_BASE_STATUS_H
#define BLOCKRANGE_CLI_BASE_STATUS_H

enum br_status {
	BR_OK = 0,
	/*
	 * Malformed input: a perf-script line, a perf.data record, a
	 * .brprof, a binary whose content is unusable, counts whose sums
	 * pass 2^64 - 1, an input with nothing to work on.
	 */
	BR_EINPUT = -1,
	/*
	 * The system: a file that cannot be opened, read or written, a
	 * thread or a process that cannot be started.  Also out of memory
	 * where the readers, the collector and the writers report it: they
	 * still return BR_ESYS for it (input/par.c orders the errors of its
	 * threads by that value).
	 */
	BR_ESYS = -2,
	/* Options that do not go with this input (a usage error). */
	BR_EUSAGE = -3,
	/*
	 * Not an error but a reader's answer to input/par.c, which cuts
	 * perf script text into pieces: a piece ended inside a sample (its
	 * count or call-stack lines are still waiting for it).
	 */
	BR_EPARTIAL = -4,
	/*
	 * Out of memory: an allocation failed, or a size to allocate would
	 * pass SIZE_MAX (br_grow(), builtin/).
	 */
	BR_ENOMEM = -5,
};

/* Room for any message a layer writes into an error buffer. */
#define BR_ERR_MAX 4608

#endif /* BLOCKRANGE_CLI_BASE_STATUS_H */
