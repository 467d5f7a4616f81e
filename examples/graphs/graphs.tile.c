/* graphs.tile.c: kernel graphs (docs/language.md, "Kernel graphs"): array
 * kernels written one operation each, called in order by a TILE_GRAPH, and
 * fused by tilec into as few kernels as it can (`tilec --remarks` says which
 * calls fused and why the others did not). */
#include <tilec.h>

/* ---- the array kernels -------------------------------------------------- */

/* Layer norm over the last axis, float32 statistics. */
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

/* GELU, tanh approximation (as torch's approximate="tanh"). */
TILE_ARRAY_KERNEL void gelu(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x)
{
    float v = x;
    y = tile_cast(0.5f * v * (1.0f + tile_tanh(0.7978845608f * (v + 0.044715f * v * v * v))), _Float16);
}

TILE_ARRAY_KERNEL void add(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) a, TILE_NDARRAY(const _Float16, 2) b)
{
    y = a + b;
}

/* softmax from its pieces */
TILE_ARRAY_KERNEL void row_max(TILE_NDARRAY(float, 2) m, TILE_NDARRAY(const float, 2) x)
{
    m = tile_max(x, .axis = 1, .keepdims = true);
}

TILE_ARRAY_KERNEL void sub_exp(TILE_NDARRAY(float, 2) e, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 2) m)
{
    e = tile_exp(x - m);
}

TILE_ARRAY_KERNEL void row_sum(TILE_NDARRAY(float, 2) s, TILE_NDARRAY(const float, 2) x)
{
    s = tile_sum(x, .axis = 1, .keepdims = true);
}

TILE_ARRAY_KERNEL void divide(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) a, TILE_NDARRAY(const float, 2) b)
{
    y = a / b;
}

/* column sums (a reduction along the other axis) */
TILE_ARRAY_KERNEL void col_sum(TILE_NDARRAY(float, 1) s, TILE_NDARRAY(const float, 2) x)
{
    s = tile_sum(x, .axis = 0);
}

TILE_ARRAY_KERNEL void scale(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) x, float k)
{
    y = x * k;
}

/* a matrix product and what comes before and after it in an MLP layer */
TILE_ARRAY_KERNEL void scale_bf16(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 1) s)
{
    y = tile_cast(x * s, __bf16);
}

TILE_ARRAY_KERNEL void matmul(TILE_NDARRAY(float, 2) c, TILE_NDARRAY(const __bf16, 2) a, TILE_NDARRAY(const __bf16, 2) b)
{
    c = tile_matmul(a, b);
}

TILE_ARRAY_KERNEL void bias_gelu(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const float, 2) h,
                                 TILE_NDARRAY(const float, 1) bias)
{
    float t = h + bias;
    y = tile_cast(0.5f * t * (1.0f + tile_tanh(0.7978845608f * (t + 0.044715f * t * t * t))), __bf16);
}

/* ---- the graphs ------------------------------------------------------------ */

/* y = gelu(layer_norm(x)) + r: three kernels as written, one kernel run. */
TILE_GRAPH void ln_gelu_res(TILE_NDARRAY(_Float16, 2) y, TILE_NDARRAY(const _Float16, 2) x,
                            TILE_NDARRAY(const _Float16, 2) r, TILE_NDARRAY(const _Float16, 1) w,
                            TILE_NDARRAY(const _Float16, 1) b, float eps)
{
    TILE_TEMP(_Float16, 2) h;
    TILE_TEMP(_Float16, 2) g;
    layer_norm(h, x, w, b, eps);
    gelu(g, h);
    add(y, g, r);
}

/* softmax as max, subtract-exp, sum and divide: one pass over each row. */
TILE_GRAPH void softmax(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const float, 2) x)
{
    TILE_TEMP(float, 2) m;
    TILE_TEMP(float, 2) e;
    TILE_TEMP(float, 2) s;
    row_max(m, x);
    sub_exp(e, x, m);
    row_sum(s, e);
    divide(y, e, s);
}

/* Scaled softmax, then column sums of the probabilities: the column sum
 * reduces another axis, so it runs as a second kernel on the stored p. */
TILE_GRAPH void softmax_colsum(TILE_NDARRAY(float, 1) c, TILE_NDARRAY(const float, 2) x, float k)
{
    TILE_TEMP(float, 2) xs;
    TILE_TEMP(float, 2) m;
    TILE_TEMP(float, 2) e;
    TILE_TEMP(float, 2) s;
    TILE_TEMP(float, 2) p;
    scale(xs, x, k);
    row_max(m, xs);
    sub_exp(e, xs, m);
    row_sum(s, e);
    divide(p, e, s);
    col_sum(c, p);
}

/* y = GELU((x * s) @ w + bias): bias and GELU fuse into the product's
 * epilogue (h never reaches memory); the scaling runs as a kernel of its
 * own, xb in the workspace, so that the product keeps its pipelined path
 * (a computed operand would be computed again in each block's K loop). */
TILE_GRAPH void mlp(TILE_NDARRAY(__bf16, 2) y, TILE_NDARRAY(const float, 2) x, TILE_NDARRAY(const float, 1) s,
                    TILE_NDARRAY(const __bf16, 2) w, TILE_NDARRAY(const float, 1) bias)
{
    TILE_TEMP(__bf16, 2) xb;
    TILE_TEMP(float, 2) h;
    scale_bf16(xb, x, s);
    matmul(h, xb, w);
    bias_gelu(y, h, bias);
}

/* softmax(a @ b) along the rows: the reductions do not fuse with the
 * product, so h is stored and the softmax runs as a second kernel. */
TILE_GRAPH void matmul_softmax(TILE_NDARRAY(float, 2) y, TILE_NDARRAY(const __bf16, 2) a, TILE_NDARRAY(const __bf16, 2) b)
{
    TILE_TEMP(float, 2) h;
    TILE_TEMP(float, 2) m;
    TILE_TEMP(float, 2) e;
    TILE_TEMP(float, 2) s;
    matmul(h, a, b);
    row_max(m, h);
    sub_exp(e, h, m);
    row_sum(s, e);
    divide(y, e, s);
}
