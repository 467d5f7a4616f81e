/* array kernel tile function reduction: a tile function called from an array kernel computes element by element; a reduction or a product in it would work on tilec's tile, and is refused. */
#include <tilec.h>
TILE_FUNC float row_total(float v) { return tile_sum(v, .axis = 1, .keepdims = true); }
TILE_FUNC float scaled(float v) { return 2.0f * row_total(v); }
TILE_FUNC float twice(float v) { return v + v; }
TILE_ARRAY_KERNEL void k(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(float, 2) z, TILE_NDARRAY(const float, 2) x)
{
    y = scaled(x);
    z = twice(x);
}
// expect: tests/diag/array_kernel_tile_function_reduction.tile.c:3:45: error: tile_sum in tile function 'row_total' works on a tile, not element by element: an array kernel calls tile functions of element-wise operations only
// expect:     3 | TILE_FUNC float row_total(float v) { return tile_sum(v, .axis = 1, .keepdims = true); }
// expect:       |                                             ^~~~~~~~
// expect: tests/diag/array_kernel_tile_function_reduction.tile.c:8:9: note: in the call from array kernel 'k' here
// expect:     8 |     y = scaled(x);
// expect:       |         ^~~~~~~~~
// expect-no-other-errors
