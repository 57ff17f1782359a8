#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=kselftest: only the series' kselftests (a quicker check.sh for
# development: scripts/run-vm patched kselftest LOG).
sed -n '/^# The series. kselftests/,$p' /root/check.sh > /tmp/k.sh
# pf.only=TEST[,TEST...] on the kernel command line (run-vm's extra
# arguments) runs only those
for arg in $(cat /proc/cmdline); do
	case $arg in
	pf.only=*) only=$(echo "${arg#pf.only=}" | tr , '|') ;;
	esac
done
if [ -n "$only" ]; then
	grep -E ":($only)\$" /kselftest/kselftest-list.txt > /tmp/list
	cp /tmp/list /kselftest/kselftest-list.txt
fi
rc=0
kmemleak=/sys/kernel/debug/kmemleak
. /tmp/k.sh
