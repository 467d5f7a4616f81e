/* TILE_EXTERN functions take the element types C and CUDA C++ spell alike. */
#include <tilec.h>
TILE_EXTERN float widen(_Float16 x);
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/extern_half.tile.c:3:34: error: parameter 'x' of TILE_EXTERN function 'widen' is _Float16
