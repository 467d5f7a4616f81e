/* matmul_gelu.tile.c: C = GELU(A @ B + bias), bfloat16 in and out, the
 * tanh form of GELU (PyTorch's approximate="tanh"), computed on the float32
 * accumulator after the K loop and stored once: the epilogue of an MLP
 * layer, fused into the matrix product.  Blocks in grouped order, as in
 * matmul.tile.c.  matmul_gelu_w4.tile.c builds it for 128 threads (whose
 * Hopper variant runs ping-pong), matmul_gelu_approx*.tile.c with
 * tile_tanh(.approx = true). */
#include <tilec.h>

#ifndef MATMUL_GELU_NAME
#define MATMUL_GELU_NAME matmul_gelu_bf16
#define MATMUL_GELU_BN 256, 128
#endif
#ifndef MATMUL_GELU_TANH /* matmul_gelu_approx*.tile.c: tanh.approx */
#define MATMUL_GELU_TANH(x) tile_tanh(x)
#endif

TILE_KERNEL void MATMUL_GELU_NAME(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b,
                                  TILE_ARRAY(const __bf16, 1) bias, TILE_ARRAY(__bf16, 2) c,
                                  TILE_CONST(int, 128) BM, TILE_CONST(int, MATMUL_GELU_BN) BN, TILE_CONST(int, 64) BK)
{
    int64_t nm = (tile_dim(a, 0) + BM - 1) / BM, nn = (tile_dim(b, 1) + BN - 1) / BN;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    float v = acc + (float)tile_load(bias, .index = {j}, .shape = {BN});
    float g = 0.5f * v * (1.0f + MATMUL_GELU_TANH(0.7978845608f * (v + 0.044715f * v * v * v)));
    tile_store(c, tile_cast(g, __bf16), .index = {i, j});
}
