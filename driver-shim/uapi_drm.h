/* SPDX-License-Identifier: MIT */
/*
 * The DRM core ioctls a render-node client uses, and the panfrost driver's
 * own ioctls, as Linux 6.1 (Debian 12, the kernel Mesa 22.3 is paired with)
 * defines them for 64-bit clients.
 */
#ifndef VGPU_SHIM_UAPI_DRM_H
#define VGPU_SHIM_UAPI_DRM_H

#include "os/os.h"
#include "driver-shim/uapi_ioc.h"

#define DRM_IOC_TYPE 'd'
#define DRM_COMMAND_BASE 0x40
#define DRM_COMMAND_END 0xa0

struct drm_version_arg {
	int32_t version_major, version_minor, version_patchlevel;
	uint32_t pad;
	uint64_t name_len, name;
	uint64_t date_len, date;
	uint64_t desc_len, desc;
};
struct drm_unique_arg {
	uint64_t unique_len, unique;
};
struct drm_gem_close_arg {
	uint32_t handle, pad;
};
struct drm_gem_flink_arg {
	uint32_t handle, name;
};
struct drm_gem_open_arg {
	uint32_t name, handle;
	uint64_t size;
};
struct drm_get_cap_arg {
	uint64_t capability, value;
};
struct drm_set_client_cap_arg {
	uint64_t capability, value;
};
struct drm_prime_handle_arg {
	uint32_t handle, flags;
	int32_t fd;
};
struct drm_syncobj_create_arg {
	uint32_t handle, flags;
};
struct drm_syncobj_destroy_arg {
	uint32_t handle, pad;
};
struct drm_syncobj_handle_arg {
	uint32_t handle, flags;
	int32_t fd;
	uint32_t pad;
};
struct drm_syncobj_wait_arg {
	uint64_t handles;
	int64_t timeout_nsec;
	uint32_t count_handles, flags, first_signaled, pad;
	uint64_t deadline_nsec; /* newer kernels; older clients send 32 bytes */
};
struct drm_syncobj_timeline_wait_arg {
	uint64_t handles, points;
	int64_t timeout_nsec;
	uint32_t count_handles, flags, first_signaled, pad;
	uint64_t deadline_nsec;
};
struct drm_syncobj_array_arg {
	uint64_t handles;
	uint32_t count_handles, pad;
};
struct drm_syncobj_timeline_array_arg {
	uint64_t handles, points;
	uint32_t count_handles, flags;
};
struct drm_syncobj_transfer_arg {
	uint32_t src_handle, dst_handle;
	uint64_t src_point, dst_point;
	uint32_t flags, pad;
};

/* Core ioctl numbers (the _IOC_NR part; DRM dispatches on it alone). */
#define DRM_NR_VERSION 0x00
#define DRM_NR_GET_UNIQUE 0x01
#define DRM_NR_GET_MAGIC 0x02
#define DRM_NR_SET_VERSION 0x07
#define DRM_NR_GEM_CLOSE 0x09
#define DRM_NR_GEM_FLINK 0x0a
#define DRM_NR_GEM_OPEN 0x0b
#define DRM_NR_GET_CAP 0x0c
#define DRM_NR_SET_CLIENT_CAP 0x0d
#define DRM_NR_PRIME_HANDLE_TO_FD 0x2d
#define DRM_NR_PRIME_FD_TO_HANDLE 0x2e
#define DRM_NR_SYNCOBJ_CREATE 0xbf
#define DRM_NR_SYNCOBJ_DESTROY 0xc0
#define DRM_NR_SYNCOBJ_HANDLE_TO_FD 0xc1
#define DRM_NR_SYNCOBJ_FD_TO_HANDLE 0xc2
#define DRM_NR_SYNCOBJ_WAIT 0xc3
#define DRM_NR_SYNCOBJ_RESET 0xc4
#define DRM_NR_SYNCOBJ_SIGNAL 0xc5
#define DRM_NR_SYNCOBJ_TIMELINE_WAIT 0xca
#define DRM_NR_SYNCOBJ_QUERY 0xcb
#define DRM_NR_SYNCOBJ_TRANSFER 0xcc
#define DRM_NR_SYNCOBJ_TIMELINE_SIGNAL 0xcd

#define DRM_IOCTL_VERSION SHIM_IOWR(DRM_IOC_TYPE, 0x00, struct drm_version_arg)
#define DRM_IOCTL_GEM_CLOSE SHIM_IOW(DRM_IOC_TYPE, 0x09, struct drm_gem_close_arg)
#define DRM_IOCTL_GET_CAP SHIM_IOWR(DRM_IOC_TYPE, 0x0c, struct drm_get_cap_arg)
#define DRM_IOCTL_SET_CLIENT_CAP \
	SHIM_IOW(DRM_IOC_TYPE, 0x0d, struct drm_set_client_cap_arg)
#define DRM_IOCTL_PRIME_HANDLE_TO_FD \
	SHIM_IOWR(DRM_IOC_TYPE, 0x2d, struct drm_prime_handle_arg)
#define DRM_IOCTL_PRIME_FD_TO_HANDLE \
	SHIM_IOWR(DRM_IOC_TYPE, 0x2e, struct drm_prime_handle_arg)
#define DRM_IOCTL_SYNCOBJ_CREATE \
	SHIM_IOWR(DRM_IOC_TYPE, 0xbf, struct drm_syncobj_create_arg)
#define DRM_IOCTL_SYNCOBJ_DESTROY \
	SHIM_IOWR(DRM_IOC_TYPE, 0xc0, struct drm_syncobj_destroy_arg)
#define DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD \
	SHIM_IOWR(DRM_IOC_TYPE, 0xc1, struct drm_syncobj_handle_arg)
#define DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE \
	SHIM_IOWR(DRM_IOC_TYPE, 0xc2, struct drm_syncobj_handle_arg)
/* The classic 32-byte form most user space still sends. */
#define DRM_SYNCOBJ_WAIT_V1_SIZE 32
#define DRM_SYNCOBJ_TIMELINE_WAIT_V1_SIZE 40
#define DRM_IOCTL_SYNCOBJ_WAIT \
	SHIM_IOC(SHIM_IOC_READ | SHIM_IOC_WRITE, DRM_IOC_TYPE, 0xc3, DRM_SYNCOBJ_WAIT_V1_SIZE)
#define DRM_IOCTL_SYNCOBJ_RESET \
	SHIM_IOWR(DRM_IOC_TYPE, 0xc4, struct drm_syncobj_array_arg)
#define DRM_IOCTL_SYNCOBJ_SIGNAL \
	SHIM_IOWR(DRM_IOC_TYPE, 0xc5, struct drm_syncobj_array_arg)
#define DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT                                 \
	SHIM_IOC(SHIM_IOC_READ | SHIM_IOC_WRITE, DRM_IOC_TYPE, 0xca,    \
		 DRM_SYNCOBJ_TIMELINE_WAIT_V1_SIZE)
#define DRM_IOCTL_SYNCOBJ_QUERY \
	SHIM_IOWR(DRM_IOC_TYPE, 0xcb, struct drm_syncobj_timeline_array_arg)
#define DRM_IOCTL_SYNCOBJ_TRANSFER \
	SHIM_IOWR(DRM_IOC_TYPE, 0xcc, struct drm_syncobj_transfer_arg)
#define DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL \
	SHIM_IOWR(DRM_IOC_TYPE, 0xcd, struct drm_syncobj_timeline_array_arg)

#define DRM_CAP_DUMB_BUFFER 0x1
#define DRM_CAP_PRIME 0x5
#define DRM_PRIME_CAP_IMPORT 0x1
#define DRM_PRIME_CAP_EXPORT 0x2
#define DRM_CAP_TIMESTAMP_MONOTONIC 0x6
#define DRM_CAP_SYNCOBJ 0x13
#define DRM_CAP_SYNCOBJ_TIMELINE 0x14

#define DRM_CLOEXEC 02000000u
#define DRM_RDWR 02u

#define DRM_SYNCOBJ_CREATE_SIGNALED (1u << 0)
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL (1u << 0)
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT (1u << 1)
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_AVAILABLE (1u << 2)
#define DRM_SYNCOBJ_WAIT_FLAGS_WAIT_DEADLINE (1u << 3)
#define DRM_SYNCOBJ_QUERY_FLAGS_LAST_SUBMITTED (1u << 0)
#define DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE (1u << 0)
#define DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE (1u << 0)

/* panfrost */
struct pan_submit_arg {
	uint64_t jc, in_syncs;
	uint32_t in_sync_count, out_sync;
	uint64_t bo_handles;
	uint32_t bo_handle_count, requirements;
};
struct pan_wait_bo_arg {
	uint32_t handle, pad;
	int64_t timeout_ns; /* absolute CLOCK_MONOTONIC */
};
struct pan_create_bo_arg {
	uint32_t size, flags, handle, pad;
	uint64_t offset;
};
struct pan_mmap_bo_arg {
	uint32_t handle, flags;
	uint64_t offset;
};
struct pan_get_param_arg {
	uint32_t param, pad;
	uint64_t value;
};
struct pan_get_bo_offset_arg {
	uint32_t handle, pad;
	uint64_t offset;
};
struct pan_perfcnt_enable_arg {
	uint32_t enable, counterset;
};
struct pan_perfcnt_dump_arg {
	uint64_t buf_ptr;
};
struct pan_madvise_arg {
	uint32_t handle, madv, retained;
};

#define PAN_NR_SUBMIT 0x00
#define PAN_NR_WAIT_BO 0x01
#define PAN_NR_CREATE_BO 0x02
#define PAN_NR_MMAP_BO 0x03
#define PAN_NR_GET_PARAM 0x04
#define PAN_NR_GET_BO_OFFSET 0x05
#define PAN_NR_PERFCNT_ENABLE 0x06
#define PAN_NR_PERFCNT_DUMP 0x07
#define PAN_NR_MADVISE 0x08
#define PAN_NUM_IOCTLS 9

#define PAN_IOCTL(dir, nr, T) \
	SHIM_IOC(dir, DRM_IOC_TYPE, DRM_COMMAND_BASE + (nr), sizeof(T))
#define PAN_RW (SHIM_IOC_READ | SHIM_IOC_WRITE)
#define DRM_IOCTL_PANFROST_SUBMIT PAN_IOCTL(SHIM_IOC_WRITE, PAN_NR_SUBMIT, struct pan_submit_arg)
#define DRM_IOCTL_PANFROST_WAIT_BO PAN_IOCTL(SHIM_IOC_WRITE, PAN_NR_WAIT_BO, struct pan_wait_bo_arg)
#define DRM_IOCTL_PANFROST_CREATE_BO PAN_IOCTL(PAN_RW, PAN_NR_CREATE_BO, struct pan_create_bo_arg)
#define DRM_IOCTL_PANFROST_MMAP_BO PAN_IOCTL(PAN_RW, PAN_NR_MMAP_BO, struct pan_mmap_bo_arg)
#define DRM_IOCTL_PANFROST_GET_PARAM PAN_IOCTL(PAN_RW, PAN_NR_GET_PARAM, struct pan_get_param_arg)
#define DRM_IOCTL_PANFROST_GET_BO_OFFSET \
	PAN_IOCTL(PAN_RW, PAN_NR_GET_BO_OFFSET, struct pan_get_bo_offset_arg)
#define DRM_IOCTL_PANFROST_PERFCNT_ENABLE \
	PAN_IOCTL(SHIM_IOC_WRITE, PAN_NR_PERFCNT_ENABLE, struct pan_perfcnt_enable_arg)
#define DRM_IOCTL_PANFROST_PERFCNT_DUMP \
	PAN_IOCTL(SHIM_IOC_WRITE, PAN_NR_PERFCNT_DUMP, struct pan_perfcnt_dump_arg)
#define DRM_IOCTL_PANFROST_MADVISE PAN_IOCTL(PAN_RW, PAN_NR_MADVISE, struct pan_madvise_arg)

#define PAN_JD_REQ_FS (1u << 0)
#define PAN_JD_REQ_CYCLE_COUNT (1u << 1) /* driver 1.3 */
#define PAN_BO_NOEXEC 1u
#define PAN_BO_HEAP 2u
#define PAN_MADV_WILLNEED 0u
#define PAN_MADV_DONTNEED 1u

enum pan_param {
	PAN_PARAM_GPU_PROD_ID,
	PAN_PARAM_GPU_REVISION,
	PAN_PARAM_SHADER_PRESENT,
	PAN_PARAM_TILER_PRESENT,
	PAN_PARAM_L2_PRESENT,
	PAN_PARAM_STACK_PRESENT,
	PAN_PARAM_AS_PRESENT,
	PAN_PARAM_JS_PRESENT,
	PAN_PARAM_L2_FEATURES,
	PAN_PARAM_CORE_FEATURES,
	PAN_PARAM_TILER_FEATURES,
	PAN_PARAM_MEM_FEATURES,
	PAN_PARAM_MMU_FEATURES,
	PAN_PARAM_THREAD_FEATURES,
	PAN_PARAM_MAX_THREADS,
	PAN_PARAM_THREAD_MAX_WORKGROUP_SZ,
	PAN_PARAM_THREAD_MAX_BARRIER_SZ,
	PAN_PARAM_COHERENCY_FEATURES,
	PAN_PARAM_TEXTURE_FEATURES0,
	PAN_PARAM_TEXTURE_FEATURES3 = PAN_PARAM_TEXTURE_FEATURES0 + 3,
	PAN_PARAM_JS_FEATURES0,
	PAN_PARAM_JS_FEATURES15 = PAN_PARAM_JS_FEATURES0 + 15,
	PAN_PARAM_NR_CORE_GROUPS,
	PAN_PARAM_THREAD_TLS_ALLOC,
	PAN_PARAM_AFBC_FEATURES,
	/* driver 1.3 */
	PAN_PARAM_SYSTEM_TIMESTAMP,
	PAN_PARAM_SYSTEM_TIMESTAMP_FREQUENCY,
	PAN_PARAM_COUNT,
};

/* mmap offsets handed out by MMAP_BO start above 4 GiB, as DRM's do. */
#define DRM_FILE_PAGE_OFFSET_START (1ull << 32)

_Static_assert(sizeof(struct drm_version_arg) == 64, "drm_version");
_Static_assert(sizeof(struct drm_syncobj_wait_arg) == 40, "syncobj_wait");
_Static_assert(sizeof(struct drm_syncobj_timeline_wait_arg) == 48, "tl_wait");
_Static_assert(sizeof(struct drm_prime_handle_arg) == 12, "prime");
_Static_assert(sizeof(struct pan_submit_arg) == 40, "submit");
_Static_assert(sizeof(struct pan_create_bo_arg) == 24, "create_bo");
_Static_assert(sizeof(struct pan_madvise_arg) == 12, "madvise");
_Static_assert(PAN_PARAM_AFBC_FEATURES == 40, "param numbering");
_Static_assert(PAN_PARAM_SYSTEM_TIMESTAMP_FREQUENCY == 42, "param numbering");

#endif
