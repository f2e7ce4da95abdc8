// SPDX-License-Identifier: MIT
/*
 * A GICv2 (distributor and CPU interface, as qemu's virt machine places
 * them) and the generic timer's interrupt lines. Interrupts 0..15 are
 * SGIs, 16..31 per-CPU PPIs (the timers: 27 virtual, 30 physical), the
 * rest SPIs wired by the board through a64s_irq_set(). Security
 * extensions are absent: every interrupt is group 0 and signals IRQ.
 */
#include <stdlib.h>
#include <string.h>

#include "aarch64-system/sys.h"

#define NIRQ 128
#define NPRIV 32
#define PPI_VTIMER 27
#define PPI_PTIMER 30

struct gic_cpu {
	uint8_t priv_enable[NPRIV], priv_pend[NPRIV], priv_line[NPRIV], priv_active[NPRIV];
	uint8_t priv_prio[NPRIV];
	uint32_t ctlr, pmr, bpr;
};

struct a64s_gic {
	struct a64s_machine *m;
	uint32_t ctlr;
	uint8_t enable[NIRQ], pend[NIRQ], line[NIRQ], active[NIRQ], prio[NIRQ], target[NIRQ];
	uint8_t edge[NIRQ];
	struct gic_cpu cpu[A64S_MAX_CPUS];
	volatile int ready[A64S_MAX_CPUS]; /* an interrupt is deliverable */
};

/* Views of one interrupt's state for a CPU (private ones are banked). */
#define FIELD(g, c, name, n) (*((n) < NPRIV ? &(g)->cpu[c].priv_##name[n] : &(g)->name[n]))

static bool is_pending(struct a64s_gic *g, unsigned c, unsigned n)
{
	return FIELD(g, c, pend, n) || (!g->edge[n] && FIELD(g, c, line, n));
}

/* Highest-priority deliverable interrupt of CPU @c, or 1023. */
static unsigned best(struct a64s_gic *g, unsigned c)
{
	struct gic_cpu *gc = &g->cpu[c];
	unsigned run = 0x100, id = 1023, bp = 0x100;
	if (!(g->ctlr & 1) || !(gc->ctlr & 1))
		return 1023;
	for (unsigned n = 0; n < NIRQ; n++)
		if (FIELD(g, c, active, n) && FIELD(g, c, prio, n) < run)
			run = FIELD(g, c, prio, n);
	for (unsigned n = 0; n < NIRQ; n++) {
		if (!FIELD(g, c, enable, n) || !is_pending(g, c, n) || FIELD(g, c, active, n))
			continue;
		if (n >= NPRIV && !(g->target[n] & (1u << c)))
			continue;
		unsigned p = FIELD(g, c, prio, n);
		if (p < bp && p < gc->pmr && p < run) {
			bp = p;
			id = n;
		}
	}
	return id;
}

static void update(struct a64s_gic *g)
{
	for (unsigned c = 0; c < g->m->ncpus; c++) {
		int r = best(g, c) != 1023;
		if (r != g->ready[c]) {
			g->ready[c] = r;
			if (r && g->m->cpu[c])
				g->m->cpu[c]->c.interrupt = 1;
		}
	}
	if (g->m)
		pthread_cond_broadcast(&g->m->wake);
}

bool a64s_gic_pending(struct a64s_machine *m, unsigned cpu)
{
	return m->gic && m->gic->ready[cpu];
}

void a64s_ppi_set(struct a64s_machine *m, unsigned cpu, unsigned intid, bool level)
{
	struct a64s_gic *g = m->gic;
	pthread_mutex_lock(&m->lock);
	if (g->cpu[cpu].priv_line[intid] != level) {
		g->cpu[cpu].priv_line[intid] = level;
		update(g);
	}
	pthread_mutex_unlock(&m->lock);
}

void a64s_irq_set(struct a64s_machine *m, unsigned intid, bool level)
{
	struct a64s_gic *g = m->gic;
	if (intid >= NIRQ)
		return;
	pthread_mutex_lock(&m->lock);
	if (g->line[intid] != level) {
		g->line[intid] = level;
		if (level && g->edge[intid])
			g->pend[intid] = 1;
		update(g);
	}
	pthread_mutex_unlock(&m->lock);
}

/* ---- distributor: bit arrays of 32 per word, byte arrays of 4 ---- */
static uint32_t get_bits(struct a64s_gic *g, unsigned c, uint64_t off, uint64_t base, int which)
{
	uint32_t v = 0;
	unsigned first = (unsigned)(off - base) * 8;
	for (unsigned k = 0; k < 32 && first + k < NIRQ; k++) {
		unsigned n = first + k;
		bool b = which == 0 ? FIELD(g, c, enable, n) : which == 1 ? is_pending(g, c, n)
								    : FIELD(g, c, active, n);
		v |= (uint32_t)b << k;
	}
	return v;
}

static void set_bits(struct a64s_gic *g, unsigned c, uint64_t off, uint64_t base, int which,
		     uint8_t to, uint32_t v)
{
	unsigned first = (unsigned)(off - base) * 8;
	for (unsigned k = 0; k < 32 && first + k < NIRQ; k++) {
		if (!(v >> k & 1))
			continue;
		unsigned n = first + k;
		if (which == 0)
			FIELD(g, c, enable, n) = to;
		else if (which == 1)
			FIELD(g, c, pend, n) = to;
		else
			FIELD(g, c, active, n) = to;
	}
}

static uint64_t dist_read(void *dev, uint64_t off, unsigned size)
{
	struct a64s_gic *g = dev;
	unsigned c = a64s_current() ? a64s_current()->index : 0;
	uint64_t v = 0;
	pthread_mutex_lock(&g->m->lock);
	if (off == 0)
		v = g->ctlr;
	else if (off == 4)
		v = (NIRQ / 32 - 1) | (g->m->ncpus - 1) << 5;
	else if (off == 8)
		v = 0x43b; /* Arm */
	else if (off >= 0x100 && off < 0x400) {
		unsigned r = (unsigned)(off - 0x100) >> 7; /* enable, pend, active twice each */
		v = get_bits(g, c, off, 0x100 + (uint64_t)r * 0x80, (int)r / 2);
	}
	else if (off >= 0x400 && off < 0x400 + NIRQ)
		for (unsigned k = 0; k < size && off - 0x400 + k < NIRQ; k++)
			v |= (uint64_t)FIELD(g, c, prio, off - 0x400 + k) << (8 * k);
	else if (off >= 0x800 && off < 0x800 + NIRQ)
		for (unsigned k = 0; k < size; k++) {
			unsigned n = (unsigned)(off - 0x800) + k;
			v |= (uint64_t)(n < NPRIV ? 1u << c : g->target[n]) << (8 * k);
		}
	else if (off >= 0xc00 && off < 0xc00 + NIRQ / 4)
		for (unsigned k = 0; k < 16; k++)
			v |= (uint64_t)g->edge[(off - 0xc00) * 4 + k] << (2 * k + 1);
	else if (off == 0xfe8)
		v = 0x2b; /* PIDR2: GICv2 */
	pthread_mutex_unlock(&g->m->lock);
	return v;
}

static void dist_write(void *dev, uint64_t off, unsigned size, uint64_t v)
{
	struct a64s_gic *g = dev;
	unsigned c = a64s_current() ? a64s_current()->index : 0;
	pthread_mutex_lock(&g->m->lock);
	if (off == 0) {
		g->ctlr = (uint32_t)v & 1;
	} else if (off >= 0x100 && off < 0x400) {
		unsigned r = (unsigned)(off - 0x100) >> 7; /* set/clear enable, pend, active */
		set_bits(g, c, off, 0x100 + (uint64_t)r * 0x80, (int)r / 2, r % 2 == 0, (uint32_t)v);
	} else if (off >= 0x400 && off < 0x400 + NIRQ) {
		for (unsigned k = 0; k < size && off - 0x400 + k < NIRQ; k++)
			FIELD(g, c, prio, off - 0x400 + k) = (uint8_t)(v >> (8 * k));
	} else if (off >= 0x800 && off < 0x800 + NIRQ) {
		for (unsigned k = 0; k < size; k++)
			if ((off - 0x800) + k >= NPRIV && (off - 0x800) + k < NIRQ)
				g->target[off - 0x800 + k] = (uint8_t)(v >> (8 * k));
	} else if (off >= 0xc00 && off < 0xc00 + NIRQ / 4) {
		for (unsigned k = 0; k < 16; k++)
			if ((off - 0xc00) * 4 + k >= 16)
				g->edge[(off - 0xc00) * 4 + k] = v >> (2 * k + 1) & 1;
	} else if (off == 0xf00) { /* SGIR: target list filter 0 (list) or 1 (others) */
		unsigned filt = (unsigned)(v >> 24) & 3, list = (unsigned)(v >> 16) & 0xff;
		for (unsigned t = 0; t < g->m->ncpus; t++)
			if ((filt == 0 && (list >> t & 1)) || (filt == 1 && t != c) ||
			    (filt == 2 && t == c))
				g->cpu[t].priv_pend[v & 15] = 1;
	}
	update(g);
	pthread_mutex_unlock(&g->m->lock);
}

static uint64_t cpu_read(void *dev, uint64_t off, unsigned size)
{
	struct a64s_gic *g = dev;
	unsigned c = a64s_current() ? a64s_current()->index : 0;
	struct gic_cpu *gc = &g->cpu[c];
	uint64_t v = 0;
	(void)size;
	pthread_mutex_lock(&g->m->lock);
	switch (off) {
	case 0x00: v = gc->ctlr; break;
	case 0x04: v = gc->pmr; break;
	case 0x08: v = gc->bpr; break;
	case 0x0c: /* IAR: acknowledge */
		v = best(g, c);
		if (v != 1023) {
			FIELD(g, c, active, v) = 1;
			FIELD(g, c, pend, v) = 0;
		}
		update(g);
		break;
	case 0x18: v = best(g, c); break;
	case 0xfc: v = 0x0202043b; break; /* IIDR: GICv2 */
	default: break;
	}
	pthread_mutex_unlock(&g->m->lock);
	return v;
}

static void cpu_write(void *dev, uint64_t off, unsigned size, uint64_t v)
{
	struct a64s_gic *g = dev;
	unsigned c = a64s_current() ? a64s_current()->index : 0;
	struct gic_cpu *gc = &g->cpu[c];
	(void)size;
	pthread_mutex_lock(&g->m->lock);
	switch (off) {
	case 0x00: gc->ctlr = (uint32_t)v & 1; break;
	case 0x04: gc->pmr = (uint32_t)v & 0xff; break;
	case 0x08: gc->bpr = (uint32_t)v & 7; break;
	case 0x10: /* EOIR */
	case 0x1000: /* DIR */
		if ((v & 0x3ff) < NIRQ)
			FIELD(g, c, active, v & 0x3ff) = 0;
		break;
	default: break;
	}
	update(g);
	pthread_mutex_unlock(&g->m->lock);
}

static const struct a64s_mmio_ops dist_ops = { dist_read, dist_write };
static const struct a64s_mmio_ops cpu_ops = { cpu_read, cpu_write };

int a64s_gic_create(struct a64s_machine *m, uint64_t dist_base, uint64_t cpu_base)
{
	struct a64s_gic *g = calloc(1, sizeof(*g));
	if (!g)
		return -1;
	g->m = m;
	for (unsigned n = 0; n < 16; n++) /* SGIs are edge-triggered */
		g->edge[n] = 1;
	m->gic = g;
	if (a64s_bus_add(m, dist_base, 0x10000, &dist_ops, g) ||
	    a64s_bus_add(m, cpu_base, 0x10000, &cpu_ops, g))
		return -1;
	return 0;
}

/* ---- the generic timer's lines ---- */
static uint64_t timer_one(struct a64s_cpu *s, unsigned ctl, unsigned cval, unsigned ppi,
			  uint64_t now)
{
	uint64_t c = s->reg[ctl];
	bool fired = (c & 1) && now >= s->reg[cval];
	s->reg[ctl] = (c & 3) | (uint64_t)fired << 2;
	a64s_ppi_set(s->m, s->index, ppi, fired && !(c & 2));
	if (!(c & 1) || (c & 2) || fired)
		return UINT64_MAX;
	/* counter ticks to guest ns, then to the host ns they take now */
	uint64_t ns = (uint64_t)((unsigned __int128)(s->reg[cval] - now) * 1000000000u /
				 s->m->timer_hz) + 1;
	return a64s_host_ns_for(&s->m->clock, ns);
}

uint64_t a64s_timer_update(struct a64s_cpu *s)
{
	if (!s->m->gic)
		return UINT64_MAX;
	uint64_t now = a64s_counter(s->m);
	uint64_t a = timer_one(s, R_CNTV_CTL, R_CNTV_CVAL, PPI_VTIMER, now);
	uint64_t b = timer_one(s, R_CNTP_CTL, R_CNTP_CVAL, PPI_PTIMER, now);
	return a < b ? a : b;
}
