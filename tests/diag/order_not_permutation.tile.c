/* order not permutation: .order must be a permutation. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float t = tile_load(a, .index = {0, 0}, .shape = {16, 16}, .order = {1, 1});
    tile_store(c, t, .index = {0, 0});
}
// expect: tests/diag/order_not_permutation.tile.c:5:65: error: .order must be a permutation of 0..1
