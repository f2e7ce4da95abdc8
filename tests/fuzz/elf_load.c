// SPDX-License-Identifier: MIT
/*
 * Fuzz target: the ELF loader of `vgpu run` on hostile files. The input
 * becomes the program headers and contents behind a valid AArch64 ELF
 * header (its first byte picks the type and header count), so that it
 * gets past the magic check into segment validation and mapping. Any
 * input must load or be refused with a reason; nothing may crash, and a
 * load maps only the span it reports (unmapped again here).
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "aarch64-user/abi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_machine = EM_AARCH64,
		.e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr),
		.e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr),
	};
	struct elf_image img;
	char err[256], path[64];
	int fd;

	if (!size)
		return 0;
	eh.e_type = (data[0] & 1) ? ET_EXEC : ET_DYN;
	eh.e_phnum = (uint16_t)(1 + ((data[0] >> 1) & 7));
	fd = memfd_create("elf", MFD_CLOEXEC);
	if (fd < 0)
		return 0;
	if (write(fd, &eh, sizeof(eh)) != (ssize_t)sizeof(eh) ||
	    write(fd, data + 1, size - 1) != (ssize_t)(size - 1)) {
		close(fd);
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (elf_load(path, 0, &img, err, sizeof(err)) == ELF_OK) {
		if (img.hi <= img.lo || img.entry - img.bias != eh.e_entry)
			abort();
		munmap((void *)img.lo, img.hi - img.lo);
	} else if (!err[0]) {
		abort(); /* a refusal always says why */
	}
	close(fd);
	return 0;
}
