/* vla: a variable-length array is a local array: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int n)
{
    float buf[n];
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/vla.tile.c:5:11: error: local array 'buf' is not allowed in tile code
// expect: tests/diag/vla.tile.c:5:11: note: fix: use a tile: e.g. float t = tile_zeros(float, .shape = {4})
