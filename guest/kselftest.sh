#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# pf.mode=kselftest: only the series' kselftests, the same way check.sh runs
# them (a quicker check for development: scripts/run-vm patched kselftest
# LOG [pf.only=TEST[,TEST]]).
PF_KSELFTEST_ONLY=1 exec sh /root/check.sh
