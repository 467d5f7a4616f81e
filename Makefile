# tilec: top-level build.  `make` builds bin/tilec and the launch runtime,
# `make check` builds everything (plus an ASan/UBSan build) and runs every test.

LLVM_CONFIG ?= $(shell command -v llvm-config-19 2>/dev/null || echo /usr/lib/llvm-19/bin/llvm-config)
CLANG_INCDIR = $(or $(shell $(LLVM_CONFIG) --includedir 2>/dev/null),/usr/lib/llvm-19/include)
CLANG_LIBDIR = $(or $(shell $(LLVM_CONFIG) --libdir 2>/dev/null),/usr/lib/llvm-19/lib)
NVCC ?= nvcc

VERSION := 0.1.0
SOMAJOR := $(firstword $(subst ., ,$(VERSION)))

# Installation directories, GNU style: `make install prefix=/opt/tilec
# DESTDIR=/stage`.  PREFIX, LIBDIR and INCLUDEDIR are accepted as well.
PREFIX ?= /usr/local
prefix ?= $(PREFIX)
exec_prefix ?= $(prefix)
bindir ?= $(exec_prefix)/bin
LIBDIR ?= $(exec_prefix)/lib
libdir ?= $(LIBDIR)
INCLUDEDIR ?= $(prefix)/include
includedir ?= $(INCLUDEDIR)
datarootdir ?= $(prefix)/share
datadir ?= $(datarootdir)
mandir ?= $(datarootdir)/man
pkgconfigdir ?= $(libdir)/pkgconfig
cmakedir ?= $(libdir)/cmake/tilec
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
RT_HDRS := $(wildcard runtime/*.h)
RT_SO := build/libtilec_rt.so.$(VERSION)
HDRS := $(wildcard cmd/*.h frontend/*.h frontend/*.def sema/*.h codegen/*.h runtime/*.h)
UNIT_SRCS := $(sort $(wildcard tests/unit/test_*.c))

CORE_OBJS := $(CORE_SRCS:%.c=build/obj/%.o)
SAN_OBJS := $(CORE_SRCS:%.c=build/san/%.o)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=build/unit/%)

.PHONY: all check unit clean install uninstall examples setup-check golden-update fuzz
Q := @
ifeq ($(V),1)
Q :=
endif
all: bin/tilec build/libtilec_rt.a $(RT_SO)

# libclang is checked (and installed) once before the first compile; the
# stamp, or a tilec already built, keeps `make install` and later builds from
# checking again.
SETUP_STAMP := build/.setup-ok
SETUP_DEP := $(if $(wildcard bin/tilec),,$(SETUP_STAMP))
$(SETUP_STAMP):
	@sh tests/ensure_libclang.sh
	@mkdir -p build && touch $@

setup-check:
	@sh tests/ensure_libclang.sh

build/obj/%.o: %.c $(HDRS) | $(SETUP_DEP)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(OPT) $(WARN) $(CPPFLAGS_ALL) $(CLANG_CFLAGS) -c $< -o $@

build/san/%.o: %.c $(HDRS) | $(SETUP_DEP)
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

# The launch runtime, position-independent so that the static library links
# into shared objects too; the shared one carries a versioned soname
# (libtilec_rt.so.0 -> libtilec_rt.so.0.1.0).
build/rt/tilec_rt_pic.o: $(RT_SRCS) $(RT_HDRS)
	@mkdir -p build/rt
	@echo "  CC      runtime/tilec_rt.c"
	$(Q)$(CC) $(OPT) $(WARN) -fPIC -Iruntime -c runtime/tilec_rt.c -o $@

build/libtilec_rt.a: build/rt/tilec_rt_pic.o
	@rm -f $@; ar rcs $@ $<

$(RT_SO): build/rt/tilec_rt_pic.o
	@echo "  LD      $@"
	$(Q)$(CC) -shared -Wl,-soname,libtilec_rt.so.$(SOMAJOR) -Wl,-z,defs $(LDFLAGS) -o $@ $<
	@ln -sf libtilec_rt.so.$(VERSION) build/libtilec_rt.so.$(SOMAJOR)
	@ln -sf libtilec_rt.so.$(SOMAJOR) build/libtilec_rt.so

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
fuzz: | $(SETUP_DEP)
	@mkdir -p build/fuzz
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer tests/fuzz/fuzz_frontend.c $(CORE_SRCS) $(CLANG_LIBS) -lm -o build/fuzz/fuzz_frontend
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer tests/fuzz/fuzz_layout.c sema/layout.c sema/layout_algebra.c sema/layout_text.c cmd/layout_cli.c -lm -o build/fuzz/fuzz_layout
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
	    bin/tilec --emit=ast $$f > tests/golden/$$n.ast && bin/tilec --emit=tir $$f > tests/golden/$$n.tir && \
	    if grep -qE 'TILE_ARRAY_KERNEL|TILE_GRAPH' $$f; then :; else bin/tilec --emit=typed $$f > tests/golden/$$n.typed; fi; \
	    if grep -q TILE_GRAPH $$f; then bin/tilec --check --remarks --color=never $$f > tests/golden/$$n.remarks 2>&1; fi; \
	done

# ---- installation ------------------------------------------------------------
# `make install` copies only what `make all` built (no libclang check when
# it is built); `make uninstall` removes exactly the files install wrote.
# Paths under $(prefix) are written relative to it: ${prefix} in the
# pkg-config files, the config file's own location in the CMake package
# (relocatable).  CUDA_LIBDIR, the directory of libcudart for tilec-cuda.pc,
# is found from nvcc's location; set it to override (empty: no -L).
empty :=
space := $(empty) $(empty)
comma := ,
# $(call relto,DIR,PLACEHOLDER): DIR with a leading $(prefix) replaced.
relto = $(if $(filter $(prefix),$(1)),$(2),$(if $(filter $(prefix)/%,$(1)),$(2)/$(patsubst $(prefix)/%,%,$(1)),$(1)))
CMAKE_PREFIX_EXPR = $(if $(filter $(prefix)/%,$(cmakedir)),$${CMAKE_CURRENT_LIST_DIR}/$(subst $(space),/,$(patsubst %,..,$(subst /, ,$(patsubst $(prefix)/%,%,$(cmakedir))))),$(prefix))
SYSTEM_LIBDIRS = /lib /lib64 /usr/lib /usr/lib64 $(addprefix /usr/lib/,$(shell $(CC) -print-multiarch 2>/dev/null))
PC_RPATH = $(if $(filter $(SYSTEM_LIBDIRS),$(libdir)),,-Wl$(comma)-rpath$(comma)$${libdir} )
NVCC_DIR = $(patsubst %/bin/,%,$(dir $(shell command -v $(NVCC) 2>/dev/null)))
CUDA_LIBDIR ?= $(firstword $(foreach d,lib64 targets/x86_64-linux/lib targets/sbsa-linux/lib lib,$(if $(wildcard $(NVCC_DIR)/$(d)/libcudart.so),$(NVCC_DIR)/$(d))))
TILEC_SUBST = -e 's|@VERSION@|$(VERSION)|g' -e 's|@SOMAJOR@|$(SOMAJOR)|g'
PC_SUBST = $(TILEC_SUBST) -e 's|@prefix@|$(prefix)|g' \
	-e 's|@libdir@|$(call relto,$(libdir),$${prefix})|g' \
	-e 's|@includedir@|$(call relto,$(includedir),$${prefix})|g' \
	-e 's|@rpath@|$(PC_RPATH)|g' -e 's|@cudalibdir@|$(CUDA_LIBDIR)|g' \
	-e 's|@cudalibs@|$(if $(CUDA_LIBDIR),-L$${cudalibdir} )-lcudart|g'
CMAKE_SUBST = $(TILEC_SUBST) -e 's|@PREFIX_EXPR@|$(CMAKE_PREFIX_EXPR)|g' \
	-e 's|@bindir@|$(call relto,$(bindir),$${_tilec_prefix})|g' \
	-e 's|@libdir@|$(call relto,$(libdir),$${_tilec_prefix})|g' \
	-e 's|@includedir@|$(call relto,$(includedir),$${_tilec_prefix})|g' \
	-e 's|@datadir@|$(call relto,$(datadir),$${_tilec_prefix})|g'
PC_FILES := tilec tilec-cuda tilec-host
# The wheel template for Python users (docs/python.md), kept in runtime/python/.
PY_TEMPLATE := pyproject.toml CMakeLists.txt
INSTALLED = $(bindir)/tilec $(addprefix $(includedir)/,$(notdir $(RT_HDRS))) \
	$(libdir)/libtilec_rt.a $(libdir)/libtilec_rt.so.$(VERSION) $(libdir)/libtilec_rt.so.$(SOMAJOR) $(libdir)/libtilec_rt.so \
	$(PC_FILES:%=$(pkgconfigdir)/%.pc) $(cmakedir)/tilecConfig.cmake $(cmakedir)/tilecConfigVersion.cmake \
	$(datadir)/tilec/tilec_rt.c $(PY_TEMPLATE:%=$(datadir)/tilec/python-template/%) $(mandir)/man1/tilec.1

install: bin/tilec build/libtilec_rt.a $(RT_SO)
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(includedir) $(DESTDIR)$(libdir) $(DESTDIR)$(pkgconfigdir) \
	    $(DESTDIR)$(cmakedir) $(DESTDIR)$(datadir)/tilec/python-template $(DESTDIR)$(mandir)/man1
	install -m 755 bin/tilec $(DESTDIR)$(bindir)/tilec
	install -m 644 $(RT_HDRS) $(DESTDIR)$(includedir)/
	install -m 644 build/libtilec_rt.a $(DESTDIR)$(libdir)/libtilec_rt.a
	install -m 755 $(RT_SO) $(DESTDIR)$(libdir)/libtilec_rt.so.$(VERSION)
	ln -sf libtilec_rt.so.$(VERSION) $(DESTDIR)$(libdir)/libtilec_rt.so.$(SOMAJOR)
	ln -sf libtilec_rt.so.$(SOMAJOR) $(DESTDIR)$(libdir)/libtilec_rt.so
	install -m 644 runtime/tilec_rt.c $(DESTDIR)$(datadir)/tilec/tilec_rt.c
	install -m 644 $(PY_TEMPLATE:%=runtime/python/%) $(DESTDIR)$(datadir)/tilec/python-template/
	install -m 644 docs/tilec.1 $(DESTDIR)$(mandir)/man1/tilec.1
	for pc in $(PC_FILES); do sed $(PC_SUBST) docs/$$pc.pc.in > $(DESTDIR)$(pkgconfigdir)/$$pc.pc || exit 1; done
	sed $(CMAKE_SUBST) runtime/cmake/tilecConfig.cmake.in > $(DESTDIR)$(cmakedir)/tilecConfig.cmake
	sed $(CMAKE_SUBST) runtime/cmake/tilecConfigVersion.cmake.in > $(DESTDIR)$(cmakedir)/tilecConfigVersion.cmake

uninstall:
	rm -f $(addprefix $(DESTDIR),$(INSTALLED))
	rmdir $(DESTDIR)$(cmakedir) $(DESTDIR)$(datadir)/tilec/python-template $(DESTDIR)$(datadir)/tilec 2>/dev/null || true

clean:
	rm -rf build bin
