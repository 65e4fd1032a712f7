// SPDX-License-Identifier: GPL-2.0
/*
 * C++ for sample profiles: mangled linkage names, templates and the
 * standard library inlined from headers (std::sort with a lambda,
 * std::map), a function in a namespace.  Small on purpose: `blockrange
 * record` single-steps it.  Usage: containers [N] (default 200).
 */
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <vector>

template <typename T> struct Acc {
	T s{};
	void add(T v) { s += v * 3; }
};

namespace ns {
static int twice(int x)
{
	return x * 2;
}
} // namespace ns

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 200;
	std::vector<int> v;
	std::map<int, int> m;
	Acc<long> acc;

	for (int i = 0; i < n; i++)
		v.push_back((i * 7919) % 1009);
	std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });
	for (int x : v) {
		m[x % 17]++;
		acc.add(ns::twice(x));
	}
	printf("%ld %zu\n", acc.s, m.size());
	return 0;
}
