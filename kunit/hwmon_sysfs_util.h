/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the hwmon KUnit suites: test managed parent devices and hwmon
 * registrations, access to the real sysfs files through a private sysfs
 * mount, and a uevent listener. Everything a helper creates is released when
 * the test ends.
 */
#ifndef _HWMON_SYSFS_UTIL_H
#define _HWMON_SYSFS_UTIL_H

#include <linux/types.h>

struct attribute_group;
struct device;
struct file;
struct hwmon_chip_info;
struct hwmon_fake_chip;
struct kunit;
struct property_entry;
struct socket;
struct vfsmount;

/* Longest sysfs path the helpers build. */
#define HWMON_SYSFS_PATH_MAX	256

/**
 * struct hwmon_sysfs_entry - one entry of a sysfs directory
 * @name: entry name
 * @type: DT_REG, DT_DIR or DT_LNK
 * @mode: permission bits (regular files only, 0 otherwise)
 */
struct hwmon_sysfs_entry {
	char name[64];
	unsigned int type;
	umode_t mode;
};

int hwmon_test_defer(struct kunit *test, void (*fn)(void *), void *data);
void hwmon_test_run_now(struct kunit *test, void (*fn)(void *), void *data);

struct device *hwmon_test_parent(struct kunit *test,
				 const struct property_entry *props);
void hwmon_test_remove_parent(struct kunit *test, struct device *parent);

struct device *hwmon_test_register_info(struct kunit *test,
					struct device *parent,
					const char *name, void *drvdata,
					const struct hwmon_chip_info *info,
					const struct attribute_group **groups);
struct device *hwmon_test_register_groups(struct kunit *test,
					  struct device *parent,
					  const char *name, void *drvdata,
					  const struct attribute_group **groups);
struct device *hwmon_test_register_chip(struct kunit *test,
					struct hwmon_fake_chip *chip,
					const char *name);
void hwmon_test_unregister(struct kunit *test, struct device *hwdev);

bool hwmon_test_core_is_stock(struct kunit *test);

const char *hwmon_sysfs_dev_path(struct kunit *test, struct device *dev,
				 const char *attr);
const char *hwmon_sysfs_kobj_path(struct kunit *test, struct device *dev);

struct vfsmount *hwmon_sysfs_mount(struct kunit *test);
int hwmon_sysfs_read_path(struct kunit *test, const char *path, char *buf,
			  size_t len);
int hwmon_sysfs_write_path(struct kunit *test, const char *path,
			   const char *str);
int hwmon_sysfs_mode_path(struct kunit *test, const char *path,
			  umode_t *mode);
bool hwmon_sysfs_exists(struct kunit *test, const char *path);
struct file *hwmon_sysfs_open(struct kunit *test, const char *path,
			      int flags);
int hwmon_sysfs_list(struct kunit *test, const char *path,
		     struct hwmon_sysfs_entry **entries);

int hwmon_sysfs_read(struct kunit *test, struct device *dev, const char *attr,
		     char *buf, size_t len);
int hwmon_sysfs_write(struct kunit *test, struct device *dev,
		      const char *attr, const char *str);
int hwmon_sysfs_mode(struct kunit *test, struct device *dev, const char *attr,
		     umode_t *mode);
bool hwmon_sysfs_has(struct kunit *test, struct device *dev, const char *attr);
int hwmon_sysfs_count_files(struct kunit *test, struct device *dev);

struct socket *hwmon_uevent_listen(struct kunit *test);
int hwmon_uevent_count(struct kunit *test, struct socket *sock,
		       struct device *dev, const char *const *keys);
void hwmon_uevent_flush(struct kunit *test, struct socket *sock);

#endif /* _HWMON_SYSFS_UTIL_H */
