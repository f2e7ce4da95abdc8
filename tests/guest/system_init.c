// SPDX-License-Identifier: MIT
/*
 * /init of the initramfs that tests/dbt/system_boot.c boots under
 * `vgpu system` (and qemu-system-aarch64): runs as PID 1 at EL0, forks a
 * child that computes a checksum, prints what it saw and powers off.
 */
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

/* Sum of i * i mod 1000003 for i < n, as tests/dbt/system_boot.c computes it. */
static unsigned long checksum(unsigned long n)
{
	unsigned long t = 0;
	for (unsigned long i = 0; i < n; i++)
		t = (t + i * i) % 1000003;
	return t;
}

int main(void)
{
	struct utsname u;
	int status = -1;

	uname(&u);
	printf("system_init: pid %d on %s %s %s\n", (int)getpid(), u.sysname, u.release,
	       u.machine);
	fflush(stdout);
	pid_t child = fork();
	if (child == 0)
		_exit((int)(checksum(1000000) & 0x7f));
	if (child > 0)
		waitpid(child, &status, 0);
	printf("system_init: child status %d, checksum %lu\n",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1, checksum(1000000));
	fflush(stdout);
	sync();
	reboot(RB_POWER_OFF);
	return 1;
}
