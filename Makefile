# SPDX-License-Identifier: GPL-2.0
# probe-fastpath: see README.md.  Every target is a script in scripts/.

.PHONY: all bench check check-debug check-bpf deps fetch apply export checkpatch build initramfs shell bisect-check config-matrix hardening clean distclean help

all: bench

help:
	@echo "make bench       build base + patched kernels, boot both, print the timing table; results/v<N>/ with its chart"
	@echo "make check       the tests: pin, apply, checkpatch, build, boot, KUnit + ftracetest + kselftests"
	@echo "make check-debug the same tests on a lockdep/PROVE_RCU/DEBUG_ATOMIC_SLEEP kernel"
	@echo "make check-bpf   the kernel's uprobe BPF selftests on base and patched, side by side"
	@echo "make deps        apt-get install what everything needs"
	@echo "make fetch       fetch and verify the pinned base into build/linux (tag 'base')"
	@echo "make apply       reset build/linux branch 'series' to base and git am patches/"
	@echo "make export      write build/linux's base..series back to patches/"
	@echo "make checkpatch  scripts/checkpatch.pl --strict on every patch"
	@echo "make build       build the patched kernel (build/obj/patched)"
	@echo "make shell       boot the patched kernel with a shell on the console"
	@echo "make bisect-check   build every prefix of the series"
	@echo "make config-matrix  build with KPROBES/UPROBES/FUNCTION_TRACER/DYNAMIC_FTRACE/BPF_SYSCALL off, PREEMPT_NONE, i386"
	@echo "make hardening   bisect-check + config-matrix + check-debug, one summary line"

bench:
	@scripts/bench

check:
	@scripts/check

check-debug:
	@DEBUG_KERNEL=1 scripts/check

check-bpf:
	@scripts/check-bpf

deps:
	@scripts/deps

fetch: deps
	@scripts/fetch-base

apply: fetch
	@scripts/apply

export:
	@scripts/export

checkpatch:
	@scripts/checkpatch

build: apply
	@scripts/build-kernel patched

initramfs: build
	@scripts/mkinitramfs patched

shell: initramfs
	@VM_TIMEOUT=86400 scripts/run-vm patched shell /dev/stderr wall || true

bisect-check: apply
	@scripts/bisect-check

config-matrix: apply
	@scripts/config-matrix

hardening: apply
	@scripts/hardening

# results/v<N>/ and results/history.md are committed; the rest is run output
RUN_OUTPUT = results/check results/check-debug results/check-bpf results/bench results/hardening

clean:
	rm -rf build/obj build/initramfs-* $(RUN_OUTPUT)

distclean:
	rm -rf build $(RUN_OUTPUT)
