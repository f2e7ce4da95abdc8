// SPDX-License-Identifier: MIT
/*
 * Fuzz target: random page tables and job chains for the GPU model. The
 * input shapes a small physical memory: well-formed page tables (either
 * format) with some descriptors overwritten by input bytes, job
 * descriptors whose types, links and dependencies come from the input,
 * then a few chains on random slots and address spaces, plus some raw
 * register writes. The harness acts like a driver that gives up on every
 * MMU fault (kbase) and stops whatever still runs after a budget of
 * modelled work (a chain that loops) or once nothing moves (one that
 * stalls), then resets: the model must neither crash nor hang.
 *
 * A GPU of each configuration is made once and kept for later inputs,
 * each of which starts with a soft reset as a driver's probe does (the
 * state a fresh GPU has: vgpu_create() resets it the same way): making
 * and ending one, its slot threads included, took a third of an input's
 * time. One that may still be inside a chain when its input ends (a
 * reset written while a chain ran, a slot still active) is settled
 * first (settle()), so that the next input's memory is never seen by an
 * older chain; if that fails, it is destroyed, which waits for its
 * threads, and made again. All are made before the first input and
 * kept: threads made during inputs had libFuzzer look for leaks (more
 * allocations than frees), and once some 32768 threads had come and gone
 * (pid_max), LeakSanitizer took a live slot thread's reused ID for a dead
 * thread's and missed its stack, so its chain looked leaked.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "os/os.h"
#include "vgpu/gpu.h"
#include "vgpu/regs.h"

#define PA_BASE 0x80000000ull
#define NPAGES 48
#define PG 4096ull
#define JOB_VA 0x100000ull	/* 8 mapped pages of jobs and data */
#define JOB_PAGES 8

struct input {
	const uint8_t *p;
	size_t n;
};

static uint64_t take(struct input *in, unsigned bytes)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < bytes; i++) {
		v |= (uint64_t)(in->n ? *in->p : 0) << (8 * i);
		if (in->n) {
			in->p++;
			in->n--;
		}
	}
	return v;
}

static uint8_t *mem;
/* Kept GPUs by [g52][cores - 1], each with the bus range of @mem. */
static struct vgpu *gpus[2][16];

static uint64_t *pte(uint64_t table_pa, unsigned idx)
{
	return (uint64_t *)(mem + (table_pa - PA_BASE)) + idx;
}

/* Tables at pages @t..@t + 3 (levels 0-3) map JOB_VA.. to the pages
 * from @data on (the input's: 0-3 and 8-15). */
static void build_tables(bool a64, unsigned t, unsigned data)
{
	uint64_t leaf = MALI_PTE_AF |
			(a64 ? MALI_PTE_TYPE_TABLE | MALI_A64_PTE_AP_RW :
			       MALI_PTE_TYPE_BLOCK | MALI_LPAE_PTE_READ |
				       MALI_LPAE_PTE_WRITE);

	for (unsigned l = 0; l < 3; l++)
		*pte(PA_BASE + (t + l) * PG, (JOB_VA >> (39 - 9 * l)) & 0x1ff) =
			(PA_BASE + (t + l + 1) * PG) | MALI_PTE_TYPE_TABLE;
	for (unsigned i = 0; i < JOB_PAGES; i++)
		*pte(PA_BASE + (t + 3) * PG, ((JOB_VA >> 12) & 0x1ff) + i) =
			(PA_BASE + (data + i) * PG) | leaf;
}

/* A reset written by the input itself while chains run: its GPU may
 * still be inside one afterwards (a slot thread ends a chain the reset
 * abandoned in its own time). */
static bool reset_written;

static void rd_wr(struct vgpu *gpu, uint32_t off, uint32_t v)
{
	if (off == MALI_GPU_COMMAND &&
	    (v == MALI_GPU_CMD_SOFT_RESET || v == MALI_GPU_CMD_HARD_RESET))
		reset_written = true;
	vgpu_write32(gpu, off, v);
}

static struct vgpu *gpu_get(bool g52, unsigned cores)
{
	struct vgpu **g = &gpus[g52][cores - 1];
	struct vgpu_config cfg;

	if (!*g && !vgpu_config_init(&cfg, g52 ? "g52" : "g71", cores) &&
	    (*g = vgpu_create(&cfg, NULL, NULL)) &&
	    vgpu_bus_add(*g, PA_BASE, NPAGES * PG, mem)) {
		vgpu_destroy(*g);
		*g = NULL;
	}
	return *g;
}

static void sleep_us(long us)
{
	struct timespec d = { 0, us * 1000 };

	nanosleep(&d, NULL);
}

/* The modelled clock: it advances only with work done (each job costs
 * the Job Manager's cycles, shaders their tuples), so it measures how far
 * a chain got whatever the host's load. */
static uint64_t cycles(struct vgpu *gpu)
{
	return vgpu_read32(gpu, MALI_GPU_CYCLE_COUNT_LO) |
	       (uint64_t)vgpu_read32(gpu, MALI_GPU_CYCLE_COUNT_HI) << 32;
}

/* A chain that loops is stopped after about this much work: some 160
 * jobs, more than the 64 descriptors there are, so one that does not loop
 * ends first unless its shaders work long. */
#define CHAIN_BUDGET 16384
/* Polls in a row without progress of the clock before a stalled chain
 * is stopped (a job waiting on a dependency that never comes). */
#define STALL_POLLS 40

/* Services interrupts like a driver until the submitted slots are done,
 * a looping chain used its budget or nothing moves any more. Returns the
 * slots still running. */
static uint32_t service(struct vgpu *gpu, uint32_t pending)
{
	uint64_t c0 = cycles(gpu), last = c0;
	unsigned still = 0;

	/* The cap on polls only bounds a clock that crawls (a shader's
	 * tuples at a time): each poll after the first 20 sleeps. */
	for (int r = 0; r < 2000 && pending; r++) {
		uint32_t job = vgpu_read32(gpu, MALI_JOB_IRQ_RAWSTAT);
		uint32_t mmu = vgpu_read32(gpu, MALI_MMU_IRQ_RAWSTAT);
		uint64_t now;

		for (unsigned s = 0; s < 3; s++)
			if (job & (MALI_JOB_IRQ_DONE(s) | MALI_JOB_IRQ_FAIL(s)))
				pending &= ~(1u << s);
		rd_wr(gpu, MALI_JOB_IRQ_CLEAR, job);
		for (unsigned as = 0; as < 8; as++) {
			if (!(mmu & (MALI_MMU_IRQ_PAGE_FAULT(as) |
				     MALI_MMU_IRQ_BUS_FAULT(as))))
				continue;
			rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSTAB_LO, 0);
			rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSTAB_HI, 0);
			rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSCFG_LO,
			      MALI_TRANSCFG_ADRMODE_UNMAPPED);
			rd_wr(gpu, MALI_AS(as) + MALI_AS_COMMAND,
			      MALI_AS_CMD_UPDATE);
		}
		rd_wr(gpu, MALI_MMU_IRQ_CLEAR, mmu);
		if (vgpu_read32(gpu, MALI_JOB_IRQ_JS_STATE) == 0 && !job)
			pending = 0;
		now = cycles(gpu);
		still = now == last ? still + 1 : 0;
		last = now;
		if (now - c0 > CHAIN_BUDGET || still > STALL_POLLS)
			break;
		if (pending && r > 20)
			sleep_us(20);
	}
	return pending;
}

static void power_on(struct vgpu *gpu)
{
	rd_wr(gpu, MALI_GPU_L2_PWRON_LO, 1);
	rd_wr(gpu, MALI_GPU_SHADER_PWRON_LO, ~0u);
}

/* Address space @as on the tables at @tt. */
static void as_setup(struct vgpu *gpu, unsigned as, uint64_t tt, bool a64)
{
	rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSTAB_LO, (uint32_t)tt);
	rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSTAB_HI, (uint32_t)(tt >> 32));
	rd_wr(gpu, MALI_AS(as) + MALI_AS_TRANSCFG_LO,
	      a64 ? MALI_TRANSCFG_ADRMODE_AARCH64_4K | (7u << MALI_TRANSCFG_INA_BITS_SHIFT) : 0);
	rd_wr(gpu, MALI_AS(as) + MALI_AS_COMMAND, MALI_AS_CMD_UPDATE);
}

/*
 * After a reset written while chains ran, a slot thread may still be
 * finishing the chain the reset abandoned. Resets again and runs a NULL
 * job on each slot (tables and job in pages 32-47, which the input never
 * maps): a slot thread takes a new chain only once it left the old one,
 * so each slot's DONE says it has. False if they did not all come.
 */
static bool settle(struct vgpu *gpu)
{
	uint32_t w4 = MALI_JOB_IS_64B | MALI_JOB_TYPE_NULL << 1 | 1u << 16, done = 0;

	memset(mem + 32 * PG, 0, 16 * PG);
	build_tables(true, 32, 40);
	memcpy(mem + 40 * PG + 16, &w4, 4);
	rd_wr(gpu, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	power_on(gpu);
	as_setup(gpu, 0, PA_BASE + 32 * PG, true);
	for (unsigned slot = 0; slot < 3; slot++) {
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_HEAD_NEXT_LO, (uint32_t)JOB_VA);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_HEAD_NEXT_HI, 0);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_CONFIG_NEXT, 0);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
	}
	for (int r = 0; r < 2000 && done != 7; r++) {
		uint32_t job = vgpu_read32(gpu, MALI_JOB_IRQ_RAWSTAT);

		done |= (job | job >> 16) & 7;
		if (r > 20)
			sleep_us(20);
	}
	return done == 7;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	os_log_set_level(OS_LOG_ERR);	/* unsupported-job warnings */
	mem = aligned_alloc(PG, NPAGES * PG);
	if (!mem)
		abort();
	for (unsigned i = 0; i < 2 * 16; i++)
		gpu_get(i & 1, 1 + i / 2);
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = { data, size };
	struct vgpu *gpu;
	uint32_t pending = 0;
	uint8_t flags;
	bool a64;

	memset(mem, 0, NPAGES * PG);
	flags = (uint8_t)take(&in, 1);
	a64 = flags & 1;
	gpu = gpu_get(flags & 2, 1 + (flags >> 4));
	if (!gpu)
		return 0;

	build_tables(a64, 0, 8);
	/* Corrupt some descriptors. */
	for (unsigned n = (unsigned)take(&in, 1) % 8; n; n--) {
		unsigned page = (unsigned)take(&in, 1) % 4;
		unsigned idx = (unsigned)take(&in, 2) % 512;

		*pte(PA_BASE + page * PG, idx) = take(&in, 8);
	}
	/* Jobs: 128-byte descriptors in the mapped pages. */
	for (unsigned j = 0; j < 64 && in.n; j++) {
		uint8_t *d = mem + (8 * PG) + j * 128;
		uint8_t shape = (uint8_t)take(&in, 1);
		uint32_t w4, w5;
		uint64_t next, target;

		for (unsigned i = 0; i < 128 && in.n && (shape & 0x80); i++)
			d[i] = (uint8_t)take(&in, 1);
		if (shape & 0x80)
			continue;	/* left fully random */
		w4 = MALI_JOB_IS_64B | ((shape % 11) << 1) |
		     ((uint32_t)take(&in, 1) % 16) << 16;
		w5 = (uint32_t)(take(&in, 1) % 16) |
		     ((uint32_t)(take(&in, 1) % 16) << 16);
		next = (shape & 0x40) ? JOB_VA + (take(&in, 1) % 64) * 128 : 0;
		memcpy(d + 16, &w4, 4);
		memcpy(d + 20, &w5, 4);
		memcpy(d + 24, &next, 8);
		target = JOB_VA + take(&in, 2) % (JOB_PAGES * PG);
		if (shape & 0x20)
			target = take(&in, 8);
		memcpy(d + 32, &target, 8);
		d[40] = (uint8_t)(take(&in, 1) % 9);
		memcpy(d + 48, in.p, in.n < 8 ? in.n : 8);
	}

	/* Bring-up, address spaces, chains, raw register writes. */
	rd_wr(gpu, MALI_GPU_COMMAND, MALI_GPU_CMD_SOFT_RESET);
	reset_written = false;
	power_on(gpu);
	rd_wr(gpu, MALI_JOB_IRQ_MASK, ~0u);
	rd_wr(gpu, MALI_MMU_IRQ_MASK, ~0u);
	rd_wr(gpu, MALI_GPU_COMMAND, MALI_GPU_CMD_CYCLE_COUNT_START);
	for (unsigned as = 0; as < 8; as++)
		as_setup(gpu, as, PA_BASE | (a64 ? 0 : MALI_TRANSTAB_ADRMODE_TABLE), a64);
	for (unsigned c = 0; c < 3; c++) {
		unsigned slot = (unsigned)take(&in, 1) % 4;
		uint64_t head = JOB_VA + (take(&in, 1) % 64) * 128;
		uint32_t cfg_next = (uint32_t)take(&in, 2);

		if (slot == 3)
			continue;
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_HEAD_NEXT_LO, (uint32_t)head);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_HEAD_NEXT_HI, 0);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_CONFIG_NEXT, cfg_next);
		rd_wr(gpu, MALI_JS(slot) + MALI_JS_COMMAND_NEXT, MALI_JS_CMD_START);
		pending |= 1u << slot;
	}
	for (unsigned n = (unsigned)take(&in, 1) % 8; n; n--) {
		uint32_t off = (uint32_t)take(&in, 2) & 0x3ffc;
		uint32_t val = (uint32_t)take(&in, 4);

		rd_wr(gpu, off, val);
	}

	pending = service(gpu, pending);
	if (pending) {
		/* Looping or stalled chains: stop them as a driver would. */
		for (unsigned s = 0; s < 3; s++)
			rd_wr(gpu, MALI_JS(s) + MALI_JS_COMMAND,
			      MALI_JS_CMD_HARD_STOP);
		pending = service(gpu, pending);
	}
	if (pending)
		rd_wr(gpu, MALI_GPU_COMMAND, MALI_GPU_CMD_HARD_RESET);
	if ((reset_written || vgpu_read32(gpu, MALI_JOB_IRQ_JS_STATE)) && !settle(gpu)) {
		vgpu_destroy(gpu);
		gpus[(flags & 2) != 0][flags >> 4] = NULL;
		gpu_get(flags & 2, 1 + (flags >> 4));
	}
	return 0;
}
