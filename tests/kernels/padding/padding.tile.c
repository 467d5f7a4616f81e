/* padding.tile.c: what out-of-bounds elements of a load read, for every
 * padding value and several dtypes, for a tile that straddles the end of the
 * array, one wholly past it and one wholly before it (index -1); padding of
 * a 2-D strided view with and without .order = {1, 0}; and stores that must
 * never write outside the array: partial tiles, tiles wholly outside (past
 * the end and at negative indices), broadcast stores with .shape, into a
 * strided view whose gaps and surroundings the application checks. */
#include <tilec.h>

/* Row r of o: the tile at index 0 of a short array (40 elements) with
 * padding r (0 default, 1 ZERO, 2 NEG_ZERO, 3 NAN, 4 POS_INF, 5 NEG_INF);
 * row 6: the tile wholly past the end (index 1, POS_INF); row 7: the tile
 * wholly before the start (index -1, NEG_INF).  PAD_ALL writes every row;
 * PAD_FEW (the other dtypes) rows 2, 3, 4, 5 and 7. */
#define LOADPAD(r, i, P) tile_store(o, tile_load(a, .index = {i}, .shape = {64}, .padding = P), .shape = {1, 64}, .index = {r, 0})
#define PAD_FEW(T, S, EXTRA)                                                                               \
    TILE_KERNEL void pad_##S(TILE_ARRAY(const T, 1) a, TILE_ARRAY(T, 2) o)                                 \
    {                                                                                                      \
        int m = tile_bid(0) - 1; /* -1 at run time */                                                      \
        EXTRA                                                                                              \
        LOADPAD(2, 0, TILE_PAD_NEG_ZERO);                                                                  \
        LOADPAD(3, 0, TILE_PAD_NAN);                                                                       \
        LOADPAD(4, 0, TILE_PAD_POS_INF);                                                                   \
        LOADPAD(5, 0, TILE_PAD_NEG_INF);                                                                   \
        LOADPAD(7, m, TILE_PAD_NEG_INF);                                                                   \
    }
#define ROWS_016                                                                                           \
    tile_store(o, tile_load(a, .index = {0}, .shape = {64}), .shape = {1, 64}, .index = {0, 0});          \
    LOADPAD(1, 0, TILE_PAD_ZERO);                                                                          \
    LOADPAD(6, 1, TILE_PAD_POS_INF);
#define PAD_ALL(T, S) PAD_FEW(T, S, ROWS_016)
PAD_ALL(float, f32)
PAD_ALL(double, f64)
PAD_FEW(_Float16, f16, )
PAD_FEW(__bf16, bf16, )
PAD_FEW(tilec_fp8_e4m3, e4m3, )
PAD_FEW(tilec_fp8_e5m2, e5m2, )
PAD_FEW(int8_t, i8, )
PAD_FEW(uint16_t, u16, )
PAD_FEW(bool, b, )

/* A (16, 32) tile of a 2-D view (20 x 40, possibly strided) at tile index
 * (i, j), padded with NaN; and the transposed load of the same view: tile
 * axis 0 along array axis 1. */
TILE_KERNEL void pad2d(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) o, TILE_ARRAY(float, 2) ot)
{
    int i = tile_bid(0), j = tile_bid(1);
    tile_store(o, tile_load(a, .index = {i, j}, .shape = {16, 32}, .padding = TILE_PAD_NAN), .index = {i, j});
    tile_store(ot, tile_load(a, .index = {i, j}, .shape = {16, 32}, .order = {1, 0}, .padding = TILE_PAD_POS_INF),
               .index = {i, j});
}

/* Every block stores its (16, 16) tile of o[r][c] = 100 r + c; the grid is
 * larger than the array, so some tiles are partial and some wholly outside;
 * block (0, 0) also stores -1 at tile indices (-1, 0), (0, -1) and (-1, -1)
 * and a broadcast scalar far outside. */
TILE_KERNEL void store_guard(TILE_ARRAY(float, 2) o)
{
    int i = tile_bid(0), j = tile_bid(1);
    float r = tile_expand_dims(tile_arange(float, .shape = {16}), .axis = 1) + i * 16;
    float c = tile_arange(float, .shape = {16}) + j * 16;
    tile_store(o, r * 100 + c, .index = {i, j});
    if (i == 0 && j == 0) {
        int m = i - 1;
        tile_store(o, -1.0f, .shape = {16, 16}, .index = {m, 0});
        tile_store(o, -1.0f, .shape = {16, 16}, .index = {0, m});
        tile_store(o, -1.0f, .shape = {16, 16}, .index = {m, m});
        tile_store(o, -1.0f, .shape = {16, 16}, .index = {1000, 1000});
    }
}

/* 1-D int8 stores of 64-element tiles, the grid past the end of the array. */
TILE_KERNEL void store_guard_i8(TILE_ARRAY(int8_t, 1) o)
{
    int pid = tile_bid(0);
    tile_store(o, tile_cast(tile_arange(int32_t, .shape = {64}) + pid * 64, int8_t), .index = {pid});
}
