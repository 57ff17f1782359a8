// SPDX-License-Identifier: GPL-2.0
/*
 * The BPF side of pfbpf: one counting program per attach type, and the
 * in-kernel trigger of the kernel-probe rows.  The shape follows
 * tools/testing/selftests/bpf/progs/trigger_bench.c (bench trig-*): the
 * kernel rows probe bpf_get_numa_node_id(), which pfb_driver calls
 * PFB_BATCH times per BPF_PROG_TEST_RUN.
 *
 * Every probe program adds one to hits[0]; no CO-RE relocation is used, so
 * the object loads on a kernel without DEBUG_INFO_BTF.
 */
#include <stdbool.h>
#include <linux/bpf.h>
#include <linux/ptrace.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
/* the kernels measured have bpf_get_attach_cookie(): no CO-RE check */
#define BPF_USDT_HAS_BPF_COOKIE 1
#include <bpf/usdt.bpf.h>
#include "pfbpf.h"

char _license[] SEC("license") = "GPL";

struct {
	__uint(type, BPF_MAP_TYPE_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} hits SEC(".maps");

static __always_inline int count(void)
{
	__u32 zero = 0;
	__u64 *v = bpf_map_lookup_elem(&hits, &zero);

	if (v)
		__sync_fetch_and_add(v, 1);
	return 0;
}

SEC("raw_tp")
int pfb_driver(void *ctx)
{
	int i;

	for (i = 0; i < PFB_BATCH; i++)
		(void)bpf_get_numa_node_id();	/* the kernel rows' probe site */
	return 0;
}

/* kprobes and kretprobes (perf-event links) */
SEC("kprobe")
int pfb_kprobe(struct pt_regs *ctx)
{
	return count();
}

/* kprobe_multi and, attached with .retprobe, kretprobe_multi */
SEC("kprobe.multi")
int pfb_kprobe_multi(struct pt_regs *ctx)
{
	return count();
}

/* uprobes and uretprobes (perf-event links) */
SEC("uprobe")
int pfb_uprobe(struct pt_regs *ctx)
{
	return count();
}

/* uprobe_multi and, attached with .retprobe, uretprobe_multi */
SEC("uprobe.multi")
int pfb_uprobe_multi(struct pt_regs *ctx)
{
	return count();
}

SEC("usdt")
int BPF_USDT(pfb_usdt)
{
	return count();
}
