/* kernel.c: lowers one typed kernel specialization to C-family code, for
 * both targets.
 *
 * Model.  Every tile value that is named (a variable, a loaded tile, the
 * result of an inlined tile function, a tile about to be stored) is
 * materialised in a per-thread register array; everything else (operators,
 * casts, math, factories) is evaluated element by element inside the loop
 * that fills the next materialised value, so a kernel's intermediates never
 * touch memory (intra-kernel fusion).
 *
 * Thread-value layout (CUDA).  A tile of n elements over T threads with
 * vector runs of V: thread t holds E = n/T elements; its element e is the
 * row-major element i = (e/V)*T*V + t*V + e%V.  Consecutive threads hold
 * consecutive runs of V elements, so a run of a contiguous row is one 16-byte
 * access and a warp's accesses are coalesced.  This is the CuTe layout
 * ((V,T),(E/V)) : ((1,V),(T*V)) from (value, thread) to the tile's row-major
 * index (see docs/design.md).  Tiles smaller than T elements are replicated:
 * thread t holds element t % n.  All tiles of one shape share one layout, so
 * same-shape operands combine register by register; a broadcast operand of a
 * different shape is read through a shared-memory mirror written when it was
 * materialised.  Register arrays are indexed only by the unrolled loop
 * counter, which the compiler resolves to constants.
 *
 * Host target: one "thread" holds the whole tile (E = n, i = e), and a
 * broadcast operand is read from its array directly. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/diag.h"
#include "sema/layout.h"
#include "tilec_fp.h"

typedef struct Emitter {
    FILE *o;
    int ind;
    Arena *ar;
    bool cuda;
    Program *p;
    Func *k;
    const CodegenOptions *co;
    int T, Vk;
    /* indexed by expression id */
    const char **tmp;   /* materialised name of a load / call / store value */
    Dtype *tmp_dt;
    Shape *tmp_shape;
    bool *tmp_smem;
    /* indexed by symbol id */
    Symbol **syms;
    bool *sym_smem;
    int nlabels;
    int cont_label[64];
    int nloops;
    bool ok;
    int smem_bytes;
    int64_t red_bytes;  /* size of the shared buffer the generic reductions share */
    int64_t mma_bytes;  /* size of the shared buffer tile_mma stages through */
    bool *sym_frag;     /* symbol lives in WMMA accumulator fragments */
    int *mma_target;    /* expr id of a `v = tile_mma(a, b, v)` value -> v's id + 1 */
    Expr **mma_exprs;   /* expr id -> the tile_mma / tile_matmul expression */
    int *sym_kk;        /* the WMMA k of its updates */
    PipeLoop pipes[16]; /* K loops lowered as copy pipelines (pipeline.c) */
    int npipes;
    /* shared-memory mirrors: the transposes that read them (scan), and the
     * swizzle each was given (declaration) */
    Expr *perm_reads[32];
    int nperm_reads;
    struct MirrorRead {
        const Expr *x;     /* the mirrored value (a name or a materialised node) */
        const Shape *ctx;  /* read broadcast into this shape, in its threads' order */
    } bc_reads[64];
    int nbc_reads;
    struct MirrorSwz {
        const char *name;
        int fs, sh[2]; /* s[i] at i ^ ((i >> sh[k]) & 31) << fs; sh 0: unused */
    } mswz[64];
    int nmswz;
    /* bcast_local's answers: the scan and every evaluation ask again */
    struct LocalBcast {
        Shape s, ctx;
        bool local;
    } lbc[16];
    int nlbc;
} Emitter;

typedef struct Ctx {
    const Shape *shape; /* the shape of the value being filled */
    const char *idx;    /* its linear (row-major) element index */
    bool home;          /* idx is this thread's own element of shape: its
                         * register is e_, or eidx where that is set (a
                         * broadcast operand held by the same thread) */
    const char *eidx;
} Ctx;

static void line(Emitter *em, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void line(Emitter *em, const char *fmt, ...)
{
    for (int i = 0; i < em->ind; i++) fputs("    ", em->o);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(em->o, fmt, ap);
    va_end(ap);
    fputc('\n', em->o);
}

#define S(...) arena_printf(em->ar, __VA_ARGS__)

/* ---- types ------------------------------------------------------------- */

const char *emit_storage_type(Dtype d)
{
    return dtype_host_type(d);
}

static bool is_narrow_float(Dtype d)
{
    return d == DT_FLOAT16 || d == DT_BFLOAT16 || d == DT_FLOAT8_E4M3FN || d == DT_FLOAT8_E5M2;
}

static const char *narrow_suffix(Dtype d)
{
    switch (d) {
    case DT_FLOAT16: return "f16";
    case DT_BFLOAT16: return "bf16";
    case DT_FLOAT8_E4M3FN: return "e4m3";
    case DT_FLOAT8_E5M2: return "e5m2";
    default: return NULL;
    }
}

/* storage -> compute */
static char *val_ld(Emitter *em, Dtype d, const char *v)
{
    if (is_narrow_float(d)) return S("tilec_ld_%s(%s)", narrow_suffix(d), v);
    return S("%s", v);
}

/* If v is exactly "tilec_ld_<sfx>(X)", returns X, else NULL.  The whole of v
 * must be that one call: the parenthesis opened after the name has to close
 * at v's last character. */
static char *unwrap_ld(Emitter *em, const char *sfx, const char *v)
{
    char *head = S("tilec_ld_%s(", sfx);
    size_t h = strlen(head), n = strlen(v);
    if (n <= h || strncmp(v, head, h) != 0 || v[n - 1] != ')') return NULL;
    int depth = 1;
    for (size_t i = h; i < n; i++) {
        if (v[i] == '(') depth++;
        else if (v[i] == ')' && --depth == 0) return i == n - 1 ? S("%.*s", (int)(n - 1 - h), v + h) : NULL;
    }
    return NULL;
}

/* compute -> storage (round to nearest even) */
static char *val_st(Emitter *em, Dtype d, const char *v)
{
    if (is_narrow_float(d)) return S("tilec_st_%s(%s)", narrow_suffix(d), v);
    return S("%s", v);
}

/* val_st() of value's evaluation v, for an assignment.  A value of d's own
 * format that is only moved (a variable, a load or gather, a shape
 * operation: its evaluation is the widening of one stored element) is
 * copied as it is stored: converting it to float and back would cost
 * registers and make the thread wait for a load right there (a prefetched
 * tile, `_Float16 next = tile_load(...)`, would no longer be in flight),
 * and C's assignment of a value to its own type keeps its bits.  Casts
 * keep their conversion (a cast to a narrow format makes NaNs canonical). */
static char *val_st_assign(Emitter *em, Dtype d, const Expr *value, const char *v)
{
    bool cast = value->kind == EX_CAST || (value->kind == EX_BUILTIN && value->bi == BI_CAST);
    if (!cast && value->dtype == d && is_narrow_float(d)) {
        char *raw = unwrap_ld(em, narrow_suffix(d), v);
        if (raw) return raw;
    }
    return val_st(em, d, v);
}

/* Rounds a float result of an operation to d's precision. */
static char *val_round(Emitter *em, Dtype d, const char *v)
{
    if (d == DT_FLOAT16) return S("tilec_rnd_f16(%s)", v);
    if (d == DT_BFLOAT16) return S("tilec_rnd_bf16(%s)", v);
    if (d == DT_FLOAT8_E4M3FN || d == DT_FLOAT8_E5M2) return S("tilec_ld_%s(tilec_st_%s(%s))", narrow_suffix(d), narrow_suffix(d), v);
    return S("%s", v);
}

static const char *val_utype(Dtype d)
{
    return dtype_bits(d) > 32 ? "uint64_t" : "uint32_t";
}

/* ---- literals ---------------------------------------------------------- */

static char *float_lit(Emitter *em, double v, bool dbl)
{
    if (v != v) return S(dbl ? "(double)NAN" : "NAN");
    if (v == 1.0 / 0.0) return S(dbl ? "(double)INFINITY" : "INFINITY");
    if (v == -1.0 / 0.0) return S(dbl ? "(-(double)INFINITY)" : "(-INFINITY)");
    char buf[64];
    /* The ".0" keeps a literal like -0.0 a float: "-0" would be integer 0. */
    snprintf(buf, sizeof buf, dbl ? "%.17g" : "%.9g", dbl ? v : (double)(float)v);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    if (dbl) return S("%s", buf);
    if (!strpbrk(buf, ".eEn")) strcat(buf, ".0");
    return S("%sf", buf);
}

static double cval_double(const ConstValue *c)
{
    if (c->is_float) return c->f;
    if (c->is_unsigned) return (double)c->u;
    return (double)c->i;
}

/* A constant as a compute value of dtype d, rounded at compile time. */
static char *val_lit(Emitter *em, const ConstValue *c, Dtype d)
{
    double v = cval_double(c);
    switch (d) {
    case DT_BOOL: return S("%s", v != 0 ? "true" : "false");
    case DT_FLOAT64: return float_lit(em, v, true);
    case DT_FLOAT32: case DT_FLOAT_CONST: return float_lit(em, (float)v, false);
    case DT_FLOAT16: return float_lit(em, tilec_f16_to_double(tilec_f16_from_double(v, TILEC_RN)), false);
    case DT_BFLOAT16: return float_lit(em, tilec_bf16_to_double(tilec_bf16_from_double(v, TILEC_RN)), false);
    case DT_TFLOAT32: return float_lit(em, tilec_tf32_round((float)v), false);
    case DT_FLOAT8_E4M3FN: return float_lit(em, tilec_e4m3_to_double(tilec_e4m3_from_double(v, TILEC_RN, 1)), false);
    case DT_FLOAT8_E5M2: /* finite constants saturate; e5m2 has infinities of its own */
        return float_lit(em, tilec_e5m2_to_double(tilec_e5m2_from_double(v, TILEC_RN, v - v == 0)), false);
    case DT_INT_CONST: d = DT_INT64; /* fallthrough */
    default:
        if (c->is_float) return S("((%s)%.17g)", dtype_host_type(d), v);
        if (c->is_unsigned || (d >= DT_UINT8 && d <= DT_UINT64))
            return S("((%s)UINT64_C(%" PRIu64 "))", dtype_host_type(d), c->is_unsigned ? c->u : (uint64_t)c->i);
        if (c->i == INT64_MIN) return S("((%s)INT64_MIN)", dtype_host_type(d));
        return S("((%s)INT64_C(%" PRId64 "))", dtype_host_type(d), c->i);
    }
}

/* ---- conversions between compute values -------------------------------- */

static int tilec_mode(int64_t tile_mode)
{
    switch (tile_mode) {
    case 2: case 7: return TILEC_RZ;
    case 3: return TILEC_RM;
    case 4: return TILEC_RP;
    default: return TILEC_RN;
    }
}

/* Implicit conversion (promotion) of compute value v from `from` to `to`. */
static char *val_conv(Emitter *em, const char *v, Dtype from, Dtype to)
{
    if (from == to) return S("%s", v);
    if (to == DT_BOOL) return S("((%s) != 0)", v);
    if (dtype_is_int(to)) return S("((%s)(%s))", dtype_host_type(to), v);
    /* to a float type */
    if (dtype_is_float(from) || from == DT_FLOAT_CONST) {
        if (to == DT_FLOAT64) return S("((double)(%s))", v);
        return val_round(em, to, v); /* float -> narrower float only via explicit casts */
    }
    if (to == DT_FLOAT64) return S("((double)(%s))", v);
    if (to == DT_BFLOAT16) return S("tilec_ld_bf16(tilec_bf16_from_double((double)(%s), TILEC_RN))", v);
    return val_round(em, to, S("((float)(%s))", v));
}

/* Explicit cast with an optional rounding mode (0 = default). */
static char *val_cast(Emitter *em, const char *v, Dtype from, Dtype to, int64_t mode, bool sat)
{
    if (from == DT_INT_CONST) from = DT_INT64;
    if (from == DT_FLOAT_CONST) from = DT_FLOAT64;
    if (from == to && mode == 0) return S("%s", v);
    int m = tilec_mode(mode);
    if (to == DT_BOOL) return S("((%s) != 0)", v);
    bool ffrom = dtype_is_float(from);
    if (dtype_is_int(to)) {
        if (!ffrom) return S("((%s)(%s))", dtype_host_type(to), v);
        int mm = mode == 0 ? TILEC_RZ : m;
        if (dtype_is_signed(to))
            return S("((%s)tilec_cvt_float_to_int((double)(%s), %d, %d, %d))", dtype_host_type(to), v, mm,
                     dtype_bits(to), from == DT_FLOAT64 ? 64 : 32);
        return S("((%s)tilec_cvt_float_to_uint((double)(%s), %d, %d, %d))", dtype_host_type(to), v, mm,
                 dtype_bits(to), from == DT_FLOAT64 ? 64 : 32);
    }
    /* to a float type */
    if (mode == 7) { /* RZI: round to an integral value toward zero, then convert */
        v = S("%s(%s)", from == DT_FLOAT64 ? "trunc" : "truncf", v);
        mode = 0;
        m = TILEC_RN;
    }
    const char *sig = dtype_is_signed(from) || from == DT_BOOL ? "i64" : "u64";
    const char *icast = dtype_is_signed(from) || from == DT_BOOL ? "int64_t" : "uint64_t";
    switch (to) {
    case DT_FLOAT64:
        if (ffrom) return S("((double)(%s))", v);
        return S("tilec_f64_from_%s((%s)(%s), %d)", sig, icast, v, m);
    case DT_FLOAT32:
        if (ffrom) return from == DT_FLOAT64 ? S("tilec_f32_from_double(%s, %d)", v, m) : S("%s", v);
        return S("tilec_f32_from_%s((%s)(%s), %d)", sig, icast, v, m);
    case DT_TFLOAT32:
        if (ffrom && from != DT_FLOAT64 && mode == 0) return S("tilec_st_tf32(%s)", v);
        if (ffrom) return S("tilec_tf32_from_float(%s, %d)",
                            from == DT_FLOAT64 ? S("tilec_f32_from_double(%s, %d)", v, m) : v,
                            mode == 0 ? TILEC_RNA : m);
        return S("tilec_tf32_from_float(tilec_f32_from_%s((%s)(%s), %d), %d)", sig, icast, v, m, mode == 0 ? TILEC_RNA : m);
    case DT_FLOAT16:
    case DT_BFLOAT16: {
        const char *sx = narrow_suffix(to);
        if (ffrom && from != DT_FLOAT64 && mode == 0) return val_round(em, to, v);
        if (ffrom) return S("tilec_ld_%s(tilec_%s_from_double((double)(%s), %d))", sx, sx, v, m);
        return S("tilec_ld_%s(tilec_%s_from_%s((%s)(%s), %d))", sx, sx, sig, icast, v, m);
    }
    case DT_FLOAT8_E4M3FN:
    case DT_FLOAT8_E5M2: {
        const char *sx = narrow_suffix(to);
        if (ffrom) return S("tilec_ld_%s(tilec_%s_from_double((double)(%s), %d, %d))", sx, sx, v, m, sat);
        /* Every uint64 above INT64_MAX overflows float8 exactly as INT64_MAX
         * does (in every mode), so clamping keeps one integer path. */
        if (from == DT_UINT64)
            v = S("((uint64_t)(%s) > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(%s))", v, v);
        return S("tilec_ld_%s(tilec_%s_from_i64((int64_t)(%s), %d, %d))", sx, sx, v, m, sat);
    }
    default:
        break;
    }
    em->ok = false;
    return S("0");
}

/* ---- element indices ---------------------------------------------------- */

static int tv_log2(int64_t v)
{
    int k = 0;
    while ((INT64_C(1) << k) < v) k++;
    return k;
}

/* The linear index in shape `to` of the element that broadcasting maps to
 * element idx of shape `from` (right-aligned; dims of size 1 repeat). */
static char *tv_bcast_index(Emitter *em, const char *idx, const Shape *from, const Shape *to)
{
    if (shape_equal(from, to)) return S("%s", idx);
    char *r = NULL;
    int64_t sto = 1;
    for (int d = to->rank - 1; d >= 0; d--) {
        int df = d + (from->rank - to->rank);
        int64_t sfrom = 1;
        for (int q = df + 1; q < from->rank; q++) sfrom *= from->dim[q];
        if (to->dim[d] != 1) {
            char *term = S("((((%s) >> %d) & %" PRId64 ") << %d)", idx, tv_log2(sfrom), from->dim[df] - 1, tv_log2(sto));
            r = r ? S("%s + %s", r, term) : term;
        }
        sto *= to->dim[d];
    }
    return r ? S("(%s)", r) : S("0");
}

/* Coordinate k of row-major index idx in shape s. */
static char *tv_coord(Emitter *em, const char *idx, const Shape *s, int k)
{
    int64_t stride = 1;
    for (int q = k + 1; q < s->rank; q++) stride *= s->dim[q];
    return S("(((%s) >> %d) & %" PRId64 ")", idx, tv_log2(stride), s->dim[k] - 1);
}

typedef struct Lay {
    int64_t n;
    int E, V;
    bool repl;
} Lay;

static Lay tv_lay(Emitter *em, const Shape *s)
{
    Lay l = {.n = 1, .E = 1, .V = 1};
    for (int i = 0; i < s->rank; i++) l.n *= s->dim[i];
    if (!em->cuda) {
        l.E = (int)l.n;
        return l;
    }
    if (l.n < em->T) {
        l.repl = true;
        return l;
    }
    int64_t v = em->Vk;
    int64_t last = s->rank ? s->dim[s->rank - 1] : 1;
    if (v > last) v = last;
    if (v > l.n / em->T) v = l.n / em->T;
    l.V = (int)v;
    l.E = (int)(l.n / em->T);
    return l;
}

/* The thread-value layout of a tile of shape s (CUDA, not replicated), from
 * the layout algebra: (T,(V,R)):(V,(1,T*V)) maps (thread, value) to the
 * row-major element index.  Returns false when s is replicated. */
static bool tv_layout(Emitter *em, const Shape *s, Layout *tv)
{
    Lay l = tv_lay(em, s);
    if (l.repl || !em->cuda) return false;
    char err[128];
    int64_t flat = l.n;
    if (!layout_tv_row_major(1, &flat, em->T, l.V, tv, err, sizeof err)) {
        em->ok = false;
        return false;
    }
    return true;
}

/* Whether two shapes with the same row-major order (a reshape) put every
 * element in the same thread and register: then values pass register to
 * register, without a trip through shared memory. */
static bool tv_agree(Emitter *em, const Shape *a, const Shape *b)
{
    if (shape_equal(a, b)) return true;
    if (!em->cuda || shape_numel(a) != shape_numel(b)) return !em->cuda && shape_numel(a) == shape_numel(b);
    Layout la, lb;
    if (!tv_layout(em, a, &la) || !tv_layout(em, b, &lb)) return false;
    return layout_equal_function(&la, &lb);
}

/* Element of a tile of shape s that broadcasting to ctx maps element o of
 * ctx to (bcast_index, in numbers). */
static int64_t tv_bcast_src(const Shape *s, const Shape *ctx, int64_t o)
{
    int64_t j = 0, sj = 1;
    for (int d = ctx->rank - 1, ds = s->rank - 1; ds >= 0; d--, ds--) {
        int64_t c = o % ctx->dim[d];
        o /= ctx->dim[d];
        if (s->dim[ds] != 1) j += c * sj;
        sj *= s->dim[ds];
    }
    return j;
}

/* Whether broadcasting a tile of shape s to shape ctx (of at least its
 * rank, not equal) leaves every element in place: each thread's value e of
 * ctx comes from value e % E(s) of the same thread in s.  Then the operand is read from registers, not through a
 * shared-memory mirror.  With (T,(V,R)):(V,(1,T*V)) layouts that holds, for
 * instance, for a row vector of BN elements broadcast over (BM, BN) when the
 * threads' vectors tile a row (T*V divides BN) with the same vector width:
 * the weight and bias of a layer norm over several rows per block.  We check
 * it element by element (the tiles are small) instead of by cases. */
static bool bcast_local_check(Emitter *em, const Shape *s, const Shape *ctx)
{
    Lay ls = tv_lay(em, s), lc = tv_lay(em, ctx);
    if (ls.repl || lc.repl || ls.n >= lc.n) return false;
    for (int d = 0; d < s->rank; d++) {
        int64_t cd = ctx->dim[d + ctx->rank - s->rank];
        if (s->dim[d] != 1 && s->dim[d] != cd) return false;
    }
    Layout ts, tc;
    if (!tv_layout(em, s, &ts) || !tv_layout(em, ctx, &tc)) return false;
    /* who holds each element of s: thread * E(s) + value */
    int64_t *owner = malloc((size_t)ls.n * sizeof *owner);
    if (!owner) return false;
    for (int64_t t = 0; t < em->T; t++)
        for (int64_t e = 0; e < ls.E; e++) owner[layout_eval(&ts, t + em->T * e)] = t * ls.E + e;
    bool ok = true;
    for (int64_t t = 0; ok && t < em->T; t++) {
        for (int64_t e = 0; ok && e < lc.E; e++) {
            int64_t j = tv_bcast_src(s, ctx, layout_eval(&tc, t + em->T * e));
            ok = owner[j] == t * ls.E + e % ls.E;
        }
    }
    free(owner);
    return ok;
}

/* bcast_local_check, remembered: the scan and every evaluation of a
 * broadcast operand ask it again for the same two shapes. */
static bool tv_bcast_local(Emitter *em, const Shape *s, const Shape *ctx)
{
    if (!em->cuda || s->rank == 0 || shape_equal(s, ctx) || s->rank > ctx->rank) return false;
    int n = em->nlbc < 16 ? em->nlbc : 16;
    for (int i = 0; i < n; i++)
        if (shape_equal(&em->lbc[i].s, s) && shape_equal(&em->lbc[i].ctx, ctx)) return em->lbc[i].local;
    bool local = bcast_local_check(em, s, ctx);
    em->lbc[em->nlbc++ % 16] = (struct LocalBcast){.s = *s, .ctx = *ctx, .local = local};
    return local;
}

/* The C expression of a layout's function at the (thread, value) coordinate
 * (t_, e_): each leaf's coordinate times its stride, the value mode's leaves
 * taken colexicographically from e_. */
static char *tv_index_expr(Emitter *em, const Layout *tv)
{
    int64_t shape[64], stride[64];
    int n = layout_flatten(tv, shape, stride);
    char *r = S("t_ * %" PRId64, stride[0]);
    int64_t prefix = 1;
    for (int i = 1; i < n; i++) {
        if (shape[i] > 1) r = S("%s + ((e_ / %" PRId64 ") %% %" PRId64 ") * %" PRId64, r, prefix, shape[i], stride[i]);
        prefix *= shape[i];
    }
    return r;
}

static const char *tv_home_idx(Emitter *em)
{
    return em->cuda ? "e_" : "i_";
}

/* The register of a home context's element. */
static const char *tv_ctx_reg(Emitter *em, Ctx c)
{
    return c.eidx ? c.eidx : tv_home_idx(em);
}

static void tv_open_loop(Emitter *em, const Shape *s)
{
    Lay l = tv_lay(em, s);
    if (!em->cuda) {
        line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_) {", l.n);
        em->ind++;
        return;
    }
    line(em, "#pragma unroll");
    line(em, "for (int e_ = 0; e_ < %d; ++e_) {", l.E);
    em->ind++;
    Layout tv;
    if (l.repl)
        line(em, "const int i_ = t_ & %" PRId64 ";", l.n - 1);
    else if (tv_layout(em, s, &tv))
        line(em, "const int i_ = %s;", tv_index_expr(em, &tv));
    line(em, "(void)i_;");
}

static void tv_close_loop(Emitter *em)
{
    em->ind--;
    line(em, "}");
}

/* ---- shared-memory mirrors ---------------------------------------------- */

/* The index of element `ix` of mirror `name` in its array: the identity, or
 * the XOR swizzle chosen for it at its declaration (mirror_swizzle). */
static char *tv_mirror_at(Emitter *em, const char *name, const char *ix)
{
    for (int m = 0; m < em->nmswz; m++) {
        const struct MirrorSwz *z = &em->mswz[m];
        if (strcmp(z->name, name)) continue;
        char *r = S("(%s)", ix);
        for (int k = 0; k < 2; k++)
            if (z->sh[k]) r = S("%s ^ ((((%s) >> %d) & 31) << %d)", r, ix, z->sh[k], z->fs);
        return S("(%s)", r);
    }
    return S("%s", ix);
}

/* Whether a value of shape `s` read in context shape `ctx` needs no data
 * movement: equal shapes, or a broadcast that only adds leading ones (equal
 * element counts) with agreeing thread-value layouts. */
static bool tv_same_home(Emitter *em, const Shape *s, const Shape *ctx)
{
    return shape_equal(s, ctx) || (shape_numel(s) == shape_numel(ctx) && tv_agree(em, s, ctx));
}

static char *tv_read(Emitter *em, const char *name, Dtype d, const Shape *s, bool smem, Ctx c)
{
    if (s->rank == 0) return val_ld(em, d, name);
    /* A one-element tile is held by every thread: no data movement. */
    if (shape_numel(s) == 1) return val_ld(em, d, S("%s[0]", name));
    if (c.home && tv_same_home(em, s, c.shape)) return val_ld(em, d, S("%s[%s]", name, tv_ctx_reg(em, c)));
    if (c.home && tv_bcast_local(em, s, c.shape))
        return val_ld(em, d, S("%s[(%s) %% %d]", name, tv_ctx_reg(em, c), tv_lay(em, s).E));
    char *ix = tv_bcast_index(em, c.idx, c.shape, s);
    if (em->cuda) {
        if (!smem) em->ok = false; /* the scan must have asked for a mirror */
        return val_ld(em, d, S("s_%s[%s]", name, tv_mirror_at(em, name, ix)));
    }
    return val_ld(em, d, S("%s[%s]", name, ix));
}

static const char *tv_sym_name(Emitter *em, const Symbol *sym)
{
    if (sym->kind == SYM_PARAM) return S("p_%s", sym->name);
    return S("v%d", sym->id);
}

/* ---- element expressions ------------------------------------------------ */

static char *ex_ev(Emitter *em, Expr *e, Ctx c);

static char *ex_evc(Emitter *em, Expr *e, Ctx c, Dtype to)
{
    if (e->is_const && e->shape.rank == 0) return val_lit(em, &e->cval, to);
    Dtype from = e->dtype;
    return val_conv(em, ex_ev(em, e, c), from, to);
}

static Ctx ex_sub_ctx(Emitter *em, Expr *e, Ctx c)
{
    if (e->shape.rank == 0) return (Ctx){.shape = &e->shape, .idx = "0", .home = false};
    if (shape_equal(&e->shape, c.shape)) return c;
    if (c.home && tv_same_home(em, &e->shape, c.shape))
        return (Ctx){.shape = &e->shape, .idx = c.idx, .home = true, .eidx = c.eidx};
    if (c.home && tv_bcast_local(em, &e->shape, c.shape))
        return (Ctx){.shape = &e->shape, .idx = tv_bcast_index(em, c.idx, c.shape, &e->shape), .home = true,
                     .eidx = S("(%s) %% %d", tv_ctx_reg(em, c), tv_lay(em, &e->shape).E)};
    return (Ctx){.shape = &e->shape, .idx = tv_bcast_index(em, c.idx, c.shape, &e->shape), .home = false};
}

static Dtype ex_concrete(Dtype d, const ConstValue *v)
{
    return dtype_is_loose(d) ? dtype_concretize(d, v) : d;
}

/* a op b, both already compute values of type ot; result of type rt. */
static char *binop_str(Emitter *em, BinaryOp op, const char *a, const char *b, Dtype ot, Dtype rt, Dtype bt)
{
    const char *sp = ast_binary_op_spelling(op);
    if (op == BOP_LAND || op == BOP_LOR) return S("(((%s) != 0) %s ((%s) != 0))", a, sp, b);
    if (op >= BOP_LT && op <= BOP_NE) return S("((%s) %s (%s))", a, sp, b);
    if (ot == DT_BOOL) {
        if (op == BOP_AND || op == BOP_OR || op == BOP_XOR) return S("((bool)((%s) %s (%s)))", a, sp, b);
    }
    if (dtype_is_float(ot)) {
        const char *r;
        if (op == BOP_MOD) r = S("%s(%s, %s)", ot == DT_FLOAT64 ? "fmod" : "fmodf", a, b);
        else r = S("((%s) %s (%s))", a, sp, b);
        return val_round(em, rt, r);
    }
    const char *T = dtype_host_type(rt);
    bool sg = dtype_is_signed(ot);
    switch (op) {
    case BOP_ADD: case BOP_SUB: case BOP_MUL:
        return S("((%s)((%s)(%s) %s (%s)(%s)))", T, val_utype(ot), a, sp, val_utype(ot), b);
    case BOP_DIV:
        return sg ? S("((%s)tilec_sdiv((int64_t)(%s), (int64_t)(%s)))", T, a, b)
                  : S("((%s)tilec_udiv((uint64_t)(%s), (uint64_t)(%s)))", T, a, b);
    case BOP_MOD:
        return sg ? S("((%s)tilec_srem((int64_t)(%s), (int64_t)(%s)))", T, a, b)
                  : S("((%s)tilec_urem((uint64_t)(%s), (uint64_t)(%s)))", T, a, b);
    case BOP_SHL:
        return S("((%s)tilec_shl((uint64_t)(%s), (int64_t)(%s), %d))", T, a, b, dtype_bits(rt));
    case BOP_SHR:
        return dtype_is_signed(rt) ? S("((%s)tilec_sar((int64_t)(%s), (int64_t)(%s), %d))", T, a, b, dtype_bits(rt))
                                   : S("((%s)tilec_shr((uint64_t)(%s), (int64_t)(%s), %d))", T, a, b, dtype_bits(rt));
    default:
        (void)bt;
        return S("((%s)((%s) %s (%s)))", T, a, sp, b);
    }
}

static char *ev_binary(Emitter *em, Expr *e, Ctx c)
{
    Dtype ot = ex_concrete(e->op_dtype, &e->a->cval);
    if (e->op == BOP_SHL || e->op == BOP_SHR) {
        Dtype rt = ex_concrete(e->dtype, &e->a->cval);
        Dtype bt = ex_concrete(e->b->dtype, &e->b->cval);
        return binop_str(em, (BinaryOp)e->op, ex_evc(em, e->a, ex_sub_ctx(em, e->a, c), rt),
                         ex_evc(em, e->b, ex_sub_ctx(em, e->b, c), bt), rt, rt, bt);
    }
    if (e->op == BOP_LAND || e->op == BOP_LOR) {
        Dtype at = ex_concrete(e->a->dtype, &e->a->cval), bt = ex_concrete(e->b->dtype, &e->b->cval);
        return binop_str(em, (BinaryOp)e->op, ex_evc(em, e->a, ex_sub_ctx(em, e->a, c), at),
                         ex_evc(em, e->b, ex_sub_ctx(em, e->b, c), bt), at, DT_BOOL, bt);
    }
    char *a = ex_evc(em, e->a, ex_sub_ctx(em, e->a, c), ot);
    char *b = ex_evc(em, e->b, ex_sub_ctx(em, e->b, c), ot);
    return binop_str(em, (BinaryOp)e->op, a, b, ot, ex_concrete(e->dtype, &e->cval), ot);
}

static Option *ex_opt(Expr *e, const char *name)
{
    for (int i = 0; i < e->nopts; i++)
        if (!strcmp(e->opts[i].name, name)) return &e->opts[i];
    return NULL;
}

static int64_t ex_opt_int(Expr *e, const char *name, int64_t dflt)
{
    Option *o = ex_opt(e, name);
    return o && o->value->is_const ? o->value->cval.i : dflt;
}

static char *ev_math(Emitter *em, Expr *e, Ctx c)
{
    Dtype t = e->dtype;
    const char *n = e->name;
    bool dbl = t == DT_FLOAT64;
    bool approx = ex_opt_int(e, "approx", 0) != 0 || ex_opt_int(e, "rounding", 0) == 6;
    if (e->nargs == 1) {
        char *a = ex_evc(em, e->args[0], ex_sub_ctx(em, e->args[0], c), t);
        if (e->bi == BI_ABS && !dtype_is_float(t) && !dtype_is_signed(t)) return a; /* unsigned */
        if (e->bi == BI_ABS && !dtype_is_float(t))
            return S("((%s)((%s) < 0 ? 0 - (%s)(%s) : (%s)(%s)))", dtype_host_type(t), a, val_utype(t), a, val_utype(t), a);
        const char *fn = n;
        if (e->bi == BI_ABS) fn = "fabs";
        if (e->bi == BI_RSQRT) return val_round(em, t, S("%s(%s)", dbl ? "tilec_rsqrt" : "tilec_rsqrtf", a));
        if (approx && !dbl && (e->bi == BI_EXP || e->bi == BI_LOG || e->bi == BI_SIN || e->bi == BI_COS))
            return val_round(em, t, S("tilec_fast_%sf(%s)", n, a));
        return val_round(em, t, S("%s%s(%s)", fn, dbl ? "" : "f", a));
    }
    if (e->bi == BI_TRUEDIV) {
        char *a = ex_evc(em, e->args[0], ex_sub_ctx(em, e->args[0], c), t);
        char *b = ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), t);
        return val_round(em, t, S("((%s) / (%s))", a, b));
    }
    char *a = ex_evc(em, e->args[0], ex_sub_ctx(em, e->args[0], c), t);
    char *b = ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), t);
    if (e->bi == BI_MINIMUM || e->bi == BI_MAXIMUM) {
        bool mn = e->bi == BI_MINIMUM;
        if (dtype_is_float(t)) return val_round(em, t, S("%s%s(%s, %s)", mn ? "fmin" : "fmax", dbl ? "" : "f", a, b));
        return S("((%s) %s (%s) ? (%s) : (%s))", a, mn ? "<" : ">", b, a, b);
    }
    if (e->bi == BI_POW) return val_round(em, t, S("pow%s(%s, %s)", dbl ? "" : "f", a, b));
    if (e->bi == BI_FMA) {
        char *z = ex_evc(em, e->args[2], ex_sub_ctx(em, e->args[2], c), t);
        return val_round(em, t, S("fma%s(%s, %s, %s)", dbl ? "" : "f", a, b, z));
    }
    em->ok = false;
    return S("0");
}

static char *ex_ev(Emitter *em, Expr *e, Ctx c);

/* Reads its operand through a permutation of element indices: a view. */
static bool ex_same_order_view(Builtin b)
{
    return b == BI_RESHAPE || b == BI_EXPAND_DIMS || b == BI_SQUEEZE;
}

/* Shape operations are index maps: element idx of the result is element
 * src(idx) of the operand, which is read at that index (through its
 * shared-memory mirror on the GPU when it is materialised). */
static char *ex_shape_op(Emitter *em, Expr *e, Ctx c)
{
    Expr *x = e->args[0];
    const char *idx = e->shape.rank == 0 && !(c.home && shape_equal(&e->shape, c.shape)) ? "0" : c.idx;
    if (!(c.home && shape_equal(&e->shape, c.shape)) && !shape_equal(&e->shape, c.shape))
        idx = tv_bcast_index(em, c.idx, c.shape, &e->shape);
    char *src;
    if (e->bi == BI_BROADCAST_TO) {
        src = tv_bcast_index(em, idx, &e->shape, &x->shape);
    } else if (e->bi == BI_EXTRACT) {
        Option *io = ex_opt(e, "index");
        src = S("0");
        for (int k = 0; k < x->shape.rank; k++) {
            int64_t base = (io->value->kind == EX_LIST ? io->value->args[k] : io->value)->cval.i * e->shape.dim[k];
            int64_t stride = 1;
            for (int q = k + 1; q < x->shape.rank; q++) stride *= x->shape.dim[q];
            src = S("%s + ((%" PRId64 " + %s) << %d)", src, base, tv_coord(em, idx, &e->shape, k), tv_log2(stride));
        }
        src = S("(%s)", src);
    } else if (e->bi == BI_CAT) {
        Expr *b = e->args[1];
        Option *ao = ex_opt(e, "axis");
        int ax = ao ? (int)ao->value->cval.i : 0;
        if (ax < 0) ax += e->shape.rank;
        int64_t half = x->shape.dim[ax];
        char *in = S("0");
        for (int k = 0; k < x->shape.rank; k++) {
            int64_t stride = 1;
            for (int q = k + 1; q < x->shape.rank; q++) stride *= x->shape.dim[q];
            char *ck = tv_coord(em, idx, &e->shape, k);
            if (k == ax) ck = S("(%s & %" PRId64 ")", ck, half - 1);
            in = S("%s + (%s << %d)", in, ck, tv_log2(stride));
        }
        Dtype t = ex_concrete(e->dtype, &e->cval);
        Ctx ca = {.shape = &x->shape, .idx = S("(%s)", in), .home = false};
        Ctx cb = {.shape = &b->shape, .idx = S("(%s)", in), .home = false};
        return S("((%s < %" PRId64 ") ? (%s) : (%s))", tv_coord(em, idx, &e->shape, ax), half, ex_evc(em, x, ca, t), ex_evc(em, b, cb, t));
    } else if (e->bi == BI_TRANSPOSE || e->bi == BI_PERMUTE) {
        int perm[TILE_MAX_RANK];
        int r = e->shape.rank;
        for (int i = 0; i < r; i++) perm[i] = r - 1 - i;
        Option *o = ex_opt(e, "axis");
        if (e->bi == BI_PERMUTE && o && o->value->kind == EX_LIST)
            for (int i = 0; i < r; i++) perm[i] = (int)o->value->args[i]->cval.i;
        src = S("0");
        for (int i = 0; i < r; i++) {
            int64_t stride = 1;
            for (int q = perm[i] + 1; q < r; q++) stride *= x->shape.dim[q];
            src = S("%s + (%s << %d)", src, tv_coord(em, idx, &e->shape, i), tv_log2(stride));
        }
        src = S("(%s)", src);
    } else {
        src = S("%s", idx); /* reshape, expand_dims, squeeze keep the row-major order */
    }
    bool home = ex_same_order_view(e->bi) && c.home && shape_equal(&e->shape, c.shape) && tv_agree(em, &e->shape, &x->shape);
    Ctx xc = {.shape = &x->shape, .idx = src, .home = home, .eidx = home ? c.eidx : NULL};
    if (x->shape.rank == 0) xc = (Ctx){.shape = &x->shape, .idx = "0", .home = false};
    return ex_ev(em, x, xc);
}

static char *ex_ev(Emitter *em, Expr *e, Ctx c)
{
    if (e->is_const && e->shape.rank == 0) return val_lit(em, &e->cval, ex_concrete(e->dtype, &e->cval));
    switch (e->kind) {
    case EX_INT:
    case EX_FLOAT:
        return val_lit(em, &e->cval, ex_concrete(e->dtype, &e->cval));
    case EX_NAME: {
        Symbol *sym = e->sym;
        if (sym->kind == SYM_PARAM) return S("p_%s", sym->name);
        return tv_read(em, tv_sym_name(em, sym), sym->dtype, &sym->shape, em->sym_smem[sym->id], c);
    }
    case EX_UNARY: {
        Ctx sc = ex_sub_ctx(em, e->a, c);
        Dtype t = ex_concrete(e->dtype, &e->a->cval);
        char *a = ex_evc(em, e->a, sc, e->op == UOP_NOT ? ex_concrete(e->a->dtype, &e->a->cval) : t);
        switch ((UnaryOp)e->op) {
        case UOP_NOT: return S("((%s) == 0)", a);
        case UOP_BITNOT: return t == DT_BOOL ? S("(!(%s))", a) : S("((%s)~(%s))", dtype_host_type(t), a);
        case UOP_NEG:
            if (dtype_is_float(t)) return S("(-(%s))", a);
            return S("((%s)(0 - (%s)(%s)))", dtype_host_type(t), val_utype(t), a);
        default: return a;
        }
    }
    case EX_BINARY:
        return ev_binary(em, e, c);
    case EX_COND: {
        Dtype t = ex_concrete(e->dtype, &e->cval);
        char *cc = ex_evc(em, e->a, ex_sub_ctx(em, e->a, c), ex_concrete(e->a->dtype, &e->a->cval));
        return S("((%s) ? (%s) : (%s))", cc, ex_evc(em, e->b, ex_sub_ctx(em, e->b, c), t), ex_evc(em, e->c, ex_sub_ctx(em, e->c, c), t));
    }
    case EX_CAST:
        return val_cast(em, ex_ev(em, e->a, ex_sub_ctx(em, e->a, c)), ex_concrete(e->a->dtype, &e->a->cval), e->dtype, 0, true);
    case EX_CALL:
        return tv_read(em, em->tmp[e->id], em->tmp_dt[e->id], &e->shape, em->tmp_smem[e->id], c);
    case EX_BUILTIN:
        if (builtin_info(e->bi)->materialises) /* loads, reductions, mma ...: their registers */
            return tv_read(em, em->tmp[e->id], em->tmp_dt[e->id], &e->shape, em->tmp_smem[e->id], c);
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_QUERY: {
            if (e->bi == BI_DIM) return S("p_%s.shape[%" PRId64 "]", e->args[0]->name, e->args[1]->cval.i);
            int64_t ax = e->args[0]->cval.i;
            if (e->bi == BI_BID)
                return em->cuda ? S("((int32_t)blockIdx.%c)", "xyz"[ax]) : S("((int32_t)b%c_)", "xyz"[ax]);
            return em->cuda ? S("((int32_t)gridDim.%c)", "xyz"[ax]) : S("((int32_t)g%c_)", "xyz"[ax]);
        }
        case BCLASS_FACTORY:
            if (e->bi == BI_ZEROS) return val_lit(em, &(ConstValue){.i = 0}, e->dtype);
            if (e->bi == BI_ONES) return val_lit(em, &(ConstValue){.i = 1, .u = 1}, e->dtype);
            if (e->bi == BI_FULL) return ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), e->dtype);
            /* arange: "i_" in this thread's own order */
            return val_conv(em, S("((int64_t)(%s))", c.idx), DT_INT64, e->dtype);
        case BCLASS_CAST: {
            Expr *x = e->args[0];
            Option *sat = ex_opt(e, "saturate");
            bool satv = !sat || sat->value->cval.i != 0;
            return val_cast(em, ex_ev(em, x, ex_sub_ctx(em, x, c)), ex_concrete(x->dtype, &x->cval), e->dtype,
                            ex_opt_int(e, "rounding", 0), satv);
        }
        case BCLASS_WHERE: {
            Dtype t = ex_concrete(e->dtype, &e->cval);
            char *cc = ex_evc(em, e->args[0], ex_sub_ctx(em, e->args[0], c), ex_concrete(e->args[0]->dtype, &e->args[0]->cval));
            return S("((%s) ? (%s) : (%s))", cc, ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), t),
                     ex_evc(em, e->args[2], ex_sub_ctx(em, e->args[2], c), t));
        }
        case BCLASS_SHAPE:
            return ex_shape_op(em, e, c);
        case BCLASS_MATH1:
        case BCLASS_MATH:
            return ev_math(em, e, c);
        case BCLASS_MEM: case BCLASS_REDUCE: case BCLASS_SCAN: case BCLASS_INDEXED: case BCLASS_MMA:
            break; /* materialised; scatter has no value */
        }
        em->ok = false;
        return S("0");
    default:
        em->ok = false;
        return S("0");
    }
}

/* ---- the scan: declarations and shared-memory mirrors ------------------ */

static void scan_stmt(Emitter *em, Stmt *st);
static void scan_expr(Emitter *em, Expr *e, const Shape *ctx, bool home);
static void red_note(Emitter *em, Expr *e);
static int64_t mma_bytes(const Expr *e);
static bool mma_is_frag_update(const Stmt *st);
static bool ex_reads(const Expr *e, const Symbol *sym, const Expr *skip);

static void note_tmp(Emitter *em, Expr *e, Dtype d, const Shape *s)
{
    em->tmp[e->id] = S("t%d", e->id);
    em->tmp_dt[e->id] = d;
    em->tmp_shape[e->id] = *s;
}

static void scan_root(Emitter *em, Expr *e)
{
    scan_expr(em, e, &e->shape, true);
}

static void scan_expr(Emitter *em, Expr *e, const Shape *ctx, bool home)
{
    if (!e) return;
    bool my_home = home && (tv_same_home(em, &e->shape, ctx) || tv_bcast_local(em, &e->shape, ctx));
    bool random = e->shape.rank > 0 && !my_home && shape_numel(&e->shape) > 1;
    /* read through its mirror at the broadcast of ctx's own order: a
     * pattern the mirror's swizzle should serve */
    if (random && home && em->cuda && em->nbc_reads < 64 && !shape_equal(&e->shape, ctx))
        em->bc_reads[em->nbc_reads++] = (struct MirrorRead){.x = e, .ctx = ctx};
    if (e->is_const && e->shape.rank == 0) return;
    switch (e->kind) {
    case EX_NAME:
        if (random && e->sym && e->sym->kind == SYM_VAR) em->sym_smem[e->sym->id] = true;
        return;
    case EX_CALL: {
        Inline *in = e->inl;
        if (e->dtype != DT_INVALID) note_tmp(em, e, e->dtype, &e->shape); /* void calls have no value */
        if (random) em->tmp_smem[e->id] = true;
        for (int i = 0; i < e->nargs; i++) {
            scan_expr(em, e->args[i], &in->params[i]->shape, true);
            em->syms[in->params[i]->id] = in->params[i];
        }
        scan_stmt(em, in->body);
        return;
    }
    case EX_BUILTIN:
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MEM:
            if (e->bi == BI_STORE) {
                Expr *arr = e->args[0];
                note_tmp(em, e, arr->dtype, &e->shape);
                scan_expr(em, e->args[1], &e->shape, true);
                for (int i = 0; i < e->nopts; i++) scan_root(em, e->opts[i].value);
                return;
            }
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            for (int i = 0; i < e->nopts; i++) scan_root(em, e->opts[i].value);
            return;
        case BCLASS_INDEXED: {
            if (e->bi != BI_SCATTER) {
                note_tmp(em, e, e->dtype, &e->shape);
                if (random) em->tmp_smem[e->id] = true;
            }
            for (int i = 1; i < e->nargs; i++) scan_expr(em, e->args[i], &e->shape, true);
            Expr *iv = ex_opt(e, "index")->value;
            if (iv->kind == EX_LIST)
                for (int i = 0; i < iv->nargs; i++) scan_expr(em, iv->args[i], &e->shape, true);
            else
                scan_expr(em, iv, &e->shape, true);
            return;
        }
        case BCLASS_MMA: {
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            em->mma_exprs[e->id] = e;
            if (em->cuda) {
                const Expr *a = e->args[0], *b = e->args[1];
                int64_t staging = mma_bytes(e) - a->shape.dim[0] * b->shape.dim[1] * 4;
                if (staging > em->mma_bytes) em->mma_bytes = staging;
            }
            for (int i = 0; i < e->nargs; i++) scan_root(em, e->args[i]);
            return;
        }
        case BCLASS_SCAN:
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            scan_root(em, e->args[0]);
            if (em->cuda) {
                int64_t n = shape_numel(&e->shape);
                int64_t bytes = (n + n / 32 + 1) * (dtype_bits(e->dtype) > 32 ? 8 : 4);
                if (bytes > em->red_bytes) em->red_bytes = bytes;
            }
            return;
        case BCLASS_REDUCE:
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            scan_root(em, e->args[0]);
            red_note(em, e);
            return;
        case BCLASS_SHAPE: {
            /* The operand is read at mapped indices; only a reshape whose
             * thread-value layouts agree stays register to register. */
            bool home = ex_same_order_view(e->bi) && my_home && tv_agree(em, &e->shape, &e->args[0]->shape);
            /* a transpose filled in this thread's own order reads its
             * operand's mirror in a pattern its swizzle should serve */
            bool perm = e->bi == BI_TRANSPOSE || e->bi == BI_PERMUTE;
            if (perm && my_home && em->cuda && em->nperm_reads < 32) em->perm_reads[em->nperm_reads++] = e;
            for (int i = 0; i < e->nargs; i++) scan_expr(em, e->args[i], &e->args[i]->shape, home);
            return;
        }
        case BCLASS_FACTORY: case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE:
        case BCLASS_QUERY:
            break; /* element-wise: evaluated in its reader's loop */
        }
        for (int i = 0; i < e->nargs; i++) scan_expr(em, e->args[i], &e->shape, my_home);
        return;
    case EX_LIST:
        for (int i = 0; i < e->nargs; i++) scan_root(em, e->args[i]);
        return;
    default:
        scan_expr(em, e->a, &e->shape, my_home);
        scan_expr(em, e->b, &e->shape, my_home);
        scan_expr(em, e->c, &e->shape, my_home);
        return;
    }
}

static void scan_stmt(Emitter *em, Stmt *st)
{
    if (!st) return;
    switch (st->kind) {
    case ST_DECL: {
        Symbol *sym = st->sym;
        em->syms[sym->id] = sym;
        scan_expr(em, st->init, &sym->shape, true);
        if (em->cuda && sym->shape.rank == 2 && (sym->dtype == DT_FLOAT32 || sym->dtype == DT_INT32) &&
            sym->shape.dim[0] % 16 == 0 && sym->shape.dim[1] % 16 == 0 &&
            sym->shape.dim[0] * sym->shape.dim[1] <= 128 * (int64_t)em->T) {
            /* at most 128 accumulator registers per thread */
            em->sym_frag[sym->id] = true; /* until an assignment says otherwise */
            em->sym_kk[sym->id] = 0;
        }
        return;
    }
    case ST_ASSIGN: {
        Symbol *sym = st->target->sym;
        scan_expr(em, st->value, &sym->shape, true);
        if (!em->sym_frag[sym->id]) return;
        if (!mma_is_frag_update(st)) {
            em->sym_frag[sym->id] = false;
            return;
        }
        em->mma_target[st->value->id] = sym->id + 1;
        int kk = st->value->args[0]->dtype == DT_TFLOAT32 ? 8 : 16;
        if (em->sym_kk[sym->id] && em->sym_kk[sym->id] != kk) em->sym_frag[sym->id] = false;
        em->sym_kk[sym->id] = kk;
        return;
    }
    case ST_EXPR:
    case ST_RETURN:
        if (st->value) scan_root(em, st->value);
        return;
    default:
        break;
    }
    if (st->cond) {
        scan_root(em, st->cond);
        /* A fragment accumulator read in a condition would need refreshing
         * on every test: keep such variables in registers. */
        for (int i = 0; i < em->k->nsyms; i++)
            if (em->sym_frag[i] && em->syms[i] && ex_reads(st->cond, em->syms[i], NULL)) em->sym_frag[i] = false;
    }
    scan_stmt(em, st->init_s);
    scan_stmt(em, st->step_s);
    scan_stmt(em, st->then_s);
    scan_stmt(em, st->else_s);
    scan_stmt(em, st->body);
    for (int i = 0; i < st->nitems; i++) scan_stmt(em, st->items[i]);
}

/* ---- materialisation ----------------------------------------------------- */

static void body_hoist(Emitter *em, Expr *e);
static void body_stmt(Emitter *em, Stmt *st);

/* Copies a freshly written register tile into its shared-memory mirror. */
static void mem_write_mirror(Emitter *em, const char *name, const Shape *s)
{
    Lay l = tv_lay(em, s);
    line(em, "__syncthreads();");
    tv_open_loop(em, s);
    const char *at = tv_mirror_at(em, name, "i_");
    if (l.repl) line(em, "if (t_ < %" PRId64 ") s_%s[%s] = %s[e_];", l.n, name, at, name);
    else line(em, "s_%s[%s] = %s[e_];", name, at, name);
    tv_close_loop(em);
    line(em, "__syncthreads();");
}

/* name (dtype d, shape s) = value, element by element. */
static void mem_materialize(Emitter *em, const char *name, Dtype d, const Shape *s, Expr *value, bool mirror)
{
    body_hoist(em, value);
    if (s->rank == 0) {
        Ctx c = {.shape = s, .idx = "0", .home = false};
        line(em, "%s = %s;", name, val_st_assign(em, d, value, ex_evc(em, value, c, d)));
        return;
    }
    tv_open_loop(em, s);
    Ctx c = {.shape = s, .idx = "i_", .home = true};
    line(em, "%s[%s] = %s;", name, tv_home_idx(em), val_st_assign(em, d, value, ex_evc(em, value, c, d)));
    tv_close_loop(em);
    if (mirror && em->cuda) mem_write_mirror(em, name, s);
}

static const char *pad_value(Emitter *em, Dtype d, int64_t pad)
{
    ConstValue z = {.i = 0};
    if (dtype_is_float(d)) {
        double v = 0.0;
        switch (pad) {
        case 2: v = -0.0; break;
        case 3: v = 0.0 / 0.0; break;
        case 4: v = 1.0 / 0.0; break;
        case 5: v = -1.0 / 0.0; break;
        default: break;
        }
        ConstValue c = {.is_float = true, .f = v};
        return val_st(em, d, val_lit(em, &c, d));
    }
    if (d == DT_BOOL) return "false";
    if (pad == 4 || pad == 5) {
        /* Integers have no infinities: +inf/-inf pad with the type's max/min. */
        int bits = dtype_bits(d);
        if (dtype_is_signed(d)) {
            int64_t v = pad == 4 ? (int64_t)((UINT64_C(1) << (bits - 1)) - 1) : -(int64_t)((UINT64_C(1) << (bits - 1)) - 1) - 1;
            ConstValue c = {.i = v, .u = (uint64_t)v};
            return val_lit(em, &c, d);
        }
        uint64_t v = pad == 4 ? (bits == 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1) : 0;
        ConstValue c = {.i = (int64_t)v, .u = v, .is_unsigned = v > (uint64_t)INT64_MAX};
        return val_lit(em, &c, d);
    }
    return val_lit(em, &z, d);
}

/* The array axis each tile axis runs along (.order). */
static void tile_order(Expr *e, int rank, int *ord)
{
    for (int k = 0; k < rank; k++) ord[k] = k;
    Option *o = ex_opt(e, "order");
    if (!o) return;
    Expr *v = o->value;
    if (v->kind == EX_LIST && v->nargs == 1 && v->args[0]->cval.i == -1) {
        for (int k = 0; k < rank; k++) ord[k] = rank - 1 - k;
        return;
    }
    if (v->kind == EX_LIST && v->nargs == 1 && v->args[0]->cval.i == -2) return; /* TILE_ORDER_C */
    if (v->kind == EX_LIST && v->nargs == rank)
        for (int k = 0; k < rank; k++) ord[k] = (int)v->args[k]->cval.i;
}

/* Emits the tile origin and bounds pieces common to loads and stores. */
static void mem_prologue(Emitter *em, Expr *e, const Shape *s, const int *ord, const char *arr)
{
    Option *idx = ex_opt(e, "index");
    Expr *iv = idx->value;
    for (int k = 0; k < s->rank; k++) {
        Expr *x = iv->kind == EX_LIST ? iv->args[k] : iv;
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t o%d_ = (int64_t)(%s) * %" PRId64 ";", k, ex_evc(em, x, c, DT_INT64), s->dim[k]);
    }
    char *full = S("true");
    for (int k = 0; k < s->rank; k++)
        full = S("%s && o%d_ >= 0 && o%d_ + %" PRId64 " <= %s.shape[%d]", full, k, k, s->dim[k], arr, ord[k]);
    line(em, "const bool full_ = %s;", full);
    line(em, "(void)full_;");
}

/* The element offset of index ix of the tile.  unit_last: the array's last
 * stride is known to be 1 (the ALIGNED vector path, which the launcher only
 * takes when tilec_array_fast_path holds), so that term is not multiplied:
 * a 64-bit multiply per access and the registers of the stride saved. */
static char *offset_expr(Emitter *em, const Shape *s, const int *ord, const char *arr, const char *ix,
                         bool unit_last)
{
    char *off = S("0");
    for (int k = 0; k < s->rank; k++) {
        if (unit_last && ord[k] == s->rank - 1)
            off = S("%s + (o%d_ + %s)", off, k, tv_coord(em, ix, s, k));
        else
            off = S("%s + (o%d_ + %s) * %s.strides[%d]", off, k, tv_coord(em, ix, s, k), arr, ord[k]);
    }
    return off;
}

static char *inbounds_expr(Emitter *em, const Shape *s, const int *ord, const char *arr, const char *ix)
{
    char *r = S("true");
    for (int k = 0; k < s->rank; k++) {
        char *g = S("(o%d_ + %s)", k, tv_coord(em, ix, s, k));
        r = S("%s && %s >= 0 && %s < %s.shape[%d]", r, g, g, arr, ord[k]);
    }
    return r;
}

static void mem_load(Emitter *em, Expr *e)
{
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = e->dtype;
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    tile_order(e, s->rank, ord);
    Lay l = tv_lay(em, s);
    const char *ty = emit_storage_type(d);
    line(em, "{ /* tile_load %s */", e->args[0]->name);
    em->ind++;
    mem_prologue(em, e, s, ord, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    const char *pad = pad_value(em, d, ex_opt_int(e, "padding", 0));
    bool vec = em->cuda && !l.repl && l.V > 1 && ord[s->rank - 1] == s->rank - 1;
    if (vec) {
        line(em, "if (ALIGNED && full_) {");
        em->ind++;
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = r_ * %d + t_ * %d;", em->T * l.V, l.V);
        line(em, "tilec_vload<%d>(%s, r_ * %d, p_ + (%s));", l.V, name, l.V, offset_expr(em, s, ord, arr, "i_", true));
        tv_close_loop(em);
        em->ind--;
        line(em, "} else {");
        em->ind++;
    }
    tv_open_loop(em, s);
    line(em, "%s[%s] = (%s) ? p_[%s] : %s;", name, tv_home_idx(em), inbounds_expr(em, s, ord, arr, "i_"),
         offset_expr(em, s, ord, arr, "i_", false), pad);
    tv_close_loop(em);
    if (vec) {
        em->ind--;
        line(em, "}");
    }
    em->ind--;
    line(em, "}");
    if (em->tmp_smem[e->id] && em->cuda) mem_write_mirror(em, name, s);
}

static void mem_store(Emitter *em, Expr *e)
{
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = em->tmp_dt[e->id];
    const Shape *s = &e->shape;
    mem_materialize(em, name, d, s, e->args[1], false);
    int ord[TILE_MAX_RANK];
    tile_order(e, s->rank, ord);
    Lay l = tv_lay(em, s);
    const char *ty = emit_storage_type(d);
    line(em, "{ /* tile_store %s */", e->args[0]->name);
    em->ind++;
    mem_prologue(em, e, s, ord, arr);
    line(em, "%s *p_ = (%s *)%s.data;", ty, ty, arr);
    bool vec = em->cuda && !l.repl && l.V > 1 && ord[s->rank - 1] == s->rank - 1;
    if (vec) {
        line(em, "if (ALIGNED && full_) {");
        em->ind++;
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = r_ * %d + t_ * %d;", em->T * l.V, l.V);
        line(em, "tilec_vstore<%d>(p_ + (%s), %s, r_ * %d);", l.V, offset_expr(em, s, ord, arr, "i_", true), name, l.V);
        tv_close_loop(em);
        em->ind--;
        line(em, "} else {");
        em->ind++;
    }
    tv_open_loop(em, s);
    char *cond = inbounds_expr(em, s, ord, arr, "i_");
    if (l.repl) cond = S("t_ < %" PRId64 " && %s", l.n, cond);
    line(em, "if (%s) p_[%s] = %s[%s];", cond, offset_expr(em, s, ord, arr, "i_", false), name, tv_home_idx(em));
    tv_close_loop(em);
    if (vec) {
        em->ind--;
        line(em, "}");
    }
    em->ind--;
    line(em, "}");
}

static void mem_call(Emitter *em, Expr *e)
{
    Inline *in = e->inl;
    line(em, "{ /* inlined %s */", e->name);
    em->ind++;
    for (int i = 0; i < e->nargs; i++) {
        Symbol *ps = in->params[i];
        mem_materialize(em, tv_sym_name(em, ps), ps->dtype, &ps->shape, e->args[i], em->sym_smem[ps->id]);
    }
    Stmt *body = in->body;
    for (int i = 0; i < body->nitems; i++) {
        Stmt *st = body->items[i];
        if (st->kind == ST_RETURN) {
            if (st->value && em->tmp[e->id])
                mem_materialize(em, em->tmp[e->id], em->tmp_dt[e->id], &e->shape, st->value, em->tmp_smem[e->id]);
            continue;
        }
        body_stmt(em, st);
    }
    em->ind--;
    line(em, "}");
}

/* ---- reductions ---------------------------------------------------------- */

typedef struct Red {
    Builtin kind;      /* sum prod max min argmax argmin any all */
    bool arg;          /* argmax / argmin: a (value, index) pair */
    Dtype in;          /* the operand's dtype */
    Dtype acc;         /* accumulation dtype */
    int axes[TILE_MAX_RANK];
    int nax;
    bool trailing;     /* the reduced axes are the last ones */
    Shape keep;        /* the result shape with reduced axes kept as 1 */
    int64_t n, nred, nres;
} Red;

static Red red_info(Expr *e)
{
    Red r = {.kind = e->bi};
    Expr *x = e->args[0];
    r.arg = e->bi == BI_ARGMAX || e->bi == BI_ARGMIN;
    r.in = ex_concrete(x->dtype, &x->cval);
    bool any = e->bi == BI_ANY || e->bi == BI_ALL;
    if (any) r.acc = DT_BOOL;
    else if (r.arg || e->bi == BI_MAX || e->bi == BI_MIN)
        r.acc = r.in == DT_FLOAT16 || r.in == DT_BFLOAT16 ? DT_FLOAT32 : r.in;
    else
        r.acc = r.in == DT_FLOAT16 || r.in == DT_BFLOAT16 ? DT_FLOAT32 : e->dtype;
    Option *o = ex_opt(e, "axis");
    int rank = x->shape.rank;
    bool red[TILE_MAX_RANK] = {0};
    if (!o) {
        for (int a = 0; a < rank; a++) red[a] = true;
    } else {
        Expr *v = o->value;
        int k = v->kind == EX_LIST ? v->nargs : 1;
        for (int i = 0; i < k; i++) {
            int64_t a = (v->kind == EX_LIST ? v->args[i] : v)->cval.i;
            if (a < 0) a += rank;
            red[a] = true;
        }
    }
    r.keep = x->shape;
    r.n = shape_numel(&x->shape);
    r.nred = 1;
    for (int a = 0; a < rank; a++)
        if (red[a]) {
            r.axes[r.nax++] = a;
            r.nred *= x->shape.dim[a];
            r.keep.dim[a] = 1;
        }
    r.nres = r.n / r.nred;
    r.trailing = true;
    for (int i = 0; i < r.nax; i++)
        if (r.axes[i] != rank - r.nax + i) r.trailing = false;
    return r;
}

static const char *red_identity(Emitter *em, const Red *r)
{
    Builtin k = r->kind;
    if (k == BI_ANY) return "false";
    if (k == BI_ALL) return "true";
    ConstValue c = {.i = 0};
    if (k == BI_PROD) c.i = 1, c.u = 1;
    bool mx = k == BI_MAX || k == BI_ARGMAX;
    bool mn = k == BI_MIN || k == BI_ARGMIN;
    if (mx || mn) {
        if (dtype_is_float(r->acc)) return r->acc == DT_FLOAT64 ? (mx ? "(-(double)INFINITY)" : "((double)INFINITY)")
                                                              : (mx ? "(-INFINITY)" : "INFINITY");
        if (r->acc == DT_BOOL) return mx ? "false" : "true";
        int bits = dtype_bits(r->acc);
        if (dtype_is_signed(r->acc)) {
            if (mx) return S("((%s)(-INT64_C(%" PRId64 ") - 1))", dtype_host_type(r->acc), (int64_t)((UINT64_C(1) << (bits - 1)) - 1));
            return S("((%s)INT64_C(%" PRId64 "))", dtype_host_type(r->acc), (int64_t)((UINT64_C(1) << (bits - 1)) - 1));
        }
        if (mx) return S("((%s)0)", dtype_host_type(r->acc));
        return S("((%s)UINT64_MAX)", dtype_host_type(r->acc));
    }
    return val_lit(em, &c, r->acc);
}

/* acc <- acc op v (and the index pair for argmax/argmin). */
static void red_update(Emitter *em, const Red *r, const char *acc, const char *ai, const char *v, const char *vi)
{
    Builtin k = r->kind;
    bool f = dtype_is_float(r->acc);
    bool dbl = r->acc == DT_FLOAT64;
    if (r->arg) {
        bool mx = k == BI_ARGMAX;
        const char *cmp = mx ? ">" : "<";
        if (f)
            line(em, "if ((%s != %s && !(%s != %s && %s < %s)) || (!(%s != %s) && (%s %s %s || (%s == %s && %s < %s)))) { %s = %s; %s = %s; }",
                 v, v, acc, acc, ai, vi, acc, acc, v, cmp, acc, v, acc, vi, ai, acc, v, ai, vi);
        else
            line(em, "if (%s %s %s || (%s == %s && %s < %s)) { %s = %s; %s = %s; }", v, cmp, acc, v, acc, vi, ai, acc, v, ai, vi);
        return;
    }
    if (k == BI_ANY) line(em, "%s = %s || %s;", acc, acc, v);
    else if (k == BI_ALL) line(em, "%s = %s && %s;", acc, acc, v);
    else if (k == BI_MAX || k == BI_MIN) {
        bool mx = k == BI_MAX;
        if (f) line(em, "%s = %s(%s, %s);", acc, dbl ? (mx ? "tilec_maxd" : "tilec_mind") : (mx ? "tilec_maxf" : "tilec_minf"), acc, v);
        else if (r->acc == DT_BOOL) line(em, "%s = %s %s %s;", acc, acc, mx ? "||" : "&&", v);
        else line(em, "%s = %s %s %s ? %s : %s;", acc, v, mx ? ">" : "<", acc, v, acc);
    } else {
        const char *op = k == BI_SUM ? "+" : "*";
        if (f) line(em, "%s = %s %s %s;", acc, acc, op, v);
        else line(em, "%s = (%s)((%s)%s %s (%s)%s);", acc, dtype_host_type(r->acc), val_utype(r->acc), acc, op, val_utype(r->acc), v);
    }
}

static const char *acc_type(const Red *r)
{
    if (r->acc == DT_FLOAT32) return "float";
    if (r->acc == DT_FLOAT64) return "double";
    return dtype_host_type(r->acc);
}

/* A warp shuffle of a value of the accumulation type. */
static char *shfl(Emitter *em, const Red *r, const char *v, const char *off)
{
    if (r->acc == DT_FLOAT32 || r->acc == DT_FLOAT64)
        return S("__shfl_xor_sync(0xffffffffu, %s, %s)", v, off);
    if (dtype_bits(r->acc) == 64)
        return S("(%s)__shfl_xor_sync(0xffffffffu, (%s)%s, %s)", dtype_host_type(r->acc),
                 dtype_is_signed(r->acc) ? "long long" : "unsigned long long", v, off);
    return S("(%s)__shfl_xor_sync(0xffffffffu, (int)%s, %s)", dtype_host_type(r->acc), v, off);
}

/* The operand's linear index of element j (row-major over the reduced axes)
 * of the group that produces result element r (row-major over `keep`). */
static char *red_src(Emitter *em, const Red *rd, const Shape *xs, const char *r, const char *j)
{
    Shape js = {0};
    for (int i = 0; i < rd->nax; i++) js.dim[js.rank++] = xs->dim[rd->axes[i]];
    char *src = S("0");
    for (int a = 0, k = 0; a < xs->rank; a++) {
        int64_t stride = 1;
        for (int q = a + 1; q < xs->rank; q++) stride *= xs->dim[q];
        bool red = k < rd->nax && rd->axes[k] == a;
        char *c = red ? tv_coord(em, j, &js, k++) : tv_coord(em, r, &rd->keep, a);
        src = S("%s + (%s << %d)", src, c, tv_log2(stride));
    }
    return S("(%s)", src);
}

/* Result element of operand element i (host target): drop reduced coords. */
static char *red_dst(Emitter *em, const Red *rd, const Shape *xs, const char *i)
{
    char *dst = S("0");
    for (int a = 0, k = 0; a < xs->rank; a++) {
        bool red = k < rd->nax && rd->axes[k] == a;
        if (red) {
            k++;
            continue;
        }
        int64_t stride = 1;
        for (int q = a + 1; q < xs->rank; q++) stride *= rd->keep.dim[q];
        dst = S("%s + (%s << %d)", dst, tv_coord(em, i, xs, a), tv_log2(stride));
    }
    return S("(%s)", dst);
}

/* Whether the register/shuffle path applies (see emit_reduce_fast). */
static bool red_fast(Emitter *em, Expr *e, const Red *rd)
{
    Lay l = tv_lay(em, &e->args[0]->shape);
    return rd->trailing && !l.repl && rd->nred >= l.V && (!rd->arg || rd->nax == 1 || rd->nax == e->args[0]->shape.rank);
}

static void red_note(Emitter *em, Expr *e)
{
    if (!em->cuda) return;
    Red rd = red_info(e);
    if (red_fast(em, e, &rd)) return;
    int64_t bytes = (rd.n + rd.n / 32 + 1) * (dtype_bits(rd.acc) > 32 ? 8 : 4);
    if (bytes > em->red_bytes) em->red_bytes = bytes;
}

/* Writes the result (accumulation values in s_res_[nres]) into the result
 * tile's registers in its own layout. */
static void red_distribute(Emitter *em, Expr *e, const Red *rd, const char *res)
{
    const char *name = em->tmp[e->id];
    Dtype d = e->dtype;
    if (e->shape.rank == 0) {
        line(em, "%s = %s;", name, val_st(em, d, val_conv(em, S("%s[0]", res), rd->arg ? DT_INT32 : rd->acc, d)));
        return;
    }
    tv_open_loop(em, &e->shape);
    line(em, "%s[%s] = %s;", name, tv_home_idx(em), val_st(em, d, val_conv(em, S("%s[i_]", res), rd->arg ? DT_INT32 : rd->acc, d)));
    tv_close_loop(em);
}

static void emit_reduce_host(Emitter *em, Expr *e, const Red *rd)
{
    Expr *x = e->args[0];
    const char *at = acc_type(rd);
    line(em, "%s acc_[%" PRId64 "];", at, rd->nres);
    if (rd->arg) line(em, "int32_t ai_[%" PRId64 "];", rd->nres);
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", rd->nres);
    em->ind++;
    line(em, "acc_[r_] = %s;", red_identity(em, rd));
    if (rd->arg) line(em, "ai_[r_] = INT32_MAX;");
    tv_close_loop(em);
    tv_open_loop(em, &x->shape);
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    line(em, "const %s v_ = %s;", at, ex_evc(em, x, c, rd->acc));
    line(em, "const int64_t r_ = %s;", red_dst(em, rd, &x->shape, "i_"));
    if (rd->arg) {
        /* position along the reduced axes */
        Shape js = {0};
        for (int i = 0; i < rd->nax; i++) js.dim[js.rank++] = x->shape.dim[rd->axes[i]];
        char *pos = S("0");
        int64_t stride = 1;
        for (int i = rd->nax - 1; i >= 0; i--) {
            pos = S("%s + %s * %" PRId64, pos, tv_coord(em, "i_", &x->shape, rd->axes[i]), stride);
            stride *= js.dim[i];
        }
        line(em, "const int32_t vi_ = (int32_t)(%s);", pos);
        red_update(em, rd, "acc_[r_]", "ai_[r_]", "v_", "vi_");
    } else {
        red_update(em, rd, "acc_[r_]", NULL, "v_", NULL);
    }
    tv_close_loop(em);
    red_distribute(em, e, rd, rd->arg ? "ai_" : "acc_");
}

/* CUDA, reduced axes trailing and each thread's vector runs inside one
 * group: reduce in registers, then across the g threads sharing a group with
 * warp shuffles (and shared memory between warps when g > 32). */
static void emit_reduce_fast(Emitter *em, Expr *e, const Red *rd, Lay l)
{
    Expr *x = e->args[0];
    const char *at = acc_type(rd);
    int T = em->T, V = l.V;
    int C = l.E / V;                       /* chunks (runs) per thread */
    int64_t K = rd->nred > (int64_t)T * V ? rd->nred / ((int64_t)T * V) : 1; /* chunks per group */
    int Q = (int)(C / K);                  /* partial results per thread */
    int64_t g = rd->nred / V < T ? rd->nred / V : T; /* threads per group */
    line(em, "%s q_[%d];", at, Q);
    if (rd->arg) line(em, "int32_t qi_[%d];", Q);
    line(em, "#pragma unroll");
    line(em, "for (int j_ = 0; j_ < %d; ++j_) {", Q);
    em->ind++;
    line(em, "%s acc_ = %s;", at, red_identity(em, rd));
    if (rd->arg) line(em, "int32_t ai_ = INT32_MAX;");
    line(em, "#pragma unroll");
    line(em, "for (int c_ = j_ * %" PRId64 "; c_ < (j_ + 1) * %" PRId64 "; ++c_) {", K, K);
    em->ind++;
    line(em, "#pragma unroll");
    line(em, "for (int k_ = 0; k_ < %d; ++k_) {", V);
    em->ind++;
    line(em, "const int e_ = c_ * %d + k_;", V);
    line(em, "const int i_ = c_ * %d + t_ * %d + k_;", T * V, V);
    line(em, "(void)e_; (void)i_;");
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    line(em, "const %s v_ = %s;", at, ex_evc(em, x, c, rd->acc));
    if (rd->arg) {
        line(em, "const int32_t vi_ = (int32_t)(i_ & %" PRId64 ");", rd->nred - 1);
        red_update(em, rd, "acc_", "ai_", "v_", "vi_");
    } else {
        red_update(em, rd, "acc_", NULL, "v_", NULL);
    }
    tv_close_loop(em);
    tv_close_loop(em);
    int64_t wg = g < 32 ? g : 32;
    line(em, "#pragma unroll");
    line(em, "for (int off_ = %" PRId64 "; off_ > 0; off_ >>= 1) {", wg / 2);
    em->ind++;
    line(em, "const %s o_ = %s;", at, shfl(em, rd, "acc_", "off_"));
    if (rd->arg) {
        line(em, "const int32_t oi_ = __shfl_xor_sync(0xffffffffu, ai_, off_);");
        red_update(em, rd, "acc_", "ai_", "o_", "oi_");
    } else {
        red_update(em, rd, "acc_", NULL, "o_", NULL);
    }
    tv_close_loop(em);
    line(em, "q_[j_] = acc_;");
    if (rd->arg) line(em, "qi_[j_] = ai_;");
    tv_close_loop(em);
    int64_t groups_per_row = T / g; /* groups in one chunk row of T threads */
    if (g > 32) {
        int64_t wpg = g / 32;
        line(em, "__shared__ %s sp_%d[%d][%d];", at, e->id, Q, T / 32);
        if (rd->arg) line(em, "__shared__ int32_t spi_%d[%d][%d];", e->id, Q, T / 32);
        /* In a loop, the previous iteration may still be reading sp_. */
        if (em->nloops > 0) line(em, "__syncthreads();");
        line(em, "if ((t_ & 31) == 0) {");
        em->ind++;
        line(em, "#pragma unroll");
        line(em, "for (int j_ = 0; j_ < %d; ++j_) { sp_%d[j_][t_ >> 5] = q_[j_];%s }", Q, e->id,
             rd->arg ? S(" spi_%d[j_][t_ >> 5] = qi_[j_];", e->id) : "");
        tv_close_loop(em);
        line(em, "__syncthreads();");
        line(em, "#pragma unroll");
        line(em, "for (int j_ = 0; j_ < %d; ++j_) {", Q);
        em->ind++;
        line(em, "%s acc_ = %s;", at, red_identity(em, rd));
        if (rd->arg) line(em, "int32_t ai_ = INT32_MAX;");
        line(em, "for (int w_ = 0; w_ < %" PRId64 "; ++w_) {", wpg);
        em->ind++;
        line(em, "const %s o_ = sp_%d[j_][(t_ / %" PRId64 ") * %" PRId64 " + w_];", at, e->id, g, wpg);
        if (rd->arg) {
            line(em, "const int32_t oi_ = spi_%d[j_][(t_ / %" PRId64 ") * %" PRId64 " + w_];", e->id, g, wpg);
            red_update(em, rd, "acc_", "ai_", "o_", "oi_");
        } else {
            red_update(em, rd, "acc_", NULL, "o_", NULL);
        }
        tv_close_loop(em);
        line(em, "q_[j_] = acc_;");
        if (rd->arg) line(em, "qi_[j_] = ai_;");
        tv_close_loop(em);
    }
    if (rd->nres == 1 && g == T) {
        /* One group spanning the block: every thread already holds the result. */
        red_distribute(em, e, rd, rd->arg ? "qi_" : "q_");
        return;
    }
    /* Every thread of a group now holds its group's result; share them. */
    line(em, "__shared__ %s sr_%d[%" PRId64 "];", rd->arg ? "int32_t" : at, e->id, rd->nres);
    line(em, "__syncthreads();");
    line(em, "if (t_ %% %" PRId64 " == 0) {", g);
    em->ind++;
    line(em, "#pragma unroll");
    line(em, "for (int j_ = 0; j_ < %d; ++j_) sr_%d[j_ * %" PRId64 " + t_ / %" PRId64 "] = %s[j_];", Q, e->id,
         groups_per_row, g, rd->arg ? "qi_" : "q_");
    tv_close_loop(em);
    line(em, "__syncthreads();");
    red_distribute(em, e, rd, S("sr_%d", e->id));
    em->smem_bytes += (int)(rd->nres * (dtype_bits(rd->acc) > 32 ? 8 : 4));
}

/* CUDA, any axes: the operand goes to shared memory (row-major, padded one
 * word in 32 against bank conflicts), and each result element is folded
 * from it by the thread that holds it. */
static void emit_reduce_generic(Emitter *em, Expr *e, const Red *rd)
{
    Expr *x = e->args[0];
    const char *at = acc_type(rd);
    Lay lx = tv_lay(em, &x->shape);
    line(em, "%s *sb_ = (%s *)s_red_;", at, at);
    line(em, "__syncthreads();");
    tv_open_loop(em, &x->shape);
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    if (lx.repl) line(em, "if (t_ < %" PRId64 ")", lx.n);
    line(em, "sb_[i_ + (i_ >> 5)] = %s;", ex_evc(em, x, c, rd->acc));
    tv_close_loop(em);
    line(em, "__syncthreads();");
    const char *name = em->tmp[e->id];
    tv_open_loop(em, &e->shape);
    line(em, "%s acc_ = %s;", at, red_identity(em, rd));
    if (rd->arg) line(em, "int32_t ai_ = INT32_MAX;");
    line(em, "for (int j_ = 0; j_ < %" PRId64 "; ++j_) {", rd->nred);
    em->ind++;
    line(em, "const int s_ = %s;", red_src(em, rd, &x->shape, "i_", "j_"));
    line(em, "const %s v_ = sb_[s_ + (s_ >> 5)];", at);
    if (rd->arg) red_update(em, rd, "acc_", "ai_", "v_", "j_");
    else red_update(em, rd, "acc_", NULL, "v_", NULL);
    tv_close_loop(em);
    Dtype from = rd->arg ? DT_INT32 : rd->acc;
    if (e->shape.rank == 0)
        line(em, "%s = %s;", name, val_st(em, e->dtype, val_conv(em, rd->arg ? "ai_" : "acc_", from, e->dtype)));
    else
        line(em, "%s[e_] = %s;", name, val_st(em, e->dtype, val_conv(em, rd->arg ? "ai_" : "acc_", from, e->dtype)));
    tv_close_loop(em);
}

static void red_emit(Emitter *em, Expr *e)
{
    Red rd = red_info(e);
    line(em, "{ /* tile_%s */", e->name);
    em->ind++;
    if (!em->cuda) {
        emit_reduce_host(em, e, &rd);
    } else {
        if (red_fast(em, e, &rd)) emit_reduce_fast(em, e, &rd, tv_lay(em, &e->args[0]->shape));
        else emit_reduce_generic(em, e, &rd);
    }
    em->ind--;
    line(em, "}");
    if (em->tmp_smem[e->id] && em->cuda) mem_write_mirror(em, em->tmp[e->id], &e->shape);
}

/* ---- gather, scatter, atomics -------------------------------------------- */

static const char *atomic_suffix(Dtype d)
{
    switch (d) {
    case DT_INT32: return "i32";
    case DT_UINT32: return "u32";
    case DT_INT64: return "i64";
    case DT_UINT64: return "u64";
    case DT_FLOAT32: return "f32";
    default: return "f64";
    }
}

/* Element-wise access of an array at index tiles: each element of the
 * operation's shape addresses array[idx0][idx1]...; out-of-bounds elements
 * read the padding (gather) or are skipped (scatter, atomics). */
static void mem_indexed(Emitter *em, Expr *e)
{
    const char *n = e->name;
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = e->args[0]->dtype;
    const char *ty = emit_storage_type(d);
    const Shape *s = &e->shape;
    Expr *iv = ex_opt(e, "index")->value;
    int rank = iv->kind == EX_LIST ? iv->nargs : 1;
    Lay l = tv_lay(em, s);
    line(em, "{ /* tile_%s %s */", n, e->args[0]->name);
    em->ind++;
    const char *cq = e->bi == BI_GATHER ? "const " : "";
    line(em, "%s%s *p_ = (%s%s *)%s.data;", cq, ty, cq, ty, arr);
    if (s->rank == 0) {
        line(em, "{");
        em->ind++;
        line(em, "const int i_ = 0;");
        line(em, "(void)i_;");
    } else {
        tv_open_loop(em, s);
    }
    Ctx c = {.shape = s, .idx = s->rank ? "i_" : "0", .home = s->rank > 0};
    char *inb = S("true"), *off = S("0");
    for (int k = 0; k < rank; k++) {
        Expr *x = iv->kind == EX_LIST ? iv->args[k] : iv;
        line(em, "const int64_t g%d_ = %s;", k, ex_evc(em, x, ex_sub_ctx(em, x, c), DT_INT64));
        inb = S("%s && g%d_ >= 0 && g%d_ < %s.shape[%d]", inb, k, k, arr, k);
        off = S("%s + g%d_ * %s.strides[%d]", off, k, arr, k);
    }
    const char *dst = s->rank ? S("%s[%s]", em->tmp[e->id] ? em->tmp[e->id] : "", tv_home_idx(em)) : em->tmp[e->id];
    if (e->bi == BI_GATHER) {
        line(em, "%s = (%s) ? p_[%s] : %s;", dst, inb, off, pad_value(em, d, ex_opt_int(e, "padding", 0)));
    } else {
        if (em->cuda && l.repl) inb = S("t_ < %" PRId64 " && %s", l.n, inb);
        char *v = val_st(em, d, ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), d));
        int mo = (int)ex_opt_int(e, "memory_order", 1), sc = (int)ex_opt_int(e, "scope", 2);
        if (e->bi == BI_SCATTER) {
            line(em, "if (%s) p_[%s] = %s;", inb, off, v);
        } else if (e->bi == BI_ATOMIC_CAS) {
            char *v2 = val_st(em, d, ex_evc(em, e->args[2], ex_sub_ctx(em, e->args[2], c), d));
            line(em, "%s = (%s) ? tilec_atomic_cas_%s(&p_[%s], %s, %s, %d, %d) : (%s)0;", dst, inb, atomic_suffix(d), off, v,
                 v2, mo, sc, ty);
        } else {
            line(em, "%s = (%s) ? tilec_%s_%s(&p_[%s], %s, %d, %d) : (%s)0;", dst, inb, n, atomic_suffix(d), off, v, mo, sc, ty);
        }
    }
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
    if (em->tmp[e->id] && em->tmp_smem[e->id] && em->cuda && s->rank) mem_write_mirror(em, em->tmp[e->id], s);
}

/* ---- scans ---------------------------------------------------------------- */

/* Inclusive or exclusive prefix sums/products along one axis: the operand
 * goes to a buffer (shared memory on the GPU, padded against bank
 * conflicts) and each result element folds its prefix from it. */
static void red_scan(Emitter *em, Expr *e)
{
    Expr *x = e->args[0];
    const Shape *s = &e->shape;
    int ax = (int)ex_opt_int(e, "axis", -1);
    if (ax < 0) ax += s->rank;
    bool excl = ex_opt_int(e, "exclusive", 0) != 0, rev = ex_opt_int(e, "reverse", 0) != 0;
    bool sum = e->bi == BI_CUMSUM;
    Dtype acc = e->dtype == DT_FLOAT16 || e->dtype == DT_BFLOAT16 ? DT_FLOAT32 : e->dtype;
    const char *at = acc == DT_FLOAT32 ? "float" : acc == DT_FLOAT64 ? "double" : dtype_host_type(acc);
    int64_t n = shape_numel(s), len = s->dim[ax], stride = 1;
    for (int q = ax + 1; q < s->rank; q++) stride *= s->dim[q];
    Lay l = tv_lay(em, s);
    line(em, "{ /* tile_%s */", e->name);
    em->ind++;
    const char *pad = em->cuda ? "+ ((%s) >> 5)" : "";
    (void)pad;
    if (em->cuda) {
        line(em, "%s *sb_ = (%s *)s_red_;", at, at);
        line(em, "__syncthreads();");
    } else {
        line(em, "%s sb_[%" PRId64 "];", at, n);
    }
    tv_open_loop(em, s);
    Ctx c = {.shape = s, .idx = "i_", .home = true};
    if (em->cuda && l.repl) line(em, "if (t_ < %" PRId64 ")", n);
    line(em, "sb_[i_%s] = %s;", em->cuda ? " + (i_ >> 5)" : "", ex_evc(em, x, ex_sub_ctx(em, x, c), acc));
    tv_close_loop(em);
    if (em->cuda) line(em, "__syncthreads();");
    tv_open_loop(em, s);
    line(em, "const int c_ = %s;", tv_coord(em, "i_", s, ax));
    line(em, "const int b_ = i_ - c_ * %" PRId64 ";", stride);
    ConstValue one = {.i = 1, .u = 1}, zero = {.i = 0};
    line(em, "%s acc_ = %s;", at, val_lit(em, sum ? &zero : &one, acc));
    line(em, "for (int k_ = 0; k_ < %" PRId64 "; ++k_) {", len);
    em->ind++;
    const char *cond = rev ? (excl ? "k_ > c_" : "k_ >= c_") : (excl ? "k_ < c_" : "k_ <= c_");
    line(em, "const int j_ = b_ + k_ * %" PRId64 ";", stride);
    const char *v = em->cuda ? "sb_[j_ + (j_ >> 5)]" : "sb_[j_]";
    if (dtype_is_float(acc))
        line(em, "if (%s) acc_ = acc_ %s %s;", cond, sum ? "+" : "*", v);
    else
        line(em, "if (%s) acc_ = (%s)((%s)acc_ %s (%s)%s);", cond, at, val_utype(acc), sum ? "+" : "*", val_utype(acc), v);
    tv_close_loop(em);
    line(em, "%s[%s] = %s;", em->tmp[e->id], tv_home_idx(em), val_st(em, e->dtype, val_conv(em, "acc_", acc, e->dtype)));
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
    if (em->tmp_smem[e->id] && em->cuda) mem_write_mirror(em, em->tmp[e->id], s);
}

/* ---- matrix multiply on tensor cores -------------------------------------- */

typedef struct MmaKind {
    const char *sty;   /* staging type in shared memory */
    const char *fmt;   /* compute value -> staging value */
    const char *frag;  /* WMMA element type */
    const char *cty;   /* accumulator type */
    int kk;            /* WMMA k */
    int esize;         /* staging element bytes */
    int pad;           /* row padding (elements) against bank conflicts */
    bool bits_match;   /* staging bits equal the storage bits (vector copy) */
    const char *raw;   /* 16-bit operands: the mma.sync helper (tilec_ops.h), not WMMA */
} MmaKind;

static MmaKind mma_kind(Dtype t)
{
    switch (t) {
    case DT_BFLOAT16: return (MmaKind){"__nv_bfloat16", "__float2bfloat16_rn(%s)", "__nv_bfloat16", "float", 16, 2, 8, true, "tilec_mma_bf16"};
    case DT_TFLOAT32: return (MmaKind){"float", "%s", "nvcuda::wmma::precision::tf32", "float", 8, 4, 4, true, NULL};
    case DT_INT8: return (MmaKind){"signed char", "(signed char)(%s)", "signed char", "int", 16, 1, 16, true, NULL};
    case DT_FLOAT16: return (MmaKind){"__half", "__float2half_rn(%s)", "__half", "float", 16, 2, 8, true, "tilec_mma_f16"};
    default: return (MmaKind){"__half", "__float2half_rn(%s)", "__half", "float", 16, 2, 8, false, "tilec_mma_f16"}; /* float8 */
    }
}

/* Accumulator fragments: float32 accumulators updated with 16-bit
 * operands (k = 16) use the mma.sync layout of tilec_ops.h, the others
 * (tf32, int8) WMMA's; every use of one variable's fragments agrees. */
static bool raw_acc(Dtype acc, int kk)
{
    return acc == DT_FLOAT32 && kk == 16;
}

static char *mma_frag_acc_type(Emitter *em, Dtype acc, int kk)
{
    if (raw_acc(acc, kk)) return S("tilec_frag_acc");
    return S("nvcuda::wmma::fragment<nvcuda::wmma::accumulator, 16, 16, %d, %s>", kk, acc == DT_INT32 ? "int" : "float");
}

/* Row stride (words) of a shared buffer that holds an M x N accumulator
 * while it moves between fragments and another layout (acc_move).  Rows of
 * N + 8 words put the eight row groups of an mma.sync fragment (N words
 * apart) on different banks: with rows of exactly N words (a multiple of
 * 32), every float2 of a warp's fragment access hit the same four banks, an
 * 8-way conflict (ncu, H100) in the prologue and epilogue of every
 * tile_mma K loop. */
static int64_t mma_acc_ld(int64_t N)
{
    return N + 8;
}

/* Statement setting every element of fragment f to the scalar v. */
static char *acc_fill(Emitter *em, Dtype acc, int kk, const char *f, const char *v)
{
    if (raw_acc(acc, kk)) return S("tilec_acc_fill(%s, %s);", f, v);
    return S("nvcuda::wmma::fill_fragment(%s, %s);", f, v);
}

/* Statement moving the 16x16 block at ptr (row stride ld) into fragment f,
 * or (store) back. */
static char *acc_move(Emitter *em, Dtype acc, int kk, bool store, const char *f, const char *ptr, int64_t ld)
{
    if (raw_acc(acc, kk))
        return store ? S("tilec_acc_store(%s, %s, %" PRId64 ");", ptr, f, ld) : S("tilec_acc_load(%s, %s, %" PRId64 ");", f, ptr, ld);
    return S("nvcuda::wmma::%s_matrix_sync(%s, %s, %" PRId64 ", nvcuda::wmma::mem_row_major);", store ? "store" : "load",
             store ? ptr : f, store ? f : ptr, ld);
}

/* Operand fragment type, load and product statements of kind k. */
static char *opnd_type(Emitter *em, const MmaKind *k, bool b)
{
    if (k->raw) return S(b ? "tilec_frag_b" : "tilec_frag_a");
    return S("nvcuda::wmma::fragment<nvcuda::wmma::%s, 16, 16, %d, %s, nvcuda::wmma::row_major>", b ? "matrix_b" : "matrix_a",
             k->kk, k->frag);
}

/* Loads fragment f with the 16x16 block at row r0, column c0 of the
 * operand at base (row stride ld).  swz: the operand is stored in the
 * swizzled layout of tilec_swz (ld columns, no padding), which only the
 * mma.sync path reads. */
static char *opnd_load(Emitter *em, const MmaKind *k, bool b, const char *f, const char *base, const char *r0,
                       const char *c0, int64_t ld, bool swz)
{
    if (k->raw && swz) return S("tilec_ldsm_%s_swz<%" PRId64 ">(%s, %s, %s, %s);", b ? "b" : "a", ld, f, base, r0, c0);
    char *ptr = S("%s + (%s) * %" PRId64 " + (%s)", base, r0, ld, c0);
    if (k->raw) return S("tilec_ldsm_%s(%s, %s, %" PRId64 ");", b ? "b" : "a", f, ptr, ld);
    return S("nvcuda::wmma::load_matrix_sync(%s, %s, %" PRId64 ");", f, ptr, ld);
}

static char *mma_stmt(Emitter *em, const MmaKind *k, const char *c, const char *a, const char *b)
{
    if (k->raw) return S("%s(%s, %s, %s);", k->raw, c, a, b);
    return S("nvcuda::wmma::mma_sync(%s, %s, %s, %s);", c, a, b, c);
}

/* Stages operand x (rows x cols, row stride ld) into shared buffer buf.
 * A tile already in registers with the staging bits is copied in vector
 * runs; anything else element by element. */
static void mma_stage(Emitter *em, Expr *x, const char *buf, const MmaKind *k, int64_t ld)
{
    Lay l = tv_lay(em, &x->shape);
    int64_t cols = x->shape.rank ? x->shape.dim[x->shape.rank - 1] : 1;
    const char *reg = NULL;
    if (x->kind == EX_NAME && x->sym && x->sym->kind == SYM_VAR) reg = tv_sym_name(em, x->sym);
    if (x->kind == EX_BUILTIN && x->bi == BI_LOAD) reg = em->tmp[x->id];
    if (em->cuda && reg && k->bits_match && !l.repl && l.V > 1) {
        const char *st = dtype_host_type(x->dtype);
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = r_ * %d + t_ * %d;", em->T * l.V, l.V);
        line(em, "tilec_vstore<%d>((%s *)%s + (i_ / %" PRId64 ") * %" PRId64 " + (i_ %% %" PRId64 "), %s, r_ * %d);", l.V, st,
             buf, cols, ld, cols, reg, l.V);
        tv_close_loop(em);
        return;
    }
    tv_open_loop(em, &x->shape);
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    char *v = ex_ev(em, x, ex_sub_ctx(em, x, c));
    if (em->cuda && l.repl) line(em, "if (t_ < %" PRId64 ")", l.n);
    line(em, "%s[(i_ / %" PRId64 ") * %" PRId64 " + (i_ %% %" PRId64 ")] = %s;", buf, cols, ld, cols, S(k->fmt, v));
    tv_close_loop(em);
}

/* How the warps share the 16x16 output blocks of an M x N tile_mma.  When
 * the blocks divide evenly, the warps form a wm x wn grid and each owns an
 * fm x fn rectangle of blocks, chosen to minimise fm + fn: per k step a
 * warp loads fm A and fn B fragments for fm * fn mma_sync (a 2x2 rectangle
 * loads 4 fragments for 4 products where a column of 4 loads 8).
 * Otherwise (fewer blocks than warps, or no fitting grid) warp w owns blocks
 * w, w + nw, ... in row-major order (fm = 0). */
typedef struct MmaTiling {
    int64_t blocks, bpw; /* blocks in all, per warp */
    int wn;              /* warps along N */
    int64_t fm, fn;      /* blocks per warp along M and N; fm = 0: 1-D */
} MmaTiling;

static MmaTiling mma_tiling(const Emitter *em, int64_t M, int64_t N)
{
    int nw = em->T / 32;
    int64_t bm = M / 16, bn = N / 16;
    MmaTiling g = {.blocks = bm * bn, .bpw = (bm * bn + nw - 1) / nw};
    for (int wm = 1; wm <= nw; wm *= 2) {
        int wn = nw / wm;
        if (wm * wn != nw || bm % wm || bn % wn) continue;
        int64_t fm = bm / wm, fn = bn / wn;
        if (!g.fm || fm + fn < g.fm + g.fn) g.fm = fm, g.fn = fn, g.wn = wn;
    }
    return g;
}

/* Declares tm_ and tn_, the block row and column of fragment b_ of this
 * warp, inside a `for (b_ ...)` loop over g.bpw. */
static void frag_coords(Emitter *em, const MmaTiling *g, int64_t N)
{
    int nw = em->T / 32;
    if (g->fm) {
        line(em, "const int tm_ = ((t_ >> 5) / %d) * %" PRId64 " + b_ / %" PRId64 ";", g->wn, g->fm, g->fn);
        line(em, "const int tn_ = ((t_ >> 5) %% %d) * %" PRId64 " + b_ %% %" PRId64 ";", g->wn, g->fn, g->fn);
        return;
    }
    line(em, "const int tile_ = (t_ >> 5) + b_ * %d;", nw);
    if (g->blocks % nw) line(em, "if (tile_ >= %" PRId64 ") break;", g->blocks);
    line(em, "const int tm_ = tile_ / %" PRId64 ", tn_ = tile_ %% %" PRId64 ";", N / 16, N / 16);
}

/* A warp's A fragments fa[0 .. fm-1] and B fragments fb[0 .. fn-1] of k
 * step kk, for the 2-D tiling. */
static void frag_loads(Emitter *em, const MmaKind *k, const MmaTiling *g, int64_t lda, int64_t ldb, bool swz,
                       const char *fa, const char *fb, const char *kk)
{
    if (k->raw && swz) {
        /* from the lanes' addresses ta_ and tb_ of the warp's first blocks */
        line(em, "#pragma unroll");
        line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_) tilec_ldsm_a_at<%" PRId64 ">(%s[i_], ta_, i_ * 16, %s);", g->fm, lda,
             fa, kk);
        line(em, "#pragma unroll");
        line(em, "for (int j_ = 0; j_ < %" PRId64 "; ++j_) tilec_ldsm_b_at<%" PRId64 ">(%s[j_], tb_, %s, j_ * 16);", g->fn, ldb,
             fb, kk);
        return;
    }
    line(em, "#pragma unroll");
    line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_) %s", g->fm,
         opnd_load(em, k, false, S("%s[i_]", fa), "sa_", "(wm_ + i_) * 16", kk, lda, swz));
    line(em, "#pragma unroll");
    line(em, "for (int j_ = 0; j_ < %" PRId64 "; ++j_) %s", g->fn,
         opnd_load(em, k, true, S("%s[j_]", fb), "sb_", kk, "(wn_ + j_) * 16", ldb, swz));
}

/* The fm x fn products of a warp's rectangle. */
static void frag_products(Emitter *em, const MmaKind *k, const MmaTiling *g, const char *cf, const char *fa,
                          const char *fb)
{
    line(em, "#pragma unroll");
    line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_)", g->fm);
    line(em, "    #pragma unroll");
    line(em, "    for (int j_ = 0; j_ < %" PRId64 "; ++j_)", g->fn);
    line(em, "        %s", mma_stmt(em, k, S("%s[i_ * %" PRId64 " + j_]", cf, g->fn), S("%s[i_]", fa), S("%s[j_]", fb)));
}

/* The products of one K block: sa_ (K columns, row stride lda) times sb_
 * (N columns, row stride ldb), both in shared memory (swz: in tilec_swz's
 * layout, lda == K and ldb == N), added to the warps' accumulator
 * fragments cf (g->bpw of them per warp). */
static void mma_products(Emitter *em, const MmaKind *k, const MmaTiling *g, int64_t N, int64_t K, int64_t lda,
                         int64_t ldb, bool swz, const char *cf)
{
    if (g->fm) {
        /* k outer: each A and B fragment is loaded once per k step and
         * used for a whole row or column of the warp's rectangle.  With
         * mma.sync and two or more k steps, the fragments of step k_ + 16
         * are loaded while the products of step k_ run (two register sets,
         * indices constant once unrolled). */
        bool two = k->raw && K >= 32;
        line(em, "{");
        em->ind++;
        line(em, "const int wm_ = ((t_ >> 5) / %d) * %" PRId64 ", wn_ = ((t_ >> 5) %% %d) * %" PRId64 ";", g->wn, g->fm,
             g->wn, g->fn);
        if (k->raw && swz) {
            /* The lanes' ldmatrix addresses for the warp's first A and B
             * blocks; every other block is a constant step away
             * (tilec_swz_step: wn_ is a multiple of fn, a power of two, so
             * the warp's column offset and the step's share no bits). */
            line(em, "const unsigned ta_ = (unsigned)__cvta_generic_to_shared(sa_) + tilec_ldsm_off_swz<%" PRId64
                     ">(wm_ * 16, 0);", lda);
            line(em, "const unsigned tb_ = (unsigned)__cvta_generic_to_shared(sb_) + tilec_ldsm_off_swz<%" PRId64
                     ">(0, wn_ * 16);", ldb);
        }
        if (two) {
            line(em, "%s fa_[2][%" PRId64 "];", opnd_type(em, k, false), g->fm);
            line(em, "%s fb_[2][%" PRId64 "];", opnd_type(em, k, true), g->fn);
            frag_loads(em, k, g, lda, ldb, swz, "fa_[0]", "fb_[0]", "0");
        }
        line(em, "#pragma unroll");
        line(em, "for (int k_ = 0; k_ < %" PRId64 "; k_ += %d) {", K, k->kk);
        em->ind++;
        if (two) {
            line(em, "if (k_ + 16 < %" PRId64 ") {", K);
            em->ind++;
            frag_loads(em, k, g, lda, ldb, swz, "fa_[((k_ >> 4) + 1) & 1]", "fb_[((k_ >> 4) + 1) & 1]", "k_ + 16");
            tv_close_loop(em);
            frag_products(em, k, g, cf, "fa_[(k_ >> 4) & 1]", "fb_[(k_ >> 4) & 1]");
        } else {
            line(em, "%s fa_[%" PRId64 "];", opnd_type(em, k, false), g->fm);
            line(em, "%s fb_[%" PRId64 "];", opnd_type(em, k, true), g->fn);
            frag_loads(em, k, g, lda, ldb, swz, "fa_", "fb_", "k_");
            frag_products(em, k, g, cf, "fa_", "fb_");
        }
        tv_close_loop(em);
        em->ind--;
        line(em, "}");
        return;
    }
    line(em, "#pragma unroll");
    line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g->bpw);
    em->ind++;
    frag_coords(em, g, N);
    line(em, "#pragma unroll");
    line(em, "for (int k_ = 0; k_ < %" PRId64 "; k_ += %d) {", K, k->kk);
    em->ind++;
    line(em, "%s fa_;", opnd_type(em, k, false));
    line(em, "%s fb_;", opnd_type(em, k, true));
    line(em, "%s", opnd_load(em, k, false, "fa_", "sa_", "tm_ * 16", "k_", lda, swz));
    line(em, "%s", opnd_load(em, k, true, "fb_", "sb_", "k_", "tn_ * 16", ldb, swz));
    line(em, "%s", mma_stmt(em, k, S("%s[b_]", cf), "fa_", "fb_"));
    tv_close_loop(em);
    tv_close_loop(em);
}

/* Stages a and b; each warp then runs the WMMA k loop for its 16x16 output
 * blocks.  When frag is set the accumulator lives in that symbol's
 * per-warp fragments; otherwise in the shared buffer sc_ (row stride N). */
static void mma_core(Emitter *em, Expr *e, const char *frag_sym)
{
    Expr *a = e->args[0], *b = e->args[1];
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    MmaKind k = mma_kind(a->dtype);
    int64_t lda = K + k.pad, ldb = N + k.pad;
    line(em, "%s *sa_ = (%s *)s_mma_;", k.sty, k.sty);
    line(em, "%s *sb_ = sa_ + %" PRId64 ";", k.sty, M * lda);
    line(em, "__syncthreads();");
    mma_stage(em, a, "sa_", &k, lda);
    mma_stage(em, b, "sb_", &k, ldb);
    Dtype cdt = a->dtype == DT_INT8 ? DT_INT32 : DT_FLOAT32;
    int64_t ldc = mma_acc_ld(N);
    bool acc_in = !frag_sym && e->nargs > 2;
    if (acc_in) {
        line(em, "%s *sc_ = (%s *)(sb_ + %" PRId64 ");", k.cty, k.cty, K * ldb);
        MmaKind ck = {.fmt = "%s"};
        mma_stage(em, e->args[2], "sc_", &ck, ldc);
    }
    line(em, "__syncthreads();");
    MmaTiling g = mma_tiling(em, M, N);
    if (!frag_sym) {
        /* the accumulator in fragments c_: the given one, or zeros */
        line(em, "%s c_[%" PRId64 "];", mma_frag_acc_type(em, cdt, k.kk), g.bpw);
        line(em, "#pragma unroll");
        line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g.bpw);
        em->ind++;
        if (acc_in) {
            frag_coords(em, &g, N);
            line(em, "%s", acc_move(em, cdt, k.kk, false, "c_[b_]", S("sc_ + tm_ * %" PRId64 " + tn_ * 16", 16 * ldc), ldc));
        } else {
            line(em, "%s", acc_fill(em, cdt, k.kk, "c_[b_]", "0"));
        }
        tv_close_loop(em);
    }
    mma_products(em, &k, &g, N, K, lda, ldb, false, frag_sym ? frag_sym : "c_");
    if (!frag_sym) {
        if (!acc_in) line(em, "%s *sc_ = (%s *)(sb_ + %" PRId64 ");", k.cty, k.cty, K * ldb);
        line(em, "#pragma unroll");
        line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g.bpw);
        em->ind++;
        frag_coords(em, &g, N);
        line(em, "%s", acc_move(em, cdt, k.kk, true, "c_[b_]", S("sc_ + tm_ * %" PRId64 " + tn_ * 16", 16 * ldc), ldc));
        tv_close_loop(em);
    }
    line(em, "__syncthreads();");
}

/* acc + a @ b into the temporary of e.  CUDA: operands staged row-major in
 * shared memory (rows padded against bank conflicts), WMMA (mma.sync on the
 * tensor cores) per warp; float8 goes through float16 (exactly).  Host:
 * float dot products (int64 for int8). */
static void mma_emit(Emitter *em, Expr *e)
{
    Expr *a = e->args[0], *b = e->args[1], *acc = e->nargs > 2 ? e->args[2] : NULL;
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    bool integer = a->dtype == DT_INT8;
    const char *name = em->tmp[e->id];
    line(em, "{ /* tile_%s %lldx%lldx%lld */", e->name, (long long)M, (long long)N, (long long)K);
    em->ind++;
    if (!em->cuda) {
        const char *at = integer ? "int64_t" : "float";
        MmaKind hk = {.fmt = "%s"};
        line(em, "%s sa_[%" PRId64 "], sb_[%" PRId64 "];", integer ? "int32_t" : "float", M * K, K * N);
        mma_stage(em, a, "sa_", &hk, K);
        mma_stage(em, b, "sb_", &hk, N);
        line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_) {", M * N);
        em->ind++;
        line(em, "const int m_ = i_ / %" PRId64 ", n_ = i_ %% %" PRId64 ";", N, N);
        Ctx c = {.shape = &e->shape, .idx = "i_", .home = true};
        line(em, "%s s_ = %s;", at, acc ? ex_evc(em, acc, ex_sub_ctx(em, acc, c), integer ? DT_INT64 : DT_FLOAT32) : "0");
        line(em, "for (int k_ = 0; k_ < %" PRId64 "; ++k_) s_ += (%s)sa_[m_ * %" PRId64 " + k_] * (%s)sb_[k_ * %" PRId64 " + n_];",
             K, at, K, at, N);
        line(em, "%s[i_] = %s;", name, integer ? "(int32_t)s_" : "s_");
        tv_close_loop(em);
        em->ind--;
        line(em, "}");
        return;
    }
    mma_core(em, e, NULL);
    MmaKind k = mma_kind(a->dtype);
    line(em, "const %s *scr_ = (const %s *)((%s *)s_mma_ + %" PRId64 ");", k.cty, k.cty, k.sty, M * (K + k.pad) + K * (N + k.pad));
    tv_open_loop(em, &e->shape);
    line(em, "%s[e_] = scr_[(i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 "];", name, N, mma_acc_ld(N), N);
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
    if (em->tmp_smem[e->id]) mem_write_mirror(em, name, &e->shape);
}

/* The shared bytes an mma needs: staging of a and b, and the accumulator. */
static int64_t mma_bytes(const Expr *e)
{
    const Expr *a = e->args[0], *b = e->args[1];
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    MmaKind k = mma_kind(a->dtype);
    return (M * (K + k.pad) + K * (N + k.pad)) * k.esize + M * mma_acc_ld(N) * 4 + 64;
}

/* ---- fragment-resident accumulators --------------------------------------
 * A variable assigned only by `v = tile_mma(a, b, v)` keeps its value in the
 * warps' WMMA accumulator fragments across the K loop; its registers are
 * refreshed from the fragments (through shared memory) before a statement
 * that reads it otherwise. */

static bool mma_is_frag_update(const Stmt *st)
{
    return st->kind == ST_ASSIGN && st->op < 0 && st->value->kind == EX_BUILTIN && st->value->bi == BI_MMA &&
           st->value->args[2]->kind == EX_NAME && st->value->args[2]->sym == st->target->sym;
}

/* Whether e reads symbol sym (the accumulator argument of a fragment update
 * excepted, passed as skip). */
static bool ex_reads(const Expr *e, const Symbol *sym, const Expr *skip)
{
    if (!e || e == skip) return false;
    if (e->kind == EX_NAME && e->sym == sym) return true;
    if (ex_reads(e->a, sym, skip) || ex_reads(e->b, sym, skip) || ex_reads(e->c, sym, skip)) return true;
    for (int i = 0; i < e->nargs; i++)
        if (ex_reads(e->args[i], sym, skip)) return true;
    for (int i = 0; i < e->nopts; i++)
        if (ex_reads(e->opts[i].value, sym, skip)) return true;
    return false;
}

static void mma_frag_to_registers(Emitter *em, Symbol *sym)
{
    const char *name = tv_sym_name(em, sym);
    int64_t M = sym->shape.dim[0], N = sym->shape.dim[1];
    MmaTiling g = mma_tiling(em, M, N);
    const char *cty = sym->dtype == DT_INT32 ? "int" : "float";
    line(em, "{ /* %s: fragments -> registers */", sym->name);
    em->ind++;
    line(em, "%s *sc_ = (%s *)s_mma_;", cty, cty);
    line(em, "__syncthreads();");
    line(em, "#pragma unroll");
    line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g.bpw);
    em->ind++;
    frag_coords(em, &g, N);
    line(em, "%s", acc_move(em, sym->dtype, em->sym_kk[sym->id], true, S("f%s[b_]", name),
                            S("sc_ + tm_ * %" PRId64 " + tn_ * 16", 16 * mma_acc_ld(N)), mma_acc_ld(N)));
    tv_close_loop(em);
    line(em, "__syncthreads();");
    Lay l = tv_lay(em, &sym->shape);
    if (!l.repl && l.V % 4 == 0 && N % l.V == 0) {
        /* A thread's runs of V elements lie in one buffer row, 16-byte
         * aligned (rows of N + 8 words): read them four words at a time. */
        const char *vty = sym->dtype == DT_INT32 ? "int4" : "float4";
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = r_ * %d + t_ * %d;", em->T * l.V, l.V);
        line(em, "#pragma unroll");
        line(em, "for (int q_ = 0; q_ < %d; q_ += 4) {", l.V);
        em->ind++;
        line(em, "const %s u_ = *(const %s *)(sc_ + (i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 " + q_);", vty, vty, N,
             mma_acc_ld(N), N);
        line(em, "%s[r_ * %d + q_] = u_.x; %s[r_ * %d + q_ + 1] = u_.y;", name, l.V, name, l.V);
        line(em, "%s[r_ * %d + q_ + 2] = u_.z; %s[r_ * %d + q_ + 3] = u_.w;", name, l.V, name, l.V);
        tv_close_loop(em);
        tv_close_loop(em);
    } else {
        tv_open_loop(em, &sym->shape);
        line(em, "%s[e_] = sc_[(i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 "];", name, N, mma_acc_ld(N), N);
        tv_close_loop(em);
    }
    em->ind--;
    line(em, "}");
    if (em->sym_smem[sym->id]) mem_write_mirror(em, name, &sym->shape);
}

/* The value of an accumulator's initialiser that is the same for every
 * element (tile_zeros, tile_ones, tile_full with a scalar), as C text of
 * the accumulator's type (the factory's own evaluation at element 0);
 * NULL otherwise. */
static char *uniform_init(Emitter *em, Expr *e, Dtype d)
{
    if (!e || e->kind != EX_BUILTIN) return NULL;
    bool uniform = e->bi == BI_ZEROS || e->bi == BI_ONES ||
                   (e->bi == BI_FULL && e->nargs > 1 && e->args[1]->shape.rank == 0);
    if (!uniform) return NULL;
    Ctx c = {.shape = &e->shape, .idx = "0"};
    return ex_evc(em, e, c, d);
}

/* The fragments of sym start as init: a uniform value is written into
 * them directly; anything else goes registers -> shared -> fragments. */
static void mma_registers_to_frag(Emitter *em, Symbol *sym, Expr *init)
{
    const char *name = tv_sym_name(em, sym);
    char *u = uniform_init(em, init, sym->dtype);
    if (u) {
        MmaTiling g = mma_tiling(em, sym->shape.dim[0], sym->shape.dim[1]);
        line(em, "#pragma unroll");
        line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) /* %s: uniform start, straight into the fragments */", g.bpw,
             sym->name);
        line(em, "    %s", acc_fill(em, sym->dtype, em->sym_kk[sym->id], S("f%s[b_]", name), u));
        return;
    }
    int64_t M = sym->shape.dim[0], N = sym->shape.dim[1];
    MmaTiling g = mma_tiling(em, M, N);
    const char *cty = sym->dtype == DT_INT32 ? "int" : "float";
    line(em, "{ /* %s: registers -> fragments */", sym->name);
    em->ind++;
    line(em, "%s *sc_ = (%s *)s_mma_;", cty, cty);
    line(em, "__syncthreads();");
    tv_open_loop(em, &sym->shape);
    Lay l = tv_lay(em, &sym->shape);
    if (l.repl) line(em, "if (t_ < %" PRId64 ")", l.n);
    line(em, "sc_[(i_ / %" PRId64 ") * %" PRId64 " + i_ %% %" PRId64 "] = %s[e_];", N, mma_acc_ld(N), N, name);
    tv_close_loop(em);
    line(em, "__syncthreads();");
    line(em, "#pragma unroll");
    line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g.bpw);
    em->ind++;
    frag_coords(em, &g, N);
    line(em, "%s", acc_move(em, sym->dtype, em->sym_kk[sym->id], false, S("f%s[b_]", name),
                            S("sc_ + tm_ * %" PRId64 " + tn_ * 16", 16 * mma_acc_ld(N)), mma_acc_ld(N)));
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
}

/* Materialises the loads and calls inside e, innermost first. */
static void body_hoist(Emitter *em, Expr *e)
{
    if (!e || (e->is_const && e->shape.rank == 0)) return;
    if (e->kind == EX_CALL) {
        mem_call(em, e);
        return;
    }
    if (e->kind == EX_BUILTIN) {
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MEM:
            if (e->bi == BI_STORE) return; /* its statement stores it */
            for (int i = 0; i < e->nopts; i++) body_hoist(em, e->opts[i].value);
            mem_load(em, e);
            return;
        case BCLASS_REDUCE:
            body_hoist(em, e->args[0]);
            red_emit(em, e);
            return;
        case BCLASS_INDEXED:
            for (int i = 1; i < e->nargs; i++) body_hoist(em, e->args[i]);
            body_hoist(em, ex_opt(e, "index")->value);
            mem_indexed(em, e);
            return;
        case BCLASS_MMA:
            for (int i = 0; i < e->nargs; i++) body_hoist(em, e->args[i]);
            mma_emit(em, e);
            return;
        case BCLASS_SCAN:
            body_hoist(em, e->args[0]);
            red_scan(em, e);
            return;
        case BCLASS_FACTORY: case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE:
        case BCLASS_SHAPE: case BCLASS_QUERY:
            break; /* element-wise: its operands may hold materialised values */
        }
    }
    body_hoist(em, e->a);
    body_hoist(em, e->b);
    body_hoist(em, e->c);
    for (int i = 0; i < e->nargs; i++) body_hoist(em, e->args[i]);
}

/* Shared memory one block may have on sm_XX (opt-in limit). */
static int pipeline_smem_limit(int arch)
{
    switch (arch) {
    case 0: case 80: case 87: return 163 * 1024;
    case 86: case 89: case 120: case 121: return 99 * 1024;
    case 90: case 100: case 101: case 103: return 227 * 1024;
    default: return arch < 80 ? 64 * 1024 : 99 * 1024;
    }
}

/* ---- pipelined K loops ---------------------------------------------------
 * For a loop pipeline.c accepts, the operand tiles of K step j are copied
 * global -> shared memory (cp.async when ALIGNED, zero-filled past the
 * array's edges) into stage j % S of a ring of S buffers, S - 1 steps ahead
 * of the products that read them.  One barrier per step both publishes
 * stage j to every warp and retires mma_stage (j - 1) % S, which the copies
 * issued right after it overwrite.  The accumulator stays in fragments. */

/* A stage holds the A operand (M x K) then the B operand (K x N), 16-bit
 * elements in tilec_swz's layout (tilec_ops.h): rows unpadded, each row's
 * 16-byte runs permuted by an XOR so that neither the ldmatrix reads (eight
 * rows at one column) nor the cp.async writes (eight consecutive runs of a
 * 128-byte line) collide on a bank.  Tile dimensions are powers of two and
 * tile_mma's K and N at least 16, so every operand row has 2^k runs, which
 * tilec_swz takes.  The layout it replaced, rows padded by 16 bytes, kept
 * ldmatrix conflict-free but not the copies: measured on the H100 (ncu),
 * they took 2.6-3.75 times their ideal shared-memory wavefronts, over half
 * of the K loop's, and 4096^3 bf16 went from 309 to 353 TFLOP/s. */
static int64_t pipe_stage_elems(const PipeLoop *pl)
{
    return pl->M * pl->K + pl->K * pl->N;
}

/* Blocks per SM that the registers allow: the fragment accumulator (M N / T
 * floats per thread) plus about 64 registers of operand fragments and
 * addresses, out of 64 K registers per SM.  --min-blocks=N asks nvcc to fit
 * N blocks (capping registers), so the stages must leave room for N too. */
static int64_t pipe_blocks_per_sm(const Emitter *em, const PipeLoop *pl)
{
    int64_t regs = pl->M * pl->N / em->T + 64;
    int64_t blocks = 65536 / (regs * em->T);
    if (blocks < em->co->min_blocks) blocks = em->co->min_blocks;
    return blocks < 1 ? 1 : blocks;
}

/* As many stages as fit, up to four, in the shared memory one block may
 * have when that many blocks share an SM.  A block whose accumulator keeps
 * it alone on its SM (128 x 256 on 256 threads) gets the whole opt-in
 * limit; deeper rings hide more of the global-memory latency behind the
 * products. */
static int pipe_stages(const Emitter *em, const PipeLoop *pl)
{
    int64_t b = pipe_stage_elems(pl) * 2;
    int64_t blocks = pipe_blocks_per_sm(em, pl);
    int64_t budget = (pipeline_smem_limit(em->co->arch) - 2048) / blocks;
    for (int s = 4; s > 2; s--)
        if (s * b <= budget) return s;
    return 2;
}

static int64_t pipe_bytes(const Emitter *em, const PipeLoop *pl)
{
    return pipe_stages(em, pl) * pipe_stage_elems(pl) * 2 + 64;
}

/* The copies of operand load l (rows x cols) into dst (tilec_swz<cols>'s
 * layout): one 16-byte run of 8 elements per thread and repetition.
 * Consecutive threads copy consecutive runs of a row, so eight of them fill
 * one 128-byte line of shared memory and read whole sectors of global
 * memory. */
static void pipe_issue(Emitter *em, Expr *l, const char *dst, int64_t rows, int64_t cols)
{
    const char *arr = S("p_%s", l->args[0]->name);
    Expr *iv = ex_opt(l, "index")->value;
    line(em, "{ /* tile_load %s, asynchronously */", l->args[0]->name);
    em->ind++;
    for (int d = 0; d < 2; d++) {
        Expr *x = iv->args[d];
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t o%d_ = (int64_t)(%s) * %" PRId64 ";", d, ex_evc(em, x, c, DT_INT64), d ? cols : rows);
    }
    int64_t runs = rows * cols / 8, per_row = cols / 8, reps = (runs + em->T - 1) / em->T;
    line(em, "const bool full_ = o0_ >= 0 && o0_ + %" PRId64 " <= %s.shape[0] && o1_ >= 0 && o1_ + %" PRId64 " <= %s.shape[1];",
         rows, arr, cols, arr);
    /* Whole tiles (all but the edges) need no bounds arithmetic per run;
     * when the threads cover whole rows, thread t's runs are one column
     * apart by a fixed number of rows, so its addresses step by constants. */
    bool stepping = em->T % per_row == 0;
    for (int whole = 1; whole >= 0; whole--) {
        line(em, whole ? "if (ALIGNED && full_) {" : "} else {");
        em->ind++;
        if (whole && stepping) {
            int64_t rstep = em->T / per_row;
            line(em, "const int row_ = t_ / %" PRId64 ", col_ = (t_ %% %" PRId64 ") * 8;", per_row, per_row);
            line(em, "const uint16_t *g_ = (const uint16_t *)%s.data + (o0_ + row_) * %s.strides[0] + o1_ + col_;", arr, arr);
            line(em, "const int64_t gs_ = %" PRId64 " * %s.strides[0];", rstep, arr);
            if (rstep % 8 == 0) line(em, "const int so_ = tilec_swz<%" PRId64 ">(row_, col_);", cols);
            line(em, "#pragma unroll");
            line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
            em->ind++;
            if (runs % em->T) line(em, "if (r_ * %d + t_ >= %" PRId64 ") break;", em->T, runs);
            if (rstep % 8 == 0) /* s(row) repeats every 8 rows: one swizzle for all runs */
                line(em, "tilec_pipe_copy16(%s + so_ + r_ * %" PRId64 ", g_ + r_ * gs_);", dst, rstep * cols);
            else
                line(em, "tilec_pipe_copy16(%s + tilec_swz<%" PRId64 ">(row_ + r_ * %" PRId64 ", col_), g_ + r_ * gs_);", dst,
                     cols, rstep);
            tv_close_loop(em);
            em->ind--;
            continue;
        }
        if (whole) line(em, "const uint16_t *g_ = (const uint16_t *)%s.data + o0_ * %s.strides[0] + o1_;", arr, arr);
        /* The edge copies (and every copy of the unaligned specialization,
         * which reads element by element with bounds checks) stay a loop:
         * unrolled, their addresses and checks competed with the
         * accumulators for registers, and ptxas spilled the accumulators
         * of the large tiles.  They run on the edges only, or on arrays
         * that cannot take vector copies at all. */
        line(em, whole ? "#pragma unroll" : "#pragma unroll 1");
        line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
        em->ind++;
        line(em, "const int c_ = r_ * %d + t_;", em->T);
        if (runs % em->T) line(em, "if (c_ >= %" PRId64 ") break;", runs);
        line(em, "const int row_ = c_ / %" PRId64 ", col_ = (c_ %% %" PRId64 ") * 8;", per_row, per_row);
        const char *d = S("tilec_swz<%" PRId64 ">(row_, col_)", cols);
        if (whole)
            line(em, "tilec_pipe_copy16(%s + %s, g_ + row_ * %s.strides[0] + col_);", dst, d, arr);
        else
            line(em, "tilec_pipe_copy8<ALIGNED>(%s + %s, (const uint16_t *)%s.data, o0_ + row_, "
                     "o1_ + col_, %s.shape[0], %s.shape[1], %s.strides[0], %s.strides[1]);",
                 dst, d, arr, arr, arr, arr, arr);
        tv_close_loop(em);
        em->ind--;
    }
    line(em, "}");
    em->ind--;
    line(em, "}");
}

/* Sets the loop counter to step j's value and issues that step's copies. */
static void pipe_issue_step(Emitter *em, const PipeLoop *pl, const char *j, const char *slot)
{
    line(em, "%s = (%s)(pk0_ + %s);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype), j);
    line(em, "uint16_t *pd_ = ps_ + %s * %" PRId64 ";", slot, pipe_stage_elems(pl));
    pipe_issue(em, pl->load[0], "pd_", pl->M, pl->K);
    pipe_issue(em, pl->load[1], S("(pd_ + %" PRId64 ")", pl->M * pl->K), pl->K, pl->N);
}

/* Inside the K loop: issues step ks_ + stages - 1 (if there is one) into
 * the slot before rs_, the one step ks_ - 1 read, and commits the group
 * (empty past the end, so that the waits keep counting steps). */
static void pipe_issue_ahead(Emitter *em, const PipeLoop *pl, int stages)
{
    line(em, "const int64_t kn_ = ks_ + %d;", stages - 1);
    line(em, "if (kn_ < pn_) {");
    em->ind++;
    pipe_issue_step(em, pl, "kn_", S("(rs_ == 0 ? %d : rs_ - 1)", stages - 1));
    tv_close_loop(em);
    line(em, "tilec_pipe_commit();");
}

static void pipeline_emit_for(Emitter *em, Stmt *st, const PipeLoop *pl)
{
    int stages = pipe_stages(em, pl);
    MmaKind mk = mma_kind(pl->dtype);
    MmaTiling g = mma_tiling(em, pl->M, pl->N);
    const char *kn = tv_sym_name(em, pl->k);
    line(em, "{ /* K loop: tile_mma operands copied %d step%s ahead (%d stages) */", stages - 1, stages > 2 ? "s" : "", stages);
    em->ind++;
    if (st->init_s)
        for (int i = 0; i < st->init_s->nitems; i++) body_stmt(em, st->init_s->items[i]);
    emit_line(em->o, em->co, st->cond->loc);
    Ctx c = {.shape = &pl->hi->shape, .idx = "0"};
    line(em, "const int64_t pk0_ = (int64_t)%s;", kn);
    line(em, "const int64_t pe_ = (int64_t)(%s);", ex_evc(em, pl->hi, c, DT_INT64));
    line(em, "const int64_t pn_ = pe_ > pk0_ ? pe_ - pk0_ : 0;");
    line(em, "uint16_t *ps_ = (uint16_t *)s_mma_;");
    line(em, "__syncthreads();"); /* the buffer may have served a conversion */
    line(em, "for (int ks_ = 0; ks_ < %d; ++ks_) {", stages - 1);
    em->ind++;
    line(em, "if (ks_ < pn_) {");
    em->ind++;
    pipe_issue_step(em, pl, "ks_", "ks_");
    tv_close_loop(em);
    line(em, "tilec_pipe_commit();");
    tv_close_loop(em);
    /* Where a step's copies go: with two or more blocks per SM, after the
     * products (the other block's products cover this one's copy issue,
     * and the copies' address registers are not reused right away by the
     * fragment loads, which stalled on them: 4096^3 bf16 on 4 warps,
     * 128x128x64, 348 -> 330 us on the H100); alone on its SM, the block
     * issues them first, which measured faster there (352 vs 360 us at
     * 128x256x64 on 8 warps). */
    bool late = pipe_blocks_per_sm(em, pl) >= 2;
    /* rs_: the slot step ks_ reads; the step issued now, ks_ + stages - 1,
     * goes to the slot before it (counters, not a 64-bit modulo per step) */
    line(em, "int rs_ = 0;");
    line(em, "for (int64_t ks_ = 0; ks_ < pn_; ++ks_) {");
    em->ind++;
    line(em, "tilec_pipe_wait<%d>();", stages - 2);
    line(em, "__syncthreads();");
    if (!late) pipe_issue_ahead(em, pl, stages);
    emit_line(em->o, em->co, pl->update->loc);
    line(em, "const %s *sa_ = (const %s *)(ps_ + rs_ * %" PRId64 ");", mk.sty, mk.sty, pipe_stage_elems(pl));
    line(em, "const %s *sb_ = sa_ + %" PRId64 ";", mk.sty, pl->M * pl->K);
    mma_products(em, &mk, &g, pl->N, pl->K, pl->K, pl->N, true, S("f%s", tv_sym_name(em, pl->acc)));
    if (late) pipe_issue_ahead(em, pl, stages);
    line(em, "rs_ = rs_ == %d ? 0 : rs_ + 1;", stages - 1);
    tv_close_loop(em);
    line(em, "tilec_pipe_wait<0>();");
    line(em, "__syncthreads();");
    line(em, "%s = (%s)(pk0_ + pn_);", kn, emit_storage_type(pl->k->dtype));
    em->ind--;
    line(em, "}");
}

/* Finds the loops to pipeline (the accumulator must be in fragments) and
 * makes room for their buffers. */
static void pipeline_find(Emitter *em, Stmt *st)
{
    if (!st) return;
    PipeLoop pl;
    if (st->kind == ST_FOR && em->npipes < 16 && pipeline_match(st, &pl) && em->sym_frag[pl.acc->id]) {
        em->pipes[em->npipes++] = pl;
        int64_t bytes = pipe_bytes(em, &pl);
        if (bytes > em->mma_bytes) em->mma_bytes = bytes;
        return;
    }
    pipeline_find(em, st->then_s);
    pipeline_find(em, st->else_s);
    pipeline_find(em, st->body);
    for (int i = 0; i < st->nitems; i++) pipeline_find(em, st->items[i]);
}

/* ---- statements ---------------------------------------------------------- */

static char *scalar_cond(Emitter *em, Expr *c)
{
    body_hoist(em, c);
    Ctx cc = {.shape = &c->shape, .idx = "0"};
    return ex_evc(em, c, cc, DT_BOOL);
}

/* Whether a continue in st targets the loop st is the body of. */
static bool has_continue(const Stmt *st)
{
    if (!st) return false;
    if (st->kind == ST_CONTINUE) return true;
    if (st->kind == ST_FOR || st->kind == ST_WHILE) return false;
    if (has_continue(st->then_s) || has_continue(st->else_s)) return true;
    for (int i = 0; i < st->nitems; i++)
        if (has_continue(st->items[i])) return true;
    return false;
}

static void emit_loop_body(Emitter *em, Stmt *body, Stmt *step, int label)
{
    if (em->nloops == 64) {
        em->ok = false;
        return;
    }
    em->cont_label[em->nloops++] = label;
    body_stmt(em, body);
    em->nloops--;
    if (has_continue(body)) line(em, "cont%d_:;", label);
    if (step) body_stmt(em, step);
}

/* Refreshes the registers of every fragment accumulator the leaf statement
 * st reads (other than as the accumulator of its own update). */
static void refresh_frags(Emitter *em, Stmt *st)
{
    if (!em->cuda) return;
    const Expr *skip = mma_is_frag_update(st) && em->sym_frag[st->target->sym->id] ? st->value->args[2] : NULL;
    const Expr *roots[2] = {st->init, st->value}; /* sema desugared x op= v */
    for (int i = 0; i < em->k->nsyms; i++) {
        if (!em->sym_frag[i] || !em->syms[i]) continue;
        for (int r = 0; r < 2; r++)
            if (ex_reads(roots[r], em->syms[i], skip)) {
                mma_frag_to_registers(em, em->syms[i]);
                break;
            }
    }
}

static void body_stmt(Emitter *em, Stmt *st)
{
    if (!st) return;
    emit_line(em->o, em->co, st->loc);
    if (st->kind == ST_DECL || st->kind == ST_ASSIGN || st->kind == ST_EXPR || st->kind == ST_RETURN)
        refresh_frags(em, st);
    switch (st->kind) {
    case ST_DECL:
        mem_materialize(em, tv_sym_name(em, st->sym), st->sym->dtype, &st->sym->shape, st->init, em->sym_smem[st->sym->id]);
        if (em->sym_frag[st->sym->id]) mma_registers_to_frag(em, st->sym, st->init);
        return;
    case ST_ASSIGN: {
        Symbol *sym = st->target->sym;
        Expr *v = st->value;
        if (em->sym_frag[sym->id]) { /* v = tile_mma(a, b, v) on the fragments */
            body_hoist(em, v->args[0]);
            body_hoist(em, v->args[1]);
            line(em, "{ /* %s = tile_mma(..., %s) on tensor cores */", sym->name, sym->name);
            em->ind++;
            mma_core(em, v, S("f%s", tv_sym_name(em, sym)));
            em->ind--;
            line(em, "}");
            return;
        }
        mem_materialize(em, tv_sym_name(em, sym), sym->dtype, &sym->shape, v, em->sym_smem[sym->id]);
        return;
    }
    case ST_EXPR: {
        Expr *v = st->value;
        if (v->kind == EX_BUILTIN && v->bi == BI_STORE) {
            for (int i = 0; i < v->nopts; i++) body_hoist(em, v->opts[i].value);
            mem_store(em, v); /* materialises (and hoists) the stored value */
        } else {
            body_hoist(em, v); /* calls, scatter and atomics */
        }
        return;
    }
    case ST_IF: {
        char *c = scalar_cond(em, st->cond);
        line(em, "if (%s) {", c);
        em->ind++;
        body_stmt(em, st->then_s);
        em->ind--;
        if (st->else_s) {
            line(em, "} else {");
            em->ind++;
            body_stmt(em, st->else_s);
            em->ind--;
        }
        line(em, "}");
        return;
    }
    case ST_FOR: {
        for (int i = 0; i < em->npipes; i++)
            if (em->pipes[i].loop == st) {
                pipeline_emit_for(em, st, &em->pipes[i]);
                return;
            }
        int label = em->nlabels++;
        line(em, "{");
        em->ind++;
        if (st->init_s)
            for (int i = 0; i < st->init_s->nitems; i++) body_stmt(em, st->init_s->items[i]);
        line(em, "for (;;) {");
        em->ind++;
        if (st->cond) line(em, "if (!(%s)) break;", scalar_cond(em, st->cond));
        emit_loop_body(em, st->body, st->step_s, label);
        em->ind--;
        line(em, "}");
        em->ind--;
        line(em, "}");
        return;
    }
    case ST_WHILE: {
        int label = em->nlabels++;
        line(em, "for (;;) {");
        em->ind++;
        line(em, "if (!(%s)) break;", scalar_cond(em, st->cond));
        emit_loop_body(em, st->body, NULL, label);
        em->ind--;
        line(em, "}");
        return;
    }
    case ST_RETURN:
        line(em, "return;");
        return;
    case ST_BLOCK:
        line(em, "{");
        em->ind++;
        for (int i = 0; i < st->nitems; i++) body_stmt(em, st->items[i]);
        em->ind--;
        line(em, "}");
        return;
    case ST_BREAK:
        line(em, "break;");
        return;
    case ST_CONTINUE:
        line(em, "goto cont%d_;", em->cont_label[em->nloops - 1]);
        return;
    }
}

/* ---- plan and body ------------------------------------------------------ */

static void plan_walk(const Stmt *st, int64_t *maxn, int *minsize);

static void plan_expr(const Expr *e, int64_t *maxn, int *minsize)
{
    if (!e) return;
    int64_t n = shape_numel(&e->shape);
    if (n > *maxn) *maxn = n;
    if (e->kind == EX_BUILTIN && builtin_info(e->bi)->cls == BCLASS_MEM) {
        int b = dtype_bits(e->args[0]->dtype) / 8;
        if (b > 0 && b < *minsize) *minsize = b;
    }
    plan_expr(e->a, maxn, minsize);
    plan_expr(e->b, maxn, minsize);
    plan_expr(e->c, maxn, minsize);
    for (int i = 0; i < e->nargs; i++) plan_expr(e->args[i], maxn, minsize);
    if (e->inl) plan_walk(e->inl->body, maxn, minsize);
}

static void plan_walk(const Stmt *st, int64_t *maxn, int *minsize)
{
    if (!st) return;
    plan_expr(st->init, maxn, minsize);
    plan_expr(st->value, maxn, minsize);
    plan_expr(st->cond, maxn, minsize);
    plan_walk(st->then_s, maxn, minsize);
    plan_walk(st->else_s, maxn, minsize);
    plan_walk(st->init_s, maxn, minsize);
    plan_walk(st->step_s, maxn, minsize);
    plan_walk(st->body, maxn, minsize);
    for (int i = 0; i < st->nitems; i++) plan_walk(st->items[i], maxn, minsize);
}

KernelPlan emit_plan(const Func *f, bool cuda, int max_threads)
{
    KernelPlan pl = {.threads = 1, .vec = 1};
    if (!cuda) return pl;
    int64_t maxn = 1;
    int minsize = 16;
    plan_walk(f->body, &maxn, &minsize);
    pl.vec = 16 / minsize;
    /* Enough threads that each holds about one 16-byte run per tile, 128 to
     * 256 of them (full warps, and at most 8 runs of registers per tile). */
    int64_t t = maxn / pl.vec;
    int64_t tmax = max_threads >= 32 ? max_threads : 256;
    if (t > tmax) t = tmax;
    if (t < 128 && tmax >= 128) t = 128;
    if (t < 32) t = 32;
    /* TILE_THREADS: the specialization's value, exactly (the layouts
     * replicate a tile smaller than the block, as for any small tile). */
    for (int i = 0; i < f->nparams; i++)
        if (f->params[i].threads && f->params[i].sym && f->params[i].sym->is_const) t = f->params[i].sym->cval.i;
    pl.threads = (int)t;
    return pl;
}

/* A register tile's declaration.  On the GPU, float16 and bfloat16 tiles
 * are packed two elements to a register (tilec_p16 in tilec_ops.h: ptxas
 * would give each 16-bit element a 32-bit register); the host keeps plain
 * arrays. */
static void declare_tile(Emitter *em, const char *ty, Dtype d, const char *name, int n)
{
    if (em->cuda && (d == DT_FLOAT16 || d == DT_BFLOAT16)) line(em, "tilec_p16<%d> %s;", n, name);
    else line(em, "%s %s[%d];", ty, name, n);
}

/* Element of a transpose's or permute's operand read for its element o (the
 * index map of ev_shape_op, in numbers). */
static int64_t perm_src(Expr *e, int64_t o)
{
    const Expr *x = e->args[0];
    int r = e->shape.rank, perm[TILE_MAX_RANK];
    for (int i = 0; i < r; i++) perm[i] = r - 1 - i;
    Option *ax = ex_opt(e, "axis");
    if (e->bi == BI_PERMUTE && ax && ax->value->kind == EX_LIST)
        for (int i = 0; i < r; i++) perm[i] = (int)ax->value->args[i]->cval.i;
    int64_t src = 0;
    for (int i = r - 1; i >= 0; i--) {
        int64_t c = o % e->shape.dim[i], stride = 1;
        o /= e->shape.dim[i];
        for (int q = perm[i] + 1; q < r; q++) stride *= x->shape.dim[q];
        src += c * stride;
    }
    return src;
}

/* Shared-memory cycles of an access pattern (idx[w][e][lane], element
 * indices, for each warp and register of the threads' loop) under the swizzle
 * (fs, sh): for each warp-wide access, the largest number of distinct 4-byte
 * words any of the 32 banks must serve. */
static int64_t mirror_cost(const int64_t *idx, int64_t accesses, int es, int fs, const int *sh)
{
    int64_t cost = 0;
    for (int64_t a = 0; a < accesses; a++) {
        int64_t words[32];
        int per_bank[32] = {0}, worst = 0;
        for (int lane = 0; lane < 32; lane++) {
            int64_t j = idx[a * 32 + lane], z = j;
            for (int k = 0; k < 2; k++)
                if (sh[k]) z ^= ((j >> sh[k]) & 31) << fs;
            words[lane] = z * es / 4;
            bool again = false; /* a word already served (or broadcast) costs nothing more */
            for (int m = 0; m < lane && !again; m++) again = words[m] == words[lane];
            if (again) continue;
            int b = (int)(words[lane] & 31);
            if (++per_bank[b] > worst) worst = per_bank[b];
        }
        cost += worst;
    }
    return cost;
}

/* The element indices that the threads' loop over a tile of shape s reads or
 * writes, warp access by warp access, into a new array (*accesses gets their
 * number): through transpose perm when given, else broadcast to shape s
 * from shape from when given, else s's own. */
static int64_t *mirror_pattern(Emitter *em, const Shape *s, Expr *perm, const Shape *from, int64_t *accesses)
{
    Layout tv;
    if (!tv_layout(em, s, &tv)) return NULL;
    Lay l = tv_lay(em, s);
    *accesses = (int64_t)(em->T / 32) * l.E;
    int64_t *idx = malloc((size_t)*accesses * 32 * sizeof *idx);
    if (!idx) return NULL;
    for (int w = 0; w < em->T / 32; w++)
        for (int e = 0; e < l.E; e++)
            for (int lane = 0; lane < 32; lane++) {
                int64_t o = layout_eval(&tv, (int64_t)(w * 32 + lane) + (int64_t)em->T * e);
                idx[((int64_t)w * l.E + e) * 32 + lane] = perm ? perm_src(perm, o) : from ? tv_bcast_src(from, s, o) : o;
            }
    return idx;
}

/* Whether x is the value of the mirror of symbol sym (or, sym NULL, of the
 * node with id tmp_id). */
static bool mirror_of(const Expr *x, const Symbol *sym, int tmp_id)
{
    return sym ? x->kind == EX_NAME && x->sym == sym : x->kind != EX_NAME && x->id == tmp_id;
}

/* Chooses the layout of mirror `name` (dtype d, shape s) that its readers
 * need.  Written in the threads' own order (each warp access V elements
 * apart) and read across (a transpose of a (64, 64) float tile reads 256
 * elements apart, 16 lanes on one bank in a row-major array; a (256) row
 * broadcast over (4, 256) 4 apart), no one order of the elements serves
 * both.  An XOR of the bank bits of the index with up to two higher 5-bit
 * fields of it does (a bijection within each 32-word block): we count the
 * bank cycles of the writes and of every transpose's and broadcast's reads
 * under each candidate and keep the cheapest, the identity on ties.  Reads
 * whose order the scan does not know (inside other index maps) are not
 * counted: any layout is correct, only their speed is at stake. */
static void tv_mirror_swizzle(Emitter *em, const char *name, Dtype d, const Shape *s, const Symbol *sym, int tmp_id)
{
    int es = dtype_bits(d) / 8;
    if (es != 1 && es != 2 && es != 4) return;
    int fs = es == 4 ? 0 : es == 2 ? 1 : 2;
    Lay l = tv_lay(em, s);
    int lg = tv_log2(l.n);
    if (l.repl || (INT64_C(1) << lg) != l.n || lg < fs + 6 || em->nmswz == 64) return;
    int64_t *pat[33], acc[33]; /* the writes, then up to 32 kinds of reads */
    int np = 0;
    pat[np] = mirror_pattern(em, s, NULL, NULL, &acc[np]);
    if (!pat[np]) return;
    np++;
    for (int r = 0; r < em->nperm_reads && np < 33; r++) {
        Expr *e = em->perm_reads[r];
        if (!mirror_of(e->args[0], sym, tmp_id)) continue;
        pat[np] = mirror_pattern(em, &e->shape, e, NULL, &acc[np]);
        if (pat[np]) np++;
    }
    for (int r = 0; r < em->nbc_reads && np < 33; r++) {
        if (!mirror_of(em->bc_reads[r].x, sym, tmp_id) || tv_lay(em, em->bc_reads[r].ctx).repl) continue;
        pat[np] = mirror_pattern(em, em->bc_reads[r].ctx, NULL, s, &acc[np]);
        if (pat[np]) np++;
    }
    int best[2] = {0, 0};
    if (np > 1) {
        /* candidates: the identity, one field, two fields */
        int cand[256][2], nc = 0;
        cand[nc][0] = cand[nc][1] = 0, nc++;
        for (int s1 = fs + 5; s1 < lg; s1++)
            for (int s2 = s1; s2 < lg && nc < 256; s2++) cand[nc][0] = s1, cand[nc][1] = s2 == s1 ? 0 : s2, nc++;
        int64_t best_cost = -1;
        for (int c = 0; c < nc; c++) {
            int64_t cost = 0;
            for (int k = 0; k < np; k++) cost += mirror_cost(pat[k], acc[k], es, fs, cand[c]);
            if (best_cost < 0 || cost < best_cost) best_cost = cost, best[0] = cand[c][0], best[1] = cand[c][1];
        }
    }
    for (int k = 0; k < np; k++) free(pat[k]);
    if (best[0]) em->mswz[em->nmswz++] = (struct MirrorSwz){.name = name, .fs = fs, .sh = {best[0], best[1]}};
}

bool emit_kernel_body(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o, KernelPlan *plan)
{
    Emitter em = {.o = out, .ind = 1, .ar = p->arena, .cuda = cuda, .p = p, .k = f, .co = o, .ok = true};
    *plan = emit_plan(f, cuda, o->max_threads);
    em.T = plan->threads;
    em.Vk = plan->vec;
    int ne = f->nexprs + 1, ns = f->nsyms + 1;
    em.tmp = arena_alloc(p->arena, sizeof(char *) * (size_t)ne);
    em.tmp_dt = arena_alloc(p->arena, sizeof(Dtype) * (size_t)ne);
    em.tmp_shape = arena_alloc(p->arena, sizeof(Shape) * (size_t)ne);
    em.tmp_smem = arena_alloc(p->arena, sizeof(bool) * (size_t)ne);
    em.syms = arena_alloc(p->arena, sizeof(Symbol *) * (size_t)ns);
    em.sym_smem = arena_alloc(p->arena, sizeof(bool) * (size_t)ns);
    em.sym_frag = arena_alloc(p->arena, sizeof(bool) * (size_t)ns);
    em.sym_kk = arena_alloc(p->arena, sizeof(int) * (size_t)ns);
    em.mma_target = arena_alloc(p->arena, sizeof(int) * (size_t)ne);
    em.mma_exprs = arena_alloc(p->arena, sizeof(Expr *) * (size_t)ne);
    scan_stmt(&em, f->body);
    /* Fragment accumulators are the variables that tile_mma updates; their
     * conversions go through the tile_mma staging buffer. */
    for (int i = 0; i < ns; i++) {
        if (em.sym_frag[i] && !em.sym_kk[i]) em.sym_frag[i] = false;
        if (em.sym_frag[i]) {
            int64_t b = em.syms[i]->shape.dim[0] * mma_acc_ld(em.syms[i]->shape.dim[1]) * 4 + 64;
            if (b > em.mma_bytes) em.mma_bytes = b;
        }
    }
    if (cuda && o->opt_level > 0) pipeline_find(&em, f->body);
    for (int i = 0; cuda && i < ne; i++) {
        /* An mma that does not update a fragment accumulator needs room for
         * its accumulator after the staged operands. */
        int t = em.mma_target[i];
        if (!em.mma_exprs[i] || (t && em.sym_frag[t - 1])) continue;
        if (mma_bytes(em.mma_exprs[i]) > em.mma_bytes) em.mma_bytes = mma_bytes(em.mma_exprs[i]);
    }

    /* Declarations: every symbol and materialised value, at the top. */
    if (cuda) line(&em, "const int t_ = (int)threadIdx.x;");
    int smem = 0;
    for (int i = 0; i < ns; i++) {
        Symbol *sym = em.syms[i];
        if (!sym) continue;
        const char *ty = emit_storage_type(sym->dtype);
        if (sym->shape.rank == 0) {
            line(&em, "%s v%d = 0;", ty, sym->id);
        } else {
            Lay l = tv_lay(&em, &sym->shape);
            declare_tile(&em, ty, sym->dtype, arena_printf(em.ar, "v%d", sym->id), l.E);
            line(&em, "(void)v%d;", sym->id); /* unused when a pipeline loads it to shared memory */
            if (em.sym_frag[i]) {
                MmaTiling g = mma_tiling(&em, sym->shape.dim[0], sym->shape.dim[1]);
                line(&em, "%s fv%d[%" PRId64 "];", mma_frag_acc_type(&em, sym->dtype, em.sym_kk[i] ? em.sym_kk[i] : 16), sym->id, g.bpw);
            }
            if (cuda && em.sym_smem[i]) {
                tv_mirror_swizzle(&em, arena_printf(em.ar, "v%d", sym->id), sym->dtype, &sym->shape, sym, -1);
                line(&em, "__shared__ %s s_v%d[%" PRId64 "];", ty, sym->id, l.n);
                smem += (int)(l.n * dtype_bits(sym->dtype) / 8);
            }
        }
    }
    for (int i = 0; i < ne; i++) {
        if (!em.tmp[i]) continue;
        const char *ty = emit_storage_type(em.tmp_dt[i]);
        if (em.tmp_shape[i].rank == 0) {
            line(&em, "%s %s = 0;", ty, em.tmp[i]);
            continue;
        }
        Lay l = tv_lay(&em, &em.tmp_shape[i]);
        declare_tile(&em, ty, em.tmp_dt[i], em.tmp[i], l.E);
        line(&em, "(void)%s;", em.tmp[i]); /* unused when it lives in fragments */
        if (cuda && em.tmp_smem[i]) {
            tv_mirror_swizzle(&em, em.tmp[i], em.tmp_dt[i], &em.tmp_shape[i], NULL, i);
            line(&em, "__shared__ %s s_%s[%" PRId64 "];", ty, em.tmp[i], l.n);
            smem += (int)(l.n * dtype_bits(em.tmp_dt[i]) / 8);
        }
    }
    if (cuda && em.mma_bytes) {
        /* dynamic: tile_mma buffers outgrow the 48 KB of static memory */
        line(&em, "extern __shared__ __align__(128) unsigned char s_mma_[]; /* %" PRId64 " bytes */", em.mma_bytes);
        plan->dyn_smem_bytes = (int)em.mma_bytes;
    }
    if (cuda && em.red_bytes) {
        line(&em, "__shared__ __align__(16) unsigned char s_red_[%" PRId64 "];", em.red_bytes);
        smem += (int)em.red_bytes;
    }
    plan->smem_bytes = smem;
    int limit = pipeline_smem_limit(o->arch);
    if (smem > 48 * 1024 || smem + plan->dyn_smem_bytes > limit) {
        diag_error_fix(f->loc, "use smaller tiles",
                       "kernel '%s' needs %d bytes of shared memory (at most 49152 static, %d in all on sm_%d)",
                       f->name, smem + plan->dyn_smem_bytes, limit, o->arch ? o->arch : 80);
        return false;
    }
    body_stmt(&em, f->body);
    if (!em.ok) diag_error(f->loc, "internal error: tilec could not generate code for kernel '%s'", f->name);
    return em.ok;
}

/* ---- shared pieces of the launchers ------------------------------------ */

void emit_line(FILE *o, const CodegenOptions *co, SrcLoc loc)
{
    if (!co->line_directives || loc.line <= 0 || !co->source_name) return;
    fprintf(o, "#line %d \"", loc.line);
    for (const char *c = co->source_name; *c; c++) {
        if (*c == '"' || *c == '\\') fputc('\\', o);
        fputc(*c, o);
    }
    fputs("\"\n", o);
}

/* The file name without directories: generated text must not depend on
 * where the source was (reproducible builds); only #line keeps the path. */
const char *emit_base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

void emit_banner(FILE *o, const CodegenOptions *co, const char *what)
{
    fprintf(o, "/* %s generated by tilec " TILEC_VERSION " from %s.  Do not edit: edit the source and\n"
               " * run tilec again. */\n",
            what, co->source_name ? emit_base_name(co->source_name) : "(stdin)");
}
