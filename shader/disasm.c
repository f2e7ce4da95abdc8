// SPDX-License-Identifier: MIT
/*
 * Bifrost disassembly text. The format is Mesa's, so that dumps from
 * PAN_MESA_DEBUG=shaders and ours compare line for line; the per-opcode
 * layout (mnemonic, modifiers, destination, sources with their
 * modifiers, immediates, staging register) is driven by the opcode table.
 */
#include "shader/disasm.h"

void bi_text_printf(struct bi_text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->oom)
		return;
	for (;;) {
		size_t room = t->cap - t->len;

		va_start(ap, fmt);
		n = os_vsnprintf(t->buf ? t->buf + t->len : NULL, room, fmt, ap);
		va_end(ap);
		if (n < 0)
			return;
		if ((size_t)n < room) {
			t->len += n;
			return;
		}
		size_t cap = OS_MAX(t->cap * 2, t->len + n + 256);
		char *b = os_realloc(t->buf, cap);

		if (!b) {
			t->oom = true;
			return;
		}
		t->buf = b;
		t->cap = cap;
	}
}

static const char *const msg_names[32] = {
	"", "vary", "attr", "tex", "vartex", "load", "store", "atomic",
	"barrier", "blend", "tile", NULL, "z_stencil", "atest", "job", "64",
};

static const char *msg_name(unsigned m)
{
	return msg_names[m & 31] ? msg_names[m & 31] : "XXX reserved";
}

static const char *const flow_names[8] = {
	"eos", "nbb br_pc", "nbb r_uncond", "nbb", "bb r_uncond", "bb",
	"we r_uncond", "we",
};

static void print_header(const struct bi_header *h, struct bi_text *t)
{
	static const char *const ftz[4] = { "", "ftz_dx11 ", "ftz_hsa ",
					    "ftz_au " };
	static const char *const fpe[4] = { "", "fpe_ts ", "fpe_pd ",
					    "fpe_psqr " };

	bi_text_printf(t, "ds(%u) %s%s ", h->dep_slot, h->osrb ? "osrb " : "",
		       flow_names[h->flow & 7]);
	bi_text_printf(t, "%s%s%s%s", h->suppress_inf ? "inf_suppress " : "",
		       h->suppress_nan ? "nan_suppress " : "", ftz[h->ftz & 3],
		       fpe[h->fp_exceptions & 3]);
	if (h->msg)
		bi_text_printf(t, "%s ", msg_name(h->msg));
	bi_text_printf(t, "%s%s", h->td ? "td " : "", h->ncph ? "ncph " : "");
	if (h->next_msg)
		bi_text_printf(t, "next_%s ", msg_name(h->next_msg));
	if (h->dep_wait) {
		const char *sep = "";

		bi_text_printf(t, "dwb(");
		for (unsigned i = 0; i < 8; i++) {
			if (h->dep_wait & (1u << i)) {
				bi_text_printf(t, "%s%u", sep, i);
				sep = ", ";
			}
		}
		bi_text_printf(t, ") ");
	}
	bi_text_printf(t, "\n");
}

static void print_imm32(uint32_t v, struct bi_text *t)
{
	char f[80];

	bi_format_f32(f, sizeof(f), v);
	bi_text_printf(t, "0x%08x /* %s */", v, f);
}

/* A PC-relative constant is shown as the clause it points to. */
static void print_pc_const(const struct bi_clause *c, uint64_t imm,
			   unsigned mode, bool hi, struct bi_text *t)
{
	int64_t off;

	if (mode == BI_CONST_PC_HI && !hi) {
		print_imm32((uint32_t)imm, t);
		return;
	}
	if (mode == BI_CONST_PC_LO)
		off = (int64_t)(imm << 4) >> 4;
	else if (mode == BI_CONST_PC_HI || hi)
		off = (int32_t)((uint32_t)(imm >> 32) << 4) >> 4;
	else
		off = (int32_t)((uint32_t)imm << 4) >> 4;
	bi_text_printf(t, "clause_%lld", (long long)(c->offset + off / 16));
	if (mode == BI_CONST_PC_LO && hi)
		bi_text_printf(t, " >> 32");
	if (off == 0)
		bi_text_printf(t, " /* XXX: likely an infinite loop */");
}

/* FAU index top nibble (2..7) -> embedded constant number. */
static const int8_t fau_const[8] = { -1, -1, 4, 5, 0, 1, 2, 3 };

static const char *const fau_special[8] = {
	"#0", "lane_id", "warp_id", "core_id", "framebuffer_size",
	"atest_datum", "sample", NULL,
};

static void print_fau(const struct bi_clause *c, unsigned idx, bool hi,
		      struct bi_text *t)
{
	if (idx & 0x80) {
		bi_text_printf(t, "u%u.w%u", idx & 0x7f, hi);
	} else if (idx >= 0x20) {
		unsigned k = fau_const[idx >> 4];
		uint64_t imm = c->consts[k] | (idx & 0xf);

		if (c->constmod[k] != BI_CONST_PLAIN)
			print_pc_const(c, imm, c->constmod[k], hi, t);
		else
			print_imm32(hi ? (uint32_t)(imm >> 32) : (uint32_t)imm, t);
	} else {
		if (idx >= 8 && idx < 16)
			bi_text_printf(t, "blend_descriptor_%u", idx - 8);
		else if (idx < 8 && fau_special[idx])
			bi_text_printf(t, "%s", fau_special[idx]);
		else
			bi_text_printf(t, "XXX - reserved%u", idx);
		bi_text_printf(t, hi ? ".y" : ".x");
	}
}

static void print_src(const struct bi_clause *c, const struct bi_regs *r,
		      unsigned sel, bool fma, struct bi_text *t)
{
	switch (sel) {
	case 0:
		bi_text_printf(t, "r%u", r->port0);
		break;
	case 1:
		bi_text_printf(t, "r%u", r->port1);
		break;
	case 2:
		bi_text_printf(t, "r%u", r->reg2);
		break;
	case 3:
		/* FMA reads zero here; ADD reads this tuple's FMA result. */
		bi_text_printf(t, fma ? "#0" : "t");
		break;
	case 4:
	case 5:
		print_fau(c, r->fau_idx, sel == 5, t);
		break;
	default:
		bi_text_printf(t, sel == 6 ? "t0" : "t1");
		break;
	}
}

static void print_mask(unsigned op, struct bi_text *t)
{
	if (op == BI_PORT_WRITE_LO)
		bi_text_printf(t, ".h0");
	else if (op == BI_PORT_WRITE_HI)
		bi_text_printf(t, ".h1");
}

static void print_dest(const struct bi_regs *w, bool fma, struct bi_text *t)
{
	if (fma && w->slot2 >= BI_PORT_WRITE) {
		bi_text_printf(t, "r%u:t0", w->reg2);
		print_mask(w->slot2, t);
	} else if (w->slot3 >= BI_PORT_WRITE && w->slot3_fma == fma) {
		bi_text_printf(t, "r%u:t%u", w->reg3, fma ? 0 : 1);
		print_mask(w->slot3, t);
	} else {
		bi_text_printf(t, fma ? "t0" : "t1");
	}
}

static void print_mods(const struct bi_instr *ins, int after,
		       struct bi_text *t)
{
	const struct bi_op_desc *d = ins->desc;

	for (unsigned i = 0; i < d->nmod; i++) {
		if (d->mods[i].after_src != after || ins->mod[i] == d->mods[i].def)
			continue;
		bi_text_printf(t, ".%s", bi_opt_names[ins->mod[i]]);
	}
}

static void print_instr(const struct bi_clause *c, const struct bi_tuple *tp,
			bool fma, struct bi_text *t)
{
	struct bi_instr first;
	const struct bi_instr *ins = &first;
	const struct bi_op_desc *d;

	/* Print the entry Mesa's disassembler picks, which is not always
	 * the one execution uses (see bi_decode_instr). */
	bi_decode_instr_first(fma ? tp->fma.bits : tp->add.bits, fma, &first);
	d = ins->desc;
	bi_text_printf(t, "    ");
	if (!d) {
		bi_text_printf(t, "INSTR_INVALID_ENC %s %X\n", fma ? "fma" : "add",
			       ins->bits);
		return;
	}
	bi_text_printf(t, "%s", d->mnemonic);
	print_mods(ins, -1, t);
	bi_text_printf(t, " ");
	print_dest(&tp->wregs, fma, t);
	for (unsigned s = 0; s < d->nsrc; s++) {
		unsigned sel = bi_src_sel(ins, s);

		bi_text_printf(t, ", ");
		print_src(c, &tp->regs, sel, fma, t);
		if (!(d->src[s].allowed & (1u << sel)))
			bi_text_printf(t, "(INVALID)");
		print_mods(ins, s, t);
	}
	for (unsigned i = 0; i < d->nimm; i++)
		bi_text_printf(t, ", %s:%u", d->imms[i].name, bi_imm(ins, i));
	if (d->flags & (BI_F_SR_READ | BI_F_SR_WRITE))
		bi_text_printf(t, ", @r%u", c->hdr.staging_reg);
	bi_text_printf(t, "\n");
}

static const char *const port_write[] = {
	[BI_PORT_WRITE] = "write", [BI_PORT_WRITE_LO] = "write lo",
	[BI_PORT_WRITE_HI] = "write hi",
};

/* The verbose register-block line: what each slot does this tuple. */
static void print_regs(const struct bi_tuple *tp, struct bi_text *t)
{
	const struct bi_regs *r = &tp->regs;

	bi_text_printf(t, "    # regs: %016llx\n    # ", (unsigned long long)tp->reg_bits);
	if (r->read0)
		bi_text_printf(t, "slot 0: r%u ", r->port0);
	if (r->read1)
		bi_text_printf(t, "slot 1: r%u ", r->port1);
	if (r->slot2 == BI_PORT_READ)
		bi_text_printf(t, "slot 2: r%u (read) ", r->reg2);
	else if (r->slot2 >= BI_PORT_WRITE)
		bi_text_printf(t, "slot 2: r%u (%s FMA) ", r->reg2, port_write[r->slot2]);
	if (r->slot3 >= BI_PORT_WRITE)
		bi_text_printf(t, "slot 3: r%u (%s %s) ", r->reg3, port_write[r->slot3],
			       r->slot3_fma ? "FMA" : "ADD");
	if (r->fau_idx)
		bi_text_printf(t, "fau %X ", r->fau_idx);
	bi_text_printf(t, "\n");
}

void bi_disasm_clause(const struct bi_clause *c, const uint32_t *words,
		      struct bi_text *t)
{
	if (words) {
		for (unsigned q = 0; q < c->nquads; q++) {
			const uint32_t *w = words + 4 * q;

			bi_text_printf(t, "# %08x %08x %08x %08x \n# tag: 0x%02x\n",
				       w[3], w[2], w[1], w[0], w[0] & 0xff);
		}
		bi_text_printf(t, "# header: %012llx\n", (unsigned long long)c->hdr.raw);
	}
	print_header(&c->hdr, t);
	bi_text_printf(t, "{\n");
	for (unsigned i = 0; i < c->ntuples; i++) {
		if (words)
			print_regs(&c->t[i], t);
		print_instr(c, &c->t[i], true, t);
		print_instr(c, &c->t[i], false, t);
	}
	bi_text_printf(t, "}\n");
	for (unsigned i = 0; words && i < c->nconsts; i++)
		bi_text_printf(t, "# const%u: %08x\n# const%u: %08x\n", 2 * i,
			       (uint32_t)c->consts[i], 2 * i + 1,
			       (uint32_t)(c->consts[i] >> 32));
	bi_text_printf(t, "\n");
}

static const char *dec_err_name(int err)
{
	switch (err) {
	case BI_DEC_TRUNCATED:
		return "clause runs past the end of the program";
	case BI_DEC_BAD_TAG:
		return "reserved quadword format";
	case BI_DEC_BAD_CONST:
		return "invalid embedded-constant quadword";
	default:
		return "clause has no end";
	}
}

int bi_disasm_program(const void *code, size_t size, enum bi_arch arch,
		      bool verbose, struct bi_text *t)
{
	const uint32_t *w = code;
	size_t nq = size / 16, q = 0;
	struct bi_clause *c = os_alloc(sizeof(*c));
	int err = 0;

	if (!c) {
		t->oom = true;
		return BI_DEC_TOO_LONG;
	}
	while (q < nq && w[4 * q] != 0) {
		bi_text_printf(t, "clause_%zu:\n", q);
		err = bi_decode_clause(w + 4 * q, nq - q, q, arch, c);
		if (err) {
			bi_text_printf(t, "INSTR_INVALID_ENC: %s\n",
				       dec_err_name(err));
			break;
		}
		bi_disasm_clause(c, verbose ? w + 4 * q : NULL, t);
		q += c->nquads;
	}
	os_free(c);
	return err;
}
