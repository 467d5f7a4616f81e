/* padding value: .padding must be one of TILE_PAD_*. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4}, .padding = 7);
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/padding_value.tile.c:5:57: error: .padding must be one of TILE_PAD_*
