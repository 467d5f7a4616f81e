#!/bin/sh
# simt_vs_cuda.sh: tilec's SIMT histogram and block scan against the same
# algorithms hand-written in CUDA C++ (tests/bench/simt_vs_cuda.cu; issue
# #22's 10% bar, docs/performance.md "SIMT kernels against CUDA C++").
#
#   sh tests/bench/simt_vs_cuda.sh prepare   HERE, where tilec and libclang are:
#       tilec -O2 --arch=sm_90 tests/bench/simt/simt_bench.tile.c into
#       build/bench_simt/ (simt_bench.cu and .h) with the runtime's headers
#       and tilec_rt.c, so that build/bench_simt/ and the tracked
#       tests/bench/simt_vs_cuda.cu are all the GPU machine needs.
#   sh tests/bench/simt_vs_cuda.sh run [HIST_N [SCAN_N]]   on the GPU machine
#       (nvcc, no tilec): compiles with nvcc -O3 for ARCH (default sm_90a,
#       as -gencode arch=compute_90a,code=sm_90a), runs, prints the table;
#       exit status 1 when a result differs from the reference.
set -eu
cd "$(dirname "$0")/../.."
out=build/bench_simt
case "${1:-}" in
prepare)
    make -s bin/tilec # a no-op when tilec is current
    mkdir -p "$out"
    rm -f "$out"/*.cu "$out"/*.h "$out"/*.c "$out"/*.o "$out"/simt_vs_cuda
    bin/tilec -O2 --arch=sm_90 -o "$out/simt_bench.cu" tests/bench/simt/simt_bench.tile.c
    cp runtime/*.h runtime/tilec_rt.c "$out/"
    echo "prepared $out: run 'sh tests/bench/simt_vs_cuda.sh run' on the GPU machine with $out carried"
    ;;
run)
    shift
    [ -f "$out/simt_bench.cu" ] || { echo "simt_vs_cuda: no $out/simt_bench.cu: run '$0 prepare' first (where tilec is)" >&2; exit 2; }
    arch=${ARCH:-sm_90a}
    num=${arch#sm_}
    gen="-gencode arch=compute_$num,code=sm_$num"
    NVCC=${NVCC:-nvcc}
    CC=${CC:-cc}
    # shellcheck disable=SC2086 # $gen is words
    $NVCC -std=c++17 -O3 $gen -I"$out" -c -o "$out/simt_bench.o" "$out/simt_bench.cu"
    # shellcheck disable=SC2086
    $NVCC -std=c++17 -O3 $gen -I"$out" -c -o "$out/simt_vs_cuda.o" tests/bench/simt_vs_cuda.cu
    $CC -std=c17 -O2 -I"$out" -c -o "$out/tilec_rt.o" "$out/tilec_rt.c"
    # shellcheck disable=SC2086
    $NVCC $gen -o "$out/simt_vs_cuda" "$out/simt_vs_cuda.o" "$out/simt_bench.o" "$out/tilec_rt.o" -lm
    "$out/simt_vs_cuda" "$@"
    ;;
*)
    echo "usage: sh tests/bench/simt_vs_cuda.sh prepare | run [HIST_N [SCAN_N]]" >&2
    exit 2
    ;;
esac
