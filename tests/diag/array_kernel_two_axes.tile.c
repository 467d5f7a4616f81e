/* array kernel two axes: two reductions along different axes of the operands' broadcast are rejected, with a note at the first. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) rows, TILE_NDARRAY(float, 1) cols, TILE_NDARRAY(const float, 2) x)
{
    rows = tile_sum(x, .axis = 1);
    cols = tile_sum(x, .axis = 0);
}
// expect: tests/diag/array_kernel_two_axes.tile.c:6:25: error: this reduction is along axis 0 of the operands' broadcast, an earlier one along axis 1: one array kernel reduces one axis
// expect:     6 |     cols = tile_sum(x, .axis = 0);
// expect:       |                         ^~~~
// expect: tests/diag/array_kernel_two_axes.tile.c:5:25: note: the earlier reduction's axis
// expect:     5 |     rows = tile_sum(x, .axis = 1);
// expect:       |                         ^~~~
// expect-no-other-errors
