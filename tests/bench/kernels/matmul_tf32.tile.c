/* matmul_tf32.tile.c: C = A @ B, tf32 in (float32 arrays whose values are
 * read as tf32), float32 out, float32 accumulation: what cuBLAS computes for
 * float32 matrices when TF32 is allowed.  B is read column-major, which the
 * Hopper variant loads K-major with TMA for wgmma's k8 tf32 form (tf32 has
 * no transposed operands).  Blocks in grouped order, as in matmul.tile.c.
 * The WMMA kernel (other GPUs: tf32 is not pipelined there) of these tiles
 * spills registers; the Hopper variant's are checked on the device by
 * tests/gpu/sass_check.sh.
 * nvcc-spills: allowed */
#include <tilec.h>

#ifndef MATMUL_TF32_NAME /* matmul_tf32_w4.tile.c: 128 threads, BN 128 (ping-pong) */
#define MATMUL_TF32_NAME matmul_tf32
#define MATMUL_TF32_BN 256, 128
#endif

TILE_KERNEL void MATMUL_TF32_NAME(TILE_ARRAY(const tilec_tf32, 2) a, TILE_ARRAY(const tilec_tf32, 2) b,
                                  TILE_ARRAY(float, 2) c, TILE_CONST(int, 128) BM, TILE_CONST(int, MATMUL_TF32_BN) BN,
                                  TILE_CONST(int, 32) BK)
{
    int64_t nm = (tile_dim(a, 0) + BM - 1) / BM, nn = (tile_dim(b, 1) + BN - 1) / BN;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        tilec_tf32 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        tilec_tf32 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}
