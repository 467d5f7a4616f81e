/* conv1d_tuned.tile.c: conv1d.tile.c's causal conv1d (seed 004's
 * transpose + pad + im2col + GEMM in one kernel: the im2col windows gathered
 * from x and multiplied on tensor cores) with the channel step CI and the
 * time block BT tunable: the launcher picks them from the tuning table and
 * works out the grid (ceil(ho / BT), ceil(co / CO), N) from y.  The first
 * listed values (CI 32, BT 64) are the untuned default.  bench.py times it
 * beside the fastest of conv1d.tile.c's variants picked by hand: the same
 * kernel, this file includes it. */
#define CONV1D_NAME conv1d_causal_tuned
#define CONV1D_STEP TILE_TUNABLE
#include "conv1d.tile.c"
