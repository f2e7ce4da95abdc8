// SPDX-License-Identifier: MIT
/*
 * Fuzz target: compute jobs with arbitrary shader code through the real
 * driver (panfrost, in-process nodes: fuse-dev/inproc.h) on the whole
 * model: job manager, MMU, interpreter, watchdog. The driver's limits
 * are 1 ms of GPU time and 5 ms of host time (a sanitizer build
 * interprets far slower, so host time ends a loop first; a job that does
 * not loop takes well under a millisecond, and a looping one at 50 ms
 * cost as much as 300 others), so a shader that loops is the clause budget's
 * business: the watchdog soft-stops it, hard-stops it, and the slot must be
 * free for the next input. Each input must end with its job done, faulted or
 * stopped, within a generous host-time bound (else this aborts: a hang).
 *
 * Input: [lx_bits][lx][groups][uniforms][wls][flags] shape the job as
 * tests/shader/bi_job.h writes it (vector-add buffers a, b, out in the same
 * BO); with flags bit 0, 32 bytes of push uniforms follow (else a, 0, out,
 * 2 as the vector add has them); the rest is the shader, clauses from the
 * BO's code offset on.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "node/inproc_bo.h"
#include "shader/bi_job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Host time a job may take, stops included, before this calls it a hang:
 * far beyond the 1 ms of GPU time the watchdog allows. */
#define HANG_SECS 60

static struct vgpu_inproc *ip;
static struct vgpu_inproc_file *f;
static struct tjob tj;
static uint32_t sync_handle;
/* The inputs a and b each job starts from (made once). */
static float ab[2][0x2000 / 4];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71, .job_timeout_ms = 5,
				   .job_gpu_timeout_ms = 1 };
	struct drm_syncobj_create_arg sc = { 0 };

	(void)argc;
	(void)argv;
	os_log_set_level(OS_LOG_ERR); /* the watchdog's and faults' warnings */
	for (unsigned i = 0; i < 0x2000 / 4; i++) {
		ab[0][i] = (float)i * 1.5f;
		ab[1][i] = 100.0f - (float)(i % 64);
	}
	ip = vgpu_inproc_create(&cfg);
	if (!ip || vgpu_inproc_open(ip, "renderD128", &f) ||
	    vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_CREATE, &sc))
		abort();
	sync_handle = sc.handle;
	tj.mem = pan_bo(f, TJ_SIZE, &tj.va);
	if (tj.mem == MAP_FAILED)
		abort();
	return 0;
}

/* Submits the job and waits for its out-fence: false if it never came. */
static bool run(void)
{
	struct pan_submit_arg s = { .jc = tj.va + TJ_JOB, .out_sync = sync_handle };
	struct drm_syncobj_wait_arg w = { .handles = (uintptr_t)&sync_handle,
					  .count_handles = 1 };
	struct timespec ts;

	if (vgpu_inproc_ioctl(f, DRM_IOCTL_PANFROST_SUBMIT, &s))
		return true; /* refused: nothing runs */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	w.timeout_nsec = (ts.tv_sec + HANG_SECS) * 1000000000ll;
	return !vgpu_inproc_ioctl(f, DRM_IOCTL_SYNCOBJ_WAIT, &w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t h[6] = { 0 };
	unsigned lx_bits, lx, groups;
	size_t code;

	memcpy(h, data, OS_MIN(size, sizeof(h)));
	data += OS_MIN(size, sizeof(h));
	size -= OS_MIN(size, sizeof(h));
	lx_bits = 1 + h[0] % 6;
	lx = 1 + h[1] % (1u << lx_bits);
	groups = 1 + h[2] % 4;
	tjob_write(&tj, lx_bits, lx, groups, h[3] % 9, h[4] % 12);
	tj32(&tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	tj64(&tj, TJ_PUSH, tj.va + TJ_A);
	tj64(&tj, TJ_PUSH + 8, 0);
	tj64(&tj, TJ_PUSH + 16, tj.va + TJ_O);
	tj64(&tj, TJ_PUSH + 24, 2);
	if (h[5] & 1) {
		size_t n = OS_MIN(size, (size_t)32);

		memcpy(tj.mem + TJ_PUSH, data, n);
		data += n;
		size -= n;
	}
	memcpy(tj.mem + TJ_A, ab[0], sizeof(ab[0]));
	memcpy(tj.mem + TJ_B, ab[1], sizeof(ab[1]));
	memset(tj.mem + TJ_O, 0, TJ_SIZE - TJ_O);
	code = OS_MIN(size, (size_t)(TJ_A - TJ_CODE));
	memset(tj.mem + TJ_CODE, 0, TJ_A - TJ_CODE);
	memcpy(tj.mem + TJ_CODE, data, code);
	if (!run())
		abort(); /* the watchdog did not end the job */
	return 0;
}
