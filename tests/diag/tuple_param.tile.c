/* Tile function parameters are tiles and scalars, not structs. */
#include <tilec.h>
struct pair { float lo, hi; };
TILE_FUNC float width(struct pair p)
{
    return p.hi - p.lo;
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    struct pair p = (struct pair){x, x};
    tile_store(c, width(p), .index = {0});
}
// expect: tests/diag/tuple_param.tile.c:4:35: error: parameter 'p' has struct type 'struct pair': parameters are tiles and scalars, a struct (tuple) only a tile function's result or a variable
