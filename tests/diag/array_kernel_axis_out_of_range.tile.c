/* array kernel axis out of range: a negative axis below -rank is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x)
{
    y = tile_min(x, .axis = -3);
}
// expect: tests/diag/array_kernel_axis_out_of_range.tile.c:5:22: error: axis -3 is out of range for an operand of rank 2
// expect:     5 |     y = tile_min(x, .axis = -3);
// expect:       |                      ^~~~
// expect-no-other-errors
