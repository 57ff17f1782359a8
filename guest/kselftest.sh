#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=kselftest: only the series' kselftests (a quicker check.sh for
# development: scripts/run-vm patched kselftest LOG).
sed -n '/^# The series. kselftests/,$p' /root/check.sh > /tmp/k.sh
rc=0
kmemleak=/sys/kernel/debug/kmemleak
. /tmp/k.sh
