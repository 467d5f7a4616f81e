/* bad element type: rejected. */
#include <tilec.h>
struct pair { float a, b; };
TILE_KERNEL void k(TILE_ARRAY(struct pair, 1) c)
{
}
// expect: tests/diag/bad_element_type.tile.c:4:47: error: array parameter 'c' has element type 'struct pair', which is not a Tile C element type
