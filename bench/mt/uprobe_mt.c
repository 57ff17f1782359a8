// SPDX-License-Identifier: GPL-2.0
/*
 * uprobe_mt - uprobe hits per second of T threads of one process hitting
 * one probe, for the 2-vCPU (multi-threaded TCG) throughput comparison.
 *
 *   uprobe_mt [-t threads] [-s seconds] [-k site] [-r]
 *
 * Defines a uprobe event "mt/site" on the function of @site (push: "push
 * %rbp; pop %rbp; ret", emulated by 6.12 and the series; store: "mov
 * %rdi,-8(%rsp); ret", single-stepped by both), runs the threads for the
 * given time unprobed and then probed (tracing_on 0: the event's handler
 * runs, the ring buffer drops the record), and prints calls per second for
 * both.  With -r the event is a uretprobe ("r:"): each hit also takes a
 * return instance and returns through the trampoline.  The event counts are
 * checked against the calls made.  Wall clock:
 * the numbers are only good for ratios on one machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define TRACEFS "/sys/kernel/tracing/"

void mt_push(void);
void mt_store(void);
asm(".text\n.p2align 6\n.globl mt_push\nmt_push:\n\tpush %rbp\n\tpop %rbp\n\tret\n"
    ".p2align 6\n.globl mt_store\nmt_store:\n\tmov %rdi,-8(%rsp)\n\tret\n");

static volatile int stop;
static void (*site)(void) = mt_push;
static int ret_probe;

struct worker {
	pthread_t th;
	unsigned long calls;
};

static void *work(void *arg)
{
	struct worker *w = arg;
	unsigned long n = 0;

	while (!stop) {
		site();
		n++;
	}
	w->calls = n;
	return NULL;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static unsigned long run(int threads, double secs)
{
	struct worker *w = calloc(threads, sizeof(*w));
	unsigned long total = 0;
	double t0;
	int i;

	stop = 0;
	for (i = 0; i < threads; i++)
		pthread_create(&w[i].th, NULL, work, &w[i]);
	t0 = now();
	while (now() - t0 < secs)
		usleep(10000);
	stop = 1;
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].th, NULL);
		total += w[i].calls;
	}
	free(w);
	return total;
}

static int write_file(const char *name, const char *s, int append)
{
	int fd = open(name, O_WRONLY | (append ? O_APPEND : O_TRUNC));
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -errno;
}

static long file_offset(void *addr)
{
	unsigned long a = (unsigned long)addr, start, end, pgoff;
	char line[512], perms[8];
	FILE *f = fopen("/proc/self/maps", "r");
	long ret = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %7s %lx", &start, &end, perms, &pgoff) == 4 &&
		    a >= start && a < end) {
			ret = a - start + pgoff;
			break;
		}
	if (f)
		fclose(f);
	return ret;
}

static long hits(void)
{
	char line[PATH_MAX + 128], path[PATH_MAX], ev[64];
	FILE *f = fopen(TRACEFS "uprobe_profile", "r");
	long v, ret = -1;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%s %63s %ld", path, ev, &v) == 3 && !strcmp(ev, "site"))
			ret = v;
	if (f)
		fclose(f);
	return ret;
}

int main(int argc, char **argv)
{
	int threads = 1, opt, err;
	double secs = 5;
	char exe[PATH_MAX], def[PATH_MAX + 64];
	unsigned long plain, probed;
	long h;

	while ((opt = getopt(argc, argv, "t:s:k:r")) != -1) {
		switch (opt) {
		case 't': threads = atoi(optarg); break;
		case 's': secs = atof(optarg); break;
		case 'k': site = strcmp(optarg, "store") ? mt_push : mt_store; break;
		case 'r': ret_probe = 1; break;
		default:
			fprintf(stderr, "usage: %s [-t threads] [-s secs] [-k push|store] [-r]\n", argv[0]);
			return 2;
		}
	}
	if (!realpath("/proc/self/exe", exe))
		return 1;
	write_file(TRACEFS "events/mt/enable", "0", 0);
	write_file(TRACEFS "uprobe_events", "-:mt/site\n", 1);
	snprintf(def, sizeof(def), "%c:mt/site %s:0x%lx\n", ret_probe ? 'r' : 'p',
		 exe, file_offset(site));
	err = write_file(TRACEFS "uprobe_events", def, 1);
	if (!err)
		err = write_file(TRACEFS "events/mt/site/enable", "0", 0);
	if (err) {
		fprintf(stderr, "uprobe_mt: cannot define %s: %s\n", def, strerror(-err));
		return 1;
	}
	write_file(TRACEFS "tracing_on", "0", 0);
	plain = run(threads, secs);
	write_file(TRACEFS "events/mt/site/enable", "1", 0);
	probed = run(threads, secs);
	write_file(TRACEFS "events/mt/site/enable", "0", 0);
	h = hits();
	write_file(TRACEFS "uprobe_events", "-:mt/site\n", 1);
	write_file(TRACEFS "tracing_on", "1", 0);
	printf("uprobe_mt: site=%s%s threads=%d unprobed %.0f calls/s probed %.0f hits/s (%ld hits counted, %lu calls%s)\n",
	       site == mt_push ? "push" : "store", ret_probe ? ",ret" : "", threads, plain / secs, probed / secs,
	       h, probed, h == (long)probed ? "" : " MISMATCH");
	return h == (long)probed ? 0 : 1;
}
