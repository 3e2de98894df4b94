# SPDX-License-Identifier: GPL-2.0
#
# uet: Ultra Ethernet Transport as a software RDMA device.
#
#   make              module (against KDIR), libuet, uetctl, selftests
#   make check        everything, then the whole test suite (README)
#   make check-debug  only the debug-kernel part of it (KASAN, lockdep, ...)
#   make soak         hostile packets at a live device for SOAK_SECONDS (300),
#                     hostile netlink requests as long, then SOAK_ROUNDS
#                     (100) rounds of teardown under traffic
#   make demo         boot a VM, create uet devices, show them (README)
#   make bench        two VMs: perftest over uet and rxe, iperf3 (slow)
#   make lab          the fabric lab: incast, congestion control (slow)
#   make profile      one VM: where the engine's time goes (perf)
#   make profile-pair two VMs: the same for perftest, uet beside rxe
#   make deps         install the Debian packages all of this needs
#   make netlink-gen  regenerate the netlink code from its YNL spec
#   make install      module (to /lib/modules/KVER/updates), uetctl (with
#                     its man page and bash completion), libuet
#   make dkms-install register the module with DKMS, built for every kernel
#
# KDIR defaults to the running kernel's headers when installed, else to the
# newest installed Debian 6.12 headers (the kernel the VM tests boot).  The
# test suite builds the module for every kernel it needs by itself.

TOP := $(CURDIR)
BUILD := $(TOP)/build

newest = $(lastword $(sort $(notdir $(wildcard /lib/modules/$(1)*-amd64))))
RUNNING := $(shell uname -r)
KVER ?= $(if $(wildcard /lib/modules/$(RUNNING)/build/Makefile),$(RUNNING),$(call newest,6.12.))
KDIR ?= /lib/modules/$(KVER)/build
KMOD_OUT := $(BUILD)/kmod-$(KVER)

PREFIX ?= /usr/local
DESTDIR ?=

all: module userspace selftests

deps:
	@scripts/deps.sh

netlink-gen:
	scripts/ynl-gen.sh

module:
	scripts/kmod.sh $(KDIR) $(KMOD_OUT)

userspace:
	$(MAKE) -C userspace/libuet
	$(MAKE) -C tools/uetctl

selftests:
	$(MAKE) -C selftests install
	$(MAKE) -C selftests/unit

check:
	@scripts/deps.sh
	@selftests/check.sh

check-debug:
	@scripts/deps.sh
	@UET_CHECK_ONLY="debug-kernel vm-debug debug-planted" selftests/check.sh

# inject.sh with a longer injection, netlink.sh with a longer run of its
# fuzzer; the guest's and the test's time limits grow with them.
SOAK_SECONDS ?= 300
SOAK_TEST_LIMIT = $(shell echo $$(($(SOAK_SECONDS) + 600)))
SOAK_VM_LIMIT = $(shell echo $$(($(SOAK_SECONDS) + 900)))
# teardown.sh: a round is four teardowns of some 10 s each, a minute at most
SOAK_ROUNDS ?= 100
SOAK_TD_LIMIT = $(shell echo $$(($(SOAK_ROUNDS) * 60 + 600)))
SOAK_TD_VM_LIMIT = $(shell echo $$(($(SOAK_ROUNDS) * 60 + 900)))
soak:
	@scripts/deps.sh
	@selftests/vm/run-suite.sh selftests --timeout $(SOAK_VM_LIMIT) \
		--append 'UET_TESTS="inject.sh" UET_INJECT_SECONDS=$(SOAK_SECONDS) kselftest_override_timeout=$(SOAK_TEST_LIMIT)'
	@selftests/vm/run-suite.sh selftests --timeout $(SOAK_VM_LIMIT) \
		--append 'UET_TESTS="netlink.sh" UET_NLFUZZ_SECONDS=$(SOAK_SECONDS) kselftest_override_timeout=$(SOAK_TEST_LIMIT)'
	@selftests/vm/run-suite.sh selftests --timeout $(SOAK_TD_VM_LIMIT) \
		--append 'UET_TESTS="teardown.sh" UET_TEARDOWN_LOOPS=$(SOAK_ROUNDS) kselftest_override_timeout=$(SOAK_TD_LIMIT)'

demo:
	@scripts/deps.sh
	@selftests/vm/run-suite.sh demo

bench:
	@scripts/deps.sh
	@selftests/bench/run.sh

# The fabric lab: incast through an ECN-marking bottleneck, with and
# without congestion control, in one VM; figures, JSON and plots.
lab:
	@scripts/deps.sh
	@selftests/lab/run.sh

# Where the engine's time goes: perf in one VM during 1 MiB transfers.
profile:
	@scripts/deps.sh
	@UET_VM_EXTRA_PROGS=/usr/bin/perf selftests/vm/run-suite.sh selftests \
		--append 'UET_TESTS="engine_profile.sh"'

# The same for ib_write_bw and ib_send_bw between the pair's VMs, uet
# beside rxe: the sender's costs (VM a) and the receiver's (VM b).
PROFILE_SIZE ?= 4096
profile-pair:
	@scripts/deps.sh
	@UET_VM_EXTRA_PROGS=/usr/bin/perf selftests/vm/run-suite.sh pair \
		--link dgram --timeout 1800 --append \
		'UET_TESTS="bench.sh" UET_BENCH_PROFILE=$(PROFILE_SIZE)'

install: module userspace
	$(MAKE) -C $(KDIR) M=$(KMOD_OUT) INSTALL_MOD_DIR=updates modules_install
	depmod -a $(KVER)
	$(MAKE) -C userspace/libuet install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)
	$(MAKE) -C tools/uetctl install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

# DKMS builds from a copy in /usr/src/uet-VERSION (dkms.conf).
DKMS_VERSION := $(shell sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
DKMS_SRC := /usr/src/uet-$(DKMS_VERSION)
dkms-install:
	-dkms remove uet/$(DKMS_VERSION) --all >/dev/null 2>&1
	rm -rf $(DKMS_SRC)
	mkdir -p $(DKMS_SRC)/scripts
	cp -r dkms.conf Kbuild drivers include $(DKMS_SRC)/
	cp scripts/kmod.sh $(DKMS_SRC)/scripts/
	dkms install uet/$(DKMS_VERSION)

clean:
	rm -rf $(BUILD)
	$(MAKE) -C userspace/libuet clean
	$(MAKE) -C tools/uetctl clean
	$(MAKE) -C selftests clean
	$(MAKE) -C selftests/unit clean

.PHONY: all deps netlink-gen module userspace selftests check check-debug soak demo bench lab profile profile-pair install dkms-install clean
