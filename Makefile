# tilec: top-level build.  `make` builds bin/tilec and the launch runtime,
# `make check` builds everything (plus an ASan/UBSan build) and runs every test.

LLVM_CONFIG ?= $(shell command -v llvm-config-19 2>/dev/null || echo /usr/lib/llvm-19/bin/llvm-config)
CLANG_INCDIR = $(or $(shell $(LLVM_CONFIG) --includedir 2>/dev/null),/usr/lib/llvm-19/include)
CLANG_LIBDIR = $(or $(shell $(LLVM_CONFIG) --libdir 2>/dev/null),/usr/lib/llvm-19/lib)
NVCC ?= nvcc
PREFIX ?= /usr/local

VERSION := 0.1.0
OPT ?= -O2 -g
WARN := -std=c17 -Wall -Wextra -Werror -Wno-missing-field-initializers
CPPFLAGS_ALL := -D_POSIX_C_SOURCE=200809L -I. -Iruntime -DTILEC_VERSION='"$(VERSION)"'
CLANG_CFLAGS = -isystem $(CLANG_INCDIR)
CLANG_LIBS = -L$(CLANG_LIBDIR) -Wl,-rpath,$(CLANG_LIBDIR) -lclang
SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer

# Compiler sources: every .c under the compiler's module folders.  cmd/tilec.c
# holds main(); everything else goes into build/libtilec.a so tests link it.
CORE_SRCS := $(sort $(filter-out cmd/tilec.c,$(wildcard cmd/*.c frontend/*.c sema/*.c codegen/*.c)))
RT_SRCS := runtime/tilec_rt.c
HDRS := $(wildcard cmd/*.h frontend/*.h sema/*.h codegen/*.h runtime/*.h)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

CORE_OBJS := $(CORE_SRCS:%.c=build/obj/%.o)
SAN_OBJS := $(CORE_SRCS:%.c=build/san/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)

.PHONY: all check unit clean install examples setup-check golden-update fuzz
Q := @
ifeq ($(V),1)
Q :=
endif
all: bin/tilec build/libtilec_rt.a

setup-check:
	@sh tests/ensure_libclang.sh

build/obj/%.o: %.c $(HDRS) | setup-check
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(OPT) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -c $< -o $@

build/san/%.o: %.c $(HDRS) | setup-check
	@mkdir -p $(dir $@)
	@echo "  CC-SAN  $<"
	$(Q)$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -c $< -o $@

build/libtilec.a: $(CORE_OBJS)
	@rm -f $@; ar rcs $@ $^

build/libtilec_san.a: $(SAN_OBJS)
	@rm -f $@; ar rcs $@ $^

bin/tilec: cmd/tilec.c build/libtilec.a $(HDRS)
	@mkdir -p bin
	@echo "  LD      $@"
	$(Q)$(CC) $(OPT) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) cmd/tilec.c build/libtilec.a $(CLANG_LIBS) -lm -o $@

bin/tilec-san: cmd/tilec.c build/libtilec_san.a $(HDRS)
	@mkdir -p bin
	@echo "  LD      $@"
	$(Q)$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) cmd/tilec.c build/libtilec_san.a $(CLANG_LIBS) -lm -o $@

build/libtilec_rt.a: $(RT_SRCS) runtime/tilec_rt.h runtime/tilec_dlpack.h
	@mkdir -p build/rt
	@echo "  CC      runtime/tilec_rt.c"
	$(Q)$(CC) $(OPT) $(WARN) -Iruntime -c runtime/tilec_rt.c -o build/rt/tilec_rt.o
	@rm -f $@; ar rcs $@ build/rt/tilec_rt.o

# Unit tests are built with the sanitizers: each is a standalone program that
# prints "NAME: N passed, N failed".
build/unit/%: tests/unit/%.c build/libtilec_san.a runtime/tilec_rt.c tests/unit/check.h $(HDRS)
	@mkdir -p build/unit
	@echo "  TEST    $@"
	$(Q)$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -Itests/unit $< build/libtilec_san.a runtime/tilec_rt.c $(CLANG_LIBS) -lm -o $@

unit: $(UNIT_BINS)
	@sh tests/run_unit.sh $(UNIT_BINS)

# Fuzz targets: replayed over the corpus by `make check` (no libFuzzer
# needed), and built for real fuzzing with clang by `make fuzz`.
build/fuzz/replay_%: tests/fuzz/replay.c tests/fuzz/fuzz_%.c build/libtilec_san.a
	@mkdir -p build/fuzz
	@echo "  FUZZ    $@"
	$(Q)$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) $^ $(CLANG_LIBS) -lm -o $@

FUZZ_CC ?= clang
FUZZ_FLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined -std=c17 $(CPPFLAGS_ALL) $(CLANG_CFLAGS)
fuzz: | setup-check
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer tests/fuzz/fuzz_frontend.c $(CORE_SRCS) $(CLANG_LIBS) -lm -o build/fuzz/fuzz_frontend
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer tests/fuzz/fuzz_layout.c sema/layout.c sema/layout_cli.c -lm -o build/fuzz/fuzz_layout
	@echo "run: build/fuzz/fuzz_frontend -max_total_time=600 build/fuzz/corpus-frontend tests/fuzz/corpus/frontend examples tests/diag"

check: all bin/tilec-san $(UNIT_BINS) build/fuzz/replay_frontend build/fuzz/replay_layout
	@sh tests/run.sh

# The main job: compile every example with tilec and run it, on the GPU when
# nvidia-smi finds one, otherwise through the host backend.
examples: all
	@if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then \
	    echo "tilec: running the examples on the GPU"; sh tests/run_examples.sh cuda; \
	else \
	    echo "tilec: no GPU found; running the examples through the host backend"; SAN=0 OMP=1 sh tests/run_examples.sh host; \
	fi

# Rewrites the golden AST dumps from the current compiler (review the diff!).
golden-update: bin/tilec
	@for f in examples/*/*.tile.c tests/golden/*.tile.c; do \
	    n=$$(basename $$f .tile.c); \
	    bin/tilec --emit=ast $$f > tests/golden/$$n.ast && bin/tilec --emit=typed $$f > tests/golden/$$n.typed; \
	done

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/include $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 bin/tilec $(DESTDIR)$(PREFIX)/bin/tilec
	install -m 644 runtime/tilec.h runtime/tilec_rt.h runtime/tilec_dlpack.h runtime/tilec_ops.h runtime/tilec_fp.h $(DESTDIR)$(PREFIX)/include/
	install -m 644 build/libtilec_rt.a $(DESTDIR)$(PREFIX)/lib/libtilec_rt.a
	install -m 644 docs/tilec.1 $(DESTDIR)$(PREFIX)/share/man/man1/tilec.1
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@VERSION@|$(VERSION)|g' docs/tilec.pc.in > $(DESTDIR)$(PREFIX)/lib/pkgconfig/tilec.pc

clean:
	rm -rf build bin
