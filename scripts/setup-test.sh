#!/usr/bin/env bash
# What the test suite needs beyond the build (when missing), from Debian 12's
# packages: headless Chromium to render the HTML report, a single-node Slurm
# (slurm-wlm, munge) and GNU parallel to run sharded sweeps for real, groff
# and dpkg-dev for the man page and .deb checks. Idempotent; run as root.
set -euo pipefail
PKGS="chromium parallel slurm-wlm munge groff-base dpkg-dev"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	# no daemon is started by the packages' scripts: the tests start their own
	# (a policy-rc.d of the machine's own is left as it is)
	own_policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		own_policy=yes
		printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
		$SUDO chmod +x /usr/sbin/policy-rc.d
	fi
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing
	[ -z "$own_policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
fi
