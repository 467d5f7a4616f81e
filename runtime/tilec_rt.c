/* tilec_rt.c: the launch runtime (see tilec_rt.h and docs/runtime.md).
 *
 * Written in the common subset of C17 and C++ so that nvcc can compile it
 * as CUDA C++ (no designated initialisers, compound literals, VLAs or
 * implicit void* conversions).  All arithmetic on user-supplied extents is
 * overflow-checked: a descriptor is untrusted input, and validation must
 * return a status rather than invoke undefined behaviour.  The dtype name
 * and size tables are generated from TILEC_DTYPE_LIST (tilec_dtypes.h). */
#include "tilec_rt.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__cplusplus)
#define TILEC_TLS thread_local
#elif defined(_MSC_VER)
#define TILEC_TLS __declspec(thread)
#else
#define TILEC_TLS _Thread_local
#endif

/* ---- statuses, dtypes, the error text ------------------------------------ */

/* The only state: the calling thread's last error detail. */
static TILEC_TLS char tilec_err_[512];

const char *tilec_status_string(tilec_status s)
{
    switch (s) {
    case TILEC_OK: return "TILEC_OK: success";
    case TILEC_ERR_NULL_ARRAY: return "TILEC_ERR_NULL_ARRAY: array descriptor is NULL";
    case TILEC_ERR_NULL_DATA: return "TILEC_ERR_NULL_DATA: data pointer is NULL for a non-empty array";
    case TILEC_ERR_RANK: return "TILEC_ERR_RANK: wrong rank";
    case TILEC_ERR_DTYPE: return "TILEC_ERR_DTYPE: wrong element type";
    case TILEC_ERR_SHAPE: return "TILEC_ERR_SHAPE: invalid shape";
    case TILEC_ERR_STRIDE: return "TILEC_ERR_STRIDE: invalid strides";
    case TILEC_ERR_OVERFLOW: return "TILEC_ERR_OVERFLOW: array extent overflows 64-bit indexing";
    case TILEC_ERR_ALIAS: return "TILEC_ERR_ALIAS: output overlaps another argument";
    case TILEC_ERR_GRID: return "TILEC_ERR_GRID: grid dimensions out of range";
    case TILEC_ERR_CONSTANT: return "TILEC_ERR_CONSTANT: no compiled specialization for a constant parameter value";
    case TILEC_ERR_DEVICE: return "TILEC_ERR_DEVICE: array is on the wrong device";
    case TILEC_ERR_CUDA: return "TILEC_ERR_CUDA: CUDA runtime error";
    case TILEC_ERR_INVALID: return "TILEC_ERR_INVALID: invalid argument";
    case TILEC_ERR_ALIGN: return "TILEC_ERR_ALIGN: data pointer is misaligned";
    case TILEC_ERR_READONLY: return "TILEC_ERR_READONLY: output array is read-only";
    case TILEC_ERR_ASSERT: return "TILEC_ERR_ASSERT: a tile_assert failed";
    case TILEC_ERR_WORKSPACE: return "TILEC_ERR_WORKSPACE: the graph's workspace is missing or too small";
    }
    return "TILEC_ERR_UNKNOWN: unknown status";
}

/* Indexed by tilec_dtype: the invalid entry, then one per row of
 * TILEC_DTYPE_LIST (tilec_dtypes.h), the list tilec_dtype comes from. */
#define TILEC_DTYPE_NAME_(suffix, name, bits) , name
#define TILEC_DTYPE_SIZE_(suffix, name, bits) , (signed char)((bits) / 8)
static const char *const tilec_dtype_names_[TILEC_DTYPE_COUNT] = {
    "invalid" TILEC_DTYPE_LIST(TILEC_DTYPE_NAME_)};
static const signed char tilec_dtype_sizes_[TILEC_DTYPE_COUNT] = {
    0 TILEC_DTYPE_LIST(TILEC_DTYPE_SIZE_)};
#undef TILEC_DTYPE_NAME_
#undef TILEC_DTYPE_SIZE_

const char *tilec_dtype_name(int32_t dtype)
{
    return dtype > 0 && dtype < TILEC_DTYPE_COUNT ? tilec_dtype_names_[dtype] : "invalid";
}

int tilec_dtype_size(int32_t dtype)
{
    return dtype > 0 && dtype < TILEC_DTYPE_COUNT ? tilec_dtype_sizes_[dtype] : 0;
}

const char *tilec_last_error(void)
{
    return tilec_err_;
}

void tilec_clear_error(void)
{
    tilec_err_[0] = '\0';
}

tilec_status tilec_fail(tilec_status s, const char *fmt, ...)
{
    if (!fmt) {
        tilec_err_[0] = '\0';
        return s;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tilec_err_, sizeof tilec_err_, fmt, ap);
    va_end(ap);
    return s;
}

static const char *nm_(const char *name)
{
    return name ? name : "?";
}

/* ---- checked arithmetic -------------------------------------------------- */

/* a * b for a, b >= 0; returns 0 on overflow past INT64_MAX. */
static int mul_ok_(int64_t a, int64_t b, int64_t *r)
{
    if (a != 0 && b > INT64_MAX / a) return 0;
    *r = a * b;
    return 1;
}

static int add_ok_(int64_t a, int64_t b, int64_t *r) /* a, b >= 0 */
{
    if (b > INT64_MAX - a) return 0;
    *r = a + b;
    return 1;
}

/* ---- descriptors ---------------------------------------------------------- */

tilec_array tilec_array_make_strided(void *data, tilec_dtype dtype, int ndim,
                                     const int64_t *shape, const int64_t *strides)
{
    tilec_array a;
    int i;
    memset(&a, 0, sizeof a);
    a.data = data;
    a.dtype = (int32_t)dtype;
    a.ndim = (int32_t)ndim;
    if (ndim < 0 || ndim > TILEC_MAX_RANK) return a;
    for (i = 0; i < ndim; i++) {
        a.shape[i] = shape ? shape[i] : 0;
        a.strides[i] = strides ? strides[i] : 0;
    }
    return a;
}

tilec_array tilec_array_make(void *data, tilec_dtype dtype, int ndim, const int64_t *shape)
{
    tilec_array a = tilec_array_make_strided(data, dtype, ndim, shape, NULL);
    int64_t s = 1;
    int i, overflowed = 0;
    if (ndim < 0 || ndim > TILEC_MAX_RANK) return a;
    for (i = ndim - 1; i >= 0; i--) {
        int64_t ext = a.shape[i] > 1 ? a.shape[i] : 1;
        /* after an overflow every outer stride is INT64_MAX, which
         * tilec_check_array reports as TILEC_ERR_OVERFLOW */
        a.strides[i] = overflowed ? INT64_MAX : s;
        if (!overflowed && !mul_ok_(s, ext, &s)) overflowed = 1;
    }
    return a;
}

tilec_array tilec_array_0d(void *data, tilec_dtype dtype)
{
    return tilec_array_make(data, dtype, 0, NULL);
}

tilec_array tilec_array_1d(void *data, tilec_dtype dtype, int64_t n)
{
    return tilec_array_make(data, dtype, 1, &n);
}

tilec_array tilec_array_2d(void *data, tilec_dtype dtype, int64_t rows, int64_t cols)
{
    int64_t shape[2];
    shape[0] = rows;
    shape[1] = cols;
    return tilec_array_make(data, dtype, 2, shape);
}

tilec_array tilec_array_3d(void *data, tilec_dtype dtype, int64_t d0, int64_t d1, int64_t d2)
{
    int64_t shape[3];
    shape[0] = d0;
    shape[1] = d1;
    shape[2] = d2;
    return tilec_array_make(data, dtype, 3, shape);
}

int64_t tilec_array_numel(const tilec_array *a)
{
    int64_t n = 1;
    int i;
    if (!a || a->ndim < 0 || a->ndim > TILEC_MAX_RANK) return -1;
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] < 0) return -1;
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] == 0) return 0;
    for (i = 0; i < a->ndim; i++)
        if (!mul_ok_(n, a->shape[i], &n)) return -1;
    return n;
}

/* ---- validation ----------------------------------------------------------- */

/* The shape/stride/overflow part of tilec_check_array, shared with the
 * alias checks.  On success *empty says whether the array has no elements
 * and, if not, *end is one past its last byte as an offset from data. */
static tilec_status check_layout_(const tilec_array *a, const char *name, int *empty, int64_t *end)
{
    int64_t n = 1, off = 0, term;
    int i, esize = tilec_dtype_size(a->dtype);
    *empty = 0;
    *end = 0;
    if (a->ndim < 0 || a->ndim > TILEC_MAX_RANK)
        return tilec_fail(TILEC_ERR_RANK, "argument '%s': rank %d is outside 0..%d", nm_(name),
                          (int)a->ndim, TILEC_MAX_RANK);
    if (esize == 0)
        return tilec_fail(TILEC_ERR_DTYPE, "argument '%s': unknown dtype %d", nm_(name),
                          (int)a->dtype);
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] < 0)
            return tilec_fail(TILEC_ERR_SHAPE, "argument '%s': shape[%d] = %lld is negative",
                              nm_(name), i, (long long)a->shape[i]);
    for (i = 0; i < a->ndim; i++)
        if (a->strides[i] < 0)
            return tilec_fail(TILEC_ERR_STRIDE,
                              "argument '%s': strides[%d] = %lld is negative (negative strides "
                              "are not supported; pass the reversed view's base instead)",
                              nm_(name), i, (long long)a->strides[i]);
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] == 0) {
            *empty = 1;
            return TILEC_OK;
        }
    for (i = 0; i < a->ndim; i++) {
        if (!mul_ok_(n, a->shape[i], &n))
            return tilec_fail(TILEC_ERR_OVERFLOW,
                              "argument '%s': element count overflows int64 at shape[%d] = %lld",
                              nm_(name), i, (long long)a->shape[i]);
        if (!mul_ok_(a->shape[i] - 1, a->strides[i], &term) || !add_ok_(off, term, &off))
            return tilec_fail(TILEC_ERR_OVERFLOW,
                              "argument '%s': highest element offset overflows int64 at "
                              "shape[%d] = %lld, strides[%d] = %lld",
                              nm_(name), i, (long long)a->shape[i], i, (long long)a->strides[i]);
    }
    if (!add_ok_(off, 1, &off) || !mul_ok_(off, esize, end))
        return tilec_fail(TILEC_ERR_OVERFLOW,
                          "argument '%s': byte extent of %lld elements of %s overflows int64",
                          nm_(name), (long long)off, tilec_dtype_name(a->dtype));
    if ((uintptr_t)a->data > UINTPTR_MAX - (uint64_t)*end)
        return tilec_fail(TILEC_ERR_OVERFLOW,
                          "argument '%s': data + %lld bytes wraps around the address space",
                          nm_(name), (long long)*end);
    return TILEC_OK;
}

tilec_status tilec_check_array(const tilec_array *a, const char *name, int expect_ndim,
                               tilec_dtype expect_dtype)
{
    tilec_status s;
    int empty, esize;
    int64_t end;
    if (!a) return tilec_fail(TILEC_ERR_NULL_ARRAY, "argument '%s': NULL array descriptor", nm_(name));
    if (expect_ndim < 0 || expect_ndim > TILEC_MAX_RANK || tilec_dtype_size(expect_dtype) == 0)
        return tilec_fail(TILEC_ERR_INVALID,
                          "argument '%s': invalid expectation (rank %d, dtype %d)", nm_(name),
                          expect_ndim, (int)expect_dtype);
    if (a->ndim != expect_ndim)
        return tilec_fail(TILEC_ERR_RANK, "argument '%s': rank %d, kernel expects %d", nm_(name),
                          (int)a->ndim, expect_ndim);
    if (a->dtype != (int32_t)expect_dtype)
        return tilec_fail(TILEC_ERR_DTYPE, "argument '%s': dtype %s, kernel expects %s", nm_(name),
                          tilec_dtype_name(a->dtype), tilec_dtype_name(expect_dtype));
    s = check_layout_(a, name, &empty, &end);
    if (s != TILEC_OK || empty) return s;
    if (!a->data)
        return tilec_fail(TILEC_ERR_NULL_DATA, "argument '%s': data is NULL for a non-empty array",
                          nm_(name));
    esize = tilec_dtype_size(a->dtype);
    if ((uintptr_t)a->data % (uintptr_t)esize != 0)
        return tilec_fail(TILEC_ERR_ALIGN,
                          "argument '%s': data %p is not aligned to its %d-byte %s elements",
                          nm_(name), a->data, esize, tilec_dtype_name(a->dtype));
    return TILEC_OK;
}

tilec_status tilec_check_output(const tilec_array *out, const char *name)
{
    int idx[TILEC_MAX_RANK], n = 0, i, j, empty;
    int64_t end, span;
    tilec_status s;
    if (!out) return tilec_fail(TILEC_ERR_NULL_ARRAY, "argument '%s': NULL array descriptor", nm_(name));
    if (out->flags & TILEC_ARRAY_READONLY)
        return tilec_fail(TILEC_ERR_READONLY,
                          "output '%s' is read-only (TILEC_ARRAY_READONLY: e.g. a read-only NumPy "
                          "array or a DLPack tensor flagged READ_ONLY); pass a writable array",
                          nm_(name));
    s = check_layout_(out, name, &empty, &end);
    if (s != TILEC_OK || empty) return s;
    /* the dimensions that matter, sorted by stride (insertion sort, n <= 8) */
    for (i = 0; i < out->ndim; i++) {
        if (out->shape[i] <= 1) continue;
        for (j = n; j > 0 && out->strides[idx[j - 1]] > out->strides[i]; j--) idx[j] = idx[j - 1];
        idx[j] = i;
        n++;
    }
    span = 1; /* elements covered by the dimensions so far, as a stride bound */
    for (i = 0; i < n; i++) {
        int d = idx[i];
        if (out->strides[d] < span)
            return tilec_fail(TILEC_ERR_ALIAS,
                              "output '%s' overlaps itself: dimension %d (extent %lld, stride "
                              "%lld) revisits elements; an output needs a distinct element per "
                              "index (no broadcast strides)",
                              nm_(name), d, (long long)out->shape[d], (long long)out->strides[d]);
        /* saturating: past INT64_MAX no later stride can be large enough,
         * and check_layout_ already bounds every real offset */
        if (!mul_ok_(out->strides[d], out->shape[d], &span)) span = INT64_MAX;
    }
    return TILEC_OK;
}

static int same_view_(const tilec_array *a, const tilec_array *b)
{
    int i;
    if (a->data != b->data || a->ndim != b->ndim ||
        tilec_dtype_size(a->dtype) != tilec_dtype_size(b->dtype))
        return 0;
    for (i = 0; i < a->ndim; i++)
        if (a->shape[i] != b->shape[i] || a->strides[i] != b->strides[i]) return 0;
    return 1;
}

static tilec_status overlap_(const tilec_array *a, const char *an, const tilec_array *b,
                             const char *bn, int allow_same_view)
{
    int ea, eb;
    int64_t enda, endb;
    uintptr_t la, lb;
    tilec_status s;
    if (!a) return tilec_fail(TILEC_ERR_NULL_ARRAY, "argument '%s': NULL array descriptor", nm_(an));
    if (!b) return tilec_fail(TILEC_ERR_NULL_ARRAY, "argument '%s': NULL array descriptor", nm_(bn));
    s = check_layout_(a, an, &ea, &enda);
    if (s != TILEC_OK) return s;
    s = check_layout_(b, bn, &eb, &endb);
    if (s != TILEC_OK) return s;
    if (ea || eb) return TILEC_OK; /* no element, no byte touched */
    if (allow_same_view && same_view_(a, b)) return TILEC_OK;
    la = (uintptr_t)a->data;
    lb = (uintptr_t)b->data;
    /* [la, la+enda) and [lb, lb+endb) intersect; the ends cannot wrap
     * (check_layout_) */
    if (la < lb + (uintptr_t)endb && lb < la + (uintptr_t)enda)
        return tilec_fail(TILEC_ERR_ALIAS,
                          allow_same_view
                              ? "output '%s' overlaps argument '%s' in memory; an output may "
                                "share memory with an input only as the identical view (same "
                                "data pointer, shape and strides)"
                              : "output '%s' overlaps output '%s' in memory",
                          nm_(an), nm_(bn));
    return TILEC_OK;
}

tilec_status tilec_check_alias(const tilec_array *out, const char *out_name,
                               const tilec_array *other, const char *other_name)
{
    return overlap_(out, out_name, other, other_name, 1);
}

tilec_status tilec_check_disjoint(const tilec_array *a, const char *a_name,
                                  const tilec_array *b, const char *b_name)
{
    return overlap_(a, a_name, b, b_name, 0);
}

/* ---- broadcasting (array kernels) ------------------------------------------ */

/* "(3, 1, 4)" into buf. */
static const char *shape_text_(const int64_t *shape, int rank, char *buf, size_t len)
{
    size_t k = 0;
    int i;
    k += (size_t)snprintf(buf, len, "(");
    for (i = 0; i < rank && k < len; i++)
        k += (size_t)snprintf(buf + k, len - k, "%s%lld", i ? ", " : "", (long long)shape[i]);
    if (k < len) snprintf(buf + k, len - k, rank == 1 ? ",)" : ")");
    return buf;
}

tilec_status tilec_broadcast_shape(int n, const tilec_array *const *arrays, const char *const *names, int rank,
                                   int64_t *shape)
{
    int i, d, first[TILEC_MAX_RANK];
    char b1[160], b2[160];
    if (rank < 0 || rank > TILEC_MAX_RANK)
        return tilec_fail(TILEC_ERR_INVALID, "broadcast to rank %d", rank);
    for (d = 0; d < rank; d++) {
        shape[d] = 1;
        first[d] = -1;
    }
    for (i = 0; i < n; i++) {
        const tilec_array *a = arrays[i];
        int off = rank - a->ndim;
        if (off < 0)
            return tilec_fail(TILEC_ERR_RANK, "argument '%s': rank %d is more than the %d it broadcasts to",
                              nm_(names[i]), (int)a->ndim, rank);
        for (d = 0; d < a->ndim; d++) {
            int64_t e = a->shape[d];
            if (e == 1) continue;
            if (shape[off + d] == 1) {
                shape[off + d] = e;
                first[off + d] = i;
            } else if (shape[off + d] != e) {
                const tilec_array *f = arrays[first[off + d]];
                return tilec_fail(TILEC_ERR_SHAPE,
                                  "arguments '%s' %s and '%s' %s do not broadcast together (axis %d of the "
                                  "broadcast: %lld against %lld)",
                                  nm_(names[first[off + d]]), shape_text_(f->shape, f->ndim, b1, sizeof b1),
                                  nm_(names[i]), shape_text_(a->shape, a->ndim, b2, sizeof b2), off + d,
                                  (long long)shape[off + d], (long long)e);
            }
        }
    }
    return TILEC_OK;
}

tilec_status tilec_product_shape(const int64_t *a, const int64_t *b, int64_t *out)
{
    if (a[1] != b[0])
        return tilec_fail(TILEC_ERR_SHAPE,
                          "the matrix product's operands are (%lld, %lld) and (%lld, %lld): their inner extents differ",
                          (long long)a[0], (long long)a[1], (long long)b[0], (long long)b[1]);
    out[0] = a[0];
    out[1] = b[1];
    return TILEC_OK;
}

tilec_status tilec_check_product(const tilec_array *out, const char *name, const int64_t *shape)
{
    char b1[160], b2[160];
    if (out->ndim == 2 && out->shape[0] == shape[0] && out->shape[1] == shape[1]) return TILEC_OK;
    return tilec_fail(TILEC_ERR_SHAPE, "output '%s' %s must have the matrix product's shape %s", nm_(name),
                      shape_text_(out->shape, out->ndim, b1, sizeof b1), shape_text_(shape, 2, b2, sizeof b2));
}

tilec_status tilec_broadcast_to(const tilec_array *a, const char *name, const int64_t *shape, int rank,
                                const char *space_name, tilec_array *out)
{
    int d, off = rank - a->ndim;
    char b1[160], b2[160];
    if (off < 0 || rank > TILEC_MAX_RANK)
        return tilec_fail(TILEC_ERR_RANK, "argument '%s': rank %d does not broadcast to %s, of rank %d", nm_(name),
                          (int)a->ndim, nm_(space_name), rank);
    *out = *a;
    for (d = 0; d < a->ndim; d++) {
        int64_t e = a->shape[d];
        if (e == shape[off + d]) continue;
        if (e != 1)
            return tilec_fail(TILEC_ERR_SHAPE,
                              "argument '%s' %s does not broadcast to %s %s (axis %d: %lld against %lld)",
                              nm_(name), shape_text_(a->shape, a->ndim, b1, sizeof b1), nm_(space_name),
                              shape_text_(shape, rank, b2, sizeof b2), d, (long long)e, (long long)shape[off + d]);
        out->shape[d] = shape[off + d];
        out->strides[d] = 0;
    }
    return TILEC_OK;
}

tilec_status tilec_check_reduced(const tilec_array *out, const char *name, const int64_t *shape, int rank, int axis,
                                 int keep)
{
    int64_t want[TILEC_MAX_RANK];
    int d, k = 0;
    char b1[160], b2[160], b3[160];
    for (d = 0; d < rank && d < TILEC_MAX_RANK; d++)
        if (d != axis || keep) want[k++] = d == axis && keep == 1 ? 1 : shape[d];
    if (out->ndim == k) {
        for (d = 0; d < k && out->shape[d] == want[d]; d++) continue;
        if (d == k) return TILEC_OK;
    }
    if (keep == 2)
        return tilec_fail(TILEC_ERR_SHAPE, "output '%s' %s must have the operands' shape %s", nm_(name),
                          shape_text_(out->shape, out->ndim, b1, sizeof b1), shape_text_(shape, rank, b2, sizeof b2));
    return tilec_fail(TILEC_ERR_SHAPE,
                      "output '%s' %s: the reduction of %s along axis %d gives %s", nm_(name),
                      shape_text_(out->shape, out->ndim, b1, sizeof b1), shape_text_(shape, rank, b2, sizeof b2),
                      axis, shape_text_(want, k, b3, sizeof b3));
}

tilec_status tilec_check_same_shape(const tilec_array *a, const char *a_name, const tilec_array *b,
                                    const char *b_name)
{
    int d;
    char b1[160], b2[160];
    if (a->ndim == b->ndim) {
        for (d = 0; d < a->ndim && a->shape[d] == b->shape[d]; d++) continue;
        if (d == a->ndim) return TILEC_OK;
    }
    return tilec_fail(TILEC_ERR_SHAPE, "output '%s' %s and output '%s' %s must have the same shape", nm_(a_name),
                      shape_text_(a->shape, a->ndim, b1, sizeof b1), nm_(b_name),
                      shape_text_(b->shape, b->ndim, b2, sizeof b2));
}

/* ---- grids ---------------------------------------------------------------- */

tilec_status tilec_check_grid(tilec_grid g)
{
    if (g.x < 1 || g.y < 1 || g.z < 1)
        return tilec_fail(TILEC_ERR_GRID, "grid (%u, %u, %u) has an empty dimension", g.x, g.y, g.z);
    if (g.x > 2147483647u)
        return tilec_fail(TILEC_ERR_GRID, "grid.x = %u exceeds CUDA's limit 2147483647", g.x);
    if (g.y > 65535u || g.z > 65535u)
        return tilec_fail(TILEC_ERR_GRID, "grid (%u, %u, %u): y and z may be at most 65535", g.x,
                          g.y, g.z);
    return TILEC_OK;
}

int64_t tilec_cdiv(int64_t n, int64_t d)
{
    if (d <= 0) return 0;
    /* no n + d - 1: it could overflow */
    return n / d + (n % d > 0 ? 1 : 0);
}

static uint32_t blocks_(int64_t n, int64_t tile)
{
    int64_t c = tilec_cdiv(n, tile);
    if (c <= 0) return 0;
    return c > (int64_t)UINT32_MAX ? UINT32_MAX : (uint32_t)c;
}

tilec_grid tilec_grid_1d(int64_t n, int64_t tile)
{
    tilec_grid g;
    g.x = blocks_(n, tile);
    g.y = 1;
    g.z = 1;
    return g;
}

tilec_grid tilec_grid_2d(int64_t rows, int64_t cols, int64_t tile_r, int64_t tile_c)
{
    tilec_grid g;
    g.x = blocks_(rows, tile_r);
    g.y = blocks_(cols, tile_c);
    g.z = 1;
    return g;
}

tilec_grid tilec_grid_3d(int64_t d0, int64_t d1, int64_t d2, int64_t t0, int64_t t1, int64_t t2)
{
    tilec_grid g;
    g.x = blocks_(d0, t0);
    g.y = blocks_(d1, t1);
    g.z = blocks_(d2, t2);
    return g;
}

uint64_t tilec_grid_size(tilec_grid g)
{
    uint64_t xy = (uint64_t)g.x * g.y; /* < 2^64 */
    if (g.z != 0 && xy > UINT64_MAX / g.z) return UINT64_MAX;
    return xy * g.z;
}

/* ---- fast path ------------------------------------------------------------ */

int tilec_array_fast_path(const tilec_array *a, int ndim, const int64_t *tile_shape, int vec_elems)
{
    int i, esize;
    if (!a || vec_elems < 1 || a->ndim != ndim || ndim < 0 || ndim > TILEC_MAX_RANK) return 0;
    if (ndim > 0 && !tile_shape) return 0;
    esize = tilec_dtype_size(a->dtype);
    if (esize == 0) return 0;
    for (i = 0; i < ndim; i++) {
        if (tile_shape[i] <= 0 || a->shape[i] < 0 || a->shape[i] % tile_shape[i] != 0) return 0;
        if (a->strides[i] < 0) return 0;
        if (i < ndim - 1 && a->strides[i] % vec_elems != 0) return 0;
    }
    if (ndim > 0 && (a->strides[ndim - 1] != 1 || a->shape[ndim - 1] % vec_elems != 0)) return 0;
    return (uintptr_t)a->data % ((uintptr_t)vec_elems * (uintptr_t)esize) == 0;
}

/* ---- DLPack ---------------------------------------------------------------- */

static int32_t dtype_from_dl_(DLDataType t)
{
    switch ((int)t.code) {
    case kDLInt:
        return t.bits == 8 ? TILEC_INT8 : t.bits == 16 ? TILEC_INT16
             : t.bits == 32 ? TILEC_INT32 : t.bits == 64 ? TILEC_INT64 : TILEC_DTYPE_INVALID;
    case kDLUInt:
        return t.bits == 8 ? TILEC_UINT8 : t.bits == 16 ? TILEC_UINT16
             : t.bits == 32 ? TILEC_UINT32 : t.bits == 64 ? TILEC_UINT64 : TILEC_DTYPE_INVALID;
    case kDLFloat:
        return t.bits == 16 ? TILEC_FLOAT16 : t.bits == 32 ? TILEC_FLOAT32
             : t.bits == 64 ? TILEC_FLOAT64 : TILEC_DTYPE_INVALID;
    case kDLBfloat: return t.bits == 16 ? TILEC_BFLOAT16 : TILEC_DTYPE_INVALID;
    case TILEC_KDL_BOOL: return t.bits == 8 ? TILEC_BOOL : TILEC_DTYPE_INVALID;
    case TILEC_KDL_FLOAT8_E4M3FN: return t.bits == 8 ? TILEC_FLOAT8_E4M3FN : TILEC_DTYPE_INVALID;
    case TILEC_KDL_FLOAT8_E5M2: return t.bits == 8 ? TILEC_FLOAT8_E5M2 : TILEC_DTYPE_INVALID;
    default: return TILEC_DTYPE_INVALID;
    }
}

tilec_status tilec_array_from_dlpack(const DLTensor *t, tilec_array *out)
{
    int i;
    int32_t dt;
    if (!out) return tilec_fail(TILEC_ERR_NULL_ARRAY, "DLPack: NULL output descriptor");
    memset(out, 0, sizeof *out);
    if (!t) return tilec_fail(TILEC_ERR_NULL_ARRAY, "DLPack: NULL DLTensor");
    if (t->ndim < 0 || t->ndim > TILEC_MAX_RANK)
        return tilec_fail(TILEC_ERR_RANK, "DLPack: rank %d is outside 0..%d", (int)t->ndim,
                          TILEC_MAX_RANK);
    if (t->dtype.lanes != 1)
        return tilec_fail(TILEC_ERR_DTYPE, "DLPack: %u lanes (vector types are not supported)",
                          (unsigned)t->dtype.lanes);
    dt = dtype_from_dl_(t->dtype);
    if (dt == TILEC_DTYPE_INVALID)
        return tilec_fail(TILEC_ERR_DTYPE, "DLPack: unsupported dtype (code %u, %u bits)",
                          (unsigned)t->dtype.code, (unsigned)t->dtype.bits);
    if (t->ndim > 0 && !t->shape) return tilec_fail(TILEC_ERR_INVALID, "DLPack: NULL shape");
    if (!t->data && t->byte_offset != 0)
        return tilec_fail(TILEC_ERR_NULL_DATA, "DLPack: NULL data with byte_offset %llu",
                          (unsigned long long)t->byte_offset);
    if (t->byte_offset > (uint64_t)INT64_MAX ||
        (uintptr_t)t->data > UINTPTR_MAX - (uintptr_t)t->byte_offset)
        return tilec_fail(TILEC_ERR_OVERFLOW, "DLPack: byte_offset %llu overflows the address space",
                          (unsigned long long)t->byte_offset);
    if (t->strides) {
        *out = tilec_array_make_strided(NULL, (tilec_dtype)dt, t->ndim, t->shape, t->strides);
    } else {
        *out = tilec_array_make(NULL, (tilec_dtype)dt, t->ndim, t->shape);
    }
    /* pointer arithmetic on char*: byte_offset need not be a multiple of
     * the element size (tilec_check_array reports misalignment) */
    out->data = t->data ? (void *)((char *)t->data + t->byte_offset) : NULL;
    for (i = t->ndim; i < TILEC_MAX_RANK; i++) {
        out->shape[i] = 0;
        out->strides[i] = 0;
    }
    return TILEC_OK;
}

tilec_status tilec_array_from_dlpack_on(const DLTensor *t, int device_type, tilec_array *out)
{
    tilec_status s = tilec_array_from_dlpack(t, out);
    if (s != TILEC_OK) return s;
    if ((int)t->device.device_type != device_type) {
        memset(out, 0, sizeof *out);
        return tilec_fail(TILEC_ERR_DEVICE, "DLPack: tensor on device type %d (id %d), expected %d",
                          (int)t->device.device_type, (int)t->device.device_id, device_type);
    }
    return TILEC_OK;
}

tilec_status tilec_dtype_to_dlpack(int32_t dtype, DLDataType *out)
{
    uint8_t code;
    if (!out) return tilec_fail(TILEC_ERR_INVALID, "DLPack: NULL output dtype");
    switch (dtype) {
    case TILEC_BOOL: code = TILEC_KDL_BOOL; break;
    case TILEC_INT8: case TILEC_INT16: case TILEC_INT32: case TILEC_INT64: code = kDLInt; break;
    case TILEC_UINT8: case TILEC_UINT16: case TILEC_UINT32: case TILEC_UINT64: code = kDLUInt; break;
    case TILEC_FLOAT16: case TILEC_FLOAT32: case TILEC_FLOAT64: code = kDLFloat; break;
    case TILEC_BFLOAT16: code = kDLBfloat; break;
    case TILEC_FLOAT8_E4M3FN: code = TILEC_KDL_FLOAT8_E4M3FN; break;
    case TILEC_FLOAT8_E5M2: code = TILEC_KDL_FLOAT8_E5M2; break;
    default:
        return tilec_fail(TILEC_ERR_DTYPE, "DLPack: dtype %s has no DLPack type code",
                          tilec_dtype_name(dtype));
    }
    out->code = code;
    out->bits = (uint8_t)(8 * tilec_dtype_size(dtype));
    out->lanes = 1;
    return TILEC_OK;
}

tilec_status tilec_array_from_dlpack_versioned(const DLManagedTensorVersioned *m, tilec_array *out)
{
    tilec_status s;
    if (!out) return tilec_fail(TILEC_ERR_NULL_ARRAY, "DLPack: NULL output descriptor");
    memset(out, 0, sizeof *out);
    if (!m) return tilec_fail(TILEC_ERR_NULL_ARRAY, "DLPack: NULL DLManagedTensorVersioned");
    if (m->version.major != TILEC_DLPACK_MAJOR)
        return tilec_fail(TILEC_ERR_INVALID,
                          "DLPack: versioned tensor of DLPack %u.%u; this runtime reads %d.x only",
                          (unsigned)m->version.major, (unsigned)m->version.minor, TILEC_DLPACK_MAJOR);
    s = tilec_array_from_dlpack(&m->dl_tensor, out);
    if (s != TILEC_OK) return s;
    if (m->flags & DLPACK_FLAG_BITMASK_READ_ONLY) out->flags |= TILEC_ARRAY_READONLY;
    if (m->flags & DLPACK_FLAG_BITMASK_IS_COPIED) out->flags |= TILEC_ARRAY_COPIED;
    return TILEC_OK;
}

tilec_status tilec_array_from_dlpack_versioned_on(const DLManagedTensorVersioned *m, int device_type,
                                                  tilec_array *out)
{
    tilec_status s = tilec_array_from_dlpack_versioned(m, out);
    if (s != TILEC_OK) return s;
    if ((int)m->dl_tensor.device.device_type != device_type) {
        memset(out, 0, sizeof *out);
        return tilec_fail(TILEC_ERR_DEVICE, "DLPack: tensor on device type %d (id %d), expected %d",
                          (int)m->dl_tensor.device.device_type, (int)m->dl_tensor.device.device_id,
                          device_type);
    }
    return TILEC_OK;
}

/* ---- the device-check switch ----------------------------------------------- */

/* -1: not decided yet (read TILEC_NO_DEVICE_CHECK at the first query);
 * 0: off; 1: on.  Atomic where the compiler offers it (GCC, Clang and
 * nvcc's host compilers): concurrent first launches may both read the
 * environment, which gives the same answer. */
static int tilec_devcheck_ = -1;

#if defined(__GNUC__) || defined(__clang__)
#define TILEC_LOAD_(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define TILEC_STORE_(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
#else
#define TILEC_LOAD_(p) (*(volatile int *)(p))
#define TILEC_STORE_(p, v) (*(volatile int *)(p) = (v))
#endif

void tilec_set_device_check(int on)
{
    TILEC_STORE_(&tilec_devcheck_, on ? 1 : 0);
}

int tilec_device_check_enabled(void)
{
    int v = TILEC_LOAD_(&tilec_devcheck_);
    if (v < 0) {
        const char *e = getenv("TILEC_NO_DEVICE_CHECK");
        int want = (e && e[0] && strcmp(e, "0") != 0) ? 0 : 1;
        int expected = -1;
        /* a tilec_set_device_check() that raced with us wins */
#if defined(__GNUC__) || defined(__clang__)
        __atomic_compare_exchange_n(&tilec_devcheck_, &expected, want, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED);
#else
        if (tilec_devcheck_ == expected) tilec_devcheck_ = want;
#endif
        v = TILEC_LOAD_(&tilec_devcheck_);
    }
    return v;
}
