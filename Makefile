# pc-e2e: PowerContext's end-to-end workload harness.
# `make` builds bin/, `make test` runs the bats suites, `make check-asan` runs
# them again on an AddressSanitizer + UBSan build, `make acceptance` runs the
# acceptance workloads, `make rescore REPLAY=…` re-evaluates saved replays.

VERSION   = 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man
CC       ?= cc
PKG_CONFIG ?= pkg-config

PKGS      = yaml-0.1 libcrypto libutf8proc libcurl
# Debian's libjq 1.6 ships no pkg-config file.
JQ_CFLAGS = $(shell $(PKG_CONFIG) --cflags libjq 2>/dev/null)
JQ_LIBS   = $(shell $(PKG_CONFIG) --libs libjq 2>/dev/null || echo -ljq -lonig)

CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Werror
ALL_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -DPC_VERSION='"$(VERSION)"' \
	$(WARN) $(shell $(PKG_CONFIG) --cflags $(PKGS)) $(JQ_CFLAGS) $(CFLAGS)
LIBS      = $(shell $(PKG_CONFIG) --libs $(PKGS)) $(JQ_LIBS) -lm

FILTERS   = pc-select pc-run-bub pc-normalize pc-evaluate pc-report
LIB_SRC   = $(wildcard filters/lib/*.c)
LIB_HDR   = $(wildcard filters/lib/*.h)

BUILD    ?= build/release
BIN      ?= bin
LIB_OBJ   = $(LIB_SRC:filters/lib/%.c=$(BUILD)/lib/%.o)

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

BATS     ?= bats
TESTS    ?= tests

.SECONDARY:

.PHONY: all test check-asan acceptance rescore bench install uninstall clean deps

all: $(FILTERS:%=$(BIN)/%)

# V=1 shows the full command lines.
Q = $(if $(V),,@)

$(BUILD)/lib/%.o: filters/lib/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: filters/%.c $(LIB_HDR)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) -Ifilters/lib -c -o $@ $<

$(BIN)/%: $(BUILD)/%.o $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(LIBS)

test: all
	PC_BIN=$(abspath $(BIN)) $(BATS) $(BATS_FLAGS) $(TESTS)

check-asan:
	$(MAKE) BUILD=build/asan BIN=build/asan/bin CFLAGS='$(SAN_FLAGS)' LDFLAGS='-fsanitize=address,undefined' all
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	PC_BIN=$(abspath build/asan/bin) PC_SANITIZED=1 $(BATS) $(BATS_FLAGS) $(TESTS)

acceptance: all
	OUTPUT=$(OUTPUT) FAILURE_POLICY=$(FAILURE_POLICY) pipelines/acceptance $(ARGS)

rescore: all
	@test -n "$(REPLAY)" || { echo "usage: make rescore REPLAY='file or directory…'" >&2; exit 64; }
	OUTPUT=$(OUTPUT) FAILURE_POLICY=$(FAILURE_POLICY) pipelines/rescore $(REPLAY)

bench: all
	PC_BIN=$(abspath $(BIN)) pipelines/bench $(COPIES)

install: all
	mkdir -p $(DESTDIR)$(BINDIR)
	install -m 0755 $(FILTERS:%=$(BIN)/%) $(DESTDIR)$(BINDIR)/
	mkdir -p $(DESTDIR)$(MANDIR)/man1
	install -m 644 $(FILTERS:%=man/%.1) $(DESTDIR)$(MANDIR)/man1/

uninstall:
	for f in $(FILTERS); do rm -f $(DESTDIR)$(BINDIR)/$$f; done
	rm -f $(FILTERS:%=$(DESTDIR)$(MANDIR)/man1/%.1)

clean:
	rm -rf build bin

deps:
	pipelines/install-deps
