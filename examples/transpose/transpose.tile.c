/* transpose.tile.c: swaps the last two axes of a batch of matrices, x
 * (N, C, H) -> y (N, H, C), for float16 and float32, through a view: xt =
 * tile_view_transpose(x) is x seen as (N, H, C), xt[n, h, c] = x[n, c, h]
 * (docs/language.md, "Views"), so the kernel is a tile copy from xt to y
 * and the transpose is folded into the load's addresses.  Nothing is
 * computed, so y must equal x transposed bit for bit.
 *
 * A block copies one (BH, BC) tile of y[n]; the load reads zero past the
 * ends of the view and the store masks what lies outside y, so N, C and H
 * need not be multiples of the tile.  The views see x through its strides,
 * so x may be a strided slice of a larger array.
 *
 * Grid: (ceil(H / BH), ceil(C / BC), N). */
#include <tilec.h>

TILE_KERNEL void transpose_f16(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(_Float16, 3) y,
                               TILE_CONST(int, 32, 64) BH, TILE_CONST(int, 16, 64) BC)
{
    TILE_VIEW(const _Float16, 3) xt = tile_view_transpose(x); /* (N, H, C) */
    int64_t hb = tile_bid(0), cb = tile_bid(1), n = tile_bid(2);
    _Float16 t = tile_load(xt, .index = {n, hb, cb}, .shape = {1, BH, BC});
    tile_store(y, t, .index = {n, hb, cb});
}

TILE_KERNEL void transpose_f32(TILE_ARRAY(const float, 3) x, TILE_ARRAY(float, 3) y, TILE_CONST(int, 32, 64) BH,
                               TILE_CONST(int, 16, 64) BC)
{
    TILE_VIEW(const float, 3) xt = tile_view_transpose(x); /* (N, H, C) */
    int64_t hb = tile_bid(0), cb = tile_bid(1), n = tile_bid(2);
    float t = tile_load(xt, .index = {n, hb, cb}, .shape = {1, BH, BC});
    tile_store(y, t, .index = {n, hb, cb});
}
