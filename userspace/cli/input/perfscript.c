// SPDX-License-Identifier: GPL-2.0
/*
 * perf script brstack reader.  See perfscript.h for the grammar and the
 * error contract.
 */
#define _POSIX_C_SOURCE 200809L

#include "input/perfscript.h"

#include "base/grow.h"
#include "base/status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define GOT_MAX 48

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/*
 * @n bytes of @s into @d (NUL-terminated, truncated to @dsz) with every
 * byte outside printable ASCII and tab written as "\r" or "\xNN", so that a
 * message stays one line of text whatever the input holds.
 */
static void quote(char *d, size_t dsz, const char *s, size_t n)
{
	size_t o = 0, i;

	for (i = 0; i < n && o + 5 <= dsz; i++) {
		unsigned char c = (unsigned char)s[i];

		if ((c >= 0x20 && c < 0x7f) || c == '\t')
			d[o++] = (char)c;
		else if (c == '\r')
			o += (size_t)snprintf(d + o, dsz - o, "\\r");
		else
			o += (size_t)snprintf(d + o, dsz - o, "\\x%02x", c);
	}
	d[o] = '\0';
}

/* "expected WHAT, got 'TEXT'" with TEXT cut to GOT_MAX bytes and quoted. */
static int fail(char *err, size_t errsz, const char *got, size_t gotlen,
		const char *fmt, ...)
{
	char what[256], text[GOT_MAX * 4 + 1];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	quote(text, sizeof(text), got, gotlen > GOT_MAX ? GOT_MAX : gotlen);
	snprintf(err, errsz, "expected %s, got '%s%s'", what, text,
		 gotlen > GOT_MAX ? "..." : "");
	return BR_EINPUT;
}

/* Parse exactly [s, e) as hex (1..16 digits); false if not. */
static bool parse_hex(const char *s, const char *e, uint64_t *v)
{
	uint64_t x = 0;

	if (s == e || e - s > 16)
		return false;
	for (; s < e; s++) {
		int d = hexval(*s);

		if (d < 0)
			return false;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return true;
}

/* Parse exactly [s, e) as unsigned decimal <= max. */
static bool parse_dec(const char *s, const char *e, uint64_t max, uint64_t *v)
{
	uint64_t x = 0;

	if (s == e)
		return false;
	for (; s < e; s++) {
		if (!is_digit(*s))
			return false;
		if (x > (max - (uint64_t)(*s - '0')) / 10)
			return false;
		x = x * 10 + (uint64_t)(*s - '0');
	}
	*v = x;
	return true;
}

/* Hex with an optional 0x prefix (the sample IP, frames, pgoff). */
static bool parse_hex_opt0x(const char *s, const char *e, uint64_t *v)
{
	if (e - s > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	return parse_hex(s, e, v);
}

static bool all_digits(const char *s, const char *e)
{
	if (s == e)
		return false;
	for (; s < e; s++)
		if (!is_digit(*s))
			return false;
	return true;
}

/* "PID/TID" with optional minus signs. */
static bool is_pid_tid(const char *s, const char *e, long *pid, long *tid)
{
	const char *slash = memchr(s, '/', (size_t)(e - s));
	const char *a = s, *b;
	uint64_t p, t;
	bool np = false, nt = false;

	if (!slash)
		return false;
	b = slash + 1;
	if (a < slash && *a == '-') {
		np = true;
		a++;
	}
	if (b < e && *b == '-') {
		nt = true;
		b++;
	}
	if (!parse_dec(a, slash, 0x7fffffff, &p) ||
	    !parse_dec(b, e, 0x7fffffff, &t))
		return false;
	*pid = np ? -(long)p : (long)p;
	*tid = nt ? -(long)t : (long)t;
	return true;
}

struct tok {
	const char *s;
	const char *e;
};

static size_t toklen(const struct tok *t)
{
	return (size_t)(t->e - t->s);
}

static bool tok_starts(const struct tok *t, const char *prefix)
{
	size_t n = strlen(prefix);

	return toklen(t) >= n && !memcmp(t->s, prefix, n);
}

/*
 * One branch address: [buildid:]0xHEX[(dso)].  On success *pp points after
 * it.  @what names the field for messages.
 */
static int parse_addr(const char **pp, const char *e, const struct tok *t,
		      unsigned idx, const char *what, uint64_t *v,
		      char *err, size_t errsz)
{
	const char *p = *pp, *h;

	/* Optional build-id prefix: hex digits and a colon. */
	for (h = p; h < e && hexval(*h) >= 0; h++)
		;
	if (h < e && *h == ':' && h > p) {
		if (h + 1 < e && h[1] == '0' && h + 2 < e && h[2] == 'x')
			p = h + 1;
	}
	if (e - p < 2 || p[0] != '0' || p[1] != 'x')
		return fail(err, errsz, t->s, toklen(t),
			    "a %s address '0x<hex>' in branch entry %u",
			    what, idx);
	p += 2;
	for (h = p; h < e && hexval(*h) >= 0; h++)
		;
	if (h == p)
		return fail(err, errsz, t->s, toklen(t),
			    "hex digits after '0x' in the %s of branch entry %u",
			    what, idx);
	if (h - p > 16)
		return fail(err, errsz, t->s, toklen(t),
			    "a 64-bit %s address (at most 16 hex digits) in branch entry %u",
			    what, idx);
	if (h < e && *h != '/' && *h != '(')
		return fail(err, errsz, t->s, toklen(t),
			    "only hex digits in the %s address of branch entry %u",
			    what, idx);
	parse_hex(p, h, v);
	p = h;
	if (p < e && *p == '(') {
		const char *close = memchr(p, ')', (size_t)(e - p));

		if (!close)
			return fail(err, errsz, t->s, toklen(t),
				    "')' closing the dso name of the %s in branch entry %u",
				    what, idx);
		p = close + 1;
	}
	*pp = p;
	return 0;
}

static bool field_is(const char *s, const char *e, const char *lit)
{
	size_t n = strlen(lit);

	return (size_t)(e - s) == n && !memcmp(s, lit, n);
}

static bool upper_ident(const char *s, const char *e)
{
	for (; s < e; s++)
		if (!((*s >= 'A' && *s <= 'Z') || is_digit(*s) || *s == '_'))
			return false;
	return true;
}

/* Value of each hex digit character, 16 for any other character. */
static const unsigned char hexdig[256] = {
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 16, 16, 16, 16, 16, 16,
	16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 10, 11, 12, 13, 14, 15, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
	16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16, 16,
};

/*
 * "0x" and 1..16 hex digits ending at '/' or @e, read in one pass; the
 * address forms it does not take (build-id prefix, "(dso)" suffix, errors)
 * are left to parse_addr().  On success *pp points after the digits.
 */
static bool fast_addr(const char **pp, const char *e, uint64_t *v)
{
	const char *p = *pp, *s;
	uint64_t x = 0;
	unsigned c;

	if (e - p < 3 || p[0] != '0' || p[1] != 'x')
		return false;
	p += 2;
	s = p;
	while (p < e && (c = hexdig[(unsigned char)*p]) < 16) {
		x = x << 4 | c;
		p++;
	}
	if (p == s || p - s > 16 || (p < e && *p != '/'))
		return false;
	*v = x;
	*pp = p;
	return true;
}

/*
 * One pass over the common form of an entry, FROM/TO[/PRED/INTX/ABORT/CYCLES
 * [/TYPE[/SPEC]]] with plain "0x" addresses.  Returns false, having possibly
 * written to @en, for anything else: parse_entry() then reads the entry
 * again and takes or reports it exactly as before.
 */
static bool fast_entry(const char *p, const char *e, struct ps_entry *en)
{
	uint64_t cyc = 0;
	const char *s;
	unsigned nf;

	if (!fast_addr(&p, e, &en->from) || p == e)
		return false;
	p++;
	if (!fast_addr(&p, e, &en->to))
		return false;
	en->cycles = 0;
	en->predicted = false;
	en->mispredicted = false;
	en->not_taken = false;
	en->in_tx = false;
	en->abort = false;
	if (p == e)
		return true;	/* FROM/TO only */
	p++;
	/* PRED */
	if (p == e || (*p != 'P' && *p != 'M' && *p != '-'))
		return false;
	en->predicted = *p == 'P';
	en->mispredicted = *p == 'M';
	p++;
	if (p < e && *p == 'N') {
		en->not_taken = true;
		p++;
	}
	if (e - p < 5 || p[0] != '/')
		return false;
	/* INTX, ABORT */
	if (p[1] == 'X')
		en->in_tx = true;
	else if (p[1] != '-')
		return false;
	if (p[2] != '/')
		return false;
	if (p[3] == 'A')
		en->abort = true;
	else if (p[3] != '-')
		return false;
	if (p[4] != '/')
		return false;
	p += 5;
	/* CYCLES */
	s = p;
	while (p < e && is_digit(*p)) {
		cyc = cyc * 10 + (uint64_t)(*p - '0');
		if (cyc > 65535)
			return false;
		p++;
	}
	if (p == s)
		return false;
	en->cycles = (uint16_t)cyc;
	/* TYPE (may be empty), SPEC ('-' or a non-empty upper identifier) */
	for (nf = 4; p < e; nf++) {
		if (*p != '/' || nf == 6)
			return false;
		p++;
		if (nf == 5 && p < e && *p == '-') {
			p++;	/* SPEC '-': the entry must end here */
			continue;
		}
		s = p;
		while (p < e && ((*p >= 'A' && *p <= 'Z') || is_digit(*p) ||
				 *p == '_'))
			p++;
		if (nf == 5 && p == s)
			return false;
	}
	return true;
}

static int parse_entry(const struct tok *t, unsigned idx, struct ps_entry *en,
		       char *err, size_t errsz)
{
	const char *p = t->s, *e = t->e;
	const char *f[8], *fe[8];
	unsigned nf = 0;
	uint64_t cyc;

	if (fast_entry(p, e, en))
		return 0;
	memset(en, 0, sizeof(*en));
	if (parse_addr(&p, e, t, idx, "branch source", &en->from, err, errsz))
		return BR_EINPUT;
	if (p == e || *p != '/')
		return fail(err, errsz, t->s, toklen(t),
			    "'/' and the branch target after the source in branch entry %u",
			    idx);
	p++;
	if (parse_addr(&p, e, t, idx, "branch target", &en->to, err, errsz))
		return BR_EINPUT;
	if (p == e)
		return 0;	/* FROM/TO only */
	if (*p != '/')
		return fail(err, errsz, t->s, toklen(t),
			    "'/' after the branch target in branch entry %u",
			    idx);
	p++;
	/* Split the flag fields. */
	for (;;) {
		const char *slash = memchr(p, '/', (size_t)(e - p));

		if (nf == 8)
			break;
		f[nf] = p;
		fe[nf] = slash ? slash : e;
		nf++;
		if (!slash)
			break;
		p = slash + 1;
	}
	if (nf < 4 || nf > 6 || fe[nf - 1] != e)
		return fail(err, errsz, t->s, toklen(t),
			    "2, 6, 7 or 8 '/'-separated fields (FROM/TO[/PRED/INTX/ABORT/CYCLES[/TYPE[/SPEC]]]) in branch entry %u",
			    idx);
	/* PRED: P, M or -, optionally followed by N (not taken). */
	{
		const char *s = f[0], *x = fe[0];

		if (x - s == 2 && s[1] == 'N') {
			en->not_taken = true;
			x--;
		}
		if (x - s != 1 || (*s != 'P' && *s != 'M' && *s != '-'))
			return fail(err, errsz, f[0], (size_t)(fe[0] - f[0]),
				    "prediction flag 'P', 'M' or '-' (optionally followed by 'N') in branch entry %u",
				    idx);
		en->predicted = *s == 'P';
		en->mispredicted = *s == 'M';
	}
	if (field_is(f[1], fe[1], "X"))
		en->in_tx = true;
	else if (!field_is(f[1], fe[1], "-"))
		return fail(err, errsz, f[1], (size_t)(fe[1] - f[1]),
			    "transaction flag 'X' or '-' in branch entry %u",
			    idx);
	if (field_is(f[2], fe[2], "A"))
		en->abort = true;
	else if (!field_is(f[2], fe[2], "-"))
		return fail(err, errsz, f[2], (size_t)(fe[2] - f[2]),
			    "abort flag 'A' or '-' in branch entry %u", idx);
	if (!parse_dec(f[3], fe[3], 65535, &cyc))
		return fail(err, errsz, f[3], (size_t)(fe[3] - f[3]),
			    "a cycle count 0..65535 in branch entry %u", idx);
	en->cycles = (uint16_t)cyc;
	if (nf >= 5 && !upper_ident(f[4], fe[4]))
		return fail(err, errsz, f[4], (size_t)(fe[4] - f[4]),
			    "a branch type (empty or like 'COND', 'UNCOND', 'IND_CALL') in branch entry %u",
			    idx);
	if (nf == 6 && !field_is(f[5], fe[5], "-") &&
	    !(fe[5] > f[5] && upper_ident(f[5], fe[5])))
		return fail(err, errsz, f[5], (size_t)(fe[5] - f[5]),
			    "a speculation outcome ('-' or like 'NON_SPEC_CORRECT_PATH') in branch entry %u",
			    idx);
	return 0;
}

/*
 * Copy [s, e) into the line's string storage at offset *off.  The storage
 * was sized for the whole line by ps_parse_line() and never moves, so
 * earlier strings stay valid.
 */
static const char *store(struct ps_line *l, size_t *off, const char *s,
			 const char *e)
{
	size_t n = (size_t)(e - s);
	char *d;

	if (*off + n + 1 > l->buf_cap)
		return NULL;
	d = l->buf + *off;
	memcpy(d, s, n);
	d[n] = '\0';
	*off += n + 1;
	return d;
}

/* "PID/TID: [0xSTART(0xLEN) @ PGOFF ...]: PROT PATH" after the record name. */
static int parse_mmap(const char *p, const char *e, struct ps_line *out,
		      char *err, size_t errsz)
{
	const char *q, *prot, *prot_e;
	long pid, tid;
	uint64_t v;
	size_t off = 0;

	while (p < e && is_blank(*p))
		p++;
	for (q = p; q < e && !is_blank(*q) && *q != ':'; q++)
		;
	if (q == e || *q != ':' || !is_pid_tid(p, q, &pid, &tid))
		return fail(err, errsz, p, (size_t)(q - p),
			    "'PID/TID:' in the mmap record");
	p = q + 1;
	while (p < e && is_blank(*p))
		p++;
	if (p == e || *p != '[')
		return fail(err, errsz, p, (size_t)(e - p),
			    "'[0xSTART(0xLEN) @ PGOFF ...]' in the mmap record");
	p++;
	for (q = p; q < e && *q != '('; q++)
		;
	if (q - p < 3 || p[0] != '0' || p[1] != 'x' ||
	    !parse_hex(p + 2, q, &v))
		return fail(err, errsz, p, (size_t)(q - p),
			    "the mapping start '0x<hex>' in the mmap record");
	out->mmap.start = v;
	if (q == e)
		return fail(err, errsz, p, (size_t)(e - p),
			    "'(0xLEN)' after the mapping start in the mmap record");
	p = q + 1;
	for (q = p; q < e && *q != ')'; q++)
		;
	if (q == e || q - p < 3 || p[0] != '0' || p[1] != 'x' ||
	    !parse_hex(p + 2, q, &v) || !v)
		return fail(err, errsz, p, (size_t)(q - p),
			    "a non-zero mapping length '0x<hex>)' in the mmap record");
	out->mmap.len = v;
	p = q + 1;
	while (p < e && is_blank(*p))
		p++;
	if (p == e || *p != '@')
		return fail(err, errsz, p, (size_t)(e - p),
			    "'@ PGOFF' after the mapping length in the mmap record");
	p++;
	while (p < e && is_blank(*p))
		p++;
	for (q = p; q < e && !is_blank(*q) && *q != ']'; q++)
		;
	if (!parse_hex_opt0x(p, q, &v))
		return fail(err, errsz, p, (size_t)(q - p),
			    "the file offset (hex) after '@' in the mmap record");
	out->mmap.pgoff = v;
	/* Device, inode, generation or build id: up to "]:". */
	for (p = q; p + 1 < e && !(p[0] == ']' && p[1] == ':'); p++)
		;
	if (p + 1 >= e)
		return fail(err, errsz, q, (size_t)(e - q),
			    "']:' closing the mapping in the mmap record");
	p += 2;
	while (p < e && is_blank(*p))
		p++;
	prot = p;
	while (p < e && !is_blank(*p))
		p++;
	prot_e = p;
	while (p < e && is_blank(*p))
		p++;
	if (prot == prot_e || p == e)
		return fail(err, errsz, prot, (size_t)(e - prot),
			    "'PROT PATH' after the mapping in the mmap record");
	out->mmap.pid = pid;
	out->mmap.prot = store(out, &off, prot, prot_e);
	if (!out->mmap.prot)
		return BR_ESYS;
	out->mmap.path = store(out, &off, p, e);
	if (!out->mmap.path)
		return BR_ESYS;
	out->kind = PS_MMAP;
	return 0;
}

/*
 * First blank (' ' or '\t') in [p, e), or @e: eight bytes at a time while
 * eight remain (a word has a zero byte where it equals the blank pattern),
 * then byte by byte from the word that holds one.
 */
static const char *skip_nonblank(const char *p, const char *e)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t highs = 0x8080808080808080ull;

	while (e - p >= 8) {
		uint64_t w, sp, tab;

		memcpy(&w, p, sizeof(w));
		sp = w ^ (ones * ' ');
		tab = w ^ (ones * '\t');
		if (((sp - ones) & ~sp & highs) | ((tab - ones) & ~tab & highs))
			break;
		p += 8;
	}
	while (p < e && !is_blank(*p))
		p++;
	return p;
}

static bool is_entry_like(const struct tok *t)
{
	long a, b;

	/* "(dso)" of the IP may hold '/' but is not an entry. */
	return t->s[0] != '(' && memchr(t->s, '/', toklen(t)) &&
	       !is_pid_tid(t->s, t->e, &a, &b);
}

/* Time stamp column "SECONDS.MICROS:" */
static bool is_time(const struct tok *t)
{
	const char *s;

	if (toklen(t) < 2 || t->e[-1] != ':')
		return false;
	for (s = t->s; s < t->e - 1; s++)
		if (!is_digit(*s) && *s != '.')
			return false;
	return true;
}

static int parse_sample(struct tok *tk, size_t nt, struct ps_line *out,
			char *err, size_t errsz)
{
	struct ps_sample *smp = &out->sample;
	size_t first_entry = nt, i, h;
	size_t off = 0;

	for (i = 0; i < nt; i++) {
		if (is_entry_like(&tk[i])) {
			first_entry = i;
			break;
		}
	}
	memset(smp, 0, sizeof(*smp));
	smp->pid = -1;
	smp->tid = -1;
	smp->event = "";
	smp->repeat = 1;
	out->ip_present = false;
	h = first_entry;
	if (h > 0 && tk[h - 1].s[0] == '(' && tk[h - 1].e[-1] == ')')
		h--;	/* (dso) of the IP */
	if (h > 0) {
		struct tok *ip = &tk[h - 1];

		if (!parse_hex_opt0x(ip->s, ip->e, &smp->ip))
			return fail(err, errsz, ip->s, toklen(ip),
				    "the sample IP (hex) before the branch stack");
		out->ip_present = true;
		h--;
		if (h > 0 && tk[h - 1].e[-1] == ':' && !is_time(&tk[h - 1])) {
			const char *ev = store(out, &off, tk[h - 1].s,
					       tk[h - 1].e - 1);

			if (!ev)
				return BR_ESYS;
			if (!*ev)
				return fail(err, errsz, tk[h - 1].s,
					    toklen(&tk[h - 1]),
					    "an event name before ':'");
			smp->event = ev;
			h--;
		}
		if (h > 0 && is_time(&tk[h - 1]))
			h--;
		if (h > 0) {
			struct tok *pt = &tk[h - 1];
			uint64_t pid;

			if (is_pid_tid(pt->s, pt->e, &smp->pid, &smp->tid)) {
				h--;
			} else if (parse_dec(pt->s, pt->e, 0x7fffffff, &pid)) {
				smp->pid = (long)pid;
				h--;
			}
		}
		/* Whatever is left is the comm column. */
	}
	if (br_grow_from((void **)&out->ent, &out->ent_cap,
			 nt - first_entry + 1, sizeof(*out->ent), 16))
		return BR_ESYS;
	for (i = first_entry; i < nt; i++) {
		if (parse_entry(&tk[i], (unsigned)(i - first_entry + 1),
				&out->ent[i - first_entry], err, errsz))
			return BR_EINPUT;
	}
	smp->entries = out->ent;
	smp->nr = nt - first_entry;
	out->kind = PS_SAMPLE;
	return 0;
}

/*
 * A hybrid call-stack frame line [@p, @e) (tab-indented): its address;
 * the symbol and "(dso)" that may follow are ignored.
 */
static int parse_frame(const char *p, const char *e, struct ps_line *out,
		       char *err, size_t errsz)
{
	const char *q;

	while (p < e && is_blank(*p))
		p++;
	for (q = p; q < e && !is_blank(*q); q++)
		;
	if (!parse_hex_opt0x(p, q, &out->frame))
		return fail(err, errsz, p, (size_t)(q - p),
			    "a call-stack frame address (hex) on a tab-indented line");
	/*
	 * A sample line indented with a tab would lose its stack here:
	 * branch entries after a frame address are an error.
	 */
	for (p = q; p < e; p = q) {
		while (p < e && is_blank(*p))
			p++;
		for (q = p; q < e && !is_blank(*q); q++)
			;
		if (q - p > 2 && p[0] == '0' && p[1] == 'x' &&
		    memchr(p, '/', (size_t)(q - p)))
			return fail(err, errsz, p, (size_t)(q - p),
				    "only a symbol and '(dso)' after the call-stack frame address on a tab-indented line (sample lines must not start with a tab)");
	}
	out->kind = PS_FRAME;
	return 0;
}

/* The blank-separated tokens of [@p, @e) into *@tk (*@nt); BR_ESYS no memory. */
static int tokenize(const char *p, const char *e, struct tok **tk,
		    size_t *nt)
{
	size_t cap = 0;

	*tk = NULL;
	*nt = 0;
	while (p < e) {
		const char *q = skip_nonblank(p, e);

		if (br_grow_from((void **)tk, &cap, *nt + 1, sizeof(**tk), 64))
			return BR_ESYS;
		(*tk)[*nt].s = p;
		(*tk)[*nt].e = q;
		(*nt)++;
		p = q;
		while (p < e && is_blank(*p))
			p++;
	}
	return 0;
}

/* A tokenized line ending at @e: a PERF_RECORD_* line or a sample. */
static int parse_tokens(struct tok *tk, size_t nt, const char *e,
			struct ps_line *out, char *err, size_t errsz)
{
	size_t i;

	for (i = 0; i < nt && i < 4; i++) {
		if (!tok_starts(&tk[i], "PERF_RECORD_"))
			continue;
		if ((toklen(&tk[i]) == strlen("PERF_RECORD_MMAP2") &&
		     tok_starts(&tk[i], "PERF_RECORD_MMAP2")) ||
		    (toklen(&tk[i]) == strlen("PERF_RECORD_MMAP") &&
		     tok_starts(&tk[i], "PERF_RECORD_MMAP")))
			return parse_mmap(tk[i].e, e, out, err, errsz);
		return 0;	/* COMM, FORK, EXIT, ... */
	}
	return parse_sample(tk, nt, out, err, errsz);
}

int ps_parse_line(const char *line, size_t len, struct ps_line *out,
		  char *err, size_t errsz)
{
	const char *p = line, *e = line + len, *nul;
	struct tok *tk;
	size_t nt;
	int ret;

	out->kind = PS_SKIP;
	/* Room for every string a line can yield (each at most the line). */
	if (br_grow_from((void **)&out->buf, &out->buf_cap, 2 * len + 2, 1,
			 16)) {
		snprintf(err, errsz, "memory for a line");
		return BR_ESYS;
	}
	nul = memchr(line, '\0', len);
	if (nul)
		return fail(err, errsz, line, len,
			    "text without NUL bytes (one at column %zu)",
			    (size_t)(nul - line) + 1);
	while (e > p && (e[-1] == '\r' || is_blank(e[-1])))
		e--;
	if (p == e)
		return 0;
	if (*p == '\t')
		return parse_frame(p, e, out, err, errsz);
	/* Aggregation count: only decimal digits, from column 0. */
	if (all_digits(p, e)) {
		if (!parse_dec(p, e, UINT64_MAX, &out->count))
			return fail(err, errsz, p, (size_t)(e - p),
				    "a repeat count that fits in 64 bits");
		out->kind = PS_COUNT;
		return 0;
	}
	while (p < e && is_blank(*p))
		p++;
	if (*p == ';' || *p == '#' || (e - p >= 2 && p[0] == '/' && p[1] == '/'))
		return 0;
	ret = tokenize(p, e, &tk, &nt);
	if (!ret)
		ret = parse_tokens(tk, nt, e, out, err, errsz);
	free(tk);
	if (ret == BR_ESYS)
		snprintf(err, errsz, "memory for a line");
	return ret;
}

void ps_line_free(struct ps_line *l)
{
	free(l->ent);
	free(l->buf);
	l->ent = NULL;
	l->buf = NULL;
	l->ent_cap = 0;
	l->buf_cap = 0;
}

/* Only blanks and carriage returns (what ps_parse_line() skips). */
static bool is_blank_line(const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (!is_blank(s[i]) && s[i] != '\r')
			return false;
	return true;
}

void ps_reader_init(struct ps_reader *r, const char *name, bool skip_bad,
		    const struct ps_callbacks *cb, struct ps_stats *stats,
		    unsigned long line_base)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->skip_bad = skip_bad;
	r->cb = cb;
	r->stats = stats ? stats : &r->dummy;
	r->lineno = line_base;
}

void ps_reader_free(struct ps_reader *r)
{
	ps_line_free(&r->pl);
	free(r->frames);
	r->frames = NULL;
	r->frames_cap = 0;
}

int ps_reader_line(struct ps_reader *r, const char *line, size_t len,
		   bool newline, char *err, size_t errsz)
{
	struct ps_line *pl = &r->pl;
	const struct ps_callbacks *cb = r->cb;
	char perr[PS_ERR_MAX];
	int ret;
	int x;

	r->lineno++;
	r->stats->lines++;
	r->stats->bytes += len + newline;
	if (newline || is_blank_line(line, len))
		x = ps_parse_line(line, len, pl, perr, sizeof(perr));
	else
		/* Only the last line can lack it: a cut file. */
		x = fail(perr, sizeof(perr), line, len,
			 "a newline at the end of the last line (the input looks cut off)");
	if (x == BR_ESYS) {
		snprintf(err, errsz, "%s:%lu: out of memory", r->name,
			 r->lineno);
		return BR_ESYS;
	}
	if (!x && pl->kind == PS_COUNT && r->have_count) {
		fail(perr, sizeof(perr), line, len,
		     "a sample after the repeat count on line %lu",
		     r->count_line);
		x = BR_EINPUT;
	}
	if (!x && pl->kind == PS_SAMPLE && !pl->ip_present && !r->nframes) {
		fail(perr, sizeof(perr), line, len,
		     "the sample IP before the branch stack");
		x = BR_EINPUT;
	}
	if (x) {
		if (!r->skip_bad) {
			snprintf(err, errsz, "%s:%lu: %s", r->name, r->lineno,
				 perr);
			return BR_EINPUT;
		}
		r->stats->bad_lines++;
		/* A bad sample line consumes the pending state. */
		r->have_count = false;
		r->nframes = 0;
		return 0;
	}
	switch (pl->kind) {
	case PS_SKIP:
		break;
	case PS_COUNT:
		r->have_count = true;
		r->count = pl->count;
		r->count_line = r->lineno;
		break;
	case PS_FRAME:
		if (br_grow_from((void **)&r->frames, &r->frames_cap,
				 r->nframes + 1, sizeof(*r->frames), 32)) {
			snprintf(err, errsz, "%s:%lu: out of memory", r->name,
				 r->lineno);
			return BR_ENOMEM;
		}
		if (!r->nframes)
			r->frame_line = r->lineno;
		r->frames[r->nframes++] = pl->frame;
		break;
	case PS_MMAP:
		r->stats->mmaps++;
		pl->mmap.line = r->lineno;
		if (cb && cb->mmap) {
			ret = cb->mmap(cb->arg, &pl->mmap, err, errsz);
			if (ret)
				return ret;
		}
		break;
	case PS_SAMPLE:
		if (!pl->ip_present)
			pl->sample.ip = r->frames[0];
		pl->sample.hybrid = r->nframes > 0;
		pl->sample.frames = r->frames;
		pl->sample.nframes = r->nframes;
		pl->sample.repeat = r->have_count ? r->count : 1;
		pl->sample.repeat_line = r->have_count ? r->count_line : 0;
		pl->sample.line = r->lineno;
		r->have_count = false;
		r->nframes = 0;
		r->stats->samples++;
		if (cb && cb->sample) {
			ret = cb->sample(cb->arg, &pl->sample, err, errsz);
			if (ret)
				return ret;
		}
		break;
	}
	return 0;
}

int ps_reader_end(struct ps_reader *r, char *err, size_t errsz)
{
	unsigned long at;

	if (!r->have_count && !r->nframes)
		return 0;
	at = r->have_count ? r->count_line : r->frame_line;
	if (!r->skip_bad) {
		snprintf(err, errsz,
			 "%s:%lu: expected a sample after the %s on this line, got end of file",
			 r->name, at,
			 r->have_count ? "repeat count" : "call-stack frames");
		return BR_EINPUT;
	}
	r->stats->bad_lines++;
	return 0;
}

bool ps_reader_clean(const struct ps_reader *r)
{
	return !r->have_count && !r->nframes;
}

/* Lines of a FILE, read in blocks; a line may not exceed PS_LINE_MAX. */
struct line_reader {
	FILE *f;
	char *b;
	size_t cap, start, end, scanned;
	bool eof;
};

/*
 * The next line: *@line (valid until the next call) and its length without
 * the newline (*@nl: it had one).  Returns the length, or one of these
 * (all negative):
 */
enum { LINE_EOF = -1, LINE_READ_ERROR = -2, LINE_TOO_LONG = -3,
       LINE_NO_MEMORY = -4 };

static ssize_t next_line(struct line_reader *lr, const char **line, bool *nl)
{
	for (;;) {
		size_t n = lr->end - lr->start - lr->scanned;
		char *p = n ? memchr(lr->b + lr->start + lr->scanned, '\n', n) :
			      NULL;

		if (p) {
			n = (size_t)(p - (lr->b + lr->start));
			*line = lr->b + lr->start;
			*nl = true;
			lr->start += n + 1;
			lr->scanned = 0;
			return (ssize_t)n;
		}
		n = lr->end - lr->start;
		lr->scanned = n;
		if (n > PS_LINE_MAX)
			return LINE_TOO_LONG;
		if (lr->eof) {
			if (!n)
				return LINE_EOF;
			*line = lr->b + lr->start;
			*nl = false;
			lr->start = lr->end;
			lr->scanned = 0;
			return (ssize_t)n;
		}
		if (lr->start) {
			memmove(lr->b, lr->b + lr->start, n);
			lr->start = 0;
			lr->end = n;
		}
		if (lr->end == lr->cap) {
			size_t ncap = lr->cap ? lr->cap * 2 : 65536;
			char *b2;

			if (ncap > (size_t)PS_LINE_MAX + 65536)
				ncap = (size_t)PS_LINE_MAX + 65536;
			b2 = realloc(lr->b, ncap);
			if (!b2)
				return LINE_NO_MEMORY;
			lr->b = b2;
			lr->cap = ncap;
		}
		n = fread(lr->b + lr->end, 1, lr->cap - lr->end, lr->f);
		lr->end += n;
		if (!n) {
			if (ferror(lr->f))
				return LINE_READ_ERROR;
			lr->eof = true;
		}
	}
}

int ps_read(FILE *f, const char *name, bool skip_bad,
	    const struct ps_callbacks *cb, struct ps_stats *stats,
	    char *err, size_t errsz)
{
	struct line_reader lr = { .f = f };
	struct ps_reader r;
	const char *line;
	ssize_t n;
	bool nl;
	int ret = 0;

	ps_reader_init(&r, name, skip_bad, cb, stats, 0);
	errno = 0;
	while ((n = next_line(&lr, &line, &nl)) >= 0) {
		ret = ps_reader_line(&r, line, (size_t)n, nl, err, errsz);
		if (ret)
			goto out;
	}
	if (n == LINE_TOO_LONG) {
		snprintf(err, errsz,
			 "%s:%lu: expected a line of at most %u bytes (perf script text), got a longer one",
			 name, r.lineno + 1, PS_LINE_MAX);
		ret = BR_EINPUT;
		goto out;
	}
	if (n == LINE_NO_MEMORY) {
		snprintf(err, errsz, "%s:%lu: out of memory", name,
			 r.lineno + 1);
		ret = BR_ESYS;
		goto out;
	}
	if (n == LINE_READ_ERROR) {
		snprintf(err, errsz, "%s:%lu: read error: %s", name,
			 r.lineno + 1, strerror(errno));
		ret = BR_ESYS;
		goto out;
	}
	ret = ps_reader_end(&r, err, errsz);
out:
	free(lr.b);
	ps_reader_free(&r);
	return ret;
}

int ps_read_mem(const char *buf, size_t len, const char *name,
		unsigned long line_base, bool at_end, bool skip_bad,
		const struct ps_callbacks *cb, struct ps_stats *stats,
		char *err, size_t errsz)
{
	struct ps_reader r;
	const char *p = buf, *e = buf + len;
	int ret = 0;

	ps_reader_init(&r, name, skip_bad, cb, stats, line_base);
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));

		ret = ps_reader_line(&r, p, (size_t)((nl ? nl : e) - p), nl,
				     err, errsz);
		if (ret)
			goto out;
		p = nl ? nl + 1 : e;
	}
	if (at_end)
		ret = ps_reader_end(&r, err, errsz);
	else if (!ps_reader_clean(&r))
		ret = BR_EPARTIAL;
out:
	ps_reader_free(&r);
	return ret;
}
