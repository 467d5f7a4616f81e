/* matmul_w4.tile.c: matmul.tile.c's kernel compiled for 4 warps per block
 * (each warp owns a larger share of C, with more accumulator registers per
 * thread), BN 128 only.
 * tilec-flags: --max-threads=128 */
#define MATMUL_NAME matmul_bf16_w4
#define MATMUL_BN 128
#include "matmul.tile.c"
