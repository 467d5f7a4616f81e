/* tile_provides takes an architecture tilec knows. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    if (tile_target(tile_provides(85)))
        x = x + 1.0f;
    tile_store(c, x, .index = {0});
}
// expect: tests/diag/target_unknown_arch.tile.c:6:35: error: 85 is not a CUDA architecture tilec knows (50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90, 100, 101, 103, 110, 120, 121)
