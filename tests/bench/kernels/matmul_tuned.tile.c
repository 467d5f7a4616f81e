/* matmul_tuned.tile.c: matmul.tile.c's C = A @ B (bfloat16 in and out,
 * float32 accumulator, tensor cores, pipelined K loop) with its block sizes
 * and its warps (TILE_THREADS: 8 or 4, matmul.tile.c's and matmul_w4's)
 * tunable: the launcher picks BM, BN, BK and the threads from the tuning table
 * compiled in with --tuning (tests/gpu/tune.sh measures one), and works out
 * the grid itself, so the grid is plain 2-D (block row on axis 0, block
 * column on axis 1) rather than matmul.tile.c's grouped order, which the
 * launcher could not infer.  bench.py times it beside the hand-picked
 * fastest variant of matmul.tile.c (tests/bench/tuning/ holds its table).
 * Planned for the H100 it was tuned on: on sm_80's shared memory the
 * 128x256 tiles on 128 threads do not fit.  Variants that spill (the same
 * tiles) are compiled, and pruned by the tuning program.
 * tilec-flags: --arch=sm_90
 * nvcc-spills: allowed */
#include <tilec.h>

TILE_KERNEL void matmul_bf16_tuned(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b,
                                   TILE_ARRAY(__bf16, 2) c, TILE_TUNABLE(int, 128, 64) BM,
                                   TILE_TUNABLE(int, 128, 256) BN, TILE_TUNABLE(int, 32, 64) BK,
                                   TILE_THREADS(256, 128) threads)
{
    int64_t i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc, __bf16), .index = {i, j});
}
