// SPDX-License-Identifier: MIT
/*
 * Differential test of the full-system vCPU against qemu-system-aarch64
 * -M virt -cpu cortex-a53, the oracle: both boot the bare-metal probe
 * (tests/sys-guest/probe.c) as their kernel, which prints the state at
 * entry, the ESR/ELR/FAR/SPSR of SVC, BRK, an undefined instruction,
 * translation, access-flag and permission faults, AT's PAR, a round
 * trip to EL0, code rewritten in place and a code page remapped, then
 * powers off through PSCI. The consoles must be equal, on both of vgpu's
 * engines (-accel jit and interp).
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

static const char *const engines[] = { "jit", "interp" };
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

static char *run_vgpu(struct __test_metadata *_metadata, const char *accel)
{
	char *argv[] = { (char *)vgpu_bin(), "system", "-accel", (char *)accel, "--kernel",
			 (char *)build_path("tests/sys-guest/probe.bin"), "--time-limit", "50", NULL };
	return run(_metadata, argv);
}

static void expect_architected(struct __test_metadata *_metadata, const char *accel)
{
	char *out = run_vgpu(_metadata, accel);
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
		/* the rewritten code's new value; the remapped page's */
		"smc: 0x0000000000000001 0x0000000000000002",
		"remap: 0x0000000000000003 0x0000000000000004",
		"probe: done",
	};
	for (size_t k = 0; k < sizeof(want) / sizeof(want[0]); k++) {
		EXPECT_TRUE(strstr(out, want[k]) != NULL);
		if (!strstr(out, want[k]))
			TH_LOG("-accel %s: missing: %s", accel, want[k]);
	}
	free(out);
}

TEST(probe_sees_the_architected_values)
{
	for (size_t e = 0; e < NENGINES; e++)
		expect_architected(_metadata, engines[e]);
}

TEST(probe_agrees_with_qemu)
{
	struct stat st;
	if (stat("/usr/bin/qemu-system-aarch64", &st))
		SKIP(return, "no qemu-system-aarch64 (Debian package qemu-system-arm)");
	char *argv[] = { "qemu-system-aarch64", "-M", "virt", "-cpu", "cortex-a53", "-m", "512M",
			 "-nographic", "-no-reboot", "-nic", "none", "-kernel",
			 (char *)build_path("tests/sys-guest/probe.bin"), NULL };
	char *q = run(_metadata, argv);
	ASSERT_TRUE(q != NULL);
	EXPECT_TRUE(strstr(q, "probe: done") != NULL);
	for (size_t e = 0; e < NENGINES; e++) {
		char *v = run_vgpu(_metadata, engines[e]);
		EXPECT_TRUE(v != NULL);
		if (v && strcmp(v, q))
			TH_LOG("-accel %s differs from qemu", engines[e]);
		if (v)
			EXPECT_STREQ(v, q);
		free(v);
	}
	free(q);
}

TEST_HARNESS_MAIN
