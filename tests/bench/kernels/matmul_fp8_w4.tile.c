/* matmul_fp8_w4.tile.c: matmul_fp8.tile.c's kernel compiled for 4 warps per
 * block, 64 x 128 tiles (float8's partial sums leave one 64-row block a
 * warpgroup): its Hopper variant runs ping-pong, one consumer warpgroup's
 * wait for a step's products and their addition overlapping the other's
 * products.
 * tilec-flags: --max-threads=128
 * nvcc-spills: allowed */
#define MATMUL_FP8_NAME matmul_fp8_w4
#define MATMUL_FP8_BM 64
#define MATMUL_FP8_BN 128
#include "matmul_fp8.tile.c"
