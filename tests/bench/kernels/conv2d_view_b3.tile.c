/* conv2d_view_b3.tile.c: examples/conv2d's kernel with the example's own
 * tiles (blocks of 1 or 2 rows of 32 or 64 pixels by 64 output channels)
 * built for three blocks an SM (80 registers a thread), as an earlier build
 * of its mma.sync kernels ran fastest; it may spill: the benchmark keeps
 * the fastest.
 * tilec-flags: --min-blocks=3
 * nvcc-spills: allowed */
#define conv2d_nhwc conv2d_view_b3
#include "../../../examples/conv2d/conv2d.tile.c"
