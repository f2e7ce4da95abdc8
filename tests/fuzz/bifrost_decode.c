// SPDX-License-Identifier: MIT
/*
 * Fuzz target: decode and disassemble arbitrary bytes as a Bifrost
 * program. Any input must either decode within bounds or be reported as
 * a decode error; nothing may crash, hang or read out of bounds.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shader/disasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nq = size / 16;
	uint32_t *w = malloc(nq * 16 + 16);
	struct bi_clause c;
	struct bi_text t = { 0 };

	if (!w)
		return 0;
	memcpy(w, data, nq * 16);
	/* Every quadword as a potential clause start. */
	for (size_t q = 0; q < nq; q++) {
		int err = bi_decode_clause(w + 4 * q, nq - q, q, BI_ARCH_V7, &c);

		if (err == BI_DEC_OK) {
			if (c.nquads == 0 || c.nquads > nq - q || c.ntuples < 1 ||
			    c.ntuples > 8 || c.nconsts > 7)
				abort();
			bi_disasm_clause(&c, &t);
		} else if (err > 0 || err < BI_DEC_TOO_LONG) {
			abort();
		}
	}
	bi_disasm_program(w, nq * 16, BI_ARCH_V6, &t);
	free(t.buf);
	free(w);
	return 0;
}
