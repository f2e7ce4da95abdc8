// SPDX-License-Identifier: MIT
/*
 * A panfrost client for the guest of `vgpu system` (tests/dbt/system_boot.c
 * runs it from the initramfs's shell after panfrost.ko has probed). Jobs go
 * through the kernel driver's UAPI on /dev/dri/renderD128: the guest kernel
 * maps each buffer in the GPU's page tables, programs the Job Manager and
 * takes the JOB interrupt; the GPU reads and writes guest RAM.
 *
 *   system_gpu [write]  one WRITE_VALUE job
 *   system_gpu vadd     a COMPUTE job: a hand-assembled Bifrost vector add
 *                       (tests/shader/bi_job.h), every output checked
 *   system_gpu long     an honest job of seconds of interpretation
 *                       (tp_long_loop of bi_progs.h), every output checked
 *   system_gpu forever  a shader that never ends, which only panfrost's
 *                       job timeout and reset can stop; then a vector add,
 *                       which must run right after the reset
 *   system_gpu fault    a vector add whose input a is at a GPU VA nothing
 *                       maps: panfrost reports the MMU fault; then a
 *                       vector add that must run right
 *   system_gpu jobfault job faults: a WRITE_VALUE job of an undefined
 *                       type, a vector add whose shader's words encode
 *                       no clause; then a vector add that must run right
 *
 * The shaders are encoded here, in the guest, by the same test encoder
 * the model's own tests use (linked with the ISA tables, shader/).
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "driver-shim/uapi_drm.h"
#include "shader/bi_progs.h"
#include "vgpu/regs.h"

#define IMM 0x0123456789abcdefull
#define TARGET 256 /* where in the buffer the WRITE_VALUE job writes */
#define VADD_GROUPS 64
/* Below the 32 MiB panfrost never hands out, so nothing maps it. */
#define UNMAPPED_VA 0x100000ull
/* Guest seconds WAIT_BO allows: longer than panfrost's job timeout, so
 * only the driver ends a runaway job. */
#define WAIT_S 60

static int fd = -1;

static int fail(const char *what)
{
	printf("system_gpu: %s failed\n", what);
	return 1;
}

static uint64_t guest_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000 + (uint64_t)t.tv_nsec / 1000000;
}

/* A buffer object of @size bytes mapped in the GPU and here. */
struct gbo {
	uint32_t handle;
	uint64_t va;
	uint8_t *mem;
};

static int bo_new(uint32_t size, struct gbo *bo)
{
	struct pan_create_bo_arg cb = { .size = size };
	struct pan_mmap_bo_arg mb = { 0 };

	if (ioctl(fd, DRM_IOCTL_PANFROST_CREATE_BO, &cb))
		return fail("CREATE_BO");
	mb.handle = cb.handle;
	if (ioctl(fd, DRM_IOCTL_PANFROST_MMAP_BO, &mb))
		return fail("MMAP_BO");
	bo->mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)mb.offset);
	if (bo->mem == MAP_FAILED)
		return fail("mmap");
	bo->handle = cb.handle;
	bo->va = cb.offset;
	return 0;
}

/* Submits the chain at @jc in @bo and waits for the BO to be idle. */
static int run_job(struct gbo *bo, uint64_t jc, const char *name)
{
	struct pan_submit_arg sub = { .jc = jc, .bo_handles = (uintptr_t)&bo->handle,
				      .bo_handle_count = 1 };
	struct timespec now;
	uint64_t t0 = guest_ms();

	if (ioctl(fd, DRM_IOCTL_PANFROST_SUBMIT, &sub))
		return fail("SUBMIT");
	clock_gettime(CLOCK_MONOTONIC, &now);
	struct pan_wait_bo_arg wb = {
		.handle = bo->handle,
		.timeout_ns = (now.tv_sec + WAIT_S) * 1000000000ll + now.tv_nsec,
	};
	if (ioctl(fd, DRM_IOCTL_PANFROST_WAIT_BO, &wb))
		return fail("WAIT_BO");
	printf("system_gpu: %s job ended after %llu ms of guest time\n", name,
	       (unsigned long long)(guest_ms() - t0));
	return 0;
}

/* The job header (32 bytes) and the WRITE_VALUE payload of @type after
 * it, in @bo. */
static void put_write_value(struct gbo *bo, uint32_t type)
{
	uint32_t w4 = MALI_JOB_IS_64B | MALI_JOB_TYPE_WRITE_VALUE << 1 | 1u << 16;
	uint64_t target = bo->va + TARGET, imm = IMM;

	memset(bo->mem, 0, 128);
	memcpy(bo->mem + 16, &w4, 4);
	memcpy(bo->mem + 32, &target, 8);
	memcpy(bo->mem + 40, &type, 4);
	memcpy(bo->mem + 48, &imm, 8);
}

static int run_write(void)
{
	struct gbo bo;
	uint64_t got;
	if (bo_new(4096, &bo))
		return 1;
	put_write_value(&bo, MALI_WRITE_VALUE_IMM64);
	if (run_job(&bo, bo.va, "write-value"))
		return 1;
	memcpy(&got, bo.mem + TARGET, 8);
	printf("system_gpu: job at GPU VA 0x%llx wrote 0x%016llx (%s)\n",
	       (unsigned long long)bo.va, (unsigned long long)got, got == IMM ? "ok" : "wrong");
	return got == IMM ? 0 : 1;
}

/* The job's status word, which the GPU writes back into its header. */
static uint32_t job_status(struct tjob *tj)
{
	return __atomic_load_n(tj32(tj, TJ_JOB), __ATOMIC_ACQUIRE);
}

static int report(const char *name, struct tjob *tj, int bad, unsigned n)
{
	uint32_t st = job_status(tj);
	if (bad < 0)
		printf("system_gpu: %s: %u outputs right, job status 0x%x (ok)\n", name, n, st);
	else
		printf("system_gpu: %s: output %d wrong, job status 0x%x\n", name, bad, st);
	return bad < 0 && st == MALI_EXC_DONE ? 0 : 1;
}

/* A BO of @size bytes for a test COMPUTE job (bi_job.h's layout). */
static int tjob_bo(uint32_t size, struct gbo *bo, struct tjob *tj)
{
	if (bo_new(size, bo))
		return 1;
	tj->mem = bo->mem;
	tj->va = bo->va;
	return 0;
}

/* A BO holding the vector add's job, shader and data. */
static int vadd_bo(struct gbo *bo, struct tjob *tj)
{
	if (tjob_bo(TJ_SIZE, bo, tj))
		return 1;
	if (!tjob_vecadd(tj, VADD_GROUPS))
		return fail("encoding the vector add");
	tj32(tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
	return 0;
}

static int run_vadd(void)
{
	struct gbo bo;
	struct tjob tj;
	if (vadd_bo(&bo, &tj))
		return 1;
	if (run_job(&bo, bo.va + TJ_JOB, "vadd"))
		return 1;
	return report("vadd", &tj, tjob_vecadd_check(&tj, VADD_GROUPS), 8 * VADD_GROUPS);
}

static int run_long(void)
{
	struct gbo bo;
	struct tjob tj;
	if (tjob_bo(TP_LONG_BO, &bo, &tj))
		return 1;
	if (!tp_long_loop(&tj))
		return fail("encoding the loop");
	if (run_job(&bo, bo.va + TJ_JOB, "long"))
		return 1;
	return report("long", &tj, tp_long_loop_check(&tj), 16 * TP_LONG_GROUPS);
}

static int run_forever(void)
{
	struct gbo bo;
	struct tjob tj;
	if (tjob_bo(TJ_SIZE, &bo, &tj))
		return 1;
	if (!tjob_forever(&tj))
		return fail("encoding the endless loop");
	if (run_job(&bo, bo.va + TJ_JOB, "forever"))
		return 1;
	/* The first store shows the shader ran; the last is never reached. */
	uint32_t first;
	memcpy(&first, tj.mem + TJ_O, 4);
	printf("system_gpu: forever: %s, job status 0x%x\n",
	       first ? "ran and was stopped" : "never ran", job_status(&tj));
	return first ? run_vadd() : 1;
}

static int run_fault(void)
{
	struct gbo bo;
	struct tjob tj;
	if (vadd_bo(&bo, &tj))
		return 1;
	tj64(&tj, TJ_PUSH, UNMAPPED_VA); /* u0: a */
	if (run_job(&bo, bo.va + TJ_JOB, "fault"))
		return 1;
	printf("system_gpu: fault: job status 0x%x\n", job_status(&tj));
	return run_vadd();
}

static int run_jobfault(void)
{
	struct gbo wv, bo;
	struct tjob tj;
	if (bo_new(4096, &wv))
		return 1;
	put_write_value(&wv, 0xff); /* no such WRITE_VALUE type */
	if (run_job(&wv, wv.va, "bad-type"))
		return 1;
	if (vadd_bo(&bo, &tj))
		return 1;
	memset(tj.mem + TJ_CODE, 0xff, 64); /* no clause encodes so */
	if (run_job(&bo, bo.va + TJ_JOB, "bad-shader"))
		return 1;
	return run_vadd();
}

static const struct {
	const char *name;
	int (*run)(void);
} modes[] = {
	{ "write", run_write },
	{ "vadd", run_vadd },
	{ "long", run_long },
	{ "forever", run_forever },
	{ "fault", run_fault },
	{ "jobfault", run_jobfault },
};

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "write";
	struct pan_get_param_arg gp = { .param = PAN_PARAM_GPU_PROD_ID };

	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = open("/dev/dri/renderD128", O_RDWR);
	if (fd < 0)
		return fail("open /dev/dri/renderD128");
	if (ioctl(fd, DRM_IOCTL_PANFROST_GET_PARAM, &gp))
		return fail("GET_PARAM");
	printf("system_gpu: GPU_PROD_ID 0x%llx\n", (unsigned long long)gp.value);
	for (size_t k = 0; k < sizeof(modes) / sizeof(modes[0]); k++)
		if (!strcmp(mode, modes[k].name))
			return modes[k].run();
	printf("system_gpu: usage: system_gpu [write|vadd|long|forever|fault|jobfault]\n");
	return 2;
}
