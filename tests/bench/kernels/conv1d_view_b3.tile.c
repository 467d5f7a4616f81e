/* conv1d_view_b3.tile.c: conv1d_view.tile.c's kernel built for three blocks
 * an SM (80 registers a thread): the view pipeline's K loop has few products
 * a step and is bound by the latency of its copies and its shared-memory
 * traffic, which more blocks an SM hide (H200: 32 x 128 tiles 198 -> 171 us).
 * The larger tiles spill under that cap; the benchmark keeps the fastest.
 * tilec-flags: --min-blocks=3
 * nvcc-spills: allowed */
#define conv1d_causal conv1d_view_b3
#include "../../../examples/conv1d/conv1d.tile.c"
