// SPDX-License-Identifier: MIT
/* `vgpu dis`: the Bifrost disassembler's command-line front end. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/commands.h"
#include "shader/disasm.h"

static int read_file(const char *path, uint8_t **data, size_t *size)
{
	FILE *f = strcmp(path, "-") ? fopen(path, "rb") : stdin;
	size_t cap = 1 << 16, n = 0;
	uint8_t *buf;

	if (!f) {
		fprintf(stderr, "vgpu dis: %s: %s\n", path, strerror(errno));
		return -1;
	}
	buf = malloc(cap);
	while (buf) {
		size_t r = fread(buf + n, 1, cap - n, f);

		n += r;
		if (n < cap)
			break;
		cap *= 2;
		uint8_t *nb = realloc(buf, cap);
		if (!nb) {
			free(buf);
			buf = NULL;
		} else {
			buf = nb;
		}
	}
	if (f != stdin)
		fclose(f);
	if (!buf) {
		fprintf(stderr, "vgpu dis: out of memory\n");
		return -1;
	}
	*data = buf;
	*size = n;
	return 0;
}

static int dis_main(int argc, char **argv)
{
	enum bi_arch arch = BI_ARCH_V6;
	bool verbose = false;
	const char *path = NULL;
	struct bi_text t = { 0 };
	uint8_t *code;
	size_t size;
	int err;

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--gpu") && i + 1 < argc) {
			const char *g = argv[++i];

			if (!strcmp(g, "g71"))
				arch = BI_ARCH_V6;
			else if (!strcmp(g, "g52"))
				arch = BI_ARCH_V7;
			else {
				fprintf(stderr, "vgpu dis: unknown GPU '%s' (g71 or g52)\n", g);
				return 1;
			}
		} else if (!strcmp(argv[i], "-v") || !strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "vgpu dis: unknown option '%s'\n", argv[i]);
			return 1;
		} else if (!path) {
			path = argv[i];
		} else {
			fprintf(stderr, "vgpu dis: one FILE only\n");
			return 1;
		}
	}
	if (!path) {
		fputs(vgpu_cmd_dis.help, stderr);
		return 1;
	}
	if (read_file(path, &code, &size))
		return 1;
	if (size % 16)
		fprintf(stderr, "vgpu dis: %s: %zu trailing bytes ignored\n", path,
			size % 16);
	err = bi_disasm_program(code, size, arch, verbose, &t);
	if (t.buf)
		fputs(t.buf, stdout);
	free(code);
	os_free(t.buf);
	if (t.oom) {
		fprintf(stderr, "vgpu dis: out of memory\n");
		return 1;
	}
	return err ? 3 : 0;
}

const struct vgpu_cmd vgpu_cmd_dis = {
	.name = "dis",
	.summary = "disassemble Bifrost shader binaries",
	.help =
	"usage: vgpu dis [--gpu g71|g52] [-v] FILE\n"
	"\n"
	"Disassembles a Bifrost shader binary (a sequence of 128-bit clause\n"
	"quadwords, as the compiler uploads it; FILE may be - for stdin) in the\n"
	"text format of Mesa's Bifrost disassembler, so the two compare line for\n"
	"line. Output stops at the first all-zero quadword (shader padding).\n"
	"\n"
	"  --gpu g71|g52  the ISA version (v6 or v7; default g71). Both decode\n"
	"                 with the same opcode table today.\n"
	"  -v, --verbose  also print each quadword, its tag, the header bits,\n"
	"                 register blocks and constants, as Mesa's verbose mode\n"
	"\n"
	"Exit status: 0 on success, 1 on a usage or I/O error, 3 when a clause\n"
	"is structurally invalid (the hardware's INSTR_INVALID_ENC; the text\n"
	"says where). Invalid opcodes inside a clause print as\n"
	"INSTR_INVALID_ENC lines, as Mesa does, and do not change the status.\n",
	.main = dis_main,
};
