# gput: goodput tester. Plain Makefile a packager can drive:
#   make [CPPFLAGS=...] [CFLAGS=...] [LDFLAGS=...] [PREFIX=...]; make check;
#   make install DESTDIR=...
PREFIX     ?= /usr/local
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
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
TEST_TOOLS := tests/ctlpeer
PROGS      := gput gput-pcap
MANS       := man/gput.1 man/gput-pcap.1

.PHONY: all check unit live lint demo bench clean install uninstall need-pcap \
        need-cmocka need-crypto

all: $(PROGS)

need-pcap:
	@$(PKG_CONFIG) --exists libpcap || { echo "gput: libpcap not found: install the Debian package libpcap-dev (or run tools/install-deps as root)" >&2; exit 1; }

need-cmocka:
	@$(PKG_CONFIG) --exists cmocka || { echo "gput: cmocka not found: install the Debian package libcmocka-dev (or run tools/install-deps as root)" >&2; exit 1; }

need-crypto:
	@$(PKG_CONFIG) --exists libcrypto || { echo "gput: OpenSSL's libcrypto not found: install the Debian package libssl-dev (or run tools/install-deps as root)" >&2; exit 1; }

src/libgput.a: $(CORE_OBJS)
	$(AR) rcs $@ $^

src/libgputpcap.a: $(PCAP_OBJS)
	$(AR) rcs $@ $^

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

# -MMD makes the headers prerequisites of the binary too: not for the linker
tests/unit_%: tests/unit_%.c src/libgputpcap.a src/libgput.a | need-cmocka need-pcap \
              need-crypto
	$(CC) $(FINAL_CFLAGS) $(CMOCKA_CFLAGS) $(PCAP_CFLAGS) -o $@ \
	    $(filter-out %.h,$^) \
	    $(FINAL_LDFLAGS) $(CMOCKA_LIBS) $(PCAP_LIBS) $(CRYPTO_LIBS) -lm

# A scripted control-protocol peer the live tests drive (not installed).
tests/ctlpeer: tests/ctlpeer.c src/libgput.a | need-crypto
	$(CC) $(FINAL_CFLAGS) -o $@ $^ $(FINAL_LDFLAGS) $(CRYPTO_LIBS) -lm

# Tests of gput-pcap share the capture builders of tests/capbuild.c.
CAPBUILD_TESTS := tests/unit_pcapscan tests/unit_pcapedge tests/unit_pcapgolden
$(CAPBUILD_TESTS): tests/capbuild.o
tests/capbuild.o: tests/capbuild.c | need-cmocka need-pcap
	$(CC) $(FINAL_CFLAGS) $(CMOCKA_CFLAGS) $(PCAP_CFLAGS) -c -o $@ $<

# make check: unit tests (cmocka), then live tests with real processes.
check: $(PROGS) $(UNIT_BINS) $(TEST_TOOLS)
	@sh tests/run-tests.sh $(UNIT_BINS) $(sort $(wildcard tests/live_*.sh))

unit: $(UNIT_BINS)
	@sh tests/run-tests.sh $(UNIT_BINS)

lint:
	mandoc -Tlint -W warning $(MANS)

demo: $(PROGS)
	@sh tools/demo.sh

bench: $(PROGS)
	@sh tools/bench.sh

install: $(PROGS)
	$(INSTALL) -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1
	$(INSTALL) -m 755 $(PROGS) $(DESTDIR)$(BINDIR)/
	$(INSTALL) -m 644 $(MANS) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(BINDIR)/,$(PROGS))
	rm -f $(addprefix $(DESTDIR)$(MANDIR)/man1/,$(notdir $(MANS)))

clean:
	rm -f $(PROGS) src/*.o src/*.d src/*.a tests/*.o tests/*.d $(UNIT_BINS) \
	    $(TEST_TOOLS)
	rm -rf tests/out

-include $(wildcard src/*.d tests/*.d)
