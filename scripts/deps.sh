#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install every Debian package that building, testing and demonstrating uet
# needs.  Idempotent: when all are present it only checks and returns.
set -euo pipefail

pkgs=(
	# kernels: Debian's 6.12 (target; pulls its image for the VM) and
	# Debian 12's default 6.1 (must build too); source for checkpatch,
	# kselftest headers, YNL and the debug kernel
	linux-headers-6.12-amd64 linux-headers-amd64 linux-source-6.12
	# module and userspace build
	build-essential make gcc clang libclang-rt-14-dev sparse pkg-config
	libnl-genl-3-dev libmnl-dev libibverbs-dev
	# debug kernel build
	bc bison flex libelf-dev libssl-dev cpio kmod xz-utils zstd
	# VM harness and the programs copied into the guest
	qemu-system-x86 busybox-static iproute2 rdma-core ibverbs-utils
	ibverbs-providers perftest rdmacm-utils iperf3 tcpdump coreutils jq
	util-linux
	# middleware over uet between the pair VMs (middleware.sh)
	libfabric-bin ucx-utils openmpi-bin libopenmpi-dev openssh-client
	openssh-server
	# install; the man page's format check
	dkms groff-base
	# netlink spec tooling
	python3-yaml python3-jsonschema
	# the plots of make lab
	gnuplot-nox
)

missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null | grep -qx installed ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
