/* matmul_w4.tile.c: the matmul of matmul.tile.c compiled for 4 warps per
 * block (each warp owns a larger share of C, with more accumulator
 * registers per thread).
 * tilec-flags: --max-threads=128 */
#include <tilec.h>

TILE_KERNEL void matmul_bf16_w4(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b,
                                TILE_ARRAY(__bf16, 2) c, TILE_CONST(int, 64, 128) BM, TILE_CONST(int, 128) BN,
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
