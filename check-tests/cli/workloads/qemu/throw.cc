// SPDX-License-Identifier: GPL-2.0
/*
 * A C++ exception thrown DEPTH + 1 frames below the function that catches
 * it, LOOPS times, for `blockrange record -g` (built -O1 -fno-inline):
 * main -> catcher -> thrower x (DEPTH + 1), the innermost throws; catcher
 * catches and calls handled -> spin.  After the throw no thrower frame
 * may stay on the stack (test_qemu_stacks.c).
 */
#include <stdexcept>

#define DEPTH 5
#define LOOPS 200

volatile unsigned long sink;

__attribute__((noinline)) void spin(unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		sink += i ^ (sink >> 3);
}

__attribute__((noinline)) void thrower(int d)
{
	spin(50);
	if (d > 0)
		thrower(d - 1);
	else
		throw std::runtime_error("down");
	sink++;
}

__attribute__((noinline)) void handled()
{
	spin(300);
	sink++;
}

__attribute__((noinline)) void catcher()
{
	try {
		thrower(DEPTH);
	} catch (const std::exception &) {
		handled();
	}
	sink++;
}

int main()
{
	for (int i = 0; i < LOOPS; i++)
		catcher();
	return 0;
}
