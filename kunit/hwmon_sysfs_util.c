// SPDX-License-Identifier: GPL-2.0-only
/*
 * Helpers for the hwmon KUnit suites.
 *
 * The suites look at the hwmon core only from the outside: attributes are
 * read and written through the real sysfs files of a private sysfs mount,
 * as user space would, and uevents are received on a kernel netlink socket.
 */

#include <kunit/resource.h>
#include <kunit/test.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/fs.h>
#include <linux/hwmon.h>
#include <linux/kobject.h>
#include <linux/module.h>
#include <linux/mount.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/platform_device.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/socket.h>
#include <linux/string.h>
#include <linux/uio.h>
#include <net/net_namespace.h>

#include "hwmon_fake_chip.h"
#include "hwmon_sysfs_util.h"

#define HWMON_TEST_PARENT_NAME	"hwmon-kunit-parent"
#define HWMON_TEST_MAX_ENTRIES	512

struct hwmon_test_action {
	void (*fn)(void *data);
	void *data;
};

static int hwmon_test_action_init(struct kunit_resource *res, void *context)
{
	res->data = context;
	return 0;
}

static void hwmon_test_action_free(struct kunit_resource *res)
{
	struct hwmon_test_action *action = res->data;

	action->fn(action->data);
	kfree(action);
}

static bool hwmon_test_action_match(struct kunit *test,
				    struct kunit_resource *res,
				    void *match_data)
{
	struct hwmon_test_action *want = match_data;
	struct hwmon_test_action *action = res->data;

	return res->free == hwmon_test_action_free &&
	       action->fn == want->fn && action->data == want->data;
}

/**
 * hwmon_test_defer() - run a function when the test ends
 * @test: the test
 * @fn: function to run
 * @data: its argument
 *
 * Deferred functions run in the reverse order of their deferral. If the
 * deferral itself fails, @fn runs at once.
 *
 * Return: 0, or -ENOMEM if @fn had to run at once.
 */
int hwmon_test_defer(struct kunit *test, void (*fn)(void *), void *data)
{
	struct hwmon_test_action *action;

	action = kmalloc(sizeof(*action), GFP_KERNEL);
	if (!action)
		goto now;
	action->fn = fn;
	action->data = data;
	if (kunit_alloc_resource(test, hwmon_test_action_init,
				 hwmon_test_action_free, GFP_KERNEL, action))
		return 0;
	kfree(action);
now:
	fn(data);
	return -ENOMEM;
}

/**
 * hwmon_test_run_now() - run a deferred function now instead of at the end
 * @test: the test
 * @fn: function passed to hwmon_test_defer()
 * @data: argument passed to hwmon_test_defer()
 *
 * Fails the test if no such deferral is pending.
 */
void hwmon_test_run_now(struct kunit *test, void (*fn)(void *), void *data)
{
	struct hwmon_test_action want = { .fn = fn, .data = data };

	KUNIT_ASSERT_EQ(test, kunit_destroy_resource(test,
						     hwmon_test_action_match,
						     &want), 0);
}

static int hwmon_test_parent_probe(struct platform_device *pdev)
{
	return 0;
}

static struct platform_driver hwmon_test_parent_driver = {
	.probe = hwmon_test_parent_probe,
	.driver = {
		.name = HWMON_TEST_PARENT_NAME,
	},
};

static void hwmon_test_driver_unregister(void *data)
{
	platform_driver_unregister(data);
}

static void hwmon_test_pdev_unregister(void *data)
{
	platform_device_unregister(data);
}

static bool hwmon_test_driver_match(struct kunit *test,
				    struct kunit_resource *res,
				    void *match_data)
{
	struct hwmon_test_action *action = res->data;

	return res->free == hwmon_test_action_free &&
	       action->fn == hwmon_test_driver_unregister;
}

/**
 * hwmon_test_parent() - create a parent device bound to a driver
 * @test: the test
 * @props: firmware properties of the device (a software node), or NULL
 *
 * The device is a platform device bound to a do-nothing platform driver, so
 * that device managed (devm) resources attached to it are released when it
 * is removed. It is removed when the test ends, or earlier by
 * hwmon_test_remove_parent(). Fails the test if it cannot be created.
 *
 * Return: the parent device.
 */
struct device *hwmon_test_parent(struct kunit *test,
				 const struct property_entry *props)
{
	struct platform_device_info info = {
		.name = HWMON_TEST_PARENT_NAME,
		.id = PLATFORM_DEVID_AUTO,
		.properties = props,
	};
	struct platform_device *pdev;
	struct kunit_resource *res;

	res = kunit_find_resource(test, hwmon_test_driver_match, NULL);
	if (res) {
		kunit_put_resource(res);
	} else {
		KUNIT_ASSERT_EQ(test,
				platform_driver_register(&hwmon_test_parent_driver),
				0);
		KUNIT_ASSERT_EQ(test,
				hwmon_test_defer(test, hwmon_test_driver_unregister,
						 &hwmon_test_parent_driver),
				0);
	}

	pdev = platform_device_register_full(&info);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, pdev);
	KUNIT_ASSERT_EQ(test,
			hwmon_test_defer(test, hwmon_test_pdev_unregister, pdev),
			0);
	KUNIT_ASSERT_PTR_EQ(test, pdev->dev.driver,
			    &hwmon_test_parent_driver.driver);
	return &pdev->dev;
}

/**
 * hwmon_test_remove_parent() - remove a parent device now
 * @test: the test
 * @parent: device returned by hwmon_test_parent()
 *
 * Unbinds and unregisters @parent, which releases its devm resources.
 */
void hwmon_test_remove_parent(struct kunit *test, struct device *parent)
{
	hwmon_test_run_now(test, hwmon_test_pdev_unregister,
			   to_platform_device(parent));
}

static void hwmon_test_unregister_action(void *data)
{
	hwmon_device_unregister(data);
}

/**
 * hwmon_test_register_info() - hwmon_device_register_with_info(), undone at
 *	the end of the test
 * @test: the test
 * @parent: parent device
 * @name: hwmon name
 * @drvdata: driver data
 * @info: chip description
 * @groups: extra attribute groups
 *
 * Return: what hwmon_device_register_with_info() returned. A device is
 * unregistered when the test ends unless hwmon_test_unregister() did it.
 */
struct device *hwmon_test_register_info(struct kunit *test,
					struct device *parent,
					const char *name, void *drvdata,
					const struct hwmon_chip_info *info,
					const struct attribute_group **groups)
{
	struct device *hwdev;

	hwdev = hwmon_device_register_with_info(parent, name, drvdata, info,
						groups);
	if (!IS_ERR_OR_NULL(hwdev))
		hwmon_test_defer(test, hwmon_test_unregister_action, hwdev);
	return hwdev;
}

/**
 * hwmon_test_register_groups() - hwmon_device_register_with_groups(), undone
 *	at the end of the test
 * @test: the test
 * @parent: parent device
 * @name: hwmon name
 * @drvdata: driver data
 * @groups: attribute groups
 *
 * Return: what hwmon_device_register_with_groups() returned.
 */
struct device *hwmon_test_register_groups(struct kunit *test,
					  struct device *parent,
					  const char *name, void *drvdata,
					  const struct attribute_group **groups)
{
	struct device *hwdev;

	hwdev = hwmon_device_register_with_groups(parent, name, drvdata, groups);
	if (!IS_ERR_OR_NULL(hwdev))
		hwmon_test_defer(test, hwmon_test_unregister_action, hwdev);
	return hwdev;
}

/**
 * hwmon_test_register_chip() - register a fake chip on a new parent
 * @test: the test
 * @chip: the fake chip; it is also the driver data
 * @name: hwmon name
 *
 * Fails the test if the registration fails.
 *
 * Return: the hwmon device.
 */
struct device *hwmon_test_register_chip(struct kunit *test,
					struct hwmon_fake_chip *chip,
					const char *name)
{
	struct device *parent = hwmon_test_parent(test, NULL);
	struct device *hwdev;

	hwdev = hwmon_test_register_info(test, parent, name, chip,
					 hwmon_fake_chip_info(chip), NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, hwdev);
	return hwdev;
}

/**
 * hwmon_test_unregister() - unregister a device of hwmon_test_register_*()
 *	now
 * @test: the test
 * @hwdev: the hwmon device
 */
void hwmon_test_unregister(struct kunit *test, struct device *hwdev)
{
	hwmon_test_run_now(test, hwmon_test_unregister_action, hwdev);
}

/**
 * hwmon_test_core_is_stock() - does the core behave like a stock core?
 * @test: the test
 *
 * Registers a power channel with HWMON_P_AVERAGE_INTERVAL_MAX and looks at
 * the file it gets: the stock cores (6.1 and 6.12) name it
 * power1_interval_max, ours uses the ABI name power1_average_interval_max.
 * The device is gone again when this returns. Fails the test if neither file exists.
 *
 * Return: true for the stock core.
 */
bool hwmon_test_core_is_stock(struct kunit *test)
{
	struct hwmon_fake_chip *chip = hwmon_fake_chip_new(test);
	struct device *hwdev;
	bool stock, ours;

	hwmon_fake_chip_set_channels(chip, hwmon_power, 1,
				     HWMON_P_AVERAGE_INTERVAL_MAX);
	hwdev = hwmon_test_register_chip(test, chip, "detect");
	stock = hwmon_sysfs_has(test, hwdev, "power1_interval_max");
	ours = hwmon_sysfs_has(test, hwdev, "power1_average_interval_max");
	hwmon_test_unregister(test, hwdev);
	KUNIT_ASSERT_TRUE_MSG(test, stock != ours,
			      "core detection: stock name %d, ABI name %d",
			      stock, ours);
	return stock;
}

static void hwmon_sysfs_mnt_free(struct kunit_resource *res)
{
	mntput(res->data);
}

static struct vfsmount *hwmon_sysfs_mnt(struct kunit *test)
{
	static const char res_name[] = "hwmon_sysfs_mnt";
	struct file_system_type *fs;
	struct kunit_resource *res;
	struct vfsmount *mnt;
	int err;

	res = kunit_find_named_resource(test, res_name);
	if (res) {
		mnt = res->data;
		kunit_put_resource(res);
		return mnt;
	}

	fs = get_fs_type("sysfs");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, fs);
	mnt = vfs_kern_mount(fs, 0, "sysfs", NULL);
	module_put(fs->owner);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, mnt);

	res = kzalloc(sizeof(*res), GFP_KERNEL);
	if (!res)
		mntput(mnt);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, res);
	err = kunit_add_named_resource(test, NULL, hwmon_sysfs_mnt_free, res,
				       res_name, mnt);
	if (err) {
		mntput(mnt);
		kfree(res);
	}
	KUNIT_ASSERT_EQ(test, err, 0);
	/*
	 * kunit_add_named_resource() clears should_kfree; set it only now, or
	 * the resource leaks (kmemleak found it on the debug kernel).
	 */
	res->should_kfree = true;
	return mnt;
}

/**
 * hwmon_sysfs_mount() - the test's private sysfs mount
 * @test: the test
 *
 * For code that cannot use the helpers below (kthreads): open files with
 * file_open_root_mnt() on it. It is unmounted when the test ends.
 *
 * Return: the mount.
 */
struct vfsmount *hwmon_sysfs_mount(struct kunit *test)
{
	return hwmon_sysfs_mnt(test);
}

/**
 * hwmon_sysfs_dev_path() - sysfs path of a hwmon device or of its attribute
 * @test: the test
 * @dev: the hwmon device
 * @attr: attribute name, or NULL for the directory
 *
 * Return: "class/hwmon/<dev>[/<attr>]", relative to the sysfs root (test
 * managed memory).
 */
const char *hwmon_sysfs_dev_path(struct kunit *test, struct device *dev,
				 const char *attr)
{
	char *path = kunit_kzalloc(test, HWMON_SYSFS_PATH_MAX, GFP_KERNEL);

	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, path);
	if (attr)
		snprintf(path, HWMON_SYSFS_PATH_MAX, "class/hwmon/%s/%s",
			 dev_name(dev), attr);
	else
		snprintf(path, HWMON_SYSFS_PATH_MAX, "class/hwmon/%s",
			 dev_name(dev));
	return path;
}

/**
 * hwmon_sysfs_kobj_path() - sysfs path of any device
 * @test: the test
 * @dev: the device
 *
 * Return: "devices/...", relative to the sysfs root (test managed memory).
 */
const char *hwmon_sysfs_kobj_path(struct kunit *test, struct device *dev)
{
	char *kpath = kobject_get_path(&dev->kobj, GFP_KERNEL);
	char *path = kunit_kzalloc(test, HWMON_SYSFS_PATH_MAX, GFP_KERNEL);

	if (!path || !kpath)
		kfree(kpath);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, path);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, kpath);
	strscpy(path, kpath[0] == '/' ? kpath + 1 : kpath, HWMON_SYSFS_PATH_MAX);
	kfree(kpath);
	return path;
}

static void hwmon_sysfs_fput(void *data)
{
	fput(data);
}

/**
 * hwmon_sysfs_open() - open a sysfs file, closed when the test ends
 * @test: the test
 * @path: path relative to the sysfs root
 * @flags: open flags
 *
 * Return: the open file or an ERR_PTR() from the open.
 */
struct file *hwmon_sysfs_open(struct kunit *test, const char *path, int flags)
{
	struct file *file;

	file = file_open_root_mnt(hwmon_sysfs_mnt(test), path, flags, 0);
	if (!IS_ERR(file))
		hwmon_test_defer(test, hwmon_sysfs_fput, file);
	return file;
}

/**
 * hwmon_sysfs_read_path() - read a sysfs file from its start
 * @test: the test
 * @path: path relative to the sysfs root
 * @buf: buffer, NUL terminated on success
 * @len: size of @buf
 *
 * Return: the number of bytes read or the negative error of the open or the
 * read.
 */
int hwmon_sysfs_read_path(struct kunit *test, const char *path, char *buf,
			  size_t len)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	file = file_open_root_mnt(hwmon_sysfs_mnt(test), path, O_RDONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	n = kernel_read(file, buf, len - 1, &pos);
	fput(file);
	if (n >= 0)
		buf[n] = '\0';
	return n;
}

/**
 * hwmon_sysfs_write_path() - write a string to a sysfs file in one write
 * @test: the test
 * @path: path relative to the sysfs root
 * @str: the string (without its NUL)
 *
 * Return: the number of bytes written or the negative error of the open or
 * the write.
 */
int hwmon_sysfs_write_path(struct kunit *test, const char *path,
			   const char *str)
{
	struct file *file;
	loff_t pos = 0;
	ssize_t n;

	file = file_open_root_mnt(hwmon_sysfs_mnt(test), path, O_WRONLY, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	n = kernel_write(file, str, strlen(str), &pos);
	fput(file);
	return n;
}

/**
 * hwmon_sysfs_mode_path() - permission bits of a sysfs entry
 * @test: the test
 * @path: path relative to the sysfs root
 * @mode: set to the permission bits
 *
 * Return: 0, or the negative error of the lookup (-ENOENT if it is missing).
 */
int hwmon_sysfs_mode_path(struct kunit *test, const char *path, umode_t *mode)
{
	struct file *file;

	file = file_open_root_mnt(hwmon_sysfs_mnt(test), path, O_PATH, 0);
	if (IS_ERR(file))
		return PTR_ERR(file);
	*mode = file_inode(file)->i_mode & 07777;
	fput(file);
	return 0;
}

/**
 * hwmon_sysfs_exists() - does a sysfs entry exist?
 * @test: the test
 * @path: path relative to the sysfs root
 *
 * Return: true if the lookup succeeds.
 */
bool hwmon_sysfs_exists(struct kunit *test, const char *path)
{
	umode_t mode;

	return hwmon_sysfs_mode_path(test, path, &mode) == 0;
}

struct hwmon_sysfs_list_ctx {
	struct dir_context ctx;
	struct hwmon_sysfs_entry *entries;
	int count;
	bool overflow;
};

static bool hwmon_sysfs_list_actor(struct dir_context *ctx, const char *name,
				   int namelen, loff_t offset, u64 ino,
				   unsigned int d_type)
{
	struct hwmon_sysfs_list_ctx *list =
		container_of(ctx, struct hwmon_sysfs_list_ctx, ctx);
	struct hwmon_sysfs_entry *entry;

	if ((namelen == 1 && name[0] == '.') ||
	    (namelen == 2 && name[0] == '.' && name[1] == '.'))
		return true;
	if (list->count >= HWMON_TEST_MAX_ENTRIES ||
	    namelen >= sizeof(entry->name)) {
		list->overflow = true;
		return false;
	}
	entry = &list->entries[list->count++];
	memcpy(entry->name, name, namelen);
	entry->name[namelen] = '\0';
	entry->type = d_type;
	return true;
}

/**
 * hwmon_sysfs_list() - list a sysfs directory
 * @test: the test
 * @path: path of the directory relative to the sysfs root
 * @entries: set to the entries (test managed memory), "." and ".." left out
 *
 * Fails the test if the directory has more entries than the helper handles.
 *
 * Return: the number of entries, or the negative error of the open.
 */
int hwmon_sysfs_list(struct kunit *test, const char *path,
		     struct hwmon_sysfs_entry **entries)
{
	struct hwmon_sysfs_list_ctx list = {
		.ctx.actor = hwmon_sysfs_list_actor,
	};
	char *entry_path;
	struct file *dir;
	int prev, i, err;

	list.entries = kunit_kcalloc(test, HWMON_TEST_MAX_ENTRIES,
				     sizeof(*list.entries), GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, list.entries);
	entry_path = kunit_kzalloc(test, HWMON_SYSFS_PATH_MAX, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, entry_path);

	dir = file_open_root_mnt(hwmon_sysfs_mnt(test), path,
				 O_RDONLY | O_DIRECTORY, 0);
	if (IS_ERR(dir))
		return PTR_ERR(dir);
	do {
		prev = list.count;
		err = iterate_dir(dir, &list.ctx);
	} while (!err && !list.overflow && list.count != prev);
	fput(dir);
	KUNIT_ASSERT_EQ(test, err, 0);
	KUNIT_ASSERT_FALSE_MSG(test, list.overflow, "%s: too many entries",
			       path);

	for (i = 0; i < list.count; i++) {
		if (list.entries[i].type != DT_REG)
			continue;
		snprintf(entry_path, HWMON_SYSFS_PATH_MAX, "%s/%s", path,
			 list.entries[i].name);
		KUNIT_ASSERT_EQ(test, hwmon_sysfs_mode_path(test, entry_path,
							    &list.entries[i].mode),
				0);
	}
	*entries = list.entries;
	return list.count;
}

/**
 * hwmon_sysfs_read() - read an attribute file of a hwmon device
 * @test: the test
 * @dev: the hwmon device
 * @attr: attribute file name
 * @buf: buffer, NUL terminated on success
 * @len: size of @buf
 *
 * Return: as hwmon_sysfs_read_path().
 */
int hwmon_sysfs_read(struct kunit *test, struct device *dev, const char *attr,
		     char *buf, size_t len)
{
	return hwmon_sysfs_read_path(test, hwmon_sysfs_dev_path(test, dev, attr),
				     buf, len);
}

/**
 * hwmon_sysfs_write() - write an attribute file of a hwmon device
 * @test: the test
 * @dev: the hwmon device
 * @attr: attribute file name
 * @str: string to write
 *
 * Return: as hwmon_sysfs_write_path().
 */
int hwmon_sysfs_write(struct kunit *test, struct device *dev,
		      const char *attr, const char *str)
{
	return hwmon_sysfs_write_path(test, hwmon_sysfs_dev_path(test, dev, attr),
				      str);
}

/**
 * hwmon_sysfs_mode() - permission bits of an attribute file
 * @test: the test
 * @dev: the hwmon device
 * @attr: attribute file name
 * @mode: set to the permission bits
 *
 * Return: as hwmon_sysfs_mode_path().
 */
int hwmon_sysfs_mode(struct kunit *test, struct device *dev, const char *attr,
		     umode_t *mode)
{
	return hwmon_sysfs_mode_path(test, hwmon_sysfs_dev_path(test, dev, attr),
				     mode);
}

/**
 * hwmon_sysfs_has() - does a hwmon device have an attribute file?
 * @test: the test
 * @dev: the hwmon device
 * @attr: attribute file name
 *
 * Return: true if the file exists.
 */
bool hwmon_sysfs_has(struct kunit *test, struct device *dev, const char *attr)
{
	return hwmon_sysfs_exists(test, hwmon_sysfs_dev_path(test, dev, attr));
}

/**
 * hwmon_sysfs_count_files() - number of sensor attribute files of a device
 * @test: the test
 * @dev: the hwmon device
 *
 * Return: the number of regular files in the device directory other than
 * "uevent", "name" and "label".
 */
int hwmon_sysfs_count_files(struct kunit *test, struct device *dev)
{
	struct hwmon_sysfs_entry *entries;
	int n, i, count = 0;

	n = hwmon_sysfs_list(test, hwmon_sysfs_dev_path(test, dev, NULL),
			     &entries);
	KUNIT_ASSERT_GE(test, n, 0);
	for (i = 0; i < n; i++)
		if (entries[i].type == DT_REG &&
		    strcmp(entries[i].name, "uevent") &&
		    strcmp(entries[i].name, "name") &&
		    strcmp(entries[i].name, "label"))
			count++;
	return count;
}

static void hwmon_uevent_release(void *data)
{
	sock_release(data);
}

/**
 * hwmon_uevent_listen() - open a socket that receives kernel uevents
 * @test: the test
 *
 * Fails the test if the socket cannot be created or bound.
 *
 * Return: a netlink socket subscribed to the kernel uevent group, released
 * when the test ends.
 */
struct socket *hwmon_uevent_listen(struct kunit *test)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,
	};
	struct socket *sock;

	KUNIT_ASSERT_EQ(test, sock_create_kern(&init_net, AF_NETLINK, SOCK_DGRAM,
					       NETLINK_KOBJECT_UEVENT, &sock),
			0);
	KUNIT_ASSERT_EQ(test, hwmon_test_defer(test, hwmon_uevent_release, sock),
			0);
	KUNIT_ASSERT_EQ(test, kernel_bind(sock, (struct sockaddr *)&addr,
					  sizeof(addr)), 0);
	return sock;
}

static bool hwmon_uevent_has(const char *msg, int len, const char *key)
{
	int i = 0;

	while (i < len) {
		if (!strcmp(msg + i, key))
			return true;
		i += strnlen(msg + i, len - i) + 1;
	}
	return false;
}

/**
 * hwmon_uevent_count() - count the queued uevents that carry some fields
 * @test: the test
 * @sock: socket from hwmon_uevent_listen()
 * @dev: if not NULL, only uevents of this device (DEVPATH) count
 * @keys: NULL terminated list of strings that must all be fields of the
 *	uevent ("ACTION=change", "NAME=temp1_input", ...)
 *
 * Consumes every uevent queued on @sock without waiting for more.
 *
 * Return: the number of uevents that matched.
 */
int hwmon_uevent_count(struct kunit *test, struct socket *sock,
		       struct device *dev, const char *const *keys)
{
	const size_t size = 8192;
	struct msghdr msg = { };
	char *buf, *devpath;
	struct kvec vec;
	int n, k, count = 0;
	bool all;

	buf = kunit_kzalloc(test, size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, buf);
	devpath = kunit_kzalloc(test, HWMON_SYSFS_PATH_MAX + 16, GFP_KERNEL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, devpath);
	if (dev)
		snprintf(devpath, HWMON_SYSFS_PATH_MAX + 16, "DEVPATH=/%s",
			 hwmon_sysfs_kobj_path(test, dev));
	for (;;) {
		vec.iov_base = buf;
		vec.iov_len = size - 1;
		n = kernel_recvmsg(sock, &msg, &vec, 1, size - 1, MSG_DONTWAIT);
		if (n == -EAGAIN)
			break;
		KUNIT_ASSERT_GE(test, n, 0);
		buf[n] = '\0';
		all = !dev || hwmon_uevent_has(buf, n, devpath);
		for (k = 0; keys[k]; k++)
			all = all && hwmon_uevent_has(buf, n, keys[k]);
		if (all)
			count++;
	}
	return count;
}

/**
 * hwmon_uevent_flush() - drop every uevent queued on a socket
 * @test: the test
 * @sock: socket from hwmon_uevent_listen()
 */
void hwmon_uevent_flush(struct kunit *test, struct socket *sock)
{
	static const char *const none[] = { NULL };

	hwmon_uevent_count(test, sock, NULL, none);
}
