/* array kernel type error: a float32 value into a float16 output without tile_cast is reported at the user's expression. */
#include <tilec.h>
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(_Float16, 1) y, TILE_NDARRAY(const float, 1) x)
{
    y = x * 2;
}
// expect: tests/diag/array_kernel_type_error.tile.c:5:9: error: cannot assign a float32 value to float16 array 'y' implicitly
// expect:     5 |     y = x * 2;
// expect:       |         ^~~~~
// expect: tests/diag/array_kernel_type_error.tile.c:5:9: note: fix: convert explicitly: tile_cast(value, _Float16)
// expect-no-other-errors
