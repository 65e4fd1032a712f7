#!/bin/sh
# Runs in the e2e guest. Prints, between @@E2E-BEGIN@@ and @@E2E-END@@:
#  == hwmon devices     one line per /sys/class/hwmon/hwmonN: its name and
#                       the basename of its device link
#  == hwmon files       every file and directory under each hwmonN (sorted;
#                       not following symlinks): "PATH MODE = VALUE" or
#                       "PATH MODE ! ERROR" (the error reading it gave);
#                       symlinks as "PATH -> BASENAME OF TARGET"
#  == nvme temp1_max    write $nvme_max into the NVMe controller's
#                       temp1_max and read it back
#  == hwmon_fake writes
#                       writes (good and bad values) into files of the fake
#                       chip: the result of each and the value read back
#  == sensors, == sensors -u
#                       the output of lm-sensors
# Values are printed as read, except those of the runtime PM time counters
# (power/runtime_*_time), which depend on timing and are masked.
nvme_max=79850	# 353 K: a whole number of kelvin round-trips exactly

nl='
'
echo "@@E2E-BEGIN@@"

echo "== hwmon devices"
for h in /sys/class/hwmon/*; do
	[ -e "$h" ] || continue
	dev=-
	[ -L "$h/device" ] && dev=$(basename "$(readlink "$h/device")")
	echo "${h##*/} name=$(cat "$h/name" 2>&1) device=$dev"
done

echo "== hwmon files"
cd /sys/class/hwmon || exit 1
for h in *; do
	[ -e "$h" ] || continue
	find "$h/" -mindepth 1 | sort | while IFS= read -r f; do
		f=${f#"$h/"}
		p="$h/$f"
		if [ -L "$p" ]; then
			echo "$p -> $(basename "$(readlink "$p")")"
		elif [ -d "$p" ]; then
			echo "$p/ $(stat -c %a "$p") dir"
		else
			mode=$(stat -c %a "$p")
			case "$f" in
			power/runtime_*_time)
				echo "$p $mode = (time, masked)"
				continue ;;
			esac
			if v=$(cat "$p" 2>/tmp/err); then
				case "$v" in *"$nl"*) v=$(printf '%s' "$v" | tr '\n' '|') ;; esac
				echo "$p $mode = $v"
			else
				echo "$p $mode ! $(sed 's/^cat: //' /tmp/err)"
			fi
		fi
	done
done
cd /

echo "== nvme temp1_max"
found=
for h in /sys/class/hwmon/*; do
	[ "$(cat "$h/name" 2>/dev/null)" = nvme ] || continue
	found=1
	echo "${h##*/} temp1_input = $(cat "$h/temp1_input" 2>&1)"
	echo "${h##*/} temp1_max before = $(cat "$h/temp1_max" 2>&1)"
	if echo "$nvme_max" 2>/tmp/err >"$h/temp1_max"; then
		echo "${h##*/} temp1_max write $nvme_max = ok"
	else
		echo "${h##*/} temp1_max write $nvme_max ! $(cat /tmp/err)"
	fi
	echo "${h##*/} temp1_max after = $(cat "$h/temp1_max" 2>&1)"
done
[ -n "$found" ] || echo "no hwmon device named nvme"

echo "== hwmon_fake writes"
fake=
for h in /sys/class/hwmon/*; do
	[ "$(cat "$h/name" 2>/dev/null)" = hwmon_fake ] && fake=$h
done
if [ -n "$fake" ]; then
	# FILE VALUE [FILE TO READ BACK]
	while read -r f v back; do
		if echo "$v" 2>/tmp/err >"$fake/$f"; then
			r=ok
		else
			r="! $(sed 's/^.*: //' /tmp/err)"
		fi
		back=${back:-$f}
		echo "$f <- $v: $r; $back = $(cat "$fake/$back" 2>&1)"
	done <<-EOT
	temp1_max 85000
	temp1_max -12345
	temp1_max abc
	temp1_max 1000000001
	temp1_max 99999999999999999999
	pwm1 200
	pwm1 256
	pwm1_enable 3
	in0_enable 2
	in0_enable 0
	fan1_div 3
	fan1_div 8
	intrusion0_alarm 1
	intrusion0_alarm 0
	power1_average_interval 2000
	update_interval 500
	temp1_input 1 temp1_input
	name x name
	temp1_reset_history 1 temp1_lowest
	power_reset_history 1 power1_average_highest
	temp1_max 80000
	EOT
else
	echo "no hwmon device named hwmon_fake"
fi

echo "== sensors"
sensors 2>&1
echo "sensors exit status $?"
echo "== sensors -u"
sensors -u 2>&1
echo "sensors -u exit status $?"

echo "@@E2E-END@@"
