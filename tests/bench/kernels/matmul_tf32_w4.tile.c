/* matmul_tf32_w4.tile.c: matmul_tf32.tile.c's kernel compiled for 4 warps per block
 * (its Hopper variant runs ping-pong: two consumer warpgroups, each on a
 * 128 x 128 tile of its own), BN 128 only.
 * tilec-flags: --max-threads=128
 * nvcc-spills: allowed */
#define MATMUL_NAME matmul_tf32_w4
#define MATMUL_BN 128
#include "matmul_tf32.tile.c"
