/* unknown option: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16}, .memory_order = TILE_RELAXED);
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/unknown_option.tile.c:5:58: error: tile_load has no option '.memory_order' (options: index, shape, order, padding, latency)
