#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot the test guest under QEMU, stream its serial console, and judge the
# run.  Two topologies:
#   single (default)  one VM; tests build their fabric from network
#                     namespaces joined by veth.  The VM has no NIC at all.
#   pair              two VMs, a and b, joined by a QEMU socket link on
#                     127.0.0.1 (virtio-net eth0 in each); for comparisons
#                     with rxe, which does not work inside a namespace.
# No VM ever gets user-mode networking: nothing a test sends leaves the host.
#
# A run fails when a test reports "not ok", when the guest does not reach
# its result marker before the timeout, or when the guest log holds a kernel
# warning, BUG, oops or sanitizer report.  The logs of failed runs are kept.
#
# Usage: run-vm.sh --kernel BZIMAGE --initrd CPIO [--pair] [--suite NAME]
#                  [--timeout SEC] [--logdir DIR] [--accel tcg|kvm]
#                  [--mem MIB] [--smp N] [--append "KERNEL ARGS"]
#
# UET_NIC_OPTS (environment): extra virtio-net-pci properties of the pair
# topology's NICs, e.g. ",mrg_rxbuf=off" for linear receive buffers.
set -uo pipefail

kernel='' initrd='' pair=0 suite=selftests timeout=900 accel=tcg
logdir=${UET_LOGDIR:-/tmp/uet-vm-logs} mem=2048 append='' smp=''
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2; shift ;;
	--initrd) initrd=$2; shift ;;
	--pair) pair=1 ;;
	--suite) suite=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--logdir) logdir=$2; shift ;;
	--accel) accel=$2; shift ;;
	--mem) mem=$2; shift ;;
	--smp) smp=$2; shift ;;
	--append) append=$2; shift ;;
	*) echo "run-vm.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
[ -r "$kernel" ] && [ -r "$initrd" ] ||
	{ echo "run-vm.sh: --kernel and --initrd must name readable files" >&2; exit 2; }
case $accel in
tcg) cpu=max ;;
kvm) cpu=host ;;
*) echo "run-vm.sh: --accel must be tcg or kvm, not '$accel'" >&2; exit 2 ;;
esac

# Kernel reports that fail a run, whatever the tests said.
splat='WARNING:|BUG:|Oops|kernel BUG at|general protection fault|UBSAN:|KASAN:'
splat+='|KFENCE:|possible circular locking|possible recursive locking'
splat+='|inconsistent lock state|suspicious RCU usage|blocked for more than'
splat+='|unreferenced object|ODEBUG:|list_add corruption|list_del corruption'
splat+='|Kernel panic|detected stalls|NETDEV WATCHDOG|Call Trace:'

mkdir -p "$logdir"
run_id=$(date +%Y%m%d-%H%M%S)-$suite-$$
cmdline="console=ttyS0 loglevel=5 panic=-1 oops=panic acpi=noirq UET_SUITE=$suite $append"

free_port() {
	local p
	while :; do
		p=$((20000 + RANDOM % 20000))
		[ -z "$(ss -Hltn "sport = :$p")" ] && { echo "$p"; return; }
	done
}

# boot ROLE NETDEV-ARGS...: one VM, console to $logdir/$run_id-ROLE.log
boot() {
	local role=$1; shift
	timeout --kill-after=10 "$timeout" \
		qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m "$mem" \
		-smp "$smp" -display none -vga none -monitor none -serial stdio \
		-no-reboot "$@" -kernel "$kernel" -initrd "$initrd" \
		-append "$cmdline${role:+ UET_ROLE=$role}" </dev/null
}

# early_report LOG: the first kernel report of LOG came before the guest's
# init started the suite, so before any uet code ran.
early_report() {
	awk -v re="$splat" '
		/^uet-vm: suite/ { exit }
		$0 ~ re { early = 1; exit }
		END { exit !early }' "$1"
}

logs=()
if [ "$pair" = 0 ]; then
	smp=${smp:-2}
	for attempt in 1 2; do
		log=$logdir/$run_id-$attempt.log
		logs=("$log")
		# The kernel log dumped at the end stays in the log file only.
		boot '' -nic none 2>&1 | sed -u 's/\r//g' | tee "$log" |
			sed -u '/^UET-DMESG-BEGIN/,/^UET-DMESG-END/d'
		# Under TCG the debug kernel now and then reports a KASAN
		# wild-memory-access in early boot (handle_edge_irq during
		# identify_cpu), before init: boot once more, keeping the log.
		early_report "$log" || break
		echo "# kernel report in early boot, before the suite: booting again (log kept: $log)"
		mv "$log" "$log.early-boot"
	done
else
	smp=${smp:-1}
	port=$(free_port)
	logs=("$logdir/$run_id-a.log" "$logdir/$run_id-b.log")
	boot a -netdev "socket,id=n0,listen=127.0.0.1:$port" \
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:75:65:0a${UET_NIC_OPTS:-}" \
		2>&1 | sed -u 's/\r//g' >"${logs[0]}" &
	pid_a=$!
	for _ in $(seq 100); do
		[ -n "$(ss -Hltn "sport = :$port")" ] && break
		sleep 0.1
	done
	boot b -netdev "socket,id=n0,connect=127.0.0.1:$port" \
		-device "virtio-net-pci,netdev=n0,mac=52:54:00:75:65:0b${UET_NIC_OPTS:-}" \
		2>&1 | sed -u 's/\r//g' | tee "${logs[1]}" | sed -u 's/^/[b] /'
	wait "$pid_a"
	sed 's/^/[a] /' "${logs[0]}"
fi

pass=0 fail=0
for log in "${logs[@]}"; do
	name=$(basename "$log" .log)
	p=$(grep -cE '^ok [0-9]+ ' "$log")
	f=$(grep -cE '^not ok [0-9]+ ' "$log")
	pass=$((pass + p)) fail=$((fail + f))
	grep -E '^not ok [0-9]+ ' "$log" | sed "s/^/$name: /"
	if ! grep -q '^UET-VM-RESULT' "$log"; then
		echo "not ok - $name: guest did not finish (timeout ${timeout}s or crash)"
		fail=$((fail + 1))
	elif [ $((p + f)) -eq 0 ] && [ "$suite" != demo ]; then
		echo "not ok - $name: guest ran no test"
		fail=$((fail + 1))
	fi
	if grep -qE "$splat" "$log"; then
		echo "not ok - $name: kernel report in guest log:"
		grep -E "$splat" "$log" | sort -u | head -n 10 | sed 's/^/#   /'
		fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
done

if [ "$fail" -eq 0 ]; then
	rm -f "${logs[@]}"
else
	echo "# guest logs kept: ${logs[*]}"
fi
echo "vm($suite): $pass passed, $fail failed"
[ "$fail" -eq 0 ]
