/* undeclared name: an undeclared identifier (clang's error, gcc format). */
#include <tilec.h>
TILE_KERNEL void k(TILE_ARRAY(const float, 1) a, TILE_ARRAY(float, 1) c)
{
    float t = tile_load(a, .index = {0}, .shape = {4});
    tile_store(c, t + q, .index = {0});
}
// expect: tests/diag/undeclared_name.tile.c:6:23: error: use of undeclared identifier 'q'
