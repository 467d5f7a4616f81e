/* atomic float16: atomics need 32- or 64-bit element types. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(_Float16, 1) c)
{
    _Float16 x = tile_zeros(_Float16, .shape = {4});
    tile_atomic_add(c, x, .index = {tile_arange(int32_t, .shape = {4})});
}
// expect: tests/diag/atomic_float16.tile.c:6:21: error: tile_atomic_add does not support float16 arrays (32- and 64-bit integers and floats)
