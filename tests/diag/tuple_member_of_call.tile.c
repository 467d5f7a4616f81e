/* Fields are read from struct variables, not from calls. */
#include <tilec.h>
struct pair { float lo, hi; };
TILE_FUNC struct pair both(float x)
{
    return (struct pair){x, x};
}
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    float x = tile_zeros(float, .shape = {4});
    tile_store(c, both(x).hi, .index = {0});
}
// expect: tests/diag/tuple_member_of_call.tile.c:11:27: error: member access works on struct variables (tuples) only
