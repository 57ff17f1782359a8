// SPDX-License-Identifier: GPL-2.0
/*
 * pfbpf: the probe paths with a counting BPF program as the consumer, the
 * way bpftrace, libbpf tools and agents hit them.  The workloads are those
 * of tools/testing/selftests/bpf's "bench trig-*": the kernel rows probe
 * bpf_get_numa_node_id(), called PFB_BATCH times per BPF_PROG_TEST_RUN of a
 * raw_tp driver program; the user rows probe the first instruction of a
 * function this program calls in a loop.  Each row times its workload
 * unprobed, attaches, times it again and detaches; the per-hit cost is the
 * difference of the medians.  Under QEMU's -icount shift=0 one ns is one
 * guest instruction.
 *
 * Checks (one TAP case per probed row; the no-probe rows are numbers
 * only): the BPF program ran exactly once per call
 * (its counter against the number of calls made) and the kprobe links
 * report no missed hit (bpf_link_info).  Runs of the program skipped for
 * recursion (bpf_prog_info.recursion_misses) are reported.
 *
 *   pfbpf [-n CALLS] [-r REPS] [-t ROW[,ROW...]] [-l]
 *   pfbpf -w CALLS      no BPF: main() -> pfb_work() -> CALLS x pfb_outer(),
 *                       which calls pfb_nop5() and pfb_nop(); the workload
 *                       of the perf checks (guest/perf.sh), built with frame
 *                       pointers so that callchains reach main()
 *
 * A "# bench: ROW base probed per-hit sd hits expected missed" line per
 * row is what guest/bench.sh collects.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include "pfbpf.h"

void pfb_nop(void);
void pfb_push(void);
void pfb_ret(void);
void pfb_nop5(void);
void pfb_nop10(void);
void pfb_endbr(void);
void pfb_cmpb_rip(void);
void pfb_usdt(void);
void pfb_usdt5(void);

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's, not in the libc headers */
#endif

#define KSYM		"bpf_get_numa_node_id"
#define KPROBE_LIST	"/sys/kernel/debug/kprobes/list"
#define KPROBE_OPT	"/proc/sys/debug/kprobes-optimization"
/* the series' switch for jump-optimized uprobes (absent on 6.12) */
#define UPROBE_OPT	"/proc/sys/debug/uprobes-optimization"

enum kind { KPROBE, KRETPROBE, KPROBE_INT3, KMULTI, KRETMULTI,
	    UPROBE, URETPROBE, UMULTI, URETMULTI, USDT, USDT_CHOICE, NOPROBE_K,
	    NOPROBE_U };

struct row {
	const char *name;
	const char *trig;	/* the bench trig-* it corresponds to */
	enum kind kind;
	void (*fn)(void);	/* user rows: the probed function */
	const char *sym;	/* and its name */
	/* 6.12 refuses to probe it (ENOTSUPP): a SKIP on a kernel without
	 * the series (no uprobes-optimization sysctl), a failure with it
	 */
	bool refused_by_612;
	const char *usdt;	/* USDT rows: the probe's name, provider "pfb" */
};

static const struct row rows[] = {
	{ "bpf_noprobe_kernel_call", "trig-kernel-count", NOPROBE_K },
	{ "bpf_noprobe_user_call", "trig-usermode-count", NOPROBE_U, pfb_nop, "pfb_nop" },
	{ "bpf_kprobe_ftrace", "trig-kprobe", KPROBE },
	{ "bpf_kprobe_int3", "trig-kprobe at +off", KPROBE_INT3 },
	{ "bpf_kretprobe", "trig-kretprobe", KRETPROBE },
	{ "bpf_kprobe_multi", "trig-kprobe-multi", KMULTI },
	{ "bpf_kretprobe_multi", "trig-kretprobe-multi", KRETMULTI },
	{ "bpf_uprobe_ret", "trig-uprobe-ret", UPROBE, pfb_ret, "pfb_ret" },
	{ "bpf_uprobe_nop", "trig-uprobe-nop", UPROBE, pfb_nop, "pfb_nop" },
	{ "bpf_uprobe_push", "trig-uprobe-push", UPROBE, pfb_push, "pfb_push" },
	{ "bpf_uprobe_nop5", "trig-uprobe-nop5", UPROBE, pfb_nop5, "pfb_nop5" },
	{ "bpf_uprobe_nop10", "-", UPROBE, pfb_nop10, "pfb_nop10", true },
	{ "bpf_uprobe_endbr", "-", UPROBE, pfb_endbr, "pfb_endbr" },
	{ "bpf_uprobe_cmpb_rip", "-", UPROBE, pfb_cmpb_rip, "pfb_cmpb_rip" },
	{ "bpf_uretprobe_nop", "trig-uretprobe-nop", URETPROBE, pfb_nop, "pfb_nop" },
	{ "bpf_uprobe_multi_nop", "trig-uprobe-multi-nop", UMULTI, pfb_nop, "pfb_nop" },
	{ "bpf_uprobe_multi_nop5", "trig-uprobe-multi-nop5", UMULTI, pfb_nop5, "pfb_nop5" },
	{ "bpf_uretprobe_multi_nop", "trig-uretprobe-multi-nop", URETMULTI, pfb_nop, "pfb_nop" },
	{ "bpf_usdt", "(usdt selftest)", USDT, pfb_usdt, "pfb_usdt", false, "hit" },
	/*
	 * libbpf's current usdt.h puts "nop; nop5" at a USDT site.  The 6.12
	 * tree's libbpf probes the nop, where the note points; mainline's
	 * probes the nop5 where the uprobe system call answers ENXIO.
	 */
	{ "bpf_usdt_nop_nop5", "(usdt.h nop;nop5, 6.12 libbpf)", USDT, pfb_usdt5,
	  "pfb_usdt5", false, "hit5" },
	{ "bpf_usdt_nop5_choice", "(usdt.h nop;nop5, mainline libbpf)", USDT_CHOICE,
	  pfb_usdt5, "pfb_usdt5", false, "hit5" },
};
#define NROWS	(sizeof(rows) / sizeof(rows[0]))

static long calls = 20000;
static int reps = 5;
static struct bpf_object *obj;
static int hits_fd, driver_fd;
static int kernel_off;		/* first body instruction of KSYM */
static int failures, skips, case_nr;

static double now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static long read_hits(void)
{
	__u32 zero = 0;
	__u64 v = 0;

	if (bpf_map_lookup_elem(hits_fd, &zero, &v))
		return -1;
	return (long)v;
}

/* one rep: @calls calls of the row's workload, ns per call */
static double run_once(const struct row *r)
{
	LIBBPF_OPTS(bpf_test_run_opts, topts);
	double t0 = now_ns();
	long i;

	if (r->kind <= KRETMULTI || r->kind == NOPROBE_K) {
		for (i = 0; i < calls / PFB_BATCH; i++)
			if (bpf_prog_test_run_opts(driver_fd, &topts)) {
				perror("BPF_PROG_TEST_RUN");
				exit(1);
			}
	} else {
		for (i = 0; i < calls; i++)
			r->fn();
	}
	return (now_ns() - t0) / calls;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double timed(const struct row *r, double *sd)
{
	double v[64], sum = 0, sq = 0, mean;
	int i, n = reps > 64 ? 64 : reps;

	for (i = 0; i < n; i++) {
		v[i] = run_once(r);
		sum += v[i];
	}
	mean = sum / n;
	for (i = 0; i < n; i++)
		sq += (v[i] - mean) * (v[i] - mean);
	if (sd)
		*sd = n > 1 ? sqrt(sq / (n - 1)) : 0;
	qsort(v, n, sizeof(v[0]), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY), ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, strlen(val)) == (ssize_t)strlen(val);
	close(fd);
	return ok ? 0 : -1;
}

static int read_int_file(const char *path)
{
	char buf[32] = "";
	int fd = open(path, O_RDONLY), n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return n > 0 ? atoi(buf) : -1;
}

/* the state kprobes/list shows for KSYM+off ("" if not listed) */
static void kprobe_state(int off, char *buf, size_t len)
{
	char line[256], want[64];
	FILE *f = fopen(KPROBE_LIST, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (off < 0)	/* any offset */
		snprintf(want, sizeof(want), " %s+", KSYM);
	else
		snprintf(want, sizeof(want), " %s+0x%x ", KSYM, off);
	while (fgets(line, sizeof(line), f)) {
		if (!strstr(line, want))
			continue;
		line[strcspn(line, "\n")] = 0;
		snprintf(buf, len, "%s", line);
		break;
	}
	fclose(f);
}

/*
 * The choice of a libbpf that knows "nop; nop5" USDT sites: the nop5 where
 * the uprobe system call (336 on x86-64), made outside a trampoline,
 * answers ENXIO, as the series' does while jump optimization is on; the
 * nop elsewhere (ENOSYS on 6.12, EOPNOTSUPP with the optimization off).
 */
static bool usdt_on_nop5(void)
{
	return syscall(336) == -1 && errno == ENXIO;
}

static struct bpf_program *prog(const char *name)
{
	struct bpf_program *p = bpf_object__find_program_by_name(obj, name);

	if (!p) {
		fprintf(stderr, "no BPF program %s\n", name);
		exit(1);
	}
	return p;
}

static struct bpf_link *attach(const struct row *r)
{
	const char *sym = KSYM;

	switch (r->kind) {
	case KPROBE:
	case KRETPROBE: {
		LIBBPF_OPTS(bpf_kprobe_opts, o, .retprobe = r->kind == KRETPROBE);

		return bpf_program__attach_kprobe_opts(prog("pfb_kprobe"), KSYM, &o);
	}
	case KPROBE_INT3: {
		LIBBPF_OPTS(bpf_kprobe_opts, o, .offset = kernel_off);

		return bpf_program__attach_kprobe_opts(prog("pfb_kprobe"), KSYM, &o);
	}
	case KMULTI:
	case KRETMULTI: {
		LIBBPF_OPTS(bpf_kprobe_multi_opts, o, .syms = &sym, .cnt = 1,
			    .retprobe = r->kind == KRETMULTI);

		return bpf_program__attach_kprobe_multi_opts(prog("pfb_kprobe_multi"), NULL, &o);
	}
	case UPROBE:
	case URETPROBE: {
		LIBBPF_OPTS(bpf_uprobe_opts, o, .func_name = r->sym,
			    .retprobe = r->kind == URETPROBE);

		return bpf_program__attach_uprobe_opts(prog("pfb_uprobe"), -1,
						       "/proc/self/exe", 0, &o);
	}
	case UMULTI:
	case URETMULTI: {
		LIBBPF_OPTS(bpf_uprobe_multi_opts, o, .retprobe = r->kind == URETMULTI);

		return bpf_program__attach_uprobe_multi(prog("pfb_uprobe_multi"), -1,
							"/proc/self/exe", r->sym, &o);
	}
	case USDT:
		return bpf_program__attach_usdt(prog("pfb_usdt"), -1, "/proc/self/exe",
						"pfb", r->usdt, NULL);
	case USDT_CHOICE:
		return bpf_program__attach_usdt(prog("pfb_usdt"), -1, "/proc/self/exe",
						"pfb", usdt_on_nop5() ? "hit5o" : "hit5",
						NULL);
	default:
		return NULL;
	}
}

/* missed hits the link reports (kprobe links), -1 where it has no count */
static long link_missed(struct bpf_link *l)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_link_get_info_by_fd(bpf_link__fd(l), &info, &len))
		return -1;
	if (info.type == BPF_LINK_TYPE_KPROBE_MULTI)
		return (long)info.kprobe_multi.missed;
	if (info.type == BPF_LINK_TYPE_PERF_EVENT &&
	    (info.perf_event.type == BPF_PERF_EVENT_KPROBE ||
	     info.perf_event.type == BPF_PERF_EVENT_KRETPROBE))
		return (long)info.perf_event.kprobe.missed;
	return -1;
}

static long recursion_misses(void)
{
	long sum = 0;
	struct bpf_program *p;

	bpf_object__for_each_program(p, obj) {
		struct bpf_prog_info info;
		__u32 len = sizeof(info);

		memset(&info, 0, sizeof(info));
		if (!bpf_prog_get_info_by_fd(bpf_program__fd(p), &info, &len))
			sum += (long)info.recursion_misses;
	}
	return sum;
}

static void result(bool ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void result(bool ok, const char *name, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d %s # ", ok ? "ok" : "not ok", ++case_nr, name);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!ok)
		failures++;
}

static void skip(const char *name, const char *why)
{
	printf("ok %d %s # SKIP %s\n", ++case_nr, name, why);
	skips++;
}

/* -t ROW[,ROW...]: is @name one of them (all rows without -t) */
static bool selected(const char *only, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	if (!only)
		return true;
	for (p = only; (p = strstr(p, name)); p += len)
		if ((p == only || p[-1] == ',') && (p[len] == 0 || p[len] == ','))
			return true;
	return false;
}

static void run_row(const struct row *r)
{
	double base, probed, sd;
	long h0, hits, expected, missed = 0, rmiss0;
	struct bpf_link *l;
	char state[256] = "", mbuf[24];
	int opt_was = -1;

	base = timed(r, NULL);
	if (r->kind == NOPROBE_K || r->kind == NOPROBE_U) {
		printf("# %-26s %8.1f ns/call unprobed (%s)\n", r->name, base, r->trig);
		/* a number, not a check: no TAP case */
		printf("# bench: %s %.1f %.1f %.1f 0 0 0 0\n", r->name, base, base, base);
		return;
	}
	if (r->kind == KPROBE_INT3 && kernel_off <= 0) {
		skip(r->name, "no probe offset in " KSYM);
		return;
	}
	if (r->kind == KPROBE_INT3) {
		/* the INT3 path: no optimization (boosted where the kernel boosts) */
		opt_was = read_int_file(KPROBE_OPT);
		write_file(KPROBE_OPT, "0");
	}
	l = attach(r);
	if (!l && r->refused_by_612 && errno == ENOTSUPP && access(UPROBE_OPT, F_OK)) {
		skip(r->name, "refused (ENOTSUPP), as 6.12 refuses a cs-prefixed nop");
		goto out;
	}
	if (!l) {
		result(false, r->name, "cannot attach: %s (%d)", strerror(errno), errno);
		goto out;
	}
	if (r->kind == KPROBE_INT3 || r->kind == KPROBE)
		kprobe_state(r->kind == KPROBE ? -1 : kernel_off, state, sizeof(state));
	rmiss0 = recursion_misses();
	h0 = read_hits();
	probed = timed(r, &sd);
	hits = read_hits() - h0;
	expected = (r->kind <= KRETMULTI ? calls / PFB_BATCH * PFB_BATCH : calls) * (long)reps;
	missed = link_missed(l);
	bpf_link__destroy(l);
	printf("# %-26s %8.1f ns/hit (unprobed %.1f, probed %.1f ns/call, sd %.1f) (%s)\n",
	       r->name, probed - base, base, probed, sd, r->trig);
	printf("# %-26s hits %ld/%ld, missed %ld%s%s\n", "", hits, expected,
	       missed < 0 ? 0 : missed, state[0] ? ", " : "", state);
	printf("# bench: %s %.1f %.1f %.1f %.1f %ld %ld %ld\n", r->name, base, probed,
	       probed - base, sd, hits, expected, missed < 0 ? 0 : missed);
	if (state[0])
		printf("# bench-state: %s %s\n", r->name, state);
	if (missed < 0)
		snprintf(mbuf, sizeof(mbuf), "n/a");
	else
		snprintf(mbuf, sizeof(mbuf), "%ld", missed);
	/* recursion misses are reported, not checked: no bug seen to make them */
	result(hits == expected && missed <= 0, r->name,
	       "hits %ld, expected %ld, missed %s, recursion misses %ld", hits, expected,
	       mbuf, recursion_misses() - rmiss0);
out:
	if (opt_was >= 0) {
		char v[16];

		snprintf(v, sizeof(v), "%d", opt_was);
		write_file(KPROBE_OPT, v);
	}
}

/*
 * The INT3 rows probe the first instruction after the ftrace site: the
 * first offset past it that the kernel accepts as an instruction boundary
 * (offsets inside an instruction or inside the ftrace nop are refused).
 */
static int find_kernel_off(void)
{
	LIBBPF_OPTS(bpf_kprobe_opts, o);
	libbpf_print_fn_t print = libbpf_set_print(NULL);	/* refusals expected */
	int off, found = -1;

	for (off = 1; off < 32 && found < 0; off++) {
		struct bpf_link *l;
		char state[256];

		o.offset = off;
		l = bpf_program__attach_kprobe_opts(prog("pfb_kprobe"), KSYM, &o);
		if (!l)
			continue;
		kprobe_state(off, state, sizeof(state));
		bpf_link__destroy(l);
		if (state[0] && !strstr(state, "[FTRACE]"))
			found = off;
	}
	libbpf_set_print(print);
	return found;
}

__attribute__((noinline)) int pfb_outer(void)
{
	pfb_nop5();
	pfb_nop();
	return 1;
}

__attribute__((noinline)) long pfb_work(long n)
{
	long i, sum = 0;

	for (i = 0; i < n; i++)
		sum += pfb_outer();
	return sum;
}

int main(int argc, char **argv)
{
	const char *only = NULL;
	char path[4096];
	int c, uopt_was;
	bool on_nop5;
	ssize_t n;
	size_t i;

	while ((c = getopt(argc, argv, "n:r:t:lw:")) != -1) {
		switch (c) {
		case 'w':
			return pfb_work(atol(optarg)) == atol(optarg) ? 0 : 1;
		case 'n':
			calls = atol(optarg);
			break;
		case 'r':
			reps = atoi(optarg);
			break;
		case 't':
			only = optarg;
			break;
		case 'l':
			for (i = 0; i < NROWS; i++)
				printf("%-26s %s\n", rows[i].name, rows[i].trig);
			return 0;
		default:
			fprintf(stderr, "usage: %s [-n CALLS] [-r REPS] [-t ROW,...] [-l]\n",
				argv[0]);
			return 2;
		}
	}
	if (calls < PFB_BATCH || reps < 1) {
		fprintf(stderr, "need -n >= %d and -r >= 1\n", PFB_BATCH);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("TAP version 13\n");
	/* the BPF object sits beside the program */
	n = readlink("/proc/self/exe", path, sizeof(path) - 16);
	if (n < 0) {
		printf("1..0 # SKIP no /proc/self/exe\n");
		return 4;
	}
	path[n] = 0;
	strcpy(strrchr(path, '/') + 1, "pfbpf.bpf.o");
	obj = bpf_object__open_file(path, NULL);
	if (!obj || bpf_object__load(obj)) {
		printf("1..0 # SKIP cannot load %s (a kernel without BPF_SYSCALL?)\n", path);
		return 4;
	}
	hits_fd = bpf_map__fd(bpf_object__find_map_by_name(obj, "hits"));
	driver_fd = bpf_program__fd(prog("pfb_driver"));
	kernel_off = find_kernel_off();
	printf("# %s: INT3 kprobe rows at +%d\n", KSYM, kernel_off);
	/* as the kernel booted: on by default (CONFIG_X86_UPROBES_OPTIMIZE) */
	uopt_was = read_int_file(UPROBE_OPT);
	printf("# jump-optimized uprobes: %s\n", uopt_was < 0 ? "not in this kernel" :
	       uopt_was ? "on" : "off (debug.uprobes-optimization=0)");
	on_nop5 = usdt_on_nop5();
	printf("# bpf_usdt_nop5_choice: the uprobe system call fails with \"%s\": "
	       "the probe goes on the %s\n", strerror(errno), on_nop5 ? "nop5" : "nop");

	for (i = 0; i < NROWS; i++)
		if (selected(only, rows[i].name) && rows[i].kind != NOPROBE_K &&
		    rows[i].kind != NOPROBE_U)
			case_nr++;
	printf("1..%d\n", case_nr);
	case_nr = 0;
	for (i = 0; i < NROWS; i++)
		if (selected(only, rows[i].name))
			run_row(&rows[i]);
	bpf_object__close(obj);
	printf("# Totals: pass:%d fail:%d skip:%d\n", case_nr - failures - skips, failures, skips);
	return failures ? 1 : 0;
}
