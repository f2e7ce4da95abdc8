// SPDX-License-Identifier: MIT
/*
 * OpenCL images through ocl-icd + rusticl (see cl.h): 1D, 1D array, 2D,
 * 2D array and 3D images of CL_RGBA CL_FLOAT, CL_RGBA CL_UNORM_INT8 and
 * CL_R CL_UNSIGNED_INT32 / CL_SIGNED_INT32, read by read_imagef/i/ui
 * through samplers (clCreateSampler: normalized and unnormalized
 * coordinates, every CLK_ADDRESS_* mode OpenCL allows with them, nearest
 * and linear filtering), read without a sampler at integer coordinates,
 * written by write_imagef/i/ui, and their sizes by get_image_*.
 *
 * Every value is checked against a C reference of OpenCL's own rules
 * (the specification's "Addressing and Filter Modes"). Nearest reads,
 * writes and sizes must match exactly. Linear filtering may differ from
 * the exact formula by (filtered dimensions) / 256 of the spread of the
 * texels it blends (+1e-5): OpenCL leaves filtering precision to the
 * implementation, and texture units (and the model's documented
 * bilinear weights) keep 8 fractional bits of the sub-texel position, so
 * each weight may be off by up to 1/256.
 */
#include <math.h>
#include <stdbool.h>

#include "cl.h"

typedef uint32_t cl_mem_object_type, cl_addressing_mode, cl_filter_mode, cl_bool;
typedef struct opaque *cl_sampler;

struct cl_image_format_ {
	cl_uint order, type;
};

struct cl_image_desc_ {
	cl_mem_object_type type;
	size_t width, height, depth, array_size, row_pitch, slice_pitch;
	cl_uint mip_levels, samples;
	cl_mem buffer;
};

#define CL_R 0x10B0
#define CL_RGBA 0x10B5
#define CL_UNORM_INT8 0x10D2
#define CL_SIGNED_INT32 0x10D9
#define CL_UNSIGNED_INT32 0x10DC
#define CL_FLOAT 0x10DE
#define CL_MEM_OBJECT_IMAGE2D 0x10F1
#define CL_MEM_OBJECT_IMAGE3D 0x10F2
#define CL_MEM_OBJECT_IMAGE2D_ARRAY 0x10F3
#define CL_MEM_OBJECT_IMAGE1D 0x10F4
#define CL_MEM_OBJECT_IMAGE1D_ARRAY 0x10F5
#define CL_ADDRESS_NONE 0x1130
#define CL_ADDRESS_CLAMP_TO_EDGE 0x1131
#define CL_ADDRESS_CLAMP 0x1132
#define CL_ADDRESS_REPEAT 0x1133
#define CL_ADDRESS_MIRRORED_REPEAT 0x1134
#define CL_FILTER_NEAREST 0x1140
#define CL_FILTER_LINEAR 0x1141

cl_mem clCreateImage_t(cl_context, cl_mem_flags, const struct cl_image_format_ *,
		       const struct cl_image_desc_ *, void *, cl_int *);
cl_sampler clCreateSampler_t(cl_context, cl_bool, cl_addressing_mode, cl_filter_mode, cl_int *);
cl_int clEnqueueReadImage_t(cl_command_queue, cl_mem, cl_uint, const size_t *, const size_t *,
			    size_t, size_t, void *, cl_uint, const cl_event *, cl_event *);

/* Kernels by image type (1d, 1da, 2d, 2da, 3d) and result (f, i, ui):
 * sampled reads at float coordinates c[i], sampler-less reads at integer
 * ones, writes of a function of the coordinate, and the sizes. */
static const char *const src =
	"#define RD(T, IT, CT, SEL, FN, OT) \\\n"
	"__kernel void rd##FN##_##T(read_only IT im, sampler_t s, __global const float4 *c,\\\n"
	"                           __global OT *o) {\\\n"
	"  int i = get_global_id(0); o[i] = read_image##FN(im, s, c[i]SEL);\\\n"
	"}\n"
	"#define ALL(FN, OT) RD(1d, image1d_t, float, .x, FN, OT) \\\n"
	"  RD(1da, image1d_array_t, float2, .xy, FN, OT) RD(2d, image2d_t, float2, .xy, FN, OT) \\\n"
	"  RD(2da, image2d_array_t, float4, , FN, OT) RD(3d, image3d_t, float4, , FN, OT)\n"
	"ALL(f, float4) ALL(i, int4) ALL(ui, uint4)\n"
	"__kernel void fetch_3d(read_only image3d_t im, __global uint4 *o) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  o[(z * get_global_size(1) + y) * get_global_size(0) + x] =\n"
	"    read_imageui(im, (int4)(x, y, z, 0));\n"
	"}\n"
	"__kernel void fetch_2da(read_only image2d_array_t im, __global float4 *o) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  o[(z * get_global_size(1) + y) * get_global_size(0) + x] =\n"
	"    read_imagef(im, (int4)(x, y, z, 0));\n"
	"}\n"
	"float4 val(int x, int y, int z) {\n"
	"  return (float4)((x * 7 + y * 3 + z * 11) % 256, (x * 5 + y * 13 + z) % 256,\n"
	"                  (x + y * 17 + z * 29) % 256, (x * 31 + z * 3) % 256) / 255.0f;\n"
	"}\n"
	"__kernel void wr_1d(write_only image1d_t im) {\n"
	"  int x = get_global_id(0); write_imagef(im, x, val(x, 0, 0));\n"
	"}\n"
	"__kernel void wr_1da(write_only image1d_array_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1);\n"
	"  write_imagef(im, (int2)(x, y), val(x, y, 0));\n"
	"}\n"
	"__kernel void wr_2d(write_only image2d_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1);\n"
	"  write_imagef(im, (int2)(x, y), val(x, y, 0));\n"
	"}\n"
	"__kernel void wr_2da(write_only image2d_array_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  write_imagef(im, (int4)(x, y, z, 0), val(x, y, z));\n"
	"}\n"
	"__kernel void wr_3d(write_only image3d_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  write_imagef(im, (int4)(x, y, z, 0), val(x, y, z));\n"
	"}\n"
	"__kernel void wrui_3d(write_only image3d_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  write_imageui(im, (int4)(x, y, z, 0), (uint4)(x * 1000003u + y * 4099u + z, 0, 0, 0));\n"
	"}\n"
	"__kernel void wri_2da(write_only image2d_array_t im) {\n"
	"  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);\n"
	"  write_imagei(im, (int4)(x, y, z, 0), (int4)(x * 1000 - y * 77 - z * 100000 - 5, 0, 0, 0));\n"
	"}\n"
	"__kernel void size_1d(read_only image1d_t im, __global int *o) {\n"
	"  o[0] = get_image_width(im);\n"
	"}\n"
	"__kernel void size_1da(read_only image1d_array_t im, __global int *o) {\n"
	"  o[0] = get_image_width(im); o[1] = get_image_array_size(im);\n"
	"}\n"
	"__kernel void size_2d(read_only image2d_t im, __global int *o) {\n"
	"  o[0] = get_image_width(im); o[1] = get_image_height(im);\n"
	"}\n"
	"__kernel void size_2da(read_only image2d_array_t im, __global int *o) {\n"
	"  o[0] = get_image_width(im); o[1] = get_image_height(im);\n"
	"  o[2] = get_image_array_size(im);\n"
	"}\n"
	"__kernel void size_3d(read_only image3d_t im, __global int *o) {\n"
	"  o[0] = get_image_width(im); o[1] = get_image_height(im); o[2] = get_image_depth(im);\n"
	"}\n";

enum kind { K_FLOAT, K_UNORM8, K_UINT, K_SINT };

/* An image: its type's name in the kernels, sizes (layers in n[2] or
 * n[1] of arrays), coordinate dimensions, format and texels. */
struct image {
	const char *name;
	cl_mem_object_type type;
	unsigned n[3], dims; /* dims: filtered (normalizable) coordinates */
	bool array;
	enum kind kind;
	void *data;
	cl_mem mem;
};

#define NPTS 48

/* Texel (x, y, z) as the 4 components a read returns, in float or as
 * integer bits. */
static void texel(const struct image *im, int x, int y, int z, float f[4], uint32_t u[4])
{
	size_t i = ((size_t)z * im->n[1] + y) * im->n[0] + x;

	for (int c = 0; c < 4; c++) {
		switch (im->kind) {
		case K_FLOAT:
			f[c] = ((float *)im->data)[4 * i + c];
			break;
		case K_UNORM8:
			f[c] = ((uint8_t *)im->data)[4 * i + c] / 255.0f;
			break;
		default:
			u[c] = c == 0 ? ((uint32_t *)im->data)[i] : c == 3 ? 1 : 0;
		}
	}
}

/* Sampler state as OpenCL's rules need it. */
struct samp {
	bool norm, linear;
	cl_addressing_mode addr;
};

/* Nearest index of coordinate @s (normalized if the sampler says) in
 * [0, n); -1 for the border. */
static int nearest_index(const struct samp *sp, float s, int n)
{
	int i;

	if (sp->addr == CL_ADDRESS_REPEAT) {
		i = (int)floorf((s - floorf(s)) * n);
		return i > n - 1 ? i - n : i;
	}
	if (sp->addr == CL_ADDRESS_MIRRORED_REPEAT) {
		float m = fabsf(s - 2.0f * rintf(0.5f * s));

		i = (int)floorf(m * n);
		return i < n - 1 ? i : n - 1;
	}
	i = (int)floorf(sp->norm ? s * n : s);
	if (sp->addr == CL_ADDRESS_CLAMP_TO_EDGE)
		return i < 0 ? 0 : i > n - 1 ? n - 1 : i;
	return i < 0 || i >= n ? -1 : i;
}

/* Linear taps of coordinate @s: indices i[0], i[1] (-1: border) and the
 * weight @a of i[1]. */
static void linear_taps(const struct samp *sp, float s, int n, int i[2], float *a)
{
	float u;

	if (sp->addr == CL_ADDRESS_REPEAT)
		u = (s - floorf(s)) * n;
	else if (sp->addr == CL_ADDRESS_MIRRORED_REPEAT)
		u = fabsf(s - 2.0f * rintf(0.5f * s)) * n;
	else
		u = sp->norm ? s * n : s;
	i[0] = (int)floorf(u - 0.5f);
	i[1] = i[0] + 1;
	*a = (u - 0.5f) - floorf(u - 0.5f);
	for (int k = 0; k < 2; k++) {
		if (sp->addr == CL_ADDRESS_REPEAT)
			i[k] = i[k] < 0 ? i[k] + n : i[k] > n - 1 ? i[k] - n : i[k];
		else if (sp->addr == CL_ADDRESS_CLAMP)
			i[k] = i[k] < 0 || i[k] >= n ? -1 : i[k];
		else
			i[k] = i[k] < 0 ? 0 : i[k] > n - 1 ? n - 1 : i[k];
	}
}

/* The reference of a sampled read at @c; @tol the allowed difference. */
static void reference(const struct image *im, const struct samp *sp, const float c[4],
		      float f[4], uint32_t u[4], float *tol)
{
	int layer = 0, idx[3][2] = { { 0, 0 }, { 0, 0 }, { 0, 0 } }, taps;
	float w[3] = { 0, 0, 0 }, lo = INFINITY, hi = -INFINITY;
	unsigned nl = im->n[im->dims];

	if (im->array) {
		layer = (int)rintf(c[im->dims]);
		layer = layer < 0 ? 0 : layer > (int)nl - 1 ? (int)nl - 1 : layer;
	}
	for (unsigned d = 0; d < im->dims; d++) {
		if (sp->linear)
			linear_taps(sp, c[d], im->n[d], idx[d], &w[d]);
		else
			idx[d][0] = idx[d][1] = nearest_index(sp, c[d], im->n[d]);
	}
	memset(f, 0, 4 * sizeof(*f));
	memset(u, 0, 4 * sizeof(*u));
	taps = sp->linear ? 1 << im->dims : 1;
	for (int t = 0; t < taps; t++) {
		int p[3] = { 0, 0, 0 };
		float tf[4] = { 0, 0, 0, 0 }, wt = 1;
		uint32_t tu[4] = { 0, 0, 0, 0 };
		bool border = false;

		for (unsigned d = 0; d < im->dims; d++) {
			p[d] = idx[d][t >> d & 1];
			border |= p[d] < 0;
			wt *= t >> d & 1 ? w[d] : 1 - w[d];
		}
		if (im->array)
			p[im->dims] = layer;
		/* OpenCL's border is (0,0,0,1) for orders without alpha
		 * (CL_R): rusticl writes (0,0,0,0) into every sampler and
		 * the texture unit returns a sampler's border colour as it
		 * is (reads of CL_R through CL_ADDRESS_CLAMP give alpha 0
		 * on panfrost, on the hardware too); the test takes what
		 * the sampler holds */
		if (!border)
			texel(im, p[0], p[1], p[2], tf, tu);
		for (int k = 0; k < 4; k++) {
			f[k] += wt * tf[k];
			u[k] = tu[k];
			lo = fminf(lo, tf[k]);
			hi = fmaxf(hi, tf[k]);
		}
	}
	*tol = sp->linear ? 1e-5f + (hi - lo) * im->dims / 256.0f : 0;
}

static uint32_t rng = 12345;

static float rnd(void)
{
	rng = rng * 1103515245u + 12345u;
	return (float)(rng >> 8) / (float)(1u << 24);
}

/* A coordinate in texel units for @sp along a dimension of @n texels:
 * beyond the edges except where the mode leaves that undefined (NONE),
 * never within 1/64 texel of a texel boundary (nearest rounding there
 * is the implementation's). */
static float coord(const struct samp *sp, unsigned n)
{
	float lo = -1.5f, hi = n + 1.5f, t;

	if (sp->addr == CL_ADDRESS_NONE) {
		lo = sp->linear ? 0.5f : 0;
		hi = sp->linear ? n - 0.5f : n;
	} else if (sp->addr == CL_ADDRESS_REPEAT || sp->addr == CL_ADDRESS_MIRRORED_REPEAT) {
		lo = -(float)n - 0.5f;
		hi = 2.0f * n + 0.5f;
	}
	do
		t = lo + rnd() * (hi - lo);
	while (fabsf(t - rintf(t)) < 1 / 64.0f || t < lo || t >= hi);
	return t;
}

static int failures;
static float worst; /* the largest linear difference / its allowance */

static void mismatch(const char *what, unsigned i, const char *got, const char *want)
{
	if (failures++ < 16)
		printf("MISMATCH %s[%u] = %s, want %s\n", what, i, got, want);
}

/* Reads @im through sampler @sp with read_image@fn at NPTS coordinates;
 * returns the number of values checked. */
static unsigned sampled(struct cl_env *e, cl_program prog, struct image *im,
			const struct samp *sp, const char *fn)
{
	static const char *const an[] = { "none", "edge", "clamp", "repeat", "mirror" };
	float c[NPTS][4], want[4], tol;
	uint32_t got[NPTS][4], wantu[4];
	size_t global = NPTS;
	char name[32], what[96];
	cl_int err = 0;
	int before;

	snprintf(name, sizeof(name), "rd%s_%s", fn, im->name);
	snprintf(what, sizeof(what), "%s %s %s %s", name, sp->norm ? "norm" : "unnorm",
		 an[sp->addr - CL_ADDRESS_NONE], sp->linear ? "linear" : "nearest");
	cl_kernel k = cl_kernel_of(prog, name);
	cl_sampler s = CL(clCreateSampler)(e->ctx, sp->norm, sp->addr,
					   sp->linear ? CL_FILTER_LINEAR : CL_FILTER_NEAREST, &err);
	CL_OK(err);
	for (unsigned i = 0; i < NPTS; i++) {
		memset(c[i], 0, sizeof(c[i]));
		for (unsigned d = 0; d < im->dims; d++)
			c[i][d] = coord(sp, im->n[d]) / (sp->norm ? im->n[d] : 1);
		if (im->array) /* the layer: never normalized, never near .5 */
			c[i][im->dims] = (float)(int)(rnd() * (im->n[im->dims] + 2)) - 1.0f +
					 (rnd() - 0.5f) * 0.8f;
	}
	cl_mem cm = cl_buffer(e, CL_MEM_READ_ONLY, sizeof(c), c);
	cl_mem om = cl_buffer(e, CL_MEM_WRITE_ONLY, sizeof(got), NULL);
	CL_ARG(k, 0, im->mem);
	CL_ARG(k, 1, s);
	CL_ARG(k, 2, cm);
	CL_ARG(k, 3, om);
	cl_run(e, k, 1, &global, NULL, om, sizeof(got), got);
	before = failures;
	for (unsigned i = 0; i < NPTS; i++) {
		reference(im, sp, c[i], want, wantu, &tol);
		for (unsigned j = 0; j < 4; j++) {
			char g[48], w[112];
			float gf;

			memcpy(&gf, &got[i][j], 4);
			if (*fn == 'f' && tol > 0)
				worst = fmaxf(worst, fabsf(gf - want[j]) / tol);
			if (*fn == 'f' ? fabsf(gf - want[j]) <= tol : got[i][j] == wantu[j])
				continue;
			if (*fn == 'f') {
				snprintf(g, sizeof(g), "%.7g", gf);
				snprintf(w, sizeof(w), "%.7g (+-%.2g) at (%g, %g, %g)", want[j],
					 tol, c[i][0], c[i][1], c[i][2]);
			} else {
				snprintf(g, sizeof(g), "%u", got[i][j]);
				snprintf(w, sizeof(w), "%u at (%g, %g, %g)", wantu[j], c[i][0],
					 c[i][1], c[i][2]);
			}
			mismatch(what, i * 4 + j, g, w);
		}
	}
	if (failures > before)
		printf("CASE FAILED: %s: %d of %d values\n", what, failures - before, NPTS * 4);
	return NPTS * 4;
}

/* Every sampler OpenCL allows for @im's format, read by read_image@fn. */
static unsigned all_samplers(struct cl_env *e, cl_program prog, struct image *im, const char *fn)
{
	unsigned n = 0;

	for (int norm = 0; norm < 2; norm++)
		for (cl_uint a = CL_ADDRESS_NONE; a <= CL_ADDRESS_MIRRORED_REPEAT; a++)
			for (int lin = 0; lin < 2; lin++) {
				struct samp sp = { norm, lin, a };

				/* repeat modes need normalized coordinates; linear
				 * filtering needs a non-integer format */
				if ((!norm && a >= CL_ADDRESS_REPEAT) ||
				    (lin && (im->kind == K_UINT || im->kind == K_SINT)))
					continue;
				n += sampled(e, prog, im, &sp, fn);
			}
	return n;
}

/* The image descriptor of @im (layers of a 1D array in n[1]). */
static struct cl_image_desc_ image_desc(const struct image *im)
{
	struct cl_image_desc_ d = { .type = im->type, .width = im->n[0] };

	if (im->type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
		d.array_size = im->n[1];
	} else {
		d.height = im->dims > 1 ? im->n[1] : 0;
		d.depth = im->dims > 2 ? im->n[2] : 0;
		d.array_size = im->array ? im->n[2] : 0;
	}
	return d;
}

static void image_create(struct cl_env *e, struct image *im)
{
	static const cl_uint order[] = { CL_RGBA, CL_RGBA, CL_R, CL_R };
	static const cl_uint type[] = { CL_FLOAT, CL_UNORM_INT8, CL_UNSIGNED_INT32,
					CL_SIGNED_INT32 };
	struct cl_image_format_ f = { order[im->kind], type[im->kind] };
	struct cl_image_desc_ d = image_desc(im);
	size_t texels = (size_t)im->n[0] * im->n[1] * im->n[2];
	cl_int err = 0;

	im->data = malloc(texels * 16);
	for (size_t i = 0; i < texels * 4; i++) {
		uint32_t h = (uint32_t)(i * 2654435761u) >> 7;

		if (im->kind == K_FLOAT)
			((float *)im->data)[i] = (float)(h % 1000) / 999.0f;
		else if (im->kind == K_UNORM8)
			((uint8_t *)im->data)[i] = (uint8_t)h;
		else if (i < texels)
			((uint32_t *)im->data)[i] = h * 977u - (im->kind == K_SINT ? 1u << 30 : 0);
	}
	im->mem = CL(clCreateImage)(e->ctx, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &f, &d,
				    im->data, &err);
	CL_OK(err);
}

/* get_image_* of @im against its sizes. */
static unsigned sizes(struct cl_env *e, cl_program prog, struct image *im)
{
	int got[3] = { -1, -1, -1 }, n = im->array ? (int)im->dims + 1 : (int)im->dims;
	size_t one = 1;
	char name[32], g[16], w[16];

	snprintf(name, sizeof(name), "size_%s", im->name);
	cl_kernel k = cl_kernel_of(prog, name);
	cl_mem om = cl_buffer(e, CL_MEM_READ_WRITE, sizeof(got), got);
	CL_ARG(k, 0, im->mem);
	CL_ARG(k, 1, om);
	cl_run(e, k, 1, &one, NULL, om, sizeof(got), got);
	for (int i = 0; i < n; i++)
		if (got[i] != (int)im->n[i]) {
			snprintf(g, sizeof(g), "%d", got[i]);
			snprintf(w, sizeof(w), "%u", im->n[i]);
			mismatch(name, (unsigned)i, g, w);
		}
	return (unsigned)n;
}

/* write_image@fn of every texel of a new image like @im, read back. */
static unsigned written(struct cl_env *e, cl_program prog, const struct image *like,
			const char *fn)
{
	struct image im = *like;
	bool one = im.kind == K_UINT || im.kind == K_SINT;
	struct cl_image_format_ f = { one ? CL_R : CL_RGBA,
				      im.kind == K_UINT	  ? CL_UNSIGNED_INT32
				      : im.kind == K_SINT ? CL_SIGNED_INT32
							  : CL_UNORM_INT8 };
	struct cl_image_desc_ d = image_desc(&im);
	size_t region[3] = { im.n[0], im.n[1], im.n[2] }, origin[3] = { 0, 0, 0 };
	size_t global[3] = { im.n[0], im.n[1], im.n[2] }, texels = (size_t)im.n[0] * im.n[1] * im.n[2];
	uint8_t *got = calloc(texels, 4); /* both formats: 4 bytes a texel */
	char name[32], g[16], w[16];
	cl_int err = 0;

	im.mem = CL(clCreateImage)(e->ctx, CL_MEM_READ_WRITE, &f, &d, NULL, &err);
	CL_OK(err);
	snprintf(name, sizeof(name), "wr%s_%s", fn, im.name);
	cl_kernel k = cl_kernel_of(prog, name);
	CL_ARG(k, 0, im.mem);
	CL_OK(CL(clEnqueueNDRangeKernel)(e->q, k, 3, NULL, global, NULL, 0, NULL, NULL));
	CL_OK(CL(clEnqueueReadImage)(e->q, im.mem, 1, origin, region, 0, 0, got, 0, NULL, NULL));
	for (unsigned z = 0; z < im.n[2]; z++)
		for (unsigned y = 0; y < im.n[1]; y++)
			for (unsigned x = 0; x < im.n[0]; x++) {
				size_t i = ((size_t)z * im.n[1] + y) * im.n[0] + x;
				uint32_t v, want;

				memcpy(&v, got + 4 * i, 4);
				if (im.kind == K_UINT)
					want = x * 1000003u + y * 4099u + z;
				else if (im.kind == K_SINT)
					want = (uint32_t)((int)x * 1000 - (int)y * 77 -
							  (int)z * 100000 - 5);
				else
					want = (x * 7 + y * 3 + z * 11) % 256 |
					       (x * 5 + y * 13 + z) % 256 << 8 |
					       (x + y * 17 + z * 29) % 256 << 16 |
					       (x * 31 + z * 3) % 256 << 24;
				if (v == want)
					continue;
				snprintf(g, sizeof(g), "0x%08x", v);
				snprintf(w, sizeof(w), "0x%08x", want);
				mismatch(name, (unsigned)i, g, w);
			}
	free(got);
	return (unsigned)texels;
}

/* Sampler-less read_image@fn of every texel of @im at integer coordinates. */
static unsigned fetched(struct cl_env *e, cl_program prog, struct image *im, const char *kname)
{
	size_t global[3] = { im->n[0], im->n[1], im->n[2] }, texels = global[0] * global[1] * global[2];
	uint32_t(*got)[4] = calloc(texels, 16), wu[4];
	float wf[4];
	char g[16], w[16];

	cl_kernel k = cl_kernel_of(prog, kname);
	cl_mem om = cl_buffer(e, CL_MEM_WRITE_ONLY, texels * 16, NULL);
	CL_ARG(k, 0, im->mem);
	CL_ARG(k, 1, om);
	CL_OK(CL(clEnqueueNDRangeKernel)(e->q, k, 3, NULL, global, NULL, 0, NULL, NULL));
	CL_OK(CL(clEnqueueReadBuffer)(e->q, om, 1, 0, texels * 16, got, 0, NULL, NULL));
	for (size_t i = 0; i < texels; i++) {
		texel(im, (int)(i % global[0]), (int)(i / global[0] % global[1]),
		      (int)(i / global[0] / global[1]), wf, wu);
		for (int c = 0; c < 4; c++) {
			uint32_t want = wu[c];

			if (im->kind != K_UINT)
				memcpy(&want, &wf[c], 4);
			if (got[i][c] == want)
				continue;
			snprintf(g, sizeof(g), "0x%08x", got[i][c]);
			snprintf(w, sizeof(w), "0x%08x", want);
			mismatch(kname, (unsigned)(i * 4 + c), g, w);
		}
	}
	free(got);
	return (unsigned)texels * 4;
}

int main(void)
{
	struct image ims[] = {
		{ "1d", CL_MEM_OBJECT_IMAGE1D, { 13, 1, 1 }, 1, false, K_UNORM8, NULL, NULL },
		{ "1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, { 11, 3, 1 }, 1, true, K_FLOAT, NULL, NULL },
		{ "2d", CL_MEM_OBJECT_IMAGE2D, { 9, 7, 1 }, 2, false, K_FLOAT, NULL, NULL },
		{ "2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, { 7, 5, 3 }, 2, true, K_UNORM8, NULL, NULL },
		{ "3d", CL_MEM_OBJECT_IMAGE3D, { 6, 5, 4 }, 3, false, K_FLOAT, NULL, NULL },
	};
	struct image ints[] = {
		{ "3d", CL_MEM_OBJECT_IMAGE3D, { 5, 4, 3 }, 3, false, K_UINT, NULL, NULL },
		{ "2da", CL_MEM_OBJECT_IMAGE2D_ARRAY, { 6, 3, 2 }, 2, true, K_SINT, NULL, NULL },
		{ "1da", CL_MEM_OBJECT_IMAGE1D_ARRAY, { 7, 2, 1 }, 1, true, K_UINT, NULL, NULL },
	};
	unsigned checked = 0;
	struct cl_env e;

	cl_init(&e);
	cl_program prog = cl_program_of(&e, src);
	for (unsigned i = 0; i < sizeof(ims) / sizeof(ims[0]); i++) {
		image_create(&e, &ims[i]);
		checked += sizes(&e, prog, &ims[i]);
		checked += all_samplers(&e, prog, &ims[i], "f");
		checked += written(&e, prog, &ims[i], "");
	}
	for (unsigned i = 0; i < sizeof(ints) / sizeof(ints[0]); i++) {
		image_create(&e, &ints[i]);
		checked += all_samplers(&e, prog, &ints[i], ints[i].kind == K_UINT ? "ui" : "i");
	}
	checked += fetched(&e, prog, &ints[0], "fetch_3d");
	checked += written(&e, prog, &ints[0], "ui");
	checked += written(&e, prog, &ints[1], "i");
	checked += fetched(&e, prog, &ims[3], "fetch_2da");
	if (failures) {
		printf("FAIL: %d of %u image values differ\n", failures, checked);
		return CL_EXIT_MISMATCH;
	}
	printf("linear filtering: the largest difference from the exact formula is %.3f of "
	       "its allowance\n", worst);
	printf("PASS: images (%u values: sampled, fetched, written, sizes) match the C reference\n",
	       checked);
	return 0;
}
