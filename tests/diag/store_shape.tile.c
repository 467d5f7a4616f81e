/* store shape: the stored tile does not broadcast to the store's .shape. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, t, .index = {0}, .shape = {8});
}
// expect: tests/diag/store_shape.tile.c:6:19: error: stored tile does not fit the store's shape: shape (16,) cannot be broadcast to (8,): dimension 0 is 16 vs 8
