#!/bin/sh
# shellcheck disable=SC2086,SC2046,SC2016  # word splitting of flag lists is meant
# tests/project/run.sh: real out-of-tree projects built against an installed
# tilec (host target, no GPU needed): the host Makefile of docs/cli.md (make
# settles, edits and touches rebuild what they should), CMake projects using
# find_package(tilec) + tilec_add_kernels under Ninja and "Unix Makefiles"
# (no-op rebuilds, kernel and header edits, Ninja's restat), shared libraries
# with the static PIC and the shared runtime (linked, dlopen()ed, ctypes),
# ccache hits on generated code, the CUDA-target project when nvcc is there
# (configure, generate, one nvcc compile and the link; not run), and install/uninstall with DESTDIR into a relocated tree.
# Ends with "project: N passed, N failed".
set -u
# Install variables and flags of an enclosing make (make check DESTDIR=...)
# must not leak into the installs below.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS DESTDIR PREFIX prefix exec_prefix bindir LIBDIR libdir INCLUDEDIR includedir \
    datarootdir datadir mandir pkgconfigdir cmakedir
cd "$(dirname "$0")/../.." || exit 2
TOP=$(pwd)
OUT=${OUT:-build/test/project}
rm -rf "$OUT"
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
PREFIX=$OUT/prefix
STAGE=$OUT/stage
p=0; f=0
ok() { p=$((p + 1)); }
bad() { echo "project: $1"; f=$((f + 1)); }
# has FILE REGEX / hasnt FILE REGEX: extended grep on a log
has() { grep -Eq -- "$2" "$1"; }
hasnt() { ! grep -Eq -- "$2" "$1"; }
show() { sed 's/^/    /' "$1" | tail -n "${2:-15}"; }
# Timestamps one second apart, so that no comparison depends on the clock's
# resolution.
tick() { sleep 1; }

# --- tools and installation ------------------------------------------------
TOOLS_OK=1
if sh tests/ensure_tools.sh ccache ninja cmake pkg-config > "$OUT/tools.log" 2>&1; then ok; else
    bad "build tools missing and could not be installed (apt-get): $(tail -n 1 "$OUT/tools.log")"; TOOLS_OK=0
fi
have() { command -v "$1" > /dev/null 2>&1; }

if make -n install prefix="$PREFIX" 2>&1 | grep -q ensure_libclang; then
    bad "make install would run the libclang check although everything is built"
else ok; fi
if make -s install prefix="$PREFIX" > "$OUT/install.log" 2>&1; then ok; else bad "make install failed"; show "$OUT/install.log"; fi
# A staged install for /opt/tilec with the headers in include/tilec (not
# where tilec looks by itself), used from where it lies (relocated).
STAGED="DESTDIR=$STAGE PREFIX=/opt/tilec INCLUDEDIR=/opt/tilec/include/tilec"
if make -s install $STAGED > "$OUT/stage.log" 2>&1 && [ -f "$STAGE/opt/tilec/include/tilec/tilec.h" ]; then ok
else bad "make install DESTDIR INCLUDEDIR failed"; show "$OUT/stage.log"; fi
RELOC=$STAGE/opt/tilec
if [ -f "$RELOC/lib/cmake/tilec/tilecConfig.cmake" ] && ! grep -q "$STAGE" "$RELOC/lib/cmake/tilec/tilecConfig.cmake" "$RELOC/lib/pkgconfig/tilec.pc" &&
   grep -q '^prefix=/opt/tilec$' "$RELOC/lib/pkgconfig/tilec.pc"; then ok; else bad "staged install: DESTDIR leaked into the files or they are missing"; fi
if [ "$(readlink "$PREFIX/lib/libtilec_rt.so.0")" = libtilec_rt.so.0.1.0 ] && [ "$(readlink "$PREFIX/lib/libtilec_rt.so")" = libtilec_rt.so.0 ] &&
   readelf -d "$PREFIX/lib/libtilec_rt.so.0.1.0" | grep -q 'SONAME.*\[libtilec_rt.so.0\]'; then ok; else bad "shared runtime: wrong soname or links"; fi
others=$(nm -D --defined-only "$PREFIX/lib/libtilec_rt.so.0.1.0" 2>&1 | awk '{ print $NF }' | grep -v '^tilec_')
if [ -z "$others" ] && nm -D --defined-only "$PREFIX/lib/libtilec_rt.so.0.1.0" | grep -q ' tilec_validate\| tilec_status_string'; then ok
else bad "shared runtime exports symbols outside tilec_*: $others"; fi
for h in runtime/*.h; do
    cmp -s "$h" "$PREFIX/include/$(basename "$h")" || { bad "$h is not installed"; continue; }; ok
done
if [ -f "$PREFIX/share/tilec/tilec_rt.c" ]; then ok; else bad "tilec_rt.c is not installed to share/tilec"; fi
export PATH="$PREFIX/bin:$PATH"
export PKG_CONFIG_PATH="$PREFIX/lib/pkgconfig"
if [ "$(pkg-config --modversion tilec tilec-host 2>&1 | sort -u)" = 0.1.0 ] &&
   pkg-config --libs tilec | grep -q -- "-L$PREFIX/lib .*-ltilec_rt" &&
   pkg-config --libs tilec-host | grep -q -- '-fopenmp' && pkg-config --cflags tilec-host | grep -q -- "-fopenmp.*-I$PREFIX/include\|-I$PREFIX/include.*-fopenmp" &&
   pkg-config --libs tilec-cuda | grep -q -- '-lcudart' && pkg-config --static --libs tilec-cuda | grep -q -- '-lrt'; then ok
else bad "pkg-config files give wrong flags"; pkg-config --cflags --libs tilec tilec-host tilec-cuda 2>&1 | sed 's/^/    /'; fi

# A project directory: the saxpy kernel and application of examples/app.
mkproject() { # DIR [cmake-template-dir]
    mkdir -p "$1/include"
    cp examples/app/saxpy.tile.c examples/app/main.c "$1/"
    cp examples/app/params.h "$1/include/"
    [ $# -gt 1 ] && cp "$2"/* "$1/"
    return 0
}

# --- a. plain make with the host Makefile of docs/cli.md ----------------------
M=$OUT/make
mkdir -p "$M/src"
awk '/^## Using tilec from make/ { s = 1 } s && /^```make/ { n++; if (n == 2) { p = 1; next } } p && /^```/ { exit } p' docs/cli.md > "$M/Makefile"
cp examples/app/saxpy.tile.c "$M/src/"
cp examples/app/main.c "$M/app.c"
cp examples/app/params.h "$M/"
MK="make -C $M TILECFLAGS=-I$M"
if grep -q -- '--target=host' "$M/Makefile" && $MK > "$M/build1.log" 2>&1 && "$M/app" > "$M/run.log" 2>&1 &&
   grep -q '100000 of 100000' "$M/run.log"; then ok; else bad "make: the docs' host Makefile did not build or run"; show "$M/build1.log"; fi
if $MK -q > /dev/null 2>&1; then ok; else bad "make: make -q is not 0 after a build (make does not settle)"; $MK -n 2>&1 | show /dev/stdin; fi
tick
sed -i 's/a \* xs + ys/ys + a * xs/' "$M/src/saxpy.tile.c"
if $MK > "$M/build2.log" 2>&1 && has "$M/build2.log" 'tilec .*--target=host' && has "$M/build2.log" '-c build/saxpy\.c' &&
   has "$M/build2.log" '-o app ' && "$M/app" > /dev/null 2>&1; then ok; else bad "make: a kernel edit does not rerun tilec, cc and the link"; show "$M/build2.log"; fi
tick
touch "$M/src/saxpy.tile.c"
if $MK > "$M/build3.log" 2>&1 && has "$M/build3.log" 'tilec .*--target=host' && $MK -q > /dev/null 2>&1; then ok
else bad "make: touching the kernel does not rerun tilec, or make -q is not 0 afterwards"; show "$M/build3.log"; fi
tick
sed -i 's/SAXPY_TILE 512/SAXPY_TILE 256/' "$M/params.h"
if $MK > "$M/build4.log" 2>&1 && has "$M/build4.log" 'tilec ' && grep -q '256' "$M/build/saxpy.c" && "$M/app" > /dev/null 2>&1 &&
   $MK -q > /dev/null 2>&1; then ok; else bad "make: a header edit does not rerun tilec"; show "$M/build4.log"; fi

# --- b. CMake: find_package(tilec) + tilec_add_kernels -------------------------
# cmake_project NAME GENERATOR TILEC_DIR: configure, build, run, then the
# rebuild checks.  The kernel's output changes with the edit below; the
# header edit changes a tile size.
cmake_project() {
    name=$1; gen=$2; tdir=$3
    S=$OUT/$name; B=$S/build
    mkproject "$S" tests/project/cmake
    if ! cmake -S "$S" -B "$B" -G "$gen" -Dtilec_DIR="$tdir" > "$S/configure.log" 2>&1; then
        bad "$name: cmake configure failed"; show "$S/configure.log"; return
    fi
    ok
    if cmake --build "$B" -j 2 > "$S/build1.log" 2>&1 && "$B/app" > "$S/run.log" 2>&1 && grep -q '100000 of 100000' "$S/run.log"; then ok
    else bad "$name: build or run failed"; show "$S/build1.log"; show "$S/run.log"; return; fi
    if grep -q -- '-MD -MF' "$S/build1.log" || grep -rq -- '-MD -MF' "$B"/build.ninja "$B"/CMakeFiles/app.dir/build.make 2>/dev/null; then ok
    else bad "$name: tilec does not run with -MD -MF"; fi
    if [ "$gen" = Ninja ]; then
        if grep -q -- '--write-if-changed' "$B/build.ninja"; then ok; else bad "$name: no --write-if-changed under Ninja"; fi
        if grep -q -- "TILEC_INCLUDE=$tdir/../../../include/tilec\|TILEC_INCLUDE=$RELOC/include/tilec" "$B/build.ninja"; then ok
        else bad "$name: tilec is not told where the relocated include/tilec is"; fi
    else
        if ! grep -rq -- '--write-if-changed' "$B/CMakeFiles/app.dir/build.make"; then ok; else bad "$name: --write-if-changed under make"; fi
    fi
    # A second build does nothing.
    if [ "$gen" = Ninja ]; then
        if ninja -C "$B" -n -d explain > "$S/noop.log" 2>&1 && has "$S/noop.log" 'no work to do' && hasnt "$S/noop.log" 'explain:'; then ok
        else bad "$name: a second build has work to do"; show "$S/noop.log"; fi
    else
        if cmake --build "$B" > "$S/noop.log" 2>&1 && hasnt "$S/noop.log" 'Building|Linking|Tile C'; then ok
        else bad "$name: a second build has work to do"; show "$S/noop.log"; fi
    fi
    tick
    sed -i 's/a \* xs + ys/ys + a * xs/' "$S/saxpy.tile.c"
    if cmake --build "$B" > "$S/build2.log" 2>&1 && has "$S/build2.log" 'Compiling Tile C kernel saxpy' &&
       has "$S/build2.log" 'Building C object.*app\.dir/.*saxpy\.c\.o' && has "$S/build2.log" 'Linking C executable app' &&
       "$B/app" > /dev/null 2>&1; then ok
    else bad "$name: a kernel edit does not rebuild the generated code, the object and the link"; show "$S/build2.log"; fi
    tick
    sed -i 's/SAXPY_TILE 512/SAXPY_TILE 256/' "$S/include/params.h"
    if cmake --build "$B" > "$S/build3.log" 2>&1 && has "$S/build3.log" 'Compiling Tile C kernel saxpy' &&
       grep -q 256 "$B/tilec/app/saxpy.c" && "$B/app" > /dev/null 2>&1; then ok
    else bad "$name: an edit of a header the kernel includes does not rerun tilec"; show "$S/build3.log"; fi
    if [ "$gen" = Ninja ]; then
        tick
        touch "$S/saxpy.tile.c"
        if cmake --build "$B" > "$S/build4.log" 2>&1 && has "$S/build4.log" 'Compiling Tile C kernel saxpy' &&
           hasnt "$S/build4.log" 'Building C object|Linking'; then ok
        else bad "$name: touching the kernel recompiles (restat + --write-if-changed not at work)"; show "$S/build4.log"; fi
        if ninja -C "$B" -n > "$S/noop2.log" 2>&1 && has "$S/noop2.log" 'no work to do'; then ok
        else bad "$name: after the touch, the next build still has work to do"; show "$S/noop2.log"; fi
    fi
    if "$B/app_src" > /dev/null 2>&1 && ! readelf -d "$B/app_src" | grep -q libtilec_rt; then ok
    else bad "$name: RUNTIME none with TILEC_RUNTIME_SOURCE compiled in does not work"; fi
    # c. shared libraries built from generated code, linked and loaded.
    if "$B/linked" > "$S/linked.log" 2>&1 && grep -q '3000 of 3000' "$S/linked.log"; then ok
    else bad "$name: a program linked with the shared library failed"; show "$S/linked.log"; fi
    if readelf -d "$B/libkern_rtstatic.so" | grep -q 'NEEDED.*libtilec_rt' ; then bad "$name: libkern_rtstatic.so needs the shared runtime"; else ok; fi
    if readelf -d "$B/libkern_rtshared.so" | grep -q 'NEEDED.*\[libtilec_rt.so.0\]'; then ok; else bad "$name: libkern_rtshared.so does not need libtilec_rt.so.0"; fi
    for lib in libkern_rtstatic.so libkern_rtshared.so; do
        if "$B/loader" "$B/$lib" > "$S/load.log" 2>&1 && grep -q '3000 of 3000' "$S/load.log"; then ok
        else bad "$name: dlopen() of $lib failed"; show "$S/load.log"; fi
    done
}
if [ $TOOLS_OK -eq 1 ] || have ninja; then
    cmake_project cmake-ninja Ninja "$RELOC/lib/cmake/tilec"
else bad "cmake-ninja: skipped, ninja is missing"; fi
if have cmake; then
    cmake_project cmake-make "Unix Makefiles" "$PREFIX/lib/cmake/tilec"
fi

# find_package honours the version file.
have cmake || bad "cmake is missing"
V=$OUT/cmake-version
mkdir -p "$V"
printf 'cmake_minimum_required(VERSION 3.20)\nproject(v NONE)\nfind_package(tilec ${WANT} CONFIG REQUIRED)\n' > "$V/CMakeLists.txt"
if cmake -S "$V" -B "$V/b1" -DWANT=0.1 -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$V/ok.log" 2>&1 &&
   ! cmake -S "$V" -B "$V/b2" -DWANT=0.2 -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$V/bad.log" 2>&1 &&
   ! cmake -S "$V" -B "$V/b3" -DWANT=1.0 -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$V/bad.log" 2>&1; then ok
else bad "find_package(tilec VERSION) accepts or refuses the wrong versions"; show "$V/ok.log"; fi

# --- c. plain cc -shared -fPIC with the static and the shared runtime ----------
L=$OUT/shlib
mkdir -p "$L"
CFL="-O2 -fPIC -I$L -I$TOP/examples/app $(pkg-config --cflags tilec)"
if tilec --target=host -I examples/app -o "$L/saxpy.c" examples/app/saxpy.tile.c 2> "$L/tilec.log" &&
   cc $CFL -shared -o "$L/libk_static.so" "$L/saxpy.c" tests/project/cmake/wrap.c "$(pkg-config --variable=staticlib tilec)" -lm 2> "$L/cc1.log" &&
   cc $CFL -shared -o "$L/libk_shared.so" "$L/saxpy.c" tests/project/cmake/wrap.c $(pkg-config --libs tilec) 2> "$L/cc2.log" &&
   cc -O2 -o "$L/loader" tests/project/cmake/loader.c -ldl 2> "$L/cc3.log"; then ok
else bad "cc -shared: building the shared libraries failed"; show "$L/tilec.log"; show "$L/cc1.log"; show "$L/cc2.log"; show "$L/cc3.log"; fi
for lib in libk_static.so libk_shared.so; do
    if "$L/loader" "$L/$lib" > "$L/load.log" 2>&1 && grep -q '3000 of 3000' "$L/load.log"; then ok
    else bad "cc -shared: dlopen() of $lib failed"; show "$L/load.log"; fi
    if have python3; then
        if python3 - "$L/$lib" > "$L/py.log" 2>&1 <<'PY'
import ctypes, sys
lib = ctypes.CDLL(sys.argv[1])
n = 1000
x = (ctypes.c_float * n)(*range(n))
y = (ctypes.c_float * n)(*([2.0] * n))
lib.saxpy_run.argtypes = [ctypes.POINTER(ctypes.c_float), ctypes.POINTER(ctypes.c_float), ctypes.c_int, ctypes.c_float]
st = lib.saxpy_run(x, y, n, 0.5)
bad = sum(1 for i in range(n) if y[i] != 0.5 * i + 2.0)
print("ctypes: status", st, "bad", bad)
sys.exit(st != 0 or bad != 0)
PY
        then ok; else bad "ctypes: calling $lib failed"; show "$L/py.log"; fi
    fi
done

# --- d. ccache: generated code compiles to a cache hit the second time -------
C=$OUT/ccache
mkdir -p "$C"
if have ccache; then
    export CCACHE_DIR="$C/cache"
    tilec --target=host -I examples/app -o "$C/saxpy.c" examples/app/saxpy.tile.c 2> "$C/tilec.log"
    ccache -z > /dev/null 2>&1
    ccache cc -O2 -I"$C" $(pkg-config --cflags tilec) -c "$C/saxpy.c" -o "$C/a.o" > "$C/cc1.log" 2>&1
    tilec --target=host -I examples/app -o "$C/saxpy.c" examples/app/saxpy.tile.c 2>> "$C/tilec.log"
    ccache cc -O2 -I"$C" $(pkg-config --cflags tilec) -c "$C/saxpy.c" -o "$C/b.o" > "$C/cc2.log" 2>&1
    ccache --print-stats > "$C/stats.log" 2>&1
    hits=$(awk '$1 ~ /^(direct|preprocessed)_cache_hit$/ { n += $2 } END { print n + 0 }' "$C/stats.log")
    misses=$(awk '$1 == "cache_miss" { print $2 }' "$C/stats.log")
    if [ -f "$C/b.o" ] && [ "$hits" -eq 1 ] && [ "${misses:-0}" -eq 1 ] && cmp -s "$C/a.o" "$C/b.o"; then ok
    else bad "ccache: no cache hit on the second compile of generated code (hits $hits, misses ${misses:-?})"; show "$C/stats.log"; fi
    unset CCACHE_DIR
else
    bad "ccache: not installed (tests/ensure_tools.sh could not install it)"
fi

# --- the CUDA target: configure and generate (plus the tilec step) ------------
if have nvcc && have ninja && have cmake; then
    G=$OUT/cmake-cuda
    mkproject "$G" tests/project/cuda
    if cmake -S "$G" -B "$G/build" -G Ninja -Dtilec_DIR="$PREFIX/lib/cmake/tilec" > "$G/configure.log" 2>&1; then ok
    else bad "cuda: cmake configure failed"; show "$G/configure.log"; fi
    if [ -f "$G/build/build.ninja" ] && grep -q -- '--target=cuda --arch=sm_90' "$G/build/build.ninja" &&
       grep -q 'cudart' "$G/build/build.ninja" && grep -q 'arch=compute_90' "$G/build/build.ninja" &&
       ninja -C "$G/build" tilec/capp/saxpy.cu > "$G/gen.log" 2>&1 && grep -q '__global__' "$G/build/tilec/capp/saxpy.cu"; then ok
    else bad "cuda: the generated build does not run tilec --target=cuda, link cudart or set the architecture"; show "$G/gen.log"; fi
    # One small nvcc compile and the link (not run: no GPU needed here).
    if ninja -C "$G/build" > "$G/build.log" 2>&1 && readelf -d "$G/build/capp" > "$G/readelf.log" 2>&1 &&
       grep -q 'NEEDED.*libcudart' "$G/readelf.log" && grep -q 'NEEDED.*libtilec_rt.so.0' "$G/readelf.log"; then ok
    else bad "cuda: the CUDA-target project does not compile or link with cudart and the runtime"; show "$G/build.log"; fi
else
    echo "project: nvcc, ninja or cmake not found; the CUDA-target project is not checked"
fi

# --- uninstall removes exactly what install wrote ------------------------------
if make -s uninstall $STAGED > "$OUT/uninstall.log" 2>&1 &&
   [ -z "$(find "$STAGE" ! -type d)" ]; then ok
else bad "make uninstall left files behind"; find "$STAGE" ! -type d | sed 's/^/    /' | head; fi

echo "project: $p passed, $f failed"
[ "$f" -eq 0 ]
