/* rzi int cast: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const int32_t, 1) a, TILE_ARRAY(int16_t, 1) c)
{
    int32_t t = tile_load(a, .index = {0}, .shape = {16});
    tile_store(c, tile_cast(t, int16_t, .rounding = TILE_RZI), .index = {0});
}
// expect: tests/diag/rzi_int_cast.tile.c:6:42: error: TILE_RZI rounds a float to an integral value; this cast is int32 to int16
