// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the hwmon devices the power supply class registers
 * through power_supply_hwmon for the test_ac, test_battery and test_usb
 * supplies of CONFIG_TEST_POWER (registered at boot, before the tests run).
 *
 * What the files must hold follows from the two drivers: test_battery
 * reports POWER_SUPPLY_PROP_TEMP = 26 (tenths of a degree), VOLTAGE_NOW =
 * 3300 and CURRENT_NOW = CURRENT_AVG = -1600 (micro units, although the
 * module parameters call them milli); power_supply_hwmon scales
 * temperatures by 100 and rounds currents and voltages to the closest milli
 * unit, half away from zero. The supplies have no writable property, so
 * every file is read only. test_ac and test_usb only report ONLINE, which
 * has no hwmon counterpart.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/power_supply.h>
#include <linux/string.h>
#include <linux/thermal.h>

#include "hwmon_driver_util.h"
#include "hwmon_sysfs_util.h"

#define BUF_SIZE	128
#define PARAM_DIR	"module/test_power/parameters/"

static void supply_put(void *data)
{
	power_supply_put(data);
}

static struct power_supply *get_supply(struct kunit *test, const char *name)
{
	struct power_supply *psy = power_supply_get_by_name(name);

	KUNIT_ASSERT_NOT_ERR_OR_NULL_MSG(test, psy, "power supply %s not found", name);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, supply_put, psy), 0);
	return psy;
}

static struct device *supply_hwmon(struct kunit *test, const char *name)
{
	return hwmon_drv_find_child(test, &get_supply(test, name)->dev);
}

/* A test_power module parameter to put back when the test ends. */
struct param_restore {
	struct kunit *test;
	char path[64];
	char value[32];
};

static void param_restore(void *data)
{
	struct param_restore *saved = data;

	hwmon_sysfs_write_path(saved->test, saved->path, saved->value);
}

static void set_param(struct kunit *test, const char *param, const char *value)
{
	struct param_restore *saved;
	int n;

	saved = kunit_kzalloc(test, sizeof(*saved), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, saved);
	saved->test = test;
	snprintf(saved->path, sizeof(saved->path), PARAM_DIR "%s", param);
	n = hwmon_sysfs_read_path(test, saved->path, saved->value,
				  sizeof(saved->value));
	KUNIT_ASSERT_GT_MSG(test, n, 0, "reading %s", saved->path);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, param_restore, saved), 0);
	KUNIT_ASSERT_EQ(test, hwmon_sysfs_write_path(test, saved->path, value),
			(int)strlen(value));
}

static void battery_has_one_hwmon_device_below_its_power_supply(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");
	struct hwmon_sysfs_entry *entries;
	char path[HWMON_SYSFS_PATH_MAX];
	int n, i, found = 0;

	n = hwmon_sysfs_list(test, "class/power_supply/test_battery", &entries);
	KUNIT_ASSERT_GT(test, n, 0);
	for (i = 0; i < n; i++)
		if (!strncmp(entries[i].name, "hwmon", 5)) {
			KUNIT_EXPECT_STREQ(test, entries[i].name, dev_name(hwdev));
			KUNIT_EXPECT_EQ(test, entries[i].type, (unsigned int)DT_DIR);
			found++;
		}
	KUNIT_EXPECT_EQ(test, found, 1);
	snprintf(path, sizeof(path), "class/power_supply/test_battery/%s/name",
		 dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test,
						   hwmon_sysfs_dev_path(test, hwdev,
									"name")));
}

static void battery_hwmon_device_is_named_after_the_supply(struct kunit *test)
{
	hwmon_drv_expect_str(test, supply_hwmon(test, "test_battery"), "name",
			     "test_battery\n");
}

static void battery_exposes_exactly_the_files_of_its_properties(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{ "temp1_label", 0444 },
		{ "curr1_input", 0444 },
		{ "curr1_average", 0444 },
		{ "in0_input", 0444 },
		{}
	};

	hwmon_drv_expect_files(test, supply_hwmon(test, "test_battery"), files);
}

static void battery_has_no_ambient_temperature_channel(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_label"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
}

static void battery_temperature_is_reported_in_millidegrees(struct kunit *test)
{
	hwmon_drv_expect_str(test, supply_hwmon(test, "test_battery"),
			     "temp1_input", "2600\n");
}

static void battery_temperature_label_is_temp(struct kunit *test)
{
	hwmon_drv_expect_str(test, supply_hwmon(test, "test_battery"),
			     "temp1_label", "temp\n");
}

static void battery_current_is_rounded_to_milliamps(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");

	hwmon_drv_expect_str(test, hwdev, "curr1_input", "-2\n");
	hwmon_drv_expect_str(test, hwdev, "curr1_average", "-2\n");
}

static void battery_voltage_is_rounded_to_millivolts(struct kunit *test)
{
	hwmon_drv_expect_str(test, supply_hwmon(test, "test_battery"),
			     "in0_input", "3\n");
}

static void battery_files_reject_writes(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_input", "1"),
			-EACCES);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "in0_input", "1"),
			-EACCES);
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "2600\n");
}

static void voltage_parameter_change_shows_in_in0_input(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");

	set_param(test, "battery_voltage", "4200000");
	hwmon_drv_expect_str(test, hwdev, "in0_input", "4200\n");
	set_param(test, "battery_voltage", "-1499");
	hwmon_drv_expect_str(test, hwdev, "in0_input", "-1\n");
}

static void current_halfway_between_milliamps_rounds_away_from_zero(struct kunit *test)
{
	struct device *hwdev = supply_hwmon(test, "test_battery");

	set_param(test, "battery_current", "-2500");
	hwmon_drv_expect_str(test, hwdev, "curr1_input", "-3\n");
	hwmon_drv_expect_str(test, hwdev, "curr1_average", "-3\n");
	set_param(test, "battery_current", "2500");
	hwmon_drv_expect_str(test, hwdev, "curr1_input", "3\n");
}

static void ac_and_usb_get_hwmon_devices_without_sensor_files(struct kunit *test)
{
	static const struct hwmon_drv_file only_name[] = {
		{ "name", 0444 },
		{}
	};
	struct device *ac = supply_hwmon(test, "test_ac");
	struct device *usb = supply_hwmon(test, "test_usb");

	hwmon_drv_expect_str(test, ac, "name", "test_ac\n");
	hwmon_drv_expect_str(test, usb, "name", "test_usb\n");
	hwmon_drv_expect_files(test, ac, only_name);
	hwmon_drv_expect_files(test, usb, only_name);
}

static void supplies_get_distinct_hwmon_devices(struct kunit *test)
{
	struct device *ac = supply_hwmon(test, "test_ac");
	struct device *battery = supply_hwmon(test, "test_battery");
	struct device *usb = supply_hwmon(test, "test_usb");

	KUNIT_EXPECT_STRNEQ(test, dev_name(ac), dev_name(battery));
	KUNIT_EXPECT_STRNEQ(test, dev_name(ac), dev_name(usb));
	KUNIT_EXPECT_STRNEQ(test, dev_name(battery), dev_name(usb));
}

/*
 * test_battery reports a temperature, so the power supply class also
 * registers a thermal zone of type "test_battery". In 6.1 the thermal core
 * bridges it to a second hwmon device of the same name; in 6.12 the class
 * registers it with no_hwmon, since power_supply_hwmon already reports the
 * temperature.
 */
static struct device *battery_zone_device(struct kunit *test)
{
	struct power_supply *psy = get_supply(test, "test_battery");

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, psy->tzd);
#ifdef HWMON_TEST_TZ_PRIV
	return thermal_zone_device(psy->tzd);
#else
	return &psy->tzd->device;
#endif
}

static void battery_thermal_zone_is_bridged_to_hwmon_too(struct kunit *test)
{
#ifndef HWMON_TEST_PSY_TZ_NO_HWMON
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{}
	};
	struct device *hwdev;

	hwdev = hwmon_drv_find_child(test, battery_zone_device(test));
	KUNIT_EXPECT_STRNEQ(test, dev_name(hwdev),
			    dev_name(supply_hwmon(test, "test_battery")));
	hwmon_drv_expect_str(test, hwdev, "name", "test_battery\n");
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "2600\n");
	hwmon_drv_expect_files(test, hwdev, files);
#else
	kunit_skip(test,
		   "the tree's power supply class registers its zones with no_hwmon (6.12)");
#endif
}

static void battery_thermal_zone_is_not_bridged_a_second_time(struct kunit *test)
{
#ifdef HWMON_TEST_PSY_TZ_NO_HWMON
	KUNIT_EXPECT_EQ(test, hwmon_drv_count_children(battery_zone_device(test)),
			0);
	/* the temperature is in the supply's own hwmon device */
	hwmon_drv_expect_str(test, supply_hwmon(test, "test_battery"),
			     "temp1_input", "2600\n");
#else
	kunit_skip(test,
		   "the tree's thermal core bridges power supply zones to hwmon (6.1)");
#endif
}

static struct kunit_case hwmon_power_supply_cases[] = {
	KUNIT_CASE(battery_has_one_hwmon_device_below_its_power_supply),
	KUNIT_CASE(battery_hwmon_device_is_named_after_the_supply),
	KUNIT_CASE(battery_exposes_exactly_the_files_of_its_properties),
	KUNIT_CASE(battery_has_no_ambient_temperature_channel),
	KUNIT_CASE(battery_temperature_is_reported_in_millidegrees),
	KUNIT_CASE(battery_temperature_label_is_temp),
	KUNIT_CASE(battery_current_is_rounded_to_milliamps),
	KUNIT_CASE(battery_voltage_is_rounded_to_millivolts),
	KUNIT_CASE(battery_files_reject_writes),
	KUNIT_CASE(voltage_parameter_change_shows_in_in0_input),
	KUNIT_CASE(current_halfway_between_milliamps_rounds_away_from_zero),
	KUNIT_CASE(ac_and_usb_get_hwmon_devices_without_sensor_files),
	KUNIT_CASE(supplies_get_distinct_hwmon_devices),
	KUNIT_CASE(battery_thermal_zone_is_bridged_to_hwmon_too),
	KUNIT_CASE(battery_thermal_zone_is_not_bridged_a_second_time),
	{}
};

static struct kunit_suite hwmon_power_supply_suite = {
	.name = "hwmon_power_supply",
	.test_cases = hwmon_power_supply_cases,
};

kunit_test_suite(hwmon_power_supply_suite);
