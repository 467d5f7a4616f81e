/* conv2d_view.tile.c: examples/conv2d's kernel (a 3x3 NHWC convolution as
 * im2col(x) @ w^T through views), benchmarked against cuDNN under this name. */
#define conv2d_nhwc conv2d_view
#include "../../../examples/conv2d/conv2d.tile.c"
