// SPDX-License-Identifier: GPL-2.0
/*
 * x86-64 instruction length and control-transfer kind.  See x86dec.h.
 *
 * Written from the encoding rules of the Intel SDM, volume 2, chapter 2
 * and appendix A (opcode maps): legacy prefixes, REX, the one-byte and
 * 0F / 0F38 / 0F3A maps, ModRM, SIB and displacement, immediates, and the
 * VEX (C4, C5), EVEX (62) and XOP (8F) escapes of 64-bit mode.
 */
#include "common/x86dec.h"

#include <stdbool.h>
#include <string.h>

/* Operand bytes of an opcode, besides ModRM. */
enum {
	F_MODRM = 1u << 0,
	F_IMM8 = 1u << 1,
	F_IMMZ = 1u << 2,	/* 2 bytes with 66, else 4 */
	F_IMM16 = 1u << 3,
	F_REL32 = 1u << 4,	/* 4 bytes whatever the prefixes */
	F_MOFFS = 1u << 5,	/* 8 bytes, 4 with 67 */
	F_IMMV = 1u << 6,	/* mov r, imm: 8 bytes with REX.W, else Z */
	F_GRP3 = 1u << 7,	/* F6/F7: an immediate only for /0 and /1 */
	F_BAD = 1u << 8,	/* not valid in 64-bit mode */
};

static unsigned one_byte(uint8_t op)
{
	if (op < 0x40) {
		switch (op & 7) {
		case 0: case 1: case 2: case 3:
			return F_MODRM;
		case 4:
			return F_IMM8;
		case 5:
			return F_IMMZ;
		default:	/* push/pop seg, daa, das, aaa, aas */
			return F_BAD;
		}
	}
	if (op >= 0x50 && op <= 0x5f)
		return 0;
	if (op >= 0x70 && op <= 0x7f)
		return F_IMM8;
	if (op >= 0x84 && op <= 0x8f)
		return F_MODRM;
	if (op >= 0x90 && op <= 0x9f)
		return op == 0x9a ? F_BAD : 0;
	if (op >= 0xb0 && op <= 0xb7)
		return F_IMM8;
	if (op >= 0xb8 && op <= 0xbf)
		return F_IMMV;
	if (op >= 0xd8 && op <= 0xdf)
		return F_MODRM;
	switch (op) {
	case 0x60: case 0x61: case 0x82: case 0xce: case 0xd4: case 0xd5:
	case 0xd6: case 0xea:
		return F_BAD;
	case 0x63: case 0x8f: case 0xd0: case 0xd1: case 0xd2: case 0xd3:
	case 0xfe: case 0xff:
		return F_MODRM;
	case 0x68: case 0xa9:
		return F_IMMZ;
	case 0x69: case 0x81: case 0xc7:
		return F_MODRM | F_IMMZ;
	case 0x6a: case 0xa8: case 0xcd: case 0xe0: case 0xe1: case 0xe2:
	case 0xe3: case 0xe4: case 0xe5: case 0xe6: case 0xe7: case 0xeb:
		return F_IMM8;
	case 0x6b: case 0x80: case 0x83: case 0xc0: case 0xc1: case 0xc6:
		return F_MODRM | F_IMM8;
	case 0xa0: case 0xa1: case 0xa2: case 0xa3:
		return F_MOFFS;
	case 0xc2: case 0xca:
		return F_IMM16;
	case 0xc8:
		return F_IMM16 | F_IMM8;
	case 0xe8: case 0xe9:
		return F_REL32;
	case 0xf6: case 0xf7:
		return F_MODRM | F_GRP3;
	default:	/* 6c-6f, a4-a7, aa-af, c3, c9, cb, cc, cf, d7, ec-ef,
			 * f1, f4, f5, f8-fd */
		return 0;
	}
}

static unsigned two_byte(uint8_t op)
{
	if (op >= 0x10 && op <= 0x1f)
		return F_MODRM;
	if (op >= 0x40 && op <= 0x6f)
		return F_MODRM;
	if (op >= 0x80 && op <= 0x8f)
		return F_REL32;
	if (op >= 0x90 && op <= 0x9f)
		return F_MODRM;
	if (op >= 0xb0 && op <= 0xbf)
		return op == 0xba ? F_MODRM | F_IMM8 : F_MODRM;
	if (op >= 0xc8 && op <= 0xcf)
		return 0;
	if (op >= 0xd0)
		return F_MODRM;
	switch (op) {
	case 0x00: case 0x01: case 0x02: case 0x03: case 0x0d:
	case 0x20: case 0x21: case 0x22: case 0x23:
	case 0x28: case 0x29: case 0x2a: case 0x2b: case 0x2c: case 0x2d:
	case 0x2e: case 0x2f:
	case 0x74: case 0x75: case 0x76: case 0x78: case 0x79:
	case 0x7c: case 0x7d: case 0x7e: case 0x7f:
	case 0xa3: case 0xa5: case 0xab: case 0xad: case 0xae: case 0xaf:
	case 0xc0: case 0xc1: case 0xc3: case 0xc7:
		return F_MODRM;
	case 0x0f:	/* 3DNow!: ModRM, then the opcode as an imm8 */
	case 0x70: case 0x71: case 0x72: case 0x73:
	case 0xa4: case 0xac: case 0xc2: case 0xc4: case 0xc5: case 0xc6:
		return F_MODRM | F_IMM8;
	case 0x05: case 0x06: case 0x07: case 0x08: case 0x09: case 0x0b:
	case 0x0e: case 0x30: case 0x31: case 0x32: case 0x33: case 0x34:
	case 0x35: case 0x37: case 0x77: case 0xa0: case 0xa1: case 0xa2:
	case 0xa8: case 0xa9: case 0xaa:
		return 0;
	default:	/* 04, 0a, 0c, 24-27, 36, 39, 3b-3f, 7a, 7b, a6, a7 */
		return F_BAD;
	}
}

/* The 0F-map opcodes of VEX/EVEX that take an imm8 (as in legacy SSE). */
static bool vex_map1_imm8(uint8_t op)
{
	return (op >= 0x70 && op <= 0x73) || op == 0xc2 || op == 0xc4 ||
	       op == 0xc5 || op == 0xc6;
}

struct cursor {
	const uint8_t *p;
	size_t n;
	size_t i;
	bool short_;	/* ran past @n */
};

static uint8_t next(struct cursor *c)
{
	if (c->i >= c->n) {
		c->short_ = true;
		c->i++;
		return 0;
	}
	return c->p[c->i++];
}

/* ModRM, SIB and displacement; returns the ModRM byte. */
static uint8_t modrm(struct cursor *c)
{
	uint8_t m = next(c);
	unsigned mod = m >> 6, rm = m & 7, disp = 0;

	if (mod == 3)
		return m;
	if (rm == 4) {
		uint8_t sib = next(c);

		if ((sib & 7) == 5 && mod == 0)
			disp = 4;
	}
	if (mod == 0 && rm == 5)
		disp = 4;	/* RIP-relative (or disp32 with 67) */
	else if (mod == 1)
		disp = 1;
	else if (mod == 2)
		disp = 4;
	c->i += disp;
	return m;
}

static int64_t rel_at(const uint8_t *p, unsigned size)
{
	if (size == 1)
		return (int8_t)p[0];
	return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
			 (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
}

static bool is_string_op(uint8_t op)
{
	return (op >= 0x6c && op <= 0x6f) || (op >= 0xa4 && op <= 0xa7) ||
	       (op >= 0xaa && op <= 0xaf);
}

/* A VEX, EVEX or XOP instruction after its escape byte @esc. */
static void decode_vex(struct cursor *c, uint8_t esc)
{
	unsigned map;
	uint8_t op;

	if (esc == 0xc5) {
		next(c);
		map = 1;
	} else if (esc == 0x62) {
		map = next(c) & 7;
		next(c);
		next(c);
	} else {	/* c4, XOP 8f */
		map = next(c) & 0x1f;
		next(c);
	}
	op = next(c);
	if (!(esc != 0x8f && map == 1 && op == 0x77))	/* vzeroupper/all */
		modrm(c);
	if (esc == 0x8f)
		c->i += map == 8 ? 1 : map == 0xa ? 4 : 0;
	else if (map == 3 || (map == 1 && vex_map1_imm8(op)))
		c->i += 1;
}

/* What the decoder learns of one instruction besides its length. */
struct decoded {
	bool opsize, adsize, rexw;	/* 66, 67, REX.W */
	uint8_t rep;			/* f2, f3 or 0 */
	uint8_t modrm;			/* 0 without a ModRM byte */
	unsigned relsz;			/* 0, or 1 or 4: a relative target */
	size_t rel_i;			/* where that target's bytes are */
};

#define XD_SHORT (-2)

/*
 * Legacy prefixes and REX: returns the opcode byte after them, XD_SHORT if
 * the input ends inside the prefixes, -1 if they alone are too long.
 */
static int prefixes(struct cursor *c, struct decoded *d)
{
	uint8_t op;

	for (;;) {
		op = next(c);
		if (c->short_)
			return XD_SHORT;
		if (op == 0x66)
			d->opsize = true;
		else if (op == 0x67)
			d->adsize = true;
		else if (op == 0xf2 || op == 0xf3)
			d->rep = op;
		else if (op != 0xf0 && op != 0x2e && op != 0x36 &&
			 op != 0x3e && op != 0x26 && op != 0x64 && op != 0x65)
			break;
		if (c->i >= XD_MAX_LEN)
			return -1;
	}
	if ((op & 0xf0) == 0x40) {
		d->rexw = op & 8;
		op = next(c);
	}
	return op;
}

/* The rest of an instruction of the 0f map; false if it is invalid. */
static bool decode_0f(struct cursor *c, struct decoded *d,
		      struct xd_insn *out)
{
	uint8_t op = next(c);
	unsigned fl;

	if (op == 0x38 || op == 0x3a) {
		next(c);
		modrm(c);
		if (op == 0x3a)
			c->i += 1;
		return true;
	}
	fl = two_byte(op);
	if (fl & F_BAD)
		return false;
	if (fl & F_MODRM)
		d->modrm = modrm(c);
	if (fl & F_IMM8)
		c->i += 1;
	/* AMD extrq / insertq with immediates */
	if (op == 0x78 && (d->opsize || d->rep == 0xf2))
		c->i += 2;
	if (fl & F_REL32) {
		d->rel_i = c->i;
		d->relsz = 4;
		c->i += 4;
		out->kind = XD_COND;
	}
	switch (op) {
	case 0x05: case 0x34:
		out->kind = XD_SYSCALL;
		break;
	case 0x07: case 0x0b: case 0x35: case 0xb9: case 0xff:
		out->kind = XD_TRAP;
		break;
	}
	return true;
}

static bool is_cond_one_byte(uint8_t op)
{
	return (op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3);
}

/* The rest of a one-byte-opcode instruction; false if it is invalid. */
static bool decode_one_byte(struct cursor *c, struct decoded *d, uint8_t op)
{
	unsigned fl = one_byte(op);

	if (fl & F_BAD)
		return false;
	if (fl & F_MODRM)
		d->modrm = modrm(c);
	if ((fl & F_GRP3) && ((d->modrm >> 3) & 7) < 2)
		c->i += op == 0xf6 ? 1 : d->opsize ? 2 : 4;
	if (fl & F_IMM16)
		c->i += 2;
	if (fl & F_IMMZ)
		c->i += d->opsize ? 2 : 4;
	if (fl & F_IMMV)
		c->i += d->rexw ? 8 : d->opsize ? 2 : 4;
	if (fl & F_MOFFS)
		c->i += d->adsize ? 4 : 8;
	if (fl & F_REL32) {
		d->rel_i = c->i;
		d->relsz = 4;
		c->i += 4;
	}
	if (fl & F_IMM8) {
		if (is_cond_one_byte(op) || op == 0xeb) {
			d->rel_i = c->i;
			d->relsz = 1;
		}
		c->i += 1;
	}
	return true;
}

/* The control transfer of a decoded one-byte-opcode instruction. */
static enum xd_kind one_byte_kind(uint8_t op, const struct decoded *d)
{
	unsigned reg = (d->modrm >> 3) & 7;

	if (is_cond_one_byte(op))
		return XD_COND;
	if (op == 0xeb || op == 0xe9)
		return XD_JMP;
	if (op == 0xe8)
		return XD_CALL;
	if (op == 0xc2 || op == 0xc3 || op == 0xca || op == 0xcb ||
	    op == 0xcf)
		return XD_RET;
	if (op == 0xff && reg >= 2 && reg <= 5)
		return reg <= 3 ? XD_IND_CALL : XD_IND_JMP;
	if (op == 0xcc || op == 0xcd || op == 0xf1 || op == 0xf4 ||
	    ((op == 0xc6 || op == 0xc7) && d->modrm == 0xf8))
		return XD_TRAP;	/* xabort/xbegin: no RTM in QEMU */
	if (d->rep && is_string_op(op))
		return XD_REP;
	return XD_PLAIN;
}

int xd_decode(const uint8_t *p, size_t n, uint64_t addr,
	      struct xd_insn *out)
{
	struct cursor c = { p, n, 0, false };
	struct decoded d = { 0 };
	int op;

	memset(out, 0, sizeof(*out));
	op = prefixes(&c, &d);
	if (op == XD_SHORT)
		return 0;
	if (op < 0)
		return -1;
	if (op == 0xc4 || op == 0xc5 || op == 0x62 ||
	    (op == 0x8f && c.i < n && ((p[c.i] >> 3) & 7))) {
		decode_vex(&c, (uint8_t)op);
	} else if (op == 0x0f) {
		if (!decode_0f(&c, &d, out))
			goto bad;
	} else {
		if (!decode_one_byte(&c, &d, (uint8_t)op))
			goto bad;
		out->kind = one_byte_kind((uint8_t)op, &d);
	}
	if (c.i > XD_MAX_LEN)
		goto bad;
	if (c.short_ || c.i > n)
		return 0;
	out->len = (unsigned)c.i;
	if (d.relsz)
		out->target = addr + c.i + (uint64_t)rel_at(p + d.rel_i, d.relsz);
	return (int)c.i;
bad:
	memset(out, 0, sizeof(*out));
	return -1;
}

const char *xd_kind_name(enum xd_kind k)
{
	static const char *const names[] = {
		[XD_PLAIN] = "plain", [XD_COND] = "cond", [XD_JMP] = "jmp",
		[XD_CALL] = "call", [XD_RET] = "ret",
		[XD_IND_JMP] = "ind-jmp", [XD_IND_CALL] = "ind-call",
		[XD_SYSCALL] = "syscall", [XD_REP] = "rep",
		[XD_TRAP] = "trap",
	};

	return (unsigned)k < sizeof(names) / sizeof(names[0]) ? names[k] : "?";
}
