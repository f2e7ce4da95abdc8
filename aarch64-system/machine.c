// SPDX-License-Identifier: MIT
/*
 * The machine: guest RAM, the device bus, the vCPUs' run loops (one host
 * thread per vCPU), WFI, interrupts and PSCI.
 *
 * Time: the counter runs at 62.5 MHz (CNTFRQ, as qemu's virt machine) of
 * guest time, which clock.c derives from host time. A ticker thread
 * makes every vCPU leave the engine once a millisecond so that expired
 * timers and device interrupts are seen, and lets the clock look at the
 * GPU.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "aarch64-system/sys.h"

int a64s_machine_init(struct a64s_machine *m, uint64_t ram_base, uint64_t ram_size,
		      unsigned ncpus)
{
	memset(m, 0, sizeof(*m));
	if (ncpus < 1 || ncpus > A64S_MAX_CPUS)
		return -EINVAL;
	m->ram = mmap(NULL, ram_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS |
		      MAP_NORESERVE, -1, 0);
	if (m->ram == MAP_FAILED)
		return -ENOMEM;
	m->ram_base = ram_base;
	m->ram_size = ram_size;
	m->ncpus = ncpus;
	m->timer_hz = 62500000;
	a64s_clock_init(&m->clock);
	m->psci_hvc = true;
	pthread_mutex_init(&m->lock, NULL);
	pthread_cond_init(&m->wake, NULL);
	for (unsigned k = 0; k < ncpus; k++) {
		m->cpu[k] = aligned_alloc(64, (sizeof(struct a64s_cpu) + 63) & ~(size_t)63);
		if (!m->cpu[k])
			return -ENOMEM;
		a64s_cpu_reset(m->cpu[k], m, k);
	}
	m->cpu[0]->powered = true;
	return 0;
}

void a64s_machine_free(struct a64s_machine *m)
{
	for (unsigned k = 0; k < m->ncpus; k++)
		free(m->cpu[k]);
	if (m->ram)
		munmap(m->ram, m->ram_size);
	free(m->gic);
	memset(m, 0, sizeof(*m));
}

int a64s_bus_add(struct a64s_machine *m, uint64_t base, uint64_t size,
		 const struct a64s_mmio_ops *ops, void *dev)
{
	if (m->nmmio == A64S_MAX_MMIO)
		return -ENOSPC;
	m->mmio[m->nmmio].base = base;
	m->mmio[m->nmmio].size = size;
	m->mmio[m->nmmio].ops = ops;
	m->mmio[m->nmmio].dev = dev;
	m->nmmio++;
	return 0;
}

void *a64s_ram_ptr(struct a64s_machine *m, uint64_t pa, uint64_t n)
{
	if (pa < m->ram_base || pa - m->ram_base > m->ram_size || n > m->ram_size - (pa - m->ram_base))
		return NULL;
	return m->ram + (pa - m->ram_base);
}

static int find_dev(struct a64s_machine *m, uint64_t pa, unsigned size)
{
	for (unsigned k = 0; k < m->nmmio; k++)
		if (pa >= m->mmio[k].base && pa + size <= m->mmio[k].base + m->mmio[k].size)
			return (int)k;
	return -1;
}

bool a64s_bus_read(struct a64s_machine *m, uint64_t pa, unsigned size, uint64_t *v)
{
	int k = find_dev(m, pa, size);
	if (k < 0)
		return false;
	*v = m->mmio[k].ops->read(m->mmio[k].dev, pa - m->mmio[k].base, size);
	return true;
}

bool a64s_bus_write(struct a64s_machine *m, uint64_t pa, unsigned size, uint64_t v)
{
	int k = find_dev(m, pa, size);
	if (k < 0)
		return false;
	m->mmio[k].ops->write(m->mmio[k].dev, pa - m->mmio[k].base, size, v);
	return true;
}

void a64s_kick_all(struct a64s_machine *m)
{
	for (unsigned k = 0; k < m->ncpus; k++)
		if (m->cpu[k])
			m->cpu[k]->c.interrupt = 1;
	pthread_mutex_lock(&m->lock);
	pthread_cond_broadcast(&m->wake);
	pthread_mutex_unlock(&m->lock);
}

/* ---- PSCI 1.0 (function IDs of the SMC calling convention) ---- */
enum {
	PSCI_VERSION = 0x84000000, PSCI_CPU_SUSPEND = 0x84000001, PSCI_CPU_OFF = 0x84000002,
	PSCI_CPU_ON = 0x84000003, PSCI_AFFINITY_INFO = 0x84000004,
	PSCI_MIGRATE_INFO_TYPE = 0x84000006, PSCI_SYSTEM_OFF = 0x84000008,
	PSCI_SYSTEM_RESET = 0x84000009, PSCI_FEATURES = 0x8400000a,
	PSCI_64 = 0x40000000,
};
#define PSCI_NOT_SUPPORTED ((uint64_t)-1)
#define PSCI_INVALID ((uint64_t)-2)
#define PSCI_ALREADY_ON ((uint64_t)-4)

static void *vcpu_thread(void *arg);

static uint64_t cpu_on(struct a64s_machine *m, uint64_t mpidr, uint64_t entry, uint64_t ctx)
{
	unsigned t = (unsigned)(mpidr & 0xff);
	if (t >= m->ncpus || (mpidr & ~0xffull & 0xff00ffffffull))
		return PSCI_INVALID;
	struct a64s_cpu *s = m->cpu[t];
	if (s->powered)
		return PSCI_ALREADY_ON;
	a64s_cpu_reset(s, m, t);
	s->c.pc = entry;
	s->c.x[0] = ctx;
	s->powered = true;
	pthread_t th;
	if (pthread_create(&th, NULL, vcpu_thread, s)) {
		s->powered = false;
		return PSCI_INVALID;
	}
	pthread_detach(th);
	return 0;
}

static uint64_t psci_features(uint64_t fn)
{
	switch (fn & ~(uint64_t)PSCI_64) {
	case PSCI_VERSION: case PSCI_CPU_SUSPEND: case PSCI_CPU_OFF: case PSCI_CPU_ON:
	case PSCI_AFFINITY_INFO: case PSCI_MIGRATE_INFO_TYPE: case PSCI_SYSTEM_OFF:
	case PSCI_SYSTEM_RESET: case PSCI_FEATURES:
		return 0;
	default:
		return PSCI_NOT_SUPPORTED;
	}
}

void a64s_psci_call(struct a64s_cpu *s)
{
	struct a64s_machine *m = s->m;
	uint64_t *x = s->c.x, r = PSCI_NOT_SUPPORTED;
	uint32_t fn = (uint32_t)x[0];
	switch (fn & ~(uint32_t)PSCI_64) {
	case PSCI_VERSION: r = 0x10000; break;
	case PSCI_CPU_SUSPEND: s->wfi = true; s->c.interrupt = 1; r = 0; break;
	case PSCI_CPU_OFF: s->powered = false; s->c.interrupt = 1; r = 0; break;
	case PSCI_CPU_ON: r = cpu_on(m, x[1], x[2], x[3]); break;
	case PSCI_AFFINITY_INFO:
		r = (x[1] & 0xff) < m->ncpus ? !m->cpu[x[1] & 0xff]->powered : PSCI_INVALID;
		break;
	case PSCI_MIGRATE_INFO_TYPE: r = 2; break; /* no trusted OS */
	case PSCI_SYSTEM_OFF: m->stop = 1; a64s_kick_all(m); r = 0; break;
	case PSCI_SYSTEM_RESET: m->stop = 2; a64s_kick_all(m); r = 0; break;
	case PSCI_FEATURES: r = psci_features(x[1]); break;
	default: break;
	}
	x[0] = r;
}

/* ---- run loops ---- */
static void wait_for_interrupt(struct a64s_cpu *s)
{
	struct a64s_machine *m = s->m;
	uint64_t t0 = a64s_host_ns();
	pthread_mutex_lock(&m->lock);
	while (!m->stop && s->powered && !a64s_gic_pending(m, s->index)) {
		pthread_mutex_unlock(&m->lock);
		uint64_t ns = a64s_timer_update(s);
		pthread_mutex_lock(&m->lock);
		if (a64s_gic_pending(m, s->index))
			break;
		if (ns > 10000000)
			ns = 10000000;
		struct timespec ts;
		clock_gettime(CLOCK_REALTIME, &ts);
		uint64_t t = (uint64_t)ts.tv_nsec + ns;
		ts.tv_sec += (time_t)(t / 1000000000u);
		ts.tv_nsec = (long)(t % 1000000000u);
		pthread_cond_timedwait(&m->wake, &m->lock, &ts);
	}
	pthread_mutex_unlock(&m->lock);
	s->wfi = false;
	s->stats.wfi++;
	s->stats.wfi_ns += a64s_host_ns() - t0;
}

static void run_vcpu(struct a64s_cpu *s)
{
	struct a64s_machine *m = s->m;
	a64s_set_current(s);
	while (!m->stop && s->powered) {
		if (s->wfi)
			wait_for_interrupt(s);
		if (a64s_irq_ready(s))
			a64s_take_irq(s);
		struct a64_stop_info si = a64_run(&s->c);
		if (si.reason == A64_STOP_INTERRUPT) {
			s->c.interrupt = 0;
			a64s_timer_update(s);
			continue;
		}
		if (!a64s_handle_stop(s, &si)) {
			fprintf(stderr, "vgpu system: vCPU %u stopped at pc %#llx (reason %d)\n",
				s->index, (unsigned long long)s->c.pc, (int)si.reason);
			m->stop = 3;
			a64s_kick_all(m);
		}
	}
}

static void *vcpu_thread(void *arg)
{
	run_vcpu(arg);
	return NULL;
}

static void *ticker(void *arg)
{
	struct a64s_machine *m = arg;
	struct timespec ts = { 0, 1000000 };
	while (!m->stop) {
		nanosleep(&ts, NULL);
		/* A vCPU asleep in WFI converted its timer's deadline at the
		 * old rate: wake it to convert again. */
		if (a64s_clock_tick(&m->clock))
			pthread_cond_broadcast(&m->wake);
		for (unsigned k = 0; k < m->ncpus; k++)
			if (m->cpu[k] && m->cpu[k]->powered)
				m->cpu[k]->c.interrupt = 1;
	}
	return NULL;
}

int a64s_machine_run(struct a64s_machine *m)
{
	pthread_t tick;
	a64_engine_init();
	if (pthread_create(&tick, NULL, ticker, m))
		return -1;
	run_vcpu(m->cpu[0]);
	if (!m->stop)
		m->stop = 1; /* CPU 0 turned itself off */
	pthread_join(tick, NULL);
	return m->stop;
}
