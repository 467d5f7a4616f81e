/* runtime shape: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c, int n)
{
    float t = tile_load(a, .index = {0}, .shape = {n});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/runtime_shape.tile.c:5:52: error: a tile shape must be a compile-time integer constant
