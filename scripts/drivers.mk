# Every hwmon driver built against both cores, and our kernel changes as a
# git format-patch series, for the tree KERNEL selects (6.1 or 6.12; paths
# below are under its build root KB: build/ or build/6.12/). Included by the
# top Makefile (TOP, KB, KENV, JOBS and the ccache environment come from
# there).
#
#   make hwmon-drivers   build every hwmon driver as a module on the stock
#                        core and on ours (build/{stock,ours}/drivers); fail
#                        unless ours builds and links all that stock does
#   make patches         the series in build/patches/
#   make patches-check   git am the series onto a fresh pristine tree
#                        (build/patches-check) and run KUnit on it
#                        (PATCHES_KUNIT=0: compare with build/ours/src only)
#   make check-drivers   both checks, for "make check"

.PHONY: hwmon-drivers patches patches-check check-drivers

# One recipe, stock first: the stock build fills ccache for ours.
hwmon-drivers: tree-stock tree-ours
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/hwmon-drivers.sh all

patches: tree-stock
	@$(KENV) $(TOP)/scripts/patches.sh

# tree-ours: the applied series is compared with build/ours/src.
# PATCHES_KUNIT=0 stops after that comparison: the applied tree is then
# proven to be the one `make kunit` builds and tests (.ci/run, after
# check-kernel has done so).
PATCHES_KUNIT ?= 1
patches-check: patches tree-ours
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/patches-check.sh \
		$(if $(filter 0,$(PATCHES_KUNIT)),--apply-only)

check-drivers: hwmon-drivers patches-check
