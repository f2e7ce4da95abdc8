// SPDX-License-Identifier: MIT
/*
 * Draws on hand-built descriptors through the GPU model (board, page
 * tables, job slots): an IDVS job whose position shader does nothing (the
 * test writes the window positions itself, 24.8-exact numbers) and whose
 * tiler writes the polygon list, then a fragment job that rasterises it
 * with a fragment shader of two clauses: LD_VAR_IMM of a varying into
 * r0-r3, BLEND of them. Coverage is checked against edge functions
 * computed here, colours against barycentric interpolation in double;
 * a quad split along a diagonal through pixel centres is drawn with an
 * additive blend, so a pixel drawn twice or never shows. Culling by the
 * winding on the screen, points as squares, and what is not modelled
 * (quads) faulting, on the G71; the
 * triangle also on the G52 (eight-thread warps of two quads). Depth:
 * two draws tested "less" and the D24S8 buffer written back; stencil:
 * one draw marks, the next draws where marked; a blend shader (LD_TILE,
 * FADDs, BLEND, JUMP r48) entered from the fragment shader's BLEND;
 * depth written by the shader (ZS_EMIT) tested and written back.
 * An AFBC D24X8 depth buffer written back, decoded here, and preloaded
 * by a second frame that draws behind what the first drew, on both.
 * Occlusion queries count the pixels passing depth, or just say some did.
 */
#include <math.h>

#include "harness.h"
#include "bi_asm.h"
#include "bi_enc.h"
#include "shader/afbc.h"
#include "shader/compute.h"
#include "gfx_fixture.h"

#define VA 0x1000000ull
#define AS 1
#define PAGES 40
/* Draw k's descriptors and buffers sit at + k * DRAW_STEP. */
#define DRAW_STEP 0x800
#define IDVS(k) (VA + 0x0 + (k) * DRAW_STEP)
#define FRSD(k) (VA + 0x200 + (k) * DRAW_STEP)
#define VARS(k) (VA + 0x280 + (k) * DRAW_STEP)
#define VBUFS(k) (VA + 0x2c0 + (k) * DRAW_STEP)
#define INDICES(k) (VA + 0x300 + (k) * DRAW_STEP)
#define POS(k) (VA + 0x2000 + (k) * DRAW_STEP)
#define COLOURS(k) (VA + 0x3000 + (k) * DRAW_STEP)
#define FRAG (VA + 0x1000)
#define FBD (VA + 0x1100)
#define TCTX (VA + 0x1200)
#define TCTX2 (VA + 0x1800)
#define HEAP_DESC (VA + 0x1300)
#define VRSD (VA + 0x1340)
#define VIEWPORT (VA + 0x1380)
#define VSHADER (VA + 0x1400)
#define FSHADER (VA + 0x1500)
#define BSHADER (VA + 0x1600)
#define UNIFORMS (VA + 0x1700)
#define ZSHADER (VA + 0x1a00)
#define OCCL (VA + 0x1f00)
#define TARGET (VA + 0x4000)
#define ZSBUF (VA + 0x5000)
#define HEAP (VA + 0x10000)
#define HEAP_END (VA + 0x20000)
#define W 32
#define STRIDE (W * 4)
#define FMT_RGBA32F 191u
#define SWZ_RGBA (0 | 1 << 3 | 2 << 6 | 3 << 9)
#define EQ_REPLACE (0x122u | 0x122u << 12)
#define EQ_ADD (0x911u | 0x911u << 12)

FIXTURE(draw)
{
	struct board b;
	struct area a;
	struct bi_compute *bc;
	bool v7;
};

static void setup(struct __test_metadata *_metadata, struct __fixture_draw *self,
		  const char *gpu)
{
	ASSERT_EQ(board_init(&self->b, gpu, 0, FMT_LPAE), 0);
	ASSERT_TRUE(reset_and_power_up(&self->b));
	self->a = make_area(&self->b, AS, VA, PAGES, MAP_R | MAP_W | MAP_X);
	memset(area_ptr(&self->b, &self->a, VA), 0, PAGES * PG);
	memset(area_ptr(&self->b, &self->a, TARGET), 0xee, W * STRIDE);
	as_enable(&self->b, AS);
	self->bc = bi_compute_attach(self->b.gpu);
	ASSERT_NONNULL(self->bc);
	self->v7 = !strcmp(gpu, "g52");
}

FIXTURE_SETUP(draw) { setup(_metadata, self, "g71"); }
FIXTURE_TEARDOWN(draw)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

/* The shaders: the position shader ends at once; the fragment shader
 * loads varying 0 (four f32) into r0-r3 and blends them into RT 0; the
 * one at ZSHADER writes the depth from its alpha (r3) and the stencil
 * reference from the pixel's x with ZS_EMIT in between. */
static int shaders(struct __fixture_draw *self)
{
	struct asm_header end = { 0 }, next = { .flow = 3 }, next60 = { .flow = 3, .staging_reg = 60 };
	struct asm_tuple nop = { bi_enc(true, "*NOP", NULL, NULL), bi_enc(false, "+NOP", NULL, NULL),
				 asm_block(true, -1, -1, -1, -1, -1, 0) };
	struct asm_tuple ld = {
		nop.fma,
		bi_enc_imm(false, "+LD_VAR_IMM", SRCS(0),
			   "vecsize=v4 update=store register_format=f32 sample=center",
			   (uint32_t[]){ 0 }),
		asm_block(true, 0, -1, -1, -1, -1, 0),
	};
	/* coverage from r60, the blend descriptor from FAU 8 (lo, hi) */
	struct asm_tuple blend = {
		nop.fma, bi_enc(false, "+BLEND", SRCS(0, 4, 5), NULL),
		asm_block(true, 60, -1, -1, -1, -1, 8),
	};
	/* depth r3, stencil reference r59 (x | y << 16: x), coverage r60
	 * into r60 (staging) */
	struct asm_tuple zs = {
		nop.fma, bi_enc(false, "+ZS_EMIT", SRCS(0, 1, 2), "z=z stencil=stencil"),
		asm_block(true, 3, 59, 60, -1, -1, 0),
	};
	unsigned q;

	if (nop.fma == ~0u || ld.add == ~0u || blend.add == ~0u || zs.add == ~0u ||
	    ld.reg == ~0ull || blend.reg == ~0ull || zs.reg == ~0ull)
		return -1;
	asm_clause(w32(self, VSHADER), &end, &nop, 1, NULL, 0);
	q = asm_clause(w32(self, FSHADER), &next, &ld, 1, NULL, 0);
	asm_clause(w32(self, FSHADER + 16 * q), &end, &blend, 1, NULL, 0);
	q = asm_clause(w32(self, ZSHADER), &next, &ld, 1, NULL, 0);
	q += asm_clause(w32(self, ZSHADER + 16 * q), &next60, &zs, 1, NULL, 0);
	asm_clause(w32(self, ZSHADER + 16 * q), &end, &blend, 1, NULL, 0);
	return 0;
}

struct vtx {
	float x, y;
	float c[4];
};

/* Draw descriptor fields (words). */
static void dcd(struct __fixture_draw *self, unsigned k, uint64_t va, uint64_t state,
		uint32_t flags)
{
	memset(w32(self, va), 0, 128);
	w32(self, va)[0] = flags;
	put64(self, va + 4 * 4, POS(k));
	put64(self, va + 4 * 14, state);
	put64(self, va + 4 * 20, VBUFS(k));
	put64(self, va + 4 * 22, VARS(k));
	put64(self, va + 4 * 24, VIEWPORT);
}

/*
 * A draw: @n vertices at depth @z, @count indices (u16 when @indices),
 * draw mode @mode, fragment draw flags @flags (facing and culling), blend
 * mode @bmode with equation @eq, renderer state words 8-10 (depth
 * function and write, stencil masks, front stencil) @ms, @sm, @st.
 */
struct draw_spec {
	const struct vtx *v;
	unsigned n, count, mode;
	const uint16_t *indices;
	uint32_t flags, bmode, eq, ms, sm, st;
	float z;
	const float *invw; /* per vertex 1/w (NULL: 1) */
};

#define ZFUNC(f) ((uint32_t)(f) << 24)
#define ALWAYS ZFUNC(7)
#define LESS ZFUNC(1)
#define ZWRITE (1u << 27)

/* The frame: W x W, one RGBA8 linear target, tiles 0-1 each way, the
 * tiler context and heap; @fb12, @zclear: parameter words 12 and 13
 * (depth/stencil), with a D24S8 linear depth buffer at ZSBUF. */
static void frame(struct __fixture_draw *self, uint32_t fb12, float zclear)
{
	uint32_t *p = w32(self, FBD), *ext = w32(self, FBD + 128);
	uint32_t *rt = w32(self, FBD + 128 + 64), *fj;

	memset(w32(self, TCTX), 0, 192);
	put64(self, TCTX + 24, HEAP_DESC);
	w32(self, HEAP_DESC)[1] = HEAP_END - HEAP;
	put64(self, HEAP_DESC + 8, HEAP);
	put64(self, HEAP_DESC + 16, HEAP);
	put64(self, HEAP_DESC + 24, HEAP_END);
	memset(p, 0, 128 + 64 + 64);
	p[8] = (W - 1) | (W - 1) << 16;
	p[10] = (W - 1) | (W - 1) << 16;
	p[11] = 2u << 6 | 8u << 9; /* Mesa's tie-break rule, 16 x 16 tiles */
	p[12] = fb12 | 1u << 21; /* with the extension */
	p[13] = fbits(zclear);
	put64(self, FBD + 56, TCTX);
	ext[3] = 5 /* D24S8 */ | (self->v7 ? 2u << 4 : 2u << 4) /* linear */;
	put64(self, FBD + 128 + 16, ZSBUF);
	ext[6] = W * 4;
	rt[0] = 1u << 26;
	rt[1] = 1 | 19u << 3 | (self->v7 ? 2u << 8 : 2u << 10) | SWZ_RGBA << 16;
	put64(self, FBD + 192 + 32, TARGET);
	rt[10] = STRIDE;
	put_job(&self->b, &self->a, FRAG, MALI_JOB_TYPE_FRAGMENT, 1, 0, 0, 0);
	fj = w32(self, FRAG + 32);
	fj[1] = 1 | 1 << 16;
	fj[2] = (uint32_t)FBD | 1;
	fj[3] = (uint32_t)(FBD >> 32);
	/* viewport: scissor the whole target; the position shader */
	w32(self, VIEWPORT)[4] = fbits(0.0f);
	w32(self, VIEWPORT)[5] = fbits(1.0f);
	w32(self, VIEWPORT)[6] = 0;
	w32(self, VIEWPORT)[7] = (W - 1) | (W - 1) << 16;
	put64(self, VRSD, VSHADER);
}

/* Draw @k (its IDVS job at IDVS(k), its buffers apart from the others'). */
static void draw(struct __fixture_draw *self, unsigned k, const struct draw_spec *s)
{
	uint32_t *j = w32(self, IDVS(k));

	/* vertices: window positions, 1/w = 1, and RGBA32F colours */
	for (unsigned i = 0; i < s->n; i++) {
		uint32_t *pos = w32(self, POS(k) + 16 * i), *c = w32(self, COLOURS(k) + 16 * i);

		pos[0] = fbits(s->v[i].x);
		pos[1] = fbits(s->v[i].y);
		pos[2] = fbits(s->z);
		pos[3] = fbits(s->invw ? s->invw[i] : 1.0f);
		for (unsigned q = 0; q < 4; q++)
			c[q] = fbits(s->v[i].c[q]);
	}
	if (s->indices)
		memcpy(w32(self, INDICES(k)), s->indices, 2 * s->count);
	/* varying 0: buffer 0, RGBA32F; buffer 0: 1D, 16 bytes a vertex */
	w32(self, VARS(k))[0] = 0 | (FMT_RGBA32F << 12 | (self->v7 ? 0 : SWZ_RGBA)) << 10;
	put64(self, VBUFS(k), COLOURS(k) | 1);
	w32(self, VBUFS(k))[2] = 16;
	w32(self, VBUFS(k))[3] = 16 * s->n;
	/* the fragment renderer state, with a blend descriptor */
	memset(w32(self, FRSD(k)), 0, 80);
	put64(self, FRSD(k), FSHADER);
	w32(self, FRSD(k))[8] = s->ms;
	w32(self, FRSD(k))[9] = s->sm;
	w32(self, FRSD(k))[10] = s->st;
	w32(self, FRSD(k) + 64)[0] = 1u << 9;
	w32(self, FRSD(k) + 64)[1] = s->eq | 0xfu << 28;
	w32(self, FRSD(k) + 64)[2] = s->bmode;
	w32(self, FRSD(k) + 64)[3] = 237u << 12 | (self->v7 ? 0 : SWZ_RGBA) | 1u << 24;
	/* the IDVS job: all vertices in local x, one instance */
	memset(j, 0, 384);
	put_job(&self->b, &self->a, IDVS(k), MALI_JOB_TYPE_INDEXED_VERTEX, 1, 0, 0, 0);
	j[8] = s->n - 1;
	j[9] = 8 | 8 << 5 | 8 << 10 | 8u << 16 | 8u << 22;
	j[10] = s->mode | (s->indices ? 2u << 8 : 0) | 1u << 15;
	j[13] = s->count - 1;
	put64(self, IDVS(k) + 56, s->indices ? INDICES(k) : 0);
	put64(self, IDVS(k) + 72, TCTX);
	dcd(self, k, IDVS(k) + 128, FRSD(k), s->flags);
	dcd(self, k, IDVS(k) + 256, VRSD, 0);
}

/* A frame of one draw, depth and stencil off. */
static void build(struct __fixture_draw *self, const struct draw_spec *s)
{
	frame(self, 0, 1.0f);
	draw(self, 0, s);
}

static uint32_t run(struct __fixture_draw *self, uint64_t job, unsigned slot)
{
	submit(&self->b, slot, AS, job, 0);
	if (!wait_slot(&self->b, slot, 20))
		return 0;
	return job_at(&self->b, &self->a, job)->status;
}

/* A frame of draw @s, rendered: its IDVS job, then the fragment job. */
static void render(struct __test_metadata *_metadata, struct __fixture_draw *self,
		   const struct draw_spec *s)
{
	ASSERT_EQ(shaders(self), 0);
	build(self, s);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
}

static const uint8_t *pixel(struct __fixture_draw *self, unsigned x, unsigned y)
{
	return (const uint8_t *)w32(self, TARGET + y * STRIDE + x * 4);
}

/* Edge function (24.8) of a -> b at the centre of pixel (x, y). */
static int64_t edge(const struct vtx *a, const struct vtx *b, unsigned x, unsigned y)
{
	int64_t ax = llround(a->x * 256), ay = llround(a->y * 256);
	int64_t bx = llround(b->x * 256), by = llround(b->y * 256);

	return (bx - ax) * ((int64_t)y * 256 + 128 - ay) -
	       (by - ay) * ((int64_t)x * 256 + 128 - ax);
}

/* A counter-clockwise triangle with a colour per vertex: the pixels whose
 * centres are strictly inside are drawn with the interpolated colour
 * (within one step), those strictly outside are untouched. Returns how
 * many were inside. */
static unsigned check_triangle(struct __test_metadata *_metadata,
			       struct __fixture_draw *self, const struct vtx *v)
{
	unsigned drawn = 0;

	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			int64_t e0 = edge(&v[1], &v[2], x, y), e1 = edge(&v[2], &v[0], x, y);
			int64_t e2 = edge(&v[0], &v[1], x, y);
			double s = (double)(e0 + e1 + e2);
			const uint8_t *px = pixel(self, x, y);

			if (!e0 || !e1 || !e2)
				continue; /* on an edge: the fill rule's, tested below */
			if (e0 < 0 || e1 < 0 || e2 < 0) {
				if (px[0] != 0xee || px[3] != 0xee)
					TH_LOG("(%u, %u) drawn outside", x, y);
				ASSERT_EQ(px[0] | px[3] << 8, 0xeeee);
				continue;
			}
			drawn++;
			for (unsigned c = 0; c < 4; c++) {
				double want = (e0 * v[0].c[c] + e1 * v[1].c[c] + e2 * v[2].c[c]) / s;

				if (abs(px[c] - (int)lround(want * 255)) > 1)
					TH_LOG("(%u, %u) channel %u: %u, want %.2f", x, y, c,
					       px[c], want * 255);
				ASSERT_LE(abs(px[c] - (int)lround(want * 255)), 1);
			}
		}
	EXPECT_GT(drawn, 100u);
	return drawn;
}

static const struct vtx tri[3] = {
	{ 2.25f, 3.5f, { 1, 0, 0, 1 } },
	{ 29.75f, 6.125f, { 0, 1, 0, 0.5f } },
	{ 10.5f, 28.75f, { 0, 0, 1, 0 } },
};

static void triangle(struct __test_metadata *_metadata, struct __fixture_draw *self)
{
	struct draw_spec s = { tri, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };

	render(_metadata, self, &s);
	check_triangle(_metadata, self, tri);
}

TEST_F(draw, triangle_covers_and_interpolates) { triangle(_metadata, self); }

/*
 * Each fragment reads the varying of its primitive's three vertices (16
 * bytes each here): through a view of the job's pages, translated once a
 * page, not through the MMU read by read, which took the GPU's lock for
 * every one and left a 4096 x 4096 frame most of its time there. The MMU
 * still counts the bytes: the view hands them over when the job ends.
 */
TEST_F(draw, fragment_reads_through_a_page_view)
{
	struct draw_spec s = { tri, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };
	struct vgpu_stats a, b;

	ASSERT_EQ(shaders(self), 0);
	build(self, &s);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	vgpu_stats_get(self->b.gpu, &a);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	vgpu_stats_get(self->b.gpu, &b);
	unsigned drawn = check_triangle(_metadata, self, tri);
	uint64_t lookups = b.as[AS].walks + b.as[AS].tlb_hits - a.as[AS].walks - a.as[AS].tlb_hits;

	if (lookups >= drawn)
		TH_LOG("%llu MMU lookups for %u fragments", (unsigned long long)lookups, drawn);
	EXPECT_LT(lookups, drawn);
	EXPECT_GE(b.as[AS].bytes_read - a.as[AS].bytes_read, 3 * 16 * (uint64_t)drawn);
}

/* The square [@lo, @hi)^2 as an indexed strip of two triangles, drawn
 * with src + dest blending over a cleared-to-nothing target: exactly the
 * pixels [4, 20)^2 must be drawn, each once (twice would be 2 * 64). */
static void square(struct __test_metadata *_metadata, struct __fixture_draw *self,
		   float lo, float hi)
{
	const struct vtx sq[4] = {
		{ lo, lo, { 0.25f, 0.25f, 0.25f, 0.25f } },
		{ hi, lo, { 0.25f, 0.25f, 0.25f, 0.25f } },
		{ lo, hi, { 0.25f, 0.25f, 0.25f, 0.25f } },
		{ hi, hi, { 0.25f, 0.25f, 0.25f, 0.25f } },
	};
	static const uint16_t strip[4] = { 2, 0, 3, 1 };
	struct draw_spec s = { sq, 4, 4, 10, strip, 1u << 5, 2, EQ_ADD, ALWAYS, .z = 0.5f };

	render(_metadata, self, &s);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			bool in = x >= 4 && x < 20 && y >= 4 && y < 20;
			const uint8_t *px = pixel(self, x, y);

			if (px[0] != (in ? 64 : 0xee))
				TH_LOG("(%u, %u): %u", x, y, px[0]);
			ASSERT_EQ(px[0], in ? 64 : 0xee);
		}
}

/* [4, 20)^2: the shared diagonal passes through pixel centres. */
TEST_F(draw, shared_edge_drawn_once) { square(_metadata, self, 4, 20); }

/* [4.5, 20.5)^2, every edge through pixel centres: the top-left rule (rows
 * go down, as in memory) takes the centres on the top and left edges, not
 * those on the bottom and right ones, as llvmpipe does drawing to a GL
 * framebuffer object (and Mali hardware, which passes piglit's
 * bufferstorage-persistent draw). */
TEST_F(draw, top_left_fill_rule) { square(_metadata, self, 4.5f, 20.5f); }

/* Facing is the winding on the screen, whose rows go down: tri, counter-
 * clockwise with y up, is clockwise there, a back face when front faces
 * are counter-clockwise. */
TEST_F(draw, back_faces_culled)
{
	struct draw_spec s = { tri, 3, 3, 8, NULL, 1u << 5 | 1u << 7, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };

	render(_metadata, self, &s);
	for (unsigned i = 0; i < W * W; i++)
		ASSERT_EQ(*pixel(self, i % W, i / W), 0xee);
	/* with clockwise front faces it is drawn */
	s.flags = 1u << 7;
	build(self, &s);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_triangle(_metadata, self, tri);
}

/* Points of a constant size (the Primitive Size section's float): the
 * pixels whose centres are in [x - 2, x + 2) both ways. */
TEST_F(draw, points_cover_their_squares)
{
	static const struct vtx pts[2] = {
		{ 6, 7, { 1, 0, 0, 1 } },       /* on a pixel corner */
		{ 20.5f, 12.25f, { 0, 0, 1, 1 } },
	};
	struct draw_spec s = { pts, 2, 2, 1 /* points */, NULL, 0, 1, EQ_REPLACE, ALWAYS,
			       .z = 0.5f };
	float size = 4;

	ASSERT_EQ(shaders(self), 0);
	build(self, &s);
	memcpy(w32(self, IDVS(0) + 64), &size, 4);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			uint32_t got, want = 0xeeeeeeeeu;

			for (unsigned i = 0; i < 2; i++)
				if (x + 0.5f >= pts[i].x - 2 && x + 0.5f < pts[i].x + 2 &&
				    y + 0.5f >= pts[i].y - 2 && y + 0.5f < pts[i].y + 2)
					want = i ? 0xffff0000u : 0xff0000ffu;
			memcpy(&got, pixel(self, x, y), 4);
			if (got != want)
				TH_LOG("(%u, %u): %08x", x, y, got);
			ASSERT_EQ(got, want);
		}
}

TEST_F(draw, quads_fault)
{
	struct draw_spec s = { tri, 3, 3, 14 /* quads */, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };

	ASSERT_EQ(shaders(self), 0);
	build(self, &s);
	EXPECT_EQ(run(self, IDVS(0), 1), MALI_EXC_JOB_CONFIG_FAULT);
}

/* A triangle covering the whole target (and more). */
static const struct vtx all[3] = {
	{ -40, -8, { 0, 1, 0, 1 } }, { 72, -8, { 0, 1, 0, 1 } }, { 16, 72, { 0, 1, 0, 1 } },
};
static const struct vtx red[3] = {
	{ 2.25f, 3.5f, { 1, 0, 0, 1 } }, { 29.75f, 6.125f, { 1, 0, 0, 1 } },
	{ 10.5f, 28.75f, { 1, 0, 0, 1 } },
};

/* Pixels strictly inside @v must be @in (RGBA bytes), strictly outside
 * @out (0xee: untouched). */
static void check_inside(struct __test_metadata *_metadata, struct __fixture_draw *self,
			 const struct vtx *v, uint32_t in, uint32_t out)
{
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			int64_t e0 = edge(&v[1], &v[2], x, y), e1 = edge(&v[2], &v[0], x, y);
			int64_t e2 = edge(&v[0], &v[1], x, y);
			uint32_t got;

			if (!e0 || !e1 || !e2)
				continue;
			memcpy(&got, pixel(self, x, y), 4);
			if (got != (e0 > 0 && e1 > 0 && e2 > 0 ? in : out))
				TH_LOG("(%u, %u): %08x", x, y, got);
			ASSERT_EQ(got, e0 > 0 && e1 > 0 && e2 > 0 ? in : out);
		}
}

/* The frame's depth buffer as AFBC D24X8: headers at ZSBUF, two
 * superblocks a row, bodies from ZSBUF + 0x100. */
#define ZS_BODY (ZSBUF + 0x100)
static void afbc_depth(struct __fixture_draw *self)
{
	uint32_t *ext = w32(self, FBD + 128);

	ext[3] = 4 /* D24X8 */ | (self->v7 ? 12u : 3u) << 4;
	put64(self, FBD + 128 + 16, ZSBUF);
	ext[6] = W / BI_AFBC_SB;
	ext[7] = 0;
	put64(self, FBD + 128 + 32, ZS_BODY);
}

/* Depth pixel (@x, @y) of the AFBC buffer afbc_depth() describes. */
static uint32_t afbc_z(struct __test_metadata *_metadata, struct __fixture_draw *self,
		       unsigned x, unsigned y)
{
	const uint8_t *hdr = (const uint8_t *)w32(self, ZSBUF + BI_AFBC_HEADER *
						  ((y / BI_AFBC_SB) * (W / BI_AFBC_SB) + x / BI_AFBC_SB));
	uint64_t off = 0;
	uint32_t v;

	EXPECT_EQ(bi_afbc_locate(hdr, 4, x % BI_AFBC_SB, y % BI_AFBC_SB, &off), 0);
	memcpy(&v, w32(self, ZSBUF + off), 4);
	return v;
}

/* Depth cleared to 1, a red triangle at 0.25, then green everywhere at
 * 0.5, both tested "less" and written: red stays in front. @fb12:
 * parameter word 12; @afbc: the depth buffer afbc_depth()'s. */
static void red_over_green(struct __test_metadata *_metadata, struct __fixture_draw *self,
			   uint32_t fb12, bool afbc)
{
	struct draw_spec front = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE,
				   .z = 0.25f };
	struct draw_spec back = { all, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE,
				  .z = 0.5f };

	ASSERT_EQ(shaders(self), 0);
	frame(self, fb12, 1.0f);
	if (afbc)
		afbc_depth(self);
	draw(self, 0, &front);
	draw(self, 1, &back);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, IDVS(1), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0xff0000ffu, 0xff00ff00u);
}

/* The D24S8 buffer gets each pixel's nearest depth (stencil 0x5a, the
 * clear). */
TEST_F(draw, depth_test_and_write_back)
{
	const uint32_t *zs = w32(self, ZSBUF);

	/* D24 inside, Z and S written, stencil cleared to 0x5a */
	red_over_green(_metadata, self, 0x5a | 1u << 16 | 1u << 18 | 1u << 8, false);
	/* 0.25 and 0.5 of 2^24 - 1, rounded to nearest even */
	EXPECT_EQ(zs[12 * W + 12], 4194304u | 0x5au << 24);
	EXPECT_EQ(zs[30 * W + 2], 8388608u | 0x5au << 24);
}

/* Depth bias (polygon offset, shader/depth_bias.h): units 8 (renderer
 * state word 5) on the red triangle at 0.25, front-facing (clockwise on
 * the screen, draw flags 0), move the depth it writes by 8 of D24's steps
 * where word 9 turns the bias on for its facing ([28] front, [29] back). */
static void biased(struct __test_metadata *_metadata, struct __fixture_draw *self,
		   uint32_t on, uint32_t want)
{
	struct draw_spec s = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE, on << 28,
			       .z = 0.25f };

	ASSERT_EQ(shaders(self), 0);
	frame(self, 0x5a | 1u << 16 | 1u << 18 | 1u << 8, 1.0f);
	draw(self, 0, &s);
	w32(self, FRSD(0))[5] = fbits(8.0f);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	EXPECT_EQ(w32(self, ZSBUF)[12 * W + 12], want | 0x5au << 24);
}

TEST_F(draw, depth_bias_front) { biased(_metadata, self, 1, 4194304u + 8); }
TEST_F(draw, depth_bias_back_only) { biased(_metadata, self, 2, 4194304u); }
TEST_F(draw, depth_bias_both) { biased(_metadata, self, 3, 4194304u + 8); }

/* Occlusion queries (fragment draw flags [4:3], the result's address at
 * word 26): the red triangle at 0.25, counting, adds the pixels it covers
 * to its counter's 5; green everywhere at 0.5 behind it passes on the
 * rest, which its query (@mode: 3 counts, 1 is a predicate) counts or
 * marks with 1. */
static void occlusion(struct __test_metadata *_metadata, struct __fixture_draw *self,
		      uint32_t mode)
{
	struct draw_spec front = { red, 3, 3, 8, NULL, 3u << 3, 1, EQ_REPLACE, LESS | ZWRITE,
				   .z = 0.25f };
	struct draw_spec back = { all, 3, 3, 8, NULL, mode << 3, 1, EQ_REPLACE, LESS | ZWRITE,
				  .z = 0.5f };
	uint32_t *q = w32(self, OCCL);
	unsigned reds = 0;

	ASSERT_EQ(shaders(self), 0);
	frame(self, 0x5a | 1u << 16 | 1u << 18 | 1u << 8, 1.0f);
	draw(self, 0, &front);
	draw(self, 1, &back);
	put64(self, IDVS(0) + 128 + 4 * 26, OCCL);
	put64(self, IDVS(1) + 128 + 4 * 26, OCCL + 8);
	q[0] = 5;
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, IDVS(1), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++)
			reds += *(const uint32_t *)pixel(self, x, y) == 0xff0000ffu;
	EXPECT_GT(reds, 50u);
	EXPECT_EQ(q[0] | (uint64_t)q[1] << 32, 5u + reds);
	EXPECT_EQ(q[2] | (uint64_t)q[3] << 32, mode == 3 ? W * W - reds : 1u);
}

TEST_F(draw, occlusion_counter) { occlusion(_metadata, self, 3); }
TEST_F(draw, occlusion_predicate) { occlusion(_metadata, self, 1); }

/* A red triangle at 0.9 whose shader writes depth 0.25 (its alpha),
 * then green everywhere at 0.5, tested "less": red stays in front, and
 * the buffer holds the shader's depth. */
TEST_F(draw, depth_written_by_the_shader)
{
	static const struct vtx red_zs[3] = {
		{ 2.25f, 3.5f, { 1, 0, 0, 0.25f } }, { 29.75f, 6.125f, { 1, 0, 0, 0.25f } },
		{ 10.5f, 28.75f, { 1, 0, 0, 0.25f } },
	};
	struct draw_spec front = { red_zs, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE,
				   .z = 0.9f };
	struct draw_spec back = { all, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE,
				  .z = 0.5f };
	const uint32_t *zs = w32(self, ZSBUF);

	ASSERT_EQ(shaders(self), 0);
	frame(self, 1u << 16 | 1u << 18, 1.0f);
	draw(self, 0, &front);
	draw(self, 1, &back);
	put64(self, FRSD(0), ZSHADER);
	w32(self, FRSD(0))[4] |= 3u << 8; /* depth from the shader */
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, IDVS(1), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0x400000ffu, 0xff00ff00u);
	EXPECT_EQ(zs[12 * W + 12] & 0xffffff, 4194304u);
	EXPECT_EQ(zs[30 * W + 2] & 0xffffff, 8388608u);
}

/* Stencil replaced by the reference the shader writes (the pixel's x),
 * tested late as a draw with depth from the shader is; early, the
 * shader's reference cannot count: the job faults. */
TEST_F(draw, stencil_reference_from_the_shader)
{
	/* stencil on, write mask 0xff; ref 1, mask 0xff, always, replace */
	struct draw_spec mark = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS,
				  1u << 16 | 0xff, 1 | 0xffu << 8 | 7u << 16 | 1u << 25,
				  .z = 0.5f };
	const uint32_t *zs = w32(self, ZSBUF);

	ASSERT_EQ(shaders(self), 0);
	frame(self, 1u << 16 | 1u << 8, 1.0f);
	draw(self, 0, &mark);
	put64(self, FRSD(0), ZSHADER);
	w32(self, FRSD(0))[4] |= 3u << 8; /* depth from the shader */
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	EXPECT_EQ(zs[12 * W + 12] >> 24, 12u);
	EXPECT_EQ(zs[8 * W + 20] >> 24, 20u);
	EXPECT_EQ(zs[30 * W + 2] >> 24, 0u);

	frame(self, 1u << 16 | 1u << 8, 1.0f);
	draw(self, 0, &mark);
	put64(self, FRSD(0), ZSHADER);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	EXPECT_EQ(run(self, FRAG, 0), MALI_EXC_INSTR_INVALID_ENC);
}

/* red_over_green() into an AFBC D24X8 buffer; a second frame
 * preloads it and draws blue at 0.375 behind red, in front of green. A
 * compressed subblock cannot be preloaded: a read fault. */
static void afbc_depth_frames(struct __test_metadata *_metadata, struct __fixture_draw *self)
{
	struct draw_spec back = { all, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, LESS | ZWRITE,
				  .z = 0.375f };
	struct vtx blue[3];

	red_over_green(_metadata, self, 1u << 16 | 1u << 18, true);
	EXPECT_EQ(afbc_z(_metadata, self, 12, 12), 4194304u);
	EXPECT_EQ(afbc_z(_metadata, self, 2, 30), 8388608u);
	EXPECT_EQ(afbc_z(_metadata, self, 31, 0), 8388608u);

	for (unsigned i = 0; i < 3; i++)
		blue[i] = (struct vtx){ all[i].x, all[i].y, { 0, 0, 1, 1 } };
	back.v = blue;
	frame(self, 1u << 16 | 1u << 18 | 1u << 19, 1.0f);
	afbc_depth(self);
	draw(self, 0, &back);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0xff0000ffu, 0xffff0000u);
	EXPECT_EQ(afbc_z(_metadata, self, 12, 12), 4194304u);
	EXPECT_EQ(afbc_z(_metadata, self, 2, 30), 6291456u);

	/* superblock 0's first subblock compressed (size 20) */
	((uint8_t *)w32(self, ZSBUF))[4] = 20;
	frame(self, 1u << 16 | 1u << 18 | 1u << 19, 1.0f);
	afbc_depth(self);
	draw(self, 0, &back);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	EXPECT_EQ(run(self, FRAG, 0), MALI_EXC_JOB_READ_FAULT);
}

TEST_F(draw, afbc_depth_write_back_and_preload) { afbc_depth_frames(_metadata, self); }

/*
 * A triangle with a vertex behind the eye (w < 0): window positions are
 * clip x / w etc., so that vertex lands on the far side; rasterised in
 * homogeneous coordinates only the part in front (w > 0) is drawn, as
 * the edge functions of the homogeneous vertices (x w, y w, w) say.
 */
TEST_F(draw, behind_the_eye_clipped_in_homogeneous_coordinates)
{
	static const double clip[3][3] = { /* x, y, w */
		{ -0.6, -0.7, 1 }, { 0.8, -0.5, 1.5 }, { 0.2, 0.5, -0.8 },
	};
	struct vtx v[3];
	float invw[3];
	double h[3][3];
	struct draw_spec s = { v, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f,
			       .invw = invw };
	unsigned drawn = 0;

	for (unsigned k = 0; k < 3; k++) {
		v[k] = (struct vtx){ (float)((clip[k][0] / clip[k][2] + 1) * W / 2),
				     (float)((clip[k][1] / clip[k][2] + 1) * W / 2),
				     { 0, 1, 0, 1 } };
		invw[k] = (float)(1 / clip[k][2]);
		h[k][0] = v[k].x / invw[k];
		h[k][1] = v[k].y / invw[k];
		h[k][2] = 1 / invw[k];
	}
	render(_metadata, self, &s);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			double px = x + 0.5, py = y + 0.5, c[3], e[3][3], det;
			bool in = true, edge = false;
			uint32_t got;

			/* rows of the adjugate of the vertices' matrix */
			for (unsigned k = 0; k < 3; k++) {
				unsigned i = (k + 1) % 3, j = (k + 2) % 3;

				e[k][0] = h[i][1] * h[j][2] - h[j][1] * h[i][2];
				e[k][1] = h[i][2] * h[j][0] - h[j][2] * h[i][0];
				e[k][2] = h[i][0] * h[j][1] - h[j][0] * h[i][1];
				c[k] = e[k][0] * px + e[k][1] * py + e[k][2];
				edge |= fabs(c[k]) < 1e-3 * (fabs(e[k][0]) + fabs(e[k][1]));
			}
			det = h[0][0] * e[0][0] + h[0][1] * e[0][1] + h[0][2] * e[0][2];
			for (unsigned k = 0; k < 3; k++)
				in &= c[k] * (det > 0 ? 1 : -1) > 0;
			if (edge)
				continue;
			memcpy(&got, pixel(self, x, y), 4);
			if (got != (in ? 0xff00ff00u : 0xeeeeeeeeu))
				TH_LOG("(%u, %u): %08x", x, y, got);
			ASSERT_EQ(got, in ? 0xff00ff00u : 0xeeeeeeeeu);
			drawn += in;
		}
	EXPECT_GT(drawn, 20u);
}

/* The next frame's tiling, on the same heap with its own tiler context,
 * leaves this frame's list alone: its fragment job still draws its own
 * triangle (the second frame covers everything in green). */
TEST_F(draw, next_frame_tiles_beside_this_one)
{
	struct draw_spec mine = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };
	struct draw_spec next = { all, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };
	uint32_t *t1 = w32(self, TCTX + 128), *t2 = w32(self, TCTX2 + 128);

	ASSERT_EQ(shaders(self), 0);
	frame(self, 0, 1.0f);
	draw(self, 0, &mine);
	draw(self, 1, &next);
	memcpy(w32(self, TCTX2), w32(self, TCTX), 192);
	put64(self, IDVS(1) + 72, TCTX2);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, IDVS(1), 1), MALI_EXC_DONE);
	/* each list: one primitive, not at the same place */
	EXPECT_EQ(t1[1], 1u);
	EXPECT_EQ(t2[1], 1u);
	EXPECT_NE(t1[2], t2[2]);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0xff0000ffu, 0xeeeeeeeeu);
}

/* A tiler context whose list header points outside its heap was not
 * written by the tiler: the fragment job fails with DATA_INVALID_FAULT
 * and draws nothing, rather than reading primitives from anywhere. */
TEST_F(draw, a_list_outside_the_heap_is_invalid_data)
{
	struct draw_spec s = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS, .z = 0.5f };

	render(_metadata, self, &s);
	memset(area_ptr(&self->b, &self->a, TARGET), 0xee, W * STRIDE);
	w32(self, TCTX + 128)[1] = 0x10000000; /* primitives: far too many */
	EXPECT_EQ(run(self, FRAG, 0), MALI_EXC_DATA_INVALID_FAULT);
	EXPECT_EQ(*pixel(self, 10, 10), 0xee);
}

/* Depth beyond the viewport's range: clipped with "far discard" (word 8
 * bit 29), else clamped to it and drawn. */
TEST_F(draw, depth_beyond_the_range_clipped_or_clamped)
{
	struct draw_spec s = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS | 1u << 29,
			       .z = 1.5f };

	render(_metadata, self, &s);
	check_inside(_metadata, self, red, 0xeeeeeeeeu, 0xeeeeeeeeu);
	s.ms = ALWAYS;
	build(self, &s);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0xff0000ffu, 0xeeeeeeeeu);
}

/* Stencil: the red triangle replaces stencil 0 with 1 (always passing),
 * then green is drawn where stencil equals 1, i.e. over it exactly. */
TEST_F(draw, stencil_replace_then_equal)
{
	/* enable, write mask 0xff; ref 1, mask 0xff, func, ops (zpass) */
	struct draw_spec mark = { red, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS,
				  1u << 16 | 0xff, 1 | 0xffu << 8 | 7u << 16 | 1u << 25,
				  .z = 0.5f };
	struct draw_spec over = { all, 3, 3, 8, NULL, 0, 1, EQ_REPLACE, ALWAYS,
				  1u << 16 | 0xff, 1 | 0xffu << 8 | 2u << 16, .z = 0.5f };

	ASSERT_EQ(shaders(self), 0);
	frame(self, 0, 1.0f);
	draw(self, 0, &mark);
	draw(self, 1, &over);
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, IDVS(1), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	check_inside(_metadata, self, red, 0xff00ff00u, 0xeeeeeeeeu);
}

/*
 * A blend shader adding the destination: LD_TILE of the current pixel
 * into r4-r7 (its indices and conversion in u0), four FADDs into r0-r3,
 * BLEND opaque (its descriptor in u1), then JUMP r48 (0: the end).
 */
static int blend_shader(struct __fixture_draw *self)
{
	struct asm_header h1 = { .flow = 3, .staging_reg = 4 }, h2 = { .flow = 3 };
	struct asm_header h3 = { .flow = 3 }, h4 = { 0 };
	uint32_t nopf = bi_enc(true, "*NOP", NULL, NULL), nopa = bi_enc(false, "+NOP", NULL, NULL);
	uint32_t fadd = bi_enc(true, "*FADD.f32", SRCS(0, 1), NULL);
	struct asm_tuple ld = { nopf, bi_enc(false, "+LD_TILE", SRCS(4, 0, 5), "vecsize=v4"),
				asm_block(true, 60, -1, -1, -1, -1, 0x80) };
	struct asm_tuple add[4] = {
		{ fadd, nopa, asm_block(true, 0, 4, -1, 3, -1, 0) },
		{ fadd, nopa, asm_block(false, 1, 5, -1, 0, -1, 0) },
		{ fadd, nopa, asm_block(false, 2, 6, -1, 1, -1, 0) },
		{ fadd, nopa, asm_block(false, 3, 7, -1, 2, -1, 0) },
	};
	struct asm_tuple bl = { nopf, bi_enc(false, "+BLEND", SRCS(0, 4, 5), NULL),
				asm_block(true, 60, -1, -1, -1, -1, 0x81) };
	struct asm_tuple jmp = { nopf, bi_enc(false, "+JUMP", SRCS(0), NULL),
				 asm_block(true, 48, -1, -1, -1, -1, 0) };
	uint64_t va = BSHADER;

	if (ld.add == ~0u || fadd == ~0u || bl.add == ~0u || jmp.add == ~0u ||
	    ld.reg == ~0ull || bl.reg == ~0ull || jmp.reg == ~0ull)
		return -1;
	for (unsigned i = 0; i < 4; i++)
		if (add[i].reg == ~0ull)
			return -1;
	va += 16 * asm_clause(w32(self, va), &h1, &ld, 1, NULL, 0);
	va += 16 * asm_clause(w32(self, va), &h2, add, 4, NULL, 0);
	va += 16 * asm_clause(w32(self, va), &h3, &bl, 1, NULL, 0);
	asm_clause(w32(self, va), &h4, &jmp, 1, NULL, 0);
	return 0;
}

/* The fragment shader's BLEND enters the blend shader (descriptor mode
 * 0, its address), which adds the destination (cleared to 64 of 255)
 * to the source (0.25, 0.375, 0, 0.75). */
TEST_F(draw, blend_shader_adds_the_destination)
{
	static const struct vtx v[3] = {
		{ 2.25f, 3.5f, { 0.25f, 0.375f, 0, 0.75f } },
		{ 29.75f, 6.125f, { 0.25f, 0.375f, 0, 0.75f } },
		{ 10.5f, 28.75f, { 0.25f, 0.375f, 0, 0.75f } },
	};
	struct draw_spec s = { v, 3, 3, 8, NULL, 0, 0, 0, ALWAYS, .z = 0.5f };
	uint32_t cvt = 237u << 12 | (self->v7 ? 0 : SWZ_RGBA) | 1u << 24;
	uint32_t *u = w32(self, UNIFORMS);

	ASSERT_EQ(shaders(self), 0);
	ASSERT_EQ(blend_shader(self), 0);
	frame(self, 0, 1.0f);
	w32(self, FBD + 192)[12] = 0x40404040;
	draw(self, 0, &s);
	/* shader mode: return value 0, the blend shader's address */
	w32(self, FRSD(0) + 64)[3] = (uint32_t)BSHADER;
	/* u0: the current pixel of RT 0, its conversion; u1: BLEND opaque */
	u[0] = 0xff000000u;
	u[1] = cvt;
	u[2] = 1 | 3u << 3;
	u[3] = cvt;
	put64(self, IDVS(0) + 128 + 4 * 12, UNIFORMS);
	w32(self, FRSD(0))[12] = 2u << 15;
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	/* 63.75 + 64, 95.625 + 64, 0 + 64, 191.25 + 64 (saturated) */
	check_inside(_metadata, self, v, 0xff40a080u, 0xeeeeeeeeu);
}

/*
 * Blendable formats but plain RGBA8, through the conversions Mesa gives
 * BLEND: a whole-target draw adds (0.25, 0.25, 0.5, 0.25). RGB565
 * (internal R5G6B5A0: 5.5, 6.4, 5.5 fixed point) cleared to red 0.5,
 * green 0.25, through the dithered conversion (GL_DITHER is on), written
 * back as B5G6R5 rounded: red 0.75 (23.25 of 31), green 0.5 (31.5 of 63),
 * blue 0.5 (15.5 of 31). sRGB RGBA8 cleared to 128: red, green and blue
 * added in linear and stored encoded, alpha added as it is.
 */
static const struct vtx add_quarter[3] = {
	{ -40, -8, { 0.25f, 0.25f, 0.5f, 0.25f } },
	{ 72, -8, { 0.25f, 0.25f, 0.5f, 0.25f } },
	{ 16, 72, { 0.25f, 0.25f, 0.5f, 0.25f } },
};

static uint8_t srgb_byte(double linear)
{
	double c = linear <= 0.0031308 ? 12.92 * linear : 1.055 * pow(linear, 1 / 2.4) - 0.055;

	return (uint8_t)lround(255 * c);
}

static void blend_formats(struct __test_metadata *_metadata, struct __fixture_draw *self)
{
	struct draw_spec s = { add_quarter, 3, 3, 8, NULL, 0, 2, EQ_ADD, ALWAYS, .z = 0.5f };
	uint32_t *rt = w32(self, FBD + 192), *bd = w32(self, FRSD(0) + 64);
	uint32_t block = self->v7 ? 2u << 8 : 2u << 10, rgba = self->v7 ? 0 : SWZ_RGBA;
	double dst = pow((128 / 255.0 + 0.055) / 1.055, 2.4);
	uint8_t want[4] = { srgb_byte(dst + 0.25), srgb_byte(dst + 0.25), srgb_byte(dst + 0.5),
			    192 };
	uint16_t px;

	ASSERT_EQ(shaders(self), 0);
	build(self, &s);
	rt[0] = 5u << 26;
	rt[1] = 1 | 21u << 3 | block | 1u << 15 | (2 | 1 << 3 | 0 << 6 | 4 << 9) << 16;
	rt[12] = 496 | 252u << 10;
	bd[3] = 226u << 12 | (self->v7 ? 16 /* RGB1 */ : rgba) | 1u << 24;
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++) {
			memcpy(&px, pixel(self, 0, y) + 2 * x, 2);
			ASSERT_EQ(px, 16 | 32u << 5 | 23u << 11);
		}
	build(self, &s);
	rt[1] |= 1u << 14;
	rt[12] = 0x80808080;
	bd[3] = 237u << 12 | rgba | 1u << 20 | 1u << 24;
	ASSERT_EQ(run(self, IDVS(0), 1), MALI_EXC_DONE);
	ASSERT_EQ(run(self, FRAG, 0), MALI_EXC_DONE);
	for (unsigned y = 0; y < W; y++)
		for (unsigned x = 0; x < W; x++)
			ASSERT_EQ(memcmp(pixel(self, x, y), want, 4), 0);
}

TEST_F(draw, blend_into_rgb565_dithered_and_srgb) { blend_formats(_metadata, self); }

FIXTURE(draw7)
{
	struct board b;
	struct area a;
	struct bi_compute *bc;
	bool v7;
};
FIXTURE_SETUP(draw7) { setup(_metadata, (struct __fixture_draw *)self, "g52"); }
FIXTURE_TEARDOWN(draw7)
{
	bi_compute_detach(self->b.gpu, self->bc);
	board_fini(&self->b);
}

TEST_F(draw7, triangle_on_the_g52) { triangle(_metadata, (struct __fixture_draw *)self); }
TEST_F(draw7, blend_into_rgb565_and_srgb_on_the_g52)
{
	blend_formats(_metadata, (struct __fixture_draw *)self);
}
TEST_F(draw7, afbc_depth_on_the_g52)
{
	afbc_depth_frames(_metadata, (struct __fixture_draw *)self);
}

TEST_HARNESS_MAIN
