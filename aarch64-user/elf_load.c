// SPDX-License-Identifier: MIT
/*
 * Loads an ELF64 AArch64 file into this process with libelf: static
 * (ET_EXEC at its link address), static-PIE and PIE (ET_DYN at a free
 * address) and PT_INTERP loaders. Guest addresses are host addresses, so
 * segments are mapped where the guest will see them.
 */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdarg.h>
#include <libelf.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/guest_vm.h"

#ifndef EM_AARCH64
#define EM_AARCH64 183
#endif

bool elf_is_aarch64(int fd)
{
	unsigned char h[20];

	if (pread(fd, h, sizeof(h), 0) != (ssize_t)sizeof(h))
		return false;
	/* e_machine is a little-endian u16 at offset 18 of an ELF64 LSB file */
	return !memcmp(h, ELFMAG, SELFMAG) && h[EI_CLASS] == ELFCLASS64 &&
	       h[EI_DATA] == ELFDATA2LSB && (h[18] | h[19] << 8) == EM_AARCH64;
}

struct loader {
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	size_t phnum;
	off_t fsize;
	char *err;
	size_t errlen;
};

__attribute__((format(printf, 3, 4))) static enum elf_err
fail(struct loader *l, enum elf_err e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(l->err, l->errlen, fmt, ap);
	va_end(ap);
	return e;
}

static enum elf_err check_header(struct loader *l)
{
	if (elf_kind(l->elf) != ELF_K_ELF)
		return fail(l, ELF_ENOEXEC, "not an ELF file");
	if (gelf_getclass(l->elf) != ELFCLASS64)
		return fail(l, ELF_ENOEXEC, "not a 64-bit ELF file");
	if (!gelf_getehdr(l->elf, &l->eh))
		return fail(l, ELF_ENOEXEC, "bad ELF header: %s", elf_errmsg(-1));
	if (l->eh.e_ident[EI_DATA] != ELFDATA2LSB || l->eh.e_machine != EM_AARCH64)
		return fail(l, ELF_ENOEXEC,
			    "not an AArch64 ELF file (e_machine %u)",
			    l->eh.e_machine);
	if (l->eh.e_type != ET_EXEC && l->eh.e_type != ET_DYN)
		return fail(l, ELF_ENOEXEC, "not an executable (e_type %u)",
			    l->eh.e_type);
	if (elf_getphdrnum(l->elf, &l->phnum) || !l->phnum)
		return fail(l, ELF_ENOEXEC, "no program headers: %s",
			    elf_errmsg(-1));
	if (l->eh.e_phoff + l->phnum * (uint64_t)l->eh.e_phentsize >
	    (uint64_t)l->fsize)
		return fail(l, ELF_ENOEXEC, "truncated (program headers)");
	return ELF_OK;
}

/*
 * Checks every segment against the file and finds the span of PT_LOADs
 * and PT_INTERP. The file is only read here; nothing is mapped yet.
 */
static enum elf_err scan(struct loader *l, struct elf_image *img,
			 uint64_t *lo, uint64_t *hi, uint64_t *align)
{
	GElf_Phdr ph;
	int nload = 0;

	*lo = UINT64_MAX;
	*hi = 0;
	*align = GUEST_PAGE;
	img->interp[0] = 0;
	for (size_t i = 0; i < l->phnum; i++) {
		if (!gelf_getphdr(l->elf, (int)i, &ph))
			return fail(l, ELF_ENOEXEC, "bad program header %zu", i);
		if (ph.p_type == PT_INTERP) {
			if (ph.p_filesz < 2 || ph.p_filesz >= sizeof(img->interp) ||
			    ph.p_offset + ph.p_filesz > (uint64_t)l->fsize)
				return fail(l, ELF_ENOEXEC, "bad PT_INTERP");
			if (pread(l->fd, img->interp, ph.p_filesz,
				  (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
				return fail(l, ELF_ENOEXEC, "truncated (PT_INTERP)");
			img->interp[ph.p_filesz - 1] = 0;
		}
		/* An empty PT_LOAD maps nothing, so it neither counts as a
		 * loadable segment nor widens the image. */
		if (ph.p_type != PT_LOAD || !ph.p_memsz)
			continue;
		nload++;
		/* A bss-only segment may point past the end of the file:
		 * nothing of the file is read for it. */
		if (ph.p_filesz > ph.p_memsz ||
		    (ph.p_filesz && (ph.p_filesz > (uint64_t)l->fsize ||
				     ph.p_offset > (uint64_t)l->fsize - ph.p_filesz)))
			return fail(l, ELF_ENOEXEC,
				    "truncated (segment %zu ends past the file)", i);
		if ((ph.p_vaddr - ph.p_offset) % GUEST_PAGE)
			return fail(l, ELF_ENOEXEC,
				    "segment %zu is not page congruent", i);
		/* Rounded up to a page, the end must neither wrap nor lie
		 * beyond the 48-bit user address space of an aarch64 process. */
		if (ph.p_memsz > UINT64_MAX - (GUEST_PAGE - 1) ||
		    ph.p_vaddr > UINT64_MAX - (GUEST_PAGE - 1) - ph.p_memsz)
			return fail(l, ELF_ENOEXEC, "segment %zu wraps", i);
		if (PAGE_UP(ph.p_vaddr + ph.p_memsz) > (1ull << 48))
			return fail(l, ELF_ENOEXEC,
				    "segment %zu lies beyond the address space", i);
		if (PAGE_DOWN(ph.p_vaddr) < *lo)
			*lo = PAGE_DOWN(ph.p_vaddr);
		if (PAGE_UP(ph.p_vaddr + ph.p_memsz) > *hi)
			*hi = PAGE_UP(ph.p_vaddr + ph.p_memsz);
		if (ph.p_align > *align && !(ph.p_align & (ph.p_align - 1)))
			*align = ph.p_align;
	}
	if (!nload)
		return fail(l, ELF_ENOEXEC, "no loadable segment");
	return ELF_OK;
}

/*
 * Reserves the whole span PROT_NONE first: that is how a clash with the
 * translator's own memory is found before anything is overwritten, and
 * how an ET_DYN file gets one contiguous free range.
 */
static enum elf_err reserve(struct loader *l, uint64_t lo, uint64_t hi,
			    uint64_t align, uint64_t hint, uint64_t *bias)
{
	uint64_t span = hi - lo;
	void *p;

	if (l->eh.e_type == ET_EXEC) {
		p = mmap((void *)lo, span, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == MAP_FAILED || p != (void *)lo) {
			if (p != MAP_FAILED)
				munmap(p, span);
			return fail(l, ELF_ENOMEM,
				    "its address range 0x%llx-0x%llx is in use on this host",
				    (unsigned long long)lo, (unsigned long long)hi);
		}
		*bias = 0;
		return ELF_OK;
	}
	if (hint) {
		hint = (hint + align - 1) & ~(align - 1);
		p = mmap((void *)hint, span, PROT_NONE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p == (void *)hint) {
			*bias = hint - lo;
			return ELF_OK;
		}
		if (p != MAP_FAILED)
			munmap(p, span);
	}
	/* Over-allocate by the alignment, then trim both ends. */
	p = mmap(NULL, span + align, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return fail(l, ELF_ENOMEM, "no room for %llu bytes",
			    (unsigned long long)span);
	uint64_t start = ((uint64_t)p + align - 1) & ~(align - 1);
	if (start > (uint64_t)p)
		munmap(p, start - (uint64_t)p);
	if ((uint64_t)p + span + align > start + span)
		munmap((void *)(start + span), (uint64_t)p + align - start);
	*bias = start - lo;
	return ELF_OK;
}

static int elf_prot(uint32_t pf)
{
	return (pf & PF_R ? PROT_READ : 0) | (pf & PF_W ? PROT_WRITE : 0) |
	       (pf & PF_X ? PROT_EXEC : 0);
}

static enum elf_err map_segment(struct loader *l, const GElf_Phdr *ph,
				uint64_t bias)
{
	uint64_t va = ph->p_vaddr + bias;
	uint64_t page = PAGE_DOWN(va);
	uint64_t fend = va + ph->p_filesz; /* end of the file-backed bytes */
	uint64_t mend = PAGE_UP(va + ph->p_memsz);
	int prot = prot_to_host(elf_prot(ph->p_flags));

	if (ph->p_filesz) {
		uint64_t flen = PAGE_UP(fend) - page;
		/* Writable while the bss head in the last file page is
		 * cleared; the final protection comes after. */
		if (mmap((void *)page, flen, prot | PROT_WRITE,
			 MAP_PRIVATE | MAP_FIXED, l->fd,
			 (off_t)(ph->p_offset - (va - page))) == MAP_FAILED)
			return fail(l, ELF_ENOMEM, "mmap of a segment failed: %s",
				    strerror(errno));
		if (ph->p_memsz > ph->p_filesz && (fend & (GUEST_PAGE - 1)))
			memset((void *)fend, 0, PAGE_UP(fend) - fend);
		if (mprotect((void *)page, flen, prot))
			return fail(l, ELF_ENOMEM, "mprotect: %s", strerror(errno));
		page = PAGE_UP(fend);
	}
	if (mend > page &&
	    mmap((void *)page, mend - page, prot,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0) == MAP_FAILED)
		return fail(l, ELF_ENOMEM, "mmap of the bss failed: %s",
			    strerror(errno));
	return ELF_OK;
}

/* Where the program headers are in memory: PT_PHDR, or the PT_LOAD
 * that covers e_phoff in the file. */
static uint64_t find_phdr(struct loader *l, uint64_t bias)
{
	GElf_Phdr ph;

	for (size_t i = 0; i < l->phnum; i++)
		if (gelf_getphdr(l->elf, (int)i, &ph) && ph.p_type == PT_PHDR)
			return ph.p_vaddr + bias;
	for (size_t i = 0; i < l->phnum; i++)
		if (gelf_getphdr(l->elf, (int)i, &ph) && ph.p_type == PT_LOAD &&
		    l->eh.e_phoff >= ph.p_offset &&
		    l->eh.e_phoff < ph.p_offset + ph.p_filesz)
			return ph.p_vaddr + (l->eh.e_phoff - ph.p_offset) + bias;
	return 0;
}

static enum elf_err load(struct loader *l, uint64_t hint, struct elf_image *img)
{
	uint64_t lo, hi, align, bias = 0;
	GElf_Phdr ph;
	enum elf_err e;

	if ((e = check_header(l)) || (e = scan(l, img, &lo, &hi, &align)) ||
	    (e = reserve(l, lo, hi, align, hint, &bias)))
		return e;
	for (size_t i = 0; i < l->phnum; i++) {
		if (!gelf_getphdr(l->elf, (int)i, &ph) || ph.p_type != PT_LOAD ||
		    !ph.p_memsz)
			continue;
		if ((e = map_segment(l, &ph, bias))) {
			munmap((void *)(lo + bias), hi - lo);
			return e;
		}
	}
	/* The whole reservation is the guest's: ld.so maps into its holes. */
	vm_add(lo + bias, hi - lo);
	img->bias = bias;
	img->entry = l->eh.e_entry + bias;
	img->phdr = find_phdr(l, bias);
	img->phnum = (uint16_t)l->phnum;
	img->phent = l->eh.e_phentsize;
	img->lo = lo + bias;
	img->hi = hi + bias;
	img->brk = hi + bias;
	img->pie = l->eh.e_type == ET_DYN;
	a64_invalidate(img->lo, img->hi - img->lo);
	return ELF_OK;
}

enum elf_err elf_load(const char *path, uint64_t base_hint,
		      struct elf_image *img, char *err, size_t errlen)
{
	struct loader l = { .err = err, .errlen = errlen };
	struct stat st;
	enum elf_err e;

	err[0] = 0;
	l.fd = open(path, O_RDONLY | O_CLOEXEC);
	if (l.fd < 0)
		return fail(&l, errno == ENOENT || errno == ENOTDIR ? ELF_ENOENT
								    : ELF_EACCES,
			    "%s", strerror(errno));
	if (fstat(l.fd, &st) || !S_ISREG(st.st_mode)) {
		close(l.fd);
		return fail(&l, ELF_EACCES, "not a regular file");
	}
	l.fsize = st.st_size;
	elf_version(EV_CURRENT);
	l.elf = elf_begin(l.fd, ELF_C_READ, NULL);
	if (!l.elf) {
		close(l.fd);
		return fail(&l, ELF_ENOEXEC, "not an ELF file: %s", elf_errmsg(-1));
	}
	e = load(&l, base_hint, img);
	elf_end(l.elf);
	close(l.fd);
	return e;
}
