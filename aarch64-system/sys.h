/* SPDX-License-Identifier: MIT */
/*
 * Full-system mode: an AArch64 vCPU at EL0/EL1 on the shared A64 engine,
 * with its system registers, stage-1 MMU and exceptions, and the machine
 * around it (RAM, the device bus, the interrupt controller).
 *
 * The machine is what a board plugs devices into: a64s_bus_add() maps an
 * MMIO region (the Mali's register window, say) and a64s_irq_set() drives
 * an interrupt line of the GIC, so no device needs to know about the CPU.
 */
#ifndef VGPU_A64S_SYS_H
#define VGPU_A64S_SYS_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "aarch64-user/cpu.h"
#include "aarch64-user/softmmu.h"

/* Storage-backed system registers (sysreg.c names their encodings). */
enum a64s_reg {
	R_SCTLR, R_TCR, R_TTBR0, R_TTBR1, R_MAIR, R_AMAIR, R_VBAR, R_ESR, R_FAR,
	R_ELR, R_SPSR, R_CPACR, R_CONTEXTIDR, R_TPIDR_EL1, R_TPIDRRO_EL0,
	R_CNTKCTL, R_PAR, R_AFSR0, R_AFSR1, R_MDSCR, R_CNTV_CTL, R_CNTV_CVAL,
	R_CNTP_CTL, R_CNTP_CVAL, R_CSSELR, R_OSLSR, R_MDCCINT, R_SCRATCH,
	A64S_NREGS
};

/* PSTATE bits as SPSR_EL1 holds them. */
#define PSR_D (1u << 9)
#define PSR_A (1u << 8)
#define PSR_I (1u << 7)
#define PSR_F (1u << 6)
#define PSR_DAIF (PSR_D | PSR_A | PSR_I | PSR_F)

/* Exception classes (ESR_ELx.EC) the vCPU raises. */
enum {
	EC_UNKNOWN = 0x00, EC_WFX = 0x01, EC_SVC64 = 0x15, EC_HVC64 = 0x16,
	EC_SMC64 = 0x17, EC_SYS64 = 0x18, EC_IABT_LOW = 0x20, EC_IABT_CUR = 0x21,
	EC_PC_ALIGN = 0x22, EC_DABT_LOW = 0x24, EC_DABT_CUR = 0x25,
	EC_SP_ALIGN = 0x26, EC_BRK64 = 0x3c,
};
#define ESR_IL (1u << 25)

struct a64s_machine;

struct a64s_cpu {
	struct a64_cpu c; /* first: the engine's view (x[31] is the current SP) */
	struct a64s_machine *m;
	unsigned index;
	unsigned el;	   /* 0 or 1 */
	unsigned spsel;	   /* 1: SP_EL1 at EL1 */
	uint32_t daif;	   /* PSR_D..PSR_F */
	uint64_t sp_el0, sp_el1; /* the banked SP not in x[31] */
	uint64_t reg[A64S_NREGS];
	bool powered;	   /* PSCI: on */
	bool wfi;	   /* waiting for an interrupt */
	struct a64s_tlb tlb[2]; /* one per exception level */
	/* Counted by its own thread for --stats (stats.c). */
	struct {
		/* A64 instructions of the blocks entered (a block left early,
		 * by a taken branch or an exception, counts whole). */
		uint64_t insns;
		uint64_t sync[2];  /* synchronous exceptions taken from EL0, EL1 */
		uint64_t irqs;	   /* IRQs taken */
		uint64_t wfi;	   /* waits for an interrupt (WFI, CPU_SUSPEND) */
		uint64_t wfi_ns;   /* host ns spent in them */
	} stats;
};

/* A device on the bus: offsets are from the region's base. */
struct a64s_mmio_ops {
	uint64_t (*read)(void *dev, uint64_t off, unsigned size);
	void (*write)(void *dev, uint64_t off, unsigned size, uint64_t v);
};

/* Guest time (clock.c): host time, slowed down gpu_time_scale times
 * while the GPU has work. */
#define A64S_GPU_TIME_SCALE 1000
struct a64s_clock {
	uint32_t seq;	      /* odd while the ticker rebases */
	uint64_t host_base;   /* host ns at guest_base */
	uint64_t guest_base;  /* guest ns */
	uint64_t div;	      /* host ns per guest ns from host_base on */
	unsigned gpu_time_scale;
	bool (*busy)(void *dev); /* the GPU has work (NULL: no GPU) */
	void *busy_dev;
	uint64_t busy_ticks, busy_periods; /* ticker's count of busy ms, jobs' runs */
	uint64_t start_ns;    /* host ns at init */
};

#define A64S_MAX_MMIO 16
#define A64S_MAX_CPUS 8

struct a64s_gic;

struct a64s_machine {
	uint64_t ram_base, ram_size;
	uint8_t *ram;
	unsigned ncpus;
	struct a64s_cpu *cpu[A64S_MAX_CPUS];
	struct {
		uint64_t base, size;
		const struct a64s_mmio_ops *ops;
		void *dev;
	} mmio[A64S_MAX_MMIO];
	unsigned nmmio;
	struct a64s_gic *gic;
	uint64_t timer_hz;   /* CNTFRQ_EL0 */
	struct a64s_clock clock;
	volatile int stop;   /* 1: power off, 2: reset */
	bool psci_hvc;	     /* PSCI conduit: HVC (else SMC) */
	pthread_mutex_t lock; /* devices, GIC */
	pthread_cond_t wake;  /* a vCPU in WFI */
};

/* The engine's system-mode build under the names variant.h gives it, for
 * code built without variant.h (tests, the command). */
struct a64_stop_info a64s_run(struct a64_cpu *cpu);
void a64s_invalidate(uint64_t addr, uint64_t len);

/* ---- machine.c ---- */
int a64s_machine_init(struct a64s_machine *m, uint64_t ram_base, uint64_t ram_size,
		      unsigned ncpus);
void a64s_machine_free(struct a64s_machine *m);
int a64s_bus_add(struct a64s_machine *m, uint64_t base, uint64_t size,
		 const struct a64s_mmio_ops *ops, void *dev);
/* Host pointer of guest physical [pa, pa + n) in RAM, or NULL. */
void *a64s_ram_ptr(struct a64s_machine *m, uint64_t pa, uint64_t n);
bool a64s_bus_read(struct a64s_machine *m, uint64_t pa, unsigned size, uint64_t *v);
bool a64s_bus_write(struct a64s_machine *m, uint64_t pa, unsigned size, uint64_t v);

/* ---- clock.c: guest time ---- */
uint64_t a64s_host_ns(void); /* CLOCK_MONOTONIC */
void a64s_clock_init(struct a64s_clock *c);
uint64_t a64s_guest_ns(const struct a64s_clock *c);
/* Host ns that @guest_ns of guest time take at the current rate. */
uint64_t a64s_host_ns_for(const struct a64s_clock *c, uint64_t guest_ns);
/* The ticker's once-a-millisecond look at the GPU: true when the rate
 * changed (timer deadlines in host time are then stale). */
bool a64s_clock_tick(struct a64s_clock *c);
/* The generic timer's count (CNTFRQ timer_hz) of guest time. */
uint64_t a64s_counter(const struct a64s_machine *m);

/* Runs vCPU 0 (and those PSCI starts) until the guest powers off: returns
 * the machine's stop reason. */
int a64s_machine_run(struct a64s_machine *m);
/* Makes every vCPU look at its interrupts again. */
void a64s_kick_all(struct a64s_machine *m);

/* ---- stats.c ---- */
/* The machine's side of --stats as a JSON object (malloc'd; NULL when
 * out of memory): guest time and the vCPUs' counters. */
char *a64s_stats_json(struct a64s_machine *m);

/* ---- cpu.c: state, exceptions ---- */
void a64s_cpu_reset(struct a64s_cpu *s, struct a64s_machine *m, unsigned index);
struct a64s_cpu *a64s_current(void);
void a64s_set_current(struct a64s_cpu *s);
uint32_t a64s_pstate(const struct a64s_cpu *s);
/* Synchronous exception to EL1 with @esr; @ret is the preferred return. */
void a64s_take_sync(struct a64s_cpu *s, uint32_t esr, uint64_t ret);
void a64s_take_irq(struct a64s_cpu *s);
void a64s_eret(struct a64s_cpu *s);
void a64s_set_spsel(struct a64s_cpu *s, unsigned spsel);
/* An unmasked interrupt is pending. */
bool a64s_irq_ready(struct a64s_cpu *s);
/* Converts a stop of the engine into a guest exception; false when the
 * stop is not one the guest handles. */
bool a64s_handle_stop(struct a64s_cpu *s, const struct a64_stop_info *si);
/* Registers and exception state, for a machine that stopped unexpectedly. */
void a64s_dump(struct a64s_cpu *s, FILE *f);

/* ---- mmu.c: stage-1 translation ---- */
enum a64s_fault {
	F_NONE, F_TRANSLATION, F_ACCESS, F_PERMISSION, F_ADDRSIZE, F_ALIGN, F_EXTERNAL,
};
struct a64s_walk {
	uint64_t pa;
	enum a64s_fault fault;
	int level;
	bool r, w, x;	 /* allowed at the EL asked for */
};
/* Translates @va for an access at @el; fills @out (fault F_NONE or why). */
void a64s_translate(struct a64s_cpu *s, uint64_t va, unsigned el, enum a64s_access acc,
		    struct a64s_walk *out);
/* ESR ISS fault status code of a walk's fault. */
uint32_t a64s_fsc(const struct a64s_walk *w);
void a64s_tlb_flush(struct a64s_cpu *s);
void a64s_tlb_flush_va(struct a64s_cpu *s, uint64_t va);
/* Selects the TLB of the current EL for the accessors. */
void a64s_tlb_select(struct a64s_cpu *s);

/* ---- sysreg.c ---- */
/* Reads/writes the register of MRS/MSR encoding @key (op0:op1:CRn:CRm:op2,
 * bits 20:5 of the instruction); false when it does not exist. */
const void *a64s_sysreg_find(uint32_t key);
uint64_t a64s_sysreg_read(struct a64s_cpu *s, const void *reg);
void a64s_sysreg_write(struct a64s_cpu *s, const void *reg, uint64_t v);

/* ---- timer.c, gic.c ---- */
int a64s_gic_create(struct a64s_machine *m, uint64_t dist_base, uint64_t cpu_base);
void a64s_irq_set(struct a64s_machine *m, unsigned intid, bool level);
/* Per-CPU interrupt (SGI/PPI) of one vCPU. */
void a64s_ppi_set(struct a64s_machine *m, unsigned cpu, unsigned intid, bool level);
bool a64s_gic_pending(struct a64s_machine *m, unsigned cpu);
/* Updates the timer's interrupt lines; returns the host ns until it next fires. */
uint64_t a64s_timer_update(struct a64s_cpu *s);

#endif
