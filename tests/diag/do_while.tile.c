/* do while: rejected. */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    int i = 0;
    do { i++; } while (i < 3);
}
// expect: tests/diag/do_while.tile.c:6:5: error: do-while loops are not supported in tile code
