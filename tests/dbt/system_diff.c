// SPDX-License-Identifier: MIT
/*
 * Differential test of the full-system vCPU against qemu-system-aarch64
 * -M virt -cpu cortex-a53, the oracle: both boot the bare-metal probe
 * (tests/sys-guest/probe.c) as their kernel, which prints the state at
 * entry, the ESR/ELR/FAR/SPSR of SVC, BRK, an undefined instruction,
 * translation, access-flag and permission faults, AT's PAR and a round
 * trip to EL0, then powers off through PSCI. The consoles must be equal.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "harness.h"
#include "lib/proc.h"

static const char *vgpu_bin(void)
{
	const char *b = getenv("VGPU_BIN");
	return b && *b ? b : build_path("vgpu");
}

static char *run(struct __test_metadata *_metadata, char **argv)
{
	struct proc_result r;
	int started = proc_run(argv, NULL, NULL, NULL, 0, 60, &r);
	EXPECT_EQ(started, 0);
	if (started)
		return NULL;
	EXPECT_EQ(r.status, 0); /* PSCI SYSTEM_OFF */
	if (r.status)
		TH_LOG("%s: %s", argv[0], r.err);
	char *out = r.out;
	r.out = NULL;
	proc_result_free(&r);
	return out;
}

static char *run_vgpu(struct __test_metadata *_metadata)
{
	char *argv[] = { (char *)vgpu_bin(), "system", "--kernel",
			 (char *)build_path("tests/sys-guest/probe.bin"), "--time-limit", "50", NULL };
	return run(_metadata, argv);
}

TEST(probe_sees_the_architected_values)
{
	char *out = run_vgpu(_metadata);
	ASSERT_TRUE(out != NULL);
	static const char *const want[] = {
		"CurrentEL=0x0000000000000004 DAIF=0x00000000000003c0 SPSel=0x0000000000000001",
		"svc: vec=0x0000000000000200 esr=0x0000000056001234",
		"brk: vec=0x0000000000000200 esr=0x00000000f2000042 elr=0x0000000000000004",
		"udf: vec=0x0000000000000200 esr=0x0000000002000000 elr=0x0000000000000004",
		"translation: vec=0x0000000000000200 esr=0x0000000096000006",
		"access-flag: vec=0x0000000000000200 esr=0x000000009600000b",
		"ro-write: vec=0x0000000000000200 esr=0x000000009600004f",
		"at-mapped: 0x0000000000000000 at-hole: 0x000000000000000d",
		"el0-svc: vec=0x0000000000000400 esr=0x0000000056000077 elr=0x0000000000000004 spsr=0x0000000000000000",
		"el0-load: vec=0x0000000000000400 esr=0x000000009200000d",
		"probe: done",
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		EXPECT_TRUE(strstr(out, want[k]) != NULL);
		if (!strstr(out, want[k]))
			TH_LOG("missing: %s", want[k]);
	}
	free(out);
}

TEST(probe_agrees_with_qemu)
{
	struct stat st;
	if (stat("/usr/bin/qemu-system-aarch64", &st))
		SKIP(return, "no qemu-system-aarch64 (Debian package qemu-system-arm)");
	char *argv[] = { "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-m", "512M",
			 "-nographic", "-no-reboot", "-nic", "none", "-kernel",
			 (char *)build_path("tests/sys-guest/probe.bin"), NULL };
	char *q = run(_metadata, argv), *v = run_vgpu(_metadata);
	ASSERT_TRUE(q && v);
	EXPECT_TRUE(strstr(q, "probe: done") != NULL);
	EXPECT_STREQ(v, q);
	free(q);
	free(v);
}

TEST_HARNESS_MAIN
