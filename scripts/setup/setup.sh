#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Install what memcgsim needs from Debian 12's packages (when missing) and
# build it in ./build. Idempotent; run as root on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/../.."
./scripts/setup/apt-missing.sh build-essential cmake pkg-config libsimgrid-dev libglib2.0-dev \
	libjansson-dev libgsl-dev gnuplot-nox groff-base
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j "$(nproc)"
