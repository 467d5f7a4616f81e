/* tile_target is the whole condition of an if: combine descriptions inside it. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    if (n > 0 && tile_target(tile_is_host))
        x = x + 1.0f;
    tile_store(c, x, .index = {0});
}
// expect: tests/diag/target_not_whole_condition.tile.c:6:18: error: tile_target(...) must be the whole condition of an if statement
