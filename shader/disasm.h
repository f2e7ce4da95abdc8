/* SPDX-License-Identifier: MIT */
/*
 * The Bifrost disassembler. Its text follows Mesa's Bifrost disassembler
 * (clause_N labels, a header line, one line per FMA/ADD instruction in
 * braces) so the two can be compared line by line.
 */
#ifndef VGPU_SHADER_DISASM_H
#define VGPU_SHADER_DISASM_H

#include "shader/decode.h"

/* A growable text buffer; @buf is NUL-terminated, free with os_free. */
struct bi_text {
	char *buf;
	size_t len, cap;
	bool oom;
};

void bi_text_printf(struct bi_text *t, const char *fmt, ...) OS_PRINTF(2, 3);

/* Appends one decoded clause. @words: its quadwords, for the verbose
 * form (raw words, tags, header bits, register blocks, constants, as
 * Mesa prints with its verbose flag); NULL for the plain form. */
void bi_disasm_clause(const struct bi_clause *c, const uint32_t *words,
		      struct bi_text *t);

/*
 * Disassembles a whole program of @size bytes, stopping at the zero
 * padding that ends shaders. Returns 0, or the bi_decode_err of the first
 * clause that does not decode (reported in the text as well).
 */
int bi_disasm_program(const void *code, size_t size, enum bi_arch arch,
		      bool verbose, struct bi_text *t);

/* printf("%f") of a float32 given by its bits, without libc or libm. */
int bi_format_f32(char *buf, size_t size, uint32_t bits);

#endif
