# Every hwmon driver built against both cores, and our kernel changes as a
# git format-patch series, for the tree KERNEL selects (6.1 or 6.12; paths
# below are under its build root KB: build/ or build/6.12/). Included by the
# top Makefile (TOP, KB, KENV, JOBS and the ccache environment come from
# there).
#
#   make hwmon-drivers   build every hwmon driver as a module on the stock
#                        core, then on ours (KB/drivers, one build directory
#                        for both; results in KB/drivers-{stock,ours}); fail
#                        unless ours builds and links all that stock does
#   make patches         the series in build/patches/
#   make patches-check   git am the series onto a fresh pristine tree
#                        (build/patches-check) and run KUnit on it
#                        (PATCHES_KUNIT=0: compare with the tree of our
#                        core only)
#   make check-drivers   both checks, for "make check"

.PHONY: hwmon-drivers patches patches-check check-drivers

# One recipe: stock, then ours, in one build directory.
hwmon-drivers: deps
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/hwmon-drivers.sh all

patches: tree
	@$(KENV) $(TOP)/scripts/patches.sh

# The applied series is compared with the tree of our core.
# PATCHES_KUNIT=0 stops after that comparison: the applied tree is then
# proven to be the one `make kunit` builds and tests (.ci/run, where
# check-kernel does so).
PATCHES_KUNIT ?= 1
patches-check: patches
	@$(KENV) JOBS=$(JOBS) $(TOP)/scripts/patches-check.sh \
		$(if $(filter 0,$(PATCHES_KUNIT)),--apply-only)

check-drivers: hwmon-drivers patches-check
