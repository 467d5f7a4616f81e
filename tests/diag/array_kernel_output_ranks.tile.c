/* array kernel output ranks: an element-wise array kernel's outputs have one rank. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(float, 1) z, TILE_NDARRAY(const float, 1) x)
{
    y = x;
    z = x;
}
// expect: tests/diag/array_kernel_output_ranks.tile.c:3:75: error: output 'z' has rank 1 and 'y' rank 2: an element-wise array kernel writes arrays of one shape
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(float, 1) z, TILE_NDARRAY(const float, 1) x)
// expect:       |                                                                           ^
// expect-no-other-errors
