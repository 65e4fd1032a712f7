/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The manual pages of the subcommands, rendered as text at build time
 * (userspace/man/embed.sh) from the same sources `make install` installs as
 * blockrange-NAME(1), so that `blockrange help NAME` prints the page even
 * when nothing is installed.
 */
#ifndef BLOCKRANGE_CLI_BUILTIN_MANPAGES_H
#define BLOCKRANGE_CLI_BUILTIN_MANPAGES_H

/**
 * struct cli_page - one rendered page
 * @name: the subcommand ("annotate" for blockrange-annotate(1))
 * @text: the page as `man` shows it in 80 columns, without bold or underline
 */
struct cli_page {
	const char *name;
	const char *text;
};

/* Every page, ended by an entry whose name is NULL. */
extern const struct cli_page cli_pages[];

/* The page of subcommand @name, or NULL if it has none. */
const char *cli_page_text(const char *name);

#endif /* BLOCKRANGE_CLI_BUILTIN_MANPAGES_H */
