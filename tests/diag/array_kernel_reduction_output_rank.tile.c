/* array kernel reduction output rank: reducing rank-3 operands along one axis gives rank 2, not the output's 1. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 3) x)
{
    y = tile_sum(x, .axis = 1);
}
// expect: tests/diag/array_kernel_reduction_output_rank.tile.c:3:49: error: output 'y' has rank 1; this array kernel reduces rank-3 operands along one axis, which gives rank 2 (or 3 with .keepdims)
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 3) x)
// expect:       |                                                 ^
// expect-no-other-errors
