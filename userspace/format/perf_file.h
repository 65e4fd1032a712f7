/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The perf.data on-disk format, as documented in the kernel tree's
 * tools/perf/Documentation/perf.data-file-format.txt; the kernel's records
 * and struct perf_event_attr come from <linux/perf_event.h>.  Shared by the
 * reader (perfdata.c) and the writer (perfdata_write.c).
 *
 * File mode:  struct pf_header, then (at the offsets it gives) the attr
 *             section (pf_attr_entry of attr_size + 16 bytes each, whose
 *             ids section points at u64 ids), the data section (records)
 *             and, after the data, one struct pf_section per feature bit
 *             set in flags (in bit order) pointing at that feature's data.
 * Pipe mode:  struct pf_pipe_header (size 16), then records only; attrs,
 *             build-ids and features travel as PF_RECORD_HEADER_* records.
 *
 * Every field is in the byte order of the writer; the magic tells it
 * (PF_MAGIC2 read as a little-endian u64 on a little-endian reader, or its
 * byte swap).
 */
#ifndef BLOCKRANGE_FORMAT_PERF_FILE_H
#define BLOCKRANGE_FORMAT_PERF_FILE_H

#include <stdint.h>

/* "PERFILE2" as stored: the bytes of the magic, native order. */
#define PF_MAGIC2 0x32454c4946524550ULL		/* "PERFILE2" little-endian */
#define PF_MAGIC2_SWAPPED 0x50455246494c4532ULL	/* written big-endian */
#define PF_MAGIC1 "PERFFILE"			/* version 1, not supported */

struct pf_section {
	uint64_t offset;
	uint64_t size;
};

struct pf_header {
	uint64_t magic;
	uint64_t size;		/* of this header: 104 */
	uint64_t attr_size;	/* of each attr entry: attr + pf_section */
	struct pf_section attrs;
	struct pf_section data;
	struct pf_section event_types;	/* unused since perf 3.x */
	uint64_t flags[4];	/* feature bitmap, 256 bits */
};

struct pf_pipe_header {
	uint64_t magic;
	uint64_t size;		/* 16 */
};

/* Feature bits (flags of struct pf_header). */
enum pf_feature {
	PF_FEAT_TRACING_DATA = 1,
	PF_FEAT_BUILD_ID = 2,
	PF_FEAT_HOSTNAME = 3,
	PF_FEAT_OSRELEASE = 4,
	PF_FEAT_VERSION = 5,
	PF_FEAT_ARCH = 6,
	PF_FEAT_NRCPUS = 7,
	PF_FEAT_CPUDESC = 8,
	PF_FEAT_CPUID = 9,
	PF_FEAT_TOTAL_MEM = 10,
	PF_FEAT_CMDLINE = 11,
	PF_FEAT_EVENT_DESC = 12,
	PF_FEAT_CPU_TOPOLOGY = 13,
	PF_FEAT_NUMA_TOPOLOGY = 14,
	PF_FEAT_BRANCH_STACK = 15,
	PF_FEAT_PMU_MAPPINGS = 16,
	PF_FEAT_GROUP_DESC = 17,
	PF_FEAT_AUXTRACE = 18,
	PF_FEAT_STAT = 19,
	PF_FEAT_CACHE = 20,
	PF_FEAT_SAMPLE_TIME = 21,
	PF_FEAT_SAMPLE_TOPOLOGY = 22,
	PF_FEAT_CLOCKID = 23,
	PF_FEAT_DIR_FORMAT = 24,
	PF_FEAT_BPF_PROG_INFO = 25,
	PF_FEAT_BPF_BTF = 26,
	PF_FEAT_COMPRESSED = 27,
	PF_FEAT_CPU_PMU_CAPS = 28,
	PF_FEAT_CLOCK_DATA = 29,
	PF_FEAT_HYBRID_TOPOLOGY = 30,
	PF_FEAT_PMU_CAPS = 31,
	PF_FEAT_BITS = 256,
};

/* Records perf itself adds to the kernel's (PERF_RECORD_* < 64). */
enum pf_user_record {
	PF_RECORD_HEADER_ATTR = 64,
	PF_RECORD_HEADER_EVENT_TYPE = 65,	/* deprecated */
	PF_RECORD_HEADER_TRACING_DATA = 66,	/* payload follows the record */
	PF_RECORD_HEADER_BUILD_ID = 67,
	PF_RECORD_FINISHED_ROUND = 68,
	PF_RECORD_ID_INDEX = 69,
	PF_RECORD_AUXTRACE_INFO = 70,
	PF_RECORD_AUXTRACE = 71,		/* payload follows the record */
	PF_RECORD_AUXTRACE_ERROR = 72,
	PF_RECORD_THREAD_MAP = 73,
	PF_RECORD_CPU_MAP = 74,
	PF_RECORD_STAT_CONFIG = 75,
	PF_RECORD_STAT = 76,
	PF_RECORD_STAT_ROUND = 77,
	PF_RECORD_EVENT_UPDATE = 78,
	PF_RECORD_TIME_CONV = 79,
	PF_RECORD_HEADER_FEATURE = 80,
	PF_RECORD_COMPRESSED = 81,
	PF_RECORD_FINISHED_INIT = 82,
};

/*
 * A build-id record (HEADER_BUILD_ID feature entries and
 * PF_RECORD_HEADER_BUILD_ID): struct perf_event_header, then this, then
 * the NUL-padded file name up to header.size.  Since perf 5.x,
 * misc & PF_MISC_BUILD_ID_SIZE means build_id[20] holds the size of the
 * id (else it is 20 bytes, zero-padded).
 */
struct pf_build_id {
	int32_t pid;
	uint8_t build_id[24];
};

#define PF_MISC_BUILD_ID_SIZE (1 << 15)

/* struct perf_header_string: u32 len (with padding), then len bytes. */

#endif /* BLOCKRANGE_FORMAT_PERF_FILE_H */
