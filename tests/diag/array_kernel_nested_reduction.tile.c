/* array kernel nested reduction: a reduction inside another's operand must keep its axis (.keepdims) to broadcast. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 3) x)
{
    y = tile_sum(tile_max(x, .axis = 2), .axis = 1);
}
// expect: tests/diag/array_kernel_nested_reduction.tile.c:5:18: error: a reduction inside another's operand needs .keepdims = true to broadcast along axis 2
// expect:     5 |     y = tile_sum(tile_max(x, .axis = 2), .axis = 1);
// expect:       |                  ^~~~~~~~
// expect-no-other-errors
