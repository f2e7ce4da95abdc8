// SPDX-License-Identifier: MIT
/*
 * The A64 engine through its cpu.h boundary: stop reasons and their
 * information, chaining over a hot loop, invalidation of rewritten code
 * (by the ABI layer's a64_invalidate and by the guest's own IC IVAU),
 * atomics from parallel host threads, fault pc reporting, system
 * registers. Guest code is hand-assembled (the listing is beside it).
 */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aarch64-user/cpu.h"
#include "harness.h"

static uint32_t *map_code(const uint32_t *w, size_t n)
{
	uint32_t *p = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	memcpy(p, w, n * 4);
	a64_engine_init();
	return p;
}

static void cpu_at(struct a64_cpu *c, const void *pc)
{
	memset(c, 0, sizeof(*c));
	c->pc = (uint64_t)(uintptr_t)pc;
}

TEST(svc_stop_reports_imm_and_next_pc)
{
	static const uint32_t code[] = {
		0xd28000a0, /* mov x0, #5 */
		0xd4000841, /* svc #0x42 */
	};
	uint32_t *p = map_code(code, 2);
	ASSERT_NONNULL(p);
	struct a64_cpu c;
	cpu_at(&c, p);
	struct a64_stop_info si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_SVC);
	EXPECT_EQ(si.imm, 0x42u);
	EXPECT_EQ(c.pc, (uint64_t)(uintptr_t)(p + 2));
	EXPECT_EQ(c.x[0], 5u);
}

TEST(brk_undef_and_misaligned_branch)
{
	static const uint32_t code[] = {
		0xd42000e0, /* brk #7 */
		0x00000000, /* udf #0 */
		0xd61f0020, /* br x1 */
	};
	uint32_t *p = map_code(code, 3);
	ASSERT_NONNULL(p);
	struct a64_cpu c;
	cpu_at(&c, p);
	struct a64_stop_info si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_BRK);
	EXPECT_EQ(si.imm, 7u);
	EXPECT_EQ(c.pc, (uint64_t)(uintptr_t)p);

	cpu_at(&c, p + 1);
	si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_UNDEF);
	EXPECT_EQ(si.insn, 0u);
	EXPECT_EQ(c.pc, (uint64_t)(uintptr_t)(p + 1));

	cpu_at(&c, p + 2);
	c.x[1] = 0x1002;
	si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_PC_ALIGN);
	EXPECT_EQ(c.pc, 0x1002u);
}

TEST(hot_loop_through_chained_blocks)
{
	static const uint32_t code[] = {
		0xd2800000, /* mov x0, #0 */
		0x91000400, /* 1: add x0, x0, #1 */
		0xeb01001f, /* cmp x0, x1 */
		0x54ffffc1, /* b.ne 1b */
		0xd4000001, /* svc #0 */
	};
	uint32_t *p = map_code(code, 5);
	ASSERT_NONNULL(p);
	struct a64_cpu c;
	cpu_at(&c, p);
	c.x[1] = 3000000;
	struct a64_stop_info si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_SVC);
	EXPECT_EQ(c.x[0], 3000000u);
	EXPECT_EQ(c.nzcv, 0x60000000u); /* Z and C after the equal compare */
}

TEST(invalidate_after_rewrite)
{
	static const uint32_t code[] = {
		0xd28000a0, /* mov x0, #5 */
		0xd4000001, /* svc #0 */
	};
	uint32_t *p = map_code(code, 2);
	ASSERT_NONNULL(p);
	struct a64_cpu c;
	cpu_at(&c, p);
	a64_run(&c);
	ASSERT_EQ(c.x[0], 5u);
	p[0] = 0xd2800540; /* mov x0, #42 */
	a64_invalidate((uint64_t)(uintptr_t)p, 4);
	cpu_at(&c, p);
	a64_run(&c);
	EXPECT_EQ(c.x[0], 42u);
}

TEST(guest_rewrites_code_with_ic_ivau)
{
	static const uint32_t code[] = {
		0xb9000022, /* str w2, [x1] */
		0xd50b7b21, /* dc cvau, x1 */
		0xd5033b9f, /* dsb ish */
		0xd50b7521, /* ic ivau, x1 */
		0xd5033b9f, /* dsb ish */
		0xd5033fdf, /* isb */
		0xd61f0020, /* br x1 */
	};
	uint32_t *p = map_code(code, 7);
	ASSERT_NONNULL(p);
	uint32_t *target = p + 64;
	target[0] = 0xd28000a0; /* mov x0, #5 */
	target[1] = 0xd4000001; /* svc #0 */
	struct a64_cpu c;
	cpu_at(&c, target);
	a64_run(&c);
	ASSERT_EQ(c.x[0], 5u);
	/* now the guest itself replaces target[0] and jumps there */
	cpu_at(&c, p);
	c.x[1] = (uint64_t)(uintptr_t)target;
	c.x[2] = 0xd2800540; /* mov x0, #42 */
	struct a64_stop_info si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_SVC);
	EXPECT_EQ(c.x[0], 42u);
}

TEST(interrupt_flag_stops_at_block_boundary)
{
	static const uint32_t code[] = {
		0x14000000, /* b . */
	};
	uint32_t *p = map_code(code, 1);
	ASSERT_NONNULL(p);
	struct a64_cpu c;
	cpu_at(&c, p);
	c.interrupt = 1;
	struct a64_stop_info si = a64_run(&c);
	EXPECT_EQ(si.reason, A64_STOP_INTERRUPT);
	EXPECT_EQ(c.pc, (uint64_t)(uintptr_t)p);
}

/* ---- atomics from parallel host threads ----------------------------------- */

struct worker {
	const uint32_t *entry;
	uint64_t *counter;
	uint64_t n;
};

static void *run_worker(void *arg)
{
	struct worker *w = arg;
	struct a64_cpu c;
	cpu_at(&c, w->entry);
	c.x[1] = (uint64_t)(uintptr_t)w->counter;
	c.x[2] = w->n;
	a64_run(&c);
	return NULL;
}

static uint64_t count_in_threads(const uint32_t *entry, int threads, uint64_t n)
{
	static uint64_t counter __attribute__((aligned(64)));
	pthread_t t[8];
	struct worker w = { entry, &counter, n };
	counter = 0;
	for (int k = 0; k < threads; k++)
		pthread_create(&t[k], NULL, run_worker, &w);
	for (int k = 0; k < threads; k++)
		pthread_join(t[k], NULL);
	return counter;
}

TEST_TIMEOUT(ldadd_from_four_threads, 120)
{
	static const uint32_t code[] = {
		0xd2800023, /* 1: mov x3, #1 */
		0xf8230024, /* ldadd x3, x4, [x1] */
		0xf1000442, /* subs x2, x2, #1 */
		0x54ffffa1, /* b.ne 1b */
		0xd4000001, /* svc #0 */
	};
	uint32_t *p = map_code(code, 5);
	ASSERT_NONNULL(p);
	EXPECT_EQ(count_in_threads(p, 4, 200000), 800000u);
}

TEST_TIMEOUT(ldxr_stxr_from_four_threads, 120)
{
	static const uint32_t code[] = {
		0xc85f7c23, /* 1: ldxr x3, [x1] */
		0x91000463, /* add x3, x3, #1 */
		0xc8047c23, /* stxr w4, x3, [x1] */
		0x35ffffa4, /* cbnz w4, 1b */
		0xf1000442, /* subs x2, x2, #1 */
		0x54ffff61, /* b.ne 1b */
		0xd4000001, /* svc #0 */
	};
	uint32_t *p = map_code(code, 7);
	ASSERT_NONNULL(p);
	EXPECT_EQ(count_in_threads(p, 4, 200000), 800000u);
}

/* ---- faults --------------------------------------------------------------- */

static sigjmp_buf fault_jmp;
static struct a64_cpu fault_cpu;
static uint64_t fault_guest_pc;
static bool fault_known;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	fault_known = a64_fault_pc(&fault_cpu, uc, &fault_guest_pc);
	siglongjmp(fault_jmp, 1);
}

static void *probe_no_engine(void *arg)
{
	uint64_t pc;
	(void)arg;
	return a64_fault_pc(&fault_cpu, NULL, &pc) ? (void *)1 : NULL;
}

/* Runs the code at @p with X1 = 8 (unmapped) until its access faults:
 * fault_cpu, fault_known and fault_guest_pc tell what the fault showed. */
static void run_to_fault(const uint32_t *p)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	cpu_at(&fault_cpu, p);
	fault_cpu.x[1] = 8;
	fault_known = false;
	if (!sigsetjmp(fault_jmp, 1))
		a64_run(&fault_cpu);
}

TEST(fault_pc_names_the_faulting_load)
{
	/* The second form discards the value (LDR XZR): it must fault all
	 * the same, as the load still happens on hardware. SIMD&FP loads
	 * and stores are compiled natively too. */
	static const uint32_t loads[] = { 0xf9400020 /* ldr x0, [x1] */,
					  0xf940003f /* ldr xzr, [x1] */,
					  0xfd400020 /* ldr d0, [x1] */,
					  0xad400420 /* ldp q0, q1, [x1] */,
					  0xbc004c22 /* str s2, [x1, #4]! */,
					  0x4d40c820 /* ld1r {v0.4s}, [x1] */,
					  0x0d9f8020 /* st1 {v0.s}[0], [x1], #4 */ };

	/* volatile: the loop goes on after a siglongjmp out of a64_run */
	for (volatile unsigned k = 0; k < sizeof(loads) / sizeof(loads[0]); k++) {
		const uint32_t code[] = {
			0xd28000a0, /* mov x0, #5 */
			loads[k],
			0xd4000001, /* svc #0 */
		};
		uint32_t *volatile p = map_code(code, 3);
		ASSERT_NONNULL(p);
		run_to_fault(p);
		TH_LOG("load 0x%08x", loads[k]);
		ASSERT_TRUE(fault_known);
		EXPECT_EQ(fault_guest_pc, (uint64_t)(uintptr_t)(p + 1));
		EXPECT_EQ(fault_cpu.x[0], 5u); /* the load wrote nothing */
	}
	/* a thread that is not running the engine has no engine faults */
	pthread_t t;
	void *res;
	pthread_create(&t, NULL, probe_no_engine, NULL);
	pthread_join(t, &res);
	EXPECT_NULL(res);
}

/* Compiled code keeps guest registers in host registers across its loads
 * and stores; a fault rebuilds them from the signal's context. Nine
 * registers written before the access (more than the host holds, so some
 * were evicted to memory on the way): all show their values, the loaded
 * ones and a pre-indexed base are unchanged. */
TEST(fault_shows_registers_written_before_the_access)
{
	static const uint32_t accesses[] = { 0xa9402c2a /* ldp x10, x11, [x1] */,
					     0xf8008c29 /* str x9, [x1, #8]! */ };
	for (volatile unsigned k = 0; k < sizeof(accesses) / sizeof(accesses[0]); k++) {
		uint32_t code[12];
		for (unsigned r = 0; r < 10; r++) /* mov x0, #5; mov x2, #7 ... mov x9, #21 */
			code[r] = 0xd2800000 | (5u + 2 * r) << 5 | (r ? r + 1 : 0);
		code[9] = 0x91000021; /* add x1, x1, #0 */
		code[10] = accesses[k];
		code[11] = 0xd4000001; /* svc #0 */
		uint32_t *volatile p = map_code(code, 12);
		ASSERT_NONNULL(p);
		run_to_fault(p);
		TH_LOG("access 0x%08x", accesses[k]);
		ASSERT_TRUE(fault_known);
		EXPECT_EQ(fault_guest_pc, (uint64_t)(uintptr_t)(p + 10));
		EXPECT_EQ(fault_cpu.x[0], 5u);
		for (unsigned r = 2; r <= 9; r++)
			EXPECT_EQ(fault_cpu.x[r], 5u + 2 * (r - 1));
		EXPECT_EQ(fault_cpu.x[1], 8u);
		EXPECT_EQ(fault_cpu.x[10], 0u);
		EXPECT_EQ(fault_cpu.x[11], 0u);
	}
}

/* NZCV set before a faulting access and replaced after it, so that no
 * instruction reads that value: the fault shows it all the same, as on
 * hardware (a SIGSEGV handler sees it in its context's PSTATE). */
TEST(fault_shows_nzcv_nothing_reads)
{
	static const uint32_t code[] = {
		0xd28000a0, /* mov x0, #5 */
		0xf100141f, /* cmp x0, #5: Z and C */
		0xf9400022, /* ldr x2, [x1] */
		0xb100041f, /* cmn x0, #1: replaces them */
		0xd4000001, /* svc #0 */
	};
	uint32_t *volatile p = map_code(code, 5);

	ASSERT_NONNULL(p);
	run_to_fault(p);
	ASSERT_TRUE(fault_known);
	EXPECT_EQ(fault_guest_pc, (uint64_t)(uintptr_t)(p + 2));
	EXPECT_EQ(fault_cpu.nzcv, 0x60000000u); /* Z and C */
}

/* ---- system registers and CRC32 ------------------------------------------- */

static uint32_t crc_bitwise(uint32_t crc, uint64_t v, int bytes, uint32_t poly)
{
	for (int k = 0; k < bytes * 8; k++) {
		crc ^= (v >> k) & 1;
		crc = (crc >> 1) ^ ((crc & 1) ? poly : 0);
	}
	return crc;
}

TEST(system_registers_and_crc32)
{
	static const uint32_t code[] = {
		0xd53b00e0, /* mrs x0, dczid_el0 */
		0xd53be001, /* mrs x1, cntfrq_el0 */
		0xd53be042, /* mrs x2, cntvct_el0 */
		0xd53be043, /* mrs x3, cntvct_el0 */
		0xd50b7425, /* dc zva, x5 */
		0xd53bd046, /* mrs x6, tpidr_el0 */
		0xd51bd047, /* msr tpidr_el0, x7 */
		0xd5380008, /* mrs x8, midr_el1 */
		0xd5380609, /* mrs x9, id_aa64isar0_el1 */
		0xd4000021, /* svc #1 */
		0x9ac25c20, /* crc32cx w0, w1, x2 */
		0x1ac24023, /* crc32b w3, w1, w2 */
		0xd4000001, /* svc #0 */
	};
	uint32_t *p = map_code(code, 13);
	ASSERT_NONNULL(p);
	uint8_t buf[256] __attribute__((aligned(64)));
	memset(buf, 0xab, sizeof(buf));
	struct a64_cpu c;
	cpu_at(&c, p);
	c.x[5] = (uint64_t)(uintptr_t)(buf + 64 + 17); /* inside the second block */
	c.x[7] = 0x1234;
	c.tpidr_el0 = 0x77;
	a64_run(&c);
	EXPECT_EQ(c.x[0], 4u);
	EXPECT_NE(c.x[1], 0u);
	EXPECT_LE(c.x[2], c.x[3]);
	EXPECT_EQ(c.x[6], 0x77u);
	EXPECT_EQ(c.tpidr_el0, 0x1234u);
	EXPECT_EQ(c.x[8] >> 24, 0x41u); /* implementer: Arm */
	EXPECT_EQ((c.x[9] >> 4) & 15, 2u); /* AES and PMULL */
	EXPECT_EQ((c.x[9] >> 8) & 15, 1u); /* SHA1 */
	EXPECT_EQ((c.x[9] >> 12) & 15, 1u); /* SHA256 */
	EXPECT_EQ((c.x[9] >> 16) & 15, 1u); /* CRC32 */
	EXPECT_EQ((c.x[9] >> 20) & 15, 2u); /* LSE atomics */
	for (int k = 0; k < 256; k++)
		EXPECT_EQ(buf[k], (k >= 64 && k < 128) ? 0 : 0xab);

	c.x[1] = 0xffffffff;
	c.x[2] = 0x0123456789abcdefull;
	a64_run(&c);
	EXPECT_EQ(c.x[0], crc_bitwise(0xffffffff, 0x0123456789abcdefull, 8, 0x82F63B78u));
	EXPECT_EQ(c.x[3], crc_bitwise(0xffffffff, 0xef, 1, 0xEDB88320u));
}

TEST_HARNESS_MAIN
