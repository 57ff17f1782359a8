// SPDX-License-Identifier: GPL-2.0
/*
 * pfbench - the syscall workload the tracefs probe benchmark rows use.
 *
 *   pfbench run getpid ITERS REPS   time ITERS getpid() syscalls, REPS times;
 *                                   prints "median mean stddev min max" in
 *                                   ns/call
 *
 * The user-space probe rows come from the series' selftests (probe_paths),
 * which carry their own probe targets.  Times come from CLOCK_MONOTONIC;
 * under QEMU -icount shift=0 with the TSC at 1 GHz that is one guest
 * instruction per ns, so the numbers are exact instruction counts.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	volatile int sink = 0;
	long iters, reps, i, r;
	double *v, sum = 0, sq = 0, mean, sd;

	if (argc != 5 || strcmp(argv[1], "run") || strcmp(argv[2], "getpid")) {
		fprintf(stderr, "usage: pfbench run getpid ITERS REPS\n");
		return 2;
	}
	iters = atol(argv[3]);
	reps = atol(argv[4]);
	if (iters <= 0 || reps <= 0)
		return 2;
	v = calloc(reps, sizeof(*v));
	for (r = 0; r < reps; r++) {
		uint64_t t0 = now_ns();

		for (i = 0; i < iters; i++)
			sink += syscall(SYS_getpid);
		v[r] = (double)(now_ns() - t0) / iters;
	}
	for (r = 0; r < reps; r++) {
		sum += v[r];
		sq += v[r] * v[r];
	}
	mean = sum / reps;
	sd = reps > 1 ? sqrt((sq - reps * mean * mean) / (reps - 1)) : 0;
	if (isnan(sd))
		sd = 0;
	qsort(v, reps, sizeof(*v), cmp_double);
	printf("%.1f %.1f %.1f %.1f %.1f\n", v[reps / 2], mean, sd, v[0], v[reps - 1]);
	return 0;
}
