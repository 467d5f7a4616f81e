/* tiles.c: where a tile's elements live.  The thread-value layout of
 * register tiles (lower.h), element indices and coordinates, broadcasts
 * between layouts (register to register when the same thread holds both
 * elements), the per-thread element loop, and the shared-memory mirrors
 * that broadcast and permuted operands are read through, with the XOR
 * swizzle that keeps their reads free of bank conflicts. */
#include "codegen/lower.h"

/* ---- element indices ---------------------------------------------------- */

int tv_log2(int64_t v)
{
    int k = 0;
    while ((INT64_C(1) << k) < v) k++;
    return k;
}

/* A tile's layout as an array: shape s, row-major strides. */
static bool row_major(const Shape *s, Layout *l)
{
    if (s->rank == 0) return layout_make(1, 0, l, NULL, 0);
    return layout_row_major(s->rank, s->dim, l, NULL, 0);
}

/* The one printer of index expressions from layouts.  idx is a row-major
 * element index of a tile of shape ishape; its coordinates, from the last
 * dimension up, are mapped by the flat layout v (one mode per dimension of
 * ishape, mode d's extent at most ishape's dim d): the element it reads is
 * offset + the sum of coordinate d (masked to mode d's extent) times mode
 * d's stride.  Extents and strides are powers of two, so coordinates are
 * shifts and masks.  A view that keeps every coordinate in place prints
 * idx itself. */
char *tv_view_index(Emitter *em, const char *idx, const Shape *ishape, const Layout *v, int64_t offset)
{
    int64_t vshape[LAYOUT_MAX_LEAVES], vstride[LAYOUT_MAX_LEAVES];
    int n = ishape->rank ? layout_flatten(v, vshape, vstride) : 0;
    if (n != ishape->rank) {
        em->ok = false; /* not a view of this tile's dimensions */
        return S("0");
    }
    bool same = offset == 0;
    int64_t rs = 1;
    for (int d = n - 1; d >= 0; rs *= ishape->dim[d], d--)
        if (ishape->dim[d] > 1 && (vstride[d] != rs || vshape[d] != ishape->dim[d])) same = false;
    if (same) return S("%s", idx);
    char *r = NULL;
    rs = 1;
    for (int d = n - 1; d >= 0; rs *= ishape->dim[d], d--) {
        if (vshape[d] <= 1 || vstride[d] == 0) continue;
        /* tile extents are powers of two (sema); strides too but for
         * padding, which multiplies */
        bool p2 = (vshape[d] & (vshape[d] - 1)) == 0 && (rs & (rs - 1)) == 0;
        char *c = p2 ? S("(((%s) >> %d) & %" PRId64 ")", idx, tv_log2(rs), vshape[d] - 1)
                     : S("(((%s) / %" PRId64 ") %% %" PRId64 ")", idx, rs, vshape[d]);
        char *term = (vstride[d] & (vstride[d] - 1)) == 0 && vstride[d] > 0
                         ? S("(%s << %d)", c, tv_log2(vstride[d]))
                         : S("(%s * %" PRId64 ")", c, vstride[d]);
        r = r ? S("%s + %s", r, term) : term;
    }
    if (offset) r = r ? S("%" PRId64 " + %s", offset, r) : S("%" PRId64, offset);
    return r ? S("(%s)", r) : S("0");
}

/* The element of a tile of shape `to` that element idx of its broadcast to
 * shape `from` reads: the broadcast view of to's layout (stride 0 on the
 * broadcast dimensions). */
char *tv_bcast_index(Emitter *em, const char *idx, const Shape *from, const Shape *to)
{
    if (shape_equal(from, to)) return S("%s", idx);
    Layout t, v;
    if (!row_major(to, &t) || !layout_broadcast(&t, from->rank, from->dim, &v, NULL, 0)) {
        em->ok = false;
        return S("0");
    }
    return tv_view_index(em, idx, from, &v, 0);
}

/* The layout of shape operation e (transpose, permute, extract, cat,
 * reshape, expand_dims, squeeze, broadcast_to) as a view of its operand:
 * from e's coordinates (one flat mode per dimension of e) to the operand's
 * row-major index, plus a constant offset (extract's block).  For cat it is
 * the view of either operand, the concatenated axis taken modulo its half.
 * False when e is not a view. */
bool tv_view_layout(const Expr *e, Layout *v, int64_t *offset)
{
    const Expr *x = e->args[0];
    const Shape *xs = &x->shape, *es = &e->shape;
    Layout xl;
    *offset = 0;
    if (!row_major(xs, &xl)) return false;
    switch (e->bi) {
    case BI_TRANSPOSE:
    case BI_PERMUTE: {
        int perm[TILE_MAX_RANK];
        for (int i = 0; i < es->rank; i++) perm[i] = es->rank - 1 - i;
        Option *o = ast_option(e, "axis");
        if (e->bi == BI_PERMUTE && o && o->value->kind == EX_LIST)
            for (int i = 0; i < es->rank; i++) perm[i] = (int)o->value->args[i]->cval.i;
        return layout_permute(&xl, es->rank, perm, v, NULL, 0);
    }
    case BI_BROADCAST_TO:
        return layout_broadcast(&xl, es->rank, es->dim, v, NULL, 0);
    case BI_RESHAPE:
    case BI_EXPAND_DIMS:
    case BI_SQUEEZE:
        return layout_reshape(&xl, es->rank, es->dim, v, NULL, 0);
    case BI_EXTRACT: {
        /* block index[k] of e's extents: its corner, then x's strides */
        int64_t st[LAYOUT_MAX_LEAVES], sh[LAYOUT_MAX_LEAVES];
        int n = layout_flatten(&xl, sh, st);
        Option *io = ast_option(e, "index");
        for (int k = 0; k < n && k < es->rank; k++)
            *offset += (io->value->kind == EX_LIST ? io->value->args[k] : io->value)->cval.i * es->dim[k] * st[k];
        return layout_from_shape_strides(es->rank, es->dim, st, v, NULL, 0);
    }
    case BI_CAT: {
        int64_t st[LAYOUT_MAX_LEAVES], sh[LAYOUT_MAX_LEAVES];
        int n = layout_flatten(&xl, sh, st);
        return n == xs->rank && layout_from_shape_strides(xs->rank, xs->dim, st, v, NULL, 0);
    }
    default:
        return false;
    }
}

/* Coordinate k of row-major index idx in shape s. */
char *tv_coord(Emitter *em, const char *idx, const Shape *s, int k)
{
    int64_t stride = 1;
    for (int q = k + 1; q < s->rank; q++) stride *= s->dim[q];
    return S("(((%s) >> %d) & %" PRId64 ")", idx, tv_log2(stride), s->dim[k] - 1);
}

/* Whether tiles of shape s take the Hopper variant's accumulator layout:
 * the accumulator's shape, or a reshape of it with the same last axis (the
 * layout maps to the row-major index, which a reshape keeps, and its runs
 * of 2 stay in one row), such as the tile an epilogue stores into an
 * array of higher rank. */
bool tv_frag(const Emitter *em, const Shape *s)
{
    if (!em->frag_lay) return false;
    if (shape_equal(s, &em->frag_shape)) return true;
    int64_t n = 1, m = 1;
    for (int i = 0; i < s->rank; i++) n *= s->dim[i];
    for (int i = 0; i < em->frag_shape.rank; i++) m *= em->frag_shape.dim[i];
    return s->rank > 0 && n == m && s->dim[s->rank - 1] == em->frag_shape.dim[em->frag_shape.rank - 1];
}

Lay tv_lay(Emitter *em, const Shape *s)
{
    Lay l = {.n = 1, .E = 1, .V = 1};
    for (int i = 0; i < s->rank; i++) l.n *= s->dim[i];
    if (!em->tg->threads) {
        l.E = (int)l.n;
        return l;
    }
    if (l.n < em->T) {
        l.repl = true;
        return l;
    }
    if (tv_frag(em, s)) { /* wgmma's accumulator layout: runs of 2 */
        l.V = 2;
        l.E = (int)(l.n / em->T);
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
    if (l.repl || !em->tg->threads) return false;
    if (tv_frag(em, s)) {
        *tv = em->frag_tv;
        return true;
    }
    char err[128];
    int64_t flat = l.n;
    if (!layout_tv_row_major(1, &flat, em->T, l.V, tv, err, sizeof err)) {
        em->ok = false;
        return false;
    }
    return true;
}

/* The first element of a thread's run r of a tile of shape s: the
 * thread-value layout at thread t_, value r * V.  For (T,(V,R)):(V,(1,T*V))
 * that is "r * <R's stride> + t_ * <T's stride>"; any other layout (the
 * Hopper variant's accumulator) prints through tv_layout_expr.  elem, when
 * given, is an element within the run (" + elem"). */
char *tv_run_index(Emitter *em, const Shape *s, const char *r, const char *elem)
{
    return tv_run_index_of(em, s, "t_", r, elem);
}

/* The same for thread t (an expression). */
char *tv_run_index_of(Emitter *em, const Shape *s, const char *t, const char *r, const char *elem)
{
    Layout tv;
    int64_t shape[LAYOUT_MAX_LEAVES], stride[LAYOUT_MAX_LEAVES];
    if (!tv_layout(em, s, &tv)) {
        em->ok = false;
        return S("0");
    }
    /* (T,(V,R)): three leaves, the thread's, the run's, the runs' */
    char *x = layout_flatten(&tv, shape, stride) == 3 ? S("%s * %" PRId64 " + %s * %" PRId64, r, stride[2], t, stride[0])
                                                        : tv_layout_expr(em, &tv, t, S("(%s) * %d", r, tv_lay(em, s).V));
    return elem ? S("%s + %s", x, elem) : x;
}

/* The vector width of a tile access: the contiguous run of a thread's
 * values in the array, from the layouts.  The array's layout over the
 * tile's coordinates (tile dimension k is array dimension ord[k]) composed
 * with the thread-value layout maps (thread, value) to array offsets; the
 * run of its value mode is the width.  On the ALIGNED variant the array's
 * last stride is 1; the others are run-time values, stand-ins here that no
 * run crosses (a row-major layout over the tile's extents with every row
 * padded).  1 when the access cannot use vectors. */
int tv_vector_width(Emitter *em, const Shape *s, const int *ord)
{
    Layout tv, a, at, c, vm;
    if (s->rank == 0 || !tv_layout(em, s, &tv)) return 1;
    int64_t ext[TILE_MAX_RANK], astride[TILE_MAX_RANK], st[TILE_MAX_RANK];
    for (int k = 0; k < s->rank; k++) ext[ord[k]] = s->dim[k]; /* the extents along the array's dimensions */
    int64_t span = 1;
    for (int j = s->rank - 1; j >= 0; j--) {
        astride[j] = j == s->rank - 1 ? 1 : 2 * span;
        span = astride[j] * ext[j];
    }
    for (int k = 0; k < s->rank; k++) st[k] = astride[ord[k]];
    if (!layout_from_shape_strides(s->rank, s->dim, st, &a, NULL, 0) || !layout_transpose(&a, &at, NULL, 0) ||
        !layout_compose(&at, &tv, &c, NULL, 0) || !layout_mode(&c, 1, &vm, NULL, 0))
        return 1;
    return (int)layout_contiguous_run(&vm);
}

/* Element ix (row-major) of a rows x cols tile in a buffer whose rows are
 * ld elements apart (padded against bank conflicts): the layout
 * (rows,cols):(ld,1), printed. */
char *tv_padded_index(Emitter *em, const char *ix, int64_t rows, int64_t cols, int64_t ld)
{
    Shape s = {.rank = 2, .dim = {rows, cols}};
    Layout v;
    if (!layout_from_shape_strides(2, s.dim, (int64_t[]){ld, 1}, &v, NULL, 0)) {
        em->ok = false;
        return S("0");
    }
    return tv_view_index(em, ix, &s, &v, 0);
}

/* Element ix of a tile in its array: the array view (run-time strides)
 * applied to ix's coordinates in the tile, offset by the tile's corner. */
char *tv_array_offset(Emitter *em, const char *ix, const Shape *s, const ArrayView *a)
{
    char *off = S("0");
    for (int k = 0; k < a->rank; k++) {
        if (!a->stride[k]) off = S("%s + (%s + %s)", off, a->origin[k], tv_coord(em, ix, s, k));
        else off = S("%s + (%s + %s) * %s", off, a->origin[k], tv_coord(em, ix, s, k), a->stride[k]);
    }
    return off;
}

/* Whether element ix of the tile lies inside the array. */
char *tv_array_inbounds(Emitter *em, const char *ix, const Shape *s, const ArrayView *a)
{
    char *r = S("true");
    for (int k = 0; k < a->rank; k++) {
        char *g = S("(%s + %s)", a->origin[k], tv_coord(em, ix, s, k));
        r = S("%s && %s >= 0 && %s < %s", r, g, g, a->extent[k]);
    }
    return r;
}

/* Whether two shapes with the same row-major order (a reshape) put every
 * element in the same thread and register: then values pass register to
 * register, without a trip through shared memory. */
bool tv_agree(Emitter *em, const Shape *a, const Shape *b)
{
    if (shape_equal(a, b)) return true;
    if (!em->tg->threads || shape_numel(a) != shape_numel(b)) return !em->tg->threads && shape_numel(a) == shape_numel(b);
    Layout la, lb;
    if (!tv_layout(em, a, &la) || !tv_layout(em, b, &lb)) return false;
    return layout_equal_function(&la, &lb);
}

/* The broadcast of a tile of shape s to shape ctx as a map between
 * row-major indices (what tv_bcast_index prints, in numbers): evaluated at
 * element o of ctx it gives the element of s read. */
static bool bcast_view(const Shape *s, const Shape *ctx, Layout *out)
{
    Layout r, b;
    return row_major(s, &r) && layout_broadcast(&r, ctx->rank, ctx->dim, &b, NULL, 0) &&
           layout_transpose(&b, out, NULL, 0);
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
    Layout ts, tc, bv;
    if (!tv_layout(em, s, &ts) || !tv_layout(em, ctx, &tc) || !bcast_view(s, ctx, &bv)) return false;
    /* who holds each element of s: thread * E(s) + value */
    int64_t *owner = malloc((size_t)ls.n * sizeof *owner);
    if (!owner) return false;
    for (int64_t t = 0; t < em->T; t++)
        for (int64_t e = 0; e < ls.E; e++) owner[layout_eval(&ts, t + em->T * e)] = t * ls.E + e;
    bool ok = true;
    for (int64_t t = 0; ok && t < em->T; t++) {
        for (int64_t e = 0; ok && e < lc.E; e++) {
            int64_t j = layout_eval(&bv, layout_eval(&tc, t + em->T * e));
            ok = owner[j] == t * ls.E + e % ls.E;
        }
    }
    free(owner);
    return ok;
}

/* bcast_local_check, remembered: the scan and every evaluation of a
 * broadcast operand ask it again for the same two shapes. */
bool tv_bcast_local(Emitter *em, const Shape *s, const Shape *ctx)
{
    if (!em->tg->threads || s->rank == 0 || shape_equal(s, ctx) || s->rank > ctx->rank) return false;
    int n = em->nlbc < 16 ? em->nlbc : 16;
    for (int i = 0; i < n; i++)
        if (shape_equal(&em->lbc[i].s, s) && shape_equal(&em->lbc[i].ctx, ctx)) return em->lbc[i].local;
    bool local = bcast_local_check(em, s, ctx);
    em->lbc[em->nlbc++ % 16] = (struct LocalBcast){.s = *s, .ctx = *ctx, .local = local};
    return local;
}

/* The C expression of a thread-value layout's function at thread t and
 * value e (C expressions): each leaf's coordinate times its stride, the
 * thread mode's leaves taken colexicographically from t, the value mode's
 * from e.  A thread mode of one leaf prints "t * stride". */
char *tv_layout_expr(Emitter *em, const Layout *tv, const char *t, const char *e)
{
    Layout m[2];
    int64_t shape[2][64], stride[2][64];
    int n[2];
    for (int k = 0; k < 2; k++) {
        if (!layout_mode(tv, k, &m[k], NULL, 0)) {
            em->ok = false;
            return S("0");
        }
        n[k] = layout_flatten(&m[k], shape[k], stride[k]);
    }
    /* A layout of several thread leaves whose leaves occupy disjoint bits
     * of the index (powers of two: wgmma's accumulator) joins its terms
     * with |, so that the compiler splits coordinates taken from the index
     * ((i >> 7) & 63) into the thread's part and a constant per value. */
    const char *join = " + ";
    if (n[0] > 1) {
        uint64_t used = 0;
        bool disjoint = true;
        for (int k = 0; k < 2; k++)
            for (int i = 0; i < n[k]; i++) {
                if (shape[k][i] <= 1) continue;
                int64_t sh = shape[k][i], st = stride[k][i];
                if ((sh & (sh - 1)) || st <= 0 || (st & (st - 1)) || tv_log2(st) + tv_log2(sh) > 62) {
                    disjoint = false;
                    continue;
                }
                uint64_t bits = ((UINT64_C(1) << tv_log2(sh)) - 1) << tv_log2(st);
                if (used & bits) disjoint = false;
                used |= bits;
            }
        if (disjoint) join = " | ";
    }
    char *r = NULL;
    for (int k = 0; k < 2; k++) {
        const char *x = k ? e : t;
        int64_t prefix = 1;
        for (int i = 0; i < n[k]; i++) {
            char *term = NULL;
            if (k == 0 && n[0] == 1) term = S("%s * %" PRId64, x, stride[0][0]);
            else if (shape[k][i] > 1)
                term = S("((%s / %" PRId64 ") %% %" PRId64 ") * %" PRId64, x, prefix, shape[k][i], stride[k][i]);
            if (term) r = r ? S("%s%s%s", r, join, term) : term;
            prefix *= shape[k][i];
        }
    }
    if (r && join[1] == '|') r = S("(%s)", r);
    return r ? r : S("0");
}

static char *tv_index_expr(Emitter *em, const Layout *tv)
{
    return tv_layout_expr(em, tv, "t_", "e_");
}

const char *tv_home_idx(Emitter *em)
{
    return em->tg->elem_reg;
}

/* The register of a home context's element. */
const char *tv_ctx_reg(Emitter *em, Ctx c)
{
    return c.eidx ? c.eidx : tv_home_idx(em);
}

/* The element loops of the two targets (target.h). */
static void open_loop_threads(Emitter *em, const Shape *s)
{
    Lay l = tv_lay(em, s);
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

static void open_loop_whole(Emitter *em, const Shape *s)
{
    line(em, "for (int i_ = 0; i_ < %" PRId64 "; ++i_) {", shape_numel(s));
    em->ind++;
}

void tv_open_loop(Emitter *em, const Shape *s)
{
    em->tg->open_loop(em, s);
}

/* Opens the loop over a thread's runs r_ of a tile of shape s (`runs` of
 * them), i_ the row-major index of each run's first element; the caller
 * closes it (tv_close_loop). */
void tv_open_runs(Emitter *em, const Shape *s, int runs)
{
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %d; ++r_) {", runs);
    em->ind++;
    line(em, "const int i_ = %s;", tv_run_index(em, s, "r_", NULL));
}

const Target target_cuda = {
    .name = "cuda",
    .threads = true,
    .block_index = "((int32_t)blockIdx.%c)",
    .grid_dim = "((int32_t)gridDim.%c)",
    .thread_decl = "const int t_ = (int)threadIdx.x;",
    .barrier = "__syncthreads();",
    .elem_reg = "e_",
    .packed_half = true,
    .open_loop = open_loop_threads,
};

const Target target_host = {
    .name = "host",
    .threads = false,
    .block_index = "((int32_t)b%c_)",
    .grid_dim = "((int32_t)g%c_)",
    .thread_decl = NULL,
    .barrier = NULL,
    .elem_reg = "i_",
    .packed_half = false,
    .open_loop = open_loop_whole,
};

void tv_close_loop(Emitter *em)
{
    em->ind--;
    line(em, "}");
}

/* ---- shared-memory mirrors ---------------------------------------------- */

/* What tv_mirror_swizzle chose for mirror `name`: NULL for the identity
 * layout written element by element. */
const struct MirrorSwz *tv_mirror_find(const Emitter *em, const char *name)
{
    for (int m = 0; m < em->nmswz; m++)
        if (!strcmp(em->mswz[m].name, name)) return &em->mswz[m];
    return NULL;
}

/* The index of element `ix` of mirror `name` in its array: the identity, or
 * the XOR swizzle chosen for it at its declaration (tv_mirror_swizzle). */
char *tv_mirror_at(Emitter *em, const char *name, const char *ix)
{
    const struct MirrorSwz *z = tv_mirror_find(em, name);
    if (!z) return S("%s", ix);
    /* layout_swizzle_apply, printed (each S > 0; the fields do not
     * overlap, so both read bits of ix itself) */
    char *r = S("(%s)", ix);
    for (int k = 0; k < z->nsw; k++)
        r = S("%s ^ ((((%s) >> %d) & %d) << %d)", r, ix, z->sw[k].base + z->sw[k].shift, (1 << z->sw[k].bits) - 1,
              z->sw[k].base);
    return S("(%s)", r);
}

/* Whether a value of shape `s` read in context shape `ctx` needs no data
 * movement: equal shapes, or a broadcast that only adds leading ones (equal
 * element counts) with agreeing thread-value layouts. */
bool tv_same_home(Emitter *em, const Shape *s, const Shape *ctx)
{
    return shape_equal(s, ctx) || (shape_numel(s) == shape_numel(ctx) && tv_agree(em, s, ctx));
}

char *tv_read(Emitter *em, const char *name, Dtype d, const Shape *s, bool smem, Ctx c)
{
    if (s->rank == 0) return val_ld(em, d, name);
    /* A one-element tile is held by every thread: no data movement. */
    if (shape_numel(s) == 1) return val_ld(em, d, S("%s[0]", name));
    if (c.home && tv_same_home(em, s, c.shape)) return val_ld(em, d, S("%s[%s]", name, tv_ctx_reg(em, c)));
    if (c.home && tv_bcast_local(em, s, c.shape))
        return val_ld(em, d, S("%s[(%s) %% %d]", name, tv_ctx_reg(em, c), tv_lay(em, s).E));
    char *ix = tv_bcast_index(em, c.idx, c.shape, s);
    if (em->tg->threads) {
        if (!smem) em->ok = false; /* the scan must have asked for a mirror */
        return val_ld(em, d, S("s_%s[%s]", name, tv_mirror_at(em, name, ix)));
    }
    return val_ld(em, d, S("%s[%s]", name, ix));
}

const char *tv_sym_name(Emitter *em, const Symbol *sym)
{
    if (sym->kind == SYM_PARAM) return S("p_%s", sym->name);
    if (em->sym_alias && em->sym_alias[sym->id]) return em->sym_alias[sym->id];
    if (em->sym_prefix) return S("%sv%d", em->sym_prefix, sym->id);
    return S("v%d", sym->id);
}

/* Shared-memory cycles of an access pattern (idx[w][e][lane], element
 * indices, for each warp and register of the threads' loop) under the
 * swizzles sw[0..nsw).  Every step-th register is one access of `words`
 * 4-byte words a lane (1: an element of at most 4 bytes; V * es / 4: a
 * vector of a whole run, starting at that register's element); a warp's
 * access is served in phases of 32 / words lanes, each costing the largest
 * number of distinct words any of the 32 banks must serve. */
static int64_t mirror_cost(const int64_t *idx, int64_t accesses, int step, int words, int es, const LayoutSwizzle *sw,
                           int nsw)
{
    int phase = 32 / words;
    int64_t cost = 0;
    for (int64_t a = 0; a < accesses; a += step)
        for (int p = 0; p < 32; p += phase) {
            int64_t seen[32];
            int nseen = 0, per_bank[32] = {0}, worst = 0;
            for (int lane = p; lane < p + phase; lane++) {
                int64_t z = idx[a * 32 + lane];
                for (int k = 0; k < nsw; k++) z = layout_swizzle_apply(&sw[k], z);
                for (int j = 0; j < words; j++) {
                    int64_t w = z * es / 4 + j;
                    bool again = false; /* a word already served (or broadcast) costs nothing more */
                    for (int m = 0; m < nseen && !again; m++) again = seen[m] == w;
                    if (again) continue;
                    seen[nseen++] = w;
                    int b = (int)(w & 31);
                    if (++per_bank[b] > worst) worst = per_bank[b];
                }
            }
            cost += worst;
        }
    return cost;
}

/* Whether the threads' registers of the write pattern idx (E a thread, in
 * runs of V) are runs of V consecutive elements starting at multiples of V,
 * so that a swizzle that moves whole V-element chunks keeps each run one
 * aligned vector in the mirror. */
static bool mirror_runs(const int64_t *idx, int64_t accesses, int E, int V)
{
    if (V < 2 || E % V) return false;
    for (int64_t a = 0; a < accesses; a += V)
        for (int lane = 0; lane < 32; lane++) {
            int64_t z = idx[a * 32 + lane];
            if (z % V) return false;
            for (int j = 1; j < V; j++)
                if (idx[(a + j) * 32 + lane] != z + j) return false;
        }
    return true;
}

/* The element indices that the threads' loop over a tile of shape s reads or
 * writes, warp access by warp access, into a new array (*accesses gets their
 * number): through transpose perm when given, else broadcast to shape s
 * from shape from when given, else s's own. */
static int64_t *mirror_pattern(Emitter *em, const Shape *s, Expr *perm, const Shape *from, int64_t *accesses)
{
    /* what an element of s reads, as a map between row-major indices: the
     * transpose's view (its modes reversed take a row-major index), the
     * broadcast from `from`, or the identity */
    Layout tv, view, src;
    int64_t off = 0;
    if (!tv_layout(em, s, &tv)) return NULL;
    if (perm ? !tv_view_layout(perm, &view, &off) || !layout_transpose(&view, &src, NULL, 0)
             : from   ? !bcast_view(from, s, &src)
                      : !row_major(s, &view) || !layout_transpose(&view, &src, NULL, 0))
        return NULL;
    Lay l = tv_lay(em, s);
    *accesses = (int64_t)(em->T / 32) * l.E;
    int64_t *idx = malloc((size_t)*accesses * 32 * sizeof *idx);
    if (!idx) return NULL;
    for (int w = 0; w < em->T / 32; w++)
        for (int e = 0; e < l.E; e++)
            for (int lane = 0; lane < 32; lane++) {
                int64_t o = layout_eval(&tv, (int64_t)(w * 32 + lane) + (int64_t)em->T * e);
                idx[((int64_t)w * l.E + e) * 32 + lane] = off + layout_eval(&src, o);
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
 * both.  An XOR of the bank bits of the index with up to two higher fields
 * of it does (a bijection within each 32-word block): we count the bank
 * cycles of the writes and of every transpose's and broadcast's reads under
 * each candidate and keep the cheapest, the identity on ties.  Reads whose
 * order the scan does not know (inside other index maps) are not counted:
 * any layout is correct, only their speed is at stake.
 *
 * Where each thread's registers are runs of V consecutive elements (a
 * tile_load's 16-byte vectors), a swizzle that moves whole V-element chunks
 * (XOR into the chunk bits of a 128-byte line, Swizzle<b, log2 V, S>) lets
 * the writes store each run as one vector: one instruction a run instead of
 * V and, for 16-byte runs, half the bank cycles.  Those
 * candidates are counted with vector writes (mirror_cost's runs), the
 * element-wise ones as before; the transpose of seed 004 (float16 (64, 64)
 * tiles) went from 64 2-byte stores a thread to 8 16-byte ones with its
 * reads still free of conflicts. */
void tv_mirror_swizzle(Emitter *em, const char *name, Dtype d, const Shape *s, const Symbol *sym, int tmp_id)
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
    /* vector runs: V * es of 4 to 16 bytes, chunks of lv index bits, a
     * 128-byte line's cb chunk bits above them */
    int rb = l.V * es, lv = tv_log2(l.V), cb = rb >= 4 && rb <= 16 ? tv_log2(128 / rb) : 0;
    bool runs = cb > 0 && (1 << lv) == l.V && mirror_runs(pat[0], acc[0], l.E, l.V);
    /* candidates: the identity, then Swizzle<cb, lv, S> (whole chunks: the
     * writes vectors) with one or two fields, then Swizzle<5, fs, S>, which
     * moves the 5 bits at fs + S into the 32 banks' bits at fs (4-byte words) */
    struct MirrorSwz cand[512];
    int nc = 0;
    cand[nc++] = (struct MirrorSwz){.vec = runs ? l.V : 0};
    for (int pass = runs ? 0 : 1; pass < 2 && np > 1; pass++) {
        int bits = pass ? 5 : cb, base = pass ? fs : lv;
        for (int s1 = base + bits; s1 < lg; s1++)
            for (int s2 = s1; s2 < lg && nc < 512; s2++) {
                struct MirrorSwz *c = &cand[nc];
                *c = (struct MirrorSwz){.vec = pass ? 0 : l.V};
                if (!layout_swizzle_make(bits, base, s1 - base, &c->sw[c->nsw++], NULL, 0)) continue;
                if (s2 != s1 && !layout_swizzle_make(bits, base, s2 - base, &c->sw[c->nsw++], NULL, 0)) continue;
                nc++;
            }
    }
    struct MirrorSwz best = {.name = name};
    int64_t best_cost = -1;
    for (int c = 0; c < nc; c++) {
        /* the writes: whole runs (V * es of 4 to 16 bytes), or element by element */
        int step = cand[c].vec ? l.V : 1, words = cand[c].vec ? l.V * es / 4 : 1;
        int64_t cost = mirror_cost(pat[0], acc[0], step, words, es, cand[c].sw, cand[c].nsw);
        for (int k = 1; k < np; k++) cost += mirror_cost(pat[k], acc[k], 1, 1, es, cand[c].sw, cand[c].nsw);
        /* on ties the fewer fields: each costs index arithmetic per access */
        if (best_cost < 0 || cost < best_cost || (cost == best_cost && cand[c].nsw < best.nsw)) {
            best_cost = cost;
            best.nsw = cand[c].nsw;
            best.vec = cand[c].vec;
            memcpy(best.sw, cand[c].sw, sizeof best.sw);
        }
    }
    for (int k = 0; k < np; k++) free(pat[k]);
    if (best.nsw || best.vec) em->mswz[em->nmswz++] = best;
}

/* The vector width of mirror `name`'s writes (tv_mirror_swizzle), 0 when
 * they are element by element. */
int tv_mirror_vec(Emitter *em, const char *name)
{
    const struct MirrorSwz *z = tv_mirror_find(em, name);
    return z ? z->vec : 0;
}
