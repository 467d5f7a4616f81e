/* array kernel assign input: a const TILE_NDARRAY is an input; assigning it is C's const error. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 1) y, TILE_NDARRAY(const float, 1) x)
{
    y = x;
    x = y * 2;
}
// expect: tests/diag/array_kernel_assign_input.tile.c:6:7: error: cannot assign to variable 'x' with const-qualified type 'const float'
// expect:     6 |     x = y * 2;
// expect:       |       ^
// expect-no-other-errors
