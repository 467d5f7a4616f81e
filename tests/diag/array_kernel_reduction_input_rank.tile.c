/* array kernel reduction input rank: outside the reduction, an input of rank above the outputs' is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 2) w)
{
    y = tile_sum(x, .axis = 1) + w;
}
// expect: tests/diag/array_kernel_reduction_input_rank.tile.c:3:113: error: 'w' has rank 2, more than the outputs' 1: reduce it, or use it inside the reduction
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 2) w)
// expect:       |                                                                                                                 ^
// expect-no-other-errors
