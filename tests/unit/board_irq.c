// SPDX-License-Identifier: MIT
/*
 * The board's IRQ routing (board/board.h): the driver requests each of the
 * GPU's lines at probe, and a sink given to board_route_irqs() (a
 * full-system board's interrupt controller) takes the lines over, with
 * the same GPU model under it.
 */
#include <unistd.h>

#include "harness.h"
#include "board/board_priv.h"
#include "vgpu/regs.h"

struct seen {
	unsigned high[SHIM_IRQ_LINES], low[SHIM_IRQ_LINES];
};

static void sink(void *priv, unsigned line, bool level)
{
	struct seen *s = priv;

	if (line >= SHIM_IRQ_LINES)
		return;
	__atomic_add_fetch(level ? &s->high[line] : &s->low[line], 1, __ATOMIC_SEQ_CST);
}

FIXTURE(machine) {
	struct board *b;
};
FIXTURE_SETUP(machine)
{
	struct shim_config cfg = { .gpu = SHIM_GPU_G71 };
	struct shim_host host = { 0 }; /* no contexts are made here */
	struct board_config bc;

	board_config_from_shim(&bc, &cfg);
	self->b = board_create(&bc, &host);
	ASSERT_NONNULL(self->b);
}
FIXTURE_TEARDOWN(machine)
{
	board_destroy(self->b);
}

TEST_F(machine, the_driver_has_a_handler_on_every_line)
{
	for (unsigned l = 0; l < SHIM_IRQ_LINES; l++)
		EXPECT_NONNULL(self->b->handler[l].fn);
}

TEST_F(machine, a_sink_takes_the_lines_over)
{
	struct board *b = self->b;
	const struct shim_port *p = &b->port;
	struct seen s = { { 0 }, { 0 } };
	uint32_t mask = p->read32(p->priv, MALI_GPU_IRQ_MASK);

	board_route_irqs(b, sink, &s);
	/* A cache clean completes at once and raises the GPU line once its
	 * bit is unmasked. */
	p->write32(p->priv, MALI_GPU_IRQ_MASK, mask | MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	p->write32(p->priv, MALI_GPU_COMMAND, MALI_GPU_CMD_CLEAN_CACHES);
	while (!__atomic_load_n(&s.high[SHIM_IRQ_GPU], __ATOMIC_SEQ_CST))
		usleep(1000); /* the harness's timeout ends a line never raised */
	p->write32(p->priv, MALI_GPU_IRQ_MASK, mask);
	p->write32(p->priv, MALI_GPU_IRQ_CLEAR, MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED);
	board_route_irqs(b, NULL, NULL);
	EXPECT_EQ(s.high[SHIM_IRQ_JOB], 0u);
	EXPECT_EQ(s.high[SHIM_IRQ_MMU], 0u);
	/* Back in user mode the driver's handlers have the lines again. */
	EXPECT_NONNULL(b->handler[SHIM_IRQ_GPU].fn);
}

TEST_HARNESS_MAIN
