/* atomic xor on floats: the bitwise atomics take integer arrays only. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    tile_atomic_xor(c, x, .index = {tile_arange(int32_t, .shape = {4})});
}
// expect: tests/diag/atomic_xor_float.tile.c:6:21: error: tile_atomic_xor does not support float32 arrays (32- and 64-bit integers only)
