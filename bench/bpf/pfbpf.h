/* SPDX-License-Identifier: GPL-2.0 */
#ifndef PFBPF_H
#define PFBPF_H
/* bpf_get_numa_node_id() calls per BPF_PROG_TEST_RUN of pfb_driver */
#define PFB_BATCH	100
#endif
