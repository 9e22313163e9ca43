# SPDX-License-Identifier: BSD-2-Clause
# gput: goodput tester. Plain Makefile a packager can drive:
#   make [CPPFLAGS=...] [CFLAGS=...] [LDFLAGS=...] [PREFIX=...]; make check;
#   make install DESTDIR=...
# Sanitizers and fuzzing (see below): make check-asan; make fuzz fuzz-smoke.
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
SBINDIR    ?= $(PREFIX)/sbin
LIBEXECDIR ?= $(PREFIX)/libexec
DATADIR    ?= $(PREFIX)/share
MANDIR     ?= $(DATADIR)/man
UNITDIR    ?= $(PREFIX)/lib/systemd/system
CC         ?= cc
CFLAGS     ?= -O2 -g
PKG_CONFIG ?= pkg-config
INSTALL    ?= install

WARN          := -std=gnu11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
                 -Wmissing-prototypes -Wpointer-arith -Wformat=2
PCAP_CFLAGS   := $(shell $(PKG_CONFIG) --cflags libpcap 2>/dev/null)
PCAP_LIBS     := $(shell $(PKG_CONFIG) --libs libpcap 2>/dev/null || echo -lpcap)
CMOCKA_CFLAGS := $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS   := $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null || echo -lcmocka)
CRYPTO_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcrypto 2>/dev/null)
CRYPTO_LIBS   := $(shell $(PKG_CONFIG) --libs libcrypto 2>/dev/null || echo -lcrypto)
# CPPFLAGS (Debian's -D_FORTIFY_SOURCE=2) and CFLAGS come after ours
FINAL_CFLAGS   = $(WARN) -pthread -D_GNU_SOURCE -Iinclude -MMD -MP $(CPPFLAGS) \
                 $(CFLAGS)
FINAL_LDFLAGS  = $(LDFLAGS) -pthread

# Conventions: src/main.c and src/pcap_main.c hold the two main()s; every
# other src/pcap*.c uses libpcap; src/auth.c uses OpenSSL's libcrypto (so
# everything that links src/libgput.a links libcrypto too); the rest of src/
# is plain C and POSIX.
MAINS      := src/main.c src/pcap_main.c
PCAP_SRCS  := $(filter-out $(MAINS),$(wildcard src/pcap*.c))
CORE_SRCS  := $(filter-out $(MAINS) $(PCAP_SRCS),$(wildcard src/*.c))
CORE_OBJS  := $(CORE_SRCS:.c=.o)
PCAP_OBJS  := $(PCAP_SRCS:.c=.o)
UNIT_SRCS  := $(wildcard tests/unit_*.c)
UNIT_BINS  := $(UNIT_SRCS:.c=)
TEST_TOOLS := tests/ctlpeer tests/spoofproof tests/nogso.so tests/nomeminfo.so tests/ecnpeer \
              tests/framegen tests/inetdlog tests/flood tests/optlist
PROGS      := gput gput-pcap
# The testbed's delay line (tools/gput-testbed runs it; installed beside it).
TOOLS      := tools/gput-delay tools/gput-textfile
COMPLETION := tools/gput.bash
MANS       := man/gput.1 man/gput-pcap.1 man/gput-lab.1 man/gput-plot.1 man/plot-seq.1
MAN5       := man/gput-lab.5
# gput-lab's own tests (python3's unittest, PASS/FAIL lines as run-tests.sh reads)
UNIT_PY    := tests/unit_lab.py

.PHONY: all check unit live lint demo bench bench-pcap clean install uninstall need-pcap \
        need-cmocka need-crypto check-asan fuzz fuzz-smoke need-fuzz

all: $(PROGS) $(TOOLS) $(COMPLETION)

# bash completion, generated from the option lines of gput -h (the help
# table of cli_help.c), installed as DATADIR/bash-completion/completions/gput
$(COMPLETION): gput tools/gen-completion.sh
	sh tools/gen-completion.sh ./gput >$@.tmp && mv $@.tmp $@

# gput's version is the newest debian/changelog entry's (its upstream part,
# without a Debian revision): include/version.h is rewritten when the
# changelog names another, so gput -V, gput-pcap -V, the JSON reports and
# the installed gput-testbed --version follow the package's version. A tree
# without debian/ keeps include/version.h's.
VERSION := $(shell head -n 1 debian/changelog 2>/dev/null | cut -d' ' -f2 | tr -d '()' | \
             sed 's/-[^-]*$$//')
ifneq ($(VERSION),)
include/version.h: debian/changelog
	@grep -q '^#define GPUT_VERSION *"$(VERSION)"$$' $@ || \
	    sed -i 's/^\(#define GPUT_VERSION *\)".*"$$/\1"$(VERSION)"/' $@
else
VERSION := $(shell sed -n 's/^\#define GPUT_VERSION *"\(.*\)"$$/\1/p' include/version.h)
endif
# before the first build's -MMD lists them: the files that print it
src/main.o src/pcap_main.o src/report_json.o src/report_repeat.o: include/version.h

need-pcap:
	@$(PKG_CONFIG) --exists libpcap || { echo "gput: libpcap not found: install the Debian package libpcap-dev (or run tools/install-deps as root)" >&2; exit 1; }

need-cmocka:
	@$(PKG_CONFIG) --exists cmocka || { echo "gput: cmocka not found: install the Debian package libcmocka-dev (or run tools/install-deps as root)" >&2; exit 1; }

need-crypto:
	@$(PKG_CONFIG) --exists libcrypto || { echo "gput: OpenSSL's libcrypto not found: install the Debian package libssl-dev (or run tools/install-deps as root)" >&2; exit 1; }

# rebuilt whole: a renamed or removed source leaves no stale member behind
src/libgput.a: $(CORE_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

src/libgputpcap.a: $(PCAP_OBJS)
	rm -f $@ && $(AR) rcs $@ $^

src/%.o: src/%.c
	$(CC) $(FINAL_CFLAGS) -c -o $@ $<

$(PCAP_OBJS) src/pcap_main.o: | need-pcap
$(PCAP_OBJS) src/pcap_main.o: FINAL_CFLAGS += $(PCAP_CFLAGS)
src/auth.o: | need-crypto
src/auth.o: FINAL_CFLAGS += $(CRYPTO_CFLAGS)

gput: src/main.o src/libgput.a | need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(CRYPTO_LIBS) -lm

gput-pcap: src/pcap_main.o src/libgputpcap.a src/libgput.a | need-pcap need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(PCAP_LIBS) $(CRYPTO_LIBS) -lm

# -MMD makes the headers prerequisites of the binary too: not for the linker;
# a test's own objects (tests/capbuild.o) before the libraries they call
tests/unit_%: tests/unit_%.c src/libgputpcap.a src/libgput.a | need-cmocka need-pcap \
              need-crypto
	$(CC) $(FINAL_CFLAGS) $(CMOCKA_CFLAGS) $(PCAP_CFLAGS) -o $@ \
	    $(filter %.c %.o,$^) $(filter %.a,$^) \
	    $(FINAL_LDFLAGS) $(CMOCKA_LIBS) $(PCAP_LIBS) $(CRYPTO_LIBS) -lm

# A scripted control-protocol peer the live tests drive (not installed).
tests/ctlpeer: tests/ctlpeer.c src/libgput.a | need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(CRYPTO_LIBS) -lm

# The option table, a spelling a line, for tests/live_docs.sh and
# tests/live_completion.sh (gput itself has no option that lists it).
tests/optlist: tests/optlist.c src/libgput.a | need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(CRYPTO_LIBS) -lm

# A client that spoofs its proof's source port, for tests/live_spoof.sh.
tests/spoofproof: tests/spoofproof.c src/libgput.a | need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(CRYPTO_LIBS) -lm

# A UDP sender with ECT set and a receiver counting CE, for tests/live_delay.sh;
# frames onto an interface at a rate, to load the delay line (README).
tests/ecnpeer tests/framegen tests/inetdlog tests/flood: %: %.c
	$(CC) $(FINAL_CFLAGS) -o $@ $< $(FINAL_LDFLAGS)

# A preload shim: a kernel without UDP GSO/GRO, for tests/live_fast.sh.
tests/nogso.so: tests/nogso.c
	$(CC) $(FINAL_CFLAGS) -shared -fPIC -o $@ $< $(FINAL_LDFLAGS) -ldl

# A preload shim: a kernel without SO_MEMINFO, for tests/live_hostudp.sh.
tests/nomeminfo.so: tests/nomeminfo.c
	$(CC) $(FINAL_CFLAGS) -shared -fPIC -o $@ $< $(FINAL_LDFLAGS) -ldl

# Tests of gput-pcap share the capture builders of tests/capbuild.c.
CAPBUILD_TESTS := tests/unit_pcapscan tests/unit_pcapedge tests/unit_pcapgolden \
                  tests/unit_pcapmem \
                  tests/unit_pcapudp
$(CAPBUILD_TESTS): tests/capbuild.o
tests/capbuild.o: tests/capbuild.c | need-cmocka need-pcap
	$(CC) $(FINAL_CFLAGS) $(CMOCKA_CFLAGS) $(PCAP_CFLAGS) -c -o $@ $<

# unit_prober builds src/client_prober.c into itself with UBSan in every
# build (not only make check-asan): a partner's echo stamp must never reach
# signed arithmetic. private: the libraries it links keep their flags.
tests/unit_prober: src/client_prober.c
tests/unit_prober: private FINAL_CFLAGS += -fsanitize=undefined \
                   -fno-sanitize-recover=undefined
tests/unit_prober: private FINAL_LDFLAGS += -fsanitize=undefined

tools/gput-delay: tools/gput-delay.c tools/gput-delay-ring.c tools/gput-delay.h
	$(CC) $(FINAL_CFLAGS) -o $@ tools/gput-delay.c tools/gput-delay-ring.c $(FINAL_LDFLAGS)

tools/gput-textfile: %: %.c
	$(CC) $(FINAL_CFLAGS) -o $@ $< $(FINAL_LDFLAGS)

# make check: unit tests (cmocka), then live tests with real processes.
# make check T='unit_units live_udp': those tests only (their names as in
# tests/, without .c, .py or .sh), built first; a name that is no test fails.
LIVE_TESTS  := $(sort $(wildcard tests/live_*.sh))
CHECK_UNITS  = $(if $(T),$(filter $(addprefix tests/,$(T)),$(UNIT_BINS)),$(UNIT_BINS))
CHECK_PY     = $(if $(T),$(filter $(addprefix tests/,$(addsuffix .py,$(T))),$(UNIT_PY)),$(UNIT_PY))
CHECK_LIVE   = $(if $(T),$(filter $(addprefix tests/,$(addsuffix .sh,$(T))),$(LIVE_TESTS)),$(LIVE_TESTS))
CHECK_NONE   = $(foreach t,$(T),$(if $(filter tests/$(t) tests/$(t).sh tests/$(t).py,$(UNIT_BINS) $(LIVE_TESTS) $(UNIT_PY)),,$(t)))

check: $(PROGS) $(TOOLS) $(CHECK_UNITS) $(TEST_TOOLS)
	@$(if $(strip $(CHECK_NONE)),echo "make check: no test named $(strip $(CHECK_NONE)) (T takes names as in tests/: unit_units live_udp)" >&2; exit 2)
	@sh tests/run-tests.sh $(CHECK_UNITS) $(CHECK_PY) $(CHECK_LIVE)

unit: $(UNIT_BINS)
	@sh tests/run-tests.sh $(UNIT_BINS) $(UNIT_PY)

# make check-asan: the same tests with every program and test built with
# AddressSanitizer and UBSan (any report fails the test that saw it). The
# build happens in a copy of the tree, $(ASAN_DIR), cleaned before use: its
# objects never mix with the normal build's, and the tests, which run
# ./gput, ./gput-pcap and tests/unit_*, find the sanitized ones there.
ASAN_DIR   ?= build/asan
SAN_FLAGS  := -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
ASAN_COPY  := Makefile include src tests man tools doc

check-asan:
	rm -rf $(ASAN_DIR)
	mkdir -p $(ASAN_DIR)
	cp -R $(ASAN_COPY) $(ASAN_DIR)/
	$(MAKE) -s -C $(ASAN_DIR) clean
	# GPUT_SANITIZED: the live tests that hold a rate against physics skip
	# their ratios (make check measures them in the build users run; the
	# sanitizers' build is slower and would measure itself)
	ASAN_OPTIONS=$${ASAN_OPTIONS:-detect_leaks=1} \
	UBSAN_OPTIONS=$${UBSAN_OPTIONS:-print_stacktrace=1} GPUT_SANITIZED=1 \
	$(MAKE) -C $(ASAN_DIR) CFLAGS='-O1 -g $(SAN_FLAGS)' \
	    LDFLAGS='$(LDFLAGS) $(SAN_FLAGS)' check

# make fuzz: libFuzzer targets (tests/fuzz/fuzz_*.c), built with clang and
# AddressSanitizer + UBSan from their own objects in $(FUZZ_OBJ), so that
# the normal build is left alone. make fuzz-smoke runs each over its seed
# corpus (tests/fuzz/corpus/NAME, see tests/fuzz/regen-corpus.sh) and then
# for FUZZ_TIME seconds more; new inputs go to a temporary directory,
# findings to tests/fuzz/out/, and any finding fails.
FUZZ_CC    ?= clang
FUZZ_TIME  ?= 30
FUZZ_OBJ   := tests/fuzz/obj
FUZZ_SAN   := -fsanitize=address,undefined -fno-sanitize-recover=all \
              -fno-omit-frame-pointer
FUZZ_CFLAGS = $(WARN) -pthread -D_GNU_SOURCE -Iinclude -MMD -MP -g -O1 \
              $(FUZZ_SAN) $(PCAP_CFLAGS) $(CRYPTO_CFLAGS)
FUZZ_SRCS  := $(filter-out $(MAINS),$(wildcard src/*.c))
FUZZ_OBJS  := $(patsubst src/%.c,$(FUZZ_OBJ)/%.o,$(FUZZ_SRCS))
FUZZ_BINS  := tests/fuzz/fuzz_ctl tests/fuzz/fuzz_pcap

fuzz: $(FUZZ_BINS)

need-fuzz:
	@command -v $(FUZZ_CC) >/dev/null || { echo "gput: $(FUZZ_CC) not found: install the Debian packages clang and libclang-rt-14-dev (or run tools/install-deps as root)" >&2; exit 1; }

$(FUZZ_OBJ)/%.o: src/%.c | need-fuzz need-pcap need-crypto
	@mkdir -p $(FUZZ_OBJ)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_OBJ)/libfuzz.a: $(FUZZ_OBJS)
	$(AR) rcs $@ $^

# fuzz_ctl links the pure codecs only: no socket, clock or stop request
# in what it runs.
FUZZ_CTL_OBJS := $(addprefix $(FUZZ_OBJ)/,wire_ctl.o wire_udp.o mcast_group.o \
                 xfer_params.o)
tests/fuzz/fuzz_ctl: tests/fuzz/fuzz_ctl.c $(FUZZ_CTL_OBJS) | need-fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_CTL_OBJS)

tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(FUZZ_OBJ)/libfuzz.a | need-fuzz
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $< \
	    $(FUZZ_OBJ)/libfuzz.a $(PCAP_LIBS) $(CRYPTO_LIBS) -lm

fuzz-smoke: $(FUZZ_BINS)
	@mkdir -p tests/fuzz/out
	@for t in $(notdir $(FUZZ_BINS)); do \
	    c=tests/fuzz/corpus/$${t#fuzz_}; \
	    new=$$(mktemp -d "$${TMPDIR:-/tmp}/gput-$$t.XXXXXX") || exit 1; \
	    echo "fuzz-smoke: $$t over $$c, then $(FUZZ_TIME) s"; \
	    tests/fuzz/$$t -max_total_time=$(FUZZ_TIME) -timeout=10 \
	        -artifact_prefix=tests/fuzz/out/$$t- -print_final_stats=1 \
	        "$$new" "$$c" >tests/fuzz/out/$$t.log 2>&1; rc=$$?; \
	    rm -rf "$$new"; \
	    grep '^stat::number_of_executed_units' tests/fuzz/out/$$t.log; \
	    if [ $$rc -ne 0 ]; then tail -n 40 tests/fuzz/out/$$t.log; \
	        echo "fuzz-smoke: $$t failed (exit $$rc)" >&2; exit 1; fi; \
	done

lint:
	mandoc -Tlint -W warning $(MANS) $(MAN5) $(MAN8)

demo: $(PROGS) $(TOOLS)
	@sh tools/demo.sh

bench: $(PROGS)
	@sh tools/bench.sh

# gput-pcap against tshark and tcptrace on one generated 1 GiB capture
bench-pcap: gput-pcap
	@BENCH_PCAP=only sh tools/bench.sh

# make install: the programs to BINDIR; what needs root (the testbed) to
# SBINDIR; programs only other programs run (the testbed's delay line, the
# probe of gput-probe@.service) to LIBEXECDIR/gput; plotting scripts and
# data to DATADIR/gput; the systemd units to UNITDIR (not enabled: a partner
# or a probe is a deliberate choice). Scripts and units name /usr/local's
# directories; installed copies name the ones they went to (INSTALL_SUBST),
# the man pages' too.
# The Debian package is this with PREFIX=/usr (debian/rules): add a file to
# these lists and it is packaged too.
SBIN_SCRIPTS  := tools/gput-testbed
# gput-lab (python3's standard library): the program, its modules, the labs
BIN_SCRIPTS   := tools/gput-lab
LAB_MODULES   := $(wildcard tools/gputlab/*.py)
LAB_FILES     := $(wildcard tools/labs/*.lab)
MAN8          := man/gput-testbed.8 man/gput-probe.8
LIBEXEC_FILES := $(TOOLS) tools/gput-probe tools/gput-testbed-parse.sh \
                 tools/gput-testbed-delay.sh tools/gput-testbed-impair.sh \
                 tools/gput-testbed-topo.sh tools/gput-testbed-graph.sh \
                 tools/gput-testbed-build.sh tools/gput-testbed-calib.sh
SHARE_FILES   := $(wildcard tools/plot-* tools/*.gp tools/gput-plot)
# Examples for Prometheus: its configuration, gput's alerting rules, a probe.
PROM_FILES    := $(wildcard tools/prometheus/*)
UNITS         := tools/gput.service tools/gput.socket tools/gput-probe@.service \
                 tools/gput-probe@.timer
INSTALL_SUBST  = sed -e 's|/usr/local/bin/|$(BINDIR)/|g' -e 's|@GPUT_VERSION@|$(VERSION)|g' \
                     -e 's|/usr/local/sbin/|$(SBINDIR)/|g' \
                     -e 's|/usr/local/libexec/gput|$(LIBEXECDIR)/gput|g' \
                     -e 's|/usr/local/share/gput|$(DATADIR)/gput|g'

# $(call subst_install,FILES,DIR,MODE): FILES into DIR, through INSTALL_SUBST.
subst_install = for f in $(1); do \
	$(INSTALL_SUBST) "$$f" >"$(DESTDIR)$(2)/$$(basename "$$f")" && \
	chmod $(3) "$(DESTDIR)$(2)/$$(basename "$$f")" || exit 1; done

install: $(PROGS) $(TOOLS) $(COMPLETION)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) \
	    $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5 $(DESTDIR)$(MANDIR)/man8 \
	    $(DESTDIR)$(LIBEXECDIR)/gput/gputlab $(DESTDIR)$(DATADIR)/gput/labs \
	    $(DESTDIR)$(LIBEXECDIR)/gput $(DESTDIR)$(DATADIR)/gput \
	    $(DESTDIR)$(DATADIR)/gput/prometheus $(DESTDIR)$(UNITDIR) \
	    $(DESTDIR)$(DATADIR)/bash-completion/completions
	$(INSTALL) -m 644 $(COMPLETION) $(DESTDIR)$(DATADIR)/bash-completion/completions/gput
	$(INSTALL) -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	$(call subst_install,$(MANS),$(MANDIR)/man1,644)
	$(call subst_install,$(MAN5),$(MANDIR)/man5,644)
	$(call subst_install,$(MAN8),$(MANDIR)/man8,644)
	$(call subst_install,$(BIN_SCRIPTS),$(BINDIR),755)
	$(INSTALL) -m 644 $(LAB_MODULES) $(DESTDIR)$(LIBEXECDIR)/gput/gputlab/
	$(INSTALL) -m 644 $(LAB_FILES) $(DESTDIR)$(DATADIR)/gput/labs/
	$(INSTALL) -m 755 $(TOOLS) $(DESTDIR)$(LIBEXECDIR)/gput/
	$(call subst_install,$(filter-out $(TOOLS),$(LIBEXEC_FILES)),$(LIBEXECDIR)/gput,755)
	$(call subst_install,$(SBIN_SCRIPTS),$(SBINDIR),755)
	$(call subst_install,$(filter-out %.gp,$(SHARE_FILES)),$(DATADIR)/gput,755)
	$(INSTALL) -m 644 $(filter %.gp,$(SHARE_FILES)) $(DESTDIR)$(DATADIR)/gput/
	$(INSTALL) -m 644 $(PROM_FILES) $(DESTDIR)$(DATADIR)/gput/prometheus/
	$(call subst_install,$(UNITS),$(UNITDIR),644)

uninstall:
	rm -f $(DESTDIR)$(DATADIR)/bash-completion/completions/gput
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(PROGS)))
	rm -f $(addprefix $(DESTDIR)$(SBINDIR)/,$(notdir $(SBIN_SCRIPTS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANS)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man8/,$(notdir $(MAN8)))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man5/,$(notdir $(MAN5)))
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(notdir $(BIN_SCRIPTS)))
	rm -f $(addprefix $(DESTDIR)$(LIBEXECDIR)/gput/gputlab/,$(notdir $(LAB_MODULES)))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/gput/labs/,$(notdir $(LAB_FILES)))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/gput/gputlab $(DESTDIR)$(DATADIR)/gput/labs 2>/dev/null
	rm -f $(addprefix $(DESTDIR)$(LIBEXECDIR)/gput/,$(notdir $(LIBEXEC_FILES)))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/gput/,$(notdir $(SHARE_FILES)))
	rm -f $(addprefix $(DESTDIR)$(UNITDIR)/,$(notdir $(UNITS)))
	rm -f $(addprefix $(DESTDIR)$(DATADIR)/gput/prometheus/,$(notdir $(PROM_FILES)))
	-rmdir $(DESTDIR)$(LIBEXECDIR)/gput $(DESTDIR)$(DATADIR)/gput/prometheus \
	    $(DESTDIR)$(DATADIR)/gput 2>/dev/null

clean:
	rm -f $(PROGS) $(TOOLS) $(COMPLETION) tools/*.d src/*.o src/*.d src/*.a tests/*.o tests/*.d $(UNIT_BINS) \
	    $(TEST_TOOLS) $(FUZZ_BINS) tests/fuzz/*.d
	rm -rf tests/out tests/fuzz/obj tests/fuzz/out build bench-out

-include $(wildcard src/*.d tests/*.d $(FUZZ_OBJ)/*.d tests/fuzz/*.d)
