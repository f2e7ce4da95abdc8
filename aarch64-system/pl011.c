// SPDX-License-Identifier: MIT
/*
 * A PL011 UART on the host's stdio: transmitted bytes go to an output
 * file descriptor at once; received bytes come from an input descriptor
 * (read by a thread, which waits while the FIFO is full) through a
 * 32-byte FIFO. Ctrl-A x on the input stops the machine. The transmitter is never
 * busy, so its interrupt is raised whenever it is unmasked.
 */
#include <pthread.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "aarch64-system/pl011.h"

#define FIFO 32
enum { INT_RX = 1u << 4, INT_TX = 1u << 5, INT_RT = 1u << 6 };
enum { CR_UARTEN = 1u << 0, CR_RXE = 1u << 9, CR_RTS = 1u << 11, CR_RTSEN = 1u << 14 };

struct a64s_pl011 {
	struct a64s_machine *m;
	unsigned irq;
	int out_fd, in_fd;
	uint32_t cr, lcr, ibrd, fbrd, ifls, imsc, ris, dmacr;
	uint8_t rx[FIFO];
	unsigned rx_head, rx_n;
	pthread_mutex_t lock;
};

static void update_irq(struct a64s_pl011 *u)
{
	u->ris = (u->ris & ~(INT_RX | INT_RT | INT_TX)) | INT_TX | (u->rx_n ? INT_RX | INT_RT : 0);
	a64s_irq_set(u->m, u->irq, (u->ris & u->imsc) != 0);
}

static uint64_t pl011_read(void *dev, uint64_t off, unsigned size)
{
	static const uint8_t id[8] = { 0x11, 0x10, 0x14, 0x00, 0x0d, 0xf0, 0x05, 0xb1 };
	struct a64s_pl011 *u = dev;
	uint64_t v = 0;
	(void)size;
	if (off >= 0xfe0 && off < 0x1000)
		return id[(off - 0xfe0) / 4];
	pthread_mutex_lock(&u->lock);
	switch (off) {
	case 0x00: /* DR */
		if (u->rx_n) {
			v = u->rx[u->rx_head];
			u->rx_head = (u->rx_head + 1) % FIFO;
			u->rx_n--;
		}
		break;
	case 0x18: v = (u->rx_n ? 0 : 1u << 4) | 1u << 7 | (u->rx_n == FIFO ? 1u << 6 : 0); break;
	case 0x24: v = u->ibrd; break;
	case 0x28: v = u->fbrd; break;
	case 0x2c: v = u->lcr; break;
	case 0x30: v = u->cr; break;
	case 0x34: v = u->ifls; break;
	case 0x38: v = u->imsc; break;
	case 0x3c: v = u->ris; break;
	case 0x40: v = u->ris & u->imsc; break;
	case 0x48: v = u->dmacr; break;
	default: break;
	}
	update_irq(u);
	pthread_mutex_unlock(&u->lock);
	return v;
}

static void pl011_write(void *dev, uint64_t off, unsigned size, uint64_t v)
{
	struct a64s_pl011 *u = dev;
	(void)size;
	pthread_mutex_lock(&u->lock);
	switch (off) {
	case 0x00: {
		uint8_t ch = (uint8_t)v;
		if (write(u->out_fd, &ch, 1) < 0) {
			/* a closed console loses output, as a disconnected line would */
		}
		break;
	}
	case 0x24: u->ibrd = (uint32_t)v & 0xffff; break;
	case 0x28: u->fbrd = (uint32_t)v & 0x3f; break;
	case 0x2c: u->lcr = (uint32_t)v & 0xff; break;
	case 0x30: u->cr = (uint32_t)v & 0xffff; break;
	case 0x34: u->ifls = (uint32_t)v & 0x3f; break;
	case 0x38: u->imsc = (uint32_t)v & 0x7ff; break;
	case 0x44: u->ris &= ~(uint32_t)v; break;
	case 0x48: u->dmacr = (uint32_t)v & 7; break;
	default: break;
	}
	update_irq(u);
	pthread_mutex_unlock(&u->lock);
}

static const struct a64s_mmio_ops pl011_ops = { pl011_read, pl011_write };

static bool rx_ready(const struct a64s_pl011 *u)
{
	return (u->cr & (CR_UARTEN | CR_RXE)) == (CR_UARTEN | CR_RXE) &&
	       (u->cr & (CR_RTS | CR_RTSEN));
}

static void *reader(void *arg)
{
	struct a64s_pl011 *u = arg;
	uint8_t ch;
	struct timespec ms = { 0, 1000000 };
	bool escape = false;
	while (read(u->in_fd, &ch, 1) == 1) {
		/* Ctrl-A x stops the machine (as under qemu -nographic);
		 * Ctrl-A Ctrl-A sends one Ctrl-A */
		if (escape || ch == 1) {
			escape = !escape && ch == 1;
			if (ch == 'x') {
				u->m->stop = 1;
				a64s_kick_all(u->m);
				break;
			}
			if (escape || ch != 1)
				continue;
		}
		pthread_mutex_lock(&u->lock);
		/* The input behaves as a peer that honours hardware flow
		 * control: it sends while the receiver is on and RTS asserted
		 * (by hand, or automatically while the FIFO has room). Linux
		 * asserts RTS once a tty is open, after its start-up has
		 * drained the FIFO and before anything reads it; typed-ahead
		 * input sent earlier (its console set-up unmasks the receive
		 * interrupts) was lost to that drain. */
		while (u->rx_n == FIFO || !rx_ready(u)) {
			pthread_mutex_unlock(&u->lock);
			nanosleep(&ms, NULL);
			pthread_mutex_lock(&u->lock);
		}
		u->rx[(u->rx_head + u->rx_n) % FIFO] = ch;
		u->rx_n++;
		update_irq(u);
		pthread_mutex_unlock(&u->lock);
	}
	return NULL;
}

struct a64s_pl011 *a64s_pl011_create(struct a64s_machine *m, uint64_t base, unsigned irq,
				     int in_fd, int out_fd)
{
	struct a64s_pl011 *u = calloc(1, sizeof(*u));
	if (!u)
		return NULL;
	u->m = m;
	u->irq = irq;
	u->in_fd = in_fd;
	u->out_fd = out_fd;
	u->cr = 0x300;
	pthread_mutex_init(&u->lock, NULL);
	if (a64s_bus_add(m, base, 0x1000, &pl011_ops, u)) {
		free(u);
		return NULL;
	}
	if (in_fd >= 0) {
		pthread_t th;
		if (!pthread_create(&th, NULL, reader, u))
			pthread_detach(th);
	}
	return u;
}
