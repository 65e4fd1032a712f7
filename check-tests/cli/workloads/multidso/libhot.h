/* SPDX-License-Identifier: GPL-2.0 */
/* The multi-DSO workload's own shared library. */
#ifndef LIBHOT_H
#define LIBHOT_H

/* A loop of @n iterations (xorshift steps). */
unsigned long lib_loop(unsigned long n);

#endif
