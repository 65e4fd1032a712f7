// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit suites for registering and unregistering hwmon devices: argument
 * checks, the name and label attributes, driver data and parent, extra
 * groups, the legacy and device managed APIs, ids and the thermal variant.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fcntl.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/property.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

MODULE_IMPORT_NS(HWMON_THERMAL);

#define BUF_SIZE	128

static ssize_t extra_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "extra of %s\n", dev_name(dev));
}

static DEVICE_ATTR_RO(extra);

static ssize_t other_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "other\n");
}

static DEVICE_ATTR_RO(other);

static struct attribute *extra_attrs[] = {
	&dev_attr_extra.attr,
	NULL
};

static const struct attribute_group extra_group = {
	.attrs = extra_attrs,
};

static struct attribute *other_attrs[] = {
	&dev_attr_other.attr,
	NULL
};

static const struct attribute_group other_group = {
	.attrs = other_attrs,
};

static const struct attribute_group *extra_groups[] = {
	&extra_group,
	&other_group,
	NULL
};

static struct hwmon_fake_chip *temp_input_chip(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_INPUT);
	return chip;
}

static void expect_attr(struct kunit *test, struct device *hwdev,
			const char *attr, const char *expected)
{
	char buf[BUF_SIZE];

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, attr, buf, sizeof(buf)),
			(int)strlen(expected));
	KUNIT_EXPECT_STREQ(test, buf, expected);
}

static void expect_mode(struct kunit *test, struct device *hwdev,
			const char *attr, umode_t expected)
{
	umode_t mode = 0;

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_mode(test, hwdev, attr, &mode), 0,
			    "%s missing", attr);
	KUNIT_EXPECT_EQ(test, mode, expected);
}

static int count_class_devices(struct kunit *test)
{
	struct hwmon_sysfs_entry *entries;
	int n = hwmon_sysfs_list(test, "class/hwmon", &entries);

	KUNIT_ASSERT_GE(test, n, 0);
	return n;
}

static void expect_rejected(struct kunit *test, struct device *hwdev, int err)
{
	KUNIT_EXPECT_TRUE(test, IS_ERR(hwdev));
	if (IS_ERR(hwdev))
		KUNIT_EXPECT_EQ(test, PTR_ERR(hwdev), (long)err);
}

static char *saved_name(struct kunit *test, struct device *dev)
{
	char *name = kunit_kzalloc(test, 32, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, name);
	strscpy(name, dev_name(dev), 32);
	return name;
}

/* hwmon_register: hwmon_device_register_with_info() */

static void registered_device_is_a_hwmon_class_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");
	unsigned int id;

	KUNIT_EXPECT_STREQ(test, hwdev->class->name, "hwmon");
	KUNIT_EXPECT_EQ(test, strncmp(dev_name(hwdev), "hwmon", 5), 0);
	KUNIT_EXPECT_EQ(test, kstrtouint(dev_name(hwdev) + 5, 10, &id), 0);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "uevent"));
}

static void registered_device_sits_below_its_parent(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char path[HWMON_SYSFS_PATH_MAX];

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	snprintf(path, sizeof(path), "%s/hwmon/%s/temp1_input",
		 hwmon_sysfs_kobj_path(test, parent), dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "device"));
}

static void driver_data_is_attached_to_the_hwmon_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)chip);
}

static void name_attribute_reads_the_name(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake_chip");

	expect_attr(test, hwdev, "name", "fake_chip\n");
}

static void name_attribute_is_read_only(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	expect_mode(test, hwdev, "name", 0444);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev, "name", "x"),
			-EACCES);
}

struct bad_name {
	const char *name;
	const char *desc;
};

static const struct bad_name bad_names[] = {
	{ "bad-name", "dash" },
	{ "bad*name", "asterisk" },
	{ "bad name", "space" },
	{ "bad\tname", "tab" },
	{ "bad\nname", "newline" },
};

static void bad_name_desc(const struct bad_name *bad, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", bad->desc);
}

KUNIT_ARRAY_PARAM(bad_name, bad_names, bad_name_desc);

static void name_with_a_bad_character_warns_but_registers(struct kunit *test)
{
	const struct bad_name *bad = test->param_value;
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, bad->name);
	char expected[32];

	snprintf(expected, sizeof(expected), "%s\n", bad->name);
	expect_attr(test, hwdev, "name", expected);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
}

static void empty_name_warns_but_registers(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "");

	expect_attr(test, hwdev, "name", "\n");
}

static void null_name_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, hwmon_test_register_info(test, parent, NULL, chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0u);
}

static void null_parent_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);

	expect_rejected(test, hwmon_test_register_info(test, NULL, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
}

static void null_ops_are_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct hwmon_chip_info info = *hwmon_fake_chip_info(chip);

	info.ops = NULL;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       &info, NULL), -EINVAL);
}

static void null_channel_list_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct hwmon_chip_info info = *hwmon_fake_chip_info(chip);

	info.info = NULL;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       &info, NULL), -EINVAL);
}

static void missing_is_visible_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	chip->missing_ops |= HWMON_FAKE_NO_IS_VISIBLE;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
}

static void readable_attribute_without_read_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
}

static void label_without_read_string_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_LABEL);
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
}

static void writable_attribute_without_write_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX);
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
}

static void write_only_attribute_needs_no_read(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_RESET_HISTORY);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_write(test, hwdev,
						"temp1_reset_history", "1"), 1);
	KUNIT_EXPECT_EQ(test, chip->total_writes, 1u);
}

static void read_only_attribute_needs_no_write(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "temp1_input", "1010\n");
}

static void label_needs_read_string_but_no_read(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1, HWMON_T_LABEL);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "temp1_label", "fake temp\n");
}

static void hidden_attribute_needs_no_callback(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | HWMON_T_MAX | HWMON_T_LABEL);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_input, -1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_max, -1, 0);
	hwmon_fake_chip_set_mode(chip, hwmon_temp, hwmon_temp_label, -1, 0);
	chip->missing_ops |= HWMON_FAKE_NO_READ;
	chip->missing_ops |= HWMON_FAKE_NO_READ_STRING;
	chip->missing_ops |= HWMON_FAKE_NO_WRITE;
	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
}

static void rejected_registration_leaves_no_device(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);
	char path[HWMON_SYSFS_PATH_MAX];

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
	snprintf(path, sizeof(path), "%s/hwmon",
		 hwmon_sysfs_kobj_path(test, parent));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, path));
}

static void chip_without_channels_is_rejected(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, hwmon_test_register_info(test, parent, "empty", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, chip->total_visible_calls, 0u);
}

static umode_t read_only(const void *drvdata, enum hwmon_sensor_types type,
			 u32 attr, int channel)
{
	return 0444;
}

static int read_zero(struct device *dev, enum hwmon_sensor_types type,
		     u32 attr, int channel, long *val)
{
	*val = 0;
	return 0;
}

static const struct hwmon_ops read_only_ops = {
	.is_visible = read_only,
	.read = read_zero,
};

/* Registers one channel of @type with @config; must fail with -EINVAL. */
static void expect_channel_rejected(struct kunit *test,
				    enum hwmon_sensor_types type, u32 config)
{
	const u32 cfg[] = { config, 0 };
	const struct hwmon_channel_info channel = {
		.type = type, .config = cfg,
	};
	const struct hwmon_channel_info *list[] = { &channel, NULL };
	const struct hwmon_chip_info info = {
		.ops = &read_only_ops, .info = list,
	};
	int before = count_class_devices(test);

	expect_rejected(test,
			hwmon_test_register_info(test,
						 hwmon_test_parent(test, NULL),
						 "bad", NULL, &info, NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void unknown_sensor_type_is_rejected(struct kunit *test)
{
	expect_channel_rejected(test, hwmon_max, BIT(0));
}

/*
 * An attribute bit above the last attribute of the type: stock 6.1 refuses
 * the registration (-EINVAL); stock 6.12 leaves the bit out and registers
 * the rest. The 6.12 header is the one that defines HWMON_C_PEC.
 */
static void attribute_bit_the_type_does_not_have(struct kunit *test)
{
#ifdef HWMON_C_PEC
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;

	hwmon_fake_chip_set_channels(chip, hwmon_temp, 1,
				     HWMON_T_INPUT | BIT(31));
	hwdev = hwmon_test_register_info(test, hwmon_test_parent(test, NULL),
					 "bad", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 1);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
#else
	expect_channel_rejected(test, hwmon_temp, HWMON_T_INPUT | BIT(31));
	expect_channel_rejected(test, hwmon_intrusion, BIT(31));
	expect_channel_rejected(test, hwmon_chip, BIT(31));
#endif
}

static void null_chip_info_is_rejected(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, hwmon_test_register_info(test, parent, "nochip",
						       NULL, NULL, NULL),
			-EINVAL);
}

static void null_chip_info_is_rejected_even_with_extra_groups(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);

	expect_rejected(test, hwmon_test_register_info(test, parent, "nochip",
						       NULL, NULL, extra_groups),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void extra_groups_appear_next_to_generated_attributes(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char expected[64];

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);

	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	snprintf(expected, sizeof(expected), "extra of %s\n", dev_name(hwdev));
	expect_attr(test, hwdev, "extra", expected);
	expect_attr(test, hwdev, "other", "other\n");
	expect_attr(test, hwdev, "name", "fake\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 3);
}

static void devices_get_distinct_ids(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, temp_input_chip(test), "b");

	KUNIT_EXPECT_STRNEQ(test, dev_name(a), dev_name(b));
	expect_attr(test, a, "name", "a\n");
	expect_attr(test, b, "name", "b\n");
}

static void freed_id_is_reused(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, temp_input_chip(test), "b");
	struct device *c = hwmon_test_register_chip(test, temp_input_chip(test), "c");
	char *b_name = saved_name(test, b);
	struct device *d;

	hwmon_test_unregister(test, b);
	d = hwmon_test_register_chip(test, temp_input_chip(test), "d");

	KUNIT_EXPECT_STREQ(test, dev_name(d), b_name);
	KUNIT_EXPECT_STRNEQ(test, dev_name(d), dev_name(a));
	KUNIT_EXPECT_STRNEQ(test, dev_name(d), dev_name(c));
	expect_attr(test, d, "name", "d\n");
}

static void rejected_registration_does_not_use_up_an_id(struct kunit *test)
{
	struct device *a = hwmon_test_register_chip(test, temp_input_chip(test), "a");
	struct hwmon_fake_chip *bad = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	char *a_name = saved_name(test, a);
	struct device *b;

	hwmon_test_unregister(test, a);
	bad->missing_ops |= HWMON_FAKE_NO_READ;
	expect_rejected(test, hwmon_test_register_info(test, parent, "bad", bad,
						       hwmon_fake_chip_info(bad),
						       NULL), -EINVAL);
	b = hwmon_test_register_chip(test, temp_input_chip(test), "b");
	KUNIT_EXPECT_STREQ(test, dev_name(b), a_name);
}

static void device_is_listed_in_the_hwmon_class_directory(struct kunit *test)
{
	struct device *hwdev = hwmon_test_register_chip(test, temp_input_chip(test),
							"listed");
	struct hwmon_sysfs_entry *entries;
	int n, i, found = 0;

	n = hwmon_sysfs_list(test, "class/hwmon", &entries);
	KUNIT_ASSERT_GT(test, n, 0);
	for (i = 0; i < n; i++)
		if (!strcmp(entries[i].name, dev_name(hwdev))) {
			KUNIT_EXPECT_EQ(test, entries[i].type, (unsigned int)DT_LNK);
			found++;
		}
	KUNIT_EXPECT_EQ(test, found, 1);
}

static void unregister_leaves_other_devices_alone(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *a = hwmon_test_register_chip(test, temp_input_chip(test), "a");
	struct device *b = hwmon_test_register_chip(test, chip, "b");

	chip->value[hwmon_temp][hwmon_temp_input][0] = 99;
	hwmon_test_unregister(test, a);
	expect_attr(test, b, "name", "b\n");
	expect_attr(test, b, "temp1_input", "99\n");
}

static void unregister_removes_the_device_and_its_files(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	const char *dir, *attr, *kobj;
	char glue[HWMON_SYSFS_PATH_MAX];
	int before = count_class_devices(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "gone", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	attr = hwmon_sysfs_dev_path(test, hwdev, "temp1_input");
	kobj = hwmon_sysfs_kobj_path(test, hwdev);
	snprintf(glue, sizeof(glue), "%s/hwmon",
		 hwmon_sysfs_kobj_path(test, parent));
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before + 1);

	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, glue));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void file_open_across_unregister_no_longer_reaches_the_driver(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "gone");
	struct file *file;
	char buf[BUF_SIZE];
	loff_t pos = 0;

	file = hwmon_sysfs_open(test, hwmon_sysfs_dev_path(test, hwdev,
							   "temp1_input"),
				O_RDONLY);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, file);
	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_EQ(test, kernel_read(file, buf, sizeof(buf), &pos),
			(ssize_t)-ENODEV);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
}

static struct kunit_case hwmon_register_cases[] = {
	KUNIT_CASE(registered_device_is_a_hwmon_class_device),
	KUNIT_CASE(registered_device_sits_below_its_parent),
	KUNIT_CASE(driver_data_is_attached_to_the_hwmon_device),
	KUNIT_CASE(name_attribute_reads_the_name),
	KUNIT_CASE(name_attribute_is_read_only),
	KUNIT_CASE_PARAM(name_with_a_bad_character_warns_but_registers,
			 bad_name_gen_params),
	KUNIT_CASE(empty_name_warns_but_registers),
	KUNIT_CASE(null_name_is_rejected),
	KUNIT_CASE(null_parent_is_rejected),
	KUNIT_CASE(null_ops_are_rejected),
	KUNIT_CASE(null_channel_list_is_rejected),
	KUNIT_CASE(missing_is_visible_is_rejected),
	KUNIT_CASE(readable_attribute_without_read_is_rejected),
	KUNIT_CASE(label_without_read_string_is_rejected),
	KUNIT_CASE(writable_attribute_without_write_is_rejected),
	KUNIT_CASE(write_only_attribute_needs_no_read),
	KUNIT_CASE(read_only_attribute_needs_no_write),
	KUNIT_CASE(label_needs_read_string_but_no_read),
	KUNIT_CASE(hidden_attribute_needs_no_callback),
	KUNIT_CASE(rejected_registration_leaves_no_device),
	KUNIT_CASE(chip_without_channels_is_rejected),
	KUNIT_CASE(unknown_sensor_type_is_rejected),
	KUNIT_CASE(attribute_bit_the_type_does_not_have),
	KUNIT_CASE(null_chip_info_is_rejected),
	KUNIT_CASE(null_chip_info_is_rejected_even_with_extra_groups),
	KUNIT_CASE(extra_groups_appear_next_to_generated_attributes),
	KUNIT_CASE(devices_get_distinct_ids),
	KUNIT_CASE(freed_id_is_reused),
	KUNIT_CASE(rejected_registration_does_not_use_up_an_id),
	KUNIT_CASE(device_is_listed_in_the_hwmon_class_directory),
	KUNIT_CASE(unregister_leaves_other_devices_alone),
	KUNIT_CASE(unregister_removes_the_device_and_its_files),
	KUNIT_CASE(file_open_across_unregister_no_longer_reaches_the_driver),
	{}
};

static struct kunit_suite hwmon_register_suite = {
	.name = "hwmon_register",
	.test_cases = hwmon_register_cases,
};

/* hwmon_legacy: hwmon_device_register() and the *_with_groups() variants */

static void deprecated_register_creates_a_device_without_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev = hwmon_device_register(parent);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_STREQ(test, hwdev->class->name, "hwmon");
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "uevent"));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
	hwmon_device_unregister(hwdev);
}

static void deprecated_register_accepts_no_parent(struct kunit *test)
{
	struct device *hwdev = hwmon_device_register(NULL);
	char path[HWMON_SYSFS_PATH_MAX];

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_NULL(test, hwdev->parent);
	snprintf(path, sizeof(path), "devices/virtual/hwmon/%s/uevent",
		 dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, path));
}

static void deprecated_register_is_undone_by_unregister(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev = hwmon_device_register(parent);
	const char *dir;

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
}

static void register_with_groups_creates_name_and_group_files(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	char expected[64];
	int drvdata;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", &drvdata,
					   extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "name", "legacy\n");
	snprintf(expected, sizeof(expected), "extra of %s\n", dev_name(hwdev));
	expect_attr(test, hwdev, "extra", expected);
	expect_attr(test, hwdev, "other", "other\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&drvdata);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
}

static void unregister_removes_a_group_registration_and_its_files(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);
	const char *dir, *attr;
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL,
					   extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	attr = hwmon_sysfs_dev_path(test, hwdev, "other");
	KUNIT_ASSERT_TRUE(test, hwmon_sysfs_exists(test, attr));

	hwmon_test_unregister(test, hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, attr));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void register_with_groups_accepts_no_groups(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "name", "legacy\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
}

static void register_with_groups_accepts_no_parent(struct kunit *test)
{
	struct device *hwdev;
	char path[HWMON_SYSFS_PATH_MAX];

	hwdev = hwmon_test_register_groups(test, NULL, "orphan", NULL,
					   extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_NULL(test, hwdev->parent);
	expect_attr(test, hwdev, "name", "orphan\n");
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "device"));
	snprintf(path, sizeof(path), "devices/virtual/hwmon/%s/name",
		 dev_name(hwdev));
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_exists(test, path));
}

static void register_with_groups_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, hwmon_test_register_groups(test, parent, NULL, NULL,
							 extra_groups),
			-EINVAL);
}

static void register_with_groups_warns_about_a_bad_name_but_registers(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "bad-name", NULL, NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "name", "bad-name\n");
}

static struct kunit_case hwmon_legacy_cases[] = {
	KUNIT_CASE(deprecated_register_creates_a_device_without_name),
	KUNIT_CASE(deprecated_register_accepts_no_parent),
	KUNIT_CASE(deprecated_register_is_undone_by_unregister),
	KUNIT_CASE(register_with_groups_creates_name_and_group_files),
	KUNIT_CASE(unregister_removes_a_group_registration_and_its_files),
	KUNIT_CASE(register_with_groups_accepts_no_groups),
	KUNIT_CASE(register_with_groups_accepts_no_parent),
	KUNIT_CASE(register_with_groups_rejects_a_null_name),
	KUNIT_CASE(register_with_groups_warns_about_a_bad_name_but_registers),
	{}
};

static struct kunit_suite hwmon_legacy_suite = {
	.name = "hwmon_legacy",
	.test_cases = hwmon_legacy_cases,
};

/* hwmon_devm: device managed registrations go away with their parent */

static void devm_register_with_info_is_undone_when_the_parent_goes(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	const char *dir, *kobj;
	struct device *hwdev;
	int before = count_class_devices(test);

	hwdev = devm_hwmon_device_register_with_info(parent, "devm", chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	kobj = hwmon_sysfs_kobj_path(test, hwdev);
	expect_attr(test, hwdev, "name", "devm\n");
	KUNIT_EXPECT_TRUE(test, hwmon_sysfs_has(test, hwdev, "temp1_input"));
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)chip);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before + 1);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, kobj));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void devm_register_with_groups_is_undone_when_the_parent_goes(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);
	struct device *hwdev;
	const char *dir;

	hwdev = devm_hwmon_device_register_with_groups(parent, "devm", &before,
						       extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	expect_attr(test, hwdev, "other", "other\n");
	expect_attr(test, hwdev, "name", "devm\n");
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&before);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void devm_register_with_info_rejects_a_null_parent(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);

	expect_rejected(test,
			devm_hwmon_device_register_with_info(NULL, "devm", chip,
							     hwmon_fake_chip_info(chip),
							     NULL),
			-EINVAL);
}

static void devm_register_with_groups_rejects_a_null_parent(struct kunit *test)
{
	expect_rejected(test,
			devm_hwmon_device_register_with_groups(NULL, "devm", NULL,
							       extra_groups),
			-EINVAL);
}

static void devm_register_with_info_rejects_a_null_name(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent;

	if (IS_ENABLED(CONFIG_HWMON_NEWER_API))
		kunit_skip(test,
			   "CONFIG_HWMON_NEWER_API: a NULL name is the parent's (suite hwmon_newer_api)");
	parent = hwmon_test_parent(test, NULL);

	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, NULL, chip,
							     hwmon_fake_chip_info(chip),
							     NULL),
			-EINVAL);
}

static void devm_register_with_groups_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test,
			devm_hwmon_device_register_with_groups(parent, NULL, NULL,
							       extra_groups),
			-EINVAL);
}

static void devm_registrations_on_one_parent_all_go_with_it(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);
	struct device *a, *b;
	const char *a_dir, *b_dir;

	a = devm_hwmon_device_register_with_info(parent, "a", chip,
						 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, a);
	b = devm_hwmon_device_register_with_groups(parent, "b", NULL,
						   extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, b);
	a_dir = hwmon_sysfs_dev_path(test, a, NULL);
	b_dir = hwmon_sysfs_dev_path(test, b, NULL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before + 2);

	hwmon_test_remove_parent(test, parent);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, a_dir));
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, b_dir));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void devm_register_with_info_passes_errors_on(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *parent = hwmon_test_parent(test, NULL);
	int before = count_class_devices(test);

	chip->missing_ops |= HWMON_FAKE_NO_READ;
	expect_rejected(test,
			devm_hwmon_device_register_with_info(parent, "devm", chip,
							     hwmon_fake_chip_info(chip),
							     NULL),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static void devm_unregister_removes_the_device_at_once(struct kunit *test)
{
#ifdef HWMON_TEST_HAVE_DEVM_UNREGISTER
	struct hwmon_fake_chip *chip;
	struct device *parent, *hwdev;
	const char *dir;
	int before;

	/* Detect first: devm_hwmon_device_unregister() WARNs on stock. */
	if (hwmon_test_core_is_stock(test))
		kunit_skip(test,
			   "stock 6.1 devm_hwmon_device_unregister() matches the wrong pointer and leaves the device (intended difference)");

	chip = temp_input_chip(test);
	parent = hwmon_test_parent(test, NULL);
	before = count_class_devices(test);
	hwdev = devm_hwmon_device_register_with_info(parent, "devm", chip,
						     hwmon_fake_chip_info(chip),
						     NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);

	devm_hwmon_device_unregister(hwdev);

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
	/* removing the parent later must not unregister it a second time */
	hwmon_test_remove_parent(test, parent);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
#else
	kunit_skip(test,
		   "the tree's <linux/hwmon.h> has no devm_hwmon_device_unregister() (6.12)");
#endif
}

static struct kunit_case hwmon_devm_cases[] = {
	KUNIT_CASE(devm_register_with_info_is_undone_when_the_parent_goes),
	KUNIT_CASE(devm_register_with_groups_is_undone_when_the_parent_goes),
	KUNIT_CASE(devm_register_with_info_rejects_a_null_parent),
	KUNIT_CASE(devm_register_with_groups_rejects_a_null_parent),
	KUNIT_CASE(devm_register_with_info_rejects_a_null_name),
	KUNIT_CASE(devm_register_with_groups_rejects_a_null_name),
	KUNIT_CASE(devm_registrations_on_one_parent_all_go_with_it),
	KUNIT_CASE(devm_register_with_info_passes_errors_on),
	KUNIT_CASE(devm_unregister_removes_the_device_at_once),
	{}
};

static struct kunit_suite hwmon_devm_suite = {
	.name = "hwmon_devm",
	.test_cases = hwmon_devm_cases,
};

/* hwmon_label: the optional label attribute from the parent's firmware */

static void label_attribute_comes_from_the_parent_label_property(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "board sensor"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "label", "board sensor\n");
	expect_attr(test, hwdev, "name", "fake\n");
}

static void label_attribute_is_read_only(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_mode(test, hwdev, "label", 0444);
}

static void no_label_attribute_without_the_property(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("not-label", "board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, "fake", chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "label"));
}

static void no_label_attribute_without_firmware_node(struct kunit *test)
{
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	struct device *hwdev = hwmon_test_register_chip(test, chip, "fake");

	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "label"));
}

static void label_attribute_is_also_created_for_group_registrations(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "legacy board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev;

	hwdev = hwmon_test_register_groups(test, parent, "legacy", NULL,
					   extra_groups);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "label", "legacy board\n");
}

/*
 * The stock 6.1 core fails such a registration with -ENOMEM (not -EINVAL):
 * that is the oracle's behaviour, so it is what a core has to match.
 */
static void label_attribute_is_also_created_for_the_deprecated_register(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "old board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev = hwmon_device_register(parent);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "label", "old board\n");
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_has(test, hwdev, "name"));
	hwmon_device_unregister(hwdev);
}

static void label_property_that_is_not_a_string_fails_registration(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_U32("label", 7),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct hwmon_fake_chip *chip = temp_input_chip(test);
	int before = count_class_devices(test);

	expect_rejected(test, hwmon_test_register_info(test, parent, "fake", chip,
						       hwmon_fake_chip_info(chip),
						       NULL), -ENOMEM);
	KUNIT_EXPECT_EQ(test, count_class_devices(test), before);
}

static struct kunit_case hwmon_label_cases[] = {
	KUNIT_CASE(label_attribute_comes_from_the_parent_label_property),
	KUNIT_CASE(label_attribute_is_read_only),
	KUNIT_CASE(no_label_attribute_without_the_property),
	KUNIT_CASE(no_label_attribute_without_firmware_node),
	KUNIT_CASE(label_attribute_is_also_created_for_group_registrations),
	KUNIT_CASE(label_attribute_is_also_created_for_the_deprecated_register),
	KUNIT_CASE(label_property_that_is_not_a_string_fails_registration),
	{}
};

static struct kunit_suite hwmon_label_suite = {
	.name = "hwmon_label",
	.test_cases = hwmon_label_cases,
};

/* hwmon_thermal: hwmon_device_register_for_thermal() and HWMON_C_REGISTER_TZ */

static void register_for_thermal_creates_a_named_device(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;
	const char *dir;
	int drvdata;

	hwdev = hwmon_device_register_for_thermal(parent, "thermal_zone",
						  &drvdata);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	dir = hwmon_sysfs_dev_path(test, hwdev, NULL);
	expect_attr(test, hwdev, "name", "thermal_zone\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 0);
	KUNIT_EXPECT_PTR_EQ(test, dev_get_drvdata(hwdev), (void *)&drvdata);
	KUNIT_EXPECT_PTR_EQ(test, hwdev->parent, parent);
	hwmon_device_unregister(hwdev);
	KUNIT_EXPECT_FALSE(test, hwmon_sysfs_exists(test, dir));
}

static void register_for_thermal_also_gets_the_parent_label(struct kunit *test)
{
	const struct property_entry props[] = {
		PROPERTY_ENTRY_STRING("label", "zone board"),
		{}
	};
	struct device *parent = hwmon_test_parent(test, props);
	struct device *hwdev;

	hwdev = hwmon_device_register_for_thermal(parent, "tz", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	expect_attr(test, hwdev, "label", "zone board\n");
	expect_attr(test, hwdev, "name", "tz\n");
	hwmon_device_unregister(hwdev);
}

static void register_for_thermal_rejects_a_null_name(struct kunit *test)
{
	struct device *parent = hwmon_test_parent(test, NULL);

	expect_rejected(test, hwmon_device_register_for_thermal(parent, NULL, NULL),
			-EINVAL);
}

static void register_for_thermal_rejects_a_null_parent(struct kunit *test)
{
	expect_rejected(test, hwmon_device_register_for_thermal(NULL, "tz", NULL),
			-EINVAL);
}

static void register_tz_without_firmware_node_still_registers(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	char buf[BUF_SIZE];

	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_REGISTER_TZ);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	chip->value[hwmon_temp][hwmon_temp_input][1] = 45000;
	hwdev = hwmon_test_register_chip(test, chip, "tz");

	KUNIT_EXPECT_EQ(test, hwmon_sysfs_read(test, hwdev, "temp2_input", buf,
					       sizeof(buf)), 6);
	KUNIT_EXPECT_STREQ(test, buf, "45000\n");
	KUNIT_EXPECT_EQ(test, hwmon_sysfs_count_files(test, hwdev), 2);
}

static void register_tz_without_firmware_node_adds_no_thermal_zone(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct hwmon_sysfs_entry *entries;
	int before, after;

	before = hwmon_sysfs_list(test, "class/thermal", &entries);
	KUNIT_ASSERT_GE(test, before, 0);
	hwmon_fake_chip_set_channels(chip, hwmon_chip, 1, HWMON_C_REGISTER_TZ);
	hwmon_fake_chip_set_channels(chip, hwmon_temp, 2, HWMON_T_INPUT);
	hwmon_test_register_chip(test, chip, "tz");

	after = hwmon_sysfs_list(test, "class/thermal", &entries);
	KUNIT_EXPECT_EQ(test, after, before);
	KUNIT_EXPECT_EQ(test, chip->total_reads, 0u);
}

static struct kunit_case hwmon_thermal_cases[] = {
	KUNIT_CASE(register_for_thermal_creates_a_named_device),
	KUNIT_CASE(register_for_thermal_also_gets_the_parent_label),
	KUNIT_CASE(register_for_thermal_rejects_a_null_name),
	KUNIT_CASE(register_for_thermal_rejects_a_null_parent),
	KUNIT_CASE(register_tz_without_firmware_node_still_registers),
	KUNIT_CASE(register_tz_without_firmware_node_adds_no_thermal_zone),
	{}
};

static struct kunit_suite hwmon_thermal_suite = {
	.name = "hwmon_thermal",
	.test_cases = hwmon_thermal_cases,
};

kunit_test_suites(&hwmon_register_suite, &hwmon_legacy_suite,
		  &hwmon_devm_suite, &hwmon_label_suite, &hwmon_thermal_suite);
