/* array kernel reduction output read: a reduction's array kernel reads only its inputs, not an output it wrote. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(float, 1) z, TILE_NDARRAY(const float, 2) x)
{
    y = tile_sum(x, .axis = 1);
    z = y * 2;
}
// expect: tests/diag/array_kernel_reduction_output_read.tile.c:6:5: error: output 'y' is also read; a reduction's array kernel reads only its inputs
// expect:     6 |     z = y * 2;
// expect:       |     ^
// expect-no-other-errors
