// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * newer-api-sample.c - a hwmon driver written against the newer API
 *
 * A platform driver for devices named "hwmon-newer-api-sample" that uses
 * what CONFIG_HWMON_NEWER_API adds to the hardware monitoring API of this
 * kernel, as a driver written for a later upstream kernel would:
 *  - struct hwmon_ops.visible: every attribute is read-only, so the chip
 *    has no is_visible() callback;
 *  - devm_hwmon_device_register_with_info() without a name: the hwmon
 *    device is named after the platform device;
 *  - guard(hwmon_lock): the driver's own "samples" attribute reads the
 *    state the core's callbacks update, under the same lock.
 * The chip has two temperature channels with input and label and one
 * voltage channel with input. Each read of an input counts as a sample.
 */

#include <linux/cleanup.h>
#include <linux/device.h>
#include <linux/err.h>
#include <linux/hwmon.h>
#include <linux/module.h>
#include <linux/platform_device.h>
#include <linux/sysfs.h>

/**
 * struct newer_api_sample - state of one device
 * @hwmon_dev: the registered hwmon device
 * @samples: input reads so far, protected by the hwmon device's lock
 */
struct newer_api_sample {
	struct device *hwmon_dev;
	unsigned long samples;
};

static const char * const newer_api_sample_labels[] = { "board", "cpu" };

/* Called by the core with the hwmon device's lock held. */
static int newer_api_sample_read(struct device *dev,
				 enum hwmon_sensor_types type, u32 attr,
				 int channel, long *val)
{
	struct newer_api_sample *data = dev_get_drvdata(dev);

	switch (type) {
	case hwmon_temp:
		*val = 40000 + 5000 * channel;	/* millidegrees Celsius */
		break;
	case hwmon_in:
		*val = 3300;			/* millivolts */
		break;
	default:
		return -EOPNOTSUPP;
	}
	data->samples++;
	return 0;
}

static int newer_api_sample_read_string(struct device *dev,
					enum hwmon_sensor_types type,
					u32 attr, int channel,
					const char **str)
{
	if (type != hwmon_temp || channel >= ARRAY_SIZE(newer_api_sample_labels))
		return -EOPNOTSUPP;
	*str = newer_api_sample_labels[channel];
	return 0;
}

static const struct hwmon_ops newer_api_sample_ops = {
	.visible = 0444,
	.read = newer_api_sample_read,
	.read_string = newer_api_sample_read_string,
};

/* Not "* const": the 6.1 header's hwmon_chip_info takes a pointer to non-const. */
static const struct hwmon_channel_info *newer_api_sample_info[] = {
	HWMON_CHANNEL_INFO(temp, HWMON_T_INPUT | HWMON_T_LABEL,
			   HWMON_T_INPUT | HWMON_T_LABEL),
	HWMON_CHANNEL_INFO(in, HWMON_I_INPUT),
	NULL
};

static const struct hwmon_chip_info newer_api_sample_chip = {
	.ops = &newer_api_sample_ops,
	.info = newer_api_sample_info,
};

/* The driver's own attribute, on the hwmon device: reads under its lock. */
static ssize_t samples_show(struct device *dev, struct device_attribute *da,
			    char *buf)
{
	struct newer_api_sample *data = dev_get_drvdata(dev);

	guard(hwmon_lock)(dev);
	return sysfs_emit(buf, "%lu\n", data->samples);
}
static DEVICE_ATTR_RO(samples);

static struct attribute *newer_api_sample_attrs[] = {
	&dev_attr_samples.attr,
	NULL
};
ATTRIBUTE_GROUPS(newer_api_sample);

static int newer_api_sample_probe(struct platform_device *pdev)
{
	struct newer_api_sample *data;

	data = devm_kzalloc(&pdev->dev, sizeof(*data), GFP_KERNEL);
	if (!data)
		return -ENOMEM;
	data->hwmon_dev =
		devm_hwmon_device_register_with_info(&pdev->dev, NULL, data,
						     &newer_api_sample_chip,
						     newer_api_sample_groups);
	return PTR_ERR_OR_ZERO(data->hwmon_dev);
}

/* Matched by name: the name is longer than a platform_device_id holds. */
static struct platform_driver newer_api_sample_driver = {
	.driver = {
		.name = "hwmon-newer-api-sample",
	},
	.probe = newer_api_sample_probe,
};
module_platform_driver(newer_api_sample_driver);

MODULE_ALIAS("platform:hwmon-newer-api-sample");
MODULE_DESCRIPTION("Sample driver for the newer hwmon API (CONFIG_HWMON_NEWER_API)");
MODULE_LICENSE("GPL");
