// SPDX-License-Identifier: MIT
/*
 * Full-system machine: the GICv2 programmed through its registers as
 * Linux's driver does (enable, priority, target, acknowledge, EOI, SGIs)
 * and the generic timer's lines into it.
 */
#include "harness.h"
#include "aarch64-system/sys.h"

#define DIST 0x08000000ull
#define CPUIF 0x08010000ull
#define SPI_UART 33
#define PPI_VTIMER 27

FIXTURE(gic) {
	struct a64s_machine m;
};

static void wr(struct a64s_machine *m, uint64_t pa, uint32_t v)
{
	a64s_bus_write(m, pa, 4, v);
}

static uint32_t rd(struct a64s_machine *m, uint64_t pa)
{
	uint64_t v = ~0ull;
	a64s_bus_read(m, pa, 4, &v);
	return (uint32_t)v;
}

/* What Linux's gic_dist_init/gic_cpu_init leave: everything at priority
 * 0xa0, distributor and CPU interface on, PMR 0xf0. */
static void setup_cpu(struct a64s_machine *m, unsigned cpu)
{
	a64s_set_current(m->cpu[cpu]);
	wr(m, CPUIF + 0x04, 0xf0);
	wr(m, CPUIF + 0x00, 1);
	for (unsigned n = 0; n < 32; n += 4)
		wr(m, DIST + 0x400 + n, 0xa0a0a0a0);
}

FIXTURE_SETUP(gic)
{
	ASSERT_EQ(a64s_machine_init(&self->m, 0x40000000, 1 << 20, 2), 0);
	ASSERT_EQ(a64s_gic_create(&self->m, DIST, CPUIF), 0);
	struct a64s_machine *m = &self->m;
	a64s_set_current(m->cpu[0]);
	for (unsigned n = 32; n < 128; n += 4)
		wr(m, DIST + 0x400 + n, 0xa0a0a0a0);
	wr(m, DIST + 0x000, 1);
	setup_cpu(m, 1);
	setup_cpu(m, 0);
}

FIXTURE_TEARDOWN(gic)
{
	a64s_machine_free(&self->m);
}

TEST_F(gic, typer_and_identification)
{
	EXPECT_EQ(rd(&self->m, DIST + 0x004), (128u / 32 - 1) | 1u << 5); /* 2 CPUs */
	EXPECT_EQ(rd(&self->m, DIST + 0xfe8) >> 4 & 0xf, 2u);		   /* GICv2 */
}

TEST_F(gic, level_spi_acknowledge_and_eoi)
{
	struct a64s_machine *m = &self->m;
	a64s_irq_set(m, SPI_UART, true);
	EXPECT_FALSE(a64s_gic_pending(m, 0)); /* not enabled yet */
	wr(m, DIST + 0x800 + SPI_UART - (SPI_UART & 3), 1u << (8 * (SPI_UART & 3)));
	wr(m, DIST + 0x100 + SPI_UART / 32 * 4, 1u << (SPI_UART % 32));
	EXPECT_TRUE(a64s_gic_pending(m, 0));
	EXPECT_FALSE(a64s_gic_pending(m, 1)); /* targets CPU 0 only */
	EXPECT_EQ(rd(m, DIST + 0x200 + SPI_UART / 32 * 4) >> (SPI_UART % 32) & 1, 1u);
	EXPECT_EQ(rd(m, CPUIF + 0x0c), (uint32_t)SPI_UART);
	EXPECT_FALSE(a64s_gic_pending(m, 0)); /* active now */
	EXPECT_EQ(rd(m, CPUIF + 0x0c), 1023u);
	wr(m, CPUIF + 0x10, SPI_UART);
	EXPECT_TRUE(a64s_gic_pending(m, 0)); /* the line is still high */
	a64s_irq_set(m, SPI_UART, false);
	EXPECT_FALSE(a64s_gic_pending(m, 0));
}

TEST_F(gic, priority_mask_and_disable)
{
	struct a64s_machine *m = &self->m;
	wr(m, DIST + 0x800 + 32, 1);
	wr(m, DIST + 0x100 + 4, 1); /* enable SPI 32 */
	a64s_irq_set(m, 32, true);
	EXPECT_TRUE(a64s_gic_pending(m, 0));
	wr(m, CPUIF + 0x04, 0xa0); /* priority 0xa0 is not below PMR 0xa0 */
	EXPECT_FALSE(a64s_gic_pending(m, 0));
	wr(m, CPUIF + 0x04, 0xf0);
	EXPECT_TRUE(a64s_gic_pending(m, 0));
	wr(m, DIST + 0x180 + 4, 1); /* ICENABLER */
	EXPECT_FALSE(a64s_gic_pending(m, 0));
}

TEST_F(gic, sgi_to_the_other_cpu)
{
	struct a64s_machine *m = &self->m;
	a64s_set_current(m->cpu[1]);
	wr(m, DIST + 0x100, 1u << 3); /* CPU 1 enables its SGI 3 */
	a64s_set_current(m->cpu[0]);
	wr(m, DIST + 0xf00, 1u << 24 | 3); /* to all but self */
	EXPECT_TRUE(a64s_gic_pending(m, 1));
	EXPECT_FALSE(a64s_gic_pending(m, 0));
	a64s_set_current(m->cpu[1]);
	EXPECT_EQ(rd(m, CPUIF + 0x0c) & 0x3ff, 3u);
	wr(m, CPUIF + 0x10, 3);
	EXPECT_FALSE(a64s_gic_pending(m, 1)); /* edge: taken once */
}

TEST_F(gic, virtual_timer_fires_through_its_ppi)
{
	struct a64s_machine *m = &self->m;
	struct a64s_cpu *s = m->cpu[0];
	wr(m, DIST + 0x100, 1u << PPI_VTIMER);
	s->reg[R_CNTV_CVAL] = a64s_counter(m) + 62500000ull * 3600; /* an hour away */
	s->reg[R_CNTV_CTL] = 1;
	uint64_t ns = a64s_timer_update(s);
	EXPECT_TRUE(ns > 1000000000ull && ns != UINT64_MAX);
	EXPECT_FALSE(a64s_gic_pending(m, 0));
	EXPECT_EQ(s->reg[R_CNTV_CTL] & 4, 0u); /* ISTATUS */
	s->reg[R_CNTV_CVAL] = 0;
	EXPECT_EQ(a64s_timer_update(s), UINT64_MAX);
	EXPECT_EQ(s->reg[R_CNTV_CTL] & 4, 4u);
	EXPECT_TRUE(a64s_gic_pending(m, 0));
	EXPECT_EQ(rd(m, CPUIF + 0x0c), (uint32_t)PPI_VTIMER);
	s->reg[R_CNTV_CTL] = 3; /* IMASK: the line drops */
	a64s_timer_update(s);
	wr(m, CPUIF + 0x10, PPI_VTIMER);
	EXPECT_FALSE(a64s_gic_pending(m, 0));
}

TEST_HARNESS_MAIN
