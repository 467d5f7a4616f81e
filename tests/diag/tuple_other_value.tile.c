/* A struct variable takes a literal, another variable or a call of its type. */
#include <tilec.h>
struct pair { float lo, hi; };
TILE_KERNEL void k(TILE_ARRAY(float, 1) c, int32_t n)
{
    float x = tile_zeros(float, .shape = {4});
    struct pair a = (struct pair){x, x};
    struct pair b = (struct pair){x, -x};
    struct pair p = n > 0 ? a : b;
    tile_store(c, p.hi, .index = {0});
}
// expect: tests/diag/tuple_other_value.tile.c:9:21: error: a struct pair takes a value of its own struct type
