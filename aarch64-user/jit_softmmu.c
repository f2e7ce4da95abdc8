// SPDX-License-Identifier: MIT
/*
 * Full-system mode's memory path of generated code (struct jit_mem_path):
 * the soft TLB of softmmu.h, inline. A hit is the interpreter's: the
 * entry of the page in the current EL's TLB (a64s_tlb_cur, read
 * fs-relative) has the page's address as the tag of the access, and the
 * host address is the guest's plus the entry's addend; a hit cannot
 * fault, so guest registers stay in host registers across it. A miss (no
 * entry, no permission, a device, an access that crosses a page) runs
 * the instruction's own handler (jit_call_keep), whose accessors take the
 * slow path: the registers held dirty are stored and a64_tls_insn names
 * the instruction first, so a fault that enters the guest's vector and
 * longjmps out of the block leaves what the interpreter would.
 *
 * Blocks are keyed by the host address their pc translated to (block.c);
 * a compiled block is also entered through chained exits and the
 * indirect-branch cache, which know only the pc, so its entry checks that
 * the pc still translates, executable at the current EL, to that host
 * address, and leaves to the run loop (which walks and looks up again)
 * when not. The entry also counts the block's instructions for --stats
 * (a64s_insns_cur), as the run loop does for interpreted blocks.
 */
#include "aarch64-user/jit_int.h"
#include "aarch64-user/softmmu.h"

static a64_decode_fn sys_decode;
static int32_t tlb_off, insns_off;

#define ENTRY_SIZE ((int32_t)sizeof(struct a64s_tlb_entry))
#define TAG(acc) ((int32_t)offsetof(struct a64s_tlb_entry, tag) + 8 * (int32_t)(acc))
#define ADDEND ((int32_t)offsetof(struct a64s_tlb_entry, addend))

_Static_assert(sizeof(struct a64s_tlb_entry) == 32, "entry offset is (va >> 7) & mask");

static int32_t fs_off(const void *tls)
{
	uint64_t tp;
	__asm__("mov %%fs:0, %0" : "=r"(tp));
	return (int32_t)((intptr_t)tls - (intptr_t)tp);
}

void a64_jit_system(const struct a64_jit_system *sys)
{
	tlb_off = fs_off(sys->tlb_cur);
	insns_off = fs_off(sys->insns_cur);
	sys_decode = sys->decode;
}

/* What the system build's handlers do natively beyond the families
 * every build has: nothing, for the instructions that have nothing to do
 * here (hints; the data cache maintenance of coherent memory, which
 * Linux runs line by line over every buffer it hands a device). */
static bool emit_nothing(struct jc *jc, const struct a64_insn *i, const struct jkind *k)
{
	(void)jc;
	(void)i;
	(void)k;
	return true;
}

static const struct family sys_families[] = {
	{ 0xd503201f, emit_nothing, { 0 }, { 0 } }, /* NOP */
	{ 0xd50b7e20, emit_nothing, { 0 }, { 0 } }, /* DC CIVAC, X0 */
};

void jit_softmmu_learn(void)
{
	if (!sys_decode)
		return;
	jit_gen_learn(sys_decode);
	jit_learn(sys_families, sizeof(sys_families) / sizeof(sys_families[0]), sys_decode);
}

/* Keeps rdx (the slot the block was entered through, for the leave). */
void jit_softmmu_entry(struct jc *jc, uint64_t pc, uint64_t host, uint32_t n,
		       uint8_t *to_leave[2])
{
	struct jx *j = &jc->x;
	int32_t e = (int32_t)((pc >> 12) & (A64S_TLB_SIZE - 1)) * ENTRY_SIZE;
	jx_load_fs(j, JX_RAX, tlb_off);
	jx_load(j, 8, false, JX_RCX, JX_RAX, e + TAG(A64S_EXEC));
	jx_mov_ri(j, JX_RSI, pc & A64S_PAGE_MASK);
	jx_alu_rr(j, JX_CMP, true, JX_RCX, JX_RSI);
	to_leave[0] = jx_jcc(j, JX_NE, NULL);
	jx_load(j, 8, false, JX_RCX, JX_RAX, e + ADDEND);
	jx_mov_ri(j, JX_RSI, host - pc);
	jx_alu_rr(j, JX_CMP, true, JX_RCX, JX_RSI);
	to_leave[1] = jx_jcc(j, JX_NE, NULL);
	jx_load_fs(j, JX_RAX, insns_off);
	jx_alu_mi(j, JX_ADD, true, JX_RAX, 0, (int32_t)n);
}

/* rdi = the guest address T0 + @disp; its TLB entry's tag for the access
 * must be the page of its last byte (so of its first too: that page's
 * entry holds no other page), then rdi = the host address. rcx, r8, r9
 * are scratch: T0 and T1 (a post-index register) are kept; the compare
 * changes the host flags, so NZCV leaves them first. */
static void softmmu_begin(struct jc *jc, const struct a64_insn *i, int32_t disp, unsigned n,
			  bool write, struct jit_acc *a)
{
	struct jx *j = &jc->x;
	(void)i;
	jit_flags_settle(jc);
	jit_snap(jc, &a->snap);
	jx_lea(j, JX_RDI, T0, disp);
	jx_mov_rr(j, true, JX_RCX, JX_RDI);
	jx_shift_ri(j, JX_SHR, true, JX_RCX, 12 - 5);
	jx_alu_ri(j, JX_AND, false, JX_RCX, (A64S_TLB_SIZE - 1) * ENTRY_SIZE);
	jx_load_fs(j, JX_R8, tlb_off);
	jx_alu_rr(j, JX_ADD, true, JX_RCX, JX_R8);
	jx_lea(j, JX_R8, JX_RDI, (int32_t)n - 1);
	jx_alu_ri(j, JX_AND, true, JX_R8, -(int32_t)A64S_PAGE);
	jx_load(j, 8, false, JX_R9, JX_RCX, TAG(write ? A64S_WRITE : A64S_READ));
	jx_alu_rr(j, JX_CMP, true, JX_R8, JX_R9);
	a->slow = jx_jcc(j, JX_NE, NULL);
	jx_load(j, 8, false, JX_RCX, JX_RCX, ADDEND);
	jx_alu_rr(j, JX_ADD, true, JX_RDI, JX_RCX);
	a->base = JX_RDI;
	a->disp = 0;
}

/* The miss: the handler, on the guest state of before the instruction
 * (what was dirty then is stored first); the registers the hit path left
 * held are reloaded for the join. */
static void softmmu_end(struct jc *jc, const struct a64_insn *i, struct jit_acc *a)
{
	struct jx *j = &jc->x;
	uint8_t *join = jx_jmp(j, NULL);
	if (a->slow)
		jx_patch(j, a->slow, j->p + j->delta);
	jit_call_keep(jc, i, &a->snap);
	if (join)
		jx_patch(j, join, j->p + j->delta);
}

const struct jit_mem_path jit_mem_softmmu = { softmmu_begin, softmmu_end };
