// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites running the in-tree lm75, tmp102, jc42 and lm90 drivers on
 * emulated chips of a fake SMBus adapter (hwmon_fake_smbus). The drivers
 * register their hwmon devices with devm_hwmon_device_register_with_info()
 * as on real boards; the suites check the files the core creates from
 * their chip descriptions, that values travel from the emulated registers
 * to the files and from the files to the registers, and that unbinding
 * leaves the chip as the driver promises.
 *
 * Caching: lm75, tmp102 and jc42 read their temperature registers on every
 * read (regmap volatile registers) and cache their limits, so a test only
 * checks limits it wrote itself. lm90 caches everything for its update
 * interval (500 ms after probe), so every lm90 test sets the chip state
 * first and probes afterwards: the first read after probe always reads the
 * chip. tmp102 refuses to report a temperature during the 35 ms of its
 * first conversion after probe; tmp102_probe() waits that out.
 */

#include <kunit/test.h>
#include <linux/delay.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/string.h>

#include "hwmon_driver_util.h"
#include "hwmon_fake_smbus.h"
#include "hwmon_sysfs_util.h"

#define LM75_ADDR	0x48
#define TMP102_ADDR	0x49
#define JC42_ADDR	0x18
#define LM90_ADDR	0x4c

static struct hwmon_fake_smbus *bus_of(struct kunit *test)
{
	return test->priv;
}

static int bus_init(struct kunit *test, enum hwmon_fake_smbus_model model,
		    u16 addr)
{
	struct hwmon_fake_smbus *bus = hwmon_fake_smbus_new(test);

	hwmon_fake_smbus_add_chip(bus, model, addr);
	test->priv = bus;
	return 0;
}

static struct device *probe(struct kunit *test, const char *type, u16 addr,
			    struct i2c_client **clientp)
{
	struct i2c_client *client;

	client = hwmon_fake_smbus_client(bus_of(test), type, addr);
	if (clientp)
		*clientp = client;
	return hwmon_drv_find_child(test, &client->dev);
}

static u16 reg(struct kunit *test, u16 addr, u8 r)
{
	return hwmon_fake_smbus_reg(bus_of(test), addr, r);
}

static void expect_long(struct kunit *test, struct device *hwdev,
			const char *attr, long expected)
{
	KUNIT_EXPECT_EQ_MSG(test, hwmon_drv_read_long(test, hwdev, attr),
			    expected, "%s", attr);
}

/* hwmon_i2c_lm75 */

static int lm75_init(struct kunit *test)
{
	return bus_init(test, HWMON_FAKE_LM75, LM75_ADDR);
}

static struct device *lm75_probe(struct kunit *test, struct i2c_client **client)
{
	return probe(test, "lm75", LM75_ADDR, client);
}

static void lm75_registers_one_hwmon_device_named_after_the_client(struct kunit *test)
{
	struct i2c_client *client;
	struct device *hwdev = lm75_probe(test, &client);

	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, &client->dev);
	hwmon_drv_expect_str(test, hwdev, "name", "lm75\n");
}

static void lm75_exposes_interval_input_max_and_hyst(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "update_interval", 0444 },
		{ "temp1_input", 0444 },
		{ "temp1_max", 0644 },
		{ "temp1_max_hyst", 0644 },
		{}
	};

	hwmon_drv_expect_files(test, lm75_probe(test, NULL), files);
}

static void lm75_update_interval_reports_the_fixed_sample_time(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	expect_long(test, hwdev, "update_interval", 100);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "update_interval",
						"500"), -EACCES);
}

static void lm75_temp1_input_reads_the_temperature_register(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	expect_long(test, hwdev, "temp1_input", 25000);
	hwmon_fake_smbus_set_temp(bus_of(test), LM75_ADDR, 0, 23500);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TEMP), 0x1780);
	expect_long(test, hwdev, "temp1_input", 23500);
	hwmon_fake_smbus_set_temp(bus_of(test), LM75_ADDR, 0, -25500);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TEMP), 0xe680);
	expect_long(test, hwdev, "temp1_input", -25500);
}

static void lm75_limits_read_the_power_on_registers(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	expect_long(test, hwdev, "temp1_max", 80000);
	expect_long(test, hwdev, "temp1_max_hyst", 75000);
}

static void lm75_max_write_lands_in_the_tos_register(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60500");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x3c80);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_THYST), 0x4b00);
	expect_long(test, hwdev, "temp1_max", 60500);
}

static void lm75_hyst_write_lands_in_the_thyst_register(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max_hyst", "-10000");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_THYST), 0xf600);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x5000);
	expect_long(test, hwdev, "temp1_max_hyst", -10000);
}

static void lm75_limit_write_rounds_to_the_closest_half_degree(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60700");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x3c80);
	expect_long(test, hwdev, "temp1_max", 60500);
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60800");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x3d00);
	expect_long(test, hwdev, "temp1_max", 61000);
}

static void lm75_limit_write_is_clamped_to_the_chip_range(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "200000");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x7d00);
	expect_long(test, hwdev, "temp1_max", 125000);
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "-100000");
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0xc900);
	expect_long(test, hwdev, "temp1_max", -55000);
}

static void lm75_non_numeric_limit_write_never_reaches_the_chip(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);
	unsigned int writes;

	writes = hwmon_fake_smbus_writes(bus_of(test), LM75_ADDR, FAKE_LM75_TOS);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_max", "abc"),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_max",
						"80000x"), -EINVAL);
	KUNIT_EXPECT_EQ(test, hwmon_fake_smbus_writes(bus_of(test), LM75_ADDR,
						      FAKE_LM75_TOS), writes);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TOS), 0x5000);
}

static void lm75_bus_error_fails_the_temperature_read(struct kunit *test)
{
	struct device *hwdev = lm75_probe(test, NULL);

	hwmon_fake_smbus_fail_reg(bus_of(test), LM75_ADDR, FAKE_LM75_TEMP, -EIO);
	KUNIT_EXPECT_EQ(test, hwmon_drv_read_err(test, hwdev, "temp1_input"),
			-EIO);
	hwmon_fake_smbus_fail_reg(bus_of(test), LM75_ADDR, -1, 0);
	expect_long(test, hwdev, "temp1_input", 25000);
}

static void lm75_probe_takes_the_chip_out_of_shutdown(struct kunit *test)
{
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct device *hwdev;

	hwmon_fake_smbus_poke(bus, LM75_ADDR, FAKE_LM75_CONF, FAKE_LM75_SHUTDOWN);
	hwmon_fake_smbus_set_temp(bus, LM75_ADDR, 0, 30000);
	KUNIT_ASSERT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_TEMP), 0x1900);

	hwdev = lm75_probe(test, NULL);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_CONF), 0x00);
	expect_long(test, hwdev, "temp1_input", 30000);
}

static void lm75_unbind_restores_the_configuration_it_found(struct kunit *test)
{
	struct i2c_client *client;

	hwmon_fake_smbus_poke(bus_of(test), LM75_ADDR, FAKE_LM75_CONF, 0x05);
	lm75_probe(test, &client);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_CONF), 0x04);
	hwmon_fake_smbus_remove_client(bus_of(test), client);
	KUNIT_EXPECT_EQ(test, reg(test, LM75_ADDR, FAKE_LM75_CONF), 0x05);
}

static struct kunit_case hwmon_i2c_lm75_cases[] = {
	KUNIT_CASE(lm75_registers_one_hwmon_device_named_after_the_client),
	KUNIT_CASE(lm75_exposes_interval_input_max_and_hyst),
	KUNIT_CASE(lm75_update_interval_reports_the_fixed_sample_time),
	KUNIT_CASE(lm75_temp1_input_reads_the_temperature_register),
	KUNIT_CASE(lm75_limits_read_the_power_on_registers),
	KUNIT_CASE(lm75_max_write_lands_in_the_tos_register),
	KUNIT_CASE(lm75_hyst_write_lands_in_the_thyst_register),
	KUNIT_CASE(lm75_limit_write_rounds_to_the_closest_half_degree),
	KUNIT_CASE(lm75_limit_write_is_clamped_to_the_chip_range),
	KUNIT_CASE(lm75_non_numeric_limit_write_never_reaches_the_chip),
	KUNIT_CASE(lm75_bus_error_fails_the_temperature_read),
	KUNIT_CASE(lm75_probe_takes_the_chip_out_of_shutdown),
	KUNIT_CASE(lm75_unbind_restores_the_configuration_it_found),
	{}
};

static struct kunit_suite hwmon_i2c_lm75_suite = {
	.name = "hwmon_i2c_lm75",
	.init = lm75_init,
	.test_cases = hwmon_i2c_lm75_cases,
};

/* hwmon_i2c_tmp102 */

static int tmp102_init(struct kunit *test)
{
	return bus_init(test, HWMON_FAKE_TMP102, TMP102_ADDR);
}

/*
 * The driver answers -EAGAIN for temp1_input until jiffies pass the end of
 * its first 35 ms conversion. msleep() sleeps at least the time asked, in
 * jiffies counted from after the probe, so 50 ms always gets past it.
 */
static struct device *tmp102_probe(struct kunit *test,
				   struct i2c_client **client)
{
	struct device *hwdev = probe(test, "tmp102", TMP102_ADDR, client);

	msleep(50);
	return hwdev;
}

static void tmp102_registers_a_hwmon_device_with_input_max_and_hyst(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{ "temp1_max", 0644 },
		{ "temp1_max_hyst", 0644 },
		{}
	};
	struct device *hwdev = tmp102_probe(test, NULL);

	hwmon_drv_expect_str(test, hwdev, "name", "tmp102\n");
	hwmon_drv_expect_files(test, hwdev, files);
}

static void tmp102_probe_selects_extended_interrupt_mode_and_wakes_the_chip(struct kunit *test)
{
	/* power-on value with SD set: shut down by firmware */
	hwmon_fake_smbus_poke(bus_of(test), TMP102_ADDR, FAKE_TMP102_CONF,
			      0x61a0);
	tmp102_probe(test, NULL);
	/* R1 R0, TM, CR1, AL and EM set; SD, OS and CR0 clear */
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_CONF), 0x62b0);
}

static void tmp102_temperature_is_read_in_the_extended_format(struct kunit *test)
{
	struct device *hwdev = tmp102_probe(test, NULL);
	struct hwmon_fake_smbus *bus = bus_of(test);

	hwmon_fake_smbus_set_temp(bus, TMP102_ADDR, 0, -10250);
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_TEMP), 0xfae1);
	expect_long(test, hwdev, "temp1_input", -10250);
	/* above 128 degrees: only representable in extended mode */
	hwmon_fake_smbus_set_temp(bus, TMP102_ADDR, 0, 140000);
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_TEMP), 0x4601);
	expect_long(test, hwdev, "temp1_input", 140000);
}

static void tmp102_max_write_lands_in_thigh(struct kunit *test)
{
	struct device *hwdev = tmp102_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "80000");
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_THIGH), 0x2800);
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_TLOW), 0x4b00);
	expect_long(test, hwdev, "temp1_max", 80000);
}

static void tmp102_max_hyst_write_lands_in_tlow(struct kunit *test)
{
	struct device *hwdev = tmp102_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max_hyst", "-20000");
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_TLOW), 0xf600);
	expect_long(test, hwdev, "temp1_max_hyst", -20000);
}

static void tmp102_limit_write_is_clamped_to_the_register_range(struct kunit *test)
{
	struct device *hwdev = tmp102_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "300000");
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_THIGH), 0x7f80);
	expect_long(test, hwdev, "temp1_max", 255000);
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "-300000");
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_THIGH), 0x8000);
	expect_long(test, hwdev, "temp1_max", -256000);
}

static void tmp102_unbind_restores_the_configuration_it_found(struct kunit *test)
{
	struct i2c_client *client;

	tmp102_probe(test, &client);
	KUNIT_ASSERT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_CONF), 0x62b0);
	hwmon_fake_smbus_remove_client(bus_of(test), client);
	KUNIT_EXPECT_EQ(test, reg(test, TMP102_ADDR, FAKE_TMP102_CONF), 0x60a0);
}

static struct kunit_case hwmon_i2c_tmp102_cases[] = {
	KUNIT_CASE(tmp102_registers_a_hwmon_device_with_input_max_and_hyst),
	KUNIT_CASE(tmp102_probe_selects_extended_interrupt_mode_and_wakes_the_chip),
	KUNIT_CASE(tmp102_temperature_is_read_in_the_extended_format),
	KUNIT_CASE(tmp102_max_write_lands_in_thigh),
	KUNIT_CASE(tmp102_max_hyst_write_lands_in_tlow),
	KUNIT_CASE(tmp102_limit_write_is_clamped_to_the_register_range),
	KUNIT_CASE(tmp102_unbind_restores_the_configuration_it_found),
	{}
};

static struct kunit_suite hwmon_i2c_tmp102_suite = {
	.name = "hwmon_i2c_tmp102",
	.init = tmp102_init,
	.test_cases = hwmon_i2c_tmp102_cases,
};

/* hwmon_i2c_jc42 */

static int jc42_init(struct kunit *test)
{
	return bus_init(test, HWMON_FAKE_JC42, JC42_ADDR);
}

static struct device *jc42_probe(struct kunit *test, struct i2c_client **client)
{
	return probe(test, "jc42", JC42_ADDR, client);
}

static void jc42_registers_a_hwmon_device_named_jc42(struct kunit *test)
{
	hwmon_drv_expect_str(test, jc42_probe(test, NULL), "name", "jc42\n");
}

static void jc42_exposes_limits_hysteresis_and_alarms(struct kunit *test)
{
	/*
	 * jc42_is_visible() switches on the attribute number only, so the
	 * chip's HWMON_C_UPDATE_INTERVAL (5) gets the mode of hwmon_temp_min
	 * (also 5): the 6.1 driver has a writable update_interval file.
	 */
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "update_interval", 0644 },
		{ "temp1_input", 0444 },
		{ "temp1_min", 0644 },
		{ "temp1_max", 0644 },
		{ "temp1_crit", 0644 },
		{ "temp1_max_hyst", 0444 },
		{ "temp1_crit_hyst", 0644 },
		{ "temp1_min_alarm", 0444 },
		{ "temp1_max_alarm", 0444 },
		{ "temp1_crit_alarm", 0444 },
		{}
	};

	hwmon_drv_expect_files(test, jc42_probe(test, NULL), files);
}

static void jc42_temp1_input_leaves_out_the_alarm_bits(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);
	struct hwmon_fake_smbus *bus = bus_of(test);

	/*
	 * The limits are 0 at power-on, so 26 degrees comes with the crit and
	 * upper alarm bits set and -5.25 degrees with the lower one.
	 */
	hwmon_fake_smbus_set_temp(bus, JC42_ADDR, 0, 26125);
	expect_long(test, hwdev, "temp1_input", 26125);
	expect_long(test, hwdev, "temp1_crit_alarm", 1);
	hwmon_fake_smbus_set_temp(bus, JC42_ADDR, 0, -5250);
	expect_long(test, hwdev, "temp1_input", -5250);
	expect_long(test, hwdev, "temp1_min_alarm", 1);
}

static void jc42_limit_writes_land_in_the_limit_registers(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "85250");
	hwmon_drv_write_ok(test, hwdev, "temp1_min", "-20000");
	hwmon_drv_write_ok(test, hwdev, "temp1_crit", "95000");
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_UPPER), 0x0554);
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_LOWER), 0x1ec0);
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_CRIT), 0x05f0);
	expect_long(test, hwdev, "temp1_max", 85250);
	expect_long(test, hwdev, "temp1_min", -20000);
	expect_long(test, hwdev, "temp1_crit", 95000);
}

static void jc42_limit_write_is_clamped_to_the_extended_range(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_min", "-100000");
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_LOWER), 0x1d80);
	expect_long(test, hwdev, "temp1_min", -40000);
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "200000");
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_UPPER), 0x07d0);
	expect_long(test, hwdev, "temp1_max", 125000);
}

static void expect_jc42_alarms(struct kunit *test, struct device *hwdev,
			       int temp, long min, long max, long crit)
{
	hwmon_fake_smbus_set_temp(bus_of(test), JC42_ADDR, 0, temp);
	KUNIT_EXPECT_EQ_MSG(test, hwmon_drv_read_long(test, hwdev,
						      "temp1_min_alarm"),
			    min, "min alarm at %d", temp);
	KUNIT_EXPECT_EQ_MSG(test, hwmon_drv_read_long(test, hwdev,
						      "temp1_max_alarm"),
			    max, "max alarm at %d", temp);
	KUNIT_EXPECT_EQ_MSG(test, hwmon_drv_read_long(test, hwdev,
						      "temp1_crit_alarm"),
			    crit, "crit alarm at %d", temp);
}

static void jc42_alarms_follow_the_temperature_against_the_limits(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_min", "10000");
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60000");
	hwmon_drv_write_ok(test, hwdev, "temp1_crit", "80000");
	expect_jc42_alarms(test, hwdev, 30000, 0, 0, 0);
	expect_jc42_alarms(test, hwdev, 65000, 0, 1, 0);
	expect_jc42_alarms(test, hwdev, 85000, 0, 1, 1);
	expect_jc42_alarms(test, hwdev, 5000, 1, 0, 0);
	expect_jc42_alarms(test, hwdev, 30000, 0, 0, 0);
}

static void jc42_crit_hyst_write_selects_the_closest_hysteresis(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);
	u16 config;

	hwmon_drv_write_ok(test, hwdev, "temp1_crit", "80000");
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60000");
	hwmon_drv_write_ok(test, hwdev, "temp1_crit_hyst", "77000");
	config = reg(test, JC42_ADDR, FAKE_JC42_CONFIG);
	KUNIT_EXPECT_EQ(test, config >> FAKE_JC42_CFG_HYST_SHIFT & 3, 2);
	expect_long(test, hwdev, "temp1_crit_hyst", 77000);
	expect_long(test, hwdev, "temp1_max_hyst", 57000);

	hwmon_drv_write_ok(test, hwdev, "temp1_crit_hyst", "79000");
	config = reg(test, JC42_ADDR, FAKE_JC42_CONFIG);
	KUNIT_EXPECT_EQ(test, config >> FAKE_JC42_CFG_HYST_SHIFT & 3, 1);
	expect_long(test, hwdev, "temp1_crit_hyst", 78500);
}

static void jc42_locked_limits_are_read_only_files(struct kunit *test)
{
	static const char *const limits[] = {
		"temp1_min", "temp1_max", "temp1_crit", "temp1_crit_hyst",
	};
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct device *hwdev;
	umode_t mode;
	int i;

	hwmon_fake_smbus_poke(bus, JC42_ADDR, FAKE_JC42_CONFIG,
			      FAKE_JC42_CFG_CRIT_LOCK | FAKE_JC42_CFG_WIN_LOCK);
	hwdev = jc42_probe(test, NULL);
	for (i = 0; i < ARRAY_SIZE(limits); i++) {
		KUNIT_ASSERT_EQ(test, hwmon_sysfs_mode(test, hwdev, limits[i],
						       &mode), 0);
		KUNIT_EXPECT_EQ_MSG(test, mode, 0444, "%s", limits[i]);
		KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_write(test, hwdev,
							    limits[i], "50000"),
				    -EACCES, "%s", limits[i]);
	}
	KUNIT_EXPECT_EQ(test, hwmon_fake_smbus_writes(bus, JC42_ADDR,
						      FAKE_JC42_UPPER), 0);
	KUNIT_EXPECT_EQ(test, hwmon_fake_smbus_writes(bus, JC42_ADDR,
						      FAKE_JC42_CONFIG), 0);
}

static void jc42_probe_wakes_the_chip_and_unbind_shuts_it_down(struct kunit *test)
{
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct i2c_client *client;
	struct device *hwdev;

	hwmon_fake_smbus_poke(bus, JC42_ADDR, FAKE_JC42_CONFIG,
			      FAKE_JC42_CFG_SHDN);
	hwmon_fake_smbus_set_temp(bus, JC42_ADDR, 0, 40000);
	hwdev = jc42_probe(test, &client);
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_CONFIG), 0);
	expect_long(test, hwdev, "temp1_input", 40000);

	/* the hysteresis set while bound survives the unbind */
	hwmon_drv_write_ok(test, hwdev, "temp1_crit", "80000");
	hwmon_drv_write_ok(test, hwdev, "temp1_crit_hyst", "74000");
	hwmon_fake_smbus_remove_client(bus, client);
	KUNIT_EXPECT_EQ(test, reg(test, JC42_ADDR, FAKE_JC42_CONFIG),
			FAKE_JC42_CFG_SHDN | 3 << FAKE_JC42_CFG_HYST_SHIFT);
}

static void jc42_bus_error_fails_the_alarm_read(struct kunit *test)
{
	struct device *hwdev = jc42_probe(test, NULL);

	hwmon_fake_smbus_fail_reg(bus_of(test), JC42_ADDR, FAKE_JC42_TEMP, -EIO);
	KUNIT_EXPECT_EQ(test, hwmon_drv_read_err(test, hwdev,
						 "temp1_max_alarm"), -EIO);
	KUNIT_EXPECT_EQ(test, hwmon_drv_read_err(test, hwdev, "temp1_input"),
			-EIO);
	/* limits come from the driver's cache */
	hwmon_drv_write_ok(test, hwdev, "temp1_max", "50000");
	expect_long(test, hwdev, "temp1_max", 50000);
}

static struct kunit_case hwmon_i2c_jc42_cases[] = {
	KUNIT_CASE(jc42_registers_a_hwmon_device_named_jc42),
	KUNIT_CASE(jc42_exposes_limits_hysteresis_and_alarms),
	KUNIT_CASE(jc42_temp1_input_leaves_out_the_alarm_bits),
	KUNIT_CASE(jc42_limit_writes_land_in_the_limit_registers),
	KUNIT_CASE(jc42_limit_write_is_clamped_to_the_extended_range),
	KUNIT_CASE(jc42_alarms_follow_the_temperature_against_the_limits),
	KUNIT_CASE(jc42_crit_hyst_write_selects_the_closest_hysteresis),
	KUNIT_CASE(jc42_locked_limits_are_read_only_files),
	KUNIT_CASE(jc42_probe_wakes_the_chip_and_unbind_shuts_it_down),
	KUNIT_CASE(jc42_bus_error_fails_the_alarm_read),
	{}
};

static struct kunit_suite hwmon_i2c_jc42_suite = {
	.name = "hwmon_i2c_jc42",
	.init = jc42_init,
	.test_cases = hwmon_i2c_jc42_cases,
};

/* hwmon_i2c_lm90 */

static int lm90_init(struct kunit *test)
{
	return bus_init(test, HWMON_FAKE_LM90, LM90_ADDR);
}

static struct device *lm90_probe(struct kunit *test, struct i2c_client **client)
{
	return probe(test, "lm90", LM90_ADDR, client);
}

static void lm90_registers_a_hwmon_device_named_lm90(struct kunit *test)
{
	hwmon_drv_expect_str(test, lm90_probe(test, NULL), "name", "lm90\n");
}

static void lm90_exposes_two_channels_with_limits_alarms_and_offset(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "alarms", 0444 },
		{ "update_interval", 0644 },
		{ "temp_samples", 0644 },
		{ "temp1_input", 0444 },
		{ "temp1_min", 0644 },
		{ "temp1_max", 0644 },
		{ "temp1_crit", 0644 },
		{ "temp1_crit_hyst", 0644 },
		{ "temp1_min_alarm", 0444 },
		{ "temp1_max_alarm", 0444 },
		{ "temp1_crit_alarm", 0444 },
		{ "temp2_input", 0444 },
		{ "temp2_min", 0644 },
		{ "temp2_max", 0644 },
		{ "temp2_crit", 0644 },
		{ "temp2_crit_hyst", 0444 },
		{ "temp2_min_alarm", 0444 },
		{ "temp2_max_alarm", 0444 },
		{ "temp2_crit_alarm", 0444 },
		{ "temp2_fault", 0444 },
		{ "temp2_offset", 0644 },
		{}
	};

	hwmon_drv_expect_files(test, lm90_probe(test, NULL), files);
}

static void lm90_probe_starts_conversions_at_two_per_second(struct kunit *test)
{
	struct device *hwdev;

	hwmon_fake_smbus_poke(bus_of(test), LM90_ADDR, FAKE_LM90_CONFIG,
			      FAKE_LM90_CFG_STANDBY);
	hwdev = lm90_probe(test, NULL);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONFIG), 0x00);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONVRATE), 5);
	expect_long(test, hwdev, "update_interval", 500);
}

static void lm90_unbind_restores_the_configuration_and_rate(struct kunit *test)
{
	struct i2c_client *client;

	hwmon_fake_smbus_poke(bus_of(test), LM90_ADDR, FAKE_LM90_CONFIG,
			      FAKE_LM90_CFG_STANDBY);
	lm90_probe(test, &client);
	hwmon_fake_smbus_remove_client(bus_of(test), client);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONFIG),
			FAKE_LM90_CFG_STANDBY);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONVRATE), 8);
}

static void lm90_reads_whole_degree_local_and_eighth_degree_remote_temperatures(struct kunit *test)
{
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct device *hwdev;

	hwmon_fake_smbus_set_temp(bus, LM90_ADDR, 0, 41000);
	hwmon_fake_smbus_set_temp(bus, LM90_ADDR, 1, 45625);
	hwdev = lm90_probe(test, NULL);
	expect_long(test, hwdev, "temp1_input", 41000);
	expect_long(test, hwdev, "temp2_input", 45625);
}

static void lm90_reads_negative_remote_temperatures(struct kunit *test)
{
	struct device *hwdev;

	hwmon_fake_smbus_set_temp(bus_of(test), LM90_ADDR, 1, -10250);
	hwdev = lm90_probe(test, NULL);
	expect_long(test, hwdev, "temp2_input", -10250);
}

static void lm90_limits_read_the_power_on_registers(struct kunit *test)
{
	struct device *hwdev = lm90_probe(test, NULL);

	expect_long(test, hwdev, "temp1_min", 0);
	expect_long(test, hwdev, "temp1_max", 70000);
	expect_long(test, hwdev, "temp1_crit", 85000);
	expect_long(test, hwdev, "temp1_crit_hyst", 75000);
	expect_long(test, hwdev, "temp2_min", 0);
	expect_long(test, hwdev, "temp2_max", 70000);
	expect_long(test, hwdev, "temp2_crit", 85000);
	expect_long(test, hwdev, "temp2_crit_hyst", 75000);
	expect_long(test, hwdev, "temp2_offset", 0);
	expect_long(test, hwdev, "temp_samples", 1);
}

static void lm90_remote_max_write_is_split_into_high_and_low_bytes(struct kunit *test)
{
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct device *hwdev = lm90_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp2_max", "85375");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_REMOTE_HIGHH), 0x55);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_REMOTE_HIGHL), 0x60);
	/* the high byte goes to its write address, 0x0d */
	KUNIT_EXPECT_EQ(test, hwmon_fake_smbus_writes(bus, LM90_ADDR, 0x0d), 1);
	KUNIT_EXPECT_EQ(test, hwmon_fake_smbus_writes(bus, LM90_ADDR,
						      FAKE_LM90_REMOTE_HIGHH), 0);
	expect_long(test, hwdev, "temp2_max", 85375);
}

static void lm90_local_limit_write_rounds_to_a_whole_degree(struct kunit *test)
{
	struct device *hwdev = lm90_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_max", "60600");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_LOCAL_HIGH), 61);
	expect_long(test, hwdev, "temp1_max", 61000);
	hwmon_drv_write_ok(test, hwdev, "temp1_min", "-5400");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_LOCAL_LOW), 0xfb);
	expect_long(test, hwdev, "temp1_min", -5000);
}

static void lm90_crit_hyst_write_sets_the_shared_hysteresis(struct kunit *test)
{
	struct device *hwdev = lm90_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp1_crit_hyst", "80000");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CRIT_HYST), 5);
	expect_long(test, hwdev, "temp1_crit_hyst", 80000);
	expect_long(test, hwdev, "temp2_crit_hyst", 80000);
	hwmon_drv_write_ok(test, hwdev, "temp2_crit", "100000");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_REMOTE_CRIT), 100);
	expect_long(test, hwdev, "temp2_crit_hyst", 95000);
	expect_long(test, hwdev, "temp1_crit_hyst", 80000);
}

static void lm90_update_interval_write_selects_the_closest_rate(struct kunit *test)
{
	struct device *hwdev = lm90_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "update_interval", "1000");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONVRATE), 4);
	expect_long(test, hwdev, "update_interval", 1000);
	hwmon_drv_write_ok(test, hwdev, "update_interval", "30");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONVRATE), 9);
	expect_long(test, hwdev, "update_interval", 31);
	hwmon_drv_write_ok(test, hwdev, "update_interval", "100000");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONVRATE), 0);
	expect_long(test, hwdev, "update_interval", 16000);
}

static void lm90_temp_samples_write_toggles_the_fault_queue(struct kunit *test)
{
	struct device *hwdev = lm90_probe(test, NULL);

	hwmon_drv_write_ok(test, hwdev, "temp_samples", "2");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONFIG),
			FAKE_LM90_CFG_FAULTQ);
	expect_long(test, hwdev, "temp_samples", 3);
	hwmon_drv_write_ok(test, hwdev, "temp_samples", "1");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_CONFIG), 0);
	expect_long(test, hwdev, "temp_samples", 1);
}

struct lm90_alarm_state {
	long min[2], max[2], crit[2], fault, alarms;
};

static void expect_lm90_alarms(struct kunit *test, struct device *hwdev,
			       const struct lm90_alarm_state *want)
{
	static const char *const names[2][3] = {
		{ "temp1_min_alarm", "temp1_max_alarm", "temp1_crit_alarm" },
		{ "temp2_min_alarm", "temp2_max_alarm", "temp2_crit_alarm" },
	};
	int c;

	for (c = 0; c < 2; c++) {
		expect_long(test, hwdev, names[c][0], want->min[c]);
		expect_long(test, hwdev, names[c][1], want->max[c]);
		expect_long(test, hwdev, names[c][2], want->crit[c]);
	}
	expect_long(test, hwdev, "temp2_fault", want->fault);
	expect_long(test, hwdev, "alarms", want->alarms);
}

static void lm90_local_temperature_above_its_high_limit_sets_temp1_max_alarm(struct kunit *test)
{
	static const struct lm90_alarm_state want = {
		.max = { 1, 0 }, .alarms = 0x40,
	};

	hwmon_fake_smbus_set_temp(bus_of(test), LM90_ADDR, 0, 75000);
	expect_lm90_alarms(test, lm90_probe(test, NULL), &want);
}

static void lm90_remote_temperature_above_crit_sets_crit_and_max_alarms(struct kunit *test)
{
	static const struct lm90_alarm_state want = {
		.max = { 0, 1 }, .crit = { 0, 1 }, .alarms = 0x12,
	};

	hwmon_fake_smbus_set_temp(bus_of(test), LM90_ADDR, 1, 90000);
	expect_lm90_alarms(test, lm90_probe(test, NULL), &want);
}

static void lm90_remote_temperature_below_its_low_limit_sets_temp2_min_alarm(struct kunit *test)
{
	static const struct lm90_alarm_state want = {
		.min = { 0, 1 }, .alarms = 0x08,
	};

	hwmon_fake_smbus_set_temp(bus_of(test), LM90_ADDR, 1, -5000);
	expect_lm90_alarms(test, lm90_probe(test, NULL), &want);
}

static void lm90_open_remote_diode_sets_temp2_fault(struct kunit *test)
{
	static const struct lm90_alarm_state want = {
		.fault = 1, .alarms = 0x04,
	};

	hwmon_fake_smbus_set_open(bus_of(test), LM90_ADDR, true);
	expect_lm90_alarms(test, lm90_probe(test, NULL), &want);
}

static void lm90_offset_write_shifts_the_remote_reading_after_a_rebind(struct kunit *test)
{
	struct hwmon_fake_smbus *bus = bus_of(test);
	struct i2c_client *client;
	struct device *hwdev;

	hwmon_fake_smbus_set_temp(bus, LM90_ADDR, 1, 40000);
	hwdev = lm90_probe(test, &client);
	expect_long(test, hwdev, "temp2_input", 40000);
	hwmon_drv_write_ok(test, hwdev, "temp2_offset", "-2500");
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_REMOTE_OFFSH), 0xfd);
	KUNIT_EXPECT_EQ(test, reg(test, LM90_ADDR, FAKE_LM90_REMOTE_OFFSL), 0x80);
	expect_long(test, hwdev, "temp2_offset", -2500);

	hwmon_fake_smbus_remove_client(bus, client);
	hwdev = lm90_probe(test, NULL);
	expect_long(test, hwdev, "temp2_offset", -2500);
	expect_long(test, hwdev, "temp2_input", 37500);
}

static struct kunit_case hwmon_i2c_lm90_cases[] = {
	KUNIT_CASE(lm90_registers_a_hwmon_device_named_lm90),
	KUNIT_CASE(lm90_exposes_two_channels_with_limits_alarms_and_offset),
	KUNIT_CASE(lm90_probe_starts_conversions_at_two_per_second),
	KUNIT_CASE(lm90_unbind_restores_the_configuration_and_rate),
	KUNIT_CASE(lm90_reads_whole_degree_local_and_eighth_degree_remote_temperatures),
	KUNIT_CASE(lm90_reads_negative_remote_temperatures),
	KUNIT_CASE(lm90_limits_read_the_power_on_registers),
	KUNIT_CASE(lm90_remote_max_write_is_split_into_high_and_low_bytes),
	KUNIT_CASE(lm90_local_limit_write_rounds_to_a_whole_degree),
	KUNIT_CASE(lm90_crit_hyst_write_sets_the_shared_hysteresis),
	KUNIT_CASE(lm90_update_interval_write_selects_the_closest_rate),
	KUNIT_CASE(lm90_temp_samples_write_toggles_the_fault_queue),
	KUNIT_CASE(lm90_local_temperature_above_its_high_limit_sets_temp1_max_alarm),
	KUNIT_CASE(lm90_remote_temperature_above_crit_sets_crit_and_max_alarms),
	KUNIT_CASE(lm90_remote_temperature_below_its_low_limit_sets_temp2_min_alarm),
	KUNIT_CASE(lm90_open_remote_diode_sets_temp2_fault),
	KUNIT_CASE(lm90_offset_write_shifts_the_remote_reading_after_a_rebind),
	{}
};

static struct kunit_suite hwmon_i2c_lm90_suite = {
	.name = "hwmon_i2c_lm90",
	.init = lm90_init,
	.test_cases = hwmon_i2c_lm90_cases,
};

kunit_test_suites(&hwmon_i2c_lm75_suite, &hwmon_i2c_tmp102_suite,
		  &hwmon_i2c_jc42_suite, &hwmon_i2c_lm90_suite);
