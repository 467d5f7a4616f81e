/* member access: member access is rejected, even on a constant global. */
#include <tilec.h>
static const struct { int n; } cfg = {4};
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int n = cfg.n;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/member_access.tile.c:6:17: error: member access is not allowed in tile code
