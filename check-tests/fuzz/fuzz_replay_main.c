// SPDX-License-Identifier: GPL-2.0
/*
 * Replay inputs through the fuzz harness without libFuzzer (gcc build):
 *	build/userspace/fuzz_replay FILE...
 * The harness aborts with a message on the first mismatch.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
	int i;

	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE...\n", argv[0]);
		return 2;
	}
	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf = NULL;
		size_t len = 0, cap = 0, got;

		if (!f) {
			perror(argv[i]);
			return 2;
		}
		do {
			if (len == cap) {
				uint8_t *nbuf;

				cap = cap ? 2 * cap : 4096;
				nbuf = realloc(buf, cap);
				if (!nbuf) {
					fprintf(stderr, "%s: out of memory\n",
						argv[i]);
					free(buf);
					fclose(f);
					return 2;
				}
				buf = nbuf;
			}
			got = fread(buf + len, 1, cap - len, f);
			len += got;
		} while (got);
		if (ferror(f)) {
			perror(argv[i]);
			free(buf);
			fclose(f);
			return 2;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, len);
		free(buf);
		printf("%s: ok (%zu bytes)\n", argv[i], len);
	}
	return 0;
}
