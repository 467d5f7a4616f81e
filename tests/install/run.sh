#!/bin/sh
# tests/install/run.sh: `make install` into a temporary prefix, then the
# example application (examples/app) builds with the installed tilec through
# its own Makefile, runs, and rebuilds when a header its kernel includes
# changes (the dependency file at work).  Ends with "install: N passed, N failed".
set -u
# Install variables and flags of an enclosing make (make check DESTDIR=...)
# must not leak into the installs below.
unset MAKEFLAGS MAKEOVERRIDES MFLAGS DESTDIR PREFIX prefix exec_prefix bindir LIBDIR libdir INCLUDEDIR includedir \
    datarootdir datadir mandir pkgconfigdir cmakedir
cd "$(dirname "$0")/../.." || exit 2
OUT=${OUT:-build/test/install}
rm -rf "$OUT"
mkdir -p "$OUT"
PREFIX=$(cd "$OUT" && pwd)/prefix
p=0; f=0
ok() { p=$((p + 1)); }
bad() { echo "install: $1"; f=$((f + 1)); }
if make -s install PREFIX="$PREFIX" > "$OUT/install.log" 2>&1; then ok; else bad "make install failed"; tail -n 5 "$OUT/install.log"; fi
for x in bin/tilec include/tilec.h include/tilec_rt.h include/tilec_dlpack.h include/tilec_dtypes.h lib/libtilec_rt.a lib/libtilec_rt.so.0.1.0 lib/pkgconfig/tilec.pc \
         lib/pkgconfig/tilec-cuda.pc lib/pkgconfig/tilec-host.pc lib/cmake/tilec/tilecConfig.cmake \
         lib/cmake/tilec/tilecConfigVersion.cmake share/tilec/tilec_rt.c share/man/man1/tilec.1; do
    if [ -f "$PREFIX/$x" ]; then ok; else bad "missing $x"; fi
done
# The installed tilec finds its header relative to itself.
printf '#include <tilec.h>\nTILE_KERNEL void k(TILE_ARRAY(float, 1) a) { tile_store(a, tile_zeros(float, .shape = {4}), .index = {0}); }\n' > "$OUT/k.tile.c"
if "$PREFIX/bin/tilec" --check "$OUT/k.tile.c" 2> "$OUT/check.err"; then ok; else bad "installed tilec cannot find tilec.h"; cat "$OUT/check.err"; fi
APP=$OUT/app
cp -r examples/app "$APP"
rm -rf "$APP/build" "$APP/app"
if make -s -C "$APP" PREFIX="$PREFIX" > "$OUT/app.log" 2>&1 && "$APP/app" > "$OUT/run.log" 2>&1; then ok; else bad "the app did not build or run"; tail -n 10 "$OUT/app.log" "$OUT/run.log"; fi
if [ -f "$APP/build/saxpy.tile.d" ] && grep -q 'params.h' "$APP/build/saxpy.tile.d" && grep -q 'saxpy.h' "$APP/build/saxpy.tile.d"; then ok; else bad "dependency file does not list params.h and the header"; fi
# Nothing to do when nothing changed; a header change rebuilds the kernel.
if [ -z "$(make -s -C "$APP" PREFIX="$PREFIX" -n 2>/dev/null)" ]; then ok; else bad "a second make wants to rebuild"; fi
sleep 1
sed -i 's/SAXPY_TILE 512/SAXPY_TILE 256/' "$APP/params.h"
if make -C "$APP" PREFIX="$PREFIX" -n 2>/dev/null | grep -q 'tilec'; then ok; else bad "changing params.h does not rerun tilec"; fi
if make -s -C "$APP" PREFIX="$PREFIX" > "$OUT/app2.log" 2>&1 && "$APP/app" > /dev/null 2>&1 && grep -q 'shape = {SAXPY_TILE}' "$APP/saxpy.tile.c" &&
   grep -q '256' "$APP/build/saxpy.c"; then ok; else bad "rebuild after the header change failed"; tail -n 5 "$OUT/app2.log"; fi
echo "install: $p passed, $f failed"
[ "$f" -eq 0 ]
