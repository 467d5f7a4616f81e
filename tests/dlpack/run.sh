#!/bin/sh
# tests/dlpack/run.sh: the DLPack section of tests/run.sh.
#  1. The runtime's ABI does not depend on the build machine's dlpack.h:
#     runtime/tilec_rt.c compiled as C and as C++, with nothing but
#     runtime/ on the include path and with Debian's DLPack 0.6 header
#     (libdlpack-dev, which tests/ensure_libclang.sh installs) included
#     first, exports the same symbols; test_rt.c built against the 0.6
#     header (its static layout asserts then check the system's DLTensor)
#     passes with a runtime built without it; a system dlpack.h included
#     after tilec_rt.h is harmless.
#  2. The CUDA launcher of examples/vec_add calls tilec_check_device for
#     every array (after the empty-grid return); the host launcher does not.
#  3. Capsules from NumPy (legacy and versioned, read-only and copied)
#     through a host-target kernel built into a shared library and called
#     with ctypes (numpy_dlpack.py).  NumPy is installed with pip when
#     absent; NumPy >= 2.1 is needed for versioned capsules.
# Environment: TILEC (the compiler), OUT (a scratch directory), CC, CXX.
# The last line is "dlpack: N passed, N failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/test/dlpack}
CC=${CC:-cc}
CXX=${CXX:-c++}
rm -rf "$OUT"
mkdir -p "$OUT"
p=0; f=0
ok() { p=$((p + 1)); echo "ok   $1"; }
bad() { f=$((f + 1)); echo "FAIL $1"; }
W="-Wall -Wextra -Werror"

# --- 1. the same runtime with and without a system dlpack.h --------------------
SYS=/usr/include/dlpack/dlpack.h
if [ ! -f "$SYS" ]; then
    bad "no $SYS: install libdlpack-dev (sh tests/ensure_libclang.sh does)"
else
    mkdir -p "$OUT/sys/dlpack"
    cp "$SYS" "$OUT/sys/dlpack/dlpack.h"
    grep -q 'DLPACK_VERSION 60' "$SYS" || echo "note: $SYS is not DLPack 0.6; comparing with it anyway"
    syms() { nm -g --defined-only "$1" | awk '{print $2, $3}' | sort; }
    build_pair() { # LANG-name compiler flags...
        name=$1; shift
        if "$@" -Iruntime -c runtime/tilec_rt.c -o "$OUT/$name-own.o" 2> "$OUT/$name-own.err" &&
           "$@" -I"$OUT/sys" -Iruntime -include dlpack/dlpack.h -c runtime/tilec_rt.c \
               -o "$OUT/$name-sys.o" 2> "$OUT/$name-sys.err"; then
            syms "$OUT/$name-own.o" > "$OUT/$name-own.syms"
            syms "$OUT/$name-sys.o" > "$OUT/$name-sys.syms"
            if ! grep -q ' tilec_array_from_dlpack_versioned$' "$OUT/$name-own.syms"; then
                bad "$name: tilec_array_from_dlpack_versioned is not exported"
            elif diff -u "$OUT/$name-own.syms" "$OUT/$name-sys.syms" > "$OUT/$name.diff"; then
                ok "$name: the runtime exports the same $(wc -l < "$OUT/$name-own.syms") symbols with and without the system dlpack.h"
            else
                bad "$name: exported symbols differ with the system dlpack.h:"; head -20 "$OUT/$name.diff"
            fi
        else
            bad "$name: the runtime does not compile:"; cat "$OUT/$name-own.err" "$OUT/$name-sys.err" | head -20
        fi
    }
    # shellcheck disable=SC2086 # W is a list of flags
    build_pair c "$CC" -std=c17 -O1 $W
    # shellcheck disable=SC2086
    build_pair c++ "$CXX" -std=c++17 -x c++ -O1 $W
    # The unit test against the system header (its _Static_asserts pin the
    # system's layouts to DLPack 1.x's), linked with the runtime built
    # without it.
    # shellcheck disable=SC2086
    if "$CC" -std=c17 -O1 $W -D_POSIX_C_SOURCE=200809L -I"$OUT/sys" -Iruntime -Itests/unit \
            -include dlpack/dlpack.h tests/unit/test_rt.c "$OUT/c-own.o" -o "$OUT/test_rt_sys" \
            > "$OUT/test_rt_sys.log" 2>&1 &&
       "$OUT/test_rt_sys" >> "$OUT/test_rt_sys.log" 2>&1; then
        ok "test_rt built on the system dlpack.h, runtime built without it: $(tail -n 1 "$OUT/test_rt_sys.log")"
    else
        bad "test_rt on the system dlpack.h:"; tail -n 20 "$OUT/test_rt_sys.log"
    fi
    # A system dlpack.h included after tilec_rt.h is skipped by the guard,
    # in C and C++; one included before gets the versioned types added.
    printf '#include "tilec_rt.h"\n#include <dlpack/dlpack.h>\nint main(void) { DLManagedTensorVersioned m; DLManagedTensor l; (void)m; (void)l; return kDLBool == 6 ? 0 : 1; }\n' \
        > "$OUT/after.c"
    printf '#include <dlpack/dlpack.h>\n#include "tilec_rt.h"\nint main(void) { DLManagedTensorVersioned m; m.flags = DLPACK_FLAG_BITMASK_READ_ONLY; return m.flags == 1 ? 0 : 1; }\n' \
        > "$OUT/before.c"
    for src in after before; do
        # shellcheck disable=SC2086
        if "$CC" -std=c17 $W -I"$OUT/sys" -Iruntime "$OUT/$src.c" -o "$OUT/$src" 2> "$OUT/$src.err" &&
           "$OUT/$src" && "$CXX" -std=c++17 -x c++ $W -I"$OUT/sys" -Iruntime "$OUT/$src.c" -o "$OUT/$src-cxx" \
               2>> "$OUT/$src.err" && "$OUT/$src-cxx"; then
            ok "system dlpack.h included $src tilec_rt.h (C and C++)"
        else
            bad "system dlpack.h included $src tilec_rt.h:"; head -20 "$OUT/$src.err"
        fi
    done
fi

# --- 2. the CUDA launcher checks every array's device; the host one does not ---
# (the check itself runs on a GPU: tests/gpu/device_check.cu)
if "$TILEC" -o "$OUT/va.cu" examples/vec_add/vec_add.tile.c > "$OUT/va.log" 2>&1 &&
   "$TILEC" --target=host -o "$OUT/va_host.c" examples/vec_add/vec_add.tile.c >> "$OUT/va.log" 2>&1; then
    got=$(grep -o 'tilec_check_device([a-z]*, "[a-z]*", &dev_)' "$OUT/va.cu" | tr '\n' ' ')
    want='tilec_check_device(a, "a", &dev_) tilec_check_device(b, "b", &dev_) tilec_check_device(c, "c", &dev_) '
    empty=$(grep -n 'an empty problem' "$OUT/va.cu" | cut -d: -f1)
    first=$(grep -n 'tilec_check_device(' "$OUT/va.cu" | head -n 1 | cut -d: -f1)
    if [ "$got" = "$want" ] && [ -n "$empty" ] && [ -n "$first" ] && [ "$first" -gt "$empty" ] &&
       ! grep -q tilec_check_device "$OUT/va_host.c"; then
        ok "codegen: the CUDA launcher checks the device of a, b and c after the empty-grid return; the host launcher does not"
    else
        bad "codegen: device checks in vec_add's launchers: got '$got'"
    fi
else
    bad "codegen: tilec failed on examples/vec_add:"; head -20 "$OUT/va.log"
fi

# --- 3. NumPy capsules through a host kernel ----------------------------------
PY=${PYTHON:-python3}
if ! command -v "$PY" > /dev/null 2>&1; then
    bad "numpy: no $PY"
else
    if ! "$PY" -c 'import numpy' > /dev/null 2>&1; then
        echo "note: installing NumPy with pip (needed for the DLPack capsule tests)"
        "$PY" -m pip install -q numpy > "$OUT/pip.log" 2>&1 || { echo "pip install numpy failed:"; tail -n 5 "$OUT/pip.log"; }
    fi
    if ! "$PY" -c 'import numpy' > /dev/null 2>&1; then
        bad "numpy: NumPy is not installed and 'pip install numpy' failed; the capsule tests need it"
    elif ! "$PY" -c 'import numpy, sys; v = tuple(int(x) for x in numpy.__version__.split(".")[:2]); sys.exit(0 if v >= (2, 1) else 1)'; then
        bad "numpy: NumPy $("$PY" -c 'import numpy; print(numpy.__version__)') is older than 2.1, which first exports versioned capsules; pip install -U numpy"
    else
        b=$OUT/numpy
        mkdir -p "$b"
        # The sanitizers stay out of this library: it is loaded into Python.
        # shellcheck disable=SC2086
        if "$TILEC" --target=host -o "$b/vec_add.c" examples/vec_add/vec_add.tile.c > "$b/build.log" 2>&1 &&
           "$CC" -std=c17 -O1 -g $W -fPIC -shared -I"$b" -Iruntime "$b/vec_add.c" runtime/tilec_rt.c \
               -o "$b/libvec_add.so" -lm >> "$b/build.log" 2>&1; then
            "$PY" tests/dlpack/numpy_dlpack.py "$b/libvec_add.so" > "$b/run.log" 2>&1
            grep -v '^ok ' "$b/run.log" | grep -v '^numpy:'
            line=$(grep '^numpy:' "$b/run.log" | tail -n 1)
            np_p=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
            np_f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
            if [ -z "$line" ]; then
                bad "numpy: numpy_dlpack.py did not finish:"; tail -n 20 "$b/run.log"
            else
                echo "numpy: $np_p passed, $np_f failed (NumPy $("$PY" -c 'import numpy; print(numpy.__version__)'))"
                p=$((p + np_p)); f=$((f + np_f))
            fi
        else
            bad "numpy: building the vec_add library failed:"; tail -n 20 "$b/build.log"
        fi
    fi
fi

echo "dlpack: $p passed, $f failed"
[ $f -eq 0 ]
