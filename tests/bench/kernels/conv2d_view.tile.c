/* conv2d_view.tile.c: examples/conv2d's kernel (a 3x3 NHWC convolution as
 * im2col(x) @ w^T through views), benchmarked against cuDNN under this name,
 * with larger tiles than the example compiles: blocks of 2 or 4 rows of 32
 * or 64 pixels by 128 output channels, which sm_90a runs on the Hopper
 * variant (TMA boxes of the views).  Their mma.sync kernels, what sm_80 and
 * sm_90 builds run, hold a 256 x 128 float32 accumulator and spill.
 * nvcc-spills: allowed */
#define conv2d_nhwc conv2d_view
#define CONV2D_BH 2, 4
#define CONV2D_BW 32, 64
#define CONV2D_BCO 128
#include "../../../examples/conv2d/conv2d.tile.c"
