/* unknown option: an option of other builtins (atomics), not of tile_load. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {16}, .memory_order = TILE_RELAXED);
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/unknown_option.tile.c:5:58: error: unknown option '.memory_order' for tile_load
// expect: tests/diag/unknown_option.tile.c:5:58: note: fix: use one of tile_load's options: .index, .shape, .order, .padding, .latency
