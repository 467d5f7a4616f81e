/* broadcast.tile.c: NumPy broadcasting from rank 1 to rank 3, with the
 * smaller operand on either side, (M,1) with (1,N), (4,1) with (2,1,8),
 * three-way broadcasting in tile_where, scalar parameters and constants,
 * integer operands of different widths, tile_broadcast_to, and stores that
 * broadcast a row, a (2,1,8) tile or a scalar to the stored shape.
 * o3 row k is a (2,4,8) result, o2 row k a (4,8) one. */
#include <tilec.h>

#define ROW3(k, v) tile_store(o3, tile_expand_dims(v, .axis = 0), .index = {k, 0, 0, 0})
#define ROW2(k, v) tile_store(o2, tile_expand_dims(v, .axis = 0), .index = {k, 0, 0})

TILE_KERNEL void bcast(TILE_ARRAY(const float, 3) A, TILE_ARRAY(const float, 1) B, TILE_ARRAY(const float, 2) C,
                       TILE_ARRAY(const float, 2) D, TILE_ARRAY(const float, 3) E, TILE_ARRAY(const int8_t, 1) I8,
                       TILE_ARRAY(const int32_t, 2) I32, TILE_ARRAY(float, 4) o3, TILE_ARRAY(float, 3) o2, float s)
{
    float a = tile_load(A, .index = {0, 0, 0}, .shape = {2, 4, 8}); /* (2,4,8) */
    float b = tile_load(B, .index = {0}, .shape = {8});             /* (8,) */
    float c = tile_load(C, .index = {0, 0}, .shape = {4, 1});       /* (4,1) */
    float d = tile_load(D, .index = {0, 0}, .shape = {1, 8});       /* (1,8) */
    float e = tile_load(E, .index = {0, 0, 0}, .shape = {2, 1, 8}); /* (2,1,8) */
    int8_t i8 = tile_load(I8, .index = {0}, .shape = {8});
    int32_t i32 = tile_load(I32, .index = {0, 0}, .shape = {4, 1});
    float b1 = tile_load(B, .index = {0}, .shape = {1});            /* (1,) */

    ROW3(0, a + b);
    ROW3(1, b - a);
    ROW3(2, a * c);
    ROW3(3, c + e);
    ROW3(4, tile_where(c > d, a, b));
    ROW3(5, a * s + 1);
    tile_store(o3, tile_expand_dims(e * d, .axis = 0), .shape = {1, 2, 4, 8}, .index = {6, 0, 0, 0});
    ROW3(7, (e - c) / (d + 2));

    ROW2(0, c * d);
    ROW2(1, d - c);
    ROW2(2, i8 + i32);
    ROW2(3, tile_broadcast_to(b, .shape = {4, 8}));
    tile_store(o2, b, .shape = {1, 4, 8}, .index = {4, 0, 0});
    tile_store(o2, s, .shape = {1, 4, 8}, .index = {5, 0, 0});
    ROW2(6, b + tile_zeros(float, .shape = {4, 1}));
    ROW2(7, b1 + b + c);
}
