#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# What the test suite needs beyond the build (when missing), from Debian 12's
# packages: headless Chromium to render the HTML report, a single-node Slurm
# (slurm-wlm, munge) and GNU parallel to run sharded sweeps for real, groff
# and dpkg-dev for the man page and .deb checks, clang-format-14 for the
# formatting check. No daemon is started by
# the packages: the tests start their own. Idempotent; run as root.
set -euo pipefail
"$(dirname "$0")/apt-missing.sh" --no-daemons chromium parallel slurm-wlm munge groff-base dpkg-dev jq \
	clang-format-14
