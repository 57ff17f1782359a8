/* SPDX-License-Identifier: GPL-2.0 */
/*
 * QEMU 7.2 TCG: a hardware write watchpoint that fires in a TF single-step
 * stalls the guest CPU in the kernel's #DB handler.  Not a kernel bug, and
 * not the series': unmodified 6.12.117 (Debian's linux-source-6.12) does it.
 *
 * tf-watch.c (gcc -O1 -static -o tf-watch tf-watch.c): a traced child stores to a variable its
 * tracer watches with DR0/DR7 (write, 8 bytes).
 *   tf-watch plain   PTRACE_CONT: 3 watchpoint stops, right.
 *   tf-watch sstep   PTRACE_SINGLESTEP: the CPU that runs the child takes
 *                    a #DB with DR_STEP on asm_exc_debug+0 (WARN in
 *                    exc_debug_kernel()), then the same #DB again each time
 *                    it returns there; RCU stalls (below).
 *   tf-watch uprobe  PTRACE_CONT, a uprobe event on the store (single-
 *                    stepped by uprobes): the same (same console).
 * On hardware (and on the host here, sstep: 3 watchpoint stops, 66 steps)
 * DR6 reports DR_STEP and DR_TRAP0 in one #DB.  Ran it in the test VM with
 * a guest script that copies the binary in (guest/ scripts are copied to
 * /root; the logs come from `scripts/run-vm base ...`).
 *
 * Console of 6.12.117 (sstep):
 *   [    2.440885] WARNING: CPU: 1 PID: 87 at ../../linux-base/arch/x86/kernel/traps.c:1120 exc_debug_kernel+0xbc/0x170
 *   [    2.445465] RIP: 0010:asm_exc_debug+0x0/0x40
 *   [   23.443928] rcu: INFO: rcu_preempt detected stalls on CPUs/tasks:
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <signal.h>
#include <stddef.h>
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <sys/user.h>

volatile unsigned long var;
extern void wr_store(volatile unsigned long *p, unsigned long v);
asm(".text\n.globl wr_store\n.type wr_store,@function\nwr_store:\n"
    "mov %rsi,(%rdi)\n nop\n ret\n.size wr_store,.-wr_store\n");

static int wfile(const char *f, const char *s, int app)
{
	int fd = open(f, O_WRONLY | (app ? O_APPEND : O_TRUNC));
	if (fd < 0) { perror(f); return -1; }
	int r = write(fd, s, strlen(s));
	if (r < 0) perror(s);
	close(fd);
	return r < 0 ? -1 : 0;
}

static unsigned long fileoff(void *addr)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char l[512];
	unsigned long a = (unsigned long)addr;
	while (fgets(l, sizeof(l), f)) {
		unsigned long s, e, off;
		if (sscanf(l, "%lx-%lx %*s %lx", &s, &e, &off) == 3 && a >= s && a < e) {
			fclose(f);
			return a - s + off;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "uprobe";
	int n = argc > 2 ? atoi(argv[2]) : 3;
	char buf[256];
	int useprobe = !strcmp(mode, "uprobe");
	int sstep = !strcmp(mode, "sstep");

	if (useprobe) {
		snprintf(buf, sizeof(buf), "p:wr/st /proc/%d/exe:0x%lx\n", getpid(), fileoff(wr_store));
		/* resolve the exe path */
		char exe[200]; ssize_t k = readlink("/proc/self/exe", exe, sizeof(exe) - 1); exe[k] = 0;
		snprintf(buf, sizeof(buf), "p:wr/st %s:0x%lx\n", exe, fileoff(wr_store));
		if (wfile("/sys/kernel/tracing/uprobe_events", buf, 1) ||
		    wfile("/sys/kernel/tracing/events/wr/st/enable", "1", 0))
			return 2;
	}
	pid_t c = fork();
	if (!c) {
		ptrace(PTRACE_TRACEME, 0, 0, 0);
		raise(SIGSTOP);
		for (int i = 0; i < n; i++)
			wr_store(&var, i + 1);
		_exit(var == (unsigned long)n ? 0 : 1);
	}
	int st;
	waitpid(c, &st, 0);
	long r1 = ptrace(PTRACE_POKEUSER, c, offsetof(struct user, u_debugreg[0]), (void *)&var);
	/* DR7: L0|G0? use L0 (bit0), RW0=01 write, LEN0=11 (8 bytes): bits 16-19 = 0b1101 */
	long r2 = ptrace(PTRACE_POKEUSER, c, offsetof(struct user, u_debugreg[7]), (void *)(0x1UL | (0xdUL << 16)));
	printf("%s: poke %ld %ld, store at %p var %p\n", mode, r1, r2, wr_store, &var);
	fflush(stdout);
	alarm(20);
	int traps = 0, steps = 0;
	ptrace(sstep ? PTRACE_SINGLESTEP : PTRACE_CONT, c, 0, 0);
	for (;;) {
		if (waitpid(c, &st, 0) < 0) { perror("waitpid"); break; }
		if (WIFEXITED(st)) { printf("exit %d\n", WEXITSTATUS(st)); break; }
		if (WIFSIGNALED(st)) { printf("killed %d\n", WTERMSIG(st)); break; }
		int sig = WSTOPSIG(st);
		struct user_regs_struct regs;
		ptrace(PTRACE_GETREGS, c, 0, &regs);
		unsigned long dr6 = ptrace(PTRACE_PEEKUSER, c, offsetof(struct user, u_debugreg[6]), 0);
		if (sig == SIGTRAP) {
			if (dr6 & 0xf) {
				traps++;
				printf("watch trap %d ip %llx dr6 %lx var %lu\n", traps, regs.rip, dr6, var);
			} else
				steps++;
			sig = 0;
		} else
			printf("stop sig %d ip %llx\n", sig, regs.rip);
		ptrace(sstep ? PTRACE_SINGLESTEP : PTRACE_CONT, c, 0, (void *)(long)sig);
	}
	printf("%s: traps %d (want %d) steps %d\n", mode, traps, n, steps);
	if (useprobe) {
		wfile("/sys/kernel/tracing/events/wr/st/enable", "0", 0);
		system("cat /sys/kernel/tracing/uprobe_profile");
		wfile("/sys/kernel/tracing/uprobe_events", "-:wr/st\n", 1);
	}
	return 0;
}
