// SPDX-License-Identifier: MIT
/*
 * JOB_CONTROL: the job IRQ and the job slots' registers. A driver queues
 * a chain in the _NEXT registers and writes START to COMMAND_NEXT; the
 * slot takes it when idle (the _NEXT registers then read as empty) and the
 * slot's job-manager thread walks it (job_manager.c). A chain queued
 * behind a running one starts as soon as that one ends well; after a
 * failure it waits until the driver clears the slot's FAIL interrupt, so
 * the driver can still cancel it (COMMAND_NEXT=NOP; HEAD_NEXT then still
 * names it).
 */
#include "vgpu/internal.h"

#define JS(off, member, rw) VGPU_REG32(off, struct vgpu_slot, member, rw)
#define JS64(off, member, rw) VGPU_REG64(off, struct vgpu_slot, member, rw)

static const struct vgpu_reg_field slot_regs[] = {
	JS64(MALI_JS_HEAD_LO, head, VGPU_REG_RO),
	JS64(MALI_JS_TAIL_LO, tail, VGPU_REG_RO),
	JS64(MALI_JS_AFFINITY_LO, affinity, VGPU_REG_RO),
	JS(MALI_JS_CONFIG, config, VGPU_REG_RO),
	JS(MALI_JS_XAFFINITY, xaffinity, VGPU_REG_RO),
	JS(MALI_JS_STATUS, status, VGPU_REG_RO),
	JS64(MALI_JS_HEAD_NEXT_LO, head_next, VGPU_REG_RW),
	JS64(MALI_JS_AFFINITY_NEXT_LO, affinity_next, VGPU_REG_RW),
	JS(MALI_JS_CONFIG_NEXT, config_next, VGPU_REG_RW),
	JS(MALI_JS_XAFFINITY_NEXT, xaffinity_next, VGPU_REG_RW),
	JS(MALI_JS_COMMAND_NEXT, command_next, VGPU_REG_RO),
	JS(MALI_JS_FLUSH_ID_NEXT, flush_id_next, VGPU_REG_RW),
};

static uint32_t js_state(struct vgpu *gpu)
{
	uint32_t st = 0;

	for (unsigned s = 0; s < gpu->nslots; s++) {
		if (gpu->slot[s].active)
			st |= 1u << s;
		if (gpu->slot[s].command_next == MALI_JS_CMD_START)
			st |= 1u << (s + 16);
	}
	return st;
}

/* The slot register at @off, or NULL (absent slot, or not a slot). */
static struct vgpu_slot *slot_of(struct vgpu *gpu, uint32_t off, uint32_t *rel)
{
	unsigned n;

	if (off < MALI_JS_BASE)
		return NULL;
	n = (off - MALI_JS_BASE) / MALI_JS_STRIDE;
	if (n >= gpu->nslots)
		return NULL;
	*rel = (off - MALI_JS_BASE) % MALI_JS_STRIDE;
	return &gpu->slot[n];
}

uint32_t vgpu_job_control_read(struct vgpu *gpu, uint32_t off)
{
	struct vgpu_slot *s;
	uint32_t rel, val = 0;

	switch (off) {
	case MALI_JOB_IRQ_RAWSTAT:
		return gpu->job_irq_raw;
	case MALI_JOB_IRQ_MASK:
		return gpu->job_irq_mask;
	case MALI_JOB_IRQ_STATUS:
		return gpu->job_irq_raw & gpu->job_irq_mask;
	case MALI_JOB_IRQ_JS_STATE:
		return js_state(gpu);
	case MALI_JOB_IRQ_THROTTLE:
		return gpu->job_irq_throttle;
	}
	s = slot_of(gpu, off, &rel);
	if (s)
		vgpu_reg_table_read(slot_regs, OS_ARRAY_SIZE(slot_regs), s, rel,
				    &val);
	return val;
}

/* Moves the queued chain into the current registers and wakes the slot. */
void vgpu_slot_start_next_locked(struct vgpu_slot *s)
{
	s->head = s->tail = s->head_next;
	s->affinity = s->affinity_next;
	s->config = s->config_next;
	s->xaffinity = s->xaffinity_next;
	s->flush_id = s->flush_id_next;
	s->head_next = 0;
	s->command_next = MALI_JS_CMD_NOP;
	s->status = MALI_EXC_ACTIVE;
	__atomic_store_n(&s->stop, 0, __ATOMIC_SEQ_CST);
	s->active = true;
	s->gpu->stats.s.chains++;
	os_cond_signal(s->wake);
}

static void slot_command(struct vgpu_slot *s, uint32_t cmd)
{
	bool flag = s->config & MALI_JS_CONFIG_JOB_CHAIN_FLAG;
	uint32_t stop = 0;

	switch (cmd) {
	case MALI_JS_CMD_NOP:
		return;
	case MALI_JS_CMD_SOFT_STOP:
		stop = VGPU_STOP_SOFT;
		break;
	case MALI_JS_CMD_HARD_STOP:
		stop = VGPU_STOP_HARD;
		break;
	case MALI_JS_CMD_SOFT_STOP_0:
	case MALI_JS_CMD_SOFT_STOP_1:
		/* Only the chain whose JOB_CHAIN_FLAG matches is stopped. */
		if (flag == (cmd == MALI_JS_CMD_SOFT_STOP_1))
			stop = VGPU_STOP_SOFT;
		break;
	case MALI_JS_CMD_HARD_STOP_0:
	case MALI_JS_CMD_HARD_STOP_1:
		if (flag == (cmd == MALI_JS_CMD_HARD_STOP_1))
			stop = VGPU_STOP_HARD;
		break;
	default:
		os_warn(VGPU_LOG, "JS%u: unsupported JS_COMMAND 0x%x", s->nr,
			cmd);
		return;
	}
	if (!stop || !s->active)
		return;
	/* A hard stop overrides a pending soft stop, never the reverse. */
	if (stop > __atomic_load_n(&s->stop, __ATOMIC_SEQ_CST))
		__atomic_store_n(&s->stop, stop, __ATOMIC_SEQ_CST);
	os_cond_broadcast(s->gpu->stall_wake);
}

/* A failure not yet acknowledged holds the slot's queued chain. */
static bool slot_held(const struct vgpu_slot *s)
{
	return s->gpu->job_irq_raw & MALI_JOB_IRQ_FAIL(s->nr);
}

static void slot_command_next(struct vgpu_slot *s, uint32_t cmd)
{
	if (cmd == MALI_JS_CMD_NOP) {
		/* Cancels a queued chain that has not started. */
		s->command_next = MALI_JS_CMD_NOP;
		return;
	}
	if (cmd != MALI_JS_CMD_START) {
		os_warn(VGPU_LOG, "JS%u: unsupported JS_COMMAND_NEXT 0x%x",
			s->nr, cmd);
		return;
	}
	s->command_next = MALI_JS_CMD_START;
	if (!s->active && !slot_held(s))
		vgpu_slot_start_next_locked(s);
}

/* Clearing a slot's FAIL bit releases the chain it held. */
static void job_irq_clear(struct vgpu *gpu, uint32_t val)
{
	gpu->job_irq_raw &= ~val;
	for (unsigned n = 0; n < gpu->nslots; n++) {
		struct vgpu_slot *s = &gpu->slot[n];

		if ((val & MALI_JOB_IRQ_FAIL(n)) && !s->active &&
		    s->command_next == MALI_JS_CMD_START)
			vgpu_slot_start_next_locked(s);
	}
}

void vgpu_job_control_write(struct vgpu *gpu, uint32_t off, uint32_t val)
{
	struct vgpu_slot *s;
	uint32_t rel;

	switch (off) {
	case MALI_JOB_IRQ_CLEAR:
		job_irq_clear(gpu, val);
		return;
	case MALI_JOB_IRQ_MASK:
		gpu->job_irq_mask = val;
		return;
	case MALI_JOB_IRQ_THROTTLE:
		gpu->job_irq_throttle = val;
		return;
	}
	s = slot_of(gpu, off, &rel);
	if (!s)
		return;		/* absent slot or read-only: ignored */
	if (rel == MALI_JS_COMMAND)
		slot_command(s, val);
	else if (rel == MALI_JS_COMMAND_NEXT)
		slot_command_next(s, val);
	else
		vgpu_reg_table_write(slot_regs, OS_ARRAY_SIZE(slot_regs), s,
				     rel, val);
}

void vgpu_job_control_reset(struct vgpu *gpu)
{
	gpu->job_irq_raw = 0;
	gpu->job_irq_mask = 0;
	gpu->job_irq_throttle = 0;
	for (unsigned n = 0; n < MALI_JS_MAX; n++) {
		struct vgpu_slot *s = &gpu->slot[n];

		if (s->active)
			__atomic_store_n(&s->stop, VGPU_STOP_HARD,
					 __ATOMIC_SEQ_CST);
		s->head = s->tail = s->affinity = 0;
		s->head_next = s->affinity_next = 0;
		s->config = s->xaffinity = s->status = 0;
		s->config_next = s->xaffinity_next = 0;
		s->command_next = s->flush_id_next = s->flush_id = 0;
		s->active = false;
	}
}
