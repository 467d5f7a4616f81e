#!/bin/sh
# shellcheck disable=SC2086  # word splitting of flag lists is meant
# tests/pypkg/run.sh: the Python module's shared library and wheel, built
# against an installed tilec (host target; no GPU needed): the Makefile of
# docs/python.md, tilec_add_python_module of the CMake package (static and
# shared runtime, renamed module, OUTPUT_DIR), the CUDA-target module when
# nvcc is there (configure, generate, nvcc compile and link; not run) and the
# tilec and nvcc commands of docs/python.md (step 3) as written, and a
# wheel built with scikit-build-core from the installed template
# (share/tilec/python-template) for examples/vec_add, installed into a
# private directory; each module is imported and called on NumPy arrays
# (tests/pypkg/check.py).  scikit-build-core is pip-installed into the output
# directory when Python lacks it.  Ends with "pypkg: N passed, N failed".
set -u
unset MAKEFLAGS MAKEOVERRIDES MFLAGS DESTDIR PREFIX prefix exec_prefix bindir LIBDIR libdir INCLUDEDIR includedir \
    datarootdir datadir mandir pkgconfigdir cmakedir
cd "$(dirname "$0")/../.." || exit 2
TOP=$(pwd)
OUT=${OUT:-build/test/pypkg}
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PREFIX=$OUT/prefix
PY=$(command -v "${PYTHON:-python3}") || PY=python3
CHECK=$TOP/tests/pypkg/check.py
p=0; f=0
ok() { p=$((p + 1)); }
bad() { echo "pypkg: $1"; f=$((f + 1)); }
show() { sed 's/^/    /' "$1" | tail -n "${2:-15}"; }
have() { command -v "$1" > /dev/null 2>&1; }
# needs_rt LIB: LIB needs the shared runtime; static_rt LIB: LIB exists and does not
needs_rt() { readelf -d "$1" 2>/dev/null | grep -q 'NEEDED.*libtilec_rt'; }
static_rt() { [ -f "$1" ] && ! needs_rt "$1"; }

if sh tests/ensure_tools.sh ninja cmake pkg-config > "$OUT/tools.log" 2>&1; then ok; else
    bad "build tools missing and could not be installed: $(tail -n 1 "$OUT/tools.log")"; fi
if "$PY" -c 'import numpy' > "$OUT/numpy.log" 2>&1; then ok; else bad "$PY cannot import numpy"; show "$OUT/numpy.log"; fi
if make -s install prefix="$PREFIX" > "$OUT/install.log" 2>&1; then ok; else bad "make install failed"; show "$OUT/install.log"; fi
TEMPLATE=$PREFIX/share/tilec/python-template
for t in runtime/python/*; do
    if cmp -s "$t" "$TEMPLATE/$(basename "$t")"; then ok; else bad "$t is not installed in share/tilec/python-template"; fi
done
export PATH="$PREFIX/bin:$PATH"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"

# --- a. make: the Makefile of docs/python.md ---------------------------------
M=$OUT/make
mkdir -p "$M/src"
awk '/^## Building the library with make/ { s = 1 } s && /^```make/ { p = 1; next } p && /^```/ { exit } p' docs/python.md > "$M/Makefile"
cp examples/vec_add/vec_add.tile.c "$M/src/"
if [ -s "$M/Makefile" ] && make -C "$M" > "$M/build.log" 2>&1 && [ -f "$M/build/vec_add.py" ] && [ -f "$M/build/libvec_add.so" ]; then ok
else bad "make: the Makefile of docs/python.md does not build build/vec_add.py and build/libvec_add.so"; show "$M/build.log"; fi
if static_rt "$M/build/libvec_add.so"; then ok; else bad "make: libvec_add.so needs the shared runtime (not self-contained)"; fi
if make -C "$M" -q build/libvec_add.so build/vec_add.py > /dev/null 2>&1; then ok; else bad "make: make -q is not 0 after a build"; fi
if (cd / && "$PY" "$CHECK" vec_add "$M/build") > "$M/py.log" 2>&1; then ok; else bad "make: calling the module failed"; show "$M/py.log"; fi

# --- b. CMake: tilec_add_python_module ---------------------------------------
C=$OUT/cmake
mkdir -p "$C"
cp tests/pypkg/cmake/CMakeLists.txt examples/vec_add/vec_add.tile.c "$C/"
if cmake -S "$C" -B "$C/build" -G Ninja -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$C/configure.log" 2>&1 &&
   cmake --build "$C/build" > "$C/build.log" 2>&1; then ok
else bad "cmake: configure or build failed"; show "$C/configure.log"; show "$C/build.log"; fi
if [ -f "$C/build/vec_add.py" ] && [ -f "$C/build/libvec_add.so" ] && [ -f "$C/build/py/vadd.py" ] && [ -f "$C/build/py/libvadd.so" ]; then ok
else bad "cmake: the modules and libraries are not where OUTPUT_DIR says"; ls -R "$C/build" | head -20; fi
if static_rt "$C/build/libvec_add.so"; then ok; else bad "cmake: libvec_add.so (RUNTIME static) needs the shared runtime"; fi
if needs_rt "$C/build/py/libvadd.so"; then ok; else bad "cmake: libvadd.so (RUNTIME shared) does not need the shared runtime"; fi
if (cd / && "$PY" "$CHECK" vec_add "$C/build") > "$C/py1.log" 2>&1; then ok; else bad "cmake: calling vec_add.py failed"; show "$C/py1.log"; fi
if (cd / && "$PY" "$CHECK" vadd "$C/build/py") > "$C/py2.log" 2>&1; then ok; else bad "cmake: calling the renamed module vadd.py failed"; show "$C/py2.log"; fi
if [ -f "$C/build/gen/vec_add.py" ] && (cd / && TILEC_VEC_ADD_LIBRARY=$C/build/libassembled.so "$PY" "$CHECK" vec_add "$C/build/gen") > "$C/py3.log" 2>&1; then ok
else bad "cmake: tilec_add_kernels(PYTHON) wrote no gen/vec_add.py, or it does not load \$TILEC_VEC_ADD_LIBRARY"; show "$C/py3.log"; fi
if ninja -C "$C/build" -n > "$C/noop.log" 2>&1 && grep -q 'no work to do' "$C/noop.log"; then ok
else bad "cmake: a second build has work to do"; show "$C/noop.log"; fi
# Misuse is refused at configure time.
E=$OUT/cmake-errors
mkdir -p "$E"
cp examples/vec_add/vec_add.tile.c "$E/"
for bad_call in "2bad SOURCES vec_add.tile.c" "two SOURCES vec_add.tile.c vec_add.tile.c" "rt SOURCES vec_add.tile.c RUNTIME none"; do
    printf 'cmake_minimum_required(VERSION 3.20)\nproject(e C)\nfind_package(tilec CONFIG REQUIRED)\ntilec_add_python_module(%s TARGET_KIND host)\n' "$bad_call" > "$E/CMakeLists.txt"
    if cmake -S "$E" -B "$E/b" -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$E/log" 2>&1; then bad "cmake: tilec_add_python_module($bad_call) accepted"
    elif grep -q 'tilec_add_python_module: ' "$E/log"; then ok; else bad "cmake: tilec_add_python_module($bad_call): no clear message"; show "$E/log"; fi
    rm -rf "$E/b"
done

# --- c. the CUDA target: configure, generate, compile and link (not run) ------
if have nvcc; then
    G=$OUT/cmake-cuda
    mkdir -p "$G"
    cp tests/pypkg/cuda/CMakeLists.txt examples/vec_add/vec_add.tile.c "$G/"
    if cmake -S "$G" -B "$G/build" -G Ninja -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$G/configure.log" 2>&1 &&
       grep -q -- '--target=cuda --arch=sm_90 .*--python=.*/vec_add\.py' "$G/build/build.ninja"; then ok
    else bad "cuda: configure failed or tilec does not run with --python"; show "$G/configure.log"; fi
    if cmake --build "$G/build" > "$G/build.log" 2>&1 && [ -f "$G/build/vec_add.py" ] &&
       grep -q '^TARGET = "cuda"' "$G/build/vec_add.py" && nm -D --defined-only "$G/build/libvec_add.so" > "$G/nm.log" 2>&1 &&
       grep -q ' T vec_add$' "$G/nm.log" && grep -q ' T tilec_array_from_dlpack_versioned$' "$G/nm.log"; then ok
    else bad "cuda: the module's library does not build or lacks the launcher and the runtime"; show "$G/build.log"; fi
    if readelf -d "$G/build/libvec_add.so" | grep -q 'NEEDED.*\(libtilec_rt\|libcudart\)'; then
        bad "cuda: libvec_add.so needs libtilec_rt or libcudart (not self-contained)"; else ok; fi
    # The two commands of docs/python.md's step 3, as written there.
    N=$OUT/nvcc
    mkdir -p "$N/build"
    cp examples/vec_add/vec_add.tile.c "$N/"
    awk '/^3\. Compile it/ { s = 1; next } s && /^   or, in CMake/ { exit } s && /^       [a-z ]/' docs/python.md | sed 's/^       //; s/ *# .*//' > "$N/cmds.sh"
    if grep -q '^nvcc .*-shared' "$N/cmds.sh" && (cd "$N" && sh -e ./cmds.sh) > "$N/build.log" 2>&1 &&
       [ -f "$N/build/vec_add.py" ] && nm -D --defined-only "$N/build/libvec_add.so" 2> /dev/null | grep -q ' T vec_add$' &&
       ! readelf -d "$N/build/libvec_add.so" | grep -q 'NEEDED.*\(libtilec_rt\|libcudart\)'; then ok
    else bad "nvcc: the commands of docs/python.md step 3 do not build a self-contained build/libvec_add.so"; show "$N/cmds.sh"; show "$N/build.log"; fi
else
    echo "pypkg: nvcc not found; the CUDA-target module is not checked"
fi

# --- d. a wheel from the installed template ------------------------------------
# Without scikit-build-core and no way to install it (offline), one failure
# says so and the rest of the wheel's checks do not run.
wheel() {
    W=$OUT/wheel
    mkdir -p "$W"
    DEPS=$W/deps
    if "$PY" -c 'import scikit_build_core' > /dev/null 2>&1; then DEPS=
    elif ! "$PY" -m pip install --disable-pip-version-check -q --target "$DEPS" 'scikit-build-core>=0.10' > "$W/pip.log" 2>&1; then
        bad "wheel: scikit-build-core is not installed and pip could not install it (offline?): $(tail -n 1 "$W/pip.log")"
        return
    fi
    ok
    cp -r "$TEMPLATE" "$W/proj"
    mkdir -p "$W/proj/kernels"
    cp examples/vec_add/vec_add.tile.c "$W/proj/kernels/"
    if (cd "$W/proj" && PYTHONPATH=$DEPS CMAKE_PREFIX_PATH=$PREFIX "$PY" -m pip wheel --disable-pip-version-check --no-build-isolation \
            --no-deps -C cmake.define.TILEC_TARGET=host -w "$W/dist" .) > "$W/wheel.log" 2>&1; then ok
    else bad "wheel: pip wheel of the template failed"; show "$W/wheel.log"; return; fi
    WHL=$(ls "$W"/dist/my_kernels-*.whl 2>/dev/null | head -n 1)
    if [ -n "$WHL" ] && "$PY" -m zipfile -l "$WHL" > "$W/list.log" 2>&1 &&
       grep -q '^my_kernels/vec_add.py ' "$W/list.log" && grep -q '^my_kernels/libvec_add.so ' "$W/list.log" &&
       grep -q '^my_kernels/__init__.py ' "$W/list.log" && case $WHL in *-py3-none-linux_*.whl) true ;; *) false ;; esac; then ok
    else bad "wheel: no py3-none-linux wheel with my_kernels/{__init__.py,vec_add.py,libvec_add.so}: ${WHL:-none}"; show "$W/list.log"; return; fi
    if "$PY" -m pip install --disable-pip-version-check -q --no-deps --target "$W/site" "$WHL" > "$W/install.log" 2>&1 &&
       [ -f "$W/site/my_kernels/libvec_add.so" ]; then ok
    else bad "wheel: pip install --target failed"; show "$W/install.log"; return; fi
    if static_rt "$W/site/my_kernels/libvec_add.so"; then ok; else bad "wheel: libvec_add.so needs the shared runtime"; fi
    # Imported with no tilec on any path.
    if (cd / && env -u CMAKE_PREFIX_PATH PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$PY" "$CHECK" my_kernels "$W/site") > "$W/py.log" 2>&1 &&
       grep -q "^ok $W/site/my_kernels/vec_add.py" "$W/py.log"; then ok
    else bad "wheel: importing the installed wheel and calling vec_add failed"; show "$W/py.log"; fi
}
wheel

# --- uninstall removes the template too ------------------------------------------
if make -s uninstall prefix="$PREFIX" > "$OUT/uninstall.log" 2>&1 && [ ! -e "$TEMPLATE" ] && [ -z "$(find "$PREFIX" ! -type d)" ]; then ok
else bad "make uninstall left files behind"; find "$PREFIX" ! -type d | sed 's/^/    /' | head; fi

echo "pypkg: $p passed, $f failed"
[ "$f" -eq 0 ]
