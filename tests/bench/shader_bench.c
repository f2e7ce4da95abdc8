// SPDX-License-Identifier: MIT
/*
 * The shader core's speed: the whole-program COMPUTE jobs of
 * tests/shader/bi_progs.h submitted through the job-slot registers of the
 * GPU model (Job Manager, MMU with LPAE page tables, the Bifrost back
 * end), timed from submission to the job interrupt.
 *
 *   shader-bench [-g g71|g52] [-w N[,N...]] [-n jobs] [-r rounds]
 *                [-s on|off|both] [prog...]
 *
 * For each program and worker count it runs @rounds rounds of @jobs jobs
 * with shader statistics on, then off, alternately (so that load from
 * elsewhere hits both alike; -s: only one of them, e.g. under
 * `perf stat`), and prints the best round of each:
 *
 *   prog workers stats thread-instructions seconds
 *
 * Thread-instructions are FMA and ADD slots executed by live threads.
 * Exit status 1 if a job fails or a result is wrong.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "shader/bi_progs.h"
#include "shader/compute.h"
#include "vgpu/vgpu_test.h"

#define REGION_VA 0x1000000ull
#define AS 1
#define SLOT 1
#define GROUPS 128

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

struct bench {
	struct board b;
	struct tjob tj;
	struct bi_compute *bc;
};

/* Runs @p @jobs times; the seconds spent in the jobs, or < 0 on failure.
 * *@instrs: thread-instructions of one job. */
static double run(struct bench *B, const struct tprog *p, unsigned jobs,
		  uint64_t *instrs)
{
	unsigned groups = p->max_groups < GROUPS ? p->max_groups : GROUPS;
	double t = 0;

	for (unsigned i = 0; i < jobs; i++) {
		struct bi_job_record rec;
		double t0;

		/* descriptors (and the job header the last run wrote) afresh */
		if (!p->build(&B->tj, groups))
			return -1;
		tj32(&B->tj, TJ_JOB + 16)[0] |= 1u << 16; /* job index 1 */
		t0 = now();
		submit(&B->b, SLOT, AS, B->tj.va + TJ_JOB, 0);
		if (wait_slot(&B->b, SLOT, 60) != MALI_JOB_IRQ_DONE(SLOT))
			return -1;
		t += now() - t0;
		if (p->check(&B->tj, groups) != -1 ||
		    bi_compute_jobs(B->bc, &rec, 1, NULL) != 1)
			return -1;
		*instrs = rec.instrs;
	}
	return t;
}

int main(int argc, char **argv)
{
	const char *gpu = "g71";
	unsigned workers[8] = { 1 }, nw = 1, jobs = 20, rounds = 3;
	struct bench *B = calloc(1, sizeof(*B));
	struct area region;
	int opt, rc = 0, s_hi = 1, s_lo = 0;

	while ((opt = getopt(argc, argv, "g:w:n:r:s:")) != -1) {
		switch (opt) {
		case 'g':
			gpu = optarg;
			break;
		case 'w':
			nw = 0;
			for (char *s = strtok(optarg, ","); s && nw < 8; s = strtok(NULL, ","))
				workers[nw++] = (unsigned)atoi(s);
			break;
		case 'n':
			jobs = (unsigned)atoi(optarg);
			break;
		case 'r':
			rounds = (unsigned)atoi(optarg);
			break;
		case 's':
			s_hi = strcmp(optarg, "off") != 0;
			s_lo = strcmp(optarg, "on") == 0;
			break;
		default:
			fprintf(stderr, "usage: %s [-g g71|g52] [-w N[,N...]] [-n jobs] "
				"[-r rounds] [-s on|off|both] [prog...]\n", argv[0]);
			return 2;
		}
	}
	if (!B || !nw || !jobs || !rounds ||
	    board_init(&B->b, gpu, 0, FMT_LPAE) || !reset_and_power_up(&B->b)) {
		fprintf(stderr, "shader-bench: cannot set up a %s board\n", gpu);
		return 1;
	}
	region = make_area(&B->b, AS, REGION_VA, TJ_SIZE / PG, MAP_R | MAP_W | MAP_X);
	as_enable(&B->b, AS);
	B->tj.mem = area_ptr(&B->b, &region, REGION_VA);
	B->tj.va = REGION_VA;
	B->bc = bi_compute_attach(B->b.gpu);
	if (!B->bc)
		return 1;
	for (size_t i = 0; i < sizeof(tprogs) / sizeof(tprogs[0]); i++) {
		const struct tprog *p = &tprogs[i];
		bool wanted = optind == argc;

		for (int a = optind; a < argc; a++)
			wanted |= !strcmp(argv[a], p->name);
		if (!wanted)
			continue;
		for (unsigned w = 0; w < nw; w++) {
			double best[2] = { 1e30, 1e30 };
			uint64_t instrs = 0;

			bi_compute_set_workers(B->bc, workers[w]);
			for (unsigned r = 0; r < rounds; r++) {
				for (int s = s_hi; s >= s_lo; s--) {
					double t;

					bi_compute_set_stats(B->bc, s);
					t = run(B, p, jobs, &instrs);
					if (t < 0) {
						fprintf(stderr, "shader-bench: %s failed\n", p->name);
						rc = 1;
						goto next;
					}
					if (t < best[s])
						best[s] = t;
				}
			}
			for (int s = s_hi; s >= s_lo; s--)
				printf("%s %u %s %llu %.6f\n", p->name, workers[w],
				       s ? "on" : "off",
				       (unsigned long long)instrs * jobs, best[s]);
next:;
		}
	}
	bi_compute_detach(B->b.gpu, B->bc);
	board_fini(&B->b);
	free(B);
	return rc;
}
