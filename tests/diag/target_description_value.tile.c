/* A target description is not a value. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    int64_t d = tile_is_device;
    tile_store(c, x + d, .index = {0});
}
// expect: tests/diag/target_description_value.tile.c:6:17: error: tile_is_device describes targets, it is not a value
