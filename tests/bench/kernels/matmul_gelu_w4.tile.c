/* matmul_gelu_w4.tile.c: matmul_gelu.tile.c's kernel for 128 threads, a
 * 128 x 128 block: its Hopper variant runs ping-pong, two consumer
 * warpgroups on tiles of their own, so that one's epilogue (bias, GELU,
 * the store) runs while the other's products keep the tensor cores busy.
 * tilec-flags: --max-threads=128 */
#define MATMUL_GELU_NAME matmul_gelu_bf16_w4
#define MATMUL_GELU_BN 128
#include "matmul_gelu.tile.c"
