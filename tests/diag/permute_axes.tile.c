/* permute axes: tile_permute needs a permutation of all axes. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 2) a, TILE_ARRAY(float, 2) c)
{
    float x = tile_load(a, .index = {0, 0}, .shape = {4, 8});
    float y = tile_permute(x, .axis = {0, 0});
    tile_store(c, y, .index = {0, 0});
}
// expect: tests/diag/permute_axes.tile.c:6:32: error: .axis must be a permutation of 0..1
