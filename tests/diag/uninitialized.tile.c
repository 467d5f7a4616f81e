/* uninitialized: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t;
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/uninitialized.tile.c:5:11: error: variable 't' must be initialized: a tile's shape comes from its value
