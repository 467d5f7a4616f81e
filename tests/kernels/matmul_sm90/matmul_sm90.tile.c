/* matmul_sm90.tile.c: K loops of the shape tilec compiles, with --arch=sm_90,
 * to the Hopper variant (TMA loads, wgmma, warp specialization) beside the
 * mma.sync kernel: several tile shapes (each splitting the accumulator
 * between the consumer warpgroups differently), a grouped block order, and
 * epilogues (bias, GELU, scaling, casts) run on the accumulator before the
 * one store.  Stores of the accumulator's shape go out through TMA; a
 * reduction after the loop (mm_rowsum) makes the variant convert the
 * accumulator through shared memory instead of working on wgmma's
 * registers, and mm_trans stores through a transpose and along the array's
 * other axis (element by element).  main.c checks each against float64 on
 * ragged sizes.
 * The mma.sync kernels of the largest tiles (and of float8, which that path
 * does not pipeline) spill registers; they are the fallback here, and the
 * Hopper variants' registers are checked on the device
 * (tests/gpu/sass_check.sh, from tests/gpu/run.sh).
 * nvcc-spills: allowed */
#include <tilec.h>

/* C (float32) = A @ B, bfloat16, one (BM, BN) block per program instance. */
TILE_KERNEL void mm_bf16(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c,
                         TILE_CONST(int, 128, 64) BM, TILE_CONST(int, 256, 128) BN, TILE_CONST(int, 64, 32, 16) BK)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}

/* float16 in, float16 out of GELU(alpha * (A @ B) + bias), the blocks in
 * grouped order (8 block rows at a time) on a 1-D grid. */
TILE_KERNEL void mm_f16_gelu(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b,
                             TILE_ARRAY(const float, 1) bias, TILE_ARRAY(_Float16, 2) c, float alpha)
{
    int64_t nm = (tile_dim(a, 0) + 127) / 128, nn = (tile_dim(b, 1) + 127) / 128;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    float acc = tile_zeros(float, .shape = {128, 128});
    for (int64_t k = 0; k < (tile_dim(a, 1) + 63) / 64; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {128, 64}),
                       tile_load(b, .index = {k, j}, .shape = {64, 128}), acc);
    float bj = tile_load(bias, .index = {j}, .shape = {128});
    float x = acc * alpha + bj;
    float g = 0.5f * x * (1.0f + tile_tanh(0.7978845608f * (x + 0.044715f * x * x * x)));
    tile_store(c, tile_cast(g, _Float16), .index = {i, j});
}

/* The K loop over a range that starts past 0 (kt0 .. nk - 1), with a
 * counter read after the loop, and a uniform start other than 0. */
TILE_KERNEL void mm_range(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c,
                          int64_t kt0)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_full(float, 0.5f, .shape = {128, 128});
    int64_t k = kt0;
    for (; k < (tile_dim(a, 1) + 31) / 32; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {128, 32}),
                       tile_load(b, .index = {k, j}, .shape = {32, 128}), acc);
    tile_store(c, acc + (float)k, .index = {i, j});
}

/* (on 128 threads, the mma.sync kernel of a 128 x 256 float8 or int8 tile
 * does not fit in shared memory: matmul_sm90_w4 leaves that tile out, and
 * adds 64-row float8 tiles, whose Hopper variant runs ping-pong) */
#ifndef MM_FP8_BN
#define MM_FP8_BN 256, 128
#define MM_FP8_BM 128
#endif

/* float8 in (B column-major, the layout torch._scaled_mm takes), bfloat16
 * out of scale * (A @ B): wgmma k32, both operands K-major. */
TILE_KERNEL void mm_fp8(TILE_ARRAY(const tilec_fp8_e4m3, 2) a, TILE_ARRAY(const tilec_fp8_e4m3, 2) b,
                        TILE_ARRAY(__bf16, 2) c, float scale, TILE_CONST(int, MM_FP8_BM) BM, TILE_CONST(int, MM_FP8_BN) BN,
                        TILE_CONST(int, 128, 64) BK)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    for (int64_t k = 0; k < (tile_dim(a, 1) + BK - 1) / BK; k++) {
        tilec_fp8_e4m3 x = tile_load(a, .index = {i, k}, .shape = {BM, BK});
        tilec_fp8_e4m3 y = tile_load(b, .index = {k, j}, .shape = {BK, BN});
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc * scale, __bf16), .index = {i, j});
}

/* tf32 in (B column-major), float32 out of A @ B from a uniform start of
 * 1: wgmma k8, both operands K-major (32-element rows: 128-byte swizzle;
 * 16: 64-byte). */
TILE_KERNEL void mm_tf32(TILE_ARRAY(const tilec_tf32, 2) a, TILE_ARRAY(const tilec_tf32, 2) b, TILE_ARRAY(float, 2) c,
                         TILE_CONST(int, 128, 64) BN, TILE_CONST(int, 32, 16) BK)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_full(float, 1.0f, .shape = {128, BN});
    for (int64_t k = 0; k < (tile_dim(a, 1) + BK - 1) / BK; k++) {
        tilec_tf32 x = tile_load(a, .index = {i, k}, .shape = {128, BK});
        tilec_tf32 y = tile_load(b, .index = {k, j}, .shape = {BK, BN});
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}

/* int8 in (B column-major), int32 out of 2 (A @ B) - 3: wgmma k32 into
 * int32 accumulators, the epilogue on them. */
TILE_KERNEL void mm_i8(TILE_ARRAY(const int8_t, 2) a, TILE_ARRAY(const int8_t, 2) b, TILE_ARRAY(int32_t, 2) c,
                       TILE_CONST(int, MM_FP8_BN) BN, TILE_CONST(int, 128, 64) BK)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    int32_t acc = tile_zeros(int32_t, .shape = {128, BN});
    for (int64_t k = 0; k < (tile_dim(a, 1) + BK - 1) / BK; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {128, BK}),
                       tile_load(b, .index = {k, j}, .shape = {BK, BN}), acc);
    tile_store(c, acc * 2 - 3, .index = {i, j});
}

/* Row sums of each block beside the product: a reduction after the loop,
 * which needs the ordinary layout (the accumulator goes through shared
 * memory in the Hopper variant). */
TILE_KERNEL void mm_rowsum(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c,
                           TILE_ARRAY(float, 2) rs)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {128, 128});
    for (int64_t k = 0; k < (tile_dim(a, 1) + 63) / 64; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {128, 64}),
                       tile_load(b, .index = {k, j}, .shape = {64, 128}), acc);
    tile_store(c, acc, .index = {i, j});
    tile_store(rs, tile_sum(acc, .axis = 1, .keepdims = true), .index = {i, j});
}

/* The product stored twice: its transpose (a 128 x 64 tile read through the
 * accumulator's mirror) into ct, N x M, and the accumulator itself along
 * the other axis of co (N x M too, .order: element by element). */
TILE_KERNEL void mm_trans(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) ct,
                          TILE_ARRAY(float, 2) co)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {64, 128});
    for (int64_t k = 0; k < (tile_dim(a, 1) + 31) / 32; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {64, 32}),
                       tile_load(b, .index = {k, j}, .shape = {32, 128}), acc);
    tile_store(ct, tile_transpose(acc), .index = {j, i});
    tile_store(co, acc, .index = {i, j}, .order = {1, 0});
}
