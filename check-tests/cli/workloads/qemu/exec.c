// SPDX-License-Identifier: GPL-2.0
/*
 * execv(argv[1], argv + 1): the new program (a static one, calls) replaces
 * this one in the same process and must be recorded too.
 */
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2)
		return 2;
	execv(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
