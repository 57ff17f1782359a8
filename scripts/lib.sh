# SPDX-License-Identifier: GPL-2.0
# Common settings and helpers, sourced by every script in scripts/.
# shellcheck shell=bash

set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${BUILD:-$TOP/build}
RESULTS=${RESULTS:-$TOP/results}
# The kernel git tree: tag "base" is the pristine base, branch "series" the
# base plus patches/.  KERNEL_SRC= points at your own v6.12.y git tree instead.
KSRC=${KERNEL_SRC:-$BUILD/linux}
KSRC_BASE=$BUILD/linux-base          # worktree of tag "base" for make bench
OBJ=$BUILD/obj                        # O= build dirs: $OBJ/{base,patched}
JOBS=${JOBS:-$(nproc)}

export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/probe-fastpath-ccache}
export CCACHE_BASEDIR=$BUILD
export CCACHE_NOHASHDIR=true
export CCACHE_MAXSIZE=${CCACHE_MAXSIZE:-8G}
# Reproducible kernel identity, so ccache hits and icount numbers repeat.
export KBUILD_BUILD_TIMESTAMP='Thu Jan  1 00:00:00 UTC 2026'
export KBUILD_BUILD_USER=probe-fastpath
export KBUILD_BUILD_HOST=build

# shellcheck disable=SC1091
. "$TOP/BASE"

GIT_ID=(-c user.name="probe-fastpath" -c user.email="probe-fastpath@localhost")

log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
die() { printf '[%(%H:%M:%S)T] ERROR: %s\n' -1 "$*" >&2; exit 1; }

# stage NAME CMD...: run a long stage, say what it does and how long it took.
stage() {
	local name=$1 t0=$SECONDS rc=0
	shift
	log "==> $name"
	"$@" || rc=$?
	if [ $rc -ne 0 ]; then
		log "<== $name FAILED (rc=$rc) after $((SECONDS - t0))s"
		return $rc
	fi
	log "<== $name done in $((SECONDS - t0))s"
}

# The compiler for kernel builds: gcc through ccache when there is one.
kernel_cc() {
	if command -v ccache >/dev/null; then echo "ccache gcc"; else echo gcc; fi
}

# configure SRC OBJ [MAKE-ARG...] < FRAGMENT: the kernel config of every
# build here (build-kernel's base and patched, bisect-check's prefixes,
# config-matrix's variants): allnoconfig of SRC in OBJ with the fragment
# on standard input as KCONFIG_ALLCONFIG; make's output in OBJ/config.log.
configure() {
	local src=$1 obj=$2
	shift 2
	mkdir -p "$obj"
	cat > "$obj/fragment.config"
	make -s -C "$src" O="$obj" "$@" KCONFIG_ALLCONFIG="$obj/fragment.config" \
		allnoconfig >"$obj/config.log" 2>&1
}

# The patches named in patches/series, in order (quilt format: '#' comments,
# blank lines, optional -pN after the name).
series_patches() {
	[ -f "$TOP/patches/series" ] || return 0
	sed -e 's/#.*//' -e 's/[[:space:]].*//' -e '/^$/d' "$TOP/patches/series"
}

# The series' version N: the first "Changes in vN" line of the cover letter,
# as scripts/export puts it in the subjects ("[PATCH vN ...]"); empty if none.
series_version() {
	grep -m1 -o '^Changes in v[0-9]*' "$TOP/patches/cover-letter.txt" 2>/dev/null |
		grep -o '[0-9]*$' || true
}
