/* SPDX-License-Identifier: MIT */
/*
 * The register map of a Mali Bifrost (job-manager) GPU as drivers see it:
 * byte offsets into the 16 KiB register window, bit fields, commands and
 * exception codes. Values follow what Linux panfrost and Arm kbase program,
 * so driver-shim can use the same names. Offsets are relative to the
 * start of the GPU's register window.
 */
#ifndef VGPU_REGS_H
#define VGPU_REGS_H

#define MALI_REG_WINDOW_SIZE		0x4000u

/* ---- GPU_CONTROL (0x0000 - 0x0fff) ---- */
#define MALI_GPU_ID			0x000
#define MALI_GPU_L2_FEATURES		0x004
#define MALI_GPU_CORE_FEATURES		0x008
#define MALI_GPU_TILER_FEATURES		0x00c
#define MALI_GPU_MEM_FEATURES		0x010
#define MALI_GPU_MMU_FEATURES		0x014
#define MALI_GPU_AS_PRESENT		0x018
#define MALI_GPU_JS_PRESENT		0x01c
#define MALI_GPU_IRQ_RAWSTAT		0x020
#define MALI_GPU_IRQ_CLEAR		0x024
#define MALI_GPU_IRQ_MASK		0x028
#define MALI_GPU_IRQ_STATUS		0x02c
#define MALI_GPU_COMMAND		0x030
#define MALI_GPU_STATUS			0x034
#define MALI_GPU_LATEST_FLUSH		0x038
#define MALI_GPU_FAULTSTATUS		0x03c
#define MALI_GPU_FAULTADDRESS_LO	0x040
#define MALI_GPU_FAULTADDRESS_HI	0x044
#define MALI_GPU_AFBC_FEATURES		0x04c
#define MALI_GPU_PWR_KEY		0x050
#define MALI_GPU_PWR_OVERRIDE0		0x054
#define MALI_GPU_PWR_OVERRIDE1		0x058
#define MALI_GPU_PRFCNT_BASE_LO		0x060
#define MALI_GPU_PRFCNT_BASE_HI		0x064
#define MALI_GPU_PRFCNT_CONFIG		0x068
#define MALI_GPU_PRFCNT_JM_EN		0x06c
#define MALI_GPU_PRFCNT_SHADER_EN	0x070
#define MALI_GPU_PRFCNT_TILER_EN	0x074
#define MALI_GPU_PRFCNT_MMU_L2_EN	0x07c
#define MALI_GPU_CYCLE_COUNT_LO		0x090
#define MALI_GPU_CYCLE_COUNT_HI		0x094
#define MALI_GPU_TIMESTAMP_LO		0x098
#define MALI_GPU_TIMESTAMP_HI		0x09c
#define MALI_GPU_THREAD_MAX_THREADS	0x0a0
#define MALI_GPU_THREAD_MAX_WORKGROUP_SIZE 0x0a4
#define MALI_GPU_THREAD_MAX_BARRIER_SIZE 0x0a8
#define MALI_GPU_THREAD_FEATURES	0x0ac
#define MALI_GPU_TEXTURE_FEATURES(n)	(0x0b0 + (n) * 4)	/* n < 4 */
#define MALI_GPU_JS_FEATURES(n)		(0x0c0 + (n) * 4)	/* n < 16 */

/* Power domains: each has PRESENT/READY/PWRON/PWROFF/PWRTRANS/PWRACTIVE
 * 64-bit registers at a common stride from its base. */
#define MALI_GPU_SHADER_BASE		0x100
#define MALI_GPU_TILER_BASE		0x110
#define MALI_GPU_L2_BASE		0x120
#define MALI_PWR_PRESENT		0x000
#define MALI_PWR_READY			0x040
#define MALI_PWR_PWRON			0x080
#define MALI_PWR_PWROFF			0x0c0
#define MALI_PWR_PWRTRANS		0x100
#define MALI_PWR_PWRACTIVE		0x140
#define MALI_GPU_SHADER_PRESENT_LO	0x100
#define MALI_GPU_SHADER_PRESENT_HI	0x104
#define MALI_GPU_TILER_PRESENT_LO	0x110
#define MALI_GPU_L2_PRESENT_LO		0x120
#define MALI_GPU_SHADER_READY_LO	0x140
#define MALI_GPU_TILER_READY_LO		0x150
#define MALI_GPU_L2_READY_LO		0x160
#define MALI_GPU_SHADER_PWRON_LO	0x180
#define MALI_GPU_TILER_PWRON_LO		0x190
#define MALI_GPU_L2_PWRON_LO		0x1a0
#define MALI_GPU_SHADER_PWROFF_LO	0x1c0
#define MALI_GPU_TILER_PWROFF_LO	0x1d0
#define MALI_GPU_L2_PWROFF_LO		0x1e0
#define MALI_GPU_SHADER_PWRTRANS_LO	0x200
#define MALI_GPU_TILER_PWRTRANS_LO	0x210
#define MALI_GPU_L2_PWRTRANS_LO		0x220
#define MALI_GPU_COHERENCY_FEATURES	0x300
#define MALI_GPU_COHERENCY_ENABLE	0x304
#define MALI_GPU_THREAD_TLS_ALLOC	0x310
/* Core stacks (v7+): a 0x10 stride instead of 0x40. */
#define MALI_GPU_STACK_PRESENT_LO	0xe00
#define MALI_GPU_STACK_READY_LO		0xe10
#define MALI_GPU_STACK_PWRON_LO		0xe20
#define MALI_GPU_STACK_PWROFF_LO	0xe30
#define MALI_GPU_STACK_PWRTRANS_LO	0xe40
#define MALI_GPU_JM_CONFIG		0xf00
#define MALI_GPU_SHADER_CONFIG		0xf04
#define MALI_GPU_TILER_CONFIG		0xf08
#define MALI_GPU_L2_MMU_CONFIG		0xf0c

/* GPU_IRQ_* bits */
#define MALI_GPU_IRQ_FAULT		(1u << 0)
#define MALI_GPU_IRQ_MULTIPLE_FAULT	(1u << 7)
#define MALI_GPU_IRQ_RESET_COMPLETED	(1u << 8)
#define MALI_GPU_IRQ_POWER_CHANGED	(1u << 9)
#define MALI_GPU_IRQ_POWER_CHANGED_ALL	(1u << 10)
#define MALI_GPU_IRQ_PRFCNT_SAMPLE_COMPLETED (1u << 16)
#define MALI_GPU_IRQ_CLEAN_CACHES_COMPLETED (1u << 17)
#define MALI_GPU_IRQ_ALL		0x00030781u

/* GPU_COMMAND values */
#define MALI_GPU_CMD_NOP		0x00
#define MALI_GPU_CMD_SOFT_RESET		0x01
#define MALI_GPU_CMD_HARD_RESET		0x02
#define MALI_GPU_CMD_PRFCNT_CLEAR	0x03
#define MALI_GPU_CMD_PRFCNT_SAMPLE	0x04
#define MALI_GPU_CMD_CYCLE_COUNT_START	0x05
#define MALI_GPU_CMD_CYCLE_COUNT_STOP	0x06
#define MALI_GPU_CMD_CLEAN_CACHES	0x07
#define MALI_GPU_CMD_CLEAN_INV_CACHES	0x08
#define MALI_GPU_CMD_SET_PROTECTED_MODE	0x09

/* GPU_STATUS bits */
#define MALI_GPU_STATUS_ACTIVE		(1u << 0)
#define MALI_GPU_STATUS_PRFCNT_ACTIVE	(1u << 2)
#define MALI_GPU_STATUS_CYCLE_COUNT_ACTIVE (1u << 6)

/* PRFCNT_CONFIG fields */
#define MALI_PRFCNT_MODE(cfg)		((cfg) & 0xf)
#define MALI_PRFCNT_MODE_OFF		0
#define MALI_PRFCNT_MODE_MANUAL		1
#define MALI_PRFCNT_MODE_TILE		2
#define MALI_PRFCNT_AS(cfg)		(((cfg) >> 4) & 0xf)

/* Performance-counter dump: blocks of 64 32-bit counters, in the order
 * job manager, tiler, one per L2 slice, one per shader core. The first
 * four words of a block are a header (timestamp lo/hi, enable mask). */
#define MALI_PRFCNT_COUNTERS_PER_BLOCK	64
#define MALI_PRFCNT_BLOCK_BYTES		(MALI_PRFCNT_COUNTERS_PER_BLOCK * 4)
#define MALI_PRFCNT_HDR_TIMESTAMP_LO	0
#define MALI_PRFCNT_HDR_TIMESTAMP_HI	1
#define MALI_PRFCNT_HDR_ENABLE		2

/* ---- JOB_CONTROL (0x1000 - 0x1fff) ---- */
#define MALI_JOB_IRQ_RAWSTAT		0x1000
#define MALI_JOB_IRQ_CLEAR		0x1004
#define MALI_JOB_IRQ_MASK		0x1008
#define MALI_JOB_IRQ_STATUS		0x100c
#define MALI_JOB_IRQ_JS_STATE		0x1010
#define MALI_JOB_IRQ_THROTTLE		0x1014
#define MALI_JOB_IRQ_DONE(n)		(1u << (n))
#define MALI_JOB_IRQ_FAIL(n)		(1u << ((n) + 16))

#define MALI_JS_BASE			0x1800
#define MALI_JS_STRIDE			0x80
#define MALI_JS_MAX			16
#define MALI_JS(n)			(MALI_JS_BASE + (n) * MALI_JS_STRIDE)
#define MALI_JS_HEAD_LO			0x00
#define MALI_JS_HEAD_HI			0x04
#define MALI_JS_TAIL_LO			0x08
#define MALI_JS_TAIL_HI			0x0c
#define MALI_JS_AFFINITY_LO		0x10
#define MALI_JS_AFFINITY_HI		0x14
#define MALI_JS_CONFIG			0x18
#define MALI_JS_XAFFINITY		0x1c
#define MALI_JS_COMMAND			0x20
#define MALI_JS_STATUS			0x24
#define MALI_JS_HEAD_NEXT_LO		0x40
#define MALI_JS_HEAD_NEXT_HI		0x44
#define MALI_JS_AFFINITY_NEXT_LO	0x50
#define MALI_JS_AFFINITY_NEXT_HI	0x54
#define MALI_JS_CONFIG_NEXT		0x58
#define MALI_JS_XAFFINITY_NEXT		0x5c
#define MALI_JS_COMMAND_NEXT		0x60
#define MALI_JS_FLUSH_ID_NEXT		0x70

/* JS_CONFIG fields */
#define MALI_JS_CONFIG_AS(cfg)			((cfg) & 0xf)
#define MALI_JS_CONFIG_START_FLUSH_CLEAN	(1u << 8)
#define MALI_JS_CONFIG_START_FLUSH_INV		(1u << 9)
#define MALI_JS_CONFIG_START_MMU		(1u << 10)
#define MALI_JS_CONFIG_JOB_CHAIN_FLAG		(1u << 11)
#define MALI_JS_CONFIG_END_FLUSH_CLEAN		(1u << 12)
#define MALI_JS_CONFIG_END_FLUSH_INV		(1u << 13)
#define MALI_JS_CONFIG_ENABLE_FLUSH_REDUCTION	(1u << 14)
#define MALI_JS_CONFIG_DISABLE_DESCRIPTOR_WR_BK	(1u << 15)

/* JS_COMMAND / JS_COMMAND_NEXT values */
#define MALI_JS_CMD_NOP			0x00
#define MALI_JS_CMD_START		0x01
#define MALI_JS_CMD_SOFT_STOP		0x02
#define MALI_JS_CMD_HARD_STOP		0x03
#define MALI_JS_CMD_SOFT_STOP_0		0x04
#define MALI_JS_CMD_HARD_STOP_0		0x05
#define MALI_JS_CMD_SOFT_STOP_1		0x06
#define MALI_JS_CMD_HARD_STOP_1		0x07

/* JS_FEATURES bits: which job types a slot accepts */
#define MALI_JS_FEAT_NULL		(1u << 1)
#define MALI_JS_FEAT_WRITE_VALUE	(1u << 2)
#define MALI_JS_FEAT_CACHE_FLUSH	(1u << 3)
#define MALI_JS_FEAT_COMPUTE		(1u << 4)
#define MALI_JS_FEAT_VERTEX		(1u << 5)
#define MALI_JS_FEAT_GEOMETRY		(1u << 6)
#define MALI_JS_FEAT_TILER		(1u << 7)
#define MALI_JS_FEAT_FUSED		(1u << 8)
#define MALI_JS_FEAT_FRAGMENT		(1u << 9)

/* ---- MMU (0x2000 - 0x2fff) ---- */
#define MALI_MMU_IRQ_RAWSTAT		0x2000
#define MALI_MMU_IRQ_CLEAR		0x2004
#define MALI_MMU_IRQ_MASK		0x2008
#define MALI_MMU_IRQ_STATUS		0x200c
#define MALI_MMU_IRQ_PAGE_FAULT(as)	(1u << (as))
#define MALI_MMU_IRQ_BUS_FAULT(as)	(1u << ((as) + 16))

#define MALI_AS_BASE			0x2400
#define MALI_AS_STRIDE			0x40
#define MALI_AS_MAX			16
#define MALI_AS(n)			(MALI_AS_BASE + (n) * MALI_AS_STRIDE)
#define MALI_AS_TRANSTAB_LO		0x00
#define MALI_AS_TRANSTAB_HI		0x04
#define MALI_AS_MEMATTR_LO		0x08
#define MALI_AS_MEMATTR_HI		0x0c
#define MALI_AS_LOCKADDR_LO		0x10
#define MALI_AS_LOCKADDR_HI		0x14
#define MALI_AS_COMMAND			0x18
#define MALI_AS_FAULTSTATUS		0x1c
#define MALI_AS_FAULTADDRESS_LO		0x20
#define MALI_AS_FAULTADDRESS_HI		0x24
#define MALI_AS_STATUS			0x28
#define MALI_AS_TRANSCFG_LO		0x30
#define MALI_AS_TRANSCFG_HI		0x34
#define MALI_AS_FAULTEXTRA_LO		0x38
#define MALI_AS_FAULTEXTRA_HI		0x3c

/* AS_COMMAND values */
#define MALI_AS_CMD_NOP			0x00
#define MALI_AS_CMD_UPDATE		0x01
#define MALI_AS_CMD_LOCK		0x02
#define MALI_AS_CMD_UNLOCK		0x03
#define MALI_AS_CMD_FLUSH_PT		0x04
#define MALI_AS_CMD_FLUSH_MEM		0x05

#define MALI_AS_STATUS_ACTIVE		(1u << 0)

/* AS_FAULTSTATUS: exception type [7:0], access type [9:8], source [31:16] */
#define MALI_AS_FAULT_EXC(fs)		((fs) & 0xff)
#define MALI_AS_FAULT_ACCESS(fs)	(((fs) >> 8) & 0x3)
#define MALI_AS_FAULT_ACCESS_ATOMIC	0
#define MALI_AS_FAULT_ACCESS_EXECUTE	1
#define MALI_AS_FAULT_ACCESS_READ	2
#define MALI_AS_FAULT_ACCESS_WRITE	3

/* AS_LOCKADDR: region width in [5:0] (size = 2^(width + 1)), base above */
#define MALI_AS_LOCK_WIDTH(la)		((unsigned)((la) & 0x3f))

/* Legacy (LPAE) TRANSTAB mode bits, used when TRANSCFG is 0 */
#define MALI_TRANSTAB_ADRMODE_MASK	0x3
#define MALI_TRANSTAB_ADRMODE_UNMAPPED	0x0
#define MALI_TRANSTAB_ADRMODE_IDENTITY	0x2
#define MALI_TRANSTAB_ADRMODE_TABLE	0x3
#define MALI_TRANSTAB_READ_INNER	(1u << 2)
#define MALI_TRANSTAB_SHARE_OUTER	(1u << 4)

/* TRANSCFG */
#define MALI_TRANSCFG_ADRMODE_MASK	0xf
#define MALI_TRANSCFG_ADRMODE_LEGACY	0x0
#define MALI_TRANSCFG_ADRMODE_UNMAPPED	0x1
#define MALI_TRANSCFG_ADRMODE_IDENTITY	0x2
#define MALI_TRANSCFG_ADRMODE_AARCH64_4K 0x6
#define MALI_TRANSCFG_ADRMODE_AARCH64_64K 0x8
/* INA_BITS holds 55 minus the number of input address bits (0: 48). */
#define MALI_TRANSCFG_INA_BITS(cfg)	((unsigned)(((cfg) >> 6) & 0x1f))
#define MALI_TRANSCFG_INA_BITS_SHIFT	6

/* Page-table descriptors (both formats: 4 KiB granule, 4 levels, 512
 * entries per table). Bits [1:0] give the type. */
#define MALI_PTE_TYPE_MASK		0x3ull
#define MALI_PTE_TYPE_BLOCK		0x1ull	/* LPAE: any leaf; AArch64: L1/L2 block */
#define MALI_PTE_TYPE_TABLE		0x3ull	/* L0-L2 table; AArch64 L3 page */
#define MALI_PTE_ADDR_MASK		0x0000fffffffff000ull
#define MALI_PTE_AF			(1ull << 10)
#define MALI_PTE_XN			(1ull << 54)
/* Legacy LPAE: stage-2-like read/write permission bits */
#define MALI_LPAE_PTE_READ		(1ull << 6)
#define MALI_LPAE_PTE_WRITE		(1ull << 7)
/* AArch64: AP[2:1] in bits [7:6]; 01 = read/write, 11 = read-only */
#define MALI_A64_PTE_AP_SHIFT		6
#define MALI_A64_PTE_AP_RW		(1ull << 6)
#define MALI_A64_PTE_AP_RO		(3ull << 6)

/* ---- Exception codes (JS_STATUS, job header, FAULTSTATUS) ---- */
#define MALI_EXC_NOT_STARTED		0x00
#define MALI_EXC_DONE			0x01
#define MALI_EXC_INTERRUPTED		0x02
#define MALI_EXC_STOPPED		0x03
#define MALI_EXC_TERMINATED		0x04
#define MALI_EXC_KABOOM			0x05
#define MALI_EXC_EUREKA			0x06
#define MALI_EXC_ACTIVE			0x08
#define MALI_EXC_JOB_CONFIG_FAULT	0x40
#define MALI_EXC_JOB_POWER_FAULT	0x41
#define MALI_EXC_JOB_READ_FAULT		0x42
#define MALI_EXC_JOB_WRITE_FAULT	0x43
#define MALI_EXC_JOB_AFFINITY_FAULT	0x44
#define MALI_EXC_JOB_BUS_FAULT		0x48
#define MALI_EXC_INSTR_INVALID_PC	0x50
#define MALI_EXC_INSTR_INVALID_ENC	0x51
#define MALI_EXC_INSTR_TYPE_MISMATCH	0x52
#define MALI_EXC_INSTR_OPERAND_FAULT	0x53
#define MALI_EXC_INSTR_TLS_FAULT	0x54
#define MALI_EXC_INSTR_BARRIER_FAULT	0x55
#define MALI_EXC_INSTR_ALIGN_FAULT	0x56
#define MALI_EXC_DATA_INVALID_FAULT	0x58
#define MALI_EXC_TILE_RANGE_FAULT	0x59
#define MALI_EXC_ADDR_RANGE_FAULT	0x5a
#define MALI_EXC_OUT_OF_MEMORY		0x60
#define MALI_EXC_DELAYED_BUS_FAULT	0x80
#define MALI_EXC_SHAREABILITY_FAULT	0x88
/* MMU faults: the low bits give the page-table level */
#define MALI_EXC_TRANSLATION_FAULT(lvl)	(0xc0 + (lvl))
#define MALI_EXC_PERMISSION_FAULT(lvl)	(0xc8 + (lvl))
#define MALI_EXC_TRANSTAB_BUS_FAULT(lvl) (0xd0 + (lvl))
#define MALI_EXC_ACCESS_FLAG_FAULT(lvl)	(0xd8 + (lvl))
#define MALI_EXC_ADDR_SIZE_FAULT_IN(lvl) (0xe0 + (lvl))
#define MALI_EXC_IS_MMU_FAULT(exc)	((exc) >= 0xc0 && (exc) <= 0xef)

/* ---- Job descriptors in GPU memory (Bifrost v6/v7) ---- */
#define MALI_JOB_HEADER_SIZE		32
/* word 4 of the header */
#define MALI_JOB_IS_64B			(1u << 0)
#define MALI_JOB_TYPE(w)		(((w) >> 1) & 0x7f)
#define MALI_JOB_BARRIER		(1u << 8)
#define MALI_JOB_INDEX(w)		((w) >> 16)
/* word 5 */
#define MALI_JOB_DEP1(w)		((w) & 0xffff)
#define MALI_JOB_DEP2(w)		((w) >> 16)

enum mali_job_type {
	MALI_JOB_TYPE_NOT_STARTED = 0,
	MALI_JOB_TYPE_NULL = 1,
	MALI_JOB_TYPE_WRITE_VALUE = 2,
	MALI_JOB_TYPE_CACHE_FLUSH = 3,
	MALI_JOB_TYPE_COMPUTE = 4,
	MALI_JOB_TYPE_VERTEX = 5,
	MALI_JOB_TYPE_GEOMETRY = 6,
	MALI_JOB_TYPE_TILER = 7,
	MALI_JOB_TYPE_FUSED = 8,
	MALI_JOB_TYPE_FRAGMENT = 9,
	MALI_JOB_TYPE_INDEXED_VERTEX = 10,
	MALI_JOB_TYPE_COUNT = 16,
};

/* WRITE_VALUE payload at header + 32: address (64), type (32 at +8),
 * immediate (64 at +16). */
enum mali_write_value_type {
	MALI_WRITE_VALUE_CYCLE_COUNTER = 1,
	MALI_WRITE_VALUE_SYSTEM_TIMESTAMP = 2,
	MALI_WRITE_VALUE_ZERO = 3,
	MALI_WRITE_VALUE_IMM8 = 4,
	MALI_WRITE_VALUE_IMM16 = 5,
	MALI_WRITE_VALUE_IMM32 = 6,
	MALI_WRITE_VALUE_IMM64 = 7,
};

/* CACHE_FLUSH payload at header + 32: two words of clean/invalidate flags */
#define MALI_CACHE_FLUSH_L2_CLEAN	(1u << 0)	/* word 1 */
#define MALI_CACHE_FLUSH_L2_INVALIDATE	(1u << 1)	/* word 1 */

#endif /* VGPU_REGS_H */
