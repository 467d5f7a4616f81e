/* member access: only struct variables of tile code have fields to read; a
 * global struct, even a constant one, is a global. */
#include <tilec.h>
static const struct { int n; } cfg = {4};
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int n = cfg.n;
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {n});
}
// expect: tests/diag/member_access.tile.c:7:13: error: tile code cannot use the global variable 'cfg'
