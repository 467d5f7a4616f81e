#!/bin/sh
# tests/python/run.sh: the python section of tests/run.sh (issue #25).
# For every example (examples/*/*.tile.c) and tests/python/kernels/*.tile.c
# (cases no example has): the host-target Python module
# (tilec --target=host --python), lib<name>.so built from the generated C and
# runtime/tilec_rt.c (-O1, no sanitizers: the tests run inside python3), and
# tests/python/test_<name>.py, which calls every kernel from Python on NumPy
# arrays against NumPy references, plus the bad inputs the module must refuse
# (test_vec_add.py holds most of those).  NumPy is installed with pip when
# absent, as tests/dlpack/run.sh does.
# Environment: TILEC (the compiler), OUT (a scratch directory), CC, PYTHON.
# The last line is "python: N passed, N failed" (checks, summed over examples).
set -u
cd "$(dirname "$0")/../.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/test/python}
CC=${CC:-cc}
PY=${PYTHON:-python3}
rm -rf "$OUT"
mkdir -p "$OUT"
p=0; f=0
bad() { f=$((f + 1)); echo "FAIL $1"; }

if ! command -v "$PY" > /dev/null 2>&1; then
    bad "no $PY"; echo "python: $p passed, $f failed"; exit 0
fi
if ! "$PY" -c 'import numpy' > /dev/null 2>&1; then
    echo "note: installing NumPy with pip (needed for the python section)"
    "$PY" -m pip install -q numpy > "$OUT/pip.log" 2>&1 || { echo "pip install numpy failed:"; tail -n 5 "$OUT/pip.log"; }
fi
if ! "$PY" -c 'import numpy' > /dev/null 2>&1; then
    bad "NumPy is not installed and 'pip install numpy' failed"; echo "python: $p passed, $f failed"; exit 0
fi

# build: one example's module and library (in the background, two at a time)
build() { # src name dir
    mkdir -p "$3"
    "$TILEC" --target=host --python -o "$3/$2.c" "$1" > "$3/build.log" 2>&1 &&
        "$CC" -std=c17 -O1 -fPIC -shared -I"$3" -Iruntime "$3/$2.c" runtime/tilec_rt.c -lm \
            -o "$3/lib$2.so" >> "$3/build.log" 2>&1
    echo $? > "$3/build.rc"
}
# Sources with tile kernels: --python binds those only (SIMT kernels have no
# Python module yet, docs/language.md section 18), so SIMT-only examples have
# no test here.
srcs=$(grep -lE 'TILE_KERNEL|TILE_ARRAY_KERNEL|TILE_GRAPH' examples/*/*.tile.c tests/python/kernels/*.tile.c)
n=0
for src in $srcs; do
    name=$(basename "$src" .tile.c)
    build "$src" "$name" "$OUT/$name" &
    n=$((n + 1))
    [ $((n % 2)) -eq 0 ] && wait
done
wait

for src in $srcs; do
    name=$(basename "$src" .tile.c)
    b=$OUT/$name
    t=tests/python/test_$name.py
    if [ ! -f "$t" ]; then bad "$name: no $t"; continue; fi
    if [ "$(cat "$b/build.rc" 2> /dev/null)" != 0 ]; then
        bad "$name: building the module and lib$name.so failed:"; tail -n 20 "$b/build.log"; continue
    fi
    PYTHONPATH="$b:$TOP/tests/python" PYTHONDONTWRITEBYTECODE=1 "$PY" "$t" > "$b/run.log" 2>&1
    rc=$?
    grep -v '^ok ' "$b/run.log" | grep -v "^$name:"
    line=$(grep "^$name: [0-9]* passed, [0-9]* failed" "$b/run.log" | tail -n 1)
    if [ -z "$line" ]; then
        bad "$name: $t did not finish (exit status $rc):"; tail -n 20 "$b/run.log"; continue
    fi
    tp=$(echo "$line" | sed -E 's/.*: ([0-9]+) passed.*/\1/')
    tf=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
    p=$((p + tp)); f=$((f + tf))
    if [ "$tf" -eq 0 ] && [ $rc -ne 0 ]; then bad "$name: $t exited with status $rc"; fi
done
echo "python: $p passed, $f failed"
