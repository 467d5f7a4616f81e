/* array kernel reduce 1d: reducing a 1-d operand (a whole-array total) is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x, TILE_NDARRAY(const float, 1) w)
{
    y = tile_prod(x * w, .axis = 0);
}
// expect: tests/diag/array_kernel_reduce_1d.tile.c:5:9: error: tile_prod of a 1-d array reduces it to a single value, which array kernels do not compute
// expect:     5 |     y = tile_prod(x * w, .axis = 0);
// expect:       |         ^~~~~~~~~
// expect: tests/diag/array_kernel_reduce_1d.tile.c:5:9: note: fix: reduce a matrix along one of its axes; a whole-array total is tile_atomic_add in a tile kernel (examples/array_sum)
// expect-no-other-errors
