#!/usr/bin/env bash
# Install what memcgsim needs from Debian 12's packages (when missing) and
# build it in ./build. Idempotent; run as root on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
PKGS="build-essential cmake pkg-config libsimgrid-dev libglib2.0-dev libjansson-dev libgsl-dev gnuplot-nox groff-base"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
	SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
	$SUDO apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq $missing
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
