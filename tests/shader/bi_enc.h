/* SPDX-License-Identifier: MIT */
/*
 * Test-side instruction encoder: finds the bits of an operation from its
 * mnemonic, source selectors and modifier options by searching the
 * opcode table's encodings (the decoder itself is checked against the
 * disassembly format separately, so here the table is a trusted input).
 *
 *   bi_enc(true, "*FMA.f32", (unsigned[]){0, 1, 2}, "round=rtz")
 *
 * Selectors: 0-2 register ports, 3 zero / FMA result, 4-5 FAU lo/hi,
 * 6-7 previous tuple's FMA/ADD results. Returns ~0u if not encodable.
 */
#ifndef VGPU_TESTS_SHADER_BI_ENC_H
#define VGPU_TESTS_SHADER_BI_ENC_H

#include <stdio.h>
#include <string.h>

#include "shader/decode.h"

static inline int bi_enc_find(const char *const *names, unsigned n,
			      const char *s, size_t len)
{
	for (unsigned i = 0; i < n; i++)
		if (strlen(names[i]) == len && !strncmp(names[i], s, len))
			return (int)i;
	return -1;
}

/* Parses "a=b c=d" into (mod, opt) pairs; returns the count. */
static inline unsigned bi_enc_mods(const char *s, int *mods, int *opts)
{
	unsigned n = 0;

	while (s && *s) {
		const char *eq = strchr(s, '='), *end;

		if (!eq)
			break;
		end = strchr(eq, ' ');
		if (!end)
			end = eq + strlen(eq);
		mods[n] = bi_enc_find(bi_mod_names, BI_MOD_COUNT, s, eq - s);
		opts[n] = bi_enc_find(bi_opt_names, BI_O_COUNT, eq + 1, end - eq - 1);
		if (mods[n] < 0 || opts[n] < 0) {
			fprintf(stderr, "bi_enc: bad modifier '%.*s'\n", (int)(end - s), s);
			return ~0u;
		}
		n++;
		s = *end ? end + 1 : end;
	}
	return n;
}

static inline bool bi_enc_ok(uint32_t bits, bool fma, const struct bi_op_desc *d,
			     const int *mods, const int *opts, unsigned nm)
{
	struct bi_instr ins;

	bi_decode_instr(bits, fma, &ins);
	if (ins.desc != d || ins.bad_src)
		return false;
	for (unsigned i = 0; i < nm; i++)
		if (bi_mod(&ins, mods[i], 0xffff) != opts[i])
			return false;
	/* Unnamed modifiers must take their defaults. */
	for (unsigned i = 0; i < d->nmod; i++) {
		bool named = false;

		for (unsigned k = 0; k < nm; k++)
			named |= d->mods[i].id == mods[k];
		if (!named && d->mods[i].def != 0xffff && ins.mod[i] != d->mods[i].def)
			return false;
	}
	return true;
}

static inline uint32_t bi_enc_imm(bool fma, const char *mnemonic,
				  const unsigned *src, const char *modstr,
				  const uint32_t *imm)
{
	const struct bi_op_desc *tab = fma ? bi_fma_ops : bi_add_ops;
	unsigned n = fma ? bi_fma_op_count : bi_add_op_count;
	int mods[16], opts[16];
	unsigned nm = bi_enc_mods(modstr, mods, opts);

	if (nm == ~0u)
		return ~0u;
	for (unsigned i = 0; i < n; i++) {
		const struct bi_op_desc *d = &tab[i];
		uint32_t base = d->exact, varmask = 0;
		unsigned nvar = 0, pos[24];

		if (strcmp(d->mnemonic, mnemonic))
			continue;
		for (unsigned s = 0; s < d->nsrc; s++)
			base |= (src ? src[s] : 0) << d->src[s].pos;
		for (unsigned k = 0; k < d->nimm; k++)
			base |= (imm ? imm[k] : 0) << d->imms[k].pos;
		/* Direct modifiers: write the field value of the option. */
		for (unsigned m = 0; m < d->nmod; m++) {
			const struct bi_mod_desc *md = &d->mods[m];
			int want = md->def;

			if (md->pos < 0)
				continue;
			for (unsigned k = 0; k < nm; k++)
				if (mods[k] == md->id)
					want = opts[k];
			for (unsigned v = 0; v < (1u << md->size); v++) {
				if (bi_opt_lists[md->opts + v] == want) {
					base |= v << md->pos;
					break;
				}
			}
		}
		/* Derived fields: try every value. */
		for (unsigned k = 0; k < d->ndrv; k++)
			for (unsigned b = 0; b < d->drv[k].size; b++)
				pos[nvar++] = d->drv[k].pos + b;
		for (unsigned k = 0; k < nvar; k++)
			varmask |= 1u << pos[k];
		for (uint32_t v = 0; v < (1u << nvar); v++) {
			uint32_t bits = base & ~varmask;

			for (unsigned k = 0; k < nvar; k++)
				bits |= ((v >> k) & 1) << pos[k];
			if (bi_enc_ok(bits, fma, d, mods, opts, nm))
				return bits;
		}
	}
	fprintf(stderr, "bi_enc: cannot encode %s %s\n", mnemonic, modstr ? modstr : "");
	return ~0u;
}

static inline uint32_t bi_enc(bool fma, const char *mnemonic,
			      const unsigned *src, const char *modstr)
{
	return bi_enc_imm(fma, mnemonic, src, modstr, NULL);
}

#define SRCS(...) ((const unsigned[]){ __VA_ARGS__ })

#endif
