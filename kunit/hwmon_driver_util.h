/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the KUnit suites that run in-tree drivers (power supply,
 * thermal bridge, I2C sensor drivers) on the hwmon core: finding the hwmon
 * device a driver registered below its own device, and checking its files
 * through the real sysfs. Built on hwmon_sysfs_util.
 */
#ifndef _HWMON_DRIVER_UTIL_H
#define _HWMON_DRIVER_UTIL_H

#include <linux/types.h>

struct device;
struct kunit;

/**
 * struct hwmon_drv_file - an attribute file a driver is expected to create
 * @name: file name
 * @mode: permission bits
 */
struct hwmon_drv_file {
	const char *name;
	umode_t mode;
};

int hwmon_drv_count_children(struct device *parent);
struct device *hwmon_drv_find_child(struct kunit *test, struct device *parent);

void hwmon_drv_expect_files(struct kunit *test, struct device *hwdev,
			    const struct hwmon_drv_file *files);
void hwmon_drv_expect_str(struct kunit *test, struct device *hwdev,
			  const char *attr, const char *expected);
long hwmon_drv_read_long(struct kunit *test, struct device *hwdev,
			 const char *attr);
int hwmon_drv_read_err(struct kunit *test, struct device *hwdev,
		       const char *attr);
void hwmon_drv_write_ok(struct kunit *test, struct device *hwdev,
			const char *attr, const char *str);

#endif /* _HWMON_DRIVER_UTIL_H */
