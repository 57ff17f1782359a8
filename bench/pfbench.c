// SPDX-License-Identifier: GPL-2.0
/*
 * pfbench - the workloads the probe benchmarks put probes on.
 *
 *   pfbench offset SYMBOL            file offset of SYMBOL (for uprobe_events)
 *   pfbench run WORKLOAD ITERS REPS  time ITERS calls, REPS times; prints
 *                                    "median mean stddev min max" in ns/call
 *
 * Workloads: getpid (raw syscall), ufunc (a function whose first instruction
 * must be single-stepped), uemul (first instruction emulated: push %rbp),
 * unop5 (first instruction a 5-byte nop, the USDT / patchable-entry shape).
 * Times come from CLOCK_MONOTONIC; under QEMU -icount shift=0 with the TSC at
 * 1 GHz that is one guest instruction per ns, so the numbers are exact
 * instruction counts.
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

int pf_ufunc(int x);
int pf_uemul(int x);
int pf_unop5(int x);

/* Probe targets in asm, so their first instruction is fixed. */
asm(".text\n"
    ".globl pf_ufunc\n.type pf_ufunc,@function\n"
    "pf_ufunc:\n"
    "	lea 1(%rdi), %eax\n"		/* not emulated: single-step */
    "	ret\n"
    ".size pf_ufunc, .-pf_ufunc\n"
    ".globl pf_uemul\n.type pf_uemul,@function\n"
    "pf_uemul:\n"
    "	push %rbp\n"			/* emulated by x86 uprobes */
    "	lea 1(%rdi), %eax\n"
    "	pop %rbp\n"
    "	ret\n"
    ".size pf_uemul, .-pf_uemul\n"
    ".globl pf_unop5\n.type pf_unop5,@function\n"
    "pf_unop5:\n"
    "	.byte 0x0f, 0x1f, 0x44, 0x00, 0x00\n"	/* nopl 0x0(%rax,%rax,1) */
    "	lea 1(%rdi), %eax\n"
    "	ret\n"
    ".size pf_unop5, .-pf_unop5\n");

static const struct {
	const char *name;
	int (*fn)(int);
} funcs[] = {
	{ "pf_ufunc", pf_ufunc },
	{ "pf_uemul", pf_uemul },
	{ "pf_unop5", pf_unop5 },
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static long file_offset(void *addr)
{
	unsigned long a = (unsigned long)addr, start, end, pgoff;
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	long ret = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms, &pgoff) != 4)
			continue;
		if (a >= start && a < end) {
			ret = a - start + pgoff;
			break;
		}
	}
	fclose(f);
	return ret;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	volatile int sink = 0;
	int (*fn)(int) = NULL;
	long iters, reps, i, r;
	double *v, sum = 0, sq = 0, mean, sd;
	size_t k;

	if (argc == 3 && !strcmp(argv[1], "offset")) {
		for (k = 0; k < sizeof(funcs) / sizeof(funcs[0]); k++) {
			if (!strcmp(argv[2], funcs[k].name)) {
				printf("0x%lx\n", file_offset((void *)funcs[k].fn));
				return 0;
			}
		}
		return 1;
	}
	if (argc != 5 || strcmp(argv[1], "run")) {
		fprintf(stderr, "usage: pfbench offset SYM | run WORKLOAD ITERS REPS\n");
		return 2;
	}
	if (strcmp(argv[2], "getpid")) {
		char name[64];

		snprintf(name, sizeof(name), "pf_%s", argv[2]);
		for (k = 0; k < sizeof(funcs) / sizeof(funcs[0]); k++)
			if (!strcmp(name, funcs[k].name))
				fn = funcs[k].fn;
		if (!fn) {
			fprintf(stderr, "pfbench: unknown workload %s\n", argv[2]);
			return 2;
		}
	}
	iters = atol(argv[3]);
	reps = atol(argv[4]);
	if (iters <= 0 || reps <= 0)
		return 2;
	v = calloc(reps, sizeof(*v));
	for (r = 0; r < reps; r++) {
		uint64_t t0 = now_ns();

		if (fn)
			for (i = 0; i < iters; i++)
				sink += fn(i);
		else
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
