/* tuned.tile.c: a TILE_TUNABLE constant.  Each block stores the BN its
 * launcher chose into its BN elements of `o` (and x + BN into `y`), so
 * main.c reads back which entry of tuning.txt the dispatch picked for a
 * shape: an exact bucket, the nearest one, or none (the default).  BM is an
 * ordinary TILE_CONST next to it, still passed by the caller. */
#include <tilec.h>

TILE_KERNEL void tuned(TILE_ARRAY(const float, 1) x, TILE_ARRAY(float, 1) y, TILE_ARRAY(int32_t, 1) o,
                       TILE_CONST(int, 1, 2) BM, TILE_TUNABLE(int, 16, 32, 64) BN)
{
    float t = tile_load(x, .index = {tile_bid(0)}, .shape = {BN});
    tile_store(y, t + (float)(BN * BM), .index = {tile_bid(0)});
    tile_store(o, tile_full(int32_t, BN, .shape = {BN}), .index = {tile_bid(0)});
}

/* The same with no table entries: tuning.txt has only a `default` line for
 * tuned_dflt (BN = 32), and nothing for tuned_none (BN's first value, 64). */
TILE_KERNEL void tuned_dflt(TILE_ARRAY(int32_t, 1) o, TILE_TUNABLE(int, 16, 32, 64) BN)
{
    tile_store(o, tile_full(int32_t, BN, .shape = {BN}), .index = {tile_bid(0)});
}

TILE_KERNEL void tuned_none(TILE_ARRAY(int32_t, 1) o, TILE_TUNABLE(int, 64, 16) BN)
{
    tile_store(o, tile_full(int32_t, BN, .shape = {BN}), .index = {tile_bid(0)});
}
