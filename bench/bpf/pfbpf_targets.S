/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The user probe sites of pfbpf: void pfb_<x>(void), in assembly so that
 * the probed first instruction is fixed whatever the compiler does.  The
 * names follow bench trig-uprobe-<x> of tools/testing/selftests/bpf.
 *
 *   pfb_nop     nop; ret                       (trig-uprobe-nop: emulated)
 *   pfb_push    push %rbp; ...; ret             (trig-uprobe-push: emulated)
 *   pfb_ret     ret                             (trig-uprobe-ret: single-stepped)
 *   pfb_nop5    nopl 0x0(%rax,%rax,1); ret      (trig-uprobe-nop5)
 *   pfb_nop10   nopw %cs:0x0(%rax,%rax,1); ret  (the 10-byte nop of GNU as)
 *   pfb_endbr   endbr64; ret                    (every function of a CET build)
 *   pfb_cmpb_rip cmpb $0x0,disp(%rip); ret      (glibc's read(), write() ...)
 *   pfb_usdt    a USDT probe "pfb:hit" on a nop, as <sys/sdt.h> makes one
 *   pfb_usdt5   a USDT probe on "nop; nop5", as libbpf's current usdt.h
 *               makes one: "pfb:hit5" at the nop, where its note points
 *               (and a libbpf without the nop5 choice probes), and
 *               "pfb:hit5o" at the nop5, where a libbpf that finds the
 *               uprobe system call answering ENXIO puts the probe instead
 */
.macro FUNC name
	.globl	\name
	.type	\name, @function
	.p2align 4
\name:
.endm

.macro ENDF name
	.size	\name, .-\name
.endm

	.text
FUNC pfb_nop
	nop
	ret
ENDF pfb_nop

FUNC pfb_push
	push	%rbp
	mov	%rsp, %rbp
	pop	%rbp
	ret
ENDF pfb_push

FUNC pfb_ret
	ret
ENDF pfb_ret

FUNC pfb_nop5
	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	ret
ENDF pfb_nop5

FUNC pfb_nop10
	.byte	0x66, 0x2e, 0x0f, 0x1f, 0x84, 0x00, 0x00, 0x00, 0x00, 0x00
	ret
ENDF pfb_nop10

FUNC pfb_endbr
	.byte	0xf3, 0x0f, 0x1e, 0xfa
	ret
ENDF pfb_endbr

/* glibc's single-thread check, at the entry of its system call wrappers */
FUNC pfb_cmpb_rip
	cmpb	$0x0, pfb_flag(%rip)
	ret
ENDF pfb_cmpb_rip

	.data
pfb_flag:
	.byte	0
	.text

/*
 * STAPSDT_NOTE site, name: a USDT probe pfb:name without arguments at
 * site, in the note format of <sys/sdt.h>: the site's address, the
 * address of .stapsdt.base (for prelink adjustment) and the semaphore's
 * (none), then provider and name.
 */
.macro STAPSDT_NOTE site, name
	.pushsection .note.stapsdt, "?", "note"
	.balign	4
	.4byte	992f - 991f, 994f - 993f, 3
991:	.asciz	"stapsdt"
992:	.balign	4
993:	.8byte	\site
	.8byte	_.stapsdt.base
	.8byte	0
	.asciz	"pfb"
	.asciz	"\name"
	.asciz	""
994:	.balign	4
	.popsection
.endm

FUNC pfb_usdt
990:	nop
	ret
ENDF pfb_usdt
	STAPSDT_NOTE 990b, hit

FUNC pfb_usdt5
995:	nop
996:	.byte	0x0f, 0x1f, 0x44, 0x00, 0x00
	ret
ENDF pfb_usdt5
	STAPSDT_NOTE 995b, hit5
	STAPSDT_NOTE 996b, hit5o

	.pushsection .stapsdt.base, "aG", "progbits", .stapsdt.base, comdat
	.weak	_.stapsdt.base
	.hidden	_.stapsdt.base
_.stapsdt.base:
	.space	1
	.popsection

	.section .note.GNU-stack, "", @progbits
