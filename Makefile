# pc-e2e: PowerContext's end-to-end workload harness.
# `make` builds bin/, `make test` runs the bats suites (TEST_JOBS at a time), `make check-asan` runs
# them again on an AddressSanitizer + UBSan build, `make acceptance` runs the
# acceptance workloads on the PowerContext under test (POWERCONTEXT_E2E_VERSION,
# CATALOG=powercontext for its own catalog, RUNNER=harbor for the Harbor CLI,
# MODEL=scripted for model-backed workloads on the scripted model, JOBS=N for N workloads
# at once), `make crosscheck OUTPUT=…` checks
# their replays against that release's own harness, `make compat` runs both on
# every supported release, `make rescore REPLAY=…` re-evaluates saved replays,
# `make paired` runs the paired OFF/ON comparison (TRIALS=N, CATALOG=powercontext,
# RUNNER=harbor), `make paired-report REPLAY=…` summarizes saved arm observations,
# `make plan HELP=… HURT=…` (or REPLAY=a pilot run) plans a paired run's workloads,
# `make lint` runs shellcheck and clang-format --dry-run over the sources.

VERSION   = 0.1.0
PREFIX   ?= /usr/local
DESTDIR  ?=
BINDIR    = $(PREFIX)/bin
MANDIR    = $(PREFIX)/share/man
CC       ?= cc
PKG_CONFIG ?= pkg-config

# What filters/lib/ links, then what one filter's own modules link beside it
# (PKGS_<folder>): manifests are YAML (pc-select selects them, pc-evaluate
# --catalog compares replays with them), only pc-run-bub speaks HTTP, only
# pc-report writes a ledger.
LIB_PKGS  = libcrypto libutf8proc yaml-0.1
PKGS_run-bub = libcurl
PKGS_report  = sqlite3 libmariadb
PKGS      = $(LIB_PKGS) $(PKGS_run-bub) $(PKGS_report)
# Debian's libjq 1.6 ships no pkg-config file.
JQ_CFLAGS = $(shell $(PKG_CONFIG) --cflags libjq 2>/dev/null)
JQ_LIBS   = $(shell $(PKG_CONFIG) --libs libjq 2>/dev/null || echo -ljq -lonig)

CFLAGS   ?= -O2 -g
WARN      = -Wall -Wextra -Werror
ALL_CFLAGS = -std=c11 -D_XOPEN_SOURCE=700 -DPC_VERSION='"$(VERSION)"' \
	$(WARN) $(shell $(PKG_CONFIG) --cflags $(PKGS)) $(JQ_CFLAGS) $(CFLAGS)
# libs_of FOLDER: what filter FOLDER links; LIBS: everything (the fuzz targets).
libs_of   = $(shell $(PKG_CONFIG) --libs $(LIB_PKGS) $(PKGS_$(1))) $(JQ_LIBS) -lm
LIBS      = $(shell $(PKG_CONFIG) --libs $(PKGS)) $(JQ_LIBS) -lm

FILTERS   = pc-select pc-run-bub pc-normalize pc-evaluate pc-report
# Each filter pc-NAME is built from its own folder filters/NAME/ (its main
# pc-NAME.c and its private modules) and filters/lib/ (what two or more
# filters share).  A filter's own headers are named from its folder's root
# (filters/run-bub/'s "base/proc.h"), lib/'s by their bare names.
LIB_SRC   = $(wildcard filters/lib/*.c)
LIB_HDR   = $(wildcard filters/lib/*.h)
FILTER_SRC = $(wildcard $(FILTERS:pc-%=filters/%/*.c) $(FILTERS:pc-%=filters/%/*/*.c))
FILTER_HDR = $(wildcard $(FILTERS:pc-%=filters/%/*.h) $(FILTERS:pc-%=filters/%/*/*.h))

BUILD    ?= build/release
BIN      ?= bin
LIB_OBJ   = $(LIB_SRC:filters/%.c=$(BUILD)/%.o)
# objects_of NAME: the objects of filters/NAME/ and its sub-folders, main included.
objects_of = $(patsubst filters/%.c,$(BUILD)/%.o,$(wildcard filters/$(1)/*.c filters/$(1)/*/*.c))
# private_objects_of NAME: the same without its main (what a fuzz target links).
private_objects_of = $(filter-out $(BUILD)/$(1)/pc-$(1).o,$(call objects_of,$(1)))

# pc-evaluate reads replays with yyjson 0.10.0, built from Debian trixie's
# source package, which pipelines/fetch-yyjson fetches (sha256 checked) into
# YYJSON_DIR on the first build; nothing of it is committed.  Only
# filters/evaluate/ sees its header (CFLAGS_<folder>) and links it
# (OBJ_<folder>).
YYJSON_DIR ?= build/yyjson
CFLAGS_evaluate = -I$(YYJSON_DIR)
OBJ_evaluate    = $(BUILD)/yyjson.o
# folder_of OBJECT: the filter folder an object of $(BUILD) was built from.
folder_of = $(firstword $(subst /, ,$(patsubst $(BUILD)/%,%,$(1))))

SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined

BATS     ?= bats
TESTS    ?= tests
# make test and make check-asan run the suites side by side, TEST_JOBS bats
# processes at a time (tests/bin/run-suites): most of a suite's time is spent
# waiting on the Server's, Bub's and Harbor's Python, so more than two pay on
# two cores. TEST_JOBS=1 runs them one by one.
TEST_JOBS ?= 3
# The suites TESTS names: a directory's *.bats, or a .bats file itself.
TEST_FILES = $(foreach t,$(TESTS),$(if $(filter %.bats,$(t)),$(t),$(sort $(wildcard $(t:%/=%)/*.bats))))

# libFuzzer targets (tests/fuzz/fuzz-<target>.c), built by clang with ASan
# and UBSan into build/fuzz/ and run FUZZ_SECONDS each from their corpus.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS  = documents manifest toml evaluate
# What each target links beside filters/lib/: the filter module it feeds.
FUZZ_OBJ_toml     = $(BUILD)/run-bub/base/toml.o
FUZZ_OBJ_evaluate = $(call private_objects_of,evaluate) $(OBJ_evaluate)
FUZZ_FLAGS    = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer

SHELLCHECK   ?= shellcheck
CLANG_FORMAT ?= clang-format
# The C that .clang-format governs, and its longest line (tabs 8 wide).
LINE_MAX  = 100
LINT_C    = $(wildcard tests/fuzz/*.[ch] tests/units/*.[ch]) $(LIB_SRC) $(LIB_HDR) $(FILTER_SRC) $(FILTER_HDR)

.SECONDARY:

.PHONY: all test check-asan acceptance crosscheck compat rescore paired paired-report plan memorycode-tasks bench scale install uninstall clean deps lint fuzz

# yyjson.o by name: .SECONDARY would let a missing one pass for up to date
all: $(OBJ_evaluate) $(FILTERS:%=$(BIN)/%)

# V=1 shows the full command lines.
Q = $(if $(V),,@)

$(YYJSON_DIR)/yyjson.c $(YYJSON_DIR)/yyjson.h &:
	pipelines/fetch-yyjson $(YYJSON_DIR)

# upstream's code, built with the build's flags but not the project's warnings
$(BUILD)/yyjson.o: $(YYJSON_DIR)/yyjson.c
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) -std=c11 $(CFLAGS) -c -o $@ $<

$(BUILD)/%.o: filters/%.c | $(YYJSON_DIR)/yyjson.h
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  CC      $<")
	$(Q)$(CC) $(ALL_CFLAGS) $(CFLAGS_$(call folder_of,$@)) -MMD -MP -Ifilters/lib \
		-Ifilters/$(call folder_of,$@) -c -o $@ $<

-include $(LIB_OBJ:.o=.d) $(FILTER_SRC:filters/%.c=$(BUILD)/%.d)

.SECONDEXPANSION:
$(BIN)/pc-%: $$(call objects_of,$$*) $(LIB_OBJ) $$(OBJ_$$*)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  LD      $@")
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LDFLAGS) $(call libs_of,$*)

# test and acceptance first install the Debian packages they need
# (pipelines/install-deps: nothing to do once they are there; without root
# or sudo it says what to run). test and check-asan then provision, once,
# what the suites use (tests/bin/provision: .venv and the PowerContext under
# test), and run the suites side by side (tests/bin/run-suites), each suite's
# TAP lines printed whole when it ends and kept in build/test-log/ (the
# sanitizer run's in build/asan/test-log/).
RUN_SUITES = BATS='$(BATS)' BATS_FLAGS='$(BATS_FLAGS)' TEST_JOBS='$(TEST_JOBS)' tests/bin/run-suites

test: deps
	$(MAKE) all
	@test -n "$(TEST_FILES)" || { echo "make test: TESTS=$(TESTS) names no .bats file" >&2; exit 64; }
	tests/bin/provision $(TEST_FILES)
	PC_BIN=$(abspath $(BIN)) $(RUN_SUITES) build/test-log $(TEST_FILES)

check-asan:
	$(MAKE) BUILD=build/asan BIN=build/asan/bin CFLAGS='$(SAN_FLAGS)' LDFLAGS='-fsanitize=address,undefined' all
	@test -n "$(TEST_FILES)" || { echo "make check-asan: TESTS=$(TESTS) names no .bats file" >&2; exit 64; }
	tests/bin/provision $(TEST_FILES)
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	PC_BIN=$(abspath build/asan/bin) PC_SANITIZED=1 $(RUN_SUITES) build/asan/test-log $(TEST_FILES)

# The runs are thin callers of ./pc-e2e, which keeps their exact exit status
# (make's own is 2 for any failure) and says it on its last line.
PC_E2E = PC_BIN=$(abspath $(BIN)) ./pc-e2e

acceptance: deps
	$(MAKE) all
	$(PC_E2E) acceptance OUTPUT='$(OUTPUT)' FAILURE_POLICY='$(FAILURE_POLICY)' CATALOG='$(CATALOG)' \
		CATALOG_ROOT='$(CATALOG_ROOT)' RUNNER='$(RUNNER)' MODEL='$(MODEL)' JOBS='$(JOBS)' \
		LEDGER='$(LEDGER)' REGISTRY='$(REGISTRY)' RESUME='$(RESUME)' SCHEDULER='$(SCHEDULER)' \
		FAULT='$(FAULT)' $(if $(DATABASE),DATABASE='$(DATABASE)') $(ARGS)

# The replays under OUTPUT against the release's own harness (one TAP line each).
crosscheck: all
	@test -n "$(OUTPUT)" || { echo "usage: make crosscheck OUTPUT=DIR (a make acceptance output)" >&2; exit 64; }
	PC_BIN=$(abspath $(BIN)) tests/reference/crosscheck $(OUTPUT)

# Acceptance and its cross-check on every supported release, as one table.
compat: all
	$(PC_E2E) compat OUTPUT='$(OUTPUT)' $(RELEASES)

rescore: all
	@test -n "$(REPLAY)" || { echo "usage: make rescore REPLAY='file or directory…'" >&2; exit 64; }
	$(PC_E2E) rescore OUTPUT='$(OUTPUT)' FAILURE_POLICY='$(FAILURE_POLICY)' CATALOG='$(CATALOG)' \
		CATALOG_ROOT='$(CATALOG_ROOT)' $(REPLAY)

# PowerContext's paired OFF/ON comparison, run: TRIALS per arm (default 2) of the
# paired workloads (CATALOG=powercontext: the release's own), on the scripted
# model unless MODEL is set empty (then the caller's BUB_* and inference settings).
paired: deps
	$(MAKE) all
	$(PC_E2E) paired OUTPUT='$(OUTPUT)' CATALOG='$(CATALOG)' CATALOG_ROOT='$(CATALOG_ROOT)' \
		RUNNER='$(RUNNER)' TRIALS='$(TRIALS)' HOST='$(HOST)' JOBS='$(JOBS)' RESUME='$(RESUME)' \
		SCHEDULER='$(SCHEDULER)' MEMORYCODE='$(MEMORYCODE)' FAULT='$(FAULT)' LEDGER='$(LEDGER)' \
		$(if $(filter undefined,$(origin MODEL)),,MODEL='$(MODEL)') \
		$(if $(DATABASE),DATABASE='$(DATABASE)') $(ARGS)

# PowerContext 1.4.1's paired-report.json and report.md from saved OFF/ON arm observations.
paired-report: all
	@test -n "$(REPLAY)" || { echo "usage: make paired-report REPLAY='observation files or directory…' [OUTPUT=DIR] [TRIALS=N]" >&2; exit 64; }
	$(PC_E2E) paired-report OUTPUT='$(OUTPUT)' TRIALS='$(TRIALS)' $(REPLAY)

# The workloads a paired run needs for 80 % power, from rates or a pilot run (pipelines/plan);
# NODES only as given, not make scale's default list.
plan: all
	$(PC_E2E) plan REPLAY='$(REPLAY)' HELP='$(HELP)' HURT='$(HURT)' WORKLOADS='$(WORKLOADS)' \
		TRIALS='$(TRIALS)' NODES='$(if $(filter file,$(origin NODES)),,$(NODES))' \
		FORMAT='$(FORMAT)'

bench: all
	PC_BIN=$(abspath $(BIN)) pipelines/bench $(COPIES)

# PowerContext's MemoryCode paired sample, built by the release's own generator
# where its catalog expects it, from MEMORYCODE (a checkout or a data copy;
# pipelines/memorycode-tasks).
memorycode-tasks: deps
	pipelines/memorycode-tasks '$(MEMORYCODE)' $(if $(CATALOG_ROOT),'$(CATALOG_ROOT)')

# Units on Slurm (pipelines/scale): make paired SCHEDULER=slurm on a loopback
# cluster of each of NODES sizes; a unit's wait, setup and agent time, the
# speed-up, and the MemoryCode sample projected on 1, 10 and 100 nodes.
NODES ?= 1 2
scale: deps
	$(MAKE) all
	PC_BIN=$(abspath $(BIN)) pipelines/scale $(NODES)

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

# Every shell script git knows of (tracked, or new and not ignored), found by
# its #! line or a .sh/.bash name; bats files are left to bats.  Fails on any
# shellcheck finding, on any line clang-format would change, on a line over
# LINE_MAX that does not start with a string literal, and on a message split
# across string literals (tests/bin/split-messages).
lint:
	@files=$$(git ls-files --cached --others --exclude-standard | while IFS= read -r f; do \
		[ -f "$$f" ] || continue; \
		case $$f in \
		*.bats) ;; \
		*.sh | *.bash) echo "$$f" ;; \
		*) head -n 1 "$$f" | grep -Eq '^#! *(/usr)?/bin/(env +)?(ba|da)?sh([[:space:]]|$$)' && \
			echo "$$f" ;; \
		esac; \
	done); \
	test -n "$$files" || { echo "lint: no shell scripts found (not a git checkout?)" >&2; exit 1; }; \
	rc=0; \
	$(SHELLCHECK) $$files || rc=1; \
	$(CLANG_FORMAT) --dry-run --Werror $(LINT_C) || rc=1; \
	for f in $(LINT_C); do \
		expand -t 8 "$$f" | awk -v f="$$f" -v max=$(LINE_MAX) 'length > max && !/^[ \t]*"/ { \
			printf "%s:%d: %d columns, over the %d of .clang-format'"'"'s note\n", f, NR, length, max; bad = 1 } \
			END { exit bad }' || rc=1; \
	done; \
	tests/bin/split-messages $(LINT_C) || rc=1; \
	exit $$rc

# Built with BUILD=build/fuzz by the fuzz target below.
$(BUILD)/fuzz-%: tests/fuzz/fuzz-%.c tests/fuzz/fuzz-input.h $(LIB_OBJ) $$(FUZZ_OBJ_$$*)
	@mkdir -p $(dir $@)
	@$(if $(V),,echo "  FUZZ    $@")
	$(Q)$(CC) $(ALL_CFLAGS) -Ifilters/lib -Ifilters/run-bub -Ifilters/evaluate \
		$(CFLAGS_evaluate) -fsanitize=fuzzer -o $@ $< \
		$(filter %.o,$^) $(LDFLAGS) $(LIBS)

# libjq 1.6's parser leaks on a text with two values and no separator
# (["a" "b"]), so the targets that read a stream (documents, and evaluate,
# which hands libjq what yyjson cannot read) run without leak detection;
# the sanitizer test run (check-asan) still checks pc-e2e's own leaks.
fuzz:
	$(MAKE) CC=$(FUZZ_CC) BUILD=build/fuzz CFLAGS='$(FUZZ_FLAGS)' $(FUZZ_TARGETS:%=build/fuzz/fuzz-%)
	@for t in $(FUZZ_TARGETS); do \
		mkdir -p build/fuzz/corpus-$$t && cp tests/fuzz/corpus/$$t/* build/fuzz/corpus-$$t/ || exit 1; \
		leaks=1; case $$t in documents | evaluate) leaks=0 ;; esac; \
		echo "fuzz: $$t for $(FUZZ_SECONDS) s"; \
		ASAN_OPTIONS=detect_leaks=$$leaks build/fuzz/fuzz-$$t -max_total_time=$(FUZZ_SECONDS) \
			-rss_limit_mb=2048 -detect_leaks=$$leaks \
			-artifact_prefix=build/fuzz/$$t- build/fuzz/corpus-$$t || exit 1; \
	done
