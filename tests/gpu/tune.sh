#!/bin/sh
# tune.sh: ahead-of-time tuning of the benchmark kernels with TILE_TUNABLE
# constants (tests/bench/kernels/matmul_tuned.tile.c and
# layer_norm_tuned.tile.c), the walk-through of docs/cli.md.
#
#   sh tests/gpu/tune.sh prepare   here (tilec, libclang): writes build/tune/
#                                  (the tuning programs NAME.tune.cu, the shapes
#                                  files, the runtime) with `tilec tune`
#   sh tests/gpu/tune.sh run       on the GPU machine (nvcc, no libclang):
#                                  builds each program, runs it, prints the
#                                  tuning files build/tune/NAME.tuning.txt
#   sh tests/gpu/tune.sh           both (where tilec and a GPU are together)
#
# Shapes: each benchmark's own (matmul 4096^3, layer norm 8192x4096) plus
# three others.  ARCH (default sm_90), NVCC, TILEC_TUNE_REPS (default 21)
# and NO_RUN=1 (build only) are read from the environment.  Afterwards,
# here: tilec --arch=sm_90 --tuning build/tune/NAME.tuning.txt ... compiles
# the table into the launcher (the commands are printed at the end).
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/tune}
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-nvcc}
step=${1:-all}
kernels="matmul_tuned layer_norm_tuned"

prepare() {
    make -s bin/tilec
    mkdir -p "$OUT"
    cat > "$OUT/matmul_tuned.shapes" <<'SHAPES'
# matmul_bf16_tuned: C (MxN) = A (MxK) @ B (KxN)
a=4096x4096 b=4096x4096 c=4096x4096   # the benchmark's
a=1024x1024 b=1024x1024 c=1024x1024
a=2048x8192 b=8192x2048 c=2048x2048
a=8192x1024 b=1024x8192 c=8192x8192
SHAPES
    cat > "$OUT/layer_norm_tuned.shapes" <<'SHAPES'
# layer_norm_f16_tuned: rows of 4096 (BN is fixed at 4096)
x=8192x4096 w=4096 b=4096 y=8192x4096 eps=1e-5 BN=4096   # the benchmark's
x=1024x4096 w=4096 b=4096 y=1024x4096 eps=1e-5 BN=4096
x=4096x4096 w=4096 b=4096 y=4096x4096 eps=1e-5 BN=4096
x=32768x4096 w=4096 b=4096 y=32768x4096 eps=1e-5 BN=4096
SHAPES
    for k in $kernels; do
        src=tests/bench/kernels/$k.tile.c
        # shellcheck disable=SC2046 # the kernel's flags are words
        bin/tilec tune -O2 --arch="$ARCH" $(sh tests/bench/kernel_flags.sh "$src") "$src" \
            --shapes "$OUT/$k.shapes" -o "$OUT/$k.tune.cu"
    done
    cp runtime/tilec_rt.h runtime/tilec_rt.c runtime/tilec_ops.h runtime/tilec_fp.h runtime/tilec_dlpack.h "$OUT/"
    echo "tune: prepared $OUT ($(echo $kernels))"
}

run() {
    for k in $kernels; do
        echo "== $k: $NVCC -arch=$ARCH"
        "$NVCC" -std=c++17 -O3 -arch="$ARCH" -I"$OUT" -o "$OUT/$k.tune" "$OUT/$k.tune.cu" "$OUT/tilec_rt.c"
        [ "${NO_RUN:-0}" = 1 ] && continue
        "$OUT/$k.tune" "$OUT/$k.tuning.txt"
        cat "$OUT/$k.tuning.txt"
    done
    [ "${NO_RUN:-0}" = 1 ] && return 0
    echo
    echo "Then, where tilec is (the tuning files are diffable text):"
    for k in $kernels; do
        echo "  bin/tilec -O2 --arch=$ARCH $(sh tests/bench/kernel_flags.sh tests/bench/kernels/$k.tile.c 2>/dev/null)--tuning $OUT/$k.tuning.txt -o build/$k.cu tests/bench/kernels/$k.tile.c"
    done
}

case $step in
prepare) prepare ;;
run) run ;;
all) prepare; run ;;
*) echo "usage: sh tests/gpu/tune.sh [prepare|run]" >&2; exit 2 ;;
esac
