#!/bin/sh
# nvcc_check.sh: runs tilec on every example, test and benchmark kernel and
# compiles each generated .cu for sm_80 and sm_90 with nvcc, treating nvcc
# and ptxas warnings (register spills included) as failures; then builds and
# runs tests/unit/test_swz.cu (host code of the device helper header).
# Benchmark kernels take the options of their " * tilec-flags: ..." line, as
# tests/bench/prepare.sh does.  The nvcc runs go NVCC_JOBS at a time (default:
# the number of processors), since each takes seconds.
set -u
cd "$(dirname "$0")/.." || exit 2
TOP=$(pwd)
TILEC=${TILEC:-$TOP/bin/tilec}
OUT=${OUT:-$TOP/build/nvcc}
NVCC=${NVCC:-nvcc}
JOBS=${NVCC_JOBS:-$(nproc 2>/dev/null || echo 2)}
mkdir -p "$OUT"
p=0; f=0
if ! command -v "$NVCC" > /dev/null 2>&1; then
    echo "nvcc: not found; skipping"; echo "nvcc: 0 passed, 0 failed"; exit 0
fi
rm -f "$OUT"/*.cu "$OUT"/*.ok "$OUT"/*.nvcc "$OUT"/list
for src in examples/*/*.tile.c tests/kernels/*/*.tile.c tests/bench/kernels/*.tile.c; do
    [ -f "$src" ] || continue
    name=$(basename "$src" .tile.c)
    flags=
    case "$src" in
    tests/bench/*) # names shared with the examples get a prefix
        name=bench_$name
        flags=$(sh tests/bench/kernel_flags.sh "$src") ;;
    esac
    # shellcheck disable=SC2086 # flags are words
    if ! "$TILEC" $flags -o "$OUT/$name.cu" "$src" 2> "$OUT/$name.err"; then
        echo "nvcc: tilec failed on $src"; head -10 "$OUT/$name.err"; f=$((f + 1)); continue
    fi
    echo "$name $src" >> "$OUT/list"
done
# Register spills fail the check.  Local memory as such does not: CUDA's own
# sinf/cos argument reduction keeps a small stack frame.
compile_one() {
    "$NVCC" -std=c++17 -O3 -Werror all-warnings -Xptxas -warn-spills,--warning-as-error \
        -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90 \
        -I"$OUT" -Iruntime -c "$OUT/$1.cu" -o "$OUT/$1.o" 2> "$OUT/$1.nvcc" && touch "$OUT/$1.ok"
}
running=0
if [ -f "$OUT/list" ]; then
    while read -r name src; do
        compile_one "$name" < /dev/null &
        running=$((running + 1))
        if [ "$running" -ge "$JOBS" ]; then wait; running=0; fi
    done < "$OUT/list"
    wait
    while read -r name src; do
        if [ -f "$OUT/$name.ok" ]; then
            p=$((p + 1))
        else
            echo "nvcc: $src does not compile:"; head -20 "$OUT/$name.nvcc"; f=$((f + 1))
        fi
    done < "$OUT/list"
fi
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
