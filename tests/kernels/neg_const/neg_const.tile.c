/* neg_const.tile.c: negative integer literals (a unary minus applied to a
 * literal) as operands next to integer tiles, and as fill values.  A loose
 * integer constant takes the other operand's type when its value fits
 * (docs/types.md), so x_i32 + -3 is int32 and tile_full(int8_t, -5) is an
 * int8 tile; the value of -3 is -3. */
#include <tilec.h>

#define ROW(k, v) tile_store(o, tile_expand_dims(v, .axis = 0), .index = {k, 0})

TILE_KERNEL void neg_const(TILE_ARRAY(const int32_t, 1) a, TILE_ARRAY(const int16_t, 1) b, TILE_ARRAY(int32_t, 2) o,
                           TILE_ARRAY(int8_t, 1) f)
{
    int32_t x = tile_load(a, .index = {0}, .shape = {16});
    int16_t y = tile_load(b, .index = {0}, .shape = {16});
    ROW(0, x + -3);
    ROW(1, x * -2);
    ROW(2, x / -3);
    ROW(3, x % -3);
    ROW(4, (int32_t)(x < -3) + (int32_t)(y == -1) * 2);
    ROW(5, y - -32768);
    ROW(6, tile_maximum(x, -7));
    tile_store(f, tile_full(int8_t, -5, .shape = {16}), .index = {0});
}
