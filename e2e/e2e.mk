# End-to-end test: boot the test kernel of each core (of the tree KERNEL
# selects; paths below are under its build root KB) in QEMU with an
# emulated NVMe controller, the test power supplies and the all-types fake
# chip built in; dump /sys/class/hwmon and run lm-sensors in the guest; the
# two dumps must differ only by e2e/intended-differences-$(KERNEL).txt.
#
#   make e2e    both cores (scripts/check-kernel.sh --no-kunit --e2e stock
#               ours): the kernels of scripts/kernel.sh, one guest each
#               (KB/runs/CORE/e2e/: dump.txt, console.txt), then
#               e2e/compare.py. check-kernel runs the same guests beside
#               the KUnit ones.
#
# Included by the top Makefile (TOP, KENV, JOBS, PATH with ccache exported).

.PHONY: e2e

e2e: deps
	$(CHECK_KERNEL) --no-kunit --e2e stock ours
