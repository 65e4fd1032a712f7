// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake hardware monitoring chip for the KUnit suites of the hwmon core.
 *
 * The attribute table below lists every attribute bit of the tree's
 * include/linux/hwmon.h (6.1 or 6.12: the bits only 6.12 has, and those of
 * CONFIG_HWMON_NEWER_API, are under #ifdef) with the file name that
 * Documentation/hwmon/sysfs-interface.rst gives it and the mode the fake chip
 * reports for it by default.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "hwmon_fake_chip.h"

#define RO	0444
#define RW	0644
#define WO	0200

#define FAKE_ATTR(_type, _attr, _bit, _name, _mode)			\
	{								\
		.type = hwmon_##_type, .attr = hwmon_##_type##_##_attr,	\
		.bit = _bit, .macro = #_bit, .name = _name, .mode = _mode, \
	}

#define FAKE_LABEL(_type, _bit, _name)					\
	{								\
		.type = hwmon_##_type, .attr = hwmon_##_type##_label,	\
		.bit = _bit, .macro = #_bit, .name = _name, .mode = RO,	\
		.string = true,						\
	}

#define FAKE_STOCK_DIFFERS(_type, _attr, _bit, _name, _mode)		\
	{								\
		.type = hwmon_##_type, .attr = hwmon_##_type##_##_attr,	\
		.bit = _bit, .macro = #_bit, .name = _name, .mode = _mode, \
		.stock_differs = true,					\
	}

#define FAKE_ENERGY64(_attr, _bit, _name, _mode)			\
	{								\
		.type = hwmon_energy64, .attr = hwmon_energy_##_attr,	\
		.bit = _bit, .macro = #_bit " (energy64)", .name = _name, \
		.mode = _mode,						\
	}

const struct hwmon_fake_attr hwmon_fake_attrs[] = {
	FAKE_ATTR(chip, temp_reset_history, HWMON_C_TEMP_RESET_HISTORY, "temp_reset_history", WO),
	FAKE_ATTR(chip, in_reset_history, HWMON_C_IN_RESET_HISTORY, "in_reset_history", WO),
	FAKE_ATTR(chip, curr_reset_history, HWMON_C_CURR_RESET_HISTORY, "curr_reset_history", WO),
	FAKE_ATTR(chip, power_reset_history, HWMON_C_POWER_RESET_HISTORY,
		  "power_reset_history", WO),
	FAKE_ATTR(chip, register_tz, HWMON_C_REGISTER_TZ, NULL, RO),
	FAKE_ATTR(chip, update_interval, HWMON_C_UPDATE_INTERVAL, "update_interval", RW),
#ifdef HWMON_C_UPDATE_INTERVAL_US
	/* CONFIG_HWMON_NEWER_API (upstream 7.2) */
	FAKE_ATTR(chip, update_interval_us, HWMON_C_UPDATE_INTERVAL_US,
		  "update_interval_us", RW),
#endif
	FAKE_ATTR(chip, alarms, HWMON_C_ALARMS, "alarms", RO),
	FAKE_ATTR(chip, samples, HWMON_C_SAMPLES, "samples", RW),
	FAKE_ATTR(chip, curr_samples, HWMON_C_CURR_SAMPLES, "curr_samples", RW),
	FAKE_ATTR(chip, in_samples, HWMON_C_IN_SAMPLES, "in_samples", RW),
	FAKE_ATTR(chip, power_samples, HWMON_C_POWER_SAMPLES, "power_samples", RW),
	FAKE_ATTR(chip, temp_samples, HWMON_C_TEMP_SAMPLES, "temp_samples", RW),
#ifdef HWMON_C_BEEP_ENABLE
	FAKE_ATTR(chip, beep_enable, HWMON_C_BEEP_ENABLE, "beep_enable", RW),
#endif
#ifdef HWMON_C_PEC
	/* a file of the parent I2C client, not of the hwmon device */
	FAKE_ATTR(chip, pec, HWMON_C_PEC, NULL, RW),
#endif

	FAKE_ATTR(temp, enable, HWMON_T_ENABLE, "temp%d_enable", RW),
	FAKE_ATTR(temp, input, HWMON_T_INPUT, "temp%d_input", RO),
	FAKE_ATTR(temp, type, HWMON_T_TYPE, "temp%d_type", RW),
	FAKE_ATTR(temp, lcrit, HWMON_T_LCRIT, "temp%d_lcrit", RW),
	FAKE_ATTR(temp, lcrit_hyst, HWMON_T_LCRIT_HYST, "temp%d_lcrit_hyst", RW),
	FAKE_ATTR(temp, min, HWMON_T_MIN, "temp%d_min", RW),
	FAKE_ATTR(temp, min_hyst, HWMON_T_MIN_HYST, "temp%d_min_hyst", RW),
	FAKE_ATTR(temp, max, HWMON_T_MAX, "temp%d_max", RW),
	FAKE_ATTR(temp, max_hyst, HWMON_T_MAX_HYST, "temp%d_max_hyst", RW),
	FAKE_ATTR(temp, crit, HWMON_T_CRIT, "temp%d_crit", RW),
	FAKE_ATTR(temp, crit_hyst, HWMON_T_CRIT_HYST, "temp%d_crit_hyst", RW),
	FAKE_ATTR(temp, emergency, HWMON_T_EMERGENCY, "temp%d_emergency", RW),
	FAKE_ATTR(temp, emergency_hyst, HWMON_T_EMERGENCY_HYST, "temp%d_emergency_hyst", RW),
	FAKE_ATTR(temp, alarm, HWMON_T_ALARM, "temp%d_alarm", RO),
	FAKE_ATTR(temp, lcrit_alarm, HWMON_T_LCRIT_ALARM, "temp%d_lcrit_alarm", RO),
	FAKE_ATTR(temp, min_alarm, HWMON_T_MIN_ALARM, "temp%d_min_alarm", RO),
	FAKE_ATTR(temp, max_alarm, HWMON_T_MAX_ALARM, "temp%d_max_alarm", RO),
	FAKE_ATTR(temp, crit_alarm, HWMON_T_CRIT_ALARM, "temp%d_crit_alarm", RO),
	FAKE_ATTR(temp, emergency_alarm, HWMON_T_EMERGENCY_ALARM, "temp%d_emergency_alarm", RO),
	FAKE_ATTR(temp, fault, HWMON_T_FAULT, "temp%d_fault", RO),
	FAKE_ATTR(temp, offset, HWMON_T_OFFSET, "temp%d_offset", RW),
	FAKE_LABEL(temp, HWMON_T_LABEL, "temp%d_label"),
	FAKE_ATTR(temp, lowest, HWMON_T_LOWEST, "temp%d_lowest", RO),
	FAKE_ATTR(temp, highest, HWMON_T_HIGHEST, "temp%d_highest", RO),
	FAKE_ATTR(temp, reset_history, HWMON_T_RESET_HISTORY, "temp%d_reset_history", WO),
	FAKE_ATTR(temp, rated_min, HWMON_T_RATED_MIN, "temp%d_rated_min", RO),
	FAKE_ATTR(temp, rated_max, HWMON_T_RATED_MAX, "temp%d_rated_max", RO),
#ifdef HWMON_T_BEEP
	FAKE_ATTR(temp, beep, HWMON_T_BEEP, "temp%d_beep", RW),
#endif

	FAKE_ATTR(in, enable, HWMON_I_ENABLE, "in%d_enable", RW),
	FAKE_ATTR(in, input, HWMON_I_INPUT, "in%d_input", RO),
	FAKE_ATTR(in, min, HWMON_I_MIN, "in%d_min", RW),
	FAKE_ATTR(in, max, HWMON_I_MAX, "in%d_max", RW),
	FAKE_ATTR(in, lcrit, HWMON_I_LCRIT, "in%d_lcrit", RW),
	FAKE_ATTR(in, crit, HWMON_I_CRIT, "in%d_crit", RW),
	FAKE_ATTR(in, average, HWMON_I_AVERAGE, "in%d_average", RO),
	FAKE_ATTR(in, lowest, HWMON_I_LOWEST, "in%d_lowest", RO),
	FAKE_ATTR(in, highest, HWMON_I_HIGHEST, "in%d_highest", RO),
	FAKE_ATTR(in, reset_history, HWMON_I_RESET_HISTORY, "in%d_reset_history", WO),
	FAKE_LABEL(in, HWMON_I_LABEL, "in%d_label"),
	FAKE_ATTR(in, alarm, HWMON_I_ALARM, "in%d_alarm", RO),
	FAKE_ATTR(in, min_alarm, HWMON_I_MIN_ALARM, "in%d_min_alarm", RO),
	FAKE_ATTR(in, max_alarm, HWMON_I_MAX_ALARM, "in%d_max_alarm", RO),
	FAKE_ATTR(in, lcrit_alarm, HWMON_I_LCRIT_ALARM, "in%d_lcrit_alarm", RO),
	FAKE_ATTR(in, crit_alarm, HWMON_I_CRIT_ALARM, "in%d_crit_alarm", RO),
	FAKE_ATTR(in, rated_min, HWMON_I_RATED_MIN, "in%d_rated_min", RO),
	FAKE_ATTR(in, rated_max, HWMON_I_RATED_MAX, "in%d_rated_max", RO),
#ifdef HWMON_I_BEEP
	FAKE_ATTR(in, beep, HWMON_I_BEEP, "in%d_beep", RW),
#endif
#ifdef HWMON_I_FAULT
	FAKE_ATTR(in, fault, HWMON_I_FAULT, "in%d_fault", RO),
#endif

	FAKE_ATTR(curr, enable, HWMON_C_ENABLE, "curr%d_enable", RW),
	FAKE_ATTR(curr, input, HWMON_C_INPUT, "curr%d_input", RO),
	FAKE_ATTR(curr, min, HWMON_C_MIN, "curr%d_min", RW),
	FAKE_ATTR(curr, max, HWMON_C_MAX, "curr%d_max", RW),
	FAKE_ATTR(curr, lcrit, HWMON_C_LCRIT, "curr%d_lcrit", RW),
	FAKE_ATTR(curr, crit, HWMON_C_CRIT, "curr%d_crit", RW),
	FAKE_ATTR(curr, average, HWMON_C_AVERAGE, "curr%d_average", RO),
	FAKE_ATTR(curr, lowest, HWMON_C_LOWEST, "curr%d_lowest", RO),
	FAKE_ATTR(curr, highest, HWMON_C_HIGHEST, "curr%d_highest", RO),
	FAKE_ATTR(curr, reset_history, HWMON_C_RESET_HISTORY, "curr%d_reset_history", WO),
	FAKE_LABEL(curr, HWMON_C_LABEL, "curr%d_label"),
	FAKE_ATTR(curr, alarm, HWMON_C_ALARM, "curr%d_alarm", RO),
	FAKE_ATTR(curr, min_alarm, HWMON_C_MIN_ALARM, "curr%d_min_alarm", RO),
	FAKE_ATTR(curr, max_alarm, HWMON_C_MAX_ALARM, "curr%d_max_alarm", RO),
	FAKE_ATTR(curr, lcrit_alarm, HWMON_C_LCRIT_ALARM, "curr%d_lcrit_alarm", RO),
	FAKE_ATTR(curr, crit_alarm, HWMON_C_CRIT_ALARM, "curr%d_crit_alarm", RO),
	FAKE_ATTR(curr, rated_min, HWMON_C_RATED_MIN, "curr%d_rated_min", RO),
	FAKE_ATTR(curr, rated_max, HWMON_C_RATED_MAX, "curr%d_rated_max", RO),
#ifdef HWMON_C_BEEP
	FAKE_ATTR(curr, beep, HWMON_C_BEEP, "curr%d_beep", RW),
#endif

	FAKE_ATTR(power, enable, HWMON_P_ENABLE, "power%d_enable", RW),
	FAKE_ATTR(power, average, HWMON_P_AVERAGE, "power%d_average", RO),
	FAKE_ATTR(power, average_interval, HWMON_P_AVERAGE_INTERVAL,
		  "power%d_average_interval", RW),
	FAKE_STOCK_DIFFERS(power, average_interval_max, HWMON_P_AVERAGE_INTERVAL_MAX,
			   "power%d_average_interval_max", RO),
	FAKE_STOCK_DIFFERS(power, average_interval_min, HWMON_P_AVERAGE_INTERVAL_MIN,
			   "power%d_average_interval_min", RO),
	FAKE_ATTR(power, average_highest, HWMON_P_AVERAGE_HIGHEST, "power%d_average_highest", RO),
	FAKE_ATTR(power, average_lowest, HWMON_P_AVERAGE_LOWEST, "power%d_average_lowest", RO),
	FAKE_ATTR(power, average_max, HWMON_P_AVERAGE_MAX, "power%d_average_max", RW),
	FAKE_ATTR(power, average_min, HWMON_P_AVERAGE_MIN, "power%d_average_min", RW),
	FAKE_ATTR(power, input, HWMON_P_INPUT, "power%d_input", RO),
	FAKE_ATTR(power, input_highest, HWMON_P_INPUT_HIGHEST, "power%d_input_highest", RO),
	FAKE_ATTR(power, input_lowest, HWMON_P_INPUT_LOWEST, "power%d_input_lowest", RO),
	FAKE_ATTR(power, reset_history, HWMON_P_RESET_HISTORY, "power%d_reset_history", WO),
	FAKE_ATTR(power, accuracy, HWMON_P_ACCURACY, "power%d_accuracy", RO),
	FAKE_ATTR(power, cap, HWMON_P_CAP, "power%d_cap", RW),
	FAKE_ATTR(power, cap_hyst, HWMON_P_CAP_HYST, "power%d_cap_hyst", RW),
	FAKE_ATTR(power, cap_max, HWMON_P_CAP_MAX, "power%d_cap_max", RO),
	FAKE_ATTR(power, cap_min, HWMON_P_CAP_MIN, "power%d_cap_min", RO),
	FAKE_ATTR(power, min, HWMON_P_MIN, "power%d_min", RW),
	FAKE_ATTR(power, max, HWMON_P_MAX, "power%d_max", RW),
	FAKE_ATTR(power, crit, HWMON_P_CRIT, "power%d_crit", RW),
	FAKE_ATTR(power, lcrit, HWMON_P_LCRIT, "power%d_lcrit", RW),
	FAKE_LABEL(power, HWMON_P_LABEL, "power%d_label"),
	FAKE_ATTR(power, alarm, HWMON_P_ALARM, "power%d_alarm", RO),
	FAKE_ATTR(power, cap_alarm, HWMON_P_CAP_ALARM, "power%d_cap_alarm", RO),
	FAKE_ATTR(power, min_alarm, HWMON_P_MIN_ALARM, "power%d_min_alarm", RO),
	FAKE_ATTR(power, max_alarm, HWMON_P_MAX_ALARM, "power%d_max_alarm", RO),
	FAKE_ATTR(power, lcrit_alarm, HWMON_P_LCRIT_ALARM, "power%d_lcrit_alarm", RO),
	FAKE_ATTR(power, crit_alarm, HWMON_P_CRIT_ALARM, "power%d_crit_alarm", RO),
	FAKE_ATTR(power, rated_min, HWMON_P_RATED_MIN, "power%d_rated_min", RO),
	FAKE_ATTR(power, rated_max, HWMON_P_RATED_MAX, "power%d_rated_max", RO),

	FAKE_ATTR(energy, enable, HWMON_E_ENABLE, "energy%d_enable", RW),
	FAKE_ATTR(energy, input, HWMON_E_INPUT, "energy%d_input", RO),
	FAKE_LABEL(energy, HWMON_E_LABEL, "energy%d_label"),

#ifdef HWMON_TEST_HAVE_ENERGY64
	/* energy64 has the attributes (and enum values) of energy */
	FAKE_ENERGY64(enable, HWMON_E_ENABLE, "energy%d_enable", RW),
	FAKE_ENERGY64(input, HWMON_E_INPUT, "energy%d_input", RO),
	/* stock 6.12 reads it with read() (intended difference) */
	{
		.type = hwmon_energy64, .attr = hwmon_energy_label,
		.bit = HWMON_E_LABEL, .macro = "HWMON_E_LABEL (energy64)",
		.name = "energy%d_label", .mode = RO, .string = true,
		.stock_differs = true,
	},
#endif

	FAKE_ATTR(humidity, enable, HWMON_H_ENABLE, "humidity%d_enable", RW),
	FAKE_ATTR(humidity, input, HWMON_H_INPUT, "humidity%d_input", RO),
	FAKE_LABEL(humidity, HWMON_H_LABEL, "humidity%d_label"),
	FAKE_ATTR(humidity, min, HWMON_H_MIN, "humidity%d_min", RW),
	FAKE_ATTR(humidity, min_hyst, HWMON_H_MIN_HYST, "humidity%d_min_hyst", RW),
	FAKE_ATTR(humidity, max, HWMON_H_MAX, "humidity%d_max", RW),
	FAKE_ATTR(humidity, max_hyst, HWMON_H_MAX_HYST, "humidity%d_max_hyst", RW),
	FAKE_ATTR(humidity, alarm, HWMON_H_ALARM, "humidity%d_alarm", RO),
	FAKE_ATTR(humidity, fault, HWMON_H_FAULT, "humidity%d_fault", RO),
	FAKE_ATTR(humidity, rated_min, HWMON_H_RATED_MIN, "humidity%d_rated_min", RO),
	FAKE_ATTR(humidity, rated_max, HWMON_H_RATED_MAX, "humidity%d_rated_max", RO),
#ifdef HWMON_H_MIN_ALARM
	FAKE_ATTR(humidity, min_alarm, HWMON_H_MIN_ALARM, "humidity%d_min_alarm", RO),
#endif
#ifdef HWMON_H_MAX_ALARM
	FAKE_ATTR(humidity, max_alarm, HWMON_H_MAX_ALARM, "humidity%d_max_alarm", RO),
#endif

	FAKE_ATTR(fan, enable, HWMON_F_ENABLE, "fan%d_enable", RW),
	FAKE_ATTR(fan, input, HWMON_F_INPUT, "fan%d_input", RO),
	FAKE_LABEL(fan, HWMON_F_LABEL, "fan%d_label"),
	FAKE_ATTR(fan, min, HWMON_F_MIN, "fan%d_min", RW),
	FAKE_ATTR(fan, max, HWMON_F_MAX, "fan%d_max", RW),
	FAKE_ATTR(fan, div, HWMON_F_DIV, "fan%d_div", RW),
	FAKE_ATTR(fan, pulses, HWMON_F_PULSES, "fan%d_pulses", RW),
	FAKE_ATTR(fan, target, HWMON_F_TARGET, "fan%d_target", RW),
	FAKE_ATTR(fan, alarm, HWMON_F_ALARM, "fan%d_alarm", RO),
	FAKE_ATTR(fan, min_alarm, HWMON_F_MIN_ALARM, "fan%d_min_alarm", RO),
	FAKE_ATTR(fan, max_alarm, HWMON_F_MAX_ALARM, "fan%d_max_alarm", RO),
	FAKE_ATTR(fan, fault, HWMON_F_FAULT, "fan%d_fault", RO),
#ifdef HWMON_F_BEEP
	FAKE_ATTR(fan, beep, HWMON_F_BEEP, "fan%d_beep", RW),
#endif

	FAKE_ATTR(pwm, input, HWMON_PWM_INPUT, "pwm%d", RW),
	FAKE_ATTR(pwm, enable, HWMON_PWM_ENABLE, "pwm%d_enable", RW),
	FAKE_ATTR(pwm, mode, HWMON_PWM_MODE, "pwm%d_mode", RW),
	FAKE_ATTR(pwm, freq, HWMON_PWM_FREQ, "pwm%d_freq", RW),
	FAKE_ATTR(pwm, auto_channels_temp, HWMON_PWM_AUTO_CHANNELS_TEMP,
		  "pwm%d_auto_channels_temp", RW),

	FAKE_ATTR(intrusion, alarm, HWMON_INTRUSION_ALARM, "intrusion%d_alarm", RW),
	FAKE_ATTR(intrusion, beep, HWMON_INTRUSION_BEEP, "intrusion%d_beep", RW),
};

const size_t hwmon_fake_attr_count = ARRAY_SIZE(hwmon_fake_attrs);

/*
 * The configuration of the all-types chip: every attribute bit of the
 * tree's header, spelled out. FAKE_612_* are the bits only 6.12 has (0 on
 * 6.1).
 */
#ifdef HWMON_C_BEEP_ENABLE
#define FAKE_612_CHIP	(HWMON_C_BEEP_ENABLE | HWMON_C_PEC)
#define FAKE_612_TEMP	HWMON_T_BEEP
#define FAKE_612_IN	(HWMON_I_BEEP | HWMON_I_FAULT)
#define FAKE_612_CURR	HWMON_C_BEEP
#define FAKE_612_HUMIDITY (HWMON_H_MIN_ALARM | HWMON_H_MAX_ALARM)
#define FAKE_612_FAN	HWMON_F_BEEP
#else
#define FAKE_612_CHIP	0
#define FAKE_612_TEMP	0
#define FAKE_612_IN	0
#define FAKE_612_CURR	0
#define FAKE_612_HUMIDITY 0
#define FAKE_612_FAN	0
#endif

#ifdef HWMON_C_UPDATE_INTERVAL_US
#define FAKE_NEWER_CHIP	HWMON_C_UPDATE_INTERVAL_US
#else
#define FAKE_NEWER_CHIP	0
#endif

#define FAKE_ALL_CHIP	(HWMON_C_TEMP_RESET_HISTORY | HWMON_C_IN_RESET_HISTORY | \
			 HWMON_C_CURR_RESET_HISTORY | HWMON_C_POWER_RESET_HISTORY | \
			 HWMON_C_REGISTER_TZ | HWMON_C_UPDATE_INTERVAL | \
			 HWMON_C_ALARMS | HWMON_C_SAMPLES | HWMON_C_CURR_SAMPLES | \
			 HWMON_C_IN_SAMPLES | HWMON_C_POWER_SAMPLES | \
			 HWMON_C_TEMP_SAMPLES | FAKE_612_CHIP | FAKE_NEWER_CHIP)

#define FAKE_ALL_TEMP	(HWMON_T_ENABLE | HWMON_T_INPUT | HWMON_T_TYPE | \
			 HWMON_T_LCRIT | HWMON_T_LCRIT_HYST | HWMON_T_MIN | \
			 HWMON_T_MIN_HYST | HWMON_T_MAX | HWMON_T_MAX_HYST | \
			 HWMON_T_CRIT | HWMON_T_CRIT_HYST | HWMON_T_EMERGENCY | \
			 HWMON_T_EMERGENCY_HYST | HWMON_T_ALARM | \
			 HWMON_T_MIN_ALARM | HWMON_T_MAX_ALARM | \
			 HWMON_T_CRIT_ALARM | HWMON_T_LCRIT_ALARM | \
			 HWMON_T_EMERGENCY_ALARM | HWMON_T_FAULT | \
			 HWMON_T_OFFSET | HWMON_T_LABEL | HWMON_T_LOWEST | \
			 HWMON_T_HIGHEST | HWMON_T_RESET_HISTORY | \
			 HWMON_T_RATED_MIN | HWMON_T_RATED_MAX | FAKE_612_TEMP)

#define FAKE_ALL_IN	(HWMON_I_ENABLE | HWMON_I_INPUT | HWMON_I_MIN | \
			 HWMON_I_MAX | HWMON_I_LCRIT | HWMON_I_CRIT | \
			 HWMON_I_AVERAGE | HWMON_I_LOWEST | HWMON_I_HIGHEST | \
			 HWMON_I_RESET_HISTORY | HWMON_I_LABEL | HWMON_I_ALARM | \
			 HWMON_I_MIN_ALARM | HWMON_I_MAX_ALARM | \
			 HWMON_I_LCRIT_ALARM | HWMON_I_CRIT_ALARM | \
			 HWMON_I_RATED_MIN | HWMON_I_RATED_MAX | FAKE_612_IN)

#define FAKE_ALL_CURR	(HWMON_C_ENABLE | HWMON_C_INPUT | HWMON_C_MIN | \
			 HWMON_C_MAX | HWMON_C_LCRIT | HWMON_C_CRIT | \
			 HWMON_C_AVERAGE | HWMON_C_LOWEST | HWMON_C_HIGHEST | \
			 HWMON_C_RESET_HISTORY | HWMON_C_LABEL | HWMON_C_ALARM | \
			 HWMON_C_MIN_ALARM | HWMON_C_MAX_ALARM | \
			 HWMON_C_LCRIT_ALARM | HWMON_C_CRIT_ALARM | \
			 HWMON_C_RATED_MIN | HWMON_C_RATED_MAX | FAKE_612_CURR)

#define FAKE_ALL_POWER	(HWMON_P_ENABLE | HWMON_P_AVERAGE | \
			 HWMON_P_AVERAGE_INTERVAL | HWMON_P_AVERAGE_INTERVAL_MAX | \
			 HWMON_P_AVERAGE_INTERVAL_MIN | HWMON_P_AVERAGE_HIGHEST | \
			 HWMON_P_AVERAGE_LOWEST | HWMON_P_AVERAGE_MAX | \
			 HWMON_P_AVERAGE_MIN | HWMON_P_INPUT | \
			 HWMON_P_INPUT_HIGHEST | HWMON_P_INPUT_LOWEST | \
			 HWMON_P_RESET_HISTORY | HWMON_P_ACCURACY | HWMON_P_CAP | \
			 HWMON_P_CAP_HYST | HWMON_P_CAP_MAX | HWMON_P_CAP_MIN | \
			 HWMON_P_MIN | HWMON_P_MAX | HWMON_P_LCRIT | HWMON_P_CRIT | \
			 HWMON_P_LABEL | HWMON_P_ALARM | HWMON_P_CAP_ALARM | \
			 HWMON_P_MIN_ALARM | HWMON_P_MAX_ALARM | \
			 HWMON_P_LCRIT_ALARM | HWMON_P_CRIT_ALARM | \
			 HWMON_P_RATED_MIN | HWMON_P_RATED_MAX)

#define FAKE_ALL_ENERGY	(HWMON_E_ENABLE | HWMON_E_INPUT | HWMON_E_LABEL)

#define FAKE_ALL_HUMIDITY (HWMON_H_ENABLE | HWMON_H_INPUT | HWMON_H_LABEL | \
			   HWMON_H_MIN | HWMON_H_MIN_HYST | HWMON_H_MAX | \
			   HWMON_H_MAX_HYST | HWMON_H_ALARM | HWMON_H_FAULT | \
			   HWMON_H_RATED_MIN | HWMON_H_RATED_MAX | \
			   FAKE_612_HUMIDITY)

#define FAKE_ALL_FAN	(HWMON_F_ENABLE | HWMON_F_INPUT | HWMON_F_LABEL | \
			 HWMON_F_MIN | HWMON_F_MAX | HWMON_F_DIV | \
			 HWMON_F_PULSES | HWMON_F_TARGET | HWMON_F_ALARM | \
			 HWMON_F_MIN_ALARM | HWMON_F_MAX_ALARM | HWMON_F_FAULT | \
			 FAKE_612_FAN)

#define FAKE_ALL_PWM	(HWMON_PWM_INPUT | HWMON_PWM_ENABLE | HWMON_PWM_MODE | \
			 HWMON_PWM_FREQ | HWMON_PWM_AUTO_CHANNELS_TEMP)

#define FAKE_ALL_INTRUSION (HWMON_INTRUSION_ALARM | HWMON_INTRUSION_BEEP)

static const u32 fake_all_config[hwmon_max] = {
	[hwmon_chip] = FAKE_ALL_CHIP,
	[hwmon_temp] = FAKE_ALL_TEMP,
	[hwmon_in] = FAKE_ALL_IN,
	[hwmon_curr] = FAKE_ALL_CURR,
	[hwmon_power] = FAKE_ALL_POWER,
	[hwmon_energy] = FAKE_ALL_ENERGY,
#ifdef HWMON_TEST_HAVE_ENERGY64
	[hwmon_energy64] = FAKE_ALL_ENERGY,
#endif
	[hwmon_humidity] = FAKE_ALL_HUMIDITY,
	[hwmon_fan] = FAKE_ALL_FAN,
	[hwmon_pwm] = FAKE_ALL_PWM,
	[hwmon_intrusion] = FAKE_ALL_INTRUSION,
};

static const char * const fake_default_label[hwmon_max] = {
	[hwmon_chip] = "fake chip",
	[hwmon_temp] = "fake temp",
	[hwmon_in] = "fake in",
	[hwmon_curr] = "fake curr",
	[hwmon_power] = "fake power",
	[hwmon_energy] = "fake energy",
#ifdef HWMON_TEST_HAVE_ENERGY64
	[hwmon_energy64] = "fake energy64",
#endif
	[hwmon_humidity] = "fake humidity",
	[hwmon_fan] = "fake fan",
	[hwmon_pwm] = "fake pwm",
	[hwmon_intrusion] = "fake intrusion",
};

/**
 * hwmon_fake_attr_find() - look up an attribute in the attribute table
 * @type: sensor type
 * @attr: attribute number of that type
 *
 * Return: the table entry, or NULL if the tree's header has no such
 * attribute.
 */
const struct hwmon_fake_attr *hwmon_fake_attr_find(enum hwmon_sensor_types type,
						   u32 attr)
{
	size_t i;

	for (i = 0; i < hwmon_fake_attr_count; i++)
		if (hwmon_fake_attrs[i].type == type &&
		    hwmon_fake_attrs[i].attr == attr)
			return &hwmon_fake_attrs[i];
	return NULL;
}

/**
 * hwmon_fake_attr_index_base() - first file index of a sensor type
 * @type: sensor type
 *
 * Return: 0 for in and intrusion channels, 1 for the other types (the
 * chip type has no index; 1 is returned for it too).
 */
int hwmon_fake_attr_index_base(enum hwmon_sensor_types type)
{
	return (type == hwmon_in || type == hwmon_intrusion) ? 0 : 1;
}

/**
 * hwmon_fake_attr_file_name() - ABI file name of an attribute of a channel
 * @desc: attribute table entry
 * @channel: channel number (0-based, as the callbacks see it)
 * @buf: buffer for the name
 * @len: size of @buf
 *
 * Return: 0 on success, -ENOENT if the attribute creates no file, -E2BIG if
 * the name does not fit.
 */
int hwmon_fake_attr_file_name(const struct hwmon_fake_attr *desc, int channel,
			      char *buf, size_t len)
{
	int n;

	if (!desc->name)
		return -ENOENT;
	if (desc->type == hwmon_chip)
		n = snprintf(buf, len, "%s", desc->name);
	else
		n = snprintf(buf, len, desc->name,
			     channel + hwmon_fake_attr_index_base(desc->type));
	return n < len ? 0 : -E2BIG;
}

static struct hwmon_fake_chip *fake_chip_check(struct hwmon_fake_chip *chip,
					       enum hwmon_sensor_types type,
					       u32 attr, int channel)
{
	if (type < 0 || type >= hwmon_max || attr >= HWMON_FAKE_MAX_ATTRS ||
	    channel < 0 || channel >= HWMON_FAKE_MAX_CHANNELS) {
		chip->bad_calls++;
		return NULL;
	}
	return chip;
}

static umode_t fake_is_visible(const void *drvdata,
			       enum hwmon_sensor_types type, u32 attr,
			       int channel)
{
	struct hwmon_fake_chip *chip = (struct hwmon_fake_chip *)drvdata;

	chip->total_visible_calls++;
	chip->last_drvdata = drvdata;
	if (!fake_chip_check(chip, type, attr, channel))
		return 0;
	chip->visible_calls[type][attr][channel]++;
	return chip->mode[type][attr][channel];
}

static int fake_read(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	struct hwmon_fake_chip *chip = dev_get_drvdata(dev);

	chip->total_reads++;
	chip->last_dev = dev;
	if (!fake_chip_check(chip, type, attr, channel))
		return -EINVAL;
	chip->reads[type][attr][channel]++;
	if (chip->read_error[type][attr])
		return chip->read_error[type][attr];
#ifdef HWMON_TEST_HAVE_ENERGY64
	/* energy64: the core passes an s64 as a long pointer */
	if (type == hwmon_energy64) {
		*(s64 *)val = chip->value[type][attr][channel];
		return 0;
	}
#endif
	*val = chip->value[type][attr][channel];
	return 0;
}

static int fake_read_string(struct device *dev, enum hwmon_sensor_types type,
			    u32 attr, int channel, const char **str)
{
	struct hwmon_fake_chip *chip = dev_get_drvdata(dev);

	chip->total_read_strings++;
	chip->last_dev = dev;
	if (!fake_chip_check(chip, type, attr, channel))
		return -EINVAL;
	chip->read_strings[type][attr][channel]++;
	if (chip->read_error[type][attr])
		return chip->read_error[type][attr];
	*str = chip->label[type][channel];
	return 0;
}

static int fake_write(struct device *dev, enum hwmon_sensor_types type,
		      u32 attr, int channel, long val)
{
	struct hwmon_fake_chip *chip = dev_get_drvdata(dev);

	chip->total_writes++;
	chip->last_dev = dev;
	if (!fake_chip_check(chip, type, attr, channel))
		return -EINVAL;
	chip->writes[type][attr][channel]++;
	if (chip->write_error[type][attr])
		return chip->write_error[type][attr];
	chip->value[type][attr][channel] = val;
	return 0;
}

#define FAKE_OPS(_is_visible, _read, _read_string, _write)		\
	{								\
		.is_visible = _is_visible, .read = _read,		\
		.read_string = _read_string, .write = _write,		\
	}

#define V	fake_is_visible
#define R	fake_read
#define S	fake_read_string
#define W	fake_write

/* Operations for every combination of HWMON_FAKE_NO_* flags. */
static const struct hwmon_ops fake_ops[16] = {
	FAKE_OPS(V, R, S, W),		FAKE_OPS(NULL, R, S, W),
	FAKE_OPS(V, NULL, S, W),	FAKE_OPS(NULL, NULL, S, W),
	FAKE_OPS(V, R, NULL, W),	FAKE_OPS(NULL, R, NULL, W),
	FAKE_OPS(V, NULL, NULL, W),	FAKE_OPS(NULL, NULL, NULL, W),
	FAKE_OPS(V, R, S, NULL),	FAKE_OPS(NULL, R, S, NULL),
	FAKE_OPS(V, NULL, S, NULL),	FAKE_OPS(NULL, NULL, S, NULL),
	FAKE_OPS(V, R, NULL, NULL),	FAKE_OPS(NULL, R, NULL, NULL),
	FAKE_OPS(V, NULL, NULL, NULL),	FAKE_OPS(NULL, NULL, NULL, NULL),
};

#undef V
#undef R
#undef S
#undef W

/**
 * hwmon_fake_chip_new() - create a fake chip with no channels
 * @test: the test; the chip is freed when it ends
 *
 * Every attribute gets the mode of its table entry for every channel, the
 * value 1000 * type + 10 * attr + channel and the label "fake <type>".
 * The chip has all four callbacks; a test may leave some out by setting
 * HWMON_FAKE_NO_* flags in @chip->missing_ops before it calls
 * hwmon_fake_chip_info(). Fails the test on ENOMEM.
 *
 * Return: the chip.
 */
struct hwmon_fake_chip *hwmon_fake_chip_new(struct kunit *test)
{
	struct hwmon_fake_chip *chip;
	size_t i;
	int t, a, c;

	chip = kunit_kzalloc(test, sizeof(*chip), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, chip);
	chip->test = test;

	for (i = 0; i < hwmon_fake_attr_count; i++)
		for (c = 0; c < HWMON_FAKE_MAX_CHANNELS; c++)
			chip->mode[hwmon_fake_attrs[i].type][hwmon_fake_attrs[i].attr][c] =
				hwmon_fake_attrs[i].mode;
	for (t = 0; t < hwmon_max; t++) {
		for (a = 0; a < HWMON_FAKE_MAX_ATTRS; a++)
			for (c = 0; c < HWMON_FAKE_MAX_CHANNELS; c++)
				chip->value[t][a][c] = 1000L * t + 10L * a + c;
		for (c = 0; c < HWMON_FAKE_MAX_CHANNELS; c++)
			chip->label[t][c] = fake_default_label[t];
	}

	chip->chip.info = chip->info;
	return chip;
}

/**
 * hwmon_fake_chip_set_channels() - configure the channels of a sensor type
 * @chip: the fake chip
 * @type: sensor type
 * @channels: number of channels (0 removes the type), at most
 *	%HWMON_FAKE_MAX_CHANNELS
 * @config: attribute bits every channel gets
 */
void hwmon_fake_chip_set_channels(struct hwmon_fake_chip *chip,
				  enum hwmon_sensor_types type,
				  int channels, u32 config)
{
	int c;

	KUNIT_ASSERT_LE(chip->test, channels, HWMON_FAKE_MAX_CHANNELS);
	memset(chip->config[type], 0, sizeof(chip->config[type]));
	for (c = 0; c < channels; c++)
		chip->config[type][c] = config;
}

/**
 * hwmon_fake_chip_set_all() - configure every type with every attribute bit
 * @chip: the fake chip
 * @channels: channels per sensor type; the chip type always gets one
 *
 * All types but energy64 (6.12): its files have the names of energy's, so a
 * chip has channels of one or the other; the suites cover energy64 on its
 * own.
 */
void hwmon_fake_chip_set_all(struct hwmon_fake_chip *chip, int channels)
{
	int t;

	for (t = 0; t < hwmon_max; t++) {
#ifdef HWMON_TEST_HAVE_ENERGY64
		if (t == hwmon_energy64)
			continue;
#endif
		hwmon_fake_chip_set_channels(chip, t, t == hwmon_chip ? 1 : channels,
					     fake_all_config[t]);
	}
}

/**
 * hwmon_fake_chip_set_mode() - set what is_visible() returns
 * @chip: the fake chip
 * @type: sensor type
 * @attr: attribute number
 * @channel: channel number, or -1 for every channel
 * @mode: file mode to return, 0 to hide the attribute
 */
void hwmon_fake_chip_set_mode(struct hwmon_fake_chip *chip,
			      enum hwmon_sensor_types type, u32 attr,
			      int channel, umode_t mode)
{
	int c;

	for (c = 0; c < HWMON_FAKE_MAX_CHANNELS; c++)
		if (channel < 0 || c == channel)
			chip->mode[type][attr][c] = mode;
}

/**
 * hwmon_fake_chip_info() - the chip description to register
 * @chip: the fake chip
 *
 * Builds the channel list from the configuration (one entry per sensor type
 * that has channels, in type order) and picks the operations that lack the
 * callbacks named in @chip->missing_ops.
 *
 * Return: &@chip->chip.
 */
const struct hwmon_chip_info *hwmon_fake_chip_info(struct hwmon_fake_chip *chip)
{
	int t, n = 0;

	for (t = 0; t < hwmon_max; t++) {
		if (!chip->config[t][0])
			continue;
		chip->channels[t].type = t;
		chip->channels[t].config = chip->config[t];
		chip->info[n++] = &chip->channels[t];
	}
	chip->info[n] = NULL;
	chip->chip.ops = &fake_ops[chip->missing_ops & 15];
	return &chip->chip;
}

/**
 * hwmon_fake_chip_file_count() - number of attribute files the chip asks for
 * @chip: the fake chip
 *
 * Return: the number of (configured bit, channel) pairs that have a file
 * name and a non-zero mode.
 */
int hwmon_fake_chip_file_count(const struct hwmon_fake_chip *chip)
{
	const struct hwmon_fake_attr *desc;
	int count = 0;
	size_t i;
	int c;

	for (i = 0; i < hwmon_fake_attr_count; i++) {
		desc = &hwmon_fake_attrs[i];
		if (!desc->name)
			continue;
		for (c = 0; chip->config[desc->type][c]; c++)
			if ((chip->config[desc->type][c] & desc->bit) &&
			    chip->mode[desc->type][desc->attr][c])
				count++;
	}
	return count;
}
