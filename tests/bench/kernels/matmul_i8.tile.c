/* matmul_i8.tile.c: C = A @ B, int8 in, int32 out and accumulation (exact),
 * as torch._int_mm computes it.  B is read column-major, which the Hopper
 * variant loads K-major with TMA for wgmma's k32 s8 form.  Blocks in grouped
 * order, as in matmul.tile.c.
 * The WMMA kernel (other GPUs: int8 is not pipelined there) of these tiles
 * spills registers; the Hopper variant's are checked on the device by
 * tests/gpu/sass_check.sh.
 * nvcc-spills: allowed */
#include <tilec.h>

#ifndef MATMUL_I8_NAME /* matmul_i8_w4.tile.c: 128 threads, BN 128 (ping-pong) */
#define MATMUL_I8_NAME matmul_i8
#define MATMUL_I8_BN 256, 128
#endif

TILE_KERNEL void MATMUL_I8_NAME(TILE_ARRAY(const int8_t, 2) a, TILE_ARRAY(const int8_t, 2) b,
                                TILE_ARRAY(int32_t, 2) c, TILE_CONST(int, 128) BM, TILE_CONST(int, MATMUL_I8_BN) BN,
                                TILE_CONST(int, 128) BK)
{
    int64_t nm = (tile_dim(a, 0) + BM - 1) / BM, nn = (tile_dim(b, 1) + BN - 1) / BN;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    int32_t acc = tile_zeros(int32_t, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        int8_t x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        int8_t y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}
