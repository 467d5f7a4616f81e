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

.PHONY: all check unit clean install examples setup-check
all: bin/tilec build/libtilec_rt.a

setup-check:
	@sh tests/ensure_libclang.sh

build/obj/%.o: %.c $(HDRS) | setup-check
	@mkdir -p $(dir $@)
	$(CC) $(OPT) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -c $< -o $@

build/san/%.o: %.c $(HDRS) | setup-check
	@mkdir -p $(dir $@)
	$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -c $< -o $@

build/libtilec.a: $(CORE_OBJS)
	@rm -f $@; ar rcs $@ $^

build/libtilec_san.a: $(SAN_OBJS)
	@rm -f $@; ar rcs $@ $^

bin/tilec: cmd/tilec.c build/libtilec.a $(HDRS)
	@mkdir -p bin
	$(CC) $(OPT) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) cmd/tilec.c build/libtilec.a $(CLANG_LIBS) -lm -o $@

bin/tilec-san: cmd/tilec.c build/libtilec_san.a $(HDRS)
	@mkdir -p bin
	$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) cmd/tilec.c build/libtilec_san.a $(CLANG_LIBS) -lm -o $@

build/libtilec_rt.a: $(RT_SRCS) runtime/tilec_rt.h
	@mkdir -p build/rt
	$(CC) $(OPT) $(WARN) -Iruntime -c runtime/tilec_rt.c -o build/rt/tilec_rt.o
	@rm -f $@; ar rcs $@ build/rt/tilec_rt.o

# Unit tests are built with the sanitizers: each is a standalone program that
# prints "NAME: N passed, N failed".
build/unit/%: tests/unit/%.c build/libtilec_san.a runtime/tilec_rt.c tests/unit/check.h $(HDRS)
	@mkdir -p build/unit
	$(CC) -O1 -g $(SAN) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -Itests/unit $< build/libtilec_san.a runtime/tilec_rt.c $(CLANG_LIBS) -lm -o $@

unit: $(UNIT_BINS)
	@sh tests/run_unit.sh $(UNIT_BINS)

check: all bin/tilec-san $(UNIT_BINS)
	@sh tests/run.sh

examples: all
	@sh tests/run_examples.sh

clean:
	rm -rf build bin
