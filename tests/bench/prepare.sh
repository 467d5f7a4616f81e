#!/bin/sh
# prepare.sh (runs here, where libclang is): generates the benchmark kernels'
# CUDA source into build/bench/ with the runtime beside it, so that the folder
# alone suffices on the GPU machine (tests/bench/bench.py builds it there).
set -eu
cd "$(dirname "$0")/../.."
make -s all
mkdir -p build/bench
bin/tilec -O2 --arch=sm_90 -o build/bench/bench.cu tests/bench/kernels/bench.tile.c
cp runtime/tilec_rt.h runtime/tilec_rt.c runtime/tilec_ops.h runtime/tilec_fp.h build/bench/
echo "prepared build/bench"
