// SPDX-License-Identifier: GPL-2.0
/* The JSON writer.  See json.h. */
#include "output/json.h"

#include <stdbool.h>

static void str(FILE *out, const char *s, bool html)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20 || (html && (c == '<' || c == '>' || c == '&')))
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

void json_str(FILE *out, const char *s)
{
	str(out, s, false);
}

void json_str_html(FILE *out, const char *s)
{
	str(out, s, true);
}

void json_str_or_null(FILE *out, const char *s)
{
	if (s)
		json_str(out, s);
	else
		fputs("null", out);
}

void json_fig(FILE *out, const char *key, struct blockrange_fig f,
	      double scale)
{
	fprintf(out, ", \"%s\": ", key);
	if (f.status == BLOCKRANGE_FIG_OK)
		fprintf(out, "%.2f", f.value * scale);
	else
		fputs("null", out);
}
