// SPDX-License-Identifier: GPL-2.0
/*
 * MD5 as RFC 1321 defines it: 64-byte blocks, four rounds of sixteen steps
 * over a state of four 32-bit words, little-endian throughout.
 */
#include "base/md5.h"

#include <string.h>

/* floor(|sin(i + 1)| * 2^32), i = 0..63. */
static const uint32_t md5_k[64] = {
	0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee,
	0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
	0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be,
	0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
	0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa,
	0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
	0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed,
	0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
	0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c,
	0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
	0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05,
	0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
	0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039,
	0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
	0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1,
	0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391,
};

/* The left rotations of each round's four steps. */
static const uint8_t md5_r[4][4] = {
	{ 7, 12, 17, 22 }, { 5, 9, 14, 20 }, { 4, 11, 16, 23 }, { 6, 10, 15, 21 },
};

static uint32_t rol(uint32_t x, unsigned n)
{
	return x << n | x >> (32 - n);
}

static void md5_block(uint32_t s[4], const uint8_t *b)
{
	uint32_t m[16], a = s[0], bb = s[1], c = s[2], d = s[3];

	for (int i = 0; i < 16; i++)
		m[i] = (uint32_t)b[4 * i] | (uint32_t)b[4 * i + 1] << 8 |
		       (uint32_t)b[4 * i + 2] << 16 | (uint32_t)b[4 * i + 3] << 24;
	for (int i = 0; i < 64; i++) {
		uint32_t f;
		int g, round = i / 16;

		if (round == 0) {
			f = (bb & c) | (~bb & d);
			g = i;
		} else if (round == 1) {
			f = (d & bb) | (~d & c);
			g = (5 * i + 1) % 16;
		} else if (round == 2) {
			f = bb ^ c ^ d;
			g = (3 * i + 5) % 16;
		} else {
			f = c ^ (bb | ~d);
			g = (7 * i) % 16;
		}
		f += a + md5_k[i] + m[g];
		a = d;
		d = c;
		c = bb;
		bb += rol(f, md5_r[round][i % 4]);
	}
	s[0] += a;
	s[1] += bb;
	s[2] += c;
	s[3] += d;
}

void br_md5(const void *p, size_t n, uint8_t digest[16])
{
	uint32_t s[4] = { 0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476 };
	const uint8_t *in = p;
	uint8_t tail[128] = { 0 };
	size_t full = n / 64 * 64, rest = n - full, len;
	uint64_t bits = (uint64_t)n * 8;

	for (size_t o = 0; o < full; o += 64)
		md5_block(s, in + o);
	if (rest)
		memcpy(tail, in + full, rest);
	tail[rest] = 0x80;
	len = rest < 56 ? 64 : 128;
	for (int i = 0; i < 8; i++)
		tail[len - 8 + i] = (uint8_t)(bits >> (8 * i));
	for (size_t o = 0; o < len; o += 64)
		md5_block(s, tail + o);
	for (int i = 0; i < 16; i++)
		digest[i] = (uint8_t)(s[i / 4] >> (8 * (i % 4)));
}

uint64_t br_md5_guid(const char *name, size_t n)
{
	uint8_t d[16];
	uint64_t g = 0;

	br_md5(name, n, d);
	for (int i = 7; i >= 0; i--)
		g = g << 8 | d[i];
	return g;
}
