/* unsigned const negative: a negative constant does not fit uint32. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const uint32_t, 1) a, TILE_ARRAY(uint32_t, 1) c)
{
    uint32_t t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, t + -1, .index = {0});
}
// expect: tests/diag/unsigned_const_negative.tile.c:6:19: error: integer constant -1 does not fit uint32: cast the other operand to a wider type, e.g. tile_cast(x, int64_t)
