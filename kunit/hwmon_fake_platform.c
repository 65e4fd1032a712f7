// SPDX-License-Identifier: GPL-2.0-only
/*
 * A fake hardware monitoring chip on a platform device, for booted systems.
 *
 * Unlike the KUnit fake chip, this one is an ordinary driver: at boot (or
 * module load) it creates a platform device "hwmon-fake" and binds a
 * driver to it that registers a chip named "hwmon_fake" through
 * devm_hwmon_device_register_with_info(). The chip has channels of every
 * sensor type, fixed initial values, labels and writable limits, so that a
 * userspace client such as lm-sensors sees a well-known, deterministic
 * device. The end-to-end test (e2e/) boots a kernel with this driver built
 * in and compares the sysfs tree it produces under two hwmon cores.
 *
 * Behaviour a client can observe:
 *  - temp1 has every temperature attribute but lcrit and lcrit_hyst, which
 *    temp2 has: the `sensors` program of lm-sensors 3.6.0 has room for ten
 *    temperature limits per channel and overflows its stack with all twelve;
 *  - temp2_input fails with -ENODATA and temp2_fault reads 1 (an open
 *    remote diode);
 *  - writes to an enable or beep file take 0 or 1, pwm1 takes 0..255,
 *    pwm1_enable 0..2, pwm1_mode 0..1, fan1_div a power of two up to 128,
 *    intrusion0_alarm only 0 (clears it), other writes take any value in
 *    [-FAKE_LIMIT, FAKE_LIMIT]; anything else fails with -EINVAL;
 *  - writing a *_reset_history file copies each input value into its
 *    lowest/highest values;
 *  - on a tree whose header has them (6.12): beep_enable and the beep files
 *    of temp1, in0, curr1 and fan1, in0_fault, humidity1_min_alarm and
 *    humidity1_max_alarm, HWMON_C_PEC (no file: the parent is no I2C
 *    client), and the energy channel is an energy64 one whose value needs
 *    more than 32 bits (both types name their files energyN_*, so a chip
 *    has one or the other).
 */

#include <linux/device.h>
#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>

#define FAKE_DEV_NAME	"hwmon-fake"
#define FAKE_HWMON_NAME	"hwmon_fake"
#define FAKE_CHANNELS	2
#define FAKE_ATTRS	32
#define FAKE_LIMIT	1000000000L

static_assert(hwmon_chip_temp_samples < FAKE_ATTRS);
static_assert(hwmon_temp_rated_max < FAKE_ATTRS);
static_assert(hwmon_in_rated_max < FAKE_ATTRS);
static_assert(hwmon_curr_rated_max < FAKE_ATTRS);
static_assert(hwmon_power_rated_max < FAKE_ATTRS);
static_assert(hwmon_humidity_rated_max < FAKE_ATTRS);
static_assert(hwmon_fan_fault < FAKE_ATTRS);
/* fake_check() relies on every enable attribute being number 0. */
static_assert(hwmon_temp_enable == 0 && hwmon_in_enable == 0);
static_assert(hwmon_curr_enable == 0 && hwmon_power_enable == 0);
static_assert(hwmon_energy_enable == 0 && hwmon_humidity_enable == 0);
static_assert(hwmon_fan_enable == 0);

/**
 * struct fake_hwmon - state of the fake chip
 * @lock: serialises reads and writes of @val
 * @val: current value per sensor type, attribute and channel
 */
struct fake_hwmon {
	struct mutex lock; /* protects val */
	long val[hwmon_max][FAKE_ATTRS][FAKE_CHANNELS];
};

/* Initial values of channel 0 (and of channel 1 unless overridden below). */
static const long fake_chip_init[FAKE_ATTRS] = {
	[hwmon_chip_update_interval] = 1000,
	[hwmon_chip_samples] = 8,
	[hwmon_chip_curr_samples] = 4,
	[hwmon_chip_in_samples] = 4,
	[hwmon_chip_power_samples] = 16,
	[hwmon_chip_temp_samples] = 2,
};

static const long fake_temp_init[FAKE_ATTRS] = {
	[hwmon_temp_enable] = 1,
	[hwmon_temp_input] = 41000,
	[hwmon_temp_type] = 4,
	[hwmon_temp_lcrit] = -20000,
	[hwmon_temp_lcrit_hyst] = -15000,
	[hwmon_temp_min] = 5000,
	[hwmon_temp_min_hyst] = 7000,
	[hwmon_temp_max] = 80000,
	[hwmon_temp_max_hyst] = 75000,
	[hwmon_temp_crit] = 95000,
	[hwmon_temp_crit_hyst] = 90000,
	[hwmon_temp_emergency] = 105000,
	[hwmon_temp_emergency_hyst] = 100000,
	[hwmon_temp_offset] = 500,
	[hwmon_temp_lowest] = 20000,
	[hwmon_temp_highest] = 60000,
	[hwmon_temp_rated_min] = -40000,
	[hwmon_temp_rated_max] = 125000,
};

static const long fake_in_init[FAKE_ATTRS] = {
	[hwmon_in_enable] = 1,
	[hwmon_in_input] = 3300,
	[hwmon_in_min] = 3000,
	[hwmon_in_max] = 3600,
	[hwmon_in_lcrit] = 2900,
	[hwmon_in_crit] = 3700,
	[hwmon_in_average] = 3310,
	[hwmon_in_lowest] = 3280,
	[hwmon_in_highest] = 3350,
	[hwmon_in_rated_min] = 2700,
	[hwmon_in_rated_max] = 3900,
};

static const long fake_curr_init[FAKE_ATTRS] = {
	[hwmon_curr_enable] = 1,
	[hwmon_curr_input] = 1500,
	[hwmon_curr_min] = 100,
	[hwmon_curr_max] = 2000,
	[hwmon_curr_lcrit] = 50,
	[hwmon_curr_crit] = 2500,
	[hwmon_curr_average] = 1450,
	[hwmon_curr_lowest] = 1200,
	[hwmon_curr_highest] = 1800,
	[hwmon_curr_rated_min] = 0,
	[hwmon_curr_rated_max] = 3000,
};

static const long fake_power_init[FAKE_ATTRS] = {
	[hwmon_power_enable] = 1,
	[hwmon_power_average] = 12500000,
	[hwmon_power_average_interval] = 1000,
	[hwmon_power_average_interval_max] = 10000,
	[hwmon_power_average_interval_min] = 100,
	[hwmon_power_average_highest] = 20000000,
	[hwmon_power_average_lowest] = 5000000,
	[hwmon_power_average_max] = 30000000,
	[hwmon_power_average_min] = 1000000,
	[hwmon_power_input] = 12000000,
	[hwmon_power_input_highest] = 21000000,
	[hwmon_power_input_lowest] = 4000000,
	[hwmon_power_accuracy] = 95,
	[hwmon_power_cap] = 25000000,
	[hwmon_power_cap_hyst] = 1000000,
	[hwmon_power_cap_max] = 30000000,
	[hwmon_power_cap_min] = 5000000,
	[hwmon_power_min] = 1000000,
	[hwmon_power_max] = 28000000,
	[hwmon_power_crit] = 32000000,
	[hwmon_power_lcrit] = 500000,
	[hwmon_power_rated_min] = 0,
	[hwmon_power_rated_max] = 35000000,
};

static const long fake_energy_init[FAKE_ATTRS] = {
	[hwmon_energy_enable] = 1,
	[hwmon_energy_input] = 123456789,
};

#ifdef HWMON_TEST_HAVE_ENERGY64
#define FAKE_ENERGY	hwmon_energy64
static const long fake_energy64_init[FAKE_ATTRS] = {
	[hwmon_energy_enable] = 1,
	[hwmon_energy_input] = 98765432109876L,
};
#else
#define FAKE_ENERGY	hwmon_energy
#endif

/* The attribute bits of the 6.12 header (none on 6.1). */
#ifdef HWMON_C_BEEP_ENABLE
#define FAKE_612_CHIP	(HWMON_C_BEEP_ENABLE | HWMON_C_PEC)
#define FAKE_612_TEMP	HWMON_T_BEEP
#define FAKE_612_IN	(HWMON_I_BEEP | HWMON_I_FAULT)
#define FAKE_612_CURR	HWMON_C_BEEP
#define FAKE_612_HUMIDITY (HWMON_H_MIN_ALARM | HWMON_H_MAX_ALARM)
#define FAKE_612_FAN	HWMON_F_BEEP
#define FAKE_612_RW_CHIP HWMON_C_BEEP_ENABLE
#define FAKE_612_IN_RO	HWMON_I_FAULT
#else
#define FAKE_612_CHIP	0
#define FAKE_612_TEMP	0
#define FAKE_612_IN	0
#define FAKE_612_CURR	0
#define FAKE_612_HUMIDITY 0
#define FAKE_612_FAN	0
#define FAKE_612_RW_CHIP 0
#define FAKE_612_IN_RO	0
#endif

static const long fake_humidity_init[FAKE_ATTRS] = {
	[hwmon_humidity_enable] = 1,
	[hwmon_humidity_input] = 45500,
	[hwmon_humidity_min] = 20000,
	[hwmon_humidity_min_hyst] = 22000,
	[hwmon_humidity_max] = 80000,
	[hwmon_humidity_max_hyst] = 78000,
	[hwmon_humidity_rated_min] = 0,
	[hwmon_humidity_rated_max] = 100000,
};

static const long fake_fan_init[FAKE_ATTRS] = {
	[hwmon_fan_enable] = 1,
	[hwmon_fan_input] = 2400,
	[hwmon_fan_min] = 600,
	[hwmon_fan_max] = 5000,
	[hwmon_fan_div] = 2,
	[hwmon_fan_pulses] = 2,
	[hwmon_fan_target] = 2500,
};

static const long fake_pwm_init[FAKE_ATTRS] = {
	[hwmon_pwm_input] = 128,
	[hwmon_pwm_enable] = 2,
	[hwmon_pwm_mode] = 1,
	[hwmon_pwm_freq] = 25000,
	[hwmon_pwm_auto_channels_temp] = 1,
};

static const long * const fake_init[hwmon_max] = {
	[hwmon_chip] = fake_chip_init,
	[hwmon_temp] = fake_temp_init,
	[hwmon_in] = fake_in_init,
	[hwmon_curr] = fake_curr_init,
	[hwmon_power] = fake_power_init,
	[hwmon_energy] = fake_energy_init,
#ifdef HWMON_TEST_HAVE_ENERGY64
	[hwmon_energy64] = fake_energy64_init,
#endif
	[hwmon_humidity] = fake_humidity_init,
	[hwmon_fan] = fake_fan_init,
	[hwmon_pwm] = fake_pwm_init,
};

/* Channel 1 values that differ from channel 0. */
static const struct {
	enum hwmon_sensor_types type;
	u32 attr;
	long val;
} fake_ch1_init[] = {
	{ hwmon_temp, hwmon_temp_fault, 1 },
	{ hwmon_temp, hwmon_temp_max, 70000 },
	{ hwmon_in, hwmon_in_input, 1200 },
	{ hwmon_in, hwmon_in_min, 1100 },
	{ hwmon_in, hwmon_in_max, 1300 },
};

static const char * const fake_labels[hwmon_max][FAKE_CHANNELS] = {
	[hwmon_temp] = { "Board", "Remote (open)" },
	[hwmon_in] = { "VCC 3.3V", "VCORE" },
	[hwmon_curr] = { "Input current" },
	[hwmon_power] = { "Board power" },
	[FAKE_ENERGY] = { "Board energy" },
	[hwmon_humidity] = { "Ambient RH" },
	[hwmon_fan] = { "Chassis fan" },
};

/* Attributes that can be written (and read), per sensor type. */
static const u32 fake_rw[hwmon_max] = {
	[hwmon_chip] = HWMON_C_UPDATE_INTERVAL | HWMON_C_SAMPLES |
		HWMON_C_CURR_SAMPLES | HWMON_C_IN_SAMPLES |
		HWMON_C_POWER_SAMPLES | HWMON_C_TEMP_SAMPLES | FAKE_612_RW_CHIP,
	[hwmon_temp] = HWMON_T_ENABLE | HWMON_T_TYPE | HWMON_T_LCRIT |
		HWMON_T_LCRIT_HYST | HWMON_T_MIN | HWMON_T_MIN_HYST |
		HWMON_T_MAX | HWMON_T_MAX_HYST | HWMON_T_CRIT |
		HWMON_T_CRIT_HYST | HWMON_T_EMERGENCY |
		HWMON_T_EMERGENCY_HYST | HWMON_T_OFFSET | FAKE_612_TEMP,
	[hwmon_in] = HWMON_I_ENABLE | HWMON_I_MIN | HWMON_I_MAX |
		HWMON_I_LCRIT | HWMON_I_CRIT | (FAKE_612_IN & ~FAKE_612_IN_RO),
	[hwmon_curr] = HWMON_C_ENABLE | HWMON_C_MIN | HWMON_C_MAX |
		HWMON_C_LCRIT | HWMON_C_CRIT | FAKE_612_CURR,
	[hwmon_power] = HWMON_P_ENABLE | HWMON_P_AVERAGE_INTERVAL |
		HWMON_P_AVERAGE_MAX | HWMON_P_AVERAGE_MIN | HWMON_P_CAP |
		HWMON_P_CAP_HYST | HWMON_P_MIN | HWMON_P_MAX | HWMON_P_CRIT |
		HWMON_P_LCRIT,
	[FAKE_ENERGY] = HWMON_E_ENABLE,
	[hwmon_humidity] = HWMON_H_ENABLE | HWMON_H_MIN | HWMON_H_MIN_HYST |
		HWMON_H_MAX | HWMON_H_MAX_HYST,
	[hwmon_fan] = HWMON_F_ENABLE | HWMON_F_MIN | HWMON_F_MAX |
		HWMON_F_DIV | HWMON_F_PULSES | HWMON_F_TARGET | FAKE_612_FAN,
	[hwmon_pwm] = HWMON_PWM_INPUT | HWMON_PWM_ENABLE | HWMON_PWM_MODE |
		HWMON_PWM_FREQ | HWMON_PWM_AUTO_CHANNELS_TEMP,
	[hwmon_intrusion] = HWMON_INTRUSION_ALARM | HWMON_INTRUSION_BEEP,
};

/* Attributes that can only be written, per sensor type. */
static const u32 fake_wo[hwmon_max] = {
	[hwmon_chip] = HWMON_C_TEMP_RESET_HISTORY | HWMON_C_IN_RESET_HISTORY |
		HWMON_C_CURR_RESET_HISTORY | HWMON_C_POWER_RESET_HISTORY,
	[hwmon_temp] = HWMON_T_RESET_HISTORY,
	[hwmon_in] = HWMON_I_RESET_HISTORY,
	[hwmon_curr] = HWMON_C_RESET_HISTORY,
	[hwmon_power] = HWMON_P_RESET_HISTORY,
};

static umode_t fake_is_visible(const void *drvdata,
			       enum hwmon_sensor_types type, u32 attr,
			       int channel)
{
	if (type >= hwmon_max || attr >= FAKE_ATTRS)
		return 0;
	if (fake_wo[type] & BIT(attr))
		return 0200;
	if (fake_rw[type] & BIT(attr))
		return 0644;
	return 0444;
}

static bool fake_valid(enum hwmon_sensor_types type, u32 attr, int channel)
{
	return type < hwmon_max && attr < FAKE_ATTRS &&
	       channel >= 0 && channel < FAKE_CHANNELS;
}

static int fake_read(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	struct fake_hwmon *st = dev_get_drvdata(dev);

	if (!fake_valid(type, attr, channel))
		return -EOPNOTSUPP;
	if (type == hwmon_temp && attr == hwmon_temp_input && channel == 1)
		return -ENODATA;

	mutex_lock(&st->lock);
#ifdef HWMON_TEST_HAVE_ENERGY64
	/* energy64: the core passes an s64 as a long pointer */
	if (type == hwmon_energy64)
		*(s64 *)val = st->val[type][attr][channel];
	else
#endif
		*val = st->val[type][attr][channel];
	mutex_unlock(&st->lock);
	return 0;
}

static int fake_read_string(struct device *dev, enum hwmon_sensor_types type,
			    u32 attr, int channel, const char **str)
{
	if (!fake_valid(type, 0, channel) || !fake_labels[type][channel])
		return -EOPNOTSUPP;
	*str = fake_labels[type][channel];
	return 0;
}

/* Check a value written to an attribute; 0 if acceptable. */
static int fake_check(enum hwmon_sensor_types type, u32 attr, long val)
{
	bool ok;

	switch (type) {
	case hwmon_pwm:
		if (attr == hwmon_pwm_input)
			ok = val >= 0 && val <= 255;
		else if (attr == hwmon_pwm_enable)
			ok = val >= 0 && val <= 2;
		else if (attr == hwmon_pwm_mode)
			ok = val == 0 || val == 1;
		else
			ok = val >= 0 && val <= FAKE_LIMIT;
		break;
	case hwmon_intrusion:
		ok = attr == hwmon_intrusion_alarm ? val == 0 :
		     val == 0 || val == 1;
		break;
	case hwmon_fan:
		if (attr == hwmon_fan_div) {
			ok = val >= 1 && val <= 128 && is_power_of_2(val);
			break;
		}
		fallthrough;
	default:
		/* Every sensor type numbers its enable attribute 0. */
		if (type != hwmon_chip && attr == 0)
			ok = val == 0 || val == 1;
		else
			ok = val >= -FAKE_LIMIT && val <= FAKE_LIMIT;
		break;
	}
	return ok ? 0 : -EINVAL;
}

/* Copy input into lowest/highest of one channel; called with the lock held. */
static void fake_reset_history(struct fake_hwmon *st,
			       enum hwmon_sensor_types type, int channel)
{
	long (*v)[FAKE_CHANNELS] = st->val[type];

	switch (type) {
	case hwmon_temp:
		v[hwmon_temp_lowest][channel] = v[hwmon_temp_input][channel];
		v[hwmon_temp_highest][channel] = v[hwmon_temp_input][channel];
		break;
	case hwmon_in:
		v[hwmon_in_lowest][channel] = v[hwmon_in_input][channel];
		v[hwmon_in_highest][channel] = v[hwmon_in_input][channel];
		break;
	case hwmon_curr:
		v[hwmon_curr_lowest][channel] = v[hwmon_curr_input][channel];
		v[hwmon_curr_highest][channel] = v[hwmon_curr_input][channel];
		break;
	case hwmon_power:
		v[hwmon_power_input_lowest][channel] =
			v[hwmon_power_input][channel];
		v[hwmon_power_input_highest][channel] =
			v[hwmon_power_input][channel];
		v[hwmon_power_average_lowest][channel] =
			v[hwmon_power_average][channel];
		v[hwmon_power_average_highest][channel] =
			v[hwmon_power_average][channel];
		break;
	default:
		break;
	}
}

static void fake_reset_all(struct fake_hwmon *st, enum hwmon_sensor_types type)
{
	int channel;

	for (channel = 0; channel < FAKE_CHANNELS; channel++)
		fake_reset_history(st, type, channel);
}

static int fake_write(struct device *dev, enum hwmon_sensor_types type,
		      u32 attr, int channel, long val)
{
	struct fake_hwmon *st = dev_get_drvdata(dev);
	int ret;

	if (!fake_valid(type, attr, channel))
		return -EOPNOTSUPP;
	if (!((fake_rw[type] | fake_wo[type]) & BIT(attr)))
		return -EOPNOTSUPP;
	ret = fake_check(type, attr, val);
	if (ret)
		return ret;

	mutex_lock(&st->lock);
	if (type == hwmon_chip && attr == hwmon_chip_temp_reset_history)
		fake_reset_all(st, hwmon_temp);
	else if (type == hwmon_chip && attr == hwmon_chip_in_reset_history)
		fake_reset_all(st, hwmon_in);
	else if (type == hwmon_chip && attr == hwmon_chip_curr_reset_history)
		fake_reset_all(st, hwmon_curr);
	else if (type == hwmon_chip && attr == hwmon_chip_power_reset_history)
		fake_reset_all(st, hwmon_power);
	else if (fake_wo[type] & BIT(attr))
		fake_reset_history(st, type, channel);
	else
		st->val[type][attr][channel] = val;
	mutex_unlock(&st->lock);
	return 0;
}

static const struct hwmon_ops fake_ops = {
	.is_visible = fake_is_visible,
	.read = fake_read,
	.read_string = fake_read_string,
	.write = fake_write,
};

static const struct hwmon_channel_info *fake_info[] = {
	HWMON_CHANNEL_INFO(chip,
			   HWMON_C_TEMP_RESET_HISTORY | HWMON_C_IN_RESET_HISTORY |
			   HWMON_C_CURR_RESET_HISTORY |
			   HWMON_C_POWER_RESET_HISTORY |
			   HWMON_C_UPDATE_INTERVAL | HWMON_C_ALARMS |
			   HWMON_C_SAMPLES | HWMON_C_CURR_SAMPLES |
			   HWMON_C_IN_SAMPLES | HWMON_C_POWER_SAMPLES |
			   HWMON_C_TEMP_SAMPLES | FAKE_612_CHIP),
	HWMON_CHANNEL_INFO(temp,
			   HWMON_T_ENABLE | HWMON_T_INPUT | HWMON_T_TYPE |
			   HWMON_T_MIN | HWMON_T_MIN_HYST | HWMON_T_MAX |
			   HWMON_T_MAX_HYST |
			   HWMON_T_CRIT | HWMON_T_CRIT_HYST |
			   HWMON_T_EMERGENCY | HWMON_T_EMERGENCY_HYST |
			   HWMON_T_ALARM | HWMON_T_LCRIT_ALARM |
			   HWMON_T_MIN_ALARM | HWMON_T_MAX_ALARM |
			   HWMON_T_CRIT_ALARM | HWMON_T_EMERGENCY_ALARM |
			   HWMON_T_FAULT | HWMON_T_OFFSET | HWMON_T_LABEL |
			   HWMON_T_LOWEST | HWMON_T_HIGHEST |
			   HWMON_T_RESET_HISTORY | HWMON_T_RATED_MIN |
			   HWMON_T_RATED_MAX | FAKE_612_TEMP,
			   HWMON_T_INPUT | HWMON_T_LABEL | HWMON_T_MAX |
			   HWMON_T_LCRIT | HWMON_T_LCRIT_HYST |
			   HWMON_T_FAULT),
	HWMON_CHANNEL_INFO(in,
			   HWMON_I_ENABLE | HWMON_I_INPUT | HWMON_I_MIN |
			   HWMON_I_MAX | HWMON_I_LCRIT | HWMON_I_CRIT |
			   HWMON_I_AVERAGE | HWMON_I_LOWEST | HWMON_I_HIGHEST |
			   HWMON_I_RESET_HISTORY | HWMON_I_LABEL |
			   HWMON_I_ALARM | HWMON_I_MIN_ALARM |
			   HWMON_I_MAX_ALARM | HWMON_I_LCRIT_ALARM |
			   HWMON_I_CRIT_ALARM | HWMON_I_RATED_MIN |
			   HWMON_I_RATED_MAX | FAKE_612_IN,
			   HWMON_I_INPUT | HWMON_I_MIN | HWMON_I_MAX |
			   HWMON_I_LABEL),
	HWMON_CHANNEL_INFO(curr,
			   HWMON_C_ENABLE | HWMON_C_INPUT | HWMON_C_MIN |
			   HWMON_C_MAX | HWMON_C_LCRIT | HWMON_C_CRIT |
			   HWMON_C_AVERAGE | HWMON_C_LOWEST | HWMON_C_HIGHEST |
			   HWMON_C_RESET_HISTORY | HWMON_C_LABEL |
			   HWMON_C_ALARM | HWMON_C_MIN_ALARM |
			   HWMON_C_MAX_ALARM | HWMON_C_LCRIT_ALARM |
			   HWMON_C_CRIT_ALARM | HWMON_C_RATED_MIN |
			   HWMON_C_RATED_MAX | FAKE_612_CURR),
	HWMON_CHANNEL_INFO(power,
			   HWMON_P_ENABLE | HWMON_P_AVERAGE |
			   HWMON_P_AVERAGE_INTERVAL |
			   HWMON_P_AVERAGE_INTERVAL_MAX |
			   HWMON_P_AVERAGE_INTERVAL_MIN |
			   HWMON_P_AVERAGE_HIGHEST | HWMON_P_AVERAGE_LOWEST |
			   HWMON_P_AVERAGE_MAX | HWMON_P_AVERAGE_MIN |
			   HWMON_P_INPUT | HWMON_P_INPUT_HIGHEST |
			   HWMON_P_INPUT_LOWEST | HWMON_P_RESET_HISTORY |
			   HWMON_P_ACCURACY | HWMON_P_CAP | HWMON_P_CAP_HYST |
			   HWMON_P_CAP_MAX | HWMON_P_CAP_MIN | HWMON_P_MIN |
			   HWMON_P_MAX | HWMON_P_CRIT | HWMON_P_LCRIT |
			   HWMON_P_LABEL | HWMON_P_ALARM | HWMON_P_CAP_ALARM |
			   HWMON_P_MIN_ALARM | HWMON_P_MAX_ALARM |
			   HWMON_P_LCRIT_ALARM | HWMON_P_CRIT_ALARM |
			   HWMON_P_RATED_MIN | HWMON_P_RATED_MAX),
#ifdef HWMON_TEST_HAVE_ENERGY64
	HWMON_CHANNEL_INFO(energy64,
			   HWMON_E_ENABLE | HWMON_E_INPUT | HWMON_E_LABEL),
#else
	HWMON_CHANNEL_INFO(energy,
			   HWMON_E_ENABLE | HWMON_E_INPUT | HWMON_E_LABEL),
#endif
	HWMON_CHANNEL_INFO(humidity,
			   HWMON_H_ENABLE | HWMON_H_INPUT | HWMON_H_LABEL |
			   HWMON_H_MIN | HWMON_H_MIN_HYST | HWMON_H_MAX |
			   HWMON_H_MAX_HYST | HWMON_H_ALARM | HWMON_H_FAULT |
			   HWMON_H_RATED_MIN | HWMON_H_RATED_MAX |
			   FAKE_612_HUMIDITY),
	HWMON_CHANNEL_INFO(fan,
			   HWMON_F_ENABLE | HWMON_F_INPUT | HWMON_F_LABEL |
			   HWMON_F_MIN | HWMON_F_MAX | HWMON_F_DIV |
			   HWMON_F_PULSES | HWMON_F_TARGET | HWMON_F_ALARM |
			   HWMON_F_MIN_ALARM | HWMON_F_MAX_ALARM |
			   HWMON_F_FAULT | FAKE_612_FAN),
	HWMON_CHANNEL_INFO(pwm,
			   HWMON_PWM_INPUT | HWMON_PWM_ENABLE | HWMON_PWM_MODE |
			   HWMON_PWM_FREQ | HWMON_PWM_AUTO_CHANNELS_TEMP),
	HWMON_CHANNEL_INFO(intrusion,
			   HWMON_INTRUSION_ALARM | HWMON_INTRUSION_BEEP),
	NULL
};

static const struct hwmon_chip_info fake_chip_info = {
	.ops = &fake_ops,
	.info = fake_info,
};

static int fake_probe(struct platform_device *pdev)
{
	struct device *dev = &pdev->dev;
	struct device *hwmon;
	struct fake_hwmon *st;
	int type, attr, ch, i;

	st = devm_kzalloc(dev, sizeof(*st), GFP_KERNEL);
	if (!st)
		return -ENOMEM;
	mutex_init(&st->lock);

	for (type = 0; type < hwmon_max; type++) {
		if (!fake_init[type])
			continue;
		for (attr = 0; attr < FAKE_ATTRS; attr++)
			for (ch = 0; ch < FAKE_CHANNELS; ch++)
				st->val[type][attr][ch] = fake_init[type][attr];
	}
	for (i = 0; i < ARRAY_SIZE(fake_ch1_init); i++)
		st->val[fake_ch1_init[i].type][fake_ch1_init[i].attr][1] =
			fake_ch1_init[i].val;

	hwmon = devm_hwmon_device_register_with_info(dev, FAKE_HWMON_NAME, st,
						     &fake_chip_info, NULL);
	return PTR_ERR_OR_ZERO(hwmon);
}

static struct platform_driver fake_driver = {
	.driver = {
		.name = FAKE_DEV_NAME,
	},
	.probe = fake_probe,
};

static struct platform_device *fake_pdev;

static int __init fake_init_module(void)
{
	int ret;

	ret = platform_driver_register(&fake_driver);
	if (ret)
		return ret;

	fake_pdev = platform_device_register_simple(FAKE_DEV_NAME,
						    PLATFORM_DEVID_NONE,
						    NULL, 0);
	if (IS_ERR(fake_pdev)) {
		platform_driver_unregister(&fake_driver);
		return PTR_ERR(fake_pdev);
	}
	return 0;
}
module_init(fake_init_module);

static void __exit fake_exit_module(void)
{
	platform_device_unregister(fake_pdev);
	platform_driver_unregister(&fake_driver);
}
module_exit(fake_exit_module);

MODULE_DESCRIPTION("Fake all-types hwmon chip on a platform device");
MODULE_LICENSE("GPL");
