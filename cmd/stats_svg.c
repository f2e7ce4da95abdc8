// SPDX-License-Identifier: MIT
/*
 * `vgpu stats --svg DIR`: the statistics as three plain SVG bar charts
 * (no dependencies; any browser shows them): the shader instruction mix,
 * the clause-size histogram and the ioctl latencies (p50 and p99, on a
 * log scale since they span nanoseconds to milliseconds).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/stats_json.h"
#include "cmd/stats_svg.h"

#define BAR_H 18
#define LABEL_W 190
#define PLOT_W 420

struct bar {
	char label[64];
	double v[2]; /* one or two series */
	char note[32];
};

static const char *const fill[2] = { "#4e79a7", "#f28e2b" };

/* Escapes the few characters SVG text cannot hold as they are. */
static void put_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else
			fputc(*s, f);
	}
}

/* Horizontal bars, one row per @b; @scale maps a value to [0, 1]. */
static int chart(const char *dir, const char *file, const char *title,
		 const char *const legend[2], const struct bar *b, int n, int series,
		 double (*scale)(double v, double max))
{
	char path[4200];
	double max = 0;
	int h = 60 + n * (BAR_H * series + 6) + 30;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "vgpu stats: --svg %s: %s\n", path, strerror(errno));
		return -1;
	}
	for (int i = 0; i < n; i++)
		for (int s = 0; s < series; s++)
			max = b[i].v[s] > max ? b[i].v[s] : max;
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		   "font-family=\"sans-serif\" font-size=\"12\">\n"
		   "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
		   "<text x=\"10\" y=\"24\" font-size=\"16\">",
		LABEL_W + PLOT_W + 120, h);
	put_text(f, title);
	fputs("</text>\n", f);
	for (int s = 0; s < series && legend; s++)
		fprintf(f, "<rect x=\"%d\" y=\"34\" width=\"12\" height=\"12\" fill=\"%s\"/>"
			   "<text x=\"%d\" y=\"45\">%s</text>\n",
			LABEL_W + s * 120, fill[s], LABEL_W + 16 + s * 120, legend[s]);
	for (int i = 0; i < n; i++) {
		int y = 60 + i * (BAR_H * series + 6);

		fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">", LABEL_W - 8,
			y + BAR_H * series / 2 + 4);
		put_text(f, b[i].label);
		fputs("</text>\n", f);
		for (int s = 0; s < series; s++) {
			double w = max > 0 ? scale(b[i].v[s], max) * PLOT_W : 0;

			fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
				   "fill=\"%s\"/>\n",
				LABEL_W, y + s * BAR_H, w < 0 ? 0 : w, BAR_H - 2, fill[s]);
		}
		fprintf(f, "<text x=\"%.1f\" y=\"%d\">", LABEL_W + 6 +
			(max > 0 ? scale(b[i].v[0], max) * PLOT_W : 0), y + BAR_H - 5);
		put_text(f, b[i].note);
		fputs("</text>\n", f);
	}
	fputs("</svg>\n", f);
	if (fclose(f)) {
		fprintf(stderr, "vgpu stats: --svg %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static double linear(double v, double max)
{
	return v / max;
}

/* Decades from 100 ns up to the maximum. */
static double logscale(double v, double max)
{
	double lo = 2.0, hi = log10(max) > lo ? log10(max) : lo + 1;

	return v > 100 ? (log10(v) - lo) / (hi - lo) : 0;
}

int stats_svg(const struct json_object *root, const char *dir, const char *const *classes,
	      int nclass)
{
	const struct json_object *sh = sj_get(sj_get(root, "shader"), "total");
	const struct json_object *in = sj_get(sh, "instrs"), *h = sj_get(sh, "clause_tuples");
	const struct json_object *ioc = sj_get(root, "ioctls");
	static const char *const lat[2] = { "p50", "p99" };
	struct bar b[64];
	double all = 0;
	int n = 0, err = 0;

	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "vgpu stats: --svg %s: %s\n", dir, strerror(errno));
		return -1;
	}
	for (int i = 0; i < nclass; i++)
		all += (double)sj_num(in, classes[i]);
	for (int i = 0; i < nclass && i < 64; i++, n++) {
		double v = (double)sj_num(in, classes[i]);

		snprintf(b[n].label, sizeof(b[n].label), "%s", classes[i]);
		b[n].v[0] = v;
		snprintf(b[n].note, sizeof(b[n].note), "%.1f%%", all ? 100 * v / all : 0);
	}
	err |= chart(dir, "instruction-mix.svg",
		     "Shader instruction mix (thread-instructions, all jobs)", NULL, b, n, 1,
		     linear);

	n = 0;
	for (int i = 0; i < sj_len(h) && n < 64; i++, n++) {
		snprintf(b[n].label, sizeof(b[n].label), "%d tuple%s", i + 1, i ? "s" : "");
		b[n].v[0] = (double)sj_int(sj_at(h, i));
		snprintf(b[n].note, sizeof(b[n].note), "%lld", sj_int(sj_at(h, i)));
	}
	err |= chart(dir, "clause-sizes.svg", "Clause sizes (clauses executed, per warp)",
		     NULL, b, n, 1, linear);

	n = 0;
	for (int i = 0; i < sj_len(ioc) && n < 64; i++) {
		const struct json_object *r = sj_at(ioc, i);

		if (!sj_num(r, "count"))
			continue;
		snprintf(b[n].label, sizeof(b[n].label), "%s x%lld", sj_str(r, "ioctl"),
			 sj_num(r, "count"));
		b[n].v[0] = (double)sj_num(r, "lat_p50_ns");
		b[n].v[1] = (double)sj_num(r, "lat_p99_ns");
		snprintf(b[n].note, sizeof(b[n].note), "%.1f us", b[n].v[0] / 1e3);
		n++;
	}
	err |= chart(dir, "ioctl-latency.svg", "ioctl latency (log scale, from 100 ns)", lat,
		     b, n, 2, logscale);
	return err ? -1 : 0;
}
