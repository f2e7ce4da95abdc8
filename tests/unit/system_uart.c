// SPDX-License-Identifier: MIT
/*
 * Full-system machine: the PL011's input as Linux's amba-pl011 driver
 * sees it. Bytes waiting on the input reach the receive FIFO only while
 * the receiver is on and RTS asserted, so the FIFO drain in the driver's
 * port start-up (done with receive interrupts already unmasked by its
 * console set-up) finds nothing to throw away; a full FIFO holds the rest
 * back.
 */
#include <time.h>
#include <unistd.h>

#include "harness.h"
#include "aarch64-system/pl011.h"
#include "aarch64-system/sys.h"

#define DIST 0x08000000ull
#define CPUIF 0x08010000ull
#define UART 0x09000000ull

enum { DR = 0x00, FR = 0x18, CR = 0x30, IMSC = 0x38 };
enum { FR_RXFE = 1u << 4, FR_RXFF = 1u << 6 };
enum { CR_ON = 1u | 1u << 8 | 1u << 9, CR_RTS = 1u << 11, CR_RTSEN = 1u << 14 };
enum { IM_RX = 1u << 4 | 1u << 6 };

FIXTURE(uart) {
	struct a64s_machine m;
	int in[2];
};

static void wr(struct a64s_machine *m, uint64_t off, uint32_t v)
{
	a64s_bus_write(m, UART + off, 4, v);
}

static uint32_t rd(struct a64s_machine *m, uint64_t off)
{
	uint64_t v = ~0ull;
	a64s_bus_read(m, UART + off, 4, &v);
	return (uint32_t)v;
}

static void sleep_ms(long ms)
{
	struct timespec t = { ms / 1000, ms % 1000 * 1000000 };
	nanosleep(&t, NULL);
}

/* Whether a byte arrives in the FIFO within @ms. */
static bool rx_within(struct a64s_machine *m, long ms)
{
	for (long k = 0; k < ms; k++) {
		if (!(rd(m, FR) & FR_RXFE))
			return true;
		sleep_ms(1);
	}
	return false;
}

FIXTURE_SETUP(uart)
{
	ASSERT_EQ(a64s_machine_init(&self->m, 0x40000000, 1 << 20, 1), 0);
	ASSERT_EQ(a64s_gic_create(&self->m, DIST, CPUIF), 0);
	ASSERT_EQ(pipe(self->in), 0);
	/* the device lives as long as the process: its reader thread stays
	 * blocked on this pipe, whose write end is never closed */
	ASSERT_NONNULL(a64s_pl011_create(&self->m, UART, 33, self->in[0], -1));
	a64s_set_current(self->m.cpu[0]);
}

FIXTURE_TEARDOWN(uart)
{
	a64s_machine_free(&self->m);
}

TEST_F(uart, typed_ahead_input_waits_for_rts)
{
	struct a64s_machine *m = &self->m;
	ASSERT_EQ(write(self->in[1], "for p", 5), 5);
	/* the console's set-up: port on, receive interrupts unmasked, RTS low */
	wr(m, CR, CR_ON);
	wr(m, IMSC, IM_RX);
	EXPECT_FALSE(rx_within(m, 50));
	/* the tty's open: drain, then RTS up */
	while (!(rd(m, FR) & FR_RXFE))
		rd(m, DR);
	wr(m, CR, CR_ON | CR_RTS);
	ASSERT_TRUE(rx_within(m, 2000));
	char got[6] = { 0 };
	for (int k = 0; k < 5; k++) {
		ASSERT_TRUE(rx_within(m, 2000));
		got[k] = (char)rd(m, DR);
	}
	EXPECT_STREQ(got, "for p");
}

TEST_F(uart, receiver_off_or_rts_dropped_holds_input_back)
{
	struct a64s_machine *m = &self->m;
	wr(m, CR, CR_RTS | 1u << 8); /* RTS, but the receiver off */
	ASSERT_EQ(write(self->in[1], "x", 1), 1);
	EXPECT_FALSE(rx_within(m, 50));
	wr(m, CR, CR_ON | CR_RTSEN); /* automatic RTS */
	ASSERT_TRUE(rx_within(m, 2000));
	EXPECT_EQ(rd(m, DR), (uint32_t)'x');
	wr(m, CR, CR_ON); /* the tty's last close lowers RTS */
	ASSERT_EQ(write(self->in[1], "y", 1), 1);
	EXPECT_FALSE(rx_within(m, 50));
}

TEST_F(uart, a_full_fifo_holds_the_rest_back)
{
	struct a64s_machine *m = &self->m;
	char buf[40];
	for (int k = 0; k < 40; k++)
		buf[k] = (char)('A' + k);
	ASSERT_EQ(write(self->in[1], buf, sizeof(buf)), (ssize_t)sizeof(buf));
	wr(m, CR, CR_ON | CR_RTS);
	for (int k = 0; k < 2000 && !(rd(m, FR) & FR_RXFF); k++)
		sleep_ms(1);
	ASSERT_TRUE(rd(m, FR) & FR_RXFF);
	for (int k = 0; k < 40; k++) {
		ASSERT_TRUE(rx_within(m, 2000));
		EXPECT_EQ(rd(m, DR), (uint32_t)buf[k]);
	}
}

TEST_HARNESS_MAIN
