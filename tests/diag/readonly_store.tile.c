/* readonly store: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(a, t, .index = {0});
}
// expect: tests/diag/readonly_store.tile.c:6:16: error: array 'a' is read-only (declared with a const element type)
