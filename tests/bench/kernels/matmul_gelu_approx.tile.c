/* matmul_gelu_approx.tile.c: matmul_gelu.tile.c's kernel with the GPU's
 * fast tanh (tile_tanh(x, .approx = true): tanh.approx.f32, relative error
 * at most 2^-10.99, below the bfloat16 output's rounding). */
#define MATMUL_GELU_NAME matmul_gelu_approx_bf16
#define MATMUL_GELU_BN 256, 128
#define MATMUL_GELU_TANH(x) tile_tanh(x, .approx = true)
#include "matmul_gelu.tile.c"
