/* A target description is built from the tile_provides family with | & ~. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    if (tile_target(tile_is_host | n))
        x = x + 1.0f;
    tile_store(c, x, .index = {0});
}
// expect: tests/diag/target_not_description.tile.c:6:36: error: this is not a target description
