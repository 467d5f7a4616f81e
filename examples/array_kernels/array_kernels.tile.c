/* array_kernels.tile.c: array kernels (docs/language.md, "Array kernels"):
 * whole-array statements, with NumPy broadcasting, that tilec tiles, grids
 * and launches itself.  The launchers take the stream and the arrays. */
#include <tilec.h>

/* Seed 002's expression on whole vectors: one fused kernel, five loads and
 * one store per element. */
TILE_ARRAY_KERNEL void expr(TILE_NDARRAY(float, 1) A, TILE_NDARRAY(const float, 1) B, TILE_NDARRAY(const float, 1) C,
                            TILE_NDARRAY(const float, 1) D, TILE_NDARRAY(const float, 1) E,
                            TILE_NDARRAY(const float, 1) F)
{
    A = B + C * D + tile_sin(E) * F + 10;
}

/* A float16 matrix plus a float32 bias row (broadcast over the rows), then a
 * leaky ReLU; the temporary t is float32 and the result is rounded once. */
TILE_ARRAY_KERNEL void bias_leaky(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                                  TILE_NDARRAY(const float, 1) bias, float slope)
{
    float t = x + bias;
    y = tile_cast(tile_where(t > 0, t, slope * t), _Float16);
}

/* In place: acc += scale * g, on rank-3 arrays; g may be (1, n, k), (m, 1, k)
 * or anything else that broadcasts to acc's shape. */
TILE_ARRAY_KERNEL void axpy3(TILE_NDARRAY(float, 3) acc, TILE_NDARRAY(const float, 3) g, float scale)
{
    acc += scale * g;
}

/* Two outputs from one pass over the inputs. */
TILE_ARRAY_KERNEL void sum_diff(TILE_NDARRAY(double, 2) s, TILE_NDARRAY(double, 2) d, TILE_NDARRAY(const double, 2) a,
                                TILE_NDARRAY(const double, 2) b)
{
    s = a + b;
    d = a - b;
}

/* Row statistics: the dot product of each row pair and each row's sum of
 * squares, in one pass over the rows (both reduce axis 1). */
TILE_ARRAY_KERNEL void row_stats(TILE_NDARRAY(float, 1) dot, TILE_NDARRAY(float, 1) sq, TILE_NDARRAY(const float, 2) X,
                                 TILE_NDARRAY(const float, 2) Y)
{
    dot = tile_sum(X * Y, .axis = 1);
    sq = tile_sum(X * X, .axis = 1);
}

/* Column maximum and minimum of exp(X), scaled by a per-column weight. */
TILE_ARRAY_KERNEL void col_range(TILE_NDARRAY(float, 1) r, TILE_NDARRAY(const float, 2) X, TILE_NDARRAY(const float, 1) w)
{
    float e = tile_exp(X);
    r = (tile_max(e, .axis = 0) - tile_min(e, .axis = 0)) * w;
}

/* The mean over the middle axis of a rank-3 int32 array, as float: the sum
 * of int32 is int32 (exact here), divided by the axis's extent. */
TILE_ARRAY_KERNEL void mid_mean(TILE_NDARRAY(float, 2) m, TILE_NDARRAY(const int32_t, 3) X)
{
    m = tile_cast(tile_sum(X, .axis = 1), float) / tile_cast(tile_dim(X, 1), float);
}

/* Layer norm over the last axis: three phases over each row (the mean, the
 * variance of the centred values, then the normalised output), float32
 * statistics for float16 data.  A row that fits one tile is read once. */
TILE_ARRAY_KERNEL void layer_norm(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                                  TILE_NDARRAY(const _Float16, 1) w, TILE_NDARRAY(const _Float16, 1) b, float eps)
{
    float xf = x;
    float n = tile_cast(tile_dim(x, 1), float);
    float mean = tile_sum(xf, .axis = 1, .keepdims = true) / n;
    float d = xf - mean;
    float var = tile_sum(d * d, .axis = 1, .keepdims = true) / n;
    y = tile_cast(d * tile_rsqrt(var + eps) * w + b, _Float16);
}

/* Softmax over the last axis, and each row's log-sum-exp as a second output. */
TILE_ARRAY_KERNEL void softmax_lse(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(float, 1) lse, TILE_NDARRAY(const float, 2) x)
{
    float m = tile_max(x, .axis = 1, .keepdims = true);
    float e = tile_exp(x - m);
    float s = tile_sum(e, .axis = 1, .keepdims = true);
    y = e / s;
    lse = tile_squeeze(m + tile_log(s), .axis = 1);
}

/* A matrix product with prologues and an epilogue: the shifted operands
 * are computed in the product's K loop (and masked past K, where x and w
 * read the padding's zeros: x + xs + 0.25 is 0.25 there, not 0), the
 * residual r added to the float32 accumulator before the one store
 * (docs/language.md, "Matrix products in array kernels"). */
TILE_ARRAY_KERNEL void shifted_matmul_res(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                                          TILE_NDARRAY(const _Float16, 1) xs, TILE_NDARRAY(const _Float16, 2) w,
                                          TILE_NDARRAY(const _Float16, 1) ws, TILE_NDARRAY(const float, 2) r)
{
    y = tile_matmul(x + xs + 0.25f, w + ws - 0.5f) + r;
}

/* c += alpha * a @ b: the output is read at the product's coordinates
 * (each block reads and writes its own tile). */
TILE_ARRAY_KERNEL void gemm_update(TILE_NDARRAY(float, 2) c, TILE_NDARRAY(const _Float16, 2) a,
                                   TILE_NDARRAY(const _Float16, 2) b, float alpha)
{
    c += alpha * tile_matmul(a, b);
}
