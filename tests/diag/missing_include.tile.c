/* missing include: without tilec.h every Tile C name is unknown and each
 * one cascades; one error at the first of them says why. */
TILE_KERNEL void add(TILE_ARRAY(const float, 1) a, TILE_ARRAY(const float, 1) b, TILE_ARRAY(float, 1) c)
{
    int i = tile_bid(0);
    float x = tile_load(a, .index = {i}, .shape = {128});
    float y = tile_load(b, .index = {i}, .shape = {128});
    tile_store(c, x + y, .index = {i});
}
// expect: tests/diag/missing_include.tile.c:3:1: error: 'TILE_KERNEL' is not defined: this file does not include <tilec.h>
// expect: tests/diag/missing_include.tile.c:3:1: note: fix: add '#include <tilec.h>' at the top of the file
// expect: tests/diag/missing_include.tile.c: note: 16 more errors not shown: they may all come from the missing #include
// expect-no-other-errors
