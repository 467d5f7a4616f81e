/* array kernel read in and out: an array read both at the operands' coordinates and at the reduced ones is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 1) b)
{
    y = tile_sum(x + b, .axis = 1) * b;
}
// expect: tests/diag/array_kernel_read_in_and_out.tile.c:3:113: error: 'b' is read both at the operands' coordinates and at the reduced ones; an array kernel reads each array in one of the two
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 1) b)
// expect:       |                                                                                                                 ^
// expect-no-other-errors
