// SPDX-License-Identifier: MIT
/*
 * Real Debian arm64 programs from the sysroot under `vgpu run`, compared
 * with qemu-aarch64 byte for byte: busybox sh scripts, dynamically linked
 * coreutils, gzip/xz/bzip2 in both directions, python3. They need the
 * sysroot (else they skip) and an engine that runs glibc (else they skip,
 * naming the instruction it lacks).
 *
 * qemu-aarch64 runs here without binfmt_misc, so it cannot execve another
 * aarch64 program: every case is one process tree of one program (busybox
 * runs its applets in-process or by forking).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi_util.h"

/* Runs one sysroot program under both runners. */
static void compare(struct __test_metadata *_metadata, const char *const *argv,
		    const char *const *env, const char *const *files,
		    const void *in, size_t in_len, const char *const *outs)
{
	struct oracle_case c = {
		.argv = argv, .env = env, .setup_files = files,
		.stdin_data = in, .stdin_len = in_len, .out_files = outs,
		.timeout_s = 300,
	};

	if (!sysroot_path())
		SKIP(return, "needs the arm64 sysroot: run 'make sysroot'");
	ASSERT_TRUE(oracle_compare(_metadata, &c));
}

static const char script[] =
	"set -e\n"
	"mkdir -p d/e\n"
	"echo 'b 2' > d/x\n"
	"echo 'a 1' > d/e/y\n"
	"find d -type f | sort\n"
	"printf '3\\n1\\n2\\n' | sort -n | awk '{s+=$1; print $1, s}'\n"
	"echo hello world | sed 's/world/vgpu/'\n"
	"for i in 1 2 3; do echo \"loop $i\"; done\n"
	"echo $(( 6 * 7 ))\n"
	"cat d/x d/e/y | sort -k2 -n | tr a-z A-Z\n"
	"wc -l < d/x\n"
	"( exit 3 ) || echo \"subshell status $?\"\n";

static void busybox_script(struct __test_metadata *_metadata)
{
	const char *argv[] = { "/bin/busybox", "sh", "script.sh", NULL };
	const char *files[] = { "script.sh", script, NULL };
	const char *outs[] = { "d/x", "d/e/y", NULL };

	compare(_metadata, argv, NULL, files, NULL, 0, outs);
}

TEST_TIMEOUT(busybox_sh_script, 900)
{
	busybox_script(_metadata);
}

TEST_TIMEOUT(coreutils_ls, 900)
{
	const char *argv[] = { "/bin/ls", "-ln", "--time-style=+X", ".", NULL };
	const char *files[] = { "a.txt", "alpha\n", "b.txt", "beta beta\n", NULL };

	compare(_metadata, argv, NULL, files, NULL, 0, NULL);
}

TEST_TIMEOUT(coreutils_sort, 900)
{
	const char *argv[] = { "/usr/bin/sort", "-k2,2n", "-k1,1r", NULL };
	static const char in[] = "b 2\na 10\nc 2\nd 1\ne 10\n";

	compare(_metadata, argv, NULL, NULL, in, sizeof(in) - 1, NULL);
}

TEST_TIMEOUT(coreutils_sha256sum, 900)
{
	const char *argv[] = { "/usr/bin/sha256sum", "a.txt", "-", NULL };
	const char *files[] = { "a.txt", "some bytes to hash\n", NULL };

	compare(_metadata, argv, NULL, files, "stdin too", 9, NULL);
}

TEST_TIMEOUT(coreutils_date_with_tz, 900)
{
	const char *argv[] = { "/bin/date", "-d", "@1700000000", "+%c %Z %z", NULL };
	const char *env[] = { "TZ=America/New_York", "LC_ALL=C", NULL };

	compare(_metadata, argv, env, NULL, NULL, 0, NULL);
}

/* A few MB of text that compresses like text, the same on every run. */
static char *make_text(size_t size)
{
	char *t = malloc(size + 1);
	uint32_t x = 12345;
	size_t n = 0;

	while (t && n + 64 < size) {
		x = x * 1103515245u + 12345u;
		n += (size_t)snprintf(t + n, size + 1 - n, "line %zu: %08x %s\n",
				      n, x >> 4, (x & 0x100) ? "alpha" : "beta");
	}
	if (t)
		t[n] = 0;
	return t;
}

/* @tool compresses the text (-c from stdin), and decompresses what the
 * host's own @tool made of it: both directions, both runners. */
static void round_trip(struct __test_metadata *_metadata, const char *tool,
		       const char *level)
{
	char *text = make_text(2 << 20);
	char dir[] = "/tmp/vgpu-abi-z-XXXXXX", path[64], cmd[256];
	struct proc_result r = { 0 };

	ASSERT_NONNULL(text);
	const char *c_argv[] = { tool, level, "-c", NULL };
	compare(_metadata, c_argv, NULL, NULL, text, strlen(text), NULL);

	ASSERT_NONNULL(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/in", dir);
	FILE *f = fopen(path, "w");
	ASSERT_NONNULL(f);
	fputs(text, f);
	fclose(f);
	const char *base = strrchr(tool, '/') + 1;
	snprintf(cmd, sizeof(cmd), "%s %s -c < %s/in", base, level, dir);
	char *sh[] = { "sh", "-c", cmd, NULL };
	if (proc_run(sh, NULL, NULL, NULL, 0, 120, &r) || r.status) {
		proc_result_free(&r);
		free(text);
		SKIP(return, "host %s is not available", base);
	}
	const char *d_argv[] = { tool, "-dc", NULL };
	compare(_metadata, d_argv, NULL, NULL, r.out, r.out_len, NULL);
	proc_result_free(&r);
	char *rm[] = { "rm", "-rf", dir, NULL };
	if (!proc_run(rm, NULL, NULL, NULL, 0, 30, &r))
		proc_result_free(&r);
	free(text);
}

TEST_TIMEOUT(gzip_round_trip, 1800)
{
	round_trip(_metadata, "/bin/gzip", "-9");
}

TEST_TIMEOUT(xz_round_trip, 1800)
{
	round_trip(_metadata, "/usr/bin/xz", "-6");
}

TEST_TIMEOUT(bzip2_round_trip, 1800)
{
	round_trip(_metadata, "/bin/bzip2", "-9");
}

static const char py[] =
	"import json, re, hashlib, zlib, threading\n"
	"data = {'a': [1, 2, 3], 'b': {'c': 'd'}}\n"
	"s = json.dumps(data, sort_keys=True)\n"
	"print(s, json.loads(s) == data)\n"
	"print(re.findall(r'\\d+', 'a1b22c333'))\n"
	"print(hashlib.sha256(b'vgpu').hexdigest())\n"
	"c = zlib.compress(b'x' * 10000)\n"
	"print(len(zlib.decompress(c)), zlib.crc32(c))\n"
	"results = []\n"
	"lock = threading.Lock()\n"
	"def work(n):\n"
	"    t = sum(i * i for i in range(n))\n"
	"    with lock:\n"
	"        results.append(t)\n"
	"ts = [threading.Thread(target=work, args=(1000 * (k + 1),)) for k in range(4)]\n"
	"for t in ts:\n"
	"    t.start()\n"
	"for t in ts:\n"
	"    t.join()\n"
	"print(sorted(results))\n"
	"try:\n"
	"    raise ValueError('boom')\n"
	"except ValueError as e:\n"
	"    print('caught', e)\n";

static void python3(struct __test_metadata *_metadata, const char *src)
{
	const char *argv[] = { "/usr/bin/python3", "t.py", NULL };
	const char *files[] = { "t.py", src, NULL };

	compare(_metadata, argv, NULL, files, NULL, 0, NULL);
}

TEST_TIMEOUT(python3_script, 1800)
{
	python3(_metadata, py);
}

/*
 * Debian's libcrypto through python3: hashlib and, by ctypes, AES in ECB,
 * CBC, CTR and GCM. With AES, PMULL, SHA1 and SHA2 in AT_HWCAP, OpenSSL
 * takes its ARMv8 crypto-extension paths (GHASH on PMULL for GCM).
 */
static const char py_crypto[] =
	"import hashlib, ctypes\n"
	"for n in (0, 3, 55, 56, 64, 1000, 100000):\n"
	"    d = bytes((i * 7 + n) & 255 for i in range(n))\n"
	"    print(n, ' '.join(hashlib.new(a, d).hexdigest()[:16] for a in\n"
	"          ('md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512', 'sha3_256', 'blake2b')))\n"
	"c = ctypes.CDLL('libcrypto.so.3')\n"
	"P = ctypes.c_void_p\n"
	"c.EVP_CIPHER_CTX_new.restype = P\n"
	"c.EVP_get_cipherbyname.restype = P\n"
	"c.EVP_get_cipherbyname.argtypes = [ctypes.c_char_p]\n"
	"c.EVP_EncryptInit_ex.argtypes = [P, P, P, ctypes.c_char_p, ctypes.c_char_p]\n"
	"c.EVP_EncryptUpdate.argtypes = [P, ctypes.c_char_p, P, ctypes.c_char_p, ctypes.c_int]\n"
	"c.EVP_EncryptFinal_ex.argtypes = [P, ctypes.c_char_p, P]\n"
	"c.EVP_CIPHER_CTX_ctrl.argtypes = [P, ctypes.c_int, ctypes.c_int, ctypes.c_char_p]\n"
	"c.EVP_CIPHER_CTX_free.argtypes = [P]\n"
	"key = bytes(range(32))\n"
	"iv = bytes(range(100, 116))\n"
	"for name in (b'aes-128-ecb', b'aes-128-cbc', b'aes-256-cbc', b'aes-192-ctr', b'aes-128-gcm', b'aes-256-gcm'):\n"
	"    for n in (16, 48, 1000, 4096):\n"
	"        msg = bytes((i * 13 + n) & 255 for i in range(n))\n"
	"        ctx = c.EVP_CIPHER_CTX_new()\n"
	"        c.EVP_EncryptInit_ex(ctx, c.EVP_get_cipherbyname(name), None, key, iv[:12] if b'gcm' in name else iv)\n"
	"        out = ctypes.create_string_buffer(n + 32)\n"
	"        l1 = ctypes.c_int(0)\n"
	"        l2 = ctypes.c_int(0)\n"
	"        c.EVP_EncryptUpdate(ctx, out, ctypes.addressof(l1), msg, n)\n"
	"        fin = ctypes.create_string_buffer(32)\n"
	"        c.EVP_EncryptFinal_ex(ctx, fin, ctypes.addressof(l2))\n"
	"        tag = ctypes.create_string_buffer(16)\n"
	"        if b'gcm' in name:\n"
	"            c.EVP_CIPHER_CTX_ctrl(ctx, 0x10, 16, tag)\n"
	"        c.EVP_CIPHER_CTX_free(ctx)\n"
	"        print(name.decode(), n, l1.value, l2.value, hashlib.sha256(out.raw[:l1.value] + fin.raw[:l2.value]).hexdigest()[:16], tag.raw.hex()[:16])\n";

TEST_TIMEOUT(python3_libcrypto, 1800)
{
	python3(_metadata, py_crypto);
}

/*
 * The same programs on the other engine: vgpu runs them with -accel
 * interp (VGPU_ACCEL reaches vgpu through the environment; each test runs
 * in its own process). The runs above are the default engine's, the JIT.
 */
#define OTHER_ENGINE "interp"

TEST_TIMEOUT(busybox_sh_script_other_engine, 900)
{
	setenv("VGPU_ACCEL", OTHER_ENGINE, 1);
	busybox_script(_metadata);
}

TEST_TIMEOUT(xz_round_trip_other_engine, 1800)
{
	setenv("VGPU_ACCEL", OTHER_ENGINE, 1);
	round_trip(_metadata, "/usr/bin/xz", "-6");
}

TEST_TIMEOUT(python3_script_other_engine, 1800)
{
	setenv("VGPU_ACCEL", OTHER_ENGINE, 1);
	python3(_metadata, py);
}

TEST_HARNESS_MAIN
