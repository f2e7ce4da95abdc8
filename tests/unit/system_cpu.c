// SPDX-License-Identifier: MIT
/*
 * Full-system vCPU: the stage-1 walker on page tables the test writes
 * into guest RAM (every fault kind with its level and ESR), and exception
 * entry and return (vector offsets, ESR/ELR/SPSR/FAR, SP banking) with
 * guest instructions run by the system-mode engine.
 */
#include <string.h>

#include "harness.h"
#include "aarch64-system/sys.h"

#define RAM 0x40000000ull
#define L0 (RAM + 0x1000)
#define L1 (RAM + 0x2000)
#define L2 (RAM + 0x3000)
#define L3 (RAM + 0x4000)
#define L0_HI (RAM + 0x8000) /* TTBR1's tables */
#define L1_HI (RAM + 0x9000)
#define L2_HI (RAM + 0xa000)
#define L3_HI (RAM + 0xb000)
#define VBAR 0x7000ull	/* vectors (VA = PA - RAM) */
#define CODE 0x5000ull
#define UCODE 0xc000ull /* EL0 code */

/* Descriptor bits */
#define D_TABLE 3ull
#define D_PAGE 3ull
#define D_BLOCK 1ull
#define D_AF (1ull << 10)
#define AP_EL1_RW (0ull << 6)
#define AP_RW (1ull << 6)
#define AP_EL1_RO (2ull << 6)
#define AP_RO (3ull << 6)
#define PXN (1ull << 53)
#define UXN (1ull << 54)

/* Instructions */
#define LDR_X1_X0 0xf9400001u
#define STR_X1_X0 0xf9000001u
#define HLT0 0xd4400000u
#define SVC5 0xd40000a1u
#define ERET 0xd69f03e0u
#define AT_S1E1R_X0 0xd5087800u
#define MRS_X2_PAR 0xd5387402u
#define MSR_DAIFCLR_2 0xd50342ffu

FIXTURE(sys) {
	struct a64s_machine m;
	struct a64s_cpu *s;
};

static void put64(struct a64s_machine *m, uint64_t pa, uint64_t v)
{
	memcpy(a64s_ram_ptr(m, pa, 8), &v, 8);
}

static void put32(struct a64s_machine *m, uint64_t pa, uint32_t v)
{
	memcpy(a64s_ram_ptr(m, pa, 4), &v, 4);
}

/* Maps the 4 KiB page at @va (below 2 MiB) to @pa with @attrs. */
static void map_page(struct a64s_machine *m, uint64_t va, uint64_t pa, uint64_t attrs)
{
	put64(m, L3 + (va >> 12 & 511) * 8, pa | attrs | D_PAGE);
}

FIXTURE_SETUP(sys)
{
	ASSERT_EQ(a64s_machine_init(&self->m, RAM, 16 << 20, 1), 0);
	struct a64s_machine *m = &self->m;
	self->s = m->cpu[0];
	/* VA [0, 2 MiB): L0[0] -> L1[0] -> L2[0] -> L3 */
	put64(m, L0, L1 | D_TABLE);
	put64(m, L1, L2 | D_TABLE);
	put64(m, L2, L3 | D_TABLE);
	/* the low pages as EL1 code/data at PA = VA + RAM */
	for (uint64_t va = 0x1000; va < 0x10000; va += 0x1000)
		map_page(m, va, RAM + va, D_AF | AP_EL1_RW | UXN);
	map_page(m, UCODE, RAM + UCODE, D_AF | AP_RO | PXN);
	/* 0x200000: a 2 MiB block, EL1 only */
	put64(m, L2 + 8, (RAM + 0x200000) | D_AF | AP_EL1_RW | D_BLOCK);
	/* TTBR1: 0xffff000000003000 -> PA RAM + 0x3000 */
	put64(m, L0_HI, L1_HI | D_TABLE);
	put64(m, L1_HI, L2_HI | D_TABLE);
	put64(m, L2_HI, L3_HI | D_TABLE);
	put64(m, L3_HI + 3 * 8, (RAM + 0x3000) | D_AF | AP_EL1_RO | D_PAGE);

	struct a64s_cpu *s = self->s;
	s->reg[R_TTBR0] = L0;
	s->reg[R_TTBR1] = L0_HI;
	s->reg[R_TCR] = 16 | 16ull << 16; /* T0SZ = T1SZ = 16: 48-bit */
	s->reg[R_SCTLR] |= 1;		     /* M */
	s->reg[R_VBAR] = VBAR;
	for (unsigned off = 0; off < 0x800; off += 0x80)
		put32(m, RAM + VBAR + off, HLT0);
	a64s_set_current(s);
}

FIXTURE_TEARDOWN(sys)
{
	a64s_machine_free(&self->m);
}

static struct a64s_walk walk(struct a64s_cpu *s, uint64_t va, unsigned el, enum a64s_access acc)
{
	struct a64s_walk w;
	a64s_translate(s, va, el, acc, &w);
	return w;
}

TEST_F(sys, page_and_block_translate)
{
	struct a64s_walk w = walk(self->s, 0x1234, 1, A64S_READ);
	ASSERT_EQ(w.fault, F_NONE);
	EXPECT_EQ(w.pa, RAM + 0x1234);
	w = walk(self->s, 0x2abcde, 1, A64S_WRITE);
	ASSERT_EQ(w.fault, F_NONE);
	EXPECT_EQ(w.pa, RAM + 0x2abcde);
	w = walk(self->s, 0xffff000000003010ull, 1, A64S_READ);
	ASSERT_EQ(w.fault, F_NONE);
	EXPECT_EQ(w.pa, RAM + 0x3010);
}

TEST_F(sys, translation_faults_name_their_level)
{
	struct a64s_walk w = walk(self->s, 0x10000, 1, A64S_READ); /* empty L3 slot */
	EXPECT_EQ(w.fault, F_TRANSLATION);
	EXPECT_EQ(w.level, 3);
	EXPECT_EQ(a64s_fsc(&w), 0x07u);
	w = walk(self->s, 0x40000000, 1, A64S_READ); /* L1[1] empty */
	EXPECT_EQ(w.fault, F_TRANSLATION);
	EXPECT_EQ(w.level, 1);
	w = walk(self->s, 0x8000000000ull, 1, A64S_READ); /* L0[1] empty */
	EXPECT_EQ(w.fault, F_TRANSLATION);
	EXPECT_EQ(w.level, 0);
	EXPECT_EQ(a64s_fsc(&w), 0x04u);
	/* outside both halves of a 48-bit space */
	w = walk(self->s, 0x0001000000000000ull, 1, A64S_READ);
	EXPECT_EQ(w.fault, F_TRANSLATION);
	/* TTBR0 walks disabled by EPD0 */
	self->s->reg[R_TCR] |= 1ull << 7;
	w = walk(self->s, 0x1000, 1, A64S_READ);
	EXPECT_EQ(w.fault, F_TRANSLATION);
}

TEST_F(sys, access_flag_fault)
{
	map_page(&self->m, 0x3000, RAM + 0x3000, AP_EL1_RW);
	struct a64s_walk w = walk(self->s, 0x3000, 1, A64S_READ);
	EXPECT_EQ(w.fault, F_ACCESS);
	EXPECT_EQ(a64s_fsc(&w), 0x0bu);
}

TEST_F(sys, permissions)
{
	struct a64s_cpu *s = self->s;
	/* EL1-only page and block are invisible to EL0 */
	EXPECT_EQ(walk(s, 0x1000, 0, A64S_READ).fault, F_PERMISSION);
	struct a64s_walk w = walk(s, 0x200000, 0, A64S_READ);
	EXPECT_EQ(w.fault, F_PERMISSION);
	EXPECT_EQ(a64s_fsc(&w), 0x0eu); /* level 2 */
	/* read-only at EL1 */
	EXPECT_EQ(walk(s, 0xffff000000003000ull, 1, A64S_WRITE).fault, F_PERMISSION);
	/* UXN: EL1 code is not EL0's; PXN: EL0 code is not EL1's */
	EXPECT_EQ(walk(s, UCODE, 0, A64S_EXEC).fault, F_NONE);
	EXPECT_EQ(walk(s, UCODE, 1, A64S_EXEC).fault, F_PERMISSION);
	EXPECT_EQ(walk(s, UCODE, 0, A64S_WRITE).fault, F_PERMISSION);
	/* EL1 never executes what EL0 may write */
	map_page(&self->m, 0x4000, RAM + 0x4000, D_AF | AP_RW);
	EXPECT_EQ(walk(s, 0x4000, 0, A64S_WRITE).fault, F_NONE);
	EXPECT_EQ(walk(s, 0x4000, 1, A64S_EXEC).fault, F_PERMISSION);
	/* APTable[0] takes EL0 access away below a table */
	put64(&self->m, L2, L3 | D_TABLE | 1ull << 61);
	EXPECT_EQ(walk(s, UCODE, 0, A64S_READ).fault, F_PERMISSION);
	EXPECT_EQ(walk(s, UCODE, 1, A64S_READ).fault, F_NONE);
}

TEST_F(sys, mmu_off_is_identity)
{
	self->s->reg[R_SCTLR] &= ~1ull;
	struct a64s_walk w = walk(self->s, 0x12345678, 0, A64S_EXEC);
	EXPECT_EQ(w.fault, F_NONE);
	EXPECT_EQ(w.pa, 0x12345678u);
}

/* The test rewrote the code page: translated code is keyed by host address. */
static void code_changed(struct a64s_machine *m)
{
	a64s_invalidate((uint64_t)(uintptr_t)a64s_ram_ptr(m, RAM + CODE, 4096), 4096);
}

/* Runs EL1 code at CODE until the HLT of a vector. */
static struct a64_stop_info run_at(struct a64s_cpu *s, uint64_t pc)
{
	s->c.pc = pc;
	return a64s_run(&s->c);
}

static void check_abort(struct __test_metadata *_metadata, struct a64s_cpu *s,
			uint32_t insn, uint64_t va, uint32_t esr)
{
	put32(s->m, RAM + CODE, insn);
	s->c.x[0] = va;
	struct a64_stop_info si = run_at(s, CODE);
	ASSERT_EQ(si.reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.pc, VBAR + 0x200); /* current EL, SP_EL1, synchronous */
	EXPECT_EQ(s->reg[R_ESR], esr);
	EXPECT_EQ(s->reg[R_FAR], va);
	EXPECT_EQ(s->reg[R_ELR], CODE);
}

TEST_F(sys, data_aborts_from_loads_and_stores)
{
	struct a64s_cpu *s = self->s;
	map_page(&self->m, 0x3000, RAM + 0x3000, AP_EL1_RW);
	check_abort(_metadata, s, LDR_X1_X0, 0x10008, 0x96000007); /* translation L3 */
	code_changed(s->m);
	check_abort(_metadata, s, LDR_X1_X0, 0x3008, 0x9600000b); /* access flag L3 */
	code_changed(s->m);
	check_abort(_metadata, s, STR_X1_X0, 0xffff000000003000ull, 0x9600004f); /* WnR, permission L3 */
	code_changed(s->m);
	check_abort(_metadata, s, LDR_X1_X0, 0x8000000000ull, 0x96000004); /* translation L0 */
}

TEST_F(sys, instruction_abort)
{
	struct a64s_cpu *s = self->s;
	struct a64_stop_info si = run_at(s, UCODE); /* PXN */
	ASSERT_EQ(si.reason, A64_STOP_HLT);
	EXPECT_EQ(s->reg[R_ESR], 0x8600000fu); /* EC 0x21, permission L3 */
	EXPECT_EQ(s->reg[R_ELR], UCODE);
	EXPECT_EQ(s->reg[R_FAR], UCODE);
}

TEST_F(sys, at_reports_in_par)
{
	struct a64s_cpu *s = self->s;
	put32(&self->m, RAM + CODE, AT_S1E1R_X0);
	put32(&self->m, RAM + CODE + 4, MRS_X2_PAR);
	put32(&self->m, RAM + CODE + 8, HLT0);
	s->c.x[0] = 0x2123;
	ASSERT_EQ(run_at(s, CODE).reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.x[2], RAM + 0x2000);
	s->c.x[0] = 0x10000;
	code_changed(s->m);
	ASSERT_EQ(run_at(s, CODE).reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.x[2], 1u | 0x07u << 1); /* F, translation fault L3 */
	EXPECT_EQ(s->c.pc, CODE + 8);
}

TEST_F(sys, svc_from_el0_and_eret_back)
{
	struct a64s_cpu *s = self->s;
	put32(&self->m, RAM + CODE, ERET);
	put32(&self->m, RAM + UCODE, SVC5);
	s->reg[R_SPSR] = 0x60000000; /* EL0t, Z and C set, DAIF clear */
	s->reg[R_ELR] = UCODE;
	s->c.x[31] = 0x9000;	/* SP_EL1 */
	s->sp_el0 = 0xa000;
	struct a64_stop_info si = run_at(s, CODE);
	ASSERT_EQ(si.reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.pc, VBAR + 0x400); /* lower EL, AArch64, synchronous */
	EXPECT_EQ(s->reg[R_ESR], 0x56000005u);
	EXPECT_EQ(s->reg[R_ELR], UCODE + 4);
	EXPECT_EQ(s->reg[R_SPSR], 0x60000000u);
	EXPECT_EQ(s->el, 1u);
	EXPECT_EQ(s->daif, (uint32_t)PSR_DAIF);
	EXPECT_EQ(s->c.x[31], 0x9000u);
	EXPECT_EQ(s->sp_el0, 0xa000u);
	EXPECT_EQ(s->c.nzcv, 0x60000000u);
}

TEST_F(sys, irq_vectors_by_level_and_sp)
{
	struct a64s_cpu *s = self->s;
	s->c.pc = 0x1230;
	a64s_take_irq(s);
	EXPECT_EQ(s->c.pc, VBAR + 0x280); /* current EL, SP_ELx */
	EXPECT_EQ(s->reg[R_ELR], 0x1230u);
	EXPECT_EQ(s->reg[R_SPSR], (uint64_t)(PSR_DAIF | 5));
	a64s_set_spsel(s, 0);
	a64s_take_irq(s);
	EXPECT_EQ(s->c.pc, VBAR + 0x080); /* current EL, SP_EL0 */
	EXPECT_EQ(s->reg[R_SPSR], (uint64_t)(PSR_DAIF | 4));
	s->reg[R_SPSR] = 0;
	a64s_eret(s);
	EXPECT_EQ(s->el, 0u);
	a64s_take_irq(s);
	EXPECT_EQ(s->c.pc, VBAR + 0x480); /* lower EL */
}

TEST_F(sys, undefined_and_privileged_at_el0)
{
	struct a64s_cpu *s = self->s;
	put32(&self->m, RAM + UCODE, MSR_DAIFCLR_2);
	s->reg[R_SPSR] = 0;
	s->reg[R_ELR] = UCODE;
	a64s_eret(s);
	struct a64_stop_info si = a64s_run(&s->c);
	ASSERT_EQ(si.reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.pc, VBAR + 0x400);
	EXPECT_EQ(s->reg[R_ESR], 0x02000000u); /* EC 0 (unknown), IL */
	EXPECT_EQ(s->reg[R_ELR], UCODE);
}

/* A device as the board will plug the GPU in: registers on the bus. */
struct fake_dev {
	uint64_t last_off, last_val;
	unsigned last_size, writes;
};

static uint64_t fake_read(void *dev, uint64_t off, unsigned size)
{
	(void)dev;
	return 0x1000 + off + size;
}

static void fake_write(void *dev, uint64_t off, unsigned size, uint64_t v)
{
	struct fake_dev *d = dev;
	d->last_off = off;
	d->last_size = size;
	d->last_val = v;
	d->writes++;
}

static const struct a64s_mmio_ops fake_ops = { fake_read, fake_write };

#define LDR_W1_X0_4 0xb9400401u /* ldr w1, [x0, #4] */
#define STR_W2_X0_8 0xb9000802u /* str w2, [x0, #8] */

TEST_F(sys, mmio_reaches_a_device_through_the_mmu)
{
	struct a64s_cpu *s = self->s;
	struct fake_dev d = { 0 };
	ASSERT_EQ(a64s_bus_add(&self->m, 0x0a000000, 0x1000, &fake_ops, &d), 0);
	map_page(&self->m, 0x6000, 0x0a000000, D_AF | AP_EL1_RW | UXN | PXN);
	put32(&self->m, RAM + CODE, LDR_W1_X0_4);
	put32(&self->m, RAM + CODE + 4, STR_W2_X0_8);
	put32(&self->m, RAM + CODE + 8, LDR_W1_X0_4);
	put32(&self->m, RAM + CODE + 12, HLT0);
	s->c.x[0] = 0x6000;
	s->c.x[2] = 0xabcd;
	ASSERT_EQ(run_at(s, CODE).reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.pc, CODE + 12); /* no exception */
	EXPECT_EQ(s->c.x[1], 0x1000u + 4 + 4);
	EXPECT_EQ(d.writes, 1u);
	EXPECT_EQ(d.last_off, 8u);
	EXPECT_EQ(d.last_size, 4u);
	EXPECT_EQ(d.last_val, 0xabcdu);
	/* nothing on the bus there: an external abort (DFSC 0x10) */
	map_page(&self->m, 0x6000, 0x0b000000, D_AF | AP_EL1_RW | UXN | PXN);
	a64s_tlb_flush(s);
	ASSERT_EQ(run_at(s, CODE).reason, A64_STOP_HLT);
	EXPECT_EQ(s->c.pc, VBAR + 0x200);
	EXPECT_EQ(s->reg[R_ESR], 0x96000010u);
	EXPECT_EQ(s->reg[R_FAR], 0x6004u);
}

TEST_HARNESS_MAIN
