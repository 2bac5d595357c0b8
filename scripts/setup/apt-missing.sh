#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install those of the Debian packages PKG... that are not installed yet
# (apt-get, as root or through sudo); nothing when all are. With
# --no-daemons, the packages' scripts start no service while they install
# (a policy-rc.d of the machine's own is left as it is), and recommended
# packages are left out.
# Usage: scripts/setup/apt-missing.sh [--no-daemons] PKG...
set -euo pipefail
no_daemons=""
[ "${1:-}" = --no-daemons ] && { no_daemons=yes; shift; }
missing=""
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
$SUDO apt-get update -qq
policy="" extra=""
[ -z "$no_daemons" ] || extra=--no-install-recommends
if [ -n "$no_daemons" ] && [ ! -e /usr/sbin/policy-rc.d ]; then
	policy=yes
	printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
	$SUDO chmod +x /usr/sbin/policy-rc.d
fi
status=0
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $extra $missing || status=$?
[ -z "$policy" ] || $SUDO rm -f /usr/sbin/policy-rc.d
exit $status
