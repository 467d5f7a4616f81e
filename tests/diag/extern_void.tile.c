/* A TILE_EXTERN function is applied element by element: it returns a value. */
#include <tilec.h>
TILE_EXTERN void log_value(float x);
TILE_KERNEL void k(TILE_ARRAY(float, 1) c)
{
    tile_store(c, tile_zeros(float, .shape = {4}), .index = {0});
}
// expect: tests/diag/extern_void.tile.c:3:18: error: TILE_EXTERN function 'log_value' must return a value: it is applied element by element
