#!/bin/sh
# nvcc_check.sh: runs tilec on every example and test kernel and compiles
# each generated .cu for sm_80 and sm_90 with nvcc, treating nvcc and ptxas
# warnings (register spills included) as failures; then builds and runs
# tests/unit/test_swz.cu (host code of the device helper header).
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/nvcc}
NVCC=${NVCC:-nvcc}
mkdir -p "$OUT"
p=0; f=0
if ! command -v "$NVCC" > /dev/null 2>&1; then
    echo "nvcc: not found; skipping"; echo "nvcc: 0 passed, 0 failed"; exit 0
fi
for src in examples/*/*.tile.c tests/kernels/*/*.tile.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .tile.c)
    if ! "$TILEC" -o "$OUT/$name.cu" "$src" 2> "$OUT/$name.err"; then
        echo "nvcc: tilec failed on $src"; head -10 "$OUT/$name.err"; f=$((f + 1)); continue
    fi
    # Register spills fail the check.  Local memory as such does not: CUDA's
    # own sinf/cos argument reduction keeps a small stack frame.
    if $NVCC -std=c++17 -O3 -Werror all-warnings -Xptxas -warn-spills,--warning-as-error \
            -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
            -I"$OUT" -Iruntime -c "$OUT/$name.cu" -o "$OUT/$name.o" 2> "$OUT/$name.nvcc"; then
        p=$((p + 1))
    else
        echo "nvcc: $src does not compile:"; head -20 "$OUT/$name.nvcc"; f=$((f + 1))
    fi
done
# The device helpers' host-checkable parts (tests/unit/test_swz.cu: the
# swizzled layout of tile_mma's pipeline buffers), built by nvcc for the host.
if $NVCC -std=c++17 -Werror all-warnings -Iruntime -o "$OUT/test_swz" tests/unit/test_swz.cu 2> "$OUT/test_swz.nvcc" &&
        "$OUT/test_swz" > "$OUT/test_swz.out" 2>&1; then
    p=$((p + 1))
else
    echo "nvcc: tests/unit/test_swz.cu failed:"; head -20 "$OUT/test_swz.nvcc" "$OUT/test_swz.out" 2>/dev/null; f=$((f + 1))
fi
echo "nvcc: $p passed, $f failed"
[ "$f" -eq 0 ]
