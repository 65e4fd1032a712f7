#!/bin/bash
# hwmon-drivers.sh: compile every hwmon driver against a core and link it.
#
#   hwmon-drivers.sh all            build on stock, then on ours, then compare
#   hwmon-drivers.sh build CORE     switch the tree (BUILD/src) to CORE,
#                                   build BUILD/drivers and keep what the
#                                   comparison needs in BUILD/drivers-CORE
#   hwmon-drivers.sh compare        count the modules of both cores; fail
#                                   unless ours has every module stock has
#
# The configuration is x86_64 allnoconfig plus the fragment below: the
# subsystems and buses the drivers need (built in), and every symbol declared
# in drivers/hwmon/{,pmbus,occ,peci}/Kconfig set to m (tristate) or y (bool),
# the core (HWMON) included.
#
# By default only "make modules" runs: vmlinux is never compiled (on this
# shared 2-core machine a cold vmlinux with PCI, ACPI, USB, SCSI, ... costs
# most of an hour), so modpost has no vmlinux.o and reports undefined
# symbols as warnings. What this check is about still links for real: the
# core is a module (hwmon.ko), and modpost resolves every driver's hwmon_*
# references against the exports of the core of the tree being built. Since
# everything else is identical for both cores, "compare" then requires of
# ours: every module stock builds; every symbol stock's hwmon.ko exports,
# with the same license and namespace; and, per module, no unresolved symbol
# that stock did not also leave to vmlinux.
# HWMON_DRIVERS_VMLINUX=1 builds vmlinux.o as well, and modpost then fails
# on any undefined symbol by itself.
#
# Both cores build in the same directory, BUILD/drivers, with the same
# .config, from the one tree that scripts/tree.sh switches: going from one
# core to the other recompiles what includes <linux/hwmon.h> (which our
# core's patches extend), that is every hwmon driver, and nothing else.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/scripts/kernel-env.sh"
jobs=${JOBS:-$(nproc)}
export LC_ALL=C

die() { echo "hwmon-drivers: $*" >&2; exit 1; }

# modpost's symbol dump: Module.symvers with vmlinux.o, else
# modules-only.symvers
if [ "${HWMON_DRIVERS_VMLINUX:-0}" = 1 ]; then
	symvers=Module.symvers
else
	symvers=modules-only.symvers
fi

# Symbols of drivers/hwmon/**/Kconfig that are deliberately left out.
#   HWMON_DEBUG_CHIP   adds -DDEBUG to every driver; not a driver
#   SENSORS_LM90       "depends on SENSORS_LM90=n" in SENSORS_ADM1021 and
#                      SENSORS_MAX6642: one of the two sides must go. LM90
#                      is built (and exercised) by the KUnit configuration,
#                      so this configuration takes the other two.
#   HWMON_NEWER_API    our core's opt-in API of newer kernels (ours only):
#                      it adds a member to struct hwmon_ops, so every driver
#                      would compile differently from stock's and miss the
#                      cache; the option is tested by make kunit-newer-api
#   SENSORS_NEWER_API_SAMPLE  its sample driver (depends on it)
excluded=" HWMON_DEBUG_CHIP SENSORS_LM90 HWMON_NEWER_API SENSORS_NEWER_API_SAMPLE "

# Everything the hwmon drivers depend on that x86_64 can select, built in:
# a "make modules" build does not compile it at all.
deps_fragment() {
	cat <<'EOF'
CONFIG_64BIT=y
CONFIG_MODULES=y
CONFIG_COMPILE_TEST=y
# CONFIG_WERROR is not set
CONFIG_PROC_FS=y
CONFIG_SYSFS=y
CONFIG_DMI=y
CONFIG_CPU_SUP_INTEL=y
CONFIG_CPU_SUP_AMD=y
CONFIG_PCI=y
CONFIG_ACPI=y
CONFIG_X86_PLATFORM_DEVICES=y
CONFIG_ACPI_WMI=y
CONFIG_MELLANOX_PLATFORM=y
CONFIG_MAILBOX=y
CONFIG_PCC=y
CONFIG_OF=y
CONFIG_GPIOLIB=y
CONFIG_I2C=y
CONFIG_SPI=y
CONFIG_SPI_MASTER=y
CONFIG_REGULATOR=y
CONFIG_IIO=y
CONFIG_THERMAL=y
CONFIG_THERMAL_OF=y
CONFIG_POWER_SUPPLY=y
CONFIG_PECI=y
CONFIG_INPUT=y
CONFIG_HID=y
CONFIG_USB_SUPPORT=y
CONFIG_USB=y
CONFIG_USB_HID=y
CONFIG_WATCHDOG=y
CONFIG_IPMI_HANDLER=y
CONFIG_NEW_LEDS=y
CONFIG_LEDS_CLASS=y
CONFIG_PWM=y
CONFIG_SCSI=y
CONFIG_ATA=y
CONFIG_FSI=y
CONFIG_FSI_MASTER_HUB=y
CONFIG_FSI_SBEFIFO=y
CONFIG_FSI_OCC=y
CONFIG_ARM_SCMI_PROTOCOL=y
CONFIG_ARM_SCPI_PROTOCOL=y
CONFIG_MFD_DA9052_I2C=y
CONFIG_MFD_DA9055=y
CONFIG_MFD_GATEWORKS_GSC=y
CONFIG_MFD_MC13XXX_I2C=y
CONFIG_MFD_MENF21BMC=y
CONFIG_MFD_SY7636A=y
CONFIG_MFD_SL28CPLD=y
CONFIG_MFD_WM831X_I2C=y
CONFIG_MFD_WM8350_I2C=y
CONFIG_MFD_INTEL_M10_BMC=y
EOF
	# 6.12 only (6.1's configuration stays as it was): the HID menu, and
	# the buses of drivers that 6.1 does not have or reaches otherwise
	[ "$kernel" = 6.12 ] || return 0
	cat <<'EOF'
CONFIG_HID_SUPPORT=y
CONFIG_MFD_INTEL_M10_BMC_SPI=y
CONFIG_CHROME_PLATFORMS=y
CONFIG_CROS_EC=y
CONFIG_MFD_CROS_EC_DEV=y
CONFIG_MFD_SMPRO=y
CONFIG_SERIAL_DEV_BUS=y
CONFIG_SURFACE_PLATFORMS=y
CONFIG_SURFACE_AGGREGATOR=y
CONFIG_SURFACE_AGGREGATOR_BUS=y
EOF
}

# hwmon_symbols SRC: "NAME TYPE" for every config symbol of drivers/hwmon
# (the KUnit hook's tests/ directory excluded).
hwmon_symbols() {
	find "$1/drivers/hwmon" -name Kconfig ! -path '*/tests/*' -print0 | sort -z |
		xargs -0 awk '
			/^(menu)?config[ \t]/ { if (sym != "") print sym, type; sym = $2; type = ""; next }
			sym != "" && type == "" && $1 ~ /^(def_)?(bool|tristate)$/ { type = $1; sub(/^def_/, "", type) }
			END { if (sym != "") print sym, type }'
}

out=$build/drivers

configure() {	# configure CORE: write BUILD/drivers/.config if it changed
	local core=$1 src=$tree
	local frag=$out/hwmon-drivers.fragment new=.config.hwmon-drivers-new
	local sym type n=0 missing=()

	[ -f "$src/Makefile" ] || die "$src is not a kernel tree (scripts/tree.sh makes it)"
	mkdir -p "$out"
	{
		deps_fragment
		while read -r sym type; do
			case "$excluded" in *" $sym "*) continue ;; esac
			case "$type" in
			tristate) echo "CONFIG_$sym=m" ;;
			bool) echo "CONFIG_$sym=y" ;;
			*) die "cannot tell the type of $sym in $src/drivers/hwmon" ;;
			esac
		done < <(hwmon_symbols "$src")
	} > "$frag.tmp"
	mv "$frag.tmp" "$frag"

	make -s -C "$src" O="$out" ARCH=x86_64 KCONFIG_CONFIG="$new" \
		KCONFIG_ALLCONFIG="$frag" allnoconfig > "$out/config.log" 2>&1 ||
		{ cat "$out/config.log" >&2; die "$core: allnoconfig failed (log above)"; }

	# Which requested symbols Kconfig could not grant (informational:
	# drivers for other architectures and the like).
	while read -r sym type; do
		case "$excluded" in *" $sym "*) continue ;; esac
		grep -q "^CONFIG_$sym=[ym]" "$out/$new" || missing+=("$sym")
		n=$((n + 1))
	done < <(hwmon_symbols "$src")
	echo "hwmon-drivers: $core: $((n - ${#missing[@]})) of $n hwmon symbols enabled;" \
		"not selectable on x86_64: ${missing[*]:-none}"
	for sym in CONFIG_HWMON=m CONFIG_MODULES=y CONFIG_64BIT=y CONFIG_I2C=y CONFIG_SPI_MASTER=y \
		CONFIG_PCI=y CONFIG_ACPI=y CONFIG_OF=y CONFIG_IIO=y; do
		grep -qx "$sym" "$out/$new" || die "$core: Kconfig did not grant $sym (see $frag)"
	done

	if cmp -s "$out/$new" "$out/.config"; then
		rm -f "$out/$new"
	else
		mv "$out/$new" "$out/.config"
		echo "hwmon-drivers: $core: new .config"
	fi
}

do_build() {	# do_build CORE (the caller holds the tree lock)
	local core=$1 res=$build/drivers-$1 rc=0 start=$SECONDS goals=modules warn
	mkdir -p "$out" "$res"
	rm -f "$res/result"
	"$top/scripts/tree.sh" "$core"
	configure "$core"
	[ "${HWMON_DRIVERS_VMLINUX:-0}" = 1 ] && goals="vmlinux_o modules"
	echo "hwmon-drivers: $core: make $goals in $out (log: $res/build.log)"
	# Without vmlinux.o, 6.12's modpost fails on the symbols left to
	# vmlinux; they are judged by "unresolved" below instead.
	[ "$goals" = modules ] && warn="KBUILD_MODPOST_WARN=1" || warn=
	make -k -C "$tree" O="$out" ARCH=x86_64 -j"$jobs" $warn $goals \
		> "$res/build.log" 2>&1 || rc=$?
	# Our core must not add warnings (WERROR is off so that one warning in
	# some stock driver does not hide every other module).
	if grep -n 'drivers/hwmon/hwmon\.[ch]:[0-9]*:[0-9]*: \(warning\|error\)' "$res/build.log" >&2; then
		rc=1
		echo "hwmon-drivers: $core: the hwmon core does not compile cleanly (above)" >&2
	fi
	if [ "$rc" -ne 0 ]; then
		grep -E '(error|Error|ERROR)' "$res/build.log" | head -50 >&2 || true
		echo "hwmon-drivers: $core: build FAILED after $((SECONDS - start)) s (full log: $res/build.log)" >&2
		return 1
	fi
	cp "$out/.config" "$res/config"
	cp "$out/$symvers" "$res/symvers"
	list "$core" > "$res/modules.list"
	unresolved "$core" > "$res/unresolved.list"
	echo ok > "$res/result"
	echo "hwmon-drivers: $core: $(wc -l < "$res/modules.list") modules under drivers/hwmon built and linked in $((SECONDS - start)) s"
}

list() {	# list CORE: the hwmon modules of the current build
	local ko
	[ -f "$out/modules.order" ] || die "$1: $out/modules.order missing (build first)"
	# modules.order holds the modules of the current configuration only;
	# a .ko left over from an earlier configuration is not counted.
	# (6.1 lists the .ko files, 6.12 the .o files they are linked from)
	grep '^drivers/hwmon/' "$out/modules.order" | sed 's/\.o$/.ko/' | sort |
		while read -r ko; do
			[ -f "$out/$ko" ] || die "$1: $ko in modules.order but not built"
			echo "$ko"
		done
}

unresolved() {	# unresolved CORE: "module symbol" for each undefined symbol of a
		# hwmon driver module that no module of this build exports
		# (left to vmlinux)
	local res=$build/drivers-$1 ko exported
	[ -f "$out/$symvers" ] || die "$1: $out/$symvers missing"
	exported=$res/exported.list
	cut -f2 "$out/$symvers" | sort -u > "$exported"
	# the core itself uses what it likes of vmlinux: only the drivers count
	grep -v '^drivers/hwmon/hwmon\.ko$' "$res/modules.list" | while read -r ko; do
		nm -u "$out/$ko" | awk -v ko="$ko" '{ print $NF "\t" ko }'
	done | sort -u | join -t $'\t' -v 1 - "$exported" |
		awk -F'\t' '{ print $2, $1 }' | sort
}

core_exports() {	# core_exports CORE: "symbol type namespace" of hwmon.ko
	awk -F'\t' '$3 == "drivers/hwmon/hwmon" { print $2, $4, ($5 == "" ? "-" : $5) }' \
		"$build/drivers-$1/symvers" | sort
}

compare() {
	local s=$build/drivers-stock o=$build/drivers-ours missing fail=0 d
	for d in "$s" "$o"; do
		[ "$(cat "$d/result" 2>/dev/null)" = ok ] || die "no successful build in $d"
	done
	# Ours' tree has its own options, off here: "is not set" in ours only.
	grep -v '^# CONFIG_\(HWMON_NEWER_API\|SENSORS_NEWER_API_SAMPLE\) is not set$' \
		"$o/config" | cmp -s "$s/config" - ||
		die "stock and ours were built with different .config files"

	echo "hwmon-drivers: modules under drivers/hwmon: stock $(wc -l < "$s/modules.list"), ours $(wc -l < "$o/modules.list")" \
		"(drivers: stock $(grep -cv '^drivers/hwmon/hwmon\.ko$' "$s/modules.list"), ours $(grep -cv '^drivers/hwmon/hwmon\.ko$' "$o/modules.list"); the rest is the core, hwmon.ko)"
	missing=$(comm -23 "$s/modules.list" "$o/modules.list")
	if [ -n "$missing" ]; then
		echo "hwmon-drivers: FAIL: modules built on stock but not on ours:" >&2
		echo "$missing" | sed 's/^/  /' >&2
		fail=1
	fi

	[ -n "$(core_exports stock)" ] || die "stock: no exports of drivers/hwmon/hwmon in $symvers"
	missing=$(comm -23 <(core_exports stock) <(core_exports ours))
	if [ -n "$missing" ]; then
		echo "hwmon-drivers: FAIL: exports of stock's core that ours lacks (symbol type namespace):" >&2
		echo "$missing" | sed 's/^/  /' >&2
		fail=1
	fi
	echo "hwmon-drivers: core exports: stock $(core_exports stock | wc -l), ours $(core_exports ours | wc -l)"

	missing=$(comm -13 "$s/unresolved.list" "$o/unresolved.list")
	if [ -n "$missing" ]; then
		echo "hwmon-drivers: FAIL: symbols that ours leaves unresolved but stock does not (module symbol):" >&2
		echo "$missing" | sed 's/^/  /' >&2
		fail=1
	fi
	[ "$fail" -eq 0 ] || exit 1
	echo "hwmon-drivers: OK: ours builds and links every hwmon module that stock builds"
}

case "${1:-}" in
build)
	case "${2:-}" in stock|ours) ;; *) die "usage: hwmon-drivers.sh build stock|ours" ;; esac
	tree_lock
	do_build "$2" ;;
all)
	tree_lock
	do_build stock
	do_build ours
	compare ;;
compare)
	compare ;;
*)
	die "usage: hwmon-drivers.sh all | build stock|ours | compare" ;;
esac
