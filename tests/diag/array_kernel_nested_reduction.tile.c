/* array kernel nested reduction: a reduction inside a reduction's operand is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 3) x)
{
    y = tile_sum(tile_max(x, .axis = 2), .axis = 1);
}
// expect: tests/diag/array_kernel_nested_reduction.tile.c:5:18: error: a reduction inside a reduction's operand: reduce once per array kernel, and chain array kernels for more
// expect:     5 |     y = tile_sum(tile_max(x, .axis = 2), .axis = 1);
// expect:       |                  ^~~~~~~~
// expect-no-other-errors
