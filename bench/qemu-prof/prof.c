// SPDX-License-Identifier: GPL-2.0
/*
 * A QEMU TCG plugin for scripts/profile: how many times each kernel
 * instruction ran.  Every translated block at a kernel address gets an
 * inline counter; at exit, "address count" lines go to out=FILE, sorted,
 * summed over the translations of an address.  A block left early (an
 * interrupt, a fault) counts whole: small noise beside a loop of 100,000
 * probe hits.
 *
 * Written against the plugin API of QEMU 7.2 (version 1, Debian 12): its
 * few calls are declared here, so no QEMU headers are needed.  QEMU 9.0
 * changed the inline counter call (scoreboards); there, this needs porting.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT		__attribute__((visibility("default")))
#define KERNEL_START	0xffffffff80000000ull
#define INLINE_ADD_U64	0	/* enum qemu_plugin_op */

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
typedef struct {
	const char *target_name;
	int min, cur;
	bool system_emulation;
	union {
		struct {
			int smp_vcpus, max_vcpus;
		} system;
	};
} qemu_info_t;

typedef void (*tb_trans_cb)(qemu_plugin_id_t, struct qemu_plugin_tb *);
typedef void (*atexit_cb)(qemu_plugin_id_t, void *);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t, tb_trans_cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *);
uint64_t qemu_plugin_tb_vaddr(const struct qemu_plugin_tb *);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *,
						 size_t);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *);
void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *, int op,
					      void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t, atexit_cb, void *);

EXPORT int qemu_plugin_version = 1;

/* One translation of a block: its instructions and how often it ran. */
struct block {
	uint64_t count;
	struct block *next;
	size_t n;
	uint64_t addr[];
};

static struct block *blocks;
static const char *out_path = "prof.out";

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	if (qemu_plugin_tb_vaddr(tb) < KERNEL_START)
		return;
	b = calloc(1, sizeof(*b) + n * sizeof(b->addr[0]));
	if (!b)
		return;
	b->n = n;
	for (i = 0; i < n; i++)
		b->addr[i] = qemu_plugin_insn_vaddr(qemu_plugin_tb_get_insn(tb, i));
	b->next = blocks;
	blocks = b;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, INLINE_ADD_U64, &b->count, 1);
}

struct insn_count {
	uint64_t addr, count;
};

static int by_addr(const void *a, const void *b)
{
	const struct insn_count *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static void write_counts(qemu_plugin_id_t id, void *unused)
{
	struct insn_count *v;
	size_t i, j, n = 0;
	struct block *b;
	FILE *f;

	for (b = blocks; b; b = b->next)
		if (b->count)
			n += b->n;
	v = malloc((n + 1) * sizeof(*v));
	f = fopen(out_path, "w");
	if (!v || !f)
		return;
	n = 0;
	for (b = blocks; b; b = b->next)
		for (i = 0; b->count && i < b->n; i++) {
			v[n].addr = b->addr[i];
			v[n++].count = b->count;
		}
	qsort(v, n, sizeof(*v), by_addr);
	for (i = 0; i < n; i = j) {
		uint64_t sum = 0;

		for (j = i; j < n && v[j].addr == v[i].addr; j++)
			sum += v[j].count;
		fprintf(f, "%llx %llu\n", (unsigned long long)v[i].addr,
			(unsigned long long)sum);
	}
	fclose(f);
	free(v);
}

EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
			       int argc, char **argv)
{
	if (argc > 0 && !strncmp(argv[0], "out=", 4))
		out_path = strdup(argv[0] + 4);
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
