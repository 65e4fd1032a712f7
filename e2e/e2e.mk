# End-to-end test: boot a small x86_64 kernel of each core (of the tree
# KERNEL selects; build/CORE below is under its build root KB)
# in QEMU with an emulated NVMe controller, the test power supplies and the
# all-types fake chip built in; dump /sys/class/hwmon and run lm-sensors in
# the guest; the two dumps must differ only by e2e/intended-differences.txt.
#
#   make e2e               both cores, then the comparison (fails on any
#                          unexpected difference or failed check)
#   make e2e-kernel-CORE   configure and build build/CORE/e2e (CORE = ours|stock)
#   make e2e-boot-CORE     boot it; dump in build/e2e/CORE/dump.txt
#   make e2e-initramfs     build/e2e/initramfs.cpio
#
# Included by the top Makefile (TOP, BUILD, JOBS, PATH with ccache exported).

E2E_OUT := $(KB)/e2e

.PHONY: e2e e2e-initramfs e2e-kernel-ours e2e-kernel-stock \
	e2e-boot-ours e2e-boot-stock

e2e-initramfs: deps
	@$(KENV) $(TOP)/e2e/initramfs.sh $(E2E_OUT)/initramfs.cpio

e2e-kernel-ours e2e-kernel-stock: e2e-kernel-%: tree-%
	@$(KENV) JOBS=$(JOBS) $(TOP)/e2e/kernel.sh $*

e2e-boot-ours e2e-boot-stock: e2e-boot-%: e2e-kernel-% e2e-initramfs
	@$(KENV) $(TOP)/e2e/boot.sh $*

e2e: deps tree-ours tree-stock e2e-boot-ours e2e-boot-stock
	@python3 $(TOP)/e2e/compare.py $(E2E_OUT)/ours/dump.txt \
		$(E2E_OUT)/stock/dump.txt $(TOP)/e2e/intended-differences-$(KERNEL).txt
