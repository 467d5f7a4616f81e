/* fused_expr.tile.c: seed 002's expression A = B + C*D + sin(E)*F + 10 as
 * one fused kernel: five loads, one store, every intermediate in registers. */
#include <tilec.h>

TILE_KERNEL void fused_expr(TILE_ARRAY(float, 1) A, TILE_ARRAY(const float, 1) B, TILE_ARRAY(const float, 1) C,
                            TILE_ARRAY(const float, 1) D, TILE_ARRAY(const float, 1) E, TILE_ARRAY(const float, 1) F)
{
    int pid = tile_bid(0);
    float b = tile_load(B, .index = {pid}, .shape = {1024});
    float c = tile_load(C, .index = {pid}, .shape = {1024});
    float d = tile_load(D, .index = {pid}, .shape = {1024});
    float e = tile_load(E, .index = {pid}, .shape = {1024});
    float f = tile_load(F, .index = {pid}, .shape = {1024});
    tile_store(A, b + c * d + tile_sin(e) * f + 10, .index = {pid});
}
