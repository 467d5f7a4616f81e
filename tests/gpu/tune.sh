#!/bin/sh
# tune.sh: ahead-of-time tuning of the benchmark kernels with TILE_TUNABLE
# constants (tests/bench/kernels/*_tuned.tile.c: matmul, layer norm,
# softmax, conv1d), the walk-through of docs/cli.md.
#
#   sh tests/gpu/tune.sh prepare   here (tilec, libclang): writes build/tune/
#                                  (the tuning programs NAME.tune.cu, the shapes
#                                  files, the runtime) with `tilec tune`
#   sh tests/gpu/tune.sh run       on the GPU machine (nvcc, no libclang):
#                                  builds each program, runs it, prints the
#                                  tuning files build/tune/NAME.tuning.txt
#   sh tests/gpu/tune.sh           both (where tilec and a GPU are together)
#
# Shapes: tests/bench/tuning/NAME.shapes, each benchmark's own plus three
# others; the measured tables are committed there as NAME.txt (bench's
# prepare.sh compiles them in).  ARCH (default sm_90), NVCC, TILEC_TUNE_REPS (default 21)
# and NO_RUN=1 (build only) are read from the environment.  Afterwards,
# here: tilec --arch=sm_90 --tuning build/tune/NAME.tuning.txt ... compiles
# the table into the launcher (the commands are printed at the end).
set -eu
cd "$(dirname "$0")/../.."
OUT=${OUT:-build/tune}
ARCH=${ARCH:-sm_90}
NVCC=${NVCC:-nvcc}
step=${1:-all}
kernels=${KERNELS:-"matmul_tuned layer_norm_tuned softmax_tuned conv1d_tuned"}

prepare() {
    make -s bin/tilec
    mkdir -p "$OUT"
    for k in $kernels; do
        src=tests/bench/kernels/$k.tile.c
        cp "tests/bench/tuning/$k.shapes" "$OUT/"
        # shellcheck disable=SC2046 # the kernel's flags are words
        bin/tilec tune -O2 --arch="$ARCH" $(sh tests/bench/kernel_flags.sh "$src") "$src" \
            --shapes "tests/bench/tuning/$k.shapes" -o "$OUT/$k.tune.cu"
    done
    cp runtime/tilec_rt.h runtime/tilec_rt.c runtime/tilec_ops.h runtime/tilec_fp.h runtime/tilec_dlpack.h runtime/tilec_dtypes.h \
        runtime/tilec_sm90.h runtime/tilec_flash.h "$OUT/"
    echo "tune: prepared $OUT ($(echo $kernels))"
}

run() {
    # The programs build in parallel (one nvcc each, minutes for the matmul's
    # 16 variants), then run one after the other (each times on the GPU).
    # sm_90: built for sm_90a, so that the matmul's Hopper variants are
    # measured (docs/cli.md, "The Hopper path")
    gencode="-arch=$ARCH"
    case $ARCH in sm_90|sm_90a) gencode="-gencode arch=compute_90a,code=sm_90a" ;; esac
    for k in $kernels; do
        echo "== $k: $NVCC $gencode"
        # shellcheck disable=SC2086 # gencode is words
        "$NVCC" -std=c++17 -O3 $gencode -I"$OUT" -o "$OUT/$k.tune" "$OUT/$k.tune.cu" "$OUT/tilec_rt.c" &
    done
    wait
    for k in $kernels; do
        [ -x "$OUT/$k.tune" ] || { echo "tune: $k did not build" >&2; exit 1; }
    done
    [ "${NO_RUN:-0}" = 1 ] && return 0
    for k in $kernels; do
        "$OUT/$k.tune" "$OUT/$k.tuning.txt"
        cat "$OUT/$k.tuning.txt"
    done
    [ "${NO_RUN:-0}" = 1 ] && return 0
    echo
    echo "Then, where tilec is (the tuning files are diffable text):"
    for k in $kernels; do
        flags=$(sh tests/bench/kernel_flags.sh "tests/bench/kernels/$k.tile.c" 2>/dev/null)
        echo "  bin/tilec -O2 --arch=$ARCH ${flags:+$flags }--tuning $OUT/$k.tuning.txt -o build/$k.cu tests/bench/kernels/$k.tile.c"
    done
}

case $step in
prepare) prepare ;;
run) run ;;
all) prepare; run ;;
*) echo "usage: sh tests/gpu/tune.sh [prepare|run]" >&2; exit 2 ;;
esac
