/* matmul.tile.c: C = A @ B, bfloat16 in and out (rounded once from a
 * float32 accumulator), on tensor cores; one (BM, BN) block of C per
 * program instance, K walked in BK steps, edges padded with zeros.
 * The tiles of step k + 1 are loaded before the tensor-core work of step k
 * (register double buffering written in the source), so their memory
 * latency overlaps the products. */
#include <tilec.h>

TILE_KERNEL void matmul_bf16(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(__bf16, 2) c,
                             TILE_CONST(int, 64) BM, TILE_CONST(int, 64, 128) BN, TILE_CONST(int, 32, 64) BK)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    __bf16 x = tile_load(a, .index = {i, 0}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
    __bf16 y = tile_load(b, .index = {0, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
    for (int64_t k = 0; k < nk; k++) {
        __bf16 xn = tile_load(a, .index = {i, k + 1}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        __bf16 yn = tile_load(b, .index = {k + 1, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
        x = xn;
        y = yn;
    }
    tile_store(c, tile_cast(acc, __bf16), .index = {i, j});
}

/* The same without the prefetch: fewer registers, more blocks per SM. */
TILE_KERNEL void matmul_bf16_plain(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b,
                                   TILE_ARRAY(__bf16, 2) c, TILE_CONST(int, 64) BM, TILE_CONST(int, 64, 128) BN,
                                   TILE_CONST(int, 32, 64) BK)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc, __bf16), .index = {i, j});
}
