/* matmul_fp8.tile.c: C = scale * (A @ B), float8 e4m3 in, bfloat16 out
 * (rounded once from a float32 accumulator), as torch._scaled_mm computes
 * it with one scale (scale_a * scale_b) for the whole product.  B is read
 * column-major (torch._scaled_mm's layout for its second operand), which
 * the Hopper variant loads K-major with TMA for wgmma's k32 float8 form.
 * Blocks in grouped order, as in matmul.tile.c.
 * The mma.sync kernel (for other GPUs; float8 is not pipelined there) of
 * these tiles spills registers; the Hopper variant's are checked on the
 * device by tests/gpu/sass_check.sh.  128 columns a block, not 256: a
 * warpgroup's 64 x 256 float8 accumulator and its partial sums do not fit
 * the registers, so that tile has no Hopper variant (tilec --remarks says
 * so) and ran the spilling mma.sync kernel (about 60 ms a launch).
 * nvcc-spills: allowed */
#include <tilec.h>

#ifndef MATMUL_FP8_NAME /* matmul_fp8_w4.tile.c: 128 threads, 64 x 128 tiles (ping-pong) */
#define MATMUL_FP8_NAME matmul_fp8
#define MATMUL_FP8_BM 128
#define MATMUL_FP8_BN 128
#endif

TILE_KERNEL void MATMUL_FP8_NAME(TILE_ARRAY(const tilec_fp8_e4m3, 2) a, TILE_ARRAY(const tilec_fp8_e4m3, 2) b,
                                 TILE_ARRAY(__bf16, 2) c, float scale, TILE_CONST(int, MATMUL_FP8_BM) BM,
                                 TILE_CONST(int, MATMUL_FP8_BN) BN, TILE_CONST(int, 128) BK)
{
    int64_t nm = (tile_dim(a, 0) + BM - 1) / BM, nn = (tile_dim(b, 1) + BN - 1) / BN;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        tilec_fp8_e4m3 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        tilec_fp8_e4m3 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc * scale, __bf16), .index = {i, j});
}
