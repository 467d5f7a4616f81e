/* goto: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    goto end;
end:
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/goto.tile.c:5:5: error: goto is not allowed in tile code
