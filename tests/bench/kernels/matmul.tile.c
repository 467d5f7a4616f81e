/* matmul.tile.c: C = A @ B, bfloat16 in and out (rounded once from a
 * float32 accumulator), on tensor cores; one (BM, BN) block of C per
 * program instance (a 1-D grid of all the blocks), K walked in BK steps,
 * edges padded with zeros.
 * The loop body is only the operand loads and the update, so tilec
 * pipelines it: the tiles of the next K steps are copied to shared memory
 * (cp.async) while the tensor cores work on the current one. */
#include <tilec.h>

/* matmul_w4.tile.c, matmul_f16.tile.c, matmul_tf32*.tile.c and
 * matmul_i8*.tile.c build the same kernel under another name, with other
 * options, BM, BN or BK values, operand, accumulator or output types. */
#ifndef MATMUL_NAME
#define MATMUL_NAME matmul_bf16
#define MATMUL_BN 128, 256
#endif
#ifndef MATMUL_T /* the operands' type */
#define MATMUL_T __bf16
#endif
#ifndef MATMUL_ACC /* the accumulator's */
#define MATMUL_ACC float
#endif
#ifndef MATMUL_OUT /* C's */
#define MATMUL_OUT MATMUL_T
#endif
#ifndef MATMUL_BM
#define MATMUL_BM 64, 128
#endif
#ifndef MATMUL_BK
#define MATMUL_BK 32, 64
#endif

TILE_KERNEL void MATMUL_NAME(TILE_ARRAY(const MATMUL_T, 2) a, TILE_ARRAY(const MATMUL_T, 2) b, TILE_ARRAY(MATMUL_OUT, 2) c,
                             TILE_CONST(int, MATMUL_BM) BM, TILE_CONST(int, MATMUL_BN) BN, TILE_CONST(int, MATMUL_BK) BK)
{
    /* Grouped order, as in Triton's tutorial: consecutive program ids walk
     * down a group of 8 block rows before moving right, so the A rows and
     * B columns that run together stay in L2. */
    int64_t nm = (tile_dim(a, 0) + BM - 1) / BM, nn = (tile_dim(b, 1) + BN - 1) / BN;
    int64_t pid = tile_bid(0), width = 8 * nn;
    int64_t m0 = (pid / width) * 8;
    int64_t gm = nm - m0 < 8 ? nm - m0 : 8;
    int64_t i = m0 + (pid % width) % gm, j = (pid % width) / gm;
    MATMUL_ACC acc = tile_zeros(MATMUL_ACC, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        MATMUL_T x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        MATMUL_T y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc, MATMUL_OUT), .index = {i, j});
}
