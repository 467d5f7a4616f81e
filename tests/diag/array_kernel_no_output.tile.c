/* array kernel no output: a body that assigns no output array is rejected. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x)
{
    float t = x * 2;
}
// expect: tests/diag/array_kernel_no_output.tile.c:3:24: error: array kernel 'k' writes no output array
// expect:     3 | TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x)
// expect:       |                        ^
// expect: tests/diag/array_kernel_no_output.tile.c:3:24: note: fix: assign a whole-array expression to an output: 'out = a + b;'
// expect-no-other-errors
