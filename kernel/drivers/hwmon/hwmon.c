// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hwmon.c - hardware monitoring class and registration core
 *
 * A clean-room implementation of the hwmon core API declared in
 * include/linux/hwmon.h and described in
 * Documentation/hwmon/hwmon-kernel-api.rst, for the Linux 6.1 and 6.12
 * trees. It provides what the tree's header declares: attribute bits are
 * macros and are tested with #ifdef; the few differences the preprocessor
 * cannot see are described where they are handled.
 *
 * Design:
 *  - Every registered device is one allocation: struct hwmon_core_dev followed
 *    by the generated attributes, their pointer array, the group list, what
 *    each attribute stands for and all attribute names. The attributes
 *    therefore live exactly as long as the hwmon device, whatever the parent
 *    does.
 *  - Attribute names are built from two data tables: a per-type prefix
 *    ("temp", "in", ...) and a per-attribute suffix ("input", "max", ...),
 *    assembled without snprintf() (see hwmon_put_name()).
 *  - Thermal zones (HWMON_C_REGISTER_TZ, device tree only) are owned by the
 *    hwmon device and unregistered before it goes away.
 *  - The pec file of HWMON_C_PEC (I2C clients whose adapter can do PEC) is
 *    created on the parent device; its attribute is part of the hwmon
 *    device's allocation and its writes take the device's lock.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/export.h>
#include <linux/hwmon.h>
#include <linux/i2c.h>
#include <linux/idr.h>
#include <linux/kernel.h>
#include <linux/kstrtox.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/property.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>
#include <linux/vmalloc.h>
#include <linux/thermal.h>

#define CREATE_TRACE_POINTS
#include <trace/events/hwmon.h>

#define HWMON_DEV_PREFIX "hwmon"

/*
 * hwmon_energy64 (6.12) is an enum constant right after hwmon_energy, with
 * no macro to test: where the header has it, it leaves a gap of one before
 * hwmon_humidity, and HWMON_ENERGY64 is it; elsewhere HWMON_ENERGY64 is
 * hwmon_energy itself. Its files are named like energy's; its values are
 * 64 bits wide (the driver writes an s64 through the long pointer).
 */
#define HWMON_ENERGY64		(hwmon_humidity - 1)
#define HWMON_HAVE_ENERGY64	(hwmon_energy != HWMON_ENERGY64)

/*
 * This core is built for two trees, 6.1 and 6.12. The differences the
 * preprocessor cannot see, a declaration the 6.12 header dropped, an API
 * of the thermal core and a rule of the stock cores, are told apart by
 * HWMON_C_PEC, which of the two only the 6.12 header defines:
 *  - devm_hwmon_device_unregister() exists in 6.1 only;
 *  - a thermal zone's private data is tzd->devdata in 6.1 and behind
 *    thermal_zone_device_priv() in 6.12;
 *  - a configuration bit above the last attribute of its sensor type fails
 *    the registration with -EINVAL on stock 6.1, and is left out (no file)
 *    on stock 6.12.
 */
#ifdef HWMON_C_PEC
#define HWMON_HAVE_DEVM_UNREGISTER	0
#define HWMON_HAVE_TZ_PRIV		1
#define HWMON_REFUSE_UNKNOWN_ATTR	0
#else
#define HWMON_HAVE_DEVM_UNREGISTER	1
#define HWMON_HAVE_TZ_PRIV		0
#define HWMON_REFUSE_UNKNOWN_ATTR	1
#endif

/* The pec file needs HWMON_C_PEC and an I2C core this code can call. */
#if defined(HWMON_C_PEC) && IS_REACHABLE(CONFIG_I2C)
#define HWMON_HAVE_PEC 1
#else
#define HWMON_HAVE_PEC 0
#endif

/**
 * struct hwmon_attr_id - what a generated attribute stands for
 * @type: sensor type (enum hwmon_sensor_types)
 * @attr: attribute number within the type (e.g. hwmon_temp_input)
 * @channel: channel number as passed to the driver's callbacks (0-based)
 *
 * Kept in an array of their own, parallel to the device attributes: 4 bytes
 * per attribute, where a member of each attribute would take 8 (a device
 * attribute is 8-byte aligned).
 */
struct hwmon_attr_id {
	u8 type;
	u8 attr;
	u16 channel;
};

/**
 * struct hwmon_core_dev - a registered hardware monitoring device
 * @dev: the class device (hwmonN)
 * @name: value of the name attribute, or NULL (legacy registration)
 * @label: value of the label attribute (parent's "label" property), or NULL
 * @chip: chip description for devices registered with _with_info
 * @tzones: thermal zones registered for this device (struct hwmon_tzone)
 * @group: the group of generated attributes
 * @lock: serializes the chip's callbacks (see hwmon_lock())
 * @removed: set under @lock by unregistration; callbacks are no longer called
 * @pec_attr: the pec file on the parent I2C client (HWMON_C_PEC), created
 *	when @pec_client is set
 * @pec_client: the parent I2C client whose PEC flag the pec file controls
 * @id: the N of hwmonN
 * @ids: what each of @attrs stands for (same index)
 * @attrs: generated attributes; followed in the same allocation by the NULL
 *	terminated attribute pointer array, the NULL terminated group list,
 *	@ids and the NUL terminated strings (attribute names, name, label)
 */
struct hwmon_core_dev {
	struct device dev;
	const char *name;
	const char *label;
	const struct hwmon_chip_info *chip;
	struct list_head tzones;
	struct attribute_group group;
	struct mutex lock;	/* see hwmon_lock() */
	bool removed;
#if HWMON_HAVE_PEC
	struct device_attribute pec_attr;
	struct i2c_client *pec_client;
#endif
	int id;
	struct hwmon_attr_id *ids;
	struct device_attribute attrs[];
};

#define to_hwdev(d) container_of(d, struct hwmon_core_dev, dev)

/* What the generated attribute @da of @hwdev stands for. */
static const struct hwmon_attr_id *
hwmon_attr_id(const struct hwmon_core_dev *hwdev,
	      const struct device_attribute *da)
{
	return &hwdev->ids[da - hwdev->attrs];
}

/* Name tables: "<prefix><index>_<suffix>"; chip attributes are bare suffixes. */

static const char * const hwmon_chip_suffix[] = {
	[hwmon_chip_temp_reset_history] = "temp_reset_history",
	[hwmon_chip_in_reset_history] = "in_reset_history",
	[hwmon_chip_curr_reset_history] = "curr_reset_history",
	[hwmon_chip_power_reset_history] = "power_reset_history",
	[hwmon_chip_register_tz] = NULL,	/* no file */
	[hwmon_chip_update_interval] = "update_interval",
#if IS_ENABLED(CONFIG_HWMON_NEWER_API)
	[hwmon_chip_update_interval_us] = "update_interval_us",
#endif
	[hwmon_chip_alarms] = "alarms",
	[hwmon_chip_samples] = "samples",
	[hwmon_chip_curr_samples] = "curr_samples",
	[hwmon_chip_in_samples] = "in_samples",
	[hwmon_chip_power_samples] = "power_samples",
	[hwmon_chip_temp_samples] = "temp_samples",
#ifdef HWMON_C_BEEP_ENABLE
	[hwmon_chip_beep_enable] = "beep_enable",
#endif
#ifdef HWMON_C_PEC
	[hwmon_chip_pec] = NULL,	/* a file of the parent, see hwmon_pec_add() */
#endif
};

static const char * const hwmon_temp_suffix[] = {
	[hwmon_temp_enable] = "enable",
	[hwmon_temp_input] = "input",
	[hwmon_temp_type] = "type",
	[hwmon_temp_lcrit] = "lcrit",
	[hwmon_temp_lcrit_hyst] = "lcrit_hyst",
	[hwmon_temp_min] = "min",
	[hwmon_temp_min_hyst] = "min_hyst",
	[hwmon_temp_max] = "max",
	[hwmon_temp_max_hyst] = "max_hyst",
	[hwmon_temp_crit] = "crit",
	[hwmon_temp_crit_hyst] = "crit_hyst",
	[hwmon_temp_emergency] = "emergency",
	[hwmon_temp_emergency_hyst] = "emergency_hyst",
	[hwmon_temp_alarm] = "alarm",
	[hwmon_temp_lcrit_alarm] = "lcrit_alarm",
	[hwmon_temp_min_alarm] = "min_alarm",
	[hwmon_temp_max_alarm] = "max_alarm",
	[hwmon_temp_crit_alarm] = "crit_alarm",
	[hwmon_temp_emergency_alarm] = "emergency_alarm",
	[hwmon_temp_fault] = "fault",
	[hwmon_temp_offset] = "offset",
	[hwmon_temp_label] = "label",
	[hwmon_temp_lowest] = "lowest",
	[hwmon_temp_highest] = "highest",
	[hwmon_temp_reset_history] = "reset_history",
	[hwmon_temp_rated_min] = "rated_min",
	[hwmon_temp_rated_max] = "rated_max",
#ifdef HWMON_T_BEEP
	[hwmon_temp_beep] = "beep",
#endif
};

static const char * const hwmon_in_suffix[] = {
	[hwmon_in_enable] = "enable",
	[hwmon_in_input] = "input",
	[hwmon_in_min] = "min",
	[hwmon_in_max] = "max",
	[hwmon_in_lcrit] = "lcrit",
	[hwmon_in_crit] = "crit",
	[hwmon_in_average] = "average",
	[hwmon_in_lowest] = "lowest",
	[hwmon_in_highest] = "highest",
	[hwmon_in_reset_history] = "reset_history",
	[hwmon_in_label] = "label",
	[hwmon_in_alarm] = "alarm",
	[hwmon_in_min_alarm] = "min_alarm",
	[hwmon_in_max_alarm] = "max_alarm",
	[hwmon_in_lcrit_alarm] = "lcrit_alarm",
	[hwmon_in_crit_alarm] = "crit_alarm",
	[hwmon_in_rated_min] = "rated_min",
	[hwmon_in_rated_max] = "rated_max",
#ifdef HWMON_I_BEEP
	[hwmon_in_beep] = "beep",
#endif
#ifdef HWMON_I_FAULT
	[hwmon_in_fault] = "fault",
#endif
};

static const char * const hwmon_curr_suffix[] = {
	[hwmon_curr_enable] = "enable",
	[hwmon_curr_input] = "input",
	[hwmon_curr_min] = "min",
	[hwmon_curr_max] = "max",
	[hwmon_curr_lcrit] = "lcrit",
	[hwmon_curr_crit] = "crit",
	[hwmon_curr_average] = "average",
	[hwmon_curr_lowest] = "lowest",
	[hwmon_curr_highest] = "highest",
	[hwmon_curr_reset_history] = "reset_history",
	[hwmon_curr_label] = "label",
	[hwmon_curr_alarm] = "alarm",
	[hwmon_curr_min_alarm] = "min_alarm",
	[hwmon_curr_max_alarm] = "max_alarm",
	[hwmon_curr_lcrit_alarm] = "lcrit_alarm",
	[hwmon_curr_crit_alarm] = "crit_alarm",
	[hwmon_curr_rated_min] = "rated_min",
	[hwmon_curr_rated_max] = "rated_max",
#ifdef HWMON_C_BEEP
	[hwmon_curr_beep] = "beep",
#endif
};

static const char * const hwmon_power_suffix[] = {
	[hwmon_power_enable] = "enable",
	[hwmon_power_average] = "average",
	[hwmon_power_average_interval] = "average_interval",
	[hwmon_power_average_interval_max] = "average_interval_max",
	[hwmon_power_average_interval_min] = "average_interval_min",
	[hwmon_power_average_highest] = "average_highest",
	[hwmon_power_average_lowest] = "average_lowest",
	[hwmon_power_average_max] = "average_max",
	[hwmon_power_average_min] = "average_min",
	[hwmon_power_input] = "input",
	[hwmon_power_input_highest] = "input_highest",
	[hwmon_power_input_lowest] = "input_lowest",
	[hwmon_power_reset_history] = "reset_history",
	[hwmon_power_accuracy] = "accuracy",
	[hwmon_power_cap] = "cap",
	[hwmon_power_cap_hyst] = "cap_hyst",
	[hwmon_power_cap_max] = "cap_max",
	[hwmon_power_cap_min] = "cap_min",
	[hwmon_power_min] = "min",
	[hwmon_power_max] = "max",
	[hwmon_power_crit] = "crit",
	[hwmon_power_lcrit] = "lcrit",
	[hwmon_power_label] = "label",
	[hwmon_power_alarm] = "alarm",
	[hwmon_power_cap_alarm] = "cap_alarm",
	[hwmon_power_min_alarm] = "min_alarm",
	[hwmon_power_max_alarm] = "max_alarm",
	[hwmon_power_lcrit_alarm] = "lcrit_alarm",
	[hwmon_power_crit_alarm] = "crit_alarm",
	[hwmon_power_rated_min] = "rated_min",
	[hwmon_power_rated_max] = "rated_max",
};

static const char * const hwmon_energy_suffix[] = {
	[hwmon_energy_enable] = "enable",
	[hwmon_energy_input] = "input",
	[hwmon_energy_label] = "label",
};

static const char * const hwmon_humidity_suffix[] = {
	[hwmon_humidity_enable] = "enable",
	[hwmon_humidity_input] = "input",
	[hwmon_humidity_label] = "label",
	[hwmon_humidity_min] = "min",
	[hwmon_humidity_min_hyst] = "min_hyst",
	[hwmon_humidity_max] = "max",
	[hwmon_humidity_max_hyst] = "max_hyst",
	[hwmon_humidity_alarm] = "alarm",
	[hwmon_humidity_fault] = "fault",
	[hwmon_humidity_rated_min] = "rated_min",
	[hwmon_humidity_rated_max] = "rated_max",
#ifdef HWMON_H_MIN_ALARM
	[hwmon_humidity_min_alarm] = "min_alarm",
#endif
#ifdef HWMON_H_MAX_ALARM
	[hwmon_humidity_max_alarm] = "max_alarm",
#endif
};

static const char * const hwmon_fan_suffix[] = {
	[hwmon_fan_enable] = "enable",
	[hwmon_fan_input] = "input",
	[hwmon_fan_label] = "label",
	[hwmon_fan_min] = "min",
	[hwmon_fan_max] = "max",
	[hwmon_fan_div] = "div",
	[hwmon_fan_pulses] = "pulses",
	[hwmon_fan_target] = "target",
	[hwmon_fan_alarm] = "alarm",
	[hwmon_fan_min_alarm] = "min_alarm",
	[hwmon_fan_max_alarm] = "max_alarm",
	[hwmon_fan_fault] = "fault",
#ifdef HWMON_F_BEEP
	[hwmon_fan_beep] = "beep",
#endif
};

static const char * const hwmon_pwm_suffix[] = {
	[hwmon_pwm_input] = "",		/* the duty cycle is plain pwmN */
	[hwmon_pwm_enable] = "enable",
	[hwmon_pwm_mode] = "mode",
	[hwmon_pwm_freq] = "freq",
	[hwmon_pwm_auto_channels_temp] = "auto_channels_temp",
};

static const char * const hwmon_intrusion_suffix[] = {
	[hwmon_intrusion_alarm] = "alarm",
	[hwmon_intrusion_beep] = "beep",
};

/**
 * struct hwmon_type_desc - naming rules of one sensor type
 * @prefix: file name prefix, NULL for chip attributes (no prefix, no index)
 * @base: index of the first channel in file names and in the events of the
 *	  hwmon tracepoints (chip attribute files have no index; their events
 *	  give 1, as the stock cores do)
 * @label: attribute number of the type's string (label) attribute, or -1
 * @nsuffix: number of entries in @suffix
 * @suffix: file name suffix per attribute number; NULL means no file
 */
struct hwmon_type_desc {
	const char *prefix;
	u8 base;
	s8 label;
	u8 nsuffix;
	const char * const *suffix;
};

static const struct hwmon_type_desc hwmon_types[hwmon_max] = {
	[hwmon_chip] = {
		.prefix = NULL,
		.base = 1,
		.label = -1,
		.nsuffix = ARRAY_SIZE(hwmon_chip_suffix),
		.suffix = hwmon_chip_suffix,
	},
	[hwmon_temp] = {
		.prefix = "temp",
		.base = 1,
		.label = hwmon_temp_label,
		.nsuffix = ARRAY_SIZE(hwmon_temp_suffix),
		.suffix = hwmon_temp_suffix,
	},
	[hwmon_in] = {
		.prefix = "in",
		.base = 0,
		.label = hwmon_in_label,
		.nsuffix = ARRAY_SIZE(hwmon_in_suffix),
		.suffix = hwmon_in_suffix,
	},
	[hwmon_curr] = {
		.prefix = "curr",
		.base = 1,
		.label = hwmon_curr_label,
		.nsuffix = ARRAY_SIZE(hwmon_curr_suffix),
		.suffix = hwmon_curr_suffix,
	},
	[hwmon_power] = {
		.prefix = "power",
		.base = 1,
		.label = hwmon_power_label,
		.nsuffix = ARRAY_SIZE(hwmon_power_suffix),
		.suffix = hwmon_power_suffix,
	},
	/* energy, and energy64 where the header has it */
	[hwmon_energy ... HWMON_ENERGY64] = {
		.prefix = "energy",
		.base = 1,
		.label = hwmon_energy_label,
		.nsuffix = ARRAY_SIZE(hwmon_energy_suffix),
		.suffix = hwmon_energy_suffix,
	},
	[hwmon_humidity] = {
		.prefix = "humidity",
		.base = 1,
		.label = hwmon_humidity_label,
		.nsuffix = ARRAY_SIZE(hwmon_humidity_suffix),
		.suffix = hwmon_humidity_suffix,
	},
	[hwmon_fan] = {
		.prefix = "fan",
		.base = 1,
		.label = hwmon_fan_label,
		.nsuffix = ARRAY_SIZE(hwmon_fan_suffix),
		.suffix = hwmon_fan_suffix,
	},
	[hwmon_pwm] = {
		.prefix = "pwm",
		.base = 1,
		.label = -1,
		.nsuffix = ARRAY_SIZE(hwmon_pwm_suffix),
		.suffix = hwmon_pwm_suffix,
	},
	[hwmon_intrusion] = {
		.prefix = "intrusion",
		.base = 0,
		.label = -1,
		.nsuffix = ARRAY_SIZE(hwmon_intrusion_suffix),
		.suffix = hwmon_intrusion_suffix,
	},
};

static DEFINE_IDA(hwmon_ida);

/* Suffix of (type, attr), or NULL if the pair has no sysfs file. */
static const char *hwmon_suffix(enum hwmon_sensor_types type, u32 attr)
{
	if ((unsigned int)type >= hwmon_max || attr >= hwmon_types[type].nsuffix)
		return NULL;
	return hwmon_types[type].suffix[attr];
}

static bool hwmon_is_string(enum hwmon_sensor_types type, u32 attr)
{
	return hwmon_types[type].label >= 0 && attr == hwmon_types[type].label;
}

/* Is @type read as 64 bits (an s64 stored through the long pointer)? */
static bool hwmon_is_wide(enum hwmon_sensor_types type)
{
	return HWMON_HAVE_ENERGY64 && type == HWMON_ENERGY64;
}

/*
 * The mode the chip gives (type, attr, channel): its static visibility if
 * it has one (CONFIG_HWMON_NEWER_API), else what is_visible() returns.
 */
static umode_t hwmon_chip_mode(const struct hwmon_ops *ops,
			       const void *drvdata,
			       enum hwmon_sensor_types type, u32 attr,
			       int channel)
{
#if IS_ENABLED(CONFIG_HWMON_NEWER_API)
	if (ops->visible)
		return ops->visible;
#endif
	return ops->is_visible(drvdata, type, attr, channel);
}

/* Does the chip say which attributes are visible at all? */
static bool hwmon_chip_has_visibility(const struct hwmon_ops *ops)
{
#if IS_ENABLED(CONFIG_HWMON_NEWER_API)
	if (ops->visible)
		return true;
#endif
	return ops->is_visible;
}

/*
 * Length of the file name of (type, attr, channel), without formatting it.
 * The caller has checked that hwmon_suffix() is not NULL.
 */
static unsigned int hwmon_name_len(enum hwmon_sensor_types type, u32 attr,
				   int channel)
{
	const struct hwmon_type_desc *t = &hwmon_types[type];
	unsigned int len = strlen(t->suffix[attr]);
	unsigned int index;

	if (!t->prefix)
		return len;
	if (len)
		len++;			/* '_' */
	len += strlen(t->prefix);
	index = channel + t->base;
	do {
		len++;
		index /= 10;
	} while (index);
	return len;
}

/*
 * Longest file name: the longest prefix ("intrusion"), the digits of any
 * unsigned int, '_' and the longest suffix ("average_interval_max"), and
 * the NUL.
 */
#define HWMON_NAME_MAX		48

/*
 * Write the file name of (type, attr, channel) to @buf, which has room for
 * hwmon_name_len() + 1 bytes (HWMON_NAME_MAX always do), and return its
 * length. The caller has checked that hwmon_suffix() is not NULL.
 *
 * The name is assembled by hand: a registration writes one per attribute,
 * and snprintf()'s format parsing was the largest part of the core's own
 * work per attribute.
 */
static unsigned int hwmon_put_name(char *buf, enum hwmon_sensor_types type,
				   u32 attr, int channel)
{
	const struct hwmon_type_desc *t = &hwmon_types[type];
	const char *suffix = t->suffix[attr];
	size_t len = strlen(suffix);
	char *p = buf;

	if (t->prefix) {
		unsigned int index = channel + t->base;
		size_t plen = strlen(t->prefix);
		char digits[10];
		int n = 0;

		memcpy(p, t->prefix, plen);
		p += plen;
		do {
			digits[n++] = '0' + index % 10;
			index /= 10;
		} while (index);
		while (n)
			*p++ = digits[--n];
		if (len)
			*p++ = '_';
	}
	memcpy(p, suffix, len + 1);
	return p + len - buf;
}

/* sysfs callbacks of generated attributes */

static ssize_t hwmon_attr_show(struct device *dev,
			       struct device_attribute *da, char *buf)
{
	struct hwmon_core_dev *hwdev = to_hwdev(dev);
	const struct hwmon_attr_id *ha = hwmon_attr_id(hwdev, da);
	const struct hwmon_ops *ops = hwdev->chip->ops;
	long lval;
	s64 val;
	int ret;

	mutex_lock(&hwdev->lock);
	if (hwdev->removed) {
		ret = -ENODEV;
	} else if (hwmon_is_wide(ha->type)) {
		ret = ops->read(dev, ha->type, ha->attr, ha->channel,
				(long *)&val);
	} else {
		ret = ops->read(dev, ha->type, ha->attr, ha->channel, &lval);
		if (ret >= 0)
			val = lval;
	}
	mutex_unlock(&hwdev->lock);
	if (ret < 0)
		return ret;

	trace_hwmon_attr_show(ha->channel + hwmon_types[ha->type].base,
			      da->attr.name, val);
	return sysfs_emit(buf, "%lld\n", val);
}

static ssize_t hwmon_attr_show_string(struct device *dev,
				      struct device_attribute *da, char *buf)
{
	struct hwmon_core_dev *hwdev = to_hwdev(dev);
	const struct hwmon_attr_id *ha = hwmon_attr_id(hwdev, da);
	const char *s;
	int ret;

	/* The string may live in driver data the lock protects: copy it. */
	mutex_lock(&hwdev->lock);
	if (hwdev->removed)
		ret = -ENODEV;
	else
		ret = hwdev->chip->ops->read_string(dev, ha->type, ha->attr,
						    ha->channel, &s);
	if (ret >= 0) {
		trace_hwmon_attr_show_string(ha->channel +
					     hwmon_types[ha->type].base,
					     da->attr.name, s);
		ret = sysfs_emit(buf, "%s\n", s);
	}
	mutex_unlock(&hwdev->lock);
	return ret;
}

static ssize_t hwmon_attr_store(struct device *dev,
				struct device_attribute *da, const char *buf,
				size_t count)
{
	struct hwmon_core_dev *hwdev = to_hwdev(dev);
	const struct hwmon_attr_id *ha = hwmon_attr_id(hwdev, da);
	long val;
	int ret;

	ret = kstrtol(buf, 10, &val);
	if (ret < 0)
		return ret;

	mutex_lock(&hwdev->lock);
	if (hwdev->removed)
		ret = -ENODEV;
	else
		ret = hwdev->chip->ops->write(dev, ha->type, ha->attr,
					      ha->channel, val);
	mutex_unlock(&hwdev->lock);
	if (ret < 0)
		return ret;

	trace_hwmon_attr_store(ha->channel + hwmon_types[ha->type].base,
			       da->attr.name, val);
	return count;
}

/* Attributes every hwmon class device may have: name and label. */

static ssize_t name_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%s\n", to_hwdev(dev)->name);
}
static DEVICE_ATTR_RO(name);

static ssize_t label_show(struct device *dev, struct device_attribute *attr,
			  char *buf)
{
	return sysfs_emit(buf, "%s\n", to_hwdev(dev)->label);
}
static DEVICE_ATTR_RO(label);

static struct attribute *hwmon_class_attrs[] = {
	&dev_attr_name.attr,
	&dev_attr_label.attr,
	NULL
};

static umode_t hwmon_class_attr_visible(struct kobject *kobj,
					struct attribute *attr, int n)
{
	struct hwmon_core_dev *hwdev = to_hwdev(kobj_to_dev(kobj));

	if (attr == &dev_attr_name.attr && !hwdev->name)
		return 0;
	if (attr == &dev_attr_label.attr && !hwdev->label)
		return 0;
	return attr->mode;
}

static const struct attribute_group hwmon_class_group = {
	.attrs = hwmon_class_attrs,
	.is_visible = hwmon_class_attr_visible,
};

static const struct attribute_group *hwmon_class_groups[] = {
	&hwmon_class_group,
	NULL
};

static void hwmon_class_release(struct device *dev)
{
	struct hwmon_core_dev *hwdev = to_hwdev(dev);

	mutex_destroy(&hwdev->lock);
	kvfree(hwdev);
}

static struct class hwmon_class = {
	.name = "hwmon",
	.dev_groups = hwmon_class_groups,
	.dev_release = hwmon_class_release,
};

/* The pec file of HWMON_C_PEC (I2C clients only) */

#if HWMON_HAVE_PEC

#define to_pec_hwdev(d) container_of(d, struct hwmon_core_dev, pec_attr)

static ssize_t hwmon_pec_show(struct device *dev, struct device_attribute *da,
			      char *buf)
{
	struct i2c_client *client = to_pec_hwdev(da)->pec_client;

	return sysfs_emit(buf, "%d\n", !!(client->flags & I2C_CLIENT_PEC));
}

/*
 * Accepts what kstrtobool() accepts. The chip is told first (write() of
 * hwmon_chip_pec, if the chip has a write callback); -EOPNOTSUPP means the
 * chip needs no step of its own (as for chips where I2C_CLIENT_PEC alone
 * turns PEC on). The client's flag changes only if the chip accepted, so
 * the two never disagree.
 */
static ssize_t hwmon_pec_store(struct device *dev, struct device_attribute *da,
			       const char *buf, size_t count)
{
	struct hwmon_core_dev *hwdev = to_pec_hwdev(da);
	const struct hwmon_ops *ops = hwdev->chip->ops;
	struct i2c_client *client = hwdev->pec_client;
	bool on;
	int ret;

	ret = kstrtobool(buf, &on);
	if (ret < 0)
		return ret;

	mutex_lock(&hwdev->lock);
	if (hwdev->removed)
		ret = -ENODEV;
	else if (ops->write)
		ret = ops->write(&hwdev->dev, hwmon_chip, hwmon_chip_pec, 0,
				 on);
	if (ret == -EOPNOTSUPP)
		ret = 0;
	if (!ret) {
		if (on)
			client->flags |= I2C_CLIENT_PEC;
		else
			client->flags &= ~I2C_CLIENT_PEC;
	}
	mutex_unlock(&hwdev->lock);
	return ret < 0 ? ret : count;
}

/* Does @chip ask for the pec file, and can its parent @dev have one? */
static struct i2c_client *hwmon_pec_client(struct device *dev,
					   const struct hwmon_chip_info *chip)
{
	const struct hwmon_channel_info * const *info = chip->info;
	struct i2c_client *client;
	int i;

	for (i = 0; info[i]; i++)
		if (info[i]->type == hwmon_chip &&
		    (info[i]->config[0] & HWMON_C_PEC))
			break;
	if (!info[i])
		return NULL;
	client = i2c_verify_client(dev);
	if (!client || !i2c_check_functionality(client->adapter,
						I2C_FUNC_SMBUS_PEC))
		return NULL;
	return client;
}

static int hwmon_pec_add(struct hwmon_core_dev *hwdev)
{
	struct device_attribute *da = &hwdev->pec_attr;
	int err;

	hwdev->pec_client = hwmon_pec_client(hwdev->dev.parent, hwdev->chip);
	if (!hwdev->pec_client)
		return 0;
	sysfs_attr_init(&da->attr);
	da->attr.name = "pec";
	da->attr.mode = 0644;
	da->show = hwmon_pec_show;
	da->store = hwmon_pec_store;
	err = device_create_file(hwdev->dev.parent, da);
	if (err)
		hwdev->pec_client = NULL;
	return err;
}

static void hwmon_pec_remove(struct hwmon_core_dev *hwdev)
{
	if (hwdev->pec_client)
		device_remove_file(hwdev->dev.parent, &hwdev->pec_attr);
}

#else

static int hwmon_pec_add(struct hwmon_core_dev *hwdev)
{
	return 0;
}

static void hwmon_pec_remove(struct hwmon_core_dev *hwdev)
{
}

#endif /* HWMON_HAVE_PEC */

/* Thermal zones for HWMON_C_REGISTER_TZ (device tree systems only) */

#if IS_ENABLED(CONFIG_THERMAL_OF)

/**
 * struct hwmon_tzone - a thermal zone fed by one temperature channel
 * @node: entry in hwmon_device.tzones
 * @hwdev: the hwmon device whose temp<channel + 1>_input feeds the zone
 * @channel: temperature channel (0-based)
 * @sensor: the device whose of_node is the zone's sensor; the zone is
 *	registered with the devm API on it (the only one 6.12 has) and
 *	unregistered explicitly, with the hwmon device
 * @tzd: the thermal zone
 */
struct hwmon_tzone {
	struct list_head node;
	struct hwmon_core_dev *hwdev;
	int channel;
	struct device *sensor;
	struct thermal_zone_device *tzd;
};

static bool hwmon_attr_visible(struct hwmon_core_dev *hwdev, u32 attr,
			       int channel, umode_t mask)
{
	const struct hwmon_ops *ops = hwdev->chip->ops;

	return hwmon_chip_mode(ops, dev_get_drvdata(&hwdev->dev), hwmon_temp,
			       attr, channel) & mask;
}

/* The zone's private data (see HWMON_HAVE_TZ_PRIV). */
static struct hwmon_tzone *hwmon_tz_of(struct thermal_zone_device *tzd)
{
#if HWMON_HAVE_TZ_PRIV
	return thermal_zone_device_priv(tzd);
#else
	return tzd->devdata;
#endif
}

static int hwmon_tz_get_temp(struct thermal_zone_device *tzd, int *temp)
{
	struct hwmon_tzone *tz = hwmon_tz_of(tzd);
	struct hwmon_core_dev *hwdev = tz->hwdev;
	long val;
	int ret;

	mutex_lock(&hwdev->lock);
	if (hwdev->removed)
		ret = -ENODEV;
	else
		ret = hwdev->chip->ops->read(&hwdev->dev, hwmon_temp,
					     hwmon_temp_input, tz->channel,
					     &val);
	mutex_unlock(&hwdev->lock);
	if (ret < 0)
		return ret;
	*temp = clamp_val(val, INT_MIN, INT_MAX);
	return 0;
}

static int hwmon_tz_write_trips(struct hwmon_tzone *tz, int low, int high)
{
	struct hwmon_core_dev *hwdev = tz->hwdev;
	const struct hwmon_ops *ops = hwdev->chip->ops;
	int ret;

	/* -INT_MAX / INT_MAX mean "no trip point on this side" */
	if (low > -INT_MAX &&
	    hwmon_attr_visible(hwdev, hwmon_temp_min, tz->channel, 0222)) {
		ret = ops->write(&hwdev->dev, hwmon_temp, hwmon_temp_min,
				 tz->channel, low);
		if (ret < 0)
			return ret;
	}
	if (high < INT_MAX &&
	    hwmon_attr_visible(hwdev, hwmon_temp_max, tz->channel, 0222)) {
		ret = ops->write(&hwdev->dev, hwmon_temp, hwmon_temp_max,
				 tz->channel, high);
		if (ret < 0)
			return ret;
	}
	return 0;
}

static int hwmon_tz_set_trips(struct thermal_zone_device *tzd, int low,
			      int high)
{
	struct hwmon_tzone *tz = hwmon_tz_of(tzd);
	struct hwmon_core_dev *hwdev = tz->hwdev;
	int ret;

	if (!hwdev->chip->ops->write)
		return 0;

	mutex_lock(&hwdev->lock);
	ret = hwdev->removed ? -ENODEV : hwmon_tz_write_trips(tz, low, high);
	mutex_unlock(&hwdev->lock);
	return ret;
}

static const struct thermal_zone_device_ops hwmon_tz_ops = {
	.get_temp = hwmon_tz_get_temp,
	.set_trips = hwmon_tz_set_trips,
};

static void hwmon_thermal_remove(struct hwmon_core_dev *hwdev)
{
	struct hwmon_tzone *tz, *next;

	list_for_each_entry_safe(tz, next, &hwdev->tzones, node) {
		devm_thermal_of_zone_unregister(tz->sensor, tz->tzd);
		list_del(&tz->node);
		kfree(tz);
	}
}

/*
 * Register one thermal zone per readable temperature input. The sensor node
 * is the of_node of the parent or its nearest ancestor that has one. A
 * channel without a zone in the device tree (-ENODEV) is not an error.
 */
static int hwmon_thermal_add(struct hwmon_core_dev *hwdev)
{
	const struct hwmon_channel_info * const *info = hwdev->chip->info;
	struct device *parent;
	struct hwmon_tzone *tz;
	int i, ch;

	for (parent = hwdev->dev.parent; parent && !parent->of_node;
	     parent = parent->parent)
		;
	if (!parent || !hwdev->chip->ops->read)
		return 0;

	for (i = 0; info[i]; i++) {
		if (info[i]->type != hwmon_temp)
			continue;
		for (ch = 0; info[i]->config[ch]; ch++) {
			if (!(info[i]->config[ch] & HWMON_T_INPUT) ||
			    !hwmon_attr_visible(hwdev, hwmon_temp_input, ch,
						0444))
				continue;
			tz = kzalloc(sizeof(*tz), GFP_KERNEL);
			if (!tz)
				goto fail_nomem;
			tz->hwdev = hwdev;
			tz->channel = ch;
			tz->sensor = parent;
			tz->tzd = devm_thermal_of_zone_register(parent, ch, tz,
								&hwmon_tz_ops);
			if (IS_ERR(tz->tzd)) {
				int err = PTR_ERR(tz->tzd);

				kfree(tz);
				if (err == -ENODEV)
					continue;
				hwmon_thermal_remove(hwdev);
				return err;
			}
			list_add_tail(&tz->node, &hwdev->tzones);
		}
	}
	return 0;

fail_nomem:
	hwmon_thermal_remove(hwdev);
	return -ENOMEM;
}

static void hwmon_thermal_notify(struct hwmon_core_dev *hwdev, int channel)
{
	struct hwmon_tzone *tz;

	list_for_each_entry(tz, &hwdev->tzones, node)
		if (tz->channel == channel)
			thermal_zone_device_update(tz->tzd,
						   THERMAL_EVENT_UNSPECIFIED);
}

#else

static int hwmon_thermal_add(struct hwmon_core_dev *hwdev)
{
	return 0;
}

static void hwmon_thermal_remove(struct hwmon_core_dev *hwdev)
{
}

static void hwmon_thermal_notify(struct hwmon_core_dev *hwdev, int channel)
{
}

#endif /* CONFIG_THERMAL_OF */

static bool hwmon_wants_tz(const struct hwmon_chip_info *chip)
{
	const struct hwmon_channel_info * const *info = chip->info;
	int i;

	for (i = 0; info[i]; i++)
		if (info[i]->type == hwmon_chip &&
		    (info[i]->config[0] & HWMON_C_REGISTER_TZ))
			return true;
	return false;
}

/* Building the attributes of a chip */

/**
 * struct hwmon_layout - sizes of a device's single allocation
 * @nattrs: number of visible attributes
 * @ngroups: number of extra groups
 * @strings: bytes of attribute names, name and label (with NULs)
 * @modes: mode of every (type, attr, channel) in walk order, 0 = no file
 */
struct hwmon_layout {
	unsigned int nattrs;
	unsigned int ngroups;
	size_t strings;
	umode_t *modes;
};

/* Number of (type, attr, channel) triples that can have a file. */
static unsigned int hwmon_count_candidates(const struct hwmon_chip_info *chip)
{
	const struct hwmon_channel_info * const *info = chip->info;
	unsigned int n = 0;
	int i, ch;

	for (i = 0; info[i]; i++)
		for (ch = 0; info[i]->config[ch]; ch++)
			n += hweight32(info[i]->config[ch]);
	return n;
}

/*
 * First pass over the chip description: ask is_visible() once per
 * candidate attribute, check that every visible attribute has the
 * callbacks its mode needs, and size the names.
 */
static int hwmon_measure(struct device *dev, void *drvdata,
			 const struct hwmon_chip_info *chip,
			 struct hwmon_layout *lay)
{
	const struct hwmon_channel_info * const *info = chip->info;
	const struct hwmon_ops *ops = chip->ops;
	unsigned int n = 0;
	int i, ch;

	for (i = 0; info[i]; i++) {
		enum hwmon_sensor_types type = info[i]->type;

		if ((unsigned int)type >= hwmon_max) {
			dev_err(dev, "hwmon: invalid sensor type %d\n", type);
			return -EINVAL;
		}
		for (ch = 0; info[i]->config[ch]; ch++) {
			u32 cfg = info[i]->config[ch];

			if (ch > U16_MAX)
				return -EINVAL;
			for (; cfg; cfg &= cfg - 1) {
				unsigned int attr = __ffs(cfg);
				umode_t mode = 0;
				bool rd_ok;

				/* A bit the type does not define. */
				if (HWMON_REFUSE_UNKNOWN_ATTR &&
				    attr >= hwmon_types[type].nsuffix) {
					dev_err(dev,
						"hwmon: invalid attribute %u of sensor type %d\n",
						attr, type);
					return -EINVAL;
				}
				if (hwmon_suffix(type, attr))
					mode = hwmon_chip_mode(ops, drvdata,
							       type, attr, ch);
				lay->modes[n++] = mode;
				if (!mode)
					continue;

				rd_ok = hwmon_is_string(type, attr) ?
					!!ops->read_string : !!ops->read;
				if (((mode & 0444) && !rd_ok) ||
				    ((mode & 0222) && !ops->write))
					return -EINVAL;

				lay->nattrs++;
				lay->strings += hwmon_name_len(type, attr, ch) + 1;
			}
		}
	}
	return 0;
}

/* Copy a string into the strings area and advance the cursor. */
static const char *hwmon_put_string(char **cursor, const char *s)
{
	char *dst = *cursor;
	size_t len = strlen(s) + 1;

	memcpy(dst, s, len);
	*cursor += len;
	return dst;
}

/*
 * Second pass: fill the attributes of a device allocated for @lay. The walk
 * order is the one of hwmon_measure(), so lay->modes lines up.
 */
static void hwmon_fill_attrs(struct hwmon_core_dev *hwdev,
			     const struct hwmon_layout *lay,
			     struct attribute **ptrs, char **strings)
{
	const struct hwmon_channel_info * const *info = hwdev->chip->info;
	const struct hwmon_ops *ops = hwdev->chip->ops;
	unsigned int n = 0, k = 0;
	int i, ch;

	for (i = 0; info[i]; i++) {
		enum hwmon_sensor_types type = info[i]->type;

		for (ch = 0; info[i]->config[ch]; ch++) {
			u32 cfg = info[i]->config[ch];

			for (; cfg; cfg &= cfg - 1) {
				unsigned int attr = __ffs(cfg);
				umode_t mode = lay->modes[n++];
				struct hwmon_attr_id *ha;
				struct device_attribute *da;
				int len;

				if (!mode)
					continue;
				ha = &hwdev->ids[k];
				da = &hwdev->attrs[k];
				ha->type = type;
				ha->attr = attr;
				ha->channel = ch;
				len = hwmon_put_name(*strings, type, attr, ch);
				sysfs_attr_init(&da->attr);
				da->attr.name = *strings;
				da->attr.mode = mode;
				*strings += len + 1;
				if (mode & 0444)
					da->show = hwmon_is_string(type, attr) ?
						   hwmon_attr_show_string :
						   hwmon_attr_show;
				if ((mode & 0222) && ops->write)
					da->store = hwmon_attr_store;
				ptrs[k++] = &da->attr;
			}
		}
	}
	ptrs[k] = NULL;
}

static bool hwmon_name_is_valid(const char *name)
{
	return *name && !strpbrk(name, "-* \t\n");
}

/*
 * The "label" property of @dev, if it has one. A property that is present
 * but cannot be read fails the registration with the property API's error,
 * or -ENOMEM when it reads as no string at all (a non-string software node
 * property), as the stock core does.
 */
static int hwmon_read_label(struct device *dev, const char **label)
{
	int err;

	*label = NULL;
	if (!dev || !device_property_present(dev, "label"))
		return 0;
	err = device_property_read_string(dev, "label", label);
	if (err)
		return err;
	return *label ? 0 : -ENOMEM;
}

/*
 * Size the device: the strings of @name and @label and, for a chip, the
 * mode of every candidate attribute (lay->modes, which the caller frees),
 * the attributes with a file and the extra groups.
 */
static int hwmon_plan(struct device *dev, void *drvdata,
		      const struct hwmon_chip_info *chip,
		      const struct attribute_group **groups,
		      const char *name, const char *label,
		      struct hwmon_layout *lay)
{
	unsigned int ncand, i;

	if (name)
		lay->strings += strlen(name) + 1;
	if (label)
		lay->strings += strlen(label) + 1;
	if (!chip)
		return 0;

	/* A chip must describe at least one attribute. */
	ncand = hwmon_count_candidates(chip);
	if (!ncand)
		return -EINVAL;
	lay->modes = kcalloc(ncand, sizeof(*lay->modes), GFP_KERNEL);
	if (!lay->modes)
		return -ENOMEM;
	for (i = 0; groups && groups[i]; i++)
		lay->ngroups++;
	return hwmon_measure(dev, drvdata, chip, lay);
}

/*
 * One zeroed allocation for the whole device: the device, nattrs
 * attributes, nattrs + 1 attribute pointers, 1 + ngroups + 1 group pointers
 * and nattrs attribute ids (chip devices only), strings.
 */
static struct hwmon_core_dev *hwmon_alloc(const struct hwmon_layout *lay,
					  bool chip)
{
	struct hwmon_core_dev *hwdev;
	size_t size;

	size = struct_size(hwdev, attrs, lay->nattrs);
	if (chip) {
		size = size_add(size, array_size(lay->nattrs + 1,
						 sizeof(struct attribute *)));
		size = size_add(size, array_size(lay->ngroups + 2,
						 sizeof(struct attribute_group *)));
		size = size_add(size, array_size(lay->nattrs,
						 sizeof(*hwdev->ids)));
	}
	size = size_add(size, lay->strings);

	/*
	 * kmalloc() rounds blocks above a page up to a power of two; for large
	 * chips that would waste up to half the block, so use whole pages.
	 */
	if (size > PAGE_SIZE)
		return vzalloc(size);
	return kzalloc(size, GFP_KERNEL);
}

/* The name and the label, at the start of the strings area. */
static void hwmon_put_name_label(struct hwmon_core_dev *hwdev, char **strings,
				 const char *name, const char *label)
{
	if (name)
		hwdev->name = hwmon_put_string(strings, name);
	if (label)
		hwdev->label = hwmon_put_string(strings, label);
}

/*
 * Carve the allocation of hwmon_alloc() into its parts and fill them: the
 * name, the label and, for a chip, the attributes and the group list (its
 * own group first, then @groups). Returns the groups the device gets.
 */
static const struct attribute_group **
hwmon_carve(struct hwmon_core_dev *hwdev, const struct hwmon_layout *lay,
	    const char *name, const char *label,
	    const struct attribute_group **groups)
{
	const struct attribute_group **grp_list;
	struct attribute **ptrs;
	unsigned int i;
	char *strings;

	if (!hwdev->chip) {
		strings = (char *)&hwdev->attrs[0];
		hwmon_put_name_label(hwdev, &strings, name, label);
		return groups;
	}

	ptrs = (struct attribute **)&hwdev->attrs[lay->nattrs];
	grp_list = (const struct attribute_group **)&ptrs[lay->nattrs + 1];
	hwdev->ids = (struct hwmon_attr_id *)&grp_list[lay->ngroups + 2];
	strings = (char *)&hwdev->ids[lay->nattrs];
	hwmon_put_name_label(hwdev, &strings, name, label);

	hwmon_fill_attrs(hwdev, lay, ptrs, &strings);
	hwdev->group.attrs = ptrs;
	grp_list[0] = &hwdev->group;
	for (i = 0; i < lay->ngroups; i++)
		grp_list[i + 1] = groups[i];
	grp_list[lay->ngroups + 1] = NULL;
	return grp_list;
}

/*
 * Number the device and add it to the driver core. On failure the device
 * is released (and hwdev with it).
 */
static int hwmon_add_device(struct hwmon_core_dev *hwdev, struct device *dev,
			    void *drvdata,
			    const struct attribute_group **groups)
{
	int err, id;

	/* From here on the device owns hwdev: release it with put_device(). */
	device_initialize(&hwdev->dev);
	hwdev->dev.class = &hwmon_class;
	hwdev->dev.parent = dev;
	hwdev->dev.groups = groups;
	hwdev->dev.of_node = dev ? dev->of_node : NULL;
	dev_set_drvdata(&hwdev->dev, drvdata);

	id = ida_alloc(&hwmon_ida, GFP_KERNEL);
	if (id < 0) {
		put_device(&hwdev->dev);
		return id;
	}
	hwdev->id = id;

	err = dev_set_name(&hwdev->dev, HWMON_DEV_PREFIX "%d", id);
	if (!err)
		err = device_add(&hwdev->dev);
	if (err) {
		put_device(&hwdev->dev);
		ida_free(&hwmon_ida, id);
	}
	return err;
}

/*
 * What a chip device has beyond its files: the PEC attribute of an I2C
 * parent and the thermal zones. On failure neither is left.
 */
static int hwmon_add_chip_extras(struct hwmon_core_dev *hwdev)
{
	int err;

	err = hwmon_pec_add(hwdev);
	if (err || !hwmon_wants_tz(hwdev->chip))
		return err;
	err = hwmon_thermal_add(hwdev);
	if (err)
		hwmon_pec_remove(hwdev);
	return err;
}

static struct device *
hwmon_register_common(struct device *dev, const char *name, void *drvdata,
		      const struct hwmon_chip_info *chip,
		      const struct attribute_group **groups)
{
	struct hwmon_layout lay = { };
	struct hwmon_core_dev *hwdev;
	const char *label;
	int err, id;

	if (name && !hwmon_name_is_valid(name))
		dev_warn(dev,
			 "hwmon: '%s' is not a valid name attribute, please fix\n",
			 name);

	err = hwmon_read_label(dev, &label);
	if (err)
		return ERR_PTR(err);
	err = hwmon_plan(dev, drvdata, chip, groups, name, label, &lay);
	if (err)
		goto free_modes;
	hwdev = hwmon_alloc(&lay, chip);
	if (!hwdev) {
		err = -ENOMEM;
		goto free_modes;
	}
	hwdev->chip = chip;
	INIT_LIST_HEAD(&hwdev->tzones);
	mutex_init(&hwdev->lock);
	groups = hwmon_carve(hwdev, &lay, name, label, groups);
	kfree(lay.modes);

	err = hwmon_add_device(hwdev, dev, drvdata, groups);
	if (err)
		return ERR_PTR(err);
	if (chip) {
		err = hwmon_add_chip_extras(hwdev);
		if (err) {
			id = hwdev->id;
			device_del(&hwdev->dev);
			put_device(&hwdev->dev);
			ida_free(&hwmon_ida, id);
			return ERR_PTR(err);
		}
	}
	return &hwdev->dev;

free_modes:
	kfree(lay.modes);
	return ERR_PTR(err);
}

/**
 * hwmon_device_register_with_groups - register a hwmon device
 * @dev: the parent device (may be NULL)
 * @name: hwmon name attribute
 * @drvdata: driver data to attach to the created device
 * @groups: NULL-terminated list of attribute groups to create, or NULL
 *
 * hwmon_device_unregister() must be called when the device is no longer
 * needed.
 *
 * Return: the created class device, or an ERR_PTR(): -EINVAL if @name is
 * NULL, -ENOMEM or the driver core's error otherwise.
 */
struct device *
hwmon_device_register_with_groups(struct device *dev, const char *name,
				  void *drvdata,
				  const struct attribute_group **groups)
{
	if (!name)
		return ERR_PTR(-EINVAL);

	return hwmon_register_common(dev, name, drvdata, NULL, groups);
}
EXPORT_SYMBOL_GPL(hwmon_device_register_with_groups);

/**
 * hwmon_device_register_with_info - register a hwmon device from a chip
 *	description
 * @dev: the parent device
 * @name: hwmon name attribute
 * @drvdata: driver data to attach to the created device
 * @chip: the chip description: operations and channel list
 * @extra_groups: NULL-terminated list of additional attribute groups, or NULL
 *
 * Creates the standard sysfs attributes of every channel attribute in
 * @chip that its is_visible() callback makes visible.
 * hwmon_device_unregister() must be called when the device is no longer
 * needed.
 *
 * Return: the created class device, or an ERR_PTR(): -EINVAL if @dev,
 * @name, @chip, its ops, is_visible() or channel list is missing, if the
 * channel list describes no attribute at all, or if a visible attribute
 * lacks the read, read_string or write callback its mode needs; -ENOMEM or
 * the driver core's error otherwise.
 */
struct device *
hwmon_device_register_with_info(struct device *dev, const char *name,
				void *drvdata,
				const struct hwmon_chip_info *chip,
				const struct attribute_group **extra_groups)
{
	if (!dev || !name || !chip)
		return ERR_PTR(-EINVAL);
	if (!chip->ops || !hwmon_chip_has_visibility(chip->ops) || !chip->info)
		return ERR_PTR(-EINVAL);

	return hwmon_register_common(dev, name, drvdata, chip, extra_groups);
}
EXPORT_SYMBOL_GPL(hwmon_device_register_with_info);

/**
 * hwmon_device_register_for_thermal - register a hwmon device for the
 *	thermal subsystem
 * @dev: the parent device (the thermal zone)
 * @name: hwmon name attribute
 * @drvdata: driver data to attach to the created device
 *
 * For the thermal core's hwmon bridge only: it creates a device with the
 * name attribute and adds its own attributes afterwards.
 *
 * Return: the created class device, or an ERR_PTR(): -EINVAL if @dev or
 * @name is NULL, -ENOMEM or the driver core's error otherwise.
 */
struct device *
hwmon_device_register_for_thermal(struct device *dev, const char *name,
				  void *drvdata)
{
	if (!dev || !name)
		return ERR_PTR(-EINVAL);

	return hwmon_register_common(dev, name, drvdata, NULL, NULL);
}
EXPORT_SYMBOL_NS_GPL(hwmon_device_register_for_thermal, HWMON_THERMAL);

/**
 * hwmon_device_register - register a hwmon device (deprecated)
 * @dev: the parent device
 *
 * Creates a hwmon class device without a name attribute. Deprecated: use
 * hwmon_device_register_with_info() instead; a warning is logged.
 *
 * Return: the created class device, or an ERR_PTR().
 */
struct device *hwmon_device_register(struct device *dev)
{
	dev_warn(dev,
		 "%s() is deprecated. Please convert the driver to use hwmon_device_register_with_info().\n",
		 __func__);

	return hwmon_register_common(dev, NULL, NULL, NULL, NULL);
}
EXPORT_SYMBOL_GPL(hwmon_device_register);

/**
 * hwmon_device_unregister - remove a hwmon device
 * @dev: the class device returned by one of the registration functions
 *
 * Removes the device's thermal zones, its sysfs files and the device, and
 * makes its hwmonN number available again. Once it has returned, the core
 * calls none of the chip's callbacks any more; reads and writes of attribute
 * files that are still open fail with -ENODEV. Must not be called with
 * hwmon_lock() held.
 */
void hwmon_device_unregister(struct device *dev)
{
	struct hwmon_core_dev *hwdev;
	int id;

	if (WARN_ON(!dev || dev->class != &hwmon_class))
		return;

	hwdev = to_hwdev(dev);
	id = hwdev->id;
	hwmon_thermal_remove(hwdev);
	if (hwdev->chip)
		hwmon_pec_remove(hwdev);
	/*
	 * Wait for a callback in progress and refuse the ones still to come
	 * (attribute files open until device_unregister() removes them).
	 */
	mutex_lock(&hwdev->lock);
	hwdev->removed = true;
	mutex_unlock(&hwdev->lock);
	device_unregister(dev);
	ida_free(&hwmon_ida, id);
}
EXPORT_SYMBOL_GPL(hwmon_device_unregister);

static char *hwmon_dup_sanitized(struct device *dev, const char *src)
{
	char *name, *p;

	if (dev)
		name = devm_kstrdup(dev, src, GFP_KERNEL);
	else
		name = kstrdup(src, GFP_KERNEL);
	if (!name)
		return ERR_PTR(-ENOMEM);

	for (p = name; *p; p++)
		if (hwmon_is_bad_char(*p))
			*p = '_';
	return name;
}

static void devm_hwmon_release(void *hwmon_dev)
{
	hwmon_device_unregister(hwmon_dev);
}

static struct device *devm_hwmon_manage(struct device *dev,
					struct device *hwmon_dev)
{
	int err;

	if (IS_ERR(hwmon_dev))
		return hwmon_dev;

	err = devm_add_action_or_reset(dev, devm_hwmon_release, hwmon_dev);
	return err ? ERR_PTR(err) : hwmon_dev;
}

/**
 * devm_hwmon_device_register_with_groups - register a device-managed hwmon
 *	device
 * @dev: the parent device
 * @name: hwmon name attribute
 * @drvdata: driver data to attach to the created device
 * @groups: NULL-terminated list of attribute groups to create, or NULL
 *
 * Like hwmon_device_register_with_groups(), but the device is unregistered
 * automatically when @dev is unbound.
 *
 * Return: the created class device, or an ERR_PTR(): -EINVAL if @dev or
 * @name is NULL.
 */
struct device *
devm_hwmon_device_register_with_groups(struct device *dev, const char *name,
				       void *drvdata,
				       const struct attribute_group **groups)
{
	if (!dev)
		return ERR_PTR(-EINVAL);

	return devm_hwmon_manage(dev,
				 hwmon_device_register_with_groups(dev, name,
								   drvdata,
								   groups));
}
EXPORT_SYMBOL_GPL(devm_hwmon_device_register_with_groups);

/**
 * devm_hwmon_device_register_with_info - register a device-managed hwmon
 *	device from a chip description
 * @dev: the parent device
 * @name: hwmon name attribute; with CONFIG_HWMON_NEWER_API, NULL stands for
 *	the name of @dev with the characters hwmon_is_bad_char() refuses
 *	replaced by '_'
 * @drvdata: driver data to attach to the created device
 * @chip: the chip description: operations and channel list
 * @extra_groups: NULL-terminated list of additional attribute groups, or NULL
 *
 * Like hwmon_device_register_with_info(), but the device is unregistered
 * automatically when @dev is unbound.
 *
 * Return: the created class device, or an ERR_PTR() as for
 * hwmon_device_register_with_info(); -ENOMEM if the name of @dev cannot be
 * copied.
 */
struct device *
devm_hwmon_device_register_with_info(struct device *dev, const char *name,
				     void *drvdata,
				     const struct hwmon_chip_info *chip,
				     const struct attribute_group **extra_groups)
{
	struct device *hwmon_dev;
	char *fallback = NULL;

	if (!dev)
		return ERR_PTR(-EINVAL);

	/*
	 * The core copies the name into the device's own allocation, so the
	 * sanitized copy of the parent's name is only needed until then.
	 */
	if (IS_ENABLED(CONFIG_HWMON_NEWER_API) && !name) {
		fallback = hwmon_dup_sanitized(NULL, dev_name(dev));
		if (IS_ERR(fallback))
			return ERR_CAST(fallback);
		name = fallback;
	}
	hwmon_dev = hwmon_device_register_with_info(dev, name, drvdata, chip,
						    extra_groups);
	kfree(fallback);
	return devm_hwmon_manage(dev, hwmon_dev);
}
EXPORT_SYMBOL_GPL(devm_hwmon_device_register_with_info);

#if HWMON_HAVE_DEVM_UNREGISTER
/**
 * devm_hwmon_device_unregister - unregister a device-managed hwmon device
 *	now
 * @dev: the class device returned by a devm_ registration function
 *
 * Unregisters the device at once instead of when its parent is unbound.
 * Warns if @dev is not a device-managed hwmon device.
 */
void devm_hwmon_device_unregister(struct device *dev)
{
	if (WARN_ON(!dev || !dev->parent))
		return;

	devm_release_action(dev->parent, devm_hwmon_release, dev);
}
EXPORT_SYMBOL_GPL(devm_hwmon_device_unregister);
#endif

/**
 * hwmon_sanitize_name - copy a string, replacing characters that are
 *	invalid in a hwmon name
 * @name: the string to copy
 *
 * Every character for which hwmon_is_bad_char() is true becomes '_'. The
 * caller frees the copy with kfree().
 *
 * Return: the new string, or ERR_PTR(-ENOMEM); a NULL @name is
 * ERR_PTR(-EINVAL) with CONFIG_HWMON_NEWER_API (as upstream since 7.0),
 * ERR_PTR(-ENOMEM) without.
 */
char *hwmon_sanitize_name(const char *name)
{
	if (IS_ENABLED(CONFIG_HWMON_NEWER_API) && !name)
		return ERR_PTR(-EINVAL);

	return hwmon_dup_sanitized(NULL, name);
}
EXPORT_SYMBOL_GPL(hwmon_sanitize_name);

/**
 * devm_hwmon_sanitize_name - device-managed hwmon_sanitize_name()
 * @dev: the device that owns the copy
 * @name: the string to copy
 *
 * Return: the new string, freed when @dev is unbound; ERR_PTR(-EINVAL) if
 * @dev is NULL (or, with CONFIG_HWMON_NEWER_API, @name is), ERR_PTR(-ENOMEM)
 * if out of memory.
 */
char *devm_hwmon_sanitize_name(struct device *dev, const char *name)
{
	if (!dev || (IS_ENABLED(CONFIG_HWMON_NEWER_API) && !name))
		return ERR_PTR(-EINVAL);

	return hwmon_dup_sanitized(dev, name);
}
EXPORT_SYMBOL_GPL(devm_hwmon_sanitize_name);

/**
 * hwmon_notify_event - tell user space and the thermal core that an
 *	attribute changed
 * @dev: the hwmon class device
 * @type: sensor type
 * @attr: attribute number within the type
 * @channel: channel number (0-based)
 *
 * Wakes up pollers of the attribute file (sysfs_notify()), sends a
 * KOBJ_CHANGE uevent with NAME=<attribute file name>, and for temperature
 * attributes updates the channel's thermal zone if there is one.
 *
 * Return: 0, or -EINVAL if (@type, @attr) has no attribute file.
 */
int hwmon_notify_event(struct device *dev, enum hwmon_sensor_types type,
		       u32 attr, int channel)
{
	char event[64];
	char *envp[2];
	char name[HWMON_NAME_MAX];
	int len;

	if (!hwmon_suffix(type, attr))
		return -EINVAL;

	hwmon_put_name(name, type, attr, channel);
	len = snprintf(event, sizeof(event), "NAME=%s", name);
	if (len >= sizeof(event))
		return -EINVAL;

	envp[0] = event;
	envp[1] = NULL;
	sysfs_notify(&dev->kobj, NULL, name);
	kobject_uevent_env(&dev->kobj, KOBJ_CHANGE, envp);

	if (type == hwmon_temp && dev->class == &hwmon_class)
		hwmon_thermal_notify(to_hwdev(dev), channel);
	return 0;
}
EXPORT_SYMBOL_GPL(hwmon_notify_event);

/**
 * hwmon_lock - serialize with the hwmon core's calls of the chip's callbacks
 * @dev: the hwmon class device returned by a registration function
 *
 * The core calls the read, read_string and write callbacks of a chip, and
 * the thermal zone callbacks, with the device's lock held. A driver takes
 * the same lock with hwmon_lock() to serialize its own code with them:
 * interrupt threads, work items, attributes of its extra groups. The lock
 * is a mutex: hwmon_lock() may sleep. Release it with hwmon_unlock().
 *
 * Do not call hwmon_notify_event() or hwmon_device_unregister() with the
 * lock held: both may wait for a callback.
 */
void hwmon_lock(struct device *dev)
{
	mutex_lock(&to_hwdev(dev)->lock);
}
EXPORT_SYMBOL_GPL(hwmon_lock);

/**
 * hwmon_unlock - release the lock taken by hwmon_lock()
 * @dev: the hwmon class device
 */
void hwmon_unlock(struct device *dev)
{
	mutex_unlock(&to_hwdev(dev)->lock);
}
EXPORT_SYMBOL_GPL(hwmon_unlock);

static int __init hwmon_init(void)
{
	int err;

	err = class_register(&hwmon_class);
	if (err)
		pr_err("cannot register the hwmon class: %d\n", err);
	return err;
}

static void __exit hwmon_exit(void)
{
	class_unregister(&hwmon_class);
	ida_destroy(&hwmon_ida);
}

subsys_initcall(hwmon_init);
module_exit(hwmon_exit);

MODULE_DESCRIPTION("hardware monitoring sysfs/class support (clean-room core)");
MODULE_LICENSE("GPL");
