/* array kernel input rank: an input of rank above the element-wise outputs' is rejected (NumPy cannot broadcast it down). */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = x + 1;
}
// expect: tests/diag/array_kernel_input_rank.tile.c:3:81: error: input 'x' has rank 2, more than the outputs' 1: reduce it along an axis (tile_sum(x, .axis = k))
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
// expect:       |                                                                                 ^
// expect-no-other-errors
