/* array kernel two axes broadcast: operands align at their last axes, so axis 1 of a rank-2 operand is axis 2 of a rank-3 one's broadcast; axis 1 of the rank-3 operand is another axis. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) w, TILE_NDARRAY(const float, 3) x)
{
    y = tile_sum(w, .axis = 1) + tile_sum(x, .axis = 1);
}
// expect: tests/diag/array_kernel_two_axes_broadcast.tile.c:5:47: error: this reduction is along axis 1 of the operands' broadcast, an earlier one along axis 2: one array kernel reduces one axis
// expect:     5 |     y = tile_sum(w, .axis = 1) + tile_sum(x, .axis = 1);
// expect:       |                                               ^~~~
// expect: tests/diag/array_kernel_two_axes_broadcast.tile.c:5:22: note: the earlier reduction's axis
// expect:     5 |     y = tile_sum(w, .axis = 1) + tile_sum(x, .axis = 1);
// expect:       |                      ^~~~
// expect-no-other-errors
