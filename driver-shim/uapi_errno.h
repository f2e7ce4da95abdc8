/* SPDX-License-Identifier: MIT */
/*
 * errno values the shim hands back to clients. The core cannot include
 * libc's <errno.h>, and the numbers must be the ones a Linux kernel uses on
 * x86-64 and arm64 (the asm-generic set), because they travel unchanged to
 * the client as the result of its syscall.
 */
#ifndef VGPU_SHIM_UAPI_ERRNO_H
#define VGPU_SHIM_UAPI_ERRNO_H

#define SHIM_EPERM 1
#define SHIM_ENOENT 2
#define SHIM_ESRCH 3
#define SHIM_EINTR 4
#define SHIM_EIO 5
#define SHIM_EBADF 9
#define SHIM_EAGAIN 11
#define SHIM_ENOMEM 12
#define SHIM_EACCES 13
#define SHIM_EFAULT 14
#define SHIM_EBUSY 16
#define SHIM_EEXIST 17
#define SHIM_ENODEV 19
#define SHIM_EINVAL 22
#define SHIM_EMFILE 24
#define SHIM_ENOTTY 25
#define SHIM_ENOSPC 28
#define SHIM_ESPIPE 29
#define SHIM_ERANGE 34
#define SHIM_ENOSYS 38
#define SHIM_ENOBUFS 105
#define SHIM_ETIMEDOUT 110
#define SHIM_EOPNOTSUPP 95
#define SHIM_ETIME 62
#define SHIM_EOVERFLOW 75
#define SHIM_ECANCELED 125

#endif
