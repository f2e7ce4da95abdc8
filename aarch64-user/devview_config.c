// SPDX-License-Identifier: MIT
/*
 * The options of `vgpu run` that describe the in-process device (-gpu,
 * -cores, -workers, -job-timeout, -shader-stats: kept across execve by
 * run.c, which passes them on) and its reports at exit (-stats, -trace).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aarch64-user/abi.h"
#include "aarch64-user/devview.h"
#include "aarch64-user/jit.h"
#include "cmd/frames.h"

static enum shim_gpu_model gpu_model = SHIM_GPU_G71;
static char cores_arg[12], workers_arg[12], job_timeout_arg[12]; /* "" while the default */
static bool shader_stats_off;
/* Where -stats writes the driver's statistics at exit and -trace its
 * Chrome/Perfetto trace (absolute), or "". */
static char stats_path[PATH_MAX], trace_path[PATH_MAX];

int devview_set_gpu(const char *name)
{
	if (!strcmp(name, "g71"))
		gpu_model = SHIM_GPU_G71;
	else if (!strcmp(name, "g52"))
		gpu_model = SHIM_GPU_G52;
	else
		return -1;
	return 0;
}

const char *devview_gpu(void)
{
	return gpu_model == SHIM_GPU_G52 ? "g52" : "g71";
}

/* A whole number in 1..@max into @arg, or -1. */
static int set_count(const char *n, long max, char *arg, size_t size)
{
	char *end;
	long v = strtol(n, &end, 10);

	if (!*n || *end || v < 1 || v > max)
		return -1;
	snprintf(arg, size, "%ld", v);
	return 0;
}

int devview_set_cores(const char *n)
{
	return set_count(n, 32, cores_arg, sizeof(cores_arg));
}

int devview_set_workers(const char *n)
{
	return set_count(n, 256, workers_arg, sizeof(workers_arg));
}

int devview_set_job_timeout(const char *ms)
{
	return set_count(ms, 3600000, job_timeout_arg, sizeof(job_timeout_arg));
}

const char *devview_job_timeout(void)
{
	return job_timeout_arg[0] ? job_timeout_arg : NULL;
}

int devview_set_shader_stats(const char *on_off)
{
	if (strcmp(on_off, "on") && strcmp(on_off, "off"))
		return -1;
	shader_stats_off = !strcmp(on_off, "off");
	return 0;
}

const char *devview_shader_stats(void)
{
	return shader_stats_off ? "off" : NULL;
}

const char *devview_cores(void)
{
	return cores_arg[0] ? cores_arg : NULL;
}

const char *devview_workers(void)
{
	return workers_arg[0] ? workers_arg : NULL;
}

/* The device -gpu, -cores, -workers, -shader-stats and -job-timeout
 * describe. */
struct vgpu_inproc *dv_device_create(void)
{
	struct shim_config cfg = { .gpu = gpu_model,
				   .cores = (unsigned)atoi(cores_arg),
				   .workers = (unsigned)atoi(workers_arg),
				   .job_timeout_ms = (uint32_t)atoi(job_timeout_arg),
				   .no_shader_stats = shader_stats_off };
	struct vgpu_inproc *ip = vgpu_inproc_create(&cfg);

	if (ip && trace_path[0])
		shim_trace_start(vgpu_inproc_shim(ip));
	if (ip)
		frames_attach(vgpu_inproc_board(ip));
	return ip;
}

const char *dv_gpu_name(void)
{
	return gpu_model == SHIM_GPU_G52 ? "Mali-G52" : "Mali-G71";
}

/* @path made absolute into @out (PATH_MAX bytes), its directory checked
 * writable: the guest may chdir before it exits, and a report that
 * cannot be written should fail before the run. */
static int out_path(const char *path, char *out)
{
	char dir[PATH_MAX / 2], real[PATH_MAX / 2];
	const char *slash = strrchr(path, '/');
	const char *base = slash ? slash + 1 : path;

	if (!*base)
		return -1;
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path);
	if (!realpath(dir, real) || access(real, W_OK))
		return -1;
	if ((size_t)snprintf(out, PATH_MAX, "%s/%.*s", strcmp(real, "/") ? real : "",
			     PATH_MAX / 4, base) >= PATH_MAX)
		return -1;
	return 0;
}

int devview_set_stats(const char *path)
{
	return out_path(path, stats_path);
}

int devview_set_trace(const char *path)
{
	return out_path(path, trace_path);
}

static void emit_file(void *priv, const char *s, size_t n)
{
	fwrite(s, 1, n, priv);
}

static void write_trace(struct vgpu_inproc *ip)
{
	FILE *f = fopen(trace_path, "w");

	if (f)
		shim_trace_write(vgpu_inproc_shim(ip), emit_file, f);
	if (!f || fclose(f))
		fprintf(stderr, "vgpu run: -trace %s: %s\n", trace_path, strerror(errno));
}

/* The device's JSON object @buf (@len bytes) with the translator's
 * counters added as its last member; NULL (and @buf freed) when there is
 * no memory. */
static char *with_translator(char *buf, size_t *len)
{
	size_t end, n, tlen;
	char *out;

	if (!buf)
		return NULL;
	for (end = *len; end && buf[end - 1] != '}'; end--)
		;
	if (!end) /* not an object: left as it is */
		return buf;
	tlen = a64_jit_stats_json(NULL, 0);
	n = *len + tlen + 1;
	out = malloc(n + 1);
	if (out) {
		memcpy(out, buf, end - 1);
		out[end - 1] = ',';
		a64_jit_stats_json(out + end, tlen + 1);
		memcpy(out + end + tlen, buf + end - 1, *len - end + 1);
		out[n] = 0;
		*len = n;
	}
	free(buf);
	return out;
}

const char *devview_stats(void)
{
	return stats_path[0] ? stats_path : NULL;
}

void devview_exit(void)
{
	struct vgpu_inproc *ip;
	size_t len;
	char *buf;
	FILE *f;

	/* The report is the run's: its first process writes it. */
	if ((!stats_path[0] && !trace_path[0]) || dv_forked)
		return;
	pthread_mutex_lock(&dv_lock);
	ip = dv_dev;
	pthread_mutex_unlock(&dv_lock);
	/* A program that never opened a node still gets a (zero) report. */
	if (!ip && !(ip = dv_dev = dv_device_create()))
		return;
	if (trace_path[0])
		write_trace(ip);
	if (!stats_path[0])
		return;
	buf = with_translator(vgpu_inproc_stats_dup(ip, &len), &len);
	if (!buf)
		return;
	f = fopen(stats_path, "w");
	if (!f || fwrite(buf, 1, len, f) != len || fclose(f))
		fprintf(stderr, "vgpu run: -stats %s: %s\n", stats_path, strerror(errno));
	free(buf);
}

