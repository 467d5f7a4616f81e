/* array kernel keepdims: a kept reduction (.keepdims = true) has the operands' rank, not the output's. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = tile_max(x, .axis = 1, .keepdims = true);
}
// expect: tests/diag/array_kernel_keepdims.tile.c:5:5: error: output 'y' has rank 1, but its value has the rank 2 of the reduction's operands (drop .keepdims)
// expect:     5 |     y = tile_max(x, .axis = 1, .keepdims = true);
// expect:       |     ^
// expect-no-other-errors
