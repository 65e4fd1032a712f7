/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * A fake hardware monitoring chip for the KUnit suites of the hwmon core.
 *
 * The chip keeps a value per (sensor type, attribute, channel), answers
 * is_visible() from a per (type, attribute, channel) mode table, can be told
 * to fail reads and writes of an attribute with a given error, counts every
 * callback and returns configurable string labels.
 */
#ifndef _HWMON_FAKE_CHIP_H
#define _HWMON_FAKE_CHIP_H

#include <linux/hwmon.h>
#include <linux/types.h>

struct device;
struct kunit;

/* Channels per sensor type and attributes per sensor type the chip handles. */
#define HWMON_FAKE_MAX_CHANNELS	4
#define HWMON_FAKE_MAX_ATTRS	32

/**
 * struct hwmon_fake_attr - one attribute bit of include/linux/hwmon.h
 * @type: sensor type
 * @attr: attribute number (hwmon_temp_input, ...)
 * @bit: configuration bit (HWMON_T_INPUT, ...)
 * @macro: name of the configuration bit macro
 * @name: ABI file name; "%d" stands for the channel index, which starts at 0
 *	for in and intrusion channels and at 1 for the others. NULL if the bit
 *	creates no file (HWMON_C_REGISTER_TZ).
 * @mode: mode the fake chip's is_visible() returns for it by default
 * @string: true if the attribute is read with read_string() (labels)
 * @stock_differs: true if a stock core handles the attribute differently
 *	from the ABI, an intended difference of our core: the stock cores
 *	(6.1 and 6.12) name the power average interval limits
 *	powerN_interval_max/_min, stock 6.12 reads the energy64 label with
 *	read() and prints a number
 */
struct hwmon_fake_attr {
	enum hwmon_sensor_types type;
	u32 attr;
	u32 bit;
	const char *macro;
	const char *name;
	umode_t mode;
	bool string;
	bool stock_differs;
};

/* Every attribute bit of the tree's header (6.1 or 6.12), in header order. */
extern const struct hwmon_fake_attr hwmon_fake_attrs[];
extern const size_t hwmon_fake_attr_count;

/* Flags for &hwmon_fake_chip.missing_ops */
#define HWMON_FAKE_NO_IS_VISIBLE	BIT(0)
#define HWMON_FAKE_NO_READ		BIT(1)
#define HWMON_FAKE_NO_READ_STRING	BIT(2)
#define HWMON_FAKE_NO_WRITE		BIT(3)

/**
 * struct hwmon_fake_chip - state of one fake chip
 * @test: test that owns the chip (all memory is test managed)
 * @config: configuration words per type, zero terminated
 * @channels: channel descriptions handed to the core
 * @info: NULL terminated channel description list handed to the core
 * @missing_ops: HWMON_FAKE_NO_* flags: callbacks to leave out of the
 *	operations handed to the core
 * @chip: chip description handed to the core
 * @mode: visibility policy, the mode is_visible() returns
 * @value: current value per attribute and channel
 * @label: string per type and channel returned by read_string()
 * @read_error: error read()/read_string() returns per attribute, 0 for none
 * @write_error: error write() returns per attribute, 0 for none
 * @reads: read() calls per attribute and channel
 * @read_strings: read_string() calls per attribute and channel
 * @writes: write() calls per attribute and channel
 * @visible_calls: is_visible() calls per attribute and channel
 * @total_reads: all read() calls
 * @total_read_strings: all read_string() calls
 * @total_writes: all write() calls
 * @total_visible_calls: all is_visible() calls
 * @bad_calls: callbacks with an out of range type, attribute or channel
 * @last_dev: device passed to the last read(), read_string() or write()
 * @last_drvdata: drvdata passed to the last is_visible()
 */
struct hwmon_fake_chip {
	struct kunit *test;
	u32 config[hwmon_max][HWMON_FAKE_MAX_CHANNELS + 1];
	struct hwmon_channel_info channels[hwmon_max];
	const struct hwmon_channel_info *info[hwmon_max + 1];
	unsigned int missing_ops;
	struct hwmon_chip_info chip;
	umode_t mode[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	s64 value[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	const char *label[hwmon_max][HWMON_FAKE_MAX_CHANNELS];
	int read_error[hwmon_max][HWMON_FAKE_MAX_ATTRS];
	int write_error[hwmon_max][HWMON_FAKE_MAX_ATTRS];
	unsigned int reads[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	unsigned int read_strings[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	unsigned int writes[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	unsigned int visible_calls[hwmon_max][HWMON_FAKE_MAX_ATTRS][HWMON_FAKE_MAX_CHANNELS];
	unsigned int total_reads;
	unsigned int total_read_strings;
	unsigned int total_writes;
	unsigned int total_visible_calls;
	unsigned int bad_calls;
	struct device *last_dev;
	const void *last_drvdata;
};

const struct hwmon_fake_attr *hwmon_fake_attr_find(enum hwmon_sensor_types type,
						   u32 attr);
int hwmon_fake_attr_index_base(enum hwmon_sensor_types type);
int hwmon_fake_attr_file_name(const struct hwmon_fake_attr *desc, int channel,
			      char *buf, size_t len);

struct hwmon_fake_chip *hwmon_fake_chip_new(struct kunit *test);
void hwmon_fake_chip_set_channels(struct hwmon_fake_chip *chip,
				  enum hwmon_sensor_types type,
				  int channels, u32 config);
void hwmon_fake_chip_set_all(struct hwmon_fake_chip *chip, int channels);
void hwmon_fake_chip_set_mode(struct hwmon_fake_chip *chip,
			      enum hwmon_sensor_types type, u32 attr,
			      int channel, umode_t mode);
const struct hwmon_chip_info *hwmon_fake_chip_info(struct hwmon_fake_chip *chip);
int hwmon_fake_chip_file_count(const struct hwmon_fake_chip *chip);

#endif /* _HWMON_FAKE_CHIP_H */
