/* SPDX-License-Identifier: MIT */
/*
 * The Linux ioctl request encoding (asm-generic, used by x86-64 and arm64):
 * direction in bits 31..30, argument size in 29..16, type in 15..8, number
 * in 7..0. FUSE only forwards "restricted" ioctls, whose argument size is
 * taken from this encoding, so the shim decodes it the same way.
 */
#ifndef VGPU_SHIM_UAPI_IOC_H
#define VGPU_SHIM_UAPI_IOC_H

#define SHIM_IOC_NONE 0u
#define SHIM_IOC_WRITE 1u /* user -> driver */
#define SHIM_IOC_READ 2u  /* driver -> user */

#define SHIM_IOC(dir, type, nr, size)                                  \
	(((unsigned)(dir) << 30) | ((unsigned)(size) << 16) |          \
	 ((unsigned)(type) << 8) | (unsigned)(nr))
#define SHIM_IO(type, nr) SHIM_IOC(SHIM_IOC_NONE, type, nr, 0)
#define SHIM_IOR(type, nr, T) SHIM_IOC(SHIM_IOC_READ, type, nr, sizeof(T))
#define SHIM_IOW(type, nr, T) SHIM_IOC(SHIM_IOC_WRITE, type, nr, sizeof(T))
#define SHIM_IOWR(type, nr, T) \
	SHIM_IOC(SHIM_IOC_READ | SHIM_IOC_WRITE, type, nr, sizeof(T))

#define SHIM_IOC_DIR(cmd) (((cmd) >> 30) & 3u)
#define SHIM_IOC_SIZE(cmd) (((cmd) >> 16) & 0x3fffu)
#define SHIM_IOC_TYPE(cmd) (((cmd) >> 8) & 0xffu)
#define SHIM_IOC_NR(cmd) ((cmd) & 0xffu)

/* The largest argument any supported ioctl has, plus slack for DRM's
 * "accept a longer struct from newer user space" rule. */
#define SHIM_IOC_MAX_ARG 256

#endif
