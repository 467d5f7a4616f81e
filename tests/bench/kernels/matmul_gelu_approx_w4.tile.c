/* matmul_gelu_approx_w4.tile.c: matmul_gelu_approx.tile.c's kernel for
 * 128 threads, a 128 x 128 block (ping-pong on Hopper).
 * tilec-flags: --max-threads=128 */
#define MATMUL_GELU_NAME matmul_gelu_approx_bf16_w4
#define MATMUL_GELU_BN 128
#define MATMUL_GELU_TANH(x) tile_tanh(x, .approx = true)
#include "matmul_gelu.tile.c"
