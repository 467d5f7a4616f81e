/* spec dependent: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c, TILE_CONST(int, 16, 24) B)
{
    float t = tile_load(a, .index = {0}, .shape = {B});
    tile_store(c, t, .index = {0});
}
// expect: tests/diag/spec_dependent.tile.c:5:52: error: tile dimension 24 is not a power of two (tile_load, .shape entry 0)
// expect: tests/diag/spec_dependent.tile.c:3:18: note: in kernel 'k' compiled for B=24
