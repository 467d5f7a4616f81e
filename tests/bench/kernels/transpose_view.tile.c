/* transpose_view.tile.c: seed 004's first host pass, (N, ci, hi) -> (N, hi,
 * ci), as a tile kernel that reads x through a transposed view: each block
 * loads a (BH, BC) tile of the view and stores it into y.  The compiler
 * reads the view in x's own order (coalesced along hi) and transposes in
 * registers through a swizzled shared-memory mirror.  Grid: (ceil(hi/BH),
 * ceil(ci/BC), N).  transpose_view_t128, _t64 and _t32 build it with fewer
 * threads per block: more elements, so more bytes in flight, per register
 * (the kernel is bound by the loads in flight per SM). */
#include <tilec.h>

#ifndef TRANSPOSE_NAME
#define TRANSPOSE_NAME transpose_view
#endif
#ifndef TRANSPOSE_BH
#define TRANSPOSE_BH 64, 128, 256
#endif

TILE_KERNEL void TRANSPOSE_NAME(TILE_ARRAY(const _Float16, 3) x, TILE_ARRAY(_Float16, 3) y, TILE_CONST(int, TRANSPOSE_BH) BH,
                                TILE_CONST(int, 32, 64) BC)
{
    TILE_VIEW(const _Float16, 3) xt = tile_view_transpose(x); /* (N, hi, ci) */
    _Float16 t = tile_load(xt, .index = {tile_bid(2), tile_bid(0), tile_bid(1)}, .shape = {1, BH, BC});
    tile_store(y, t, .index = {tile_bid(2), tile_bid(0), tile_bid(1)});
}
