/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one JSON writer of the CLI's outputs (annotate --format=json, the
 * data document inside report's page): strings, null, and the figures of
 * libblockrange with two decimals, written to a stdio stream as the
 * caller walks its own structure (objects and arrays are the caller's
 * punctuation).
 */
#ifndef BLOCKRANGE_CLI_OUTPUT_JSON_H
#define BLOCKRANGE_CLI_OUTPUT_JSON_H

#include <stdio.h>

#include <blockrange/blockrange.h>

/* "@s" with '"', '\\' and control characters escaped. */
void json_str(FILE *out, const char *s);

/*
 * The same, with '<', '>' and '&' escaped too (as \u00XX), for a document
 * inside an HTML <script> element: no string can end the element.
 */
void json_str_html(FILE *out, const char *s);

/* json_str(), or null for NULL. */
void json_str_or_null(FILE *out, const char *s);

/*
 * ", \"@key\": " and @f's value times @scale with two decimals, or null
 * when the figure has no value (a division by zero).
 */
void json_fig(FILE *out, const char *key, struct blockrange_fig f,
	      double scale);

#endif /* BLOCKRANGE_CLI_OUTPUT_JSON_H */
