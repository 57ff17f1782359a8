// SPDX-License-Identifier: GPL-2.0
/*
 * ftrace_shared - every ftrace user of one shared site gets exactly its own
 * hits while the set of ftrace_ops on the site changes.
 *
 * The site is __do_sys_getpid.  Its users: the function tracer in a trace
 * instance of this process's own (set_ftrace_pid: this process), a kprobe
 * event on __x64_sys_getpid (an ftrace-based kprobe at the same address)
 * and an fprobe event on __do_sys_getpid, both recorded in a second
 * instance (set_event_pid: this process).  After each change the process
 * calls getpid() N times: each user on the site records N, the others 0.
 *
 * With CONFIG_DYNAMIC_FTRACE_SITE_CALLERS, a site of two or more ops calls
 * a caller made for exactly its ops, and enabled_functions says how many
 * ("ops: K"); the test checks that too.  A site left on the caller of an
 * old set misses the new ops (0 records) or calls a removed one; the list
 * function (any kernel) must pass the same counts.
 *
 * Last, the kprobe event is disabled and enabled 50 times while a child
 * calls getpid(): afterwards the counts are exact again, and the kernel
 * is not tainted (a WARN in the caller bookkeeping taints it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../kselftest.h"
#include "probe_util.h"

#define GROUP		"kpft"
#define SITE		"__do_sys_getpid"
#define NR		1000

static const char *ft, *ev;	/* instances: function tracer, events */
static bool callers, have_fprobe;

static void calls(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getpid);
}

static int inst_write(const char *inst, const char *file, const char *s)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/%s", inst, file);
	return write_str(tpath(path), s, false);
}

static long ft_count(void)
{
	char path[256];

	snprintf(path, sizeof(path), "%s/trace", ft);
	return count_lines(tpath(path), SITE " <-");
}

/*
 * The "ops: K" of the site's enabled_functions line (a site caller's); 1
 * without one, -1 without the line
 */
static long site_ops(void)
{
	char line[512], *p;
	long k = -1;
	FILE *f = fopen(tpath("enabled_functions"), "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, SITE " ", strlen(SITE " ")))
			continue;
		p = strstr(line, "ops: ");
		k = p ? atol(p + 5) : 1;
		if (p)
			callers = true;
	}
	fclose(f);
	return k;
}

/* N getpid() calls: want_* records of each user (0 or 1 times N) */
static void step(const char *name, int want_ft, int want_kp, int want_fp,
		 long want_ops)
{
	long nft, nkp, nfp = 0, ops;
	bool ok;

	own_clear(ft);
	own_clear(ev);
	calls(NR);
	nft = ft_count();
	nkp = own_count(ev, "gp");
	if (have_fprobe)
		nfp = own_count(ev, "fp");
	else
		want_fp = 0;
	ops = site_ops();
	ok = nft == want_ft * NR && nkp == want_kp * NR && nfp == want_fp * NR;
	if (callers && want_ops >= 2 && ops != want_ops)
		ok = false;
	ksft_test_result(ok, "%s: function %ld kprobe %ld fprobe %ld (want %d %d %d), ops %ld\n",
			 name, nft, nkp, nfp, want_ft * NR, want_kp * NR,
			 want_fp * NR, ops);
}

static int tracer(bool on)
{
	return inst_write(ft, "current_tracer", on ? "function" : "nop");
}

static int event(const char *name, bool on)
{
	char what[64];

	snprintf(what, sizeof(what), GROUP "/%s", name);
	return own_enable(ev, what, on);
}

static void toggle_under_load(void)
{
	unsigned long t0 = taint();
	int i, ret = 0, status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		ksft_exit_fail_msg("fork: %s\n", strerror(errno));
	if (!pid) {
		calls(200000);
		_exit(0);
	}
	for (i = 0; i < 50 && !ret; i++) {
		ret = event("gp", false);
		if (!ret)
			ret = event("gp", true);
	}
	waitpid(pid, &status, 0);
	ksft_test_result(!ret && WIFEXITED(status) && taint() == t0,
			 "50 toggles of the kprobe event under load: %s, taint %lu\n",
			 ret ? strerror(-ret) : "done", taint());
}

int main(void)
{
	char buf[64];
	int ret;

	ksft_print_header();
	if (geteuid())
		ksft_exit_skip("not root\n");
	if (!find_tracefs())
		ksft_exit_skip("no tracefs\n");
	if (!kconfig_has("CONFIG_KPROBES_ON_FTRACE"))
		ksft_exit_skip("no CONFIG_KPROBES_ON_FTRACE\n");
	/* unknown (no kernel config to read): on once a site shows a caller */
	callers = kconfig_has("CONFIG_DYNAMIC_FTRACE_SITE_CALLERS") > 0;

	ft = own_instance("ft", false);
	ev = own_instance("ev", true);
	if (!ft || !ev)
		ksft_exit_fail_msg("cannot make the trace instances\n");
	snprintf(buf, sizeof(buf), "%d", getpid());
	if (inst_write(ft, "set_ftrace_pid", buf) ||
	    inst_write(ft, "set_ftrace_filter", SITE))
		ksft_exit_skip("the function tracer cannot filter %s\n", SITE);
	remove_event_group("kprobe_events", GROUP);
	if (write_str(tpath("kprobe_events"),
		      "p:" GROUP "/gp __x64_sys_getpid", true))
		ksft_exit_skip("no kprobe event on __x64_sys_getpid\n");
	/* An fprobe event registers its fprobe when it is made */
	have_fprobe = !access(tpath("dynamic_events"), W_OK);

	ksft_set_plan(9);
	ksft_print_msg("site callers %s, fprobe events %s\n",
		       callers ? "on" : "off", have_fprobe ? "on" : "off");

	ret = tracer(true);
	if (ret)
		ksft_exit_fail_msg("function tracer: %s\n", strerror(-ret));
	step("function tracer alone", 1, 0, 0, 1);
	event("gp", true);
	step("function tracer and kprobe", 1, 1, 0, 2);
	if (have_fprobe &&
	    (write_str(tpath("dynamic_events"), "f:" GROUP "/fp " SITE, true) ||
	     event("fp", true))) {
		ksft_print_msg("no fprobe event on %s\n", SITE);
		have_fprobe = false;
	}
	step("function tracer, kprobe, fprobe", 1, 1, 1, have_fprobe ? 3 : 2);
	event("gp", false);
	step("function tracer and fprobe", 1, 0, 1, have_fprobe ? 2 : 1);
	tracer(false);
	step("fprobe alone", 0, 0, 1, 1);
	event("gp", true);
	step("kprobe and fprobe", 0, 1, 1, have_fprobe ? 2 : 1);
	tracer(true);
	step("all three again", 1, 1, 1, have_fprobe ? 3 : 2);
	toggle_under_load();
	step("all three after the toggles", 1, 1, 1, have_fprobe ? 3 : 2);

	tracer(false);
	event("gp", false);
	if (have_fprobe) {
		event("fp", false);
		write_str(tpath("dynamic_events"), "-:" GROUP "/fp", true);
	}
	remove_event_group("kprobe_events", GROUP);
	ksft_finished();
}
