/* math call: rejected. */
#include <tilec.h>
#include <math.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, expf(t), .index = {0});
}
// expect: tests/diag/math_call.tile.c:7:19: error: C library function 'expf' cannot be called in tile code
// expect: tests/diag/math_call.tile.c:7:19: note: fix: use tile_exp(...)
