// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suite for the thermal core's hwmon bridge (thermal_hwmon): a
 * software thermal zone registered here without no_hwmon gets a hwmon
 * device through hwmon_device_register_for_thermal(), below the zone's
 * device, named after the zone type ('-' replaced by '_'), with a
 * temp<n>_input file per zone of that type and a temp<n>_crit file for
 * zones whose get_crit_temp() works. The zones have no trip points and no
 * polling, so the thermal core never acts on the temperatures used here.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/string.h>
#include <linux/thermal.h>

#include "hwmon_driver_util.h"
#include "hwmon_sysfs_util.h"

/* The zone's data and device: accessors in 6.12, fields in 6.1. */
#ifdef HWMON_TEST_TZ_PRIV
#define soft_zone_of(tz)	((struct soft_zone *)thermal_zone_device_priv(tz))
#define zone_device(tz)		thermal_zone_device(tz)
#else
#define soft_zone_of(tz)	((struct soft_zone *)(tz)->devdata)
#define zone_device(tz)		(&(tz)->device)
#endif

/**
 * struct soft_zone - a software thermal zone
 * @tz: the registered zone
 * @ops: its callbacks (the thermal core writes to them, so one copy each)
 * @tzp: its parameters
 * @temp: what get_temp() reports, in millidegrees
 * @temp_err: if not 0, get_temp() fails with it
 * @crit: what get_crit_temp() reports
 * @crit_err: if not 0, get_crit_temp() fails with it
 * @get_temp_calls: number of get_temp() calls
 */
struct soft_zone {
	struct thermal_zone_device *tz;
	struct thermal_zone_device_ops ops;
	struct thermal_zone_params tzp;
	int temp;
	int temp_err;
	int crit;
	int crit_err;
	unsigned int get_temp_calls;
};

static int soft_zone_get_temp(struct thermal_zone_device *tz, int *temp)
{
	struct soft_zone *zone = soft_zone_of(tz);

	zone->get_temp_calls++;
	if (zone->temp_err)
		return zone->temp_err;
	*temp = zone->temp;
	return 0;
}

static int soft_zone_get_crit_temp(struct thermal_zone_device *tz, int *temp)
{
	struct soft_zone *zone = soft_zone_of(tz);

	if (zone->crit_err)
		return zone->crit_err;
	*temp = zone->crit;
	return 0;
}

static void soft_zone_unregister(void *data)
{
	struct soft_zone *zone = data;

	thermal_zone_device_unregister(zone->tz);
}

/* A zone without get_crit_temp(); its temperature is 42.5 degrees. */
static struct soft_zone *soft_zone_new(struct kunit *test)
{
	struct soft_zone *zone = kunit_kzalloc(test, sizeof(*zone), GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, zone);
	zone->ops.get_temp = soft_zone_get_temp;
	zone->temp = 42500;
	return zone;
}

static struct soft_zone *soft_zone_with_crit(struct kunit *test, int crit)
{
	struct soft_zone *zone = soft_zone_new(test);

	zone->ops.get_crit_temp = soft_zone_get_crit_temp;
	zone->crit = crit;
	return zone;
}

/* Registers @zone with type @type; unregistered when the test ends. */
static void soft_zone_register(struct kunit *test, struct soft_zone *zone,
			       const char *type)
{
#ifdef HWMON_TEST_TZ_TRIPLESS
	zone->tz = thermal_tripless_zone_device_register(type, zone, &zone->ops,
							 &zone->tzp);
#else
	zone->tz = thermal_zone_device_register(type, 0, 0, zone, &zone->ops,
						&zone->tzp, 0, 0);
#endif
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, zone->tz);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, soft_zone_unregister, zone),
			0);
}

static struct device *zone_hwmon(struct kunit *test, struct soft_zone *zone)
{
	return hwmon_drv_find_child(test, zone_device(zone->tz));
}

static void zone_gets_a_hwmon_device_named_after_its_type(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);
	struct device *hwdev;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, zone_device(zone->tz));
	hwmon_drv_expect_str(test, hwdev, "name", "kunitzone\n");
}

static void zone_without_crit_temp_has_only_an_input_file(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{}
	};
	struct soft_zone *zone = soft_zone_new(test);

	soft_zone_register(test, zone, "kunitzone");
	hwmon_drv_expect_files(test, zone_hwmon(test, zone), files);
}

static void temp1_input_reads_the_zone_temperature(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);
	struct device *hwdev;
	unsigned int calls;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	calls = zone->get_temp_calls;
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "42500\n");
	KUNIT_EXPECT_EQ(test, zone->get_temp_calls, calls + 1);
}

static void temp1_input_follows_the_zone_temperature(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);
	struct device *hwdev;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	zone->temp = -12345;
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "-12345\n");
	zone->temp = 0;
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "0\n");
}

static void temp1_input_read_fails_with_the_get_temp_error(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);
	struct device *hwdev;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	zone->temp_err = -EIO;
	KUNIT_EXPECT_EQ(test, hwmon_drv_read_err(test, hwdev, "temp1_input"),
			-EIO);
	zone->temp_err = -EAGAIN;
	KUNIT_EXPECT_EQ(test, hwmon_drv_read_err(test, hwdev, "temp1_input"),
			-EAGAIN);
}

static void zone_with_crit_temp_gets_a_temp1_crit_file(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{ "temp1_crit", 0444 },
		{}
	};
	struct soft_zone *zone = soft_zone_with_crit(test, 105000);
	struct device *hwdev;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	hwmon_drv_expect_files(test, hwdev, files);
	hwmon_drv_expect_str(test, hwdev, "temp1_crit", "105000\n");
	zone->crit = 95000;
	hwmon_drv_expect_str(test, hwdev, "temp1_crit", "95000\n");
}

static void zone_whose_crit_temp_fails_gets_no_temp1_crit_file(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_with_crit(test, 105000);
	struct device *hwdev;

	zone->crit_err = -ENODEV;
	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp1_crit"));
}

static void bridge_files_reject_writes(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_with_crit(test, 105000);
	struct device *hwdev;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_input", "1"),
			-EACCES);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "temp1_crit", "1"),
			-EACCES);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "name", "x"),
			-EACCES);
	hwmon_drv_expect_str(test, hwdev, "temp1_crit", "105000\n");
}

static void dashes_in_the_zone_type_become_underscores(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);

	soft_zone_register(test, zone, "kunit-soc-zone");
	hwmon_drv_expect_str(test, zone_hwmon(test, zone), "name",
			     "kunit_soc_zone\n");
}

static void zones_of_one_type_share_a_hwmon_device(struct kunit *test)
{
	static const struct hwmon_drv_file files[] = {
		{ "name", 0444 },
		{ "temp1_input", 0444 },
		{ "temp2_input", 0444 },
		{ "temp2_crit", 0444 },
		{}
	};
	struct soft_zone *first = soft_zone_new(test);
	struct soft_zone *second = soft_zone_with_crit(test, 90000);
	struct device *hwdev;

	soft_zone_register(test, first, "kunitshared");
	soft_zone_register(test, second, "kunitshared");
	hwdev = zone_hwmon(test, first);
	KUNIT_EXPECT_EQ(test, hwmon_drv_count_children(zone_device(second->tz)), 0);

	first->temp = 30000;
	second->temp = 31000;
	hwmon_drv_expect_files(test, hwdev, files);
	hwmon_drv_expect_str(test, hwdev, "name", "kunitshared\n");
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "30000\n");
	hwmon_drv_expect_str(test, hwdev, "temp2_input", "31000\n");
	hwmon_drv_expect_str(test, hwdev, "temp2_crit", "90000\n");
}

static void types_differing_only_in_dash_and_underscore_share_a_device(struct kunit *test)
{
	struct soft_zone *first = soft_zone_new(test);
	struct soft_zone *second = soft_zone_new(test);
	struct device *hwdev;

	soft_zone_register(test, first, "kunit_mix");
	soft_zone_register(test, second, "kunit-mix");
	hwdev = zone_hwmon(test, first);
	second->temp = 12000;
	KUNIT_EXPECT_EQ(test, hwmon_drv_count_children(zone_device(second->tz)), 0);
	hwmon_drv_expect_str(test, hwdev, "temp2_input", "12000\n");
}

static void removing_the_second_zone_keeps_the_first_zone_file(struct kunit *test)
{
	struct soft_zone *first = soft_zone_new(test);
	struct soft_zone *second = soft_zone_new(test);
	struct device *hwdev;

	soft_zone_register(test, first, "kunitshared");
	soft_zone_register(test, second, "kunitshared");
	hwdev = zone_hwmon(test, first);
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));

	hwmon_test_run_now(test, soft_zone_unregister, second);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "temp2_input"));
	hwmon_drv_expect_str(test, hwdev, "temp1_input", "42500\n");
}

static void no_hwmon_zone_gets_no_hwmon_device(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);

	zone->tzp.no_hwmon = true;
	soft_zone_register(test, zone, "kunitzone");
	KUNIT_EXPECT_EQ(test, hwmon_drv_count_children(zone_device(zone->tz)), 0);
}

static void unregistering_the_zone_removes_its_hwmon_device(struct kunit *test)
{
	struct soft_zone *zone = soft_zone_new(test);
	struct device *hwdev;
	const char *dir;

	soft_zone_register(test, zone, "kunitzone");
	hwdev = zone_hwmon(test, zone);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, dir));

	hwmon_test_run_now(test, soft_zone_unregister, zone);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
}

static struct kunit_case hwmon_thermal_bridge_cases[] = {
	KUNIT_CASE(zone_gets_a_hwmon_device_named_after_its_type),
	KUNIT_CASE(zone_without_crit_temp_has_only_an_input_file),
	KUNIT_CASE(temp1_input_reads_the_zone_temperature),
	KUNIT_CASE(temp1_input_follows_the_zone_temperature),
	KUNIT_CASE(temp1_input_read_fails_with_the_get_temp_error),
	KUNIT_CASE(zone_with_crit_temp_gets_a_temp1_crit_file),
	KUNIT_CASE(zone_whose_crit_temp_fails_gets_no_temp1_crit_file),
	KUNIT_CASE(bridge_files_reject_writes),
	KUNIT_CASE(dashes_in_the_zone_type_become_underscores),
	KUNIT_CASE(zones_of_one_type_share_a_hwmon_device),
	KUNIT_CASE(types_differing_only_in_dash_and_underscore_share_a_device),
	KUNIT_CASE(removing_the_second_zone_keeps_the_first_zone_file),
	KUNIT_CASE(no_hwmon_zone_gets_no_hwmon_device),
	KUNIT_CASE(unregistering_the_zone_removes_its_hwmon_device),
	{}
};

static struct kunit_suite hwmon_thermal_bridge_suite = {
	.name = "hwmon_thermal_bridge",
	.test_cases = hwmon_thermal_bridge_cases,
};

kunit_test_suite(hwmon_thermal_bridge_suite);
