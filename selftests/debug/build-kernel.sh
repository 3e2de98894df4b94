#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build (once) the debug kernel for the VM test harness: x86_64_defconfig +
# selftests/debug/debug.config (KASAN, UBSAN, kmemleak, lockdep, ...), from
# Debian's linux-source-6.12 tree (scripts/linux-source.sh).
#
# The build lives outside the clone, in
#   ${UET_CACHE:-/var/cache/uet}/debug-kernel/<key>/
# where <key> hashes the linux-source package version, debug.config and this
# script.  The last (only) stdout line is that directory: it holds
# arch/x86/boot/bzImage and works as KDIR for out-of-tree modules
# (make -C <dir> M=<module dir> modules).  Progress goes to stderr; the full
# make output to <dir>/build.log.  A finished build is reused instantly;
# concurrent invocations serialise on a lock; only the two most recent
# older builds are kept.
#
# Usage: selftests/debug/build-kernel.sh
set -euo pipefail

me=$(readlink -f "${BASH_SOURCE[0]}")
here=${me%/*}
repo=${here%/selftests/debug}
fragment=$here/debug.config
cache=${UET_CACHE:-/var/cache/uet}
base=$cache/debug-kernel
keep_old=2

log() { echo "build-kernel.sh: $*" >&2; }
die() { log "error: $*"; exit 1; }

ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null) ||
	die "package linux-source-6.12 not installed (run 'make deps')"
key=$({ printf '%s\n' "$ver"; cat "$fragment" "$me"; } | sha256sum | cut -c1-12)
dir=$base/$key
stamp=$dir/.uet-build-done

# Fast path: nothing to do.
if [ -e "$stamp" ]; then
	echo "$dir"
	exit 0
fi

mkdir -p "$base"
exec 9>"$base/.lock"
if ! flock -n 9; then
	log "another build is running, waiting for it"
	flock 9
fi
if [ -e "$stamp" ]; then
	echo "$dir"
	exit 0
fi

# Settings inherited from a calling make or shell must not leak into kbuild
# (e.g. M=/V= from a parent make's MAKEFLAGS, a stray KBUILD_OUTPUT).
unset MAKEFLAGS MAKELEVEL MFLAGS MAKEOVERRIDES GNUMAKEFLAGS \
	ARCH SUBARCH CROSS_COMPILE LLVM KBUILD_OUTPUT KBUILD_EXTMOD KCONFIG_CONFIG

# Drop builds of other keys: unfinished ones (we hold the lock, so they are
# dead) and all but the $keep_old most recently finished ones.
prune() {
	local d n=0
	for d in "$base"/*/; do
		d=${d%/}
		[[ ${d##*/} =~ ^[0-9a-f]{12}$ ]] || continue
		[ "$d" != "$dir" ] || continue
		[ -e "$d/.uet-build-done" ] && continue
		log "removing unfinished build $d"
		rm -rf -- "$d"
	done
	while read -r _ d; do
		[ "$d" != "$dir" ] || continue
		n=$((n + 1))
		[ "$n" -gt "$keep_old" ] || continue
		log "removing old build $d"
		rm -rf -- "$d"
	done < <(find "$base" -mindepth 2 -maxdepth 2 -name .uet-build-done \
			-printf '%T@ %h\n' | sort -rn)
}
prune

src=$("$repo/scripts/linux-source.sh" | tail -n1)
[ -f "$src/Makefile" ] || die "no kernel source at '$src'"

mkdir -p "$dir"
buildlog=$dir/build.log
: >"$buildlog"
kmake=(make -C "$src" O="$dir")

fail() {
	log "error: $1 failed; last lines of $buildlog:"
	tail -n 40 "$buildlog" >&2
	exit 1
}
elapsed() { printf '%dm%02ds' $((SECONDS / 60)) $((SECONDS % 60)); }

# Configure: defconfig, merge the fragment, resolve dependencies.
log "configuring $dir (linux-source $ver)"
"${kmake[@]}" x86_64_defconfig >>"$buildlog" 2>&1 || fail "x86_64_defconfig"
(cd "$src" && scripts/kconfig/merge_config.sh -m -O "$dir" \
	"$dir/.config" "$fragment") >>"$buildlog" 2>&1 || fail "merge_config.sh"
"${kmake[@]}" olddefconfig >>"$buildlog" 2>&1 || fail "olddefconfig"

# Verify: every fragment line must have survived olddefconfig unchanged.
bad=()
while IFS= read -r line; do
	case $line in
	CONFIG_*=*)
		grep -qxF -- "$line" "$dir/.config" && continue
		got=$(grep -m1 "^${line%%=*}=" "$dir/.config" || true)
		bad+=("$line (got: ${got:-not set})")
		;;
	"# CONFIG_"*" is not set")
		sym=${line#"# "}
		sym=${sym%% *}
		got=$(grep -m1 "^$sym=" "$dir/.config" || true)
		[ -z "$got" ] || bad+=("$line (got: $got)")
		;;
	esac
done <"$fragment"
if [ "${#bad[@]}" -gt 0 ]; then
	log "error: olddefconfig dropped/changed ${#bad[@]} option(s) of $fragment:"
	printf '  %s\n' "${bad[@]}" >&2
	exit 1
fi

# Build.  A heartbeat keeps callers with silence timeouts happy; it must
# neither hold the lock nor leave a stray sleep holding the caller's pipes.
log "building bzImage + modules with $(nproc) jobs (log: $buildlog)"
(
	exec 9>&- >/dev/null
	s=
	trap 'kill $s 2>/dev/null; exit 0' TERM
	while :; do
		sleep 120 &
		s=$!
		wait "$s"
		log "  still building ($(elapsed))"
	done
) &
heartbeat=$!
trap 'kill "$heartbeat" 2>/dev/null || true' EXIT
"${kmake[@]}" -j"$(nproc)" bzImage modules_prepare modules \
	>>"$buildlog" 2>&1 || fail "kernel build"
kill "$heartbeat" 2>/dev/null || true

for f in arch/x86/boot/bzImage Module.symvers; do
	[ -s "$dir/$f" ] || fail "kernel build (no $f)"
done

# Smoke test: an external module must build against the tree (KDIR use).
tmp=$(mktemp -d)
trap 'kill "$heartbeat" 2>/dev/null || true; rm -rf -- "$tmp"' EXIT
cat >"$tmp/uet_kdir_probe.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0
#include <linux/module.h>
static int __init probe_init(void) { return 0; }
static void __exit probe_exit(void) { }
module_init(probe_init);
module_exit(probe_exit);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := uet_kdir_probe.o' >"$tmp/Kbuild"
echo "== external module probe" >>"$buildlog"
make -C "$dir" M="$tmp" modules >>"$buildlog" 2>&1 ||
	fail "external module build (KDIR)"
[ -s "$tmp/uet_kdir_probe.ko" ] || fail "external module build (no .ko)"

touch "$stamp"
log "done in $(elapsed)"
echo "$dir"
