// SPDX-License-Identifier: MIT
/*
 * A bare-metal probe of the architecture the full-system vCPU implements,
 * booted as a kernel by vgpu system and by qemu-system-aarch64 -M virt
 * -cpu cortex-a53 (tests/dbt/system_diff.c compares their consoles): the
 * state at entry, exception entry for SVC, BRK, undefined instructions,
 * the stage-1 MMU's faults (translation, access flag, permission) with
 * their ESR and FAR, AT's PAR, a round trip to EL0, code rewritten in
 * place (made visible by IC IVAU) and a code page remapped under the same
 * virtual address (made visible by TLBI): what a translator that keeps
 * compiled code must notice. It prints only
 * what the architecture fixes, not what differs between CPU models.
 * Position-independent: it runs wherever it is loaded.
 */
#include <stdint.h>

#define UART 0x09000000ul

extern char vectors[], el0_page[], el0_kernel_load[];
extern struct {
	uint64_t vec, esr, elr, far, spsr;
} trap;
void el0_call(uint64_t pc, uint64_t sp);

#define SYSREG_READ(name) ({ uint64_t v_; __asm__ volatile("mrs %0, " #name : "=r"(v_)); v_; })
#define SYSREG_WRITE(name, v) __asm__ volatile("msr " #name ", %0\n\tisb" : : "r"((uint64_t)(v)))

static void putc_(char c)
{
	volatile uint32_t *uart = (volatile uint32_t *)UART;
	while (uart[0x18 / 4] & (1u << 5))
		;
	uart[0] = (uint32_t)c;
}

static void puts_(const char *s)
{
	while (*s) {
		if (*s == '\n')
			putc_('\r');
		putc_(*s++);
	}
}

static void puthex(uint64_t v)
{
	char b[19] = "0x";
	for (int k = 0; k < 16; k++)
		b[2 + k] = "0123456789abcdef"[v >> (60 - 4 * k) & 15];
	b[18] = 0;
	puts_(b);
}

static void field(const char *name, uint64_t v)
{
	puts_(name);
	puts_("=");
	puthex(v);
	puts_(" ");
}

/* The last exception, relative to @base where an address is expected. */
static void report(const char *what, uint64_t elr_base, uint64_t far_base)
{
	puts_(what);
	puts_(": ");
	field("vec", trap.vec);
	field("esr", trap.esr);
	field("elr", trap.elr - elr_base);
	if (far_base != ~0ul)
		field("far", trap.far - far_base);
	field("spsr", trap.spsr);
	puts_("\n");
	trap.vec = trap.esr = trap.elr = trap.far = trap.spsr = ~0ul;
}

static uint64_t pc_here(void)
{
	uint64_t pc;
	__asm__ volatile("adr %0, ." : "=r"(pc));
	return pc;
}

static uint64_t l1[512] __attribute__((aligned(4096)));
static uint64_t l2[512] __attribute__((aligned(4096)));
static uint64_t l3[512] __attribute__((aligned(4096)));
static volatile uint64_t data_page[512] __attribute__((aligned(4096)));

#define VA_HOLE 0x7fe00000ul  /* an invalid L2 entry */
#define VA_PAGES 0x7fc00000ul /* L2 entry -> l3 */
#define AF (1ul << 10)
#define AP_RW_ALL (1ul << 6)
#define AP_RO (2ul << 6)
#define AP_RO_ALL (3ul << 6)
#define UXN (1ul << 54)
#define PXN (1ul << 53)
#define ISH (3ul << 8)

static void mmu_on(void)
{
	/* 0-1 GiB: device (MAIR index 1); 1-2 GiB: 2 MiB blocks of normal
	 * memory, EL1 only, but for the hole and the page table */
	l1[0] = 0x0ul | AF | 1ul << 2 | UXN | PXN | 1;
	l1[1] = (uint64_t)l2 | 3;
	for (uint64_t k = 0; k < 512; k++)
		l2[k] = (0x40000000ul + (k << 21)) | AF | ISH | 1;
	l2[(VA_HOLE >> 21) & 511] = 0;
	l2[(VA_PAGES >> 21) & 511] = (uint64_t)l3 | 3;
	uint64_t dp = (uint64_t)data_page, ep = (uint64_t)el0_page;
	l3[0] = dp | ISH | 3;			    /* AF clear */
	l3[1] = dp | AF | ISH | AP_RO | 3;	    /* read-only */
	l3[2] = ep | AF | ISH | AP_RO_ALL | PXN | 3; /* EL0 code */
	l3[3] = dp | AF | ISH | AP_RW_ALL | UXN | 3; /* EL0 data */
	SYSREG_WRITE(mair_el1, 0x00fful);
	/* T0SZ 25 (39-bit, walks start at level 1), 4K granule, inner/outer
	 * write-back, inner shareable, EPD1, IPS 40 bits */
	SYSREG_WRITE(tcr_el1, 25ul | 1ul << 8 | 1ul << 10 | 3ul << 12 | 1ul << 23 | 2ul << 32);
	SYSREG_WRITE(ttbr0_el1, (uint64_t)l1);
	__asm__ volatile("dsb ish\n\ttlbi vmalle1\n\tdsb ish\n\tisb");
	SYSREG_WRITE(sctlr_el1, SYSREG_READ(sctlr_el1) | 1 | 1ul << 2 | 1ul << 12);
}

static uint64_t at_s1e1r(uint64_t va)
{
	__asm__ volatile("at s1e1r, %0\n\tisb" : : "r"(va));
	/* PA and F only: the attributes differ by implementation */
	uint64_t par = SYSREG_READ(par_el1);
	return par & 1 ? par & 0x7f : par & 0xfffffffff000ul;
}

static void exceptions(void)
{
	uint64_t base = (uint64_t)vectors;
	__asm__ volatile("svc #0x1234");
	report("svc", 0, ~0ul);
	uint64_t at = pc_here();
	__asm__ volatile("brk #0x42");
	report("brk", at, ~0ul);
	at = pc_here();
	__asm__ volatile(".word 0x00000000"); /* UDF #0 */
	report("udf", at, ~0ul);
	(void)base;
}

static void mmu_faults(void)
{
	volatile uint64_t *p;
	p = (volatile uint64_t *)(VA_HOLE + 0x18);
	(void)*p;
	report("translation", 0, VA_HOLE);
	p = (volatile uint64_t *)(VA_PAGES + 0x20);
	(void)*p;
	report("access-flag", 0, VA_PAGES);
	p = (volatile uint64_t *)(VA_PAGES + 0x1000 + 8);
	(void)*p;
	puts_("ro-read ok\n");
	*p = 5;
	report("ro-write", 0, VA_PAGES);
	puts_("at-mapped: ");
	puthex(at_s1e1r(VA_PAGES + 0x1000) - (uint64_t)data_page);
	puts_(" at-hole: ");
	puthex(at_s1e1r(VA_HOLE));
	puts_("\n");
}

/* Code written at run time: one page rewritten in place, two mapped in
 * turn at VA_CODE and called by a BL from the page at VA_CALL (a direct
 * branch, which a translator may chain to the code it found there). */
static uint32_t code_smc[1024] __attribute__((aligned(4096)));
static uint32_t code_one[1024] __attribute__((aligned(4096)));
static uint32_t code_two[1024] __attribute__((aligned(4096)));
static uint32_t code_call[1024] __attribute__((aligned(4096)));
#define VA_CODE (VA_PAGES + 0x5000)
#define VA_CALL (VA_PAGES + 0x6000)

/* @page: MOV W0, #@v; RET, made visible to instruction fetch. */
static void sync_code(uint32_t *page)
{
	__asm__ volatile("dc cvau, %0\n\tdsb ish\n\tic ivau, %0\n\tdsb ish\n\tisb"
			 : : "r"(page) : "memory");
}

static void put_code(uint32_t *page, uint32_t v)
{
	page[0] = 0x52800000u | v << 5;
	page[1] = 0xd65f03c0u;
	sync_code(page);
}

/* MOV X2, X30; BL VA_CODE; MOV X30, X2; RET */
static void put_call(uint32_t *page)
{
	page[0] = 0xaa1e03e2u;
	page[1] = 0x94000000u | ((uint32_t)((int32_t)(VA_CODE - (VA_CALL + 4)) >> 2) & 0x3ffffffu);
	page[2] = 0xaa0203feu;
	page[3] = 0xd65f03c0u;
	sync_code(page);
}

/* Calls @pc often enough to have it compiled (vgpu system compiles a
 * block on its 16th run), then chained and cached by address; the value
 * of the last call. */
static uint64_t call_code(uint64_t pc)
{
	uint64_t (*volatile f)(void) = (uint64_t (*)(void))pc, v = 0;
	for (int k = 0; k < 64; k++)
		v = f();
	return v;
}

static void map_code(unsigned idx, const uint32_t *page)
{
	l3[idx] = (uint64_t)page | AF | ISH | 3;
	__asm__ volatile("dsb ishst\n\ttlbi vae1is, %0\n\tdsb ish\n\tisb"
			 : : "r"((VA_PAGES >> 12) + idx) : "memory");
}

static void code_changes(void)
{
	put_code(code_smc, 1);
	puts_("smc: ");
	puthex(call_code((uint64_t)code_smc));
	put_code(code_smc, 2);
	puts_(" ");
	puthex(call_code((uint64_t)code_smc));
	put_code(code_one, 3);
	put_code(code_two, 4);
	put_call(code_call);
	map_code(6, code_call);
	map_code(5, code_one);
	puts_("\nremap: ");
	puthex(call_code(VA_CALL));
	map_code(5, code_two);
	puts_(" ");
	puthex(call_code(VA_CALL));
	puts_("\n");
}

void probe_main(void)
{
	puts_("probe: start\n");
	field("CurrentEL", SYSREG_READ(CurrentEL));
	field("DAIF", SYSREG_READ(daif));
	field("SPSel", SYSREG_READ(spsel));
	field("CNTFRQ", SYSREG_READ(cntfrq_el0));
	field("SCTLR.M", SYSREG_READ(sctlr_el1) & 1);
	puts_("\n");
	trap.vec = ~0ul;
	SYSREG_WRITE(vbar_el1, (uint64_t)vectors);
	exceptions();
	mmu_on();
	puts_("mmu on\n");
	mmu_faults();
	el0_call(VA_PAGES + 0x2000, VA_PAGES + 0x4000);
	report("el0-svc", VA_PAGES + 0x2000, ~0ul);
	el0_call(VA_PAGES + 0x2000 + (uint64_t)(el0_kernel_load - el0_page), 0);
	report("el0-load", VA_PAGES + 0x2000, ~0ul);
	code_changes();
	puts_("probe: done\n");
	/* PSCI SYSTEM_OFF over HVC, the conduit both machines name */
	register uint64_t x0 __asm__("x0") = 0x84000008;
	__asm__ volatile("hvc #0" : "+r"(x0));
}
