/* SPDX-License-Identifier: MIT */
/*
 * The kbase user ABI for job-manager GPUs, UAPI 11.x, as seen by a 64-bit
 * client: ioctl numbers (type 0x80), argument layouts, memory flags, atom
 * and event records. Field layouts are fixed by the ABI; the asserts at the
 * end pin the sizes the real driver uses.
 */
#ifndef VGPU_SHIM_UAPI_KBASE_H
#define VGPU_SHIM_UAPI_KBASE_H

#include "os/os.h"
#include "driver-shim/uapi_ioc.h"

#define KB_IOC_TYPE 0x80
#define KB_UK_MAJOR 11
/* The newest minor documented by the public trees (jm/mali_kbase_jm_ioctl.h). */
#define KB_UK_MINOR 46

struct kb_version_check {
	uint16_t major;
	uint16_t minor;
};
struct kb_set_flags {
	uint32_t create_flags;
};
struct kb_job_submit {
	uint64_t addr;
	uint32_t nr_atoms;
	uint32_t stride;
};
struct kb_get_gpuprops {
	uint64_t buffer;
	uint32_t size;
	uint32_t flags;
};
union kb_mem_alloc {
	struct {
		uint64_t va_pages, commit_pages, extension, flags;
	} in;
	struct {
		uint64_t flags, gpu_va;
	} out;
};
union kb_mem_query {
	struct {
		uint64_t gpu_addr, query;
	} in;
	struct {
		uint64_t value;
	} out;
};
struct kb_mem_free {
	uint64_t gpu_addr;
};
struct kb_hwcnt_reader_setup {
	uint32_t buffer_count, fe_bm, shader_bm, tiler_bm, mmu_l2_bm;
};
struct kb_disjoint_query {
	uint32_t counter;
};
struct kb_get_ddk_version {
	uint64_t version_buffer;
	uint32_t size;
	uint32_t padding;
};
struct kb_mem_jit_init {
	uint64_t va_pages;
	uint8_t max_allocations, trim_level, group_id, padding[5];
	uint64_t phys_pages;
};
struct kb_mem_sync {
	uint64_t handle, user_addr, size;
	uint8_t type, padding[7];
};
union kb_mem_find_cpu_offset {
	struct {
		uint64_t gpu_addr, cpu_addr, size;
	} in;
	struct {
		uint64_t offset;
	} out;
};
struct kb_get_context_id {
	uint32_t id;
};
struct kb_tlstream_acquire {
	uint32_t flags;
};
struct kb_mem_commit {
	uint64_t gpu_addr, pages;
};
union kb_mem_alias {
	struct {
		uint64_t flags, stride, nents, aliasing_info;
	} in;
	struct {
		uint64_t flags, gpu_va, va_pages;
	} out;
};
union kb_mem_import {
	struct {
		uint64_t flags, phandle;
		uint32_t type, padding;
	} in;
	struct {
		uint64_t flags, gpu_va, va_pages;
	} out;
};
struct kb_mem_flags_change {
	uint64_t gpu_va, flags, mask;
};
struct kb_stream_create {
	char name[32];
};
struct kb_fence_validate {
	int32_t fd;
};
struct kb_mem_profile_add {
	uint64_t buffer;
	uint32_t len, padding;
};
struct kb_soft_event_update {
	uint64_t event;
	uint32_t new_status, flags;
};
struct kb_sticky_resource {
	uint64_t count, address;
};
union kb_mem_find_gpu_start_and_offset {
	struct {
		uint64_t gpu_addr, size;
	} in;
	struct {
		uint64_t start, offset;
	} out;
};
struct kb_mem_exec_init {
	uint64_t va_pages;
};
union kb_cpu_gpu_timeinfo {
	struct {
		uint32_t request_flags;
		uint32_t paddings[7];
	} in;
	struct {
		uint64_t sec;
		uint32_t nsec, padding;
		uint64_t timestamp, cycle_counter;
	} out;
};
struct kb_context_priority_check {
	uint8_t priority;
};
struct kb_set_limited_core_count {
	uint8_t max_core_count;
};
struct kb_kinstr_prfcnt_enum_info {
	uint32_t info_item_size, info_item_count;
	uint64_t info_list_ptr;
};
union kb_kinstr_prfcnt_setup {
	struct {
		uint32_t request_item_count, request_item_size;
		uint64_t requests_ptr;
	} in;
	struct {
		uint32_t prfcnt_metadata_item_size, prfcnt_mmap_size_bytes;
	} out;
};
/* The kinstr_prfcnt flexible lists (mali_kbase_hwcnt_reader.h): every
 * item starts with a type (list type << 12 | subtype) and a version. */
#define KB_PRFCNT_API_VERSION 0
#define KB_PRFCNT_ITEM(list, sub) ((uint16_t)(((list) << 12) | (sub)))
#define KB_PRFCNT_ITEM_NONE 0
#define KB_PRFCNT_ENUM_BLOCK KB_PRFCNT_ITEM(0, 0)
#define KB_PRFCNT_ENUM_REQUEST KB_PRFCNT_ITEM(0, 1)
#define KB_PRFCNT_ENUM_SAMPLE_INFO KB_PRFCNT_ITEM(0, 2)
#define KB_PRFCNT_REQUEST_MODE KB_PRFCNT_ITEM(1, 0)
#define KB_PRFCNT_REQUEST_ENABLE KB_PRFCNT_ITEM(1, 1)
#define KB_PRFCNT_REQUEST_SCOPE KB_PRFCNT_ITEM(1, 2)
#define KB_PRFCNT_META_SAMPLE KB_PRFCNT_ITEM(2, 0)
#define KB_PRFCNT_META_CLOCK KB_PRFCNT_ITEM(2, 1)
#define KB_PRFCNT_META_BLOCK KB_PRFCNT_ITEM(2, 2)
enum { KB_PRFCNT_BLOCK_FE, KB_PRFCNT_BLOCK_TILER, KB_PRFCNT_BLOCK_MEMORY,
       KB_PRFCNT_BLOCK_SHADER, KB_PRFCNT_BLOCK_TYPES };
enum { KB_PRFCNT_MODE_MANUAL, KB_PRFCNT_MODE_PERIODIC };
#define KB_PRFCNT_SCOPE_RESERVED 255
struct kb_prfcnt_hdr {
	uint16_t item_type, item_version;
};
struct kb_prfcnt_enum_item {           /* 32 bytes */
	struct kb_prfcnt_hdr hdr;
	uint8_t padding[4];
	union {
		struct {
			uint8_t block_type, set, pad[2];
			uint16_t num_instances, num_values;
			uint64_t counter_mask[2];
		} block;
		struct {
			uint16_t request_item_type, pad;
			uint32_t versions_mask;
		} request;
		struct {
			uint32_t num_clock_domains, pad;
		} sample_info;
	} u;
};
struct kb_prfcnt_request_item {        /* 32 bytes */
	struct kb_prfcnt_hdr hdr;
	uint8_t padding[4];
	union {
		struct {
			uint8_t mode, pad[7];
			uint64_t period_ns;
		} mode;
		struct {
			uint8_t block_type, set, pad[6];
			uint64_t enable_mask[2];
		} enable;
		struct {
			uint8_t scope, pad[7];
		} scope;
	} u;
};
struct kb_prfcnt_metadata {            /* 48 bytes */
	struct kb_prfcnt_hdr hdr;
	uint8_t padding[4];
	union {
		struct {
			uint64_t timestamp_start, timestamp_end, seq, user_data;
			uint32_t flags, pad;
		} sample;
		struct {
			uint32_t num_domains, pad;
			uint64_t cycles[4];
		} clock;
		struct {
			uint8_t block_type, block_idx, set, pad_u8;
			uint32_t block_state, values_offset, pad_u32;
		} block;
	} u;
};
enum { KB_PRFCNT_CMD_START = 1, KB_PRFCNT_CMD_STOP, KB_PRFCNT_CMD_SAMPLE_SYNC,
       KB_PRFCNT_CMD_SAMPLE_ASYNC, KB_PRFCNT_CMD_DISCARD };
struct kb_prfcnt_control_cmd {
	uint16_t cmd, pad[3];
	uint64_t user_data;
};
struct kb_prfcnt_sample_access {
	uint64_t sequence, sample_offset_bytes;
};
/* On the reader's descriptor (dispatched by number alone, as kbase does). */
#define KB_PRFCNT_READER_TYPE 0xbf
#define KB_IOCTL_PRFCNT_CMD \
	SHIM_IOW(KB_PRFCNT_READER_TYPE, 0x00, struct kb_prfcnt_control_cmd)
#define KB_IOCTL_PRFCNT_GET_SAMPLE \
	SHIM_IOR(KB_PRFCNT_READER_TYPE, 0x01, struct kb_prfcnt_sample_access)
#define KB_IOCTL_PRFCNT_PUT_SAMPLE \
	SHIM_IOW(KB_PRFCNT_READER_TYPE, 0x10, struct kb_prfcnt_sample_access)

union kb_kinstr_jm_fd {
	struct {
		uint16_t count;
		uint8_t padding[6];
	} in;
	struct {
		uint16_t size;
		uint8_t version, padding[5];
	} out;
};

#define KB_IOCTL_VERSION_CHECK SHIM_IOWR(KB_IOC_TYPE, 0, struct kb_version_check)
#define KB_IOCTL_SET_FLAGS SHIM_IOW(KB_IOC_TYPE, 1, struct kb_set_flags)
#define KB_IOCTL_JOB_SUBMIT SHIM_IOW(KB_IOC_TYPE, 2, struct kb_job_submit)
#define KB_IOCTL_GET_GPUPROPS SHIM_IOW(KB_IOC_TYPE, 3, struct kb_get_gpuprops)
#define KB_IOCTL_POST_TERM SHIM_IO(KB_IOC_TYPE, 4)
#define KB_IOCTL_MEM_ALLOC SHIM_IOWR(KB_IOC_TYPE, 5, union kb_mem_alloc)
#define KB_IOCTL_MEM_QUERY SHIM_IOWR(KB_IOC_TYPE, 6, union kb_mem_query)
#define KB_IOCTL_MEM_FREE SHIM_IOW(KB_IOC_TYPE, 7, struct kb_mem_free)
#define KB_IOCTL_HWCNT_READER_SETUP \
	SHIM_IOW(KB_IOC_TYPE, 8, struct kb_hwcnt_reader_setup)
#define KB_IOCTL_DISJOINT_QUERY SHIM_IOR(KB_IOC_TYPE, 12, struct kb_disjoint_query)
#define KB_IOCTL_GET_DDK_VERSION SHIM_IOW(KB_IOC_TYPE, 13, struct kb_get_ddk_version)
#define KB_IOCTL_MEM_JIT_INIT SHIM_IOW(KB_IOC_TYPE, 14, struct kb_mem_jit_init)
#define KB_IOCTL_MEM_SYNC SHIM_IOW(KB_IOC_TYPE, 15, struct kb_mem_sync)
#define KB_IOCTL_MEM_FIND_CPU_OFFSET \
	SHIM_IOWR(KB_IOC_TYPE, 16, union kb_mem_find_cpu_offset)
#define KB_IOCTL_GET_CONTEXT_ID SHIM_IOR(KB_IOC_TYPE, 17, struct kb_get_context_id)
#define KB_IOCTL_TLSTREAM_ACQUIRE \
	SHIM_IOW(KB_IOC_TYPE, 18, struct kb_tlstream_acquire)
#define KB_IOCTL_TLSTREAM_FLUSH SHIM_IO(KB_IOC_TYPE, 19)
#define KB_IOCTL_MEM_COMMIT SHIM_IOW(KB_IOC_TYPE, 20, struct kb_mem_commit)
#define KB_IOCTL_MEM_ALIAS SHIM_IOWR(KB_IOC_TYPE, 21, union kb_mem_alias)
#define KB_IOCTL_MEM_IMPORT SHIM_IOWR(KB_IOC_TYPE, 22, union kb_mem_import)
#define KB_IOCTL_MEM_FLAGS_CHANGE \
	SHIM_IOW(KB_IOC_TYPE, 23, struct kb_mem_flags_change)
#define KB_IOCTL_STREAM_CREATE SHIM_IOW(KB_IOC_TYPE, 24, struct kb_stream_create)
#define KB_IOCTL_FENCE_VALIDATE SHIM_IOW(KB_IOC_TYPE, 25, struct kb_fence_validate)
#define KB_IOCTL_MEM_PROFILE_ADD \
	SHIM_IOW(KB_IOC_TYPE, 27, struct kb_mem_profile_add)
#define KB_IOCTL_SOFT_EVENT_UPDATE \
	SHIM_IOW(KB_IOC_TYPE, 28, struct kb_soft_event_update)
#define KB_IOCTL_STICKY_RESOURCE_MAP \
	SHIM_IOW(KB_IOC_TYPE, 29, struct kb_sticky_resource)
#define KB_IOCTL_STICKY_RESOURCE_UNMAP \
	SHIM_IOW(KB_IOC_TYPE, 30, struct kb_sticky_resource)
#define KB_IOCTL_MEM_FIND_GPU_START_AND_OFFSET \
	SHIM_IOWR(KB_IOC_TYPE, 31, union kb_mem_find_gpu_start_and_offset)
#define KB_IOCTL_CINSTR_GWT_START SHIM_IO(KB_IOC_TYPE, 33)
#define KB_IOCTL_CINSTR_GWT_STOP SHIM_IO(KB_IOC_TYPE, 34)
#define KB_IOCTL_MEM_EXEC_INIT SHIM_IOW(KB_IOC_TYPE, 38, struct kb_mem_exec_init)
#define KB_IOCTL_GET_CPU_GPU_TIMEINFO \
	SHIM_IOWR(KB_IOC_TYPE, 50, union kb_cpu_gpu_timeinfo)
#define KB_IOCTL_KINSTR_JM_FD SHIM_IOWR(KB_IOC_TYPE, 51, union kb_kinstr_jm_fd)
#define KB_IOCTL_VERSION_CHECK_RESERVED \
	SHIM_IOWR(KB_IOC_TYPE, 52, struct kb_version_check)
#define KB_IOCTL_CONTEXT_PRIORITY_CHECK \
	SHIM_IOWR(KB_IOC_TYPE, 54, struct kb_context_priority_check)
#define KB_IOCTL_SET_LIMITED_CORE_COUNT \
	SHIM_IOW(KB_IOC_TYPE, 55, struct kb_set_limited_core_count)
#define KB_IOCTL_KINSTR_PRFCNT_ENUM_INFO \
	SHIM_IOWR(KB_IOC_TYPE, 56, struct kb_kinstr_prfcnt_enum_info)
#define KB_IOCTL_KINSTR_PRFCNT_SETUP \
	SHIM_IOWR(KB_IOC_TYPE, 57, union kb_kinstr_prfcnt_setup)

/* Context creation flags (SET_FLAGS). */
#define KB_CTX_CCTX_EMBEDDED (1u << 0)
#define KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED (1u << 1)
#define KB_CTX_MMU_GROUP_ID_MASK (0xfu << 3)
/* What a client may pass to SET_FLAGS. */
#define KB_CTX_CREATE_USER_FLAGS \
	(KB_CTX_SYSTEM_MONITOR_SUBMIT_DISABLED | KB_CTX_MMU_GROUP_ID_MASK)

/* Memory allocation flags (base_mem_alloc_flags). */
#define KB_MEM_PROT_CPU_RD (1ull << 0)
#define KB_MEM_PROT_CPU_WR (1ull << 1)
#define KB_MEM_PROT_GPU_RD (1ull << 2)
#define KB_MEM_PROT_GPU_WR (1ull << 3)
#define KB_MEM_PROT_GPU_EX (1ull << 4)
#define KB_MEM_PERMANENT_KERNEL_MAPPING (1ull << 5)
#define KB_MEM_GPU_VA_SAME_4GB_PAGE (1ull << 6)
#define KB_MEM_NO_USER_FREE (1ull << 7)
#define KB_MEM_UNUSED_8 (1ull << 8)
#define KB_MEM_GROW_ON_GPF (1ull << 9)
#define KB_MEM_COHERENT_SYSTEM (1ull << 10)
#define KB_MEM_COHERENT_LOCAL (1ull << 11)
#define KB_MEM_CACHED_CPU (1ull << 12)
#define KB_MEM_SAME_VA (1ull << 13)
#define KB_MEM_NEED_MMAP (1ull << 14)
#define KB_MEM_COHERENT_SYSTEM_REQUIRED (1ull << 15)
#define KB_MEM_PROTECTED (1ull << 16)
#define KB_MEM_DONT_NEED (1ull << 17)
#define KB_MEM_IMPORT_SHARED (1ull << 18)
#define KB_MEM_UNUSED_19 (1ull << 19)
#define KB_MEM_TILER_ALIGN_TOP (1ull << 20)
#define KB_MEM_UNCACHED_GPU (1ull << 21)
#define KB_MEM_GROUP_ID_MASK (0xfull << 22)
#define KB_MEM_IMPORT_SYNC_ON_MAP_UNMAP (1ull << 26)
#define KB_MEM_FLAG_MAP_FIXED (1ull << 27)
#define KB_MEM_KERNEL_SYNC (1ull << 28)
#define KB_MEM_PERFORM_JIT_TRIM (1ull << 29)
#define KB_MEM_FLAGS_NR_BITS 30
#define KB_MEM_FLAGS_KERNEL_ONLY                                          \
	(KB_MEM_PERMANENT_KERNEL_MAPPING | KB_MEM_NO_USER_FREE |          \
	 KB_MEM_FLAG_MAP_FIXED | KB_MEM_PERFORM_JIT_TRIM)
#define KB_MEM_PROT_MASK                                                  \
	(KB_MEM_PROT_CPU_RD | KB_MEM_PROT_CPU_WR | KB_MEM_PROT_GPU_RD |   \
	 KB_MEM_PROT_GPU_WR | KB_MEM_PROT_GPU_EX)

#define KB_MEM_QUERY_COMMIT_SIZE 1
#define KB_MEM_QUERY_VA_SIZE 2
#define KB_MEM_QUERY_FLAGS 3

/* Import types and the user-buffer descriptor MEM_IMPORT points at. */
#define KB_MEM_IMPORT_TYPE_UMM 2
#define KB_MEM_IMPORT_TYPE_USER_BUFFER 3
struct kb_import_user_buffer {
	uint64_t ptr;
	uint64_t length;
};
struct kb_mem_aliasing_info {
	uint64_t handle;
	uint64_t offset;
	uint64_t length;
};

/* Special mmap offsets, in bytes (4 KiB pages). */
#define KB_PAGE_SHIFT 12
#define KB_PAGE_SIZE 4096ull
#define KB_MEM_MMU_DUMP_HANDLE (1ull << 12)
#define KB_MEM_TRACE_BUFFER_HANDLE (2ull << 12)
#define KB_MEM_MAP_TRACKING_HANDLE (3ull << 12)
#define KB_MEM_WRITE_ALLOC_PAGES_HANDLE (4ull << 12)
#define KB_MEM_COOKIE_BASE (64ull << 12)
#define KB_MEM_NR_COOKIES 64
#define KB_MEM_FIRST_FREE_ADDRESS ((64ull + 64ull) << 12)
/* The largest single MEM_ALLOC: 8 GiB. */
#define KB_MEM_ALLOC_MAX_PAGES ((8ull << 30) >> 12)

/* Atoms. */
struct kb_udata {
	uint64_t blob[2];
};
struct kb_dependency {
	uint8_t atom_id;
	uint8_t dependency_type;
};
struct kb_atom_v2 {
	uint64_t jc;
	struct kb_udata udata;
	uint64_t extres_list;
	uint16_t nr_extres;
	uint8_t jit_id[2];
	struct kb_dependency pre_dep[2];
	uint8_t atom_number;
	uint8_t prio;
	uint8_t device_nr;
	uint8_t jobslot;
	uint32_t core_req;
	uint8_t renderpass_id;
	uint8_t padding[7];
};
/* v3 atoms are a 64-bit sequence number followed by a v2 atom. */
struct kb_atom_v3 {
	uint64_t seq_nr;
	struct kb_atom_v2 v2;
};

#define KB_JD_ATOM_COUNT 256
#define KB_JD_DEP_TYPE_INVALID 0
#define KB_JD_DEP_TYPE_DATA 1
#define KB_JD_DEP_TYPE_ORDER 2

#define KB_JD_REQ_DEP 0u
#define KB_JD_REQ_FS (1u << 0)
#define KB_JD_REQ_CS (1u << 1)
#define KB_JD_REQ_T (1u << 2)
#define KB_JD_REQ_CF (1u << 3)
#define KB_JD_REQ_V (1u << 4)
#define KB_JD_REQ_EVENT_COALESCE (1u << 5)
#define KB_JD_REQ_COHERENT_GROUP (1u << 6)
#define KB_JD_REQ_PERMON (1u << 7)
#define KB_JD_REQ_EXTERNAL_RESOURCES (1u << 8)
#define KB_JD_REQ_SOFT_JOB (1u << 9)
#define KB_JD_REQ_ONLY_COMPUTE (1u << 10)
#define KB_JD_REQ_SPECIFIC_COHERENT_GROUP (1u << 11)
#define KB_JD_REQ_EVENT_ONLY_ON_FAILURE (1u << 12)
#define KB_JD_REQ_FS_AFBC (1u << 13)
#define KB_JD_REQ_EVENT_NEVER (1u << 14)
#define KB_JD_REQ_SKIP_CACHE_START (1u << 15)
#define KB_JD_REQ_SKIP_CACHE_END (1u << 16)
#define KB_JD_REQ_JOB_SLOT (1u << 17)
#define KB_JD_REQ_LIMITED_CORE_MASK (1u << 20)
#define KB_JD_REQ_ATOM_TYPE                                                   \
	(KB_JD_REQ_FS | KB_JD_REQ_CS | KB_JD_REQ_T | KB_JD_REQ_CF |           \
	 KB_JD_REQ_V | KB_JD_REQ_SOFT_JOB | KB_JD_REQ_ONLY_COMPUTE)
#define KB_JD_REQ_SOFT_JOB_TYPE (KB_JD_REQ_SOFT_JOB | 0x1fu)
#define KB_JD_REQ_SOFT_DUMP_CPU_GPU_TIME (KB_JD_REQ_SOFT_JOB | 0x1)
#define KB_JD_REQ_SOFT_FENCE_TRIGGER (KB_JD_REQ_SOFT_JOB | 0x2)
#define KB_JD_REQ_SOFT_FENCE_WAIT (KB_JD_REQ_SOFT_JOB | 0x3)
#define KB_JD_REQ_SOFT_EVENT_WAIT (KB_JD_REQ_SOFT_JOB | 0x5)
#define KB_JD_REQ_SOFT_EVENT_SET (KB_JD_REQ_SOFT_JOB | 0x6)
#define KB_JD_REQ_SOFT_EVENT_RESET (KB_JD_REQ_SOFT_JOB | 0x7)
#define KB_JD_REQ_SOFT_DEBUG_COPY (KB_JD_REQ_SOFT_JOB | 0x8)
#define KB_JD_REQ_SOFT_JIT_ALLOC (KB_JD_REQ_SOFT_JOB | 0x9)
#define KB_JD_REQ_SOFT_JIT_FREE (KB_JD_REQ_SOFT_JOB | 0xa)
#define KB_JD_REQ_SOFT_EXT_RES_MAP (KB_JD_REQ_SOFT_JOB | 0xb)
#define KB_JD_REQ_SOFT_EXT_RES_UNMAP (KB_JD_REQ_SOFT_JOB | 0xc)

/* Event codes (base_jd_event_code). */
#define KB_EVENT_DONE 0x01
#define KB_EVENT_STOPPED 0x03
#define KB_EVENT_TERMINATED 0x04
#define KB_EVENT_JOB_CONFIG_FAULT 0x40
#define KB_EVENT_JOB_READ_FAULT 0x42
#define KB_EVENT_JOB_BUS_FAULT 0x48
#define KB_EVENT_DATA_INVALID_FAULT 0x58
#define KB_EVENT_UNKNOWN 0x7f
#define KB_EVENT_TRANSLATION_FAULT_LEVEL1 0xc1
#define KB_EVENT_PERMISSION_FAULT 0xc8
#define KB_EVENT_SW (1u << 14)
#define KB_EVENT_SW_SUCCESS (1u << 13)
#define KB_EVENT_SW_INFO (2u << 11)
#define KB_EVENT_MEM_GROWTH_FAILED (KB_EVENT_SW | 0x000)
#define KB_EVENT_JOB_CANCELLED (KB_EVENT_SW | 0x002)
#define KB_EVENT_JOB_INVALID (KB_EVENT_SW | 0x003)
#define KB_EVENT_DRV_TERMINATED (KB_EVENT_SW | KB_EVENT_SW_SUCCESS | KB_EVENT_SW_INFO)

struct kb_event {
	uint32_t event_code;
	uint8_t atom_number;
	uint8_t padding[3];
	struct kb_udata udata;
};

/* The soft job SOFT_DUMP_CPU_GPU_TIME writes this at the atom's jc. */
struct kb_dump_cpu_gpu_counters {
	uint64_t system_time;
	uint64_t cycle_counter;
	uint64_t sec;
	uint32_t usec;
	uint8_t padding[36];
};

/* GET_CPU_GPU_TIMEINFO request bits. */
#define KB_TIMEINFO_MONOTONIC 1u
#define KB_TIMEINFO_TIMESTAMP 2u
#define KB_TIMEINFO_CYCLE_COUNTER 4u
#define KB_TIMEINFO_KERNEL_SOURCE (1u << 30)
#define KB_TIMEINFO_USER_SOURCE (1u << 31)

_Static_assert(sizeof(struct kb_atom_v2) == 56, "atom v2 is 56 bytes");
_Static_assert(sizeof(struct kb_atom_v3) == 64, "atom v3 is 64 bytes");
_Static_assert(sizeof(struct kb_event) == 24, "event records are 24 bytes");
_Static_assert(sizeof(union kb_mem_alloc) == 32, "mem_alloc");
_Static_assert(sizeof(struct kb_mem_jit_init) == 24, "jit_init");
_Static_assert(sizeof(union kb_cpu_gpu_timeinfo) == 32, "timeinfo");
_Static_assert(sizeof(struct kb_dump_cpu_gpu_counters) == 64, "dump");

#endif
