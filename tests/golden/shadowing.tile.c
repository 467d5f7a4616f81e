/* shadowing.tile.c: an inner variable that shadows an outer one is a
 * different variable: assigning it leaves the outer one a constant, usable
 * in a shape. */
#include <tilec.h>

TILE_KERNEL void shadowing(TILE_ARRAY(float, 1) c)
{
    int n = 16;
    {
        int n = 3;
        n = 5;
    }
    tile_store(c, tile_zeros(float, .shape = {n}), .index = {0});
}
