/* matmul.tile.c: C = A @ B with a K loop on tensor cores (tile_mma), for
 * float16 and bfloat16 inputs with a float32 accumulator kept across the
 * loop; partial tiles at the edges read zeros. */
#include <tilec.h>

/* One (BM, BN) block of C per program instance; K is walked in BK steps. */
TILE_KERNEL void matmul_f16(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b,
                            TILE_ARRAY(float, 2) c, TILE_CONST(int, 64) BM, TILE_CONST(int, 64) BN,
                            TILE_CONST(int, 32) BK)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {BM, BN});
    int64_t nk = (tile_dim(a, 1) + BK - 1) / BK;
    for (int64_t k = 0; k < nk; k++) {
        _Float16 x = tile_load(a, .index = {i, k}, .shape = {BM, BK}, .padding = TILE_PAD_ZERO);
        _Float16 y = tile_load(b, .index = {k, j}, .shape = {BK, BN}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, acc, .index = {i, j});
}

/* The same with bfloat16 inputs and a bfloat16 result (rounded once). */
TILE_KERNEL void matmul_bf16(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(__bf16, 2) c)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {32, 64});
    int64_t nk = (tile_dim(a, 1) + 31) / 32;
    for (int64_t k = 0; k < nk; k++) {
        __bf16 x = tile_load(a, .index = {i, k}, .shape = {32, 32}, .padding = TILE_PAD_ZERO);
        __bf16 y = tile_load(b, .index = {k, j}, .shape = {32, 64}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(x, y, acc);
    }
    tile_store(c, tile_cast(acc, __bf16), .index = {i, j});
}

/* One product of whole (32, 32) x (32, 64) tiles with tile_matmul, plus a
 * bias: the accumulator is not a loop variable, so it goes through shared
 * memory rather than staying in fragments. */
TILE_KERNEL void matmul_once(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)
{
    int i = tile_bid(0);
    _Float16 x = tile_load(a, .index = {i, 0}, .shape = {32, 32}, .padding = TILE_PAD_ZERO);
    _Float16 y = tile_load(b, .index = {0, 0}, .shape = {32, 64}, .padding = TILE_PAD_ZERO);
    tile_store(c, tile_matmul(x, y) + 1.0f, .index = {i, 0});
}

/* The product over the K tiles kt0 .. kt1 - 1 only (tiles past the end of
 * the arrays read zeros), plus the value the tile counter ends with (kt1,
 * or kt0 when the range is empty), with the loads written inside the
 * tile_mma call. */
TILE_KERNEL void matmul_range(TILE_ARRAY(const __bf16, 2) a, TILE_ARRAY(const __bf16, 2) b, TILE_ARRAY(float, 2) c,
                              int64_t kt0, int64_t kt1)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {32, 32});
    int64_t k = 0;
    for (k = kt0; k < kt1; k++)
        acc = tile_mma(tile_load(a, .index = {i, k}, .shape = {32, 16}),
                       tile_load(b, .index = {k, j}, .shape = {16, 32}), acc);
    tile_store(c, acc + (float)k, .index = {i, j});
}

/* c = -(a @ b) with a K loop that is not pipelined (an operand is computed,
 * not just loaded): each step stages the registers through shared memory,
 * and the accumulator still stays in the tensor cores' registers.  The
 * epilogue reads it twice, in halves (exact): its registers are refreshed
 * from the fragments once (--emit=tir shows one conversion). */
TILE_KERNEL void matmul_neg(TILE_ARRAY(const _Float16, 2) a, TILE_ARRAY(const _Float16, 2) b, TILE_ARRAY(float, 2) c)
{
    int i = tile_bid(0), j = tile_bid(1);
    float acc = tile_zeros(float, .shape = {64, 32});
    for (int64_t k = 0; k < (tile_dim(a, 1) + 15) / 16; k++) {
        _Float16 x = tile_load(a, .index = {i, k}, .shape = {64, 16}, .padding = TILE_PAD_ZERO);
        _Float16 y = tile_load(b, .index = {k, j}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
        acc = tile_mma(-x, y, acc);
    }
    float half = acc * 0.5f;
    tile_store(c, half + acc * 0.5f, .index = {i, j});
}
