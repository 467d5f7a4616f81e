/* conv1d_view.tile.c: examples/conv1d's kernel, seed 004's causal conv1d
 * written with views as the matrix product it is, y[n] = w @ im2col(x[n]),
 * benchmarked beside the gather kernel conv1d.tile.c under its own name. */
#define conv1d_causal conv1d_view
#include "../../../examples/conv1d/conv1d.tile.c"
