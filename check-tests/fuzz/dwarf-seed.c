static int table[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };

static inline int pick(int i)
{
	return table[i & 7] * 2;
}

__attribute__((noinline)) int sum(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++)
		s += pick(i);
	return s;
}

void _start(void)
{
	volatile int r = sum(10);

	(void)r;
	for (;;)
		;
}
