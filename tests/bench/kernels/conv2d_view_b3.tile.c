/* conv2d_view_b3.tile.c: conv2d_view.tile.c's kernel built for three blocks
 * an SM (80 registers a thread).  Its K loop's footprints are boxes only
 * under a run-time condition, so the ordinary build states one block an SM
 * (ptxas otherwise spilled it); this one asks for three, as an earlier
 * build that ran at 80 registers did (twelfth session: 2527 us against
 * 4525 us at 116-168 registers on the H200), and may spill: the benchmark
 * keeps the fastest.
 * tilec-flags: --min-blocks=3
 * nvcc-spills: allowed */
#define conv2d_nhwc conv2d_view_b3
#include "../../../examples/conv2d/conv2d.tile.c"
