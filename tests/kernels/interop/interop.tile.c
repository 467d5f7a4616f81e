/* interop.tile.c: the two directions between Tile C and CUDA C++.
 * TILE_EXTERN functions, defined in CUDA C++ (extern.cu) for the GPU and in
 * C (extern.c) for the host target, applied element by element to tiles,
 * with broadcasting and implicit conversions; a SIMT_INTEROP function that
 * extern.cu's own CUDA C++ kernel calls; and a SIMT kernel that extern.cu
 * launches with cudaLaunchKernel.  main.c checks the results against
 * float64 references. */
#include <tilec.h>

/* softplus(x) = log(1 + e^x), written once in the user's CUDA C++. */
TILE_EXTERN float softplus(float x);
/* a * x + b with an integer a: three arguments of two types. */
TILE_EXTERN double affine(int32_t a, double x, double b);
/* Collatz steps below 1000 of n: integer code that has no tile form. */
TILE_EXTERN int32_t collatz_steps(int64_t n);

TILE_KERNEL void apply(TILE_ARRAY(const float, 2) x, TILE_ARRAY(const int32_t, 1) a, TILE_ARRAY(float, 2) y,
                       TILE_ARRAY(double, 2) z, TILE_ARRAY(int32_t, 1) steps, double b)
{
    int i = tile_bid(0);
    float t = tile_load(x, .index = {i, 0}, .shape = {16, 32}, .padding = TILE_PAD_ZERO);
    int32_t av = tile_load(a, .index = {0}, .shape = {32}, .padding = TILE_PAD_ZERO);
    tile_store(y, softplus(t) * 2.0f, .index = {i, 0});
    /* a (32,) row broadcast over the (16, 32) tile; the float tile converts to double */
    tile_store(z, affine(av, t, b), .index = {i, 0});
    int64_t n = tile_arange(int64_t, .shape = {16}) + (int64_t)i * 16 + 1;
    tile_store(steps, collatz_steps(n), .index = {i});
}

/* table[i], with i clamped into the table: a device function for CUDA C++
 * callers (extern.cu's cxx_gather). */
SIMT_INTEROP SIMT_FUNC float table_at(TILE_ARRAY(const float, 1) table, int64_t i)
{
    int64_t n = simt_shape(table, 0);
    return table[i < 0 ? 0 : i >= n ? n - 1 : i];
}

/* out[i] = 3 * table_at(table, i - 2): launched by its launcher, and by
 * cudaLaunchKernel from CUDA C++ through tilec_kernel_shifted(). */
SIMT_KERNEL void shifted(TILE_ARRAY(const float, 1) table, TILE_ARRAY(float, 1) out)
{
    int64_t i = simt_tid(0);
    if (i < simt_shape(out, 0))
        out[i] = 3.0f * table_at(table, i - 2);
}
