/* positional option: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, {0}, .shape = {4});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/positional_option.tile.c:5:28: error: options of 'tile_load' must be written as designated initializers
