#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest's initramfs from the host's own binaries and libraries.
#
# Usage: mkinitramfs.sh OUT.cpio.gz KO[:KO...] SELFTEST_DIR KERNEL
#   KO            uet.ko (and any test module) built for the guest kernel
#   SELFTEST_DIR  installed selftests (selftests/Makefile install)
#   KERNEL        a Debian kernel release, whose modules (/lib/modules/KERNEL)
#                 the guest gets; or the build directory of a kernel with
#                 everything needed built in (the debug kernel)
#
# The guest runs bash as /init (selftests/vm/init) with real iproute2,
# rdma-core, perftest, iperf3, tcpdump and kmod; busybox provides the
# remaining small utilities; UET_VM_EXTRA_PROGS adds host programs (make
# profile adds perf, 30 MB with its libraries).  UET_VM_MIDDLEWARE=1 adds
# what the pair topology's middleware test runs (libfabric, UCX, Open MPI,
# OpenSSH: 35 MB), each package copied whole but for its documentation.
# Kernel modules are copied with their dependencies and indexed by depmod,
# so "modprobe" and the kernel's own module auto-loading work in the guest
# as on a real host.
set -euo pipefail

out=$1 kos=$2 selftests=$3 kernel=$4
here=$(cd "$(dirname "$0")" && pwd)

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
# mktemp makes it 0700; the guest's / must be open to unprivileged tests
chmod 755 "$root"

# Programs that tests and the demo call by name.
progs=(
	/usr/bin/bash /usr/bin/env /usr/bin/timeout /usr/bin/stdbuf
	/usr/bin/ip /usr/sbin/tc /usr/bin/rdma /usr/sbin/bridge /usr/bin/ss
	/usr/bin/ibv_devices /usr/bin/ibv_devinfo
	/usr/bin/ibv_rc_pingpong /usr/bin/ibv_ud_pingpong /usr/bin/ibv_uc_pingpong
	/usr/bin/ibv_srq_pingpong /usr/bin/rping /usr/bin/ucmatose /usr/bin/udaddy
	/usr/bin/iperf3 /usr/bin/tcpdump /usr/bin/kmod
	/usr/bin/jq /usr/bin/setpriv
)
progs+=(/usr/bin/ib_*_bw /usr/bin/ib_*_lat)
# shellcheck disable=SC2206
progs+=(${UET_VM_EXTRA_PROGS:-})

# Kernel modules the tests load; dependencies are added automatically.
mods=(virtio_net veth sch_netem sch_tbf sch_red sch_ingress cls_bpf cls_u32 act_gact ib_core ib_uverbs rdma_ucm
      rdma_rxe crc32_generic udp_tunnel ip6_udp_tunnel gcm cmac aesni_intel ghash_clmulni_intel
      esp4 xfrm_user seqiv)

# A merged-/usr layout, as on the host, so every library path resolves.
mkdir -p "$root"/{dev,etc/libibverbs.d,proc,run,sys,tmp,root,opt} \
	 "$root"/usr/{bin,sbin,lib,lib64}
for d in bin sbin lib lib64; do
	ln -s "usr/$d" "$root/$d"
done

copy() {	# copy a file to the same path in the guest, keeping symlinks
	local f=$1
	[ -e "$root$f" ] && return 0
	mkdir -p "$root$(dirname "$f")"
	cp -a "$f" "$root$f"
	if [ -L "$f" ]; then	# one link at a time: /etc/alternatives too
		local t
		t=$(readlink "$f")
		[ "${t#/}" != "$t" ] || t=$(dirname "$f")/$t
		copy "$t"
	fi
}

copy_with_libs() {
	local f=$1 lib
	[ "${f#/}" != "$f" ] || f=$(command -v "$f")
	copy "$f"
	for lib in $(ldd "$f" 2>/dev/null | grep -o '/[^ ]*'); do
		copy "$lib"
	done
}

for p in "${progs[@]}"; do
	copy_with_libs "$p"
done

# copy_pkg PKG...: every file of the Debian packages but documentation,
# ELF files with the libraries they need
copy_pkg() {
	local f
	dpkg -L "$@" | grep -vE '^/usr/share/(doc|man|lintian)/' |
	while read -r f; do
		[ -f "$f" ] || continue
		if head -c 4 "$f" | grep -q ELF; then
			copy_with_libs "$f"
		else
			copy "$f"
		fi
	done
}

copy /usr/libexec/coreutils/libstdbuf.so
# glibc loads it when a thread exits (rping's threads)
copy /usr/lib/x86_64-linux-gnu/libgcc_s.so.1
for a in modprobe insmod rmmod lsmod depmod modinfo; do
	ln -s ../bin/kmod "$root/usr/sbin/$a"
done
# busybox for every other small utility.
cp /bin/busybox "$root/usr/bin/busybox"
for a in $("$root/usr/bin/busybox" --list); do
	[ -e "$root/usr/bin/$a" ] || [ -e "$root/usr/sbin/$a" ] ||
		ln -s busybox "$root/usr/bin/$a"
done

# rdma-core: only the rxe provider, which drives uet and rxe devices.
copy /etc/libibverbs.d/rxe.driver
copy_with_libs /usr/lib/x86_64-linux-gnu/libibverbs/librxe-rdmav34.so

echo 'root:x:0:0:root:/root:/bin/bash' >"$root/etc/passwd"
echo 'root:x:0:' >"$root/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' >"$root/etc/hosts"

if [ "${UET_VM_MIDDLEWARE:-0}" = 1 ]; then
	copy_pkg libfabric1 libfabric-bin libucx0 ucx-utils \
		openmpi-bin openmpi-common libopenmpi3 libpmix2 libhwloc15 \
		openssh-client openssh-server openssh-sftp-server
	# the names Debian's alternatives give mpirun
	copy /usr/bin/mpirun
	copy /usr/bin/mpiexec
	# mpirun starts its daemons on the other VM over ssh, as root with a
	# key made for this image alone; sshd's privilege separation user
	echo 'sshd:x:100:65534::/run/sshd:/usr/sbin/nologin' >>"$root/etc/passwd"
	echo 'nogroup:x:65534:' >>"$root/etc/group"
	mkdir -p -m 700 "$root/root/.ssh"
	ssh-keygen -q -t ed25519 -N '' -C uet-vm -f "$root/root/.ssh/id_ed25519"
	cp "$root/root/.ssh/id_ed25519.pub" "$root/root/.ssh/authorized_keys"
	printf '%s\n' 'Host *' '	StrictHostKeyChecking no' \
		'	UserKnownHostsFile /dev/null' '	LogLevel ERROR' \
		>"$root/root/.ssh/config"
fi

if [ ! -d "$kernel" ]; then
	kver=$kernel
	md=/lib/modules/$kver
	for m in "${mods[@]}"; do
		modprobe -S "$kver" --show-depends "$m" |
			awk '$1 == "insmod" { print $2 }'
	done | sort -u | while read -r f; do
		copy "$f"
	done
	cp "$md"/modules.{order,builtin,builtin.modinfo} "$root$md/"
else
	kver=$(cat "$kernel/include/config/kernel.release")
	md=/lib/modules/$kver
	mkdir -p "$root$md"
	# modprobe of a built-in module succeeds when modules.builtin lists it
	cp "$kernel"/modules.builtin{,.modinfo} "$root$md/"
	touch "$root$md/modules.order"
fi
mkdir -p "$root$md/updates"
IFS=: read -ra kolist <<<"$kos"
cp "${kolist[@]}" "$root$md/updates/"
depmod -b "$root" "$kver"

cp -a "$selftests" "$root/opt/uet-selftests"
cp "$here/init" "$root/init"
chmod +x "$root/init"

(cd "$root" && find . -print0 | cpio --null -o -H newc --quiet) |
	gzip -1 >"$out"
