#!/bin/bash
# Install every Debian package the project needs. Idempotent: when all are
# present it only runs dpkg-query; "apt-get update" runs only if one is missing.
set -euo pipefail

pkgs=(
	# kernel build and KUnit in QEMU
	linux-source-6.1 linux-source-6.12 build-essential bc flex bison libelf-dev libssl-dev
	python3 ccache qemu-system-x86 rsync cpio xz-utils kmod git
	# end-to-end boot: guest userspace and the real hwmon client
	busybox-static lm-sensors
	# userspace library, tests and fuzzing
	pkg-config check gcovr clang libclang-rt-14-dev valgrind
	# blockrange CLI: ELF, disassembly, the llvm-profgen oracle; perf 6.1
	# reads what `blockrange record` writes
	libelf-dev libcapstone-dev llvm-19 linux-perf
	# perf.data (zstd records), debug-file lookup and symbols, debuginfod
	libzstd-dev libdw-dev libdebuginfod-dev elfutils debuginfod
	# perf 6.1: the oracle of the perf.data reader's tests
	linux-perf
	# the fleet job on Dask (contrib/dask); GNU time measures its commands' memory
	# (and bench-qemu-record's peak RSS of one process)
	python3-distributed python3-dask time
	# BOLT oracle, report graphs, browser test
	bolt-19 libgraphviz-dev graphviz chromium chromium-driver python3-selenium
	# sample profiles: the compiler that reads them (and gcc-12 binaries);
	# the real program of `make pgo-demo` (binutils' readelf)
	clang-19 gcc-12 binutils-source
	# blockrange record's default engine: qemu-x86_64 that loads TCG plugins
	# (qemu-user-static cannot); glibc with its DWARF: libc's symbols for
	# annotate of recordings and the sample-profile oracle on optimized code
	qemu-user libc6-dbg
	# manual pages: rendered into the binary for `blockrange help` and checked
	groff-base man-db
	# blockrange on ARM64 hosts: the library built for aarch64 and its
	# suites run under qemu-aarch64 (Debian multiarch: the arm64 packages)
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross check:arm64
)

# The arm64 packages come from Debian's multiarch (dpkg --add-architecture).
arch_missing=0
dpkg --print-foreign-architectures | grep -qx arm64 || arch_missing=1

missing=()
for p in "${pkgs[@]}"; do
	# One line per installed architecture of a multiarch package.
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
		grep -x 'install ok installed' >/dev/null || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ] && [ $arch_missing -eq 0 ]; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}; run 'make deps' as root" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
[ $arch_missing -eq 0 ] || dpkg --add-architecture arm64
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
