/* compound assign type: v += 1.5 makes a float32 that does not fit an int32 variable. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(int32_t, 1) c)
{
    int32_t v = tile_zeros(int32_t, .shape = {4});
    v += 1.5f;
    tile_store(c, v, .index = {0});
}
// expect: tests/diag/compound_assign_type.tile.c:6:5: error: compound assignment gives float32, which does not convert to int32 variable 'v' implicitly
// expect: tests/diag/compound_assign_type.tile.c:6:5: note: fix: write it out with an explicit tile_cast
