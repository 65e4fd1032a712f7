// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers for the KUnit suites that run in-tree drivers on the hwmon core.
 */

#include <kunit/test.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "hwmon_driver_util.h"
#include "hwmon_sysfs_util.h"

#define HWMON_DRV_BUF_SIZE	128

static bool hwmon_drv_is_hwmon(struct device *dev)
{
	return dev->class && !strcmp(dev->class->name, "hwmon");
}

static int hwmon_drv_count_one(struct device *dev, void *data)
{
	int *count = data;

	if (hwmon_drv_is_hwmon(dev))
		(*count)++;
	return 0;
}

static int hwmon_drv_match(struct device *dev, void *data)
{
	return hwmon_drv_is_hwmon(dev);
}

/**
 * hwmon_drv_count_children() - number of hwmon devices below a device
 * @parent: the device
 *
 * Return: how many direct children of @parent are hwmon class devices.
 */
int hwmon_drv_count_children(struct device *parent)
{
	int count = 0;

	device_for_each_child(parent, &count, hwmon_drv_count_one);
	return count;
}

static void hwmon_drv_put_device(void *data)
{
	put_device(data);
}

/**
 * hwmon_drv_find_child() - the hwmon device a driver registered below a device
 * @test: the test
 * @parent: the device the driver registered it for (I2C client, power
 *	supply, thermal zone)
 *
 * Fails the test unless @parent has exactly one hwmon child. The reference
 * taken on the child is dropped when the test ends.
 *
 * Return: the hwmon device.
 */
struct device *hwmon_drv_find_child(struct kunit *test, struct device *parent)
{
	struct device *hwdev;

	KUNIT_ASSERT_EQ_MSG(test, hwmon_drv_count_children(parent), 1,
			    "%s: hwmon children", dev_name(parent));
	hwdev = device_find_child(parent, NULL, hwmon_drv_match);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, hwmon_drv_put_device, hwdev),
			0);
	return hwdev;
}

/**
 * hwmon_drv_expect_files() - check the regular files of a hwmon device
 * @test: the test
 * @hwdev: the hwmon device
 * @files: every regular file expected besides "uevent", with its mode;
 *	terminated by an entry with a NULL name
 *
 * Fails the test for a missing file, a file with another mode and a file
 * that is not in @files.
 */
void hwmon_drv_expect_files(struct kunit *test, struct device *hwdev,
			    const struct hwmon_drv_file *files)
{
	struct hwmon_sysfs_entry *entries;
	const struct hwmon_drv_file *f;
	int n, i, found;

	n = hwmon_sysfs_list(test, hwmon_sysfs_dev_path(test, hwdev, NULL),
			     &entries);
	KUNIT_ASSERT_GE(test, n, 0);
	for (i = 0; i < n; i++) {
		if (entries[i].type != DT_REG ||
		    !strcmp(entries[i].name, "uevent"))
			continue;
		for (f = files; f->name; f++)
			if (!strcmp(f->name, entries[i].name))
				break;
		KUNIT_EXPECT_NOT_NULL_MSG(test, f->name, "unexpected file %s",
					  entries[i].name);
		if (f->name)
			KUNIT_EXPECT_EQ_MSG(test, entries[i].mode, f->mode,
					    "%s mode %o", f->name,
					    entries[i].mode);
	}
	for (f = files; f->name; f++) {
		found = 0;
		for (i = 0; i < n; i++)
			if (entries[i].type == DT_REG &&
			    !strcmp(entries[i].name, f->name))
				found++;
		KUNIT_EXPECT_EQ_MSG(test, found, 1, "%s missing", f->name);
	}
}

/**
 * hwmon_drv_expect_str() - check the full content of an attribute file
 * @test: the test
 * @hwdev: the hwmon device
 * @attr: attribute file name
 * @expected: expected content, newline included
 */
void hwmon_drv_expect_str(struct kunit *test, struct device *hwdev,
			  const char *attr, const char *expected)
{
	char buf[HWMON_DRV_BUF_SIZE];

	KUNIT_EXPECT_EQ_MSG(test, hwmon_sysfs_read(test, hwdev, attr, buf,
						   sizeof(buf)),
			    (int)strlen(expected), "reading %s", attr);
	KUNIT_EXPECT_STREQ_MSG(test, buf, expected, "content of %s", attr);
}

/**
 * hwmon_drv_read_long() - read a numeric attribute file
 * @test: the test
 * @hwdev: the hwmon device
 * @attr: attribute file name
 *
 * Fails the test if the read fails or the file does not hold one decimal
 * number followed by a newline.
 *
 * Return: the number.
 */
long hwmon_drv_read_long(struct kunit *test, struct device *hwdev,
			 const char *attr)
{
	char buf[HWMON_DRV_BUF_SIZE];
	long val;
	int n;

	n = hwmon_sysfs_read(test, hwdev, attr, buf, sizeof(buf));
	KUNIT_ASSERT_GT_MSG(test, n, 1, "reading %s", attr);
	KUNIT_ASSERT_EQ_MSG(test, buf[n - 1], '\n', "%s: no newline", attr);
	KUNIT_ASSERT_EQ_MSG(test, kstrtol(buf, 10, &val), 0, "%s: \"%s\"",
			    attr, buf);
	return val;
}

/**
 * hwmon_drv_read_err() - read an attribute file that is expected to fail
 * @test: the test
 * @hwdev: the hwmon device
 * @attr: attribute file name
 *
 * Return: what the read returned (a negative error, or the length read).
 */
int hwmon_drv_read_err(struct kunit *test, struct device *hwdev,
		       const char *attr)
{
	char buf[HWMON_DRV_BUF_SIZE];

	return hwmon_sysfs_read(test, hwdev, attr, buf, sizeof(buf));
}

/**
 * hwmon_drv_write_ok() - write an attribute file that must accept the write
 * @test: the test
 * @hwdev: the hwmon device
 * @attr: attribute file name
 * @str: string to write
 *
 * Fails the test unless the whole string is accepted.
 */
void hwmon_drv_write_ok(struct kunit *test, struct device *hwdev,
			const char *attr, const char *str)
{
	KUNIT_ASSERT_EQ_MSG(test, hwmon_sysfs_write(test, hwdev, attr, str),
			    (int)strlen(str), "writing \"%s\" to %s", str, attr);
}
