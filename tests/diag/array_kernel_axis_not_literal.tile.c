/* array kernel axis not literal: an array kernel's .axis is one integer literal, not a constant parameter. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_CONST(int, 1) A)
{
    y = tile_sum(x, .axis = A);
}
// expect: tests/diag/array_kernel_axis_not_literal.tile.c:5:22: error: an array kernel's .axis must be one integer literal
// expect:     5 |     y = tile_sum(x, .axis = A);
// expect:       |                      ^~~~
// expect-no-other-errors
