// SPDX-License-Identifier: MIT
/*
 * Cube maps. A lookup direction (x, y, z) picks the face of its largest
 * magnitude (ties prefer z, then y), and on it the coordinates sc, tc
 * its own axes give (GLES 3.2, 8.13), which the shader divides by that
 * magnitude. Mesa builds this from four arithmetic ops:
 *   *CUBEFACE1 x, y, z   the largest magnitude; this model keeps the
 *                        face in its three low mantissa bits (a few
 *                        ulp), for the +CUBEFACE2 of the same tuple
 *   +CUBEFACE2 m         that face, in bits 31:29
 *   +CUBE_SSEL a, b, f   sc: a on the x faces, b on the others, signed
 *   +CUBE_TSEL a, b, f   tc: a on the x and z faces, b on the y ones
 * (Mesa's operands: z, x, f and y, z, f) and packs the face over the
 * face-local s it hands TEXC (tex.h).
 * Seamless filtering: a tap beyond a face's edge reads the texel across
 * that edge, found by turning the tap's centre into a direction and
 * picking its face again (bi_cube_edge). Levels of detail: a quad's
 * lanes on other faces are projected onto the lane's own face first
 * (bi_cube_quad), as if the quad lay on one face.
 */
#include "shader/alu.h"
#include "shader/tex.h"

/* Each face's axis for sc and tc (0 x, 1 y, 2 z) and their signs, the
 * major axis being face / 2, negative on odd faces. */
static const struct {
	uint8_t s_axis, t_axis;
	int8_t s_sign, t_sign;
} faces[6] = {
	{ 2, 1, -1, -1 }, /* +X: sc = -z, tc = -y */
	{ 2, 1, 1, -1 },  /* -X: sc = z, tc = -y */
	{ 0, 2, 1, 1 },   /* +Y: sc = x, tc = z */
	{ 0, 2, 1, -1 },  /* -Y: sc = x, tc = -z */
	{ 0, 1, 1, -1 },  /* +Z: sc = x, tc = -y */
	{ 0, 1, -1, -1 }, /* -Z: sc = -x, tc = -y */
};

#define SIGN 0x80000000u

bool bi_exec_alu_cube(const struct op *o, uint32_t *out)
{
	uint32_t v[3], a[3];
	unsigned axis, face;

	switch (o->ins->desc->op) {
	case BI_OP_CUBEFACE1:
		for (unsigned k = 0; k < 3; k++) {
			v[k] = alu_fsrc(o, k);
			a[k] = v[k] & ~SIGN; /* ordered as integers, NaN aside */
		}
		axis = a[2] >= a[0] && a[2] >= a[1] ? 2 : a[1] >= a[0] ? 1 : 0;
		*out = (a[axis] & ~7u) | (2 * axis + (v[axis] >> 31));
		return true;
	case BI_OP_CUBEFACE2:
		*out = (raw(o, 0) & 7) << 29;
		return true;
	case BI_OP_CUBE_SSEL:
	case BI_OP_CUBE_TSEL: {
		bool t = o->ins->desc->op == BI_OP_CUBE_TSEL;

		face = OS_MIN(raw(o, 2) >> 29, 5u);
		axis = t ? faces[face].t_axis : faces[face].s_axis;
		v[0] = alu_fsrc(o, (t ? axis == 1 : axis == 2) ? 0 : 1);
		*out = (t ? faces[face].t_sign : faces[face].s_sign) < 0 ? v[0] ^ SIGN : v[0];
		return true;
	}
	default:
		return false;
	}
}

uint32_t bi_cube_unpack(uint32_t packed, unsigned *face)
{
	*face = packed >> 29;
	return (packed & 0x1fffffffu) | 0x20000000u;
}

void bi_cube_edge(unsigned *face, int64_t *i, int64_t *j, uint32_t n)
{
	/* in half texels: the face spans [-n, n], texel k's centre 2k + 1 - n */
	int64_t half = n, v[3], sc, tc;
	unsigned f = *face, axis = 0;

	/* a corner's tap: along t it stays on the edge texel */
	if (*i < 0 || *i >= half)
		*j = OS_MIN(OS_MAX(*j, 0), half - 1);
	sc = 2 * *i + 1 - half;
	tc = 2 * *j + 1 - half;
	v[f / 2] = f & 1 ? -half : half;
	v[faces[f].s_axis] = faces[f].s_sign * sc;
	v[faces[f].t_axis] = faces[f].t_sign * tc;
	for (unsigned k = 1; k < 3; k++)
		if ((v[k] < 0 ? -v[k] : v[k]) > (v[axis] < 0 ? -v[axis] : v[axis]))
			axis = k;
	f = 2 * axis + (v[axis] < 0);
	sc = faces[f].s_sign * v[faces[f].s_axis];
	tc = faces[f].t_sign * v[faces[f].t_axis];
	/* the old face's plane is the new face's edge: its last texel */
	*i = OS_MIN(OS_MAX((sc + half - 1) / 2, 0), half - 1);
	*j = OS_MIN(OS_MAX((tc + half - 1) / 2, 0), half - 1);
	*face = f;
}

#define F32_HALF 0x3f000000u
#define F32_ONE 0x3f800000u
#define F32_TWO 0x40000000u

void bi_cube_quad(const uint32_t s[4], const uint32_t t[4], const unsigned face[4],
		  unsigned to, uint32_t out[2][4])
{
	for (unsigned k = 0; k < 4; k++) {
		unsigned f = face[k];
		uint32_t v[3], ma, r;

		out[0][k] = s[k];
		out[1][k] = t[k];
		if (f == to || f > 5)
			continue;
		/* the direction, its major axis 1: sc = 2 s - 1, tc = 2 t - 1 */
		v[f / 2] = f & 1 ? F32_ONE | SIGN : F32_ONE;
		v[faces[f].s_axis] = bi_f32_fma(s[k], F32_TWO, F32_ONE | SIGN, BI_RM_RTE, false) ^
				     (faces[f].s_sign < 0 ? SIGN : 0);
		v[faces[f].t_axis] = bi_f32_fma(t[k], F32_TWO, F32_ONE | SIGN, BI_RM_RTE, false) ^
				     (faces[f].t_sign < 0 ? SIGN : 0);
		ma = v[to / 2] ^ (to & 1 ? SIGN : 0);
		if ((ma & SIGN) || !(ma & ~SIGN))
			continue; /* behind the face: no projection */
		r = bi_fp_recip(&bi_f32, ma, false, BI_RM_RTE, false);
		for (unsigned c = 0; c < 2; c++) {
			unsigned axis = c ? faces[to].t_axis : faces[to].s_axis;
			int sign = c ? faces[to].t_sign : faces[to].s_sign;
			uint32_t p = bi_f32_mul(v[axis] ^ (sign < 0 ? SIGN : 0), r, BI_RM_RTE, false);

			out[c][k] = bi_f32_fma(p, F32_HALF, F32_HALF, BI_RM_RTE, false);
		}
	}
}
