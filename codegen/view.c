/* view.c: tile_load, tile_store and tile_dim through a view (sema/view.h).
 *
 * The view's layout is folded into each element's address: the tile
 * element's view coordinates, split over the view's nested modes, give the
 * array coordinates (off + sum a[j][t] * u_t) and so the offset through the
 * array descriptor's strides.  An element is read when it lies inside the
 * view, every constraint and the array; outside the array or a constraint
 * it reads the view's padding, outside the view the load's own .padding.
 * Nothing of the view exists at run time but these index expressions:
 * strides and offsets are constants, extents the array's.
 *
 * A view that only permutes its array's axes never reaches here for loads
 * and stores of whole tiles: sema rewrites them as a load in the array's
 * order and a tile_permute (the transpose through a swizzled shared-memory
 * mirror, whose global accesses stay coalesced). */
#include "codegen/lower.h"
#include "sema/view.h"

const View *view_arg(const Expr *e)
{
    if (!e || e->nargs < 1 || !e->args[0] || e->args[0]->kind != EX_NAME || !e->args[0]->sym) return NULL;
    return e->args[0]->sym->view;
}

static char *ext_c(Emitter *em, const ViewExt *x, const char *arr)
{
    return view_ext_c(em->ar, x, S("%s.shape[%%d]", arr));
}

char *view_dim(Emitter *em, const Expr *a, int64_t axis)
{
    const View *v = a->sym ? a->sym->view : NULL;
    if (!v) return S("p_%s.shape[%" PRId64 "]", a->name, axis);
    return S("(%s)", ext_c(em, v->ext[axis], S("p_%s", v->base->name)));
}

/* Declares, inside the element loop, the element's view coordinates
 * (w<k>_), its terms' coordinates (u<t>_) and array coordinates (a<j>_),
 * and the two bounds: in_view_ and in_array_. */
static void element_coords(Emitter *em, const View *v, const Shape *s, const int *ord, const char *arr)
{
    for (int k = 0; k < s->rank; k++)
        line(em, "const int64_t w%d_ = o%d_ + %s;", ord[k], k, tv_coord(em, "i_", s, k));
    for (int m = 0; m < v->rank; m++) {
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        if (n == 1) {
            line(em, "const int64_t u%d_ = w%d_;", ts[0], m);
            continue;
        }
        const char *below = "1";
        for (int q = 0; q < n; q++) {
            const char *ext = S("te%d_", ts[q]);
            if (q == n - 1) line(em, "const int64_t u%d_ = w%d_ / (%s);", ts[q], m, below);
            else if (q == 0) line(em, "const int64_t u%d_ = w%d_ %% %s;", ts[q], m, ext);
            else line(em, "const int64_t u%d_ = (w%d_ / (%s)) %% %s;", ts[q], m, below, ext);
            below = q == 0 ? ext : S("%s * %s", below, ext);
        }
    }
    for (int j = 0; j < v->base->rank; j++) {
        char *aj = S("(int64_t)%" PRId64, v->off[j]);
        for (int t = 0; t < v->nterms; t++) {
            if (!v->a[j][t]) continue;
            aj = v->a[j][t] == 1 ? S("%s + u%d_", aj, t) : S("%s + (int64_t)%" PRId64 " * u%d_", aj, v->a[j][t], t);
        }
        line(em, "const int64_t a%d_ = %s;", j, aj);
    }
    char *inv = S("true");
    for (int m = 0; m < v->rank; m++) inv = S("%s && w%d_ >= 0 && w%d_ < x%d_", inv, m, m, m);
    line(em, "const bool in_view_ = %s;", inv);
    line(em, "(void)in_view_;");
    char *ina = S("true");
    for (int q = 0; q < v->ncons; q++) {
        char *c = S("(int64_t)%" PRId64, v->cons[q].c0);
        for (int t = 0; t < v->nterms; t++)
            if (v->cons[q].coef[t]) c = S("%s + (int64_t)%" PRId64 " * u%d_", c, v->cons[q].coef[t], t);
        line(em, "const int64_t c%d_ = %s;", q, c);
        ina = S("%s && c%d_ >= 0 && c%d_ < %s", ina, q, q, ext_c(em, v->cons[q].ext, arr));
    }
    for (int j = 0; j < v->base->rank; j++) ina = S("%s && a%d_ >= 0 && a%d_ < %s.shape[%d]", ina, j, j, arr, j);
    line(em, "const bool in_array_ = %s;", ina);
}

/* The tile's origin (o<k>_) and the extents of the view's axes (x<m>_) and
 * of its nested terms (te<t>_), before the element loop. */
static void view_prologue(Emitter *em, Expr *e, const View *v, const Shape *s, const char *arr)
{
    mem_origin(em, e, s);
    /* (not every lowering reads every extent: the casts keep nvcc's
     * unused-variable warnings, errors in CI, quiet) */
    for (int m = 0; m < v->rank; m++) {
        line(em, "const int64_t x%d_ = %s;", m, ext_c(em, v->ext[m], arr));
        line(em, "(void)x%d_;", m);
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        for (int q = 0; n > 1 && q < n - 1; q++) {
            line(em, "const int64_t te%d_ = %s;", ts[q], ext_c(em, v->term[ts[q]].ext, arr));
            line(em, "(void)te%d_;", ts[q]);
        }
    }
}

static char *offset_c(Emitter *em, const View *v, const char *arr)
{
    char *off = S("0");
    for (int j = 0; j < v->base->rank; j++) off = S("%s + a%d_ * %s.strides[%d]", off, j, arr, j);
    return off;
}

/* ---- staging through a shared-memory box --------------------------------
 *
 * A window or im2col view reads each array element several times within one
 * tile (the taps overlap).  When the tile's footprint in the array is a box
 * of static extents smaller than the tile, the block first copies that box
 * into shared memory, coalesced along the array's contiguous axis and with
 * the padding applied, and each element of the tile is then read from the
 * box: every array element crosses DRAM and L2 once per tile.  The
 * footprint is static when every nested axis is walked in whole sub-modes
 * (the tile's extent along it a multiple of the inner sub-modes' constant
 * extents) or inside the fastest one; and views with bound constraints
 * (padding a window) are read element by element. */

typedef struct Box {
    int rank;                          /* the array's */
    int64_t ext[TILE_MAX_RANK];        /* B_j */
    const char *lo[TILE_MAX_RANK];     /* its corner (C expressions of o<k>_) */
    int64_t n;                         /* elements */
    /* each term's coordinate relative to its first in the tile, as an int
     * expression of the element's tile coordinates l<k>_ (which unrolling
     * folds), and its span */
    const char *rel[VIEW_MAX_TERMS];
    int64_t span[VIEW_MAX_TERMS];
    /* NULL, or a run-time condition the plan needs (an inner extent that
     * comes from the array, a multiple of the tile's extent along it) */
    const char *guard;
} Box;

/* The tile's footprint in the array when its spans are static (above),
 * for loads and stores on CUDA. */
static bool plan_footprint(Emitter *em, Expr *e, const View *v, Box *b)
{
    const Shape *s = &e->shape;
    if (!em->tg->threads || v->ncons || !s->rank) return false;
    Lay l = tv_lay(em, s);
    if (l.repl) return false;
    int ord[TILE_MAX_RANK], axis_of_mode[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    for (int k = 0; k < s->rank; k++) axis_of_mode[ord[k]] = k;
    const char *start[VIEW_MAX_TERMS];
    int64_t span[VIEW_MAX_TERMS];
    b->guard = NULL;
    for (int m = 0; m < v->rank; m++) {
        int k = axis_of_mode[m];
        int64_t S = s->dim[k];
        const char *o = S("o%d_", k);
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        int64_t P = 1, ce[VIEW_MAX_TERMS];
        bool inner_const = true;
        for (int q = 0; q < n - 1; q++) {
            const ViewExt *x = v->term[ts[q]].ext;
            if (x->axis >= 0 || x->inner || x->times) {
                inner_const = false; /* an extent of the array */
                ce[q] = 0;
                continue;
            }
            ce[q] = x->add;
            P *= ce[q];
        }
        const char *l = S("l%d_", k);
        if (!inner_const && n > 1) {
            /* Only inside one run of the fastest term, which must then be a
             * multiple of the tile's extent: a run-time guard (one per tile;
             * te<t>_ are the inner terms' extents, view_prologue). */
            if (b->guard) return false;
            b->guard = S("%s %% %" PRId64 " == 0", view_ext_c(em->ar, v->term[ts[0]].ext, S("p_%s.shape[%%d]", v->base->name)), S);
            const char *below = S("te%d_", ts[0]);
            start[ts[0]] = S("(%s %% %s)", o, below), span[ts[0]] = S, b->rel[ts[0]] = l;
            for (int q = 1; q < n; q++) {
                start[ts[q]] = q == n - 1 ? S("(%s / (%s))", o, below) : S("((%s / (%s)) %% te%d_)", o, below, ts[q]);
                span[ts[q]] = 1, b->rel[ts[q]] = "0";
                if (q < n - 1) below = S("%s * te%d_", below, ts[q]);
            }
        } else if (n == 1) {
            start[ts[0]] = o, span[ts[0]] = S, b->rel[ts[0]] = l;
        } else if (S % P == 0) {
            /* the tile starts at a multiple of P: the inner terms run whole */
            int64_t below = 1;
            for (int q = 0; q < n - 1; q++) {
                start[ts[q]] = "0", span[ts[q]] = ce[q];
                b->rel[ts[q]] = below == 1 ? S("(%s %% %" PRId64 ")", l, ce[q]) : S("((%s / %" PRId64 ") %% %" PRId64 ")", l, below, ce[q]);
                below *= ce[q];
            }
            start[ts[n - 1]] = S("(%s / %" PRId64 ")", o, P), span[ts[n - 1]] = S / P;
            b->rel[ts[n - 1]] = S("(%s / %" PRId64 ")", l, P);
        } else if (ce[0] % S == 0) {
            /* the tile lies inside one run of the fastest term */
            int64_t below = ce[0];
            start[ts[0]] = S("(%s %% %" PRId64 ")", o, ce[0]), span[ts[0]] = S, b->rel[ts[0]] = l;
            for (int q = 1; q < n; q++) {
                start[ts[q]] = q == n - 1 ? S("(%s / %" PRId64 ")", o, below) : S("((%s / %" PRId64 ") %% %" PRId64 ")", o, below, ce[q]);
                span[ts[q]] = 1, b->rel[ts[q]] = "0";
                if (q < n - 1) below *= ce[q];
            }
        } else {
            return false;
        }
    }
    b->rank = v->base->rank;
    b->n = 1;
    for (int j = 0; j < b->rank; j++) {
        int64_t ext = 1;
        char *lo = S("(int64_t)%" PRId64, v->off[j]);
        for (int t = 0; t < v->nterms; t++) {
            int64_t c = v->a[j][t];
            if (!c) continue;
            ext += (c < 0 ? -c : c) * (span[t] - 1);
            if (c > 0) lo = S("%s + (int64_t)%" PRId64 " * %s", lo, c, start[t]);
            else lo = S("%s + (int64_t)%" PRId64 " * (%s + %" PRId64 ")", lo, c, start[t], span[t] - 1);
        }
        b->ext[j] = ext;
        b->lo[j] = lo;
        b->n *= ext;
    }
    for (int t = 0; t < v->nterms; t++) b->span[t] = span[t];
    return true;
}

static bool plan_box(Emitter *em, Expr *e, const View *v, Box *b)
{
    if (!plan_footprint(em, e, v, b) || b->guard) return false;
    /* worth it only where the taps overlap, and small enough to leave room
     * for other blocks on the SM */
    int64_t bytes = b->n * dtype_bits(e->dtype) / 8;
    return b->n < shape_numel(&e->shape) && bytes <= 16 * 1024;
}

/* Declares the footprint's corner lo<j>_, the offset of the element there
 * (base_), and the range of box coordinates inside the array along each
 * axis, [nl<j>_, rm<j>_): everything after is 32-bit arithmetic on box
 * coordinates plus one 64-bit product per axis for the address. */
static void footprint_prologue(Emitter *em, const Box *b, const char *arr)
{
    char *base = S("(int64_t)0");
    for (int j = 0; j < b->rank; j++) {
        line(em, "const int64_t lo%d_ = %s;", j, b->lo[j]);
        line(em, "const int nl%d_ = (int)(lo%d_ >= 0 ? 0 : -lo%d_ > %" PRId64 " ? %" PRId64 " : -lo%d_);", j, j, j,
             b->ext[j], b->ext[j], j);
        line(em, "const int rm%d_ = (int)(%s.shape[%d] - lo%d_ <= 0 ? 0 : %s.shape[%d] - lo%d_ > %" PRId64 " ? %" PRId64
                 " : %s.shape[%d] - lo%d_);",
             j, arr, j, j, arr, j, j, b->ext[j], b->ext[j], arr, j, j);
        base = S("%s + lo%d_ * %s.strides[%d]", base, j, arr, j);
    }
    line(em, "const int64_t base_ = %s;", base);
}

/* The element's box coordinates (int b<j>_), its bounds and its offset,
 * from its tile coordinates l<k>_. */
/* The element's coordinate along array axis j relative to the footprint's
 * corner, from its terms' coordinates relative to their first in the tile. */
static char *box_coord(Emitter *em, const View *v, const Box *b, int j)
{
    char *rj = S("0");
    for (int t = 0; t < v->nterms; t++) {
        int64_t c = v->a[j][t];
        if (!c) continue;
        if (c > 0) rj = S("%s + %" PRId64 " * %s", rj, c, b->rel[t]);
        else rj = S("%s + %" PRId64 " * (%s - %" PRId64 ")", rj, c, b->rel[t], b->span[t] - 1);
    }
    return rj;
}

static void footprint_element(Emitter *em, const View *v, const Box *b, const char *arr, char **in, char **off)
{
    *in = S("true");
    *off = S("base_");
    for (int j = 0; j < b->rank; j++) {
        line(em, "const int b%d_ = %s;", j, box_coord(em, v, b, j));
        *in = S("%s && b%d_ >= nl%d_ && b%d_ < rm%d_", *in, j, j, j, j);
        *off = S("%s + (int64_t)b%d_ * %s.strides[%d]", *off, j, arr, j);
    }
}

/* The view's bounds as the extents left after the tile's corner (r<k>_),
 * before the element loop; in the loop, l<k>_ and the test in_view_. */
static void tile_bounds_prologue(Emitter *em, const Shape *s, const int *ord)
{
    char *ok = S("true");
    for (int k = 0; k < s->rank; k++) {
        line(em, "const int64_t r%d_ = x%d_ - o%d_;", k, ord[k], k);
        ok = S("%s && o%d_ >= 0", ok, k);
    }
    line(em, "const bool ok_ = %s;", ok);
}

static void tile_bounds_element(Emitter *em, const Shape *s)
{
    char *inv = S("ok_");
    for (int k = 0; k < s->rank; k++) {
        line(em, "const int l%d_ = %s;", k, tv_coord(em, "i_", s, k));
        inv = S("%s && l%d_ < r%d_", inv, k, k);
    }
    line(em, "const bool in_view_ = %s;", inv);
}

int64_t view_box_bytes(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    Box b;
    if (!v || e->bi != BI_LOAD || !plan_box(em, e, v, &b)) return 0;
    return (b.n * dtype_bits(e->dtype) / 8 + 15) / 16 * 16;
}

/* The box's row-major strides (the array's last axis fastest). */
static void box_strides(const Box *b, int64_t *st)
{
    int64_t r = 1;
    for (int j = b->rank - 1; j >= 0; j--) st[j] = r, r *= b->ext[j];
}

static void box_read(Emitter *em, Expr *e, const View *v, const Box *b, const Shape *s, const int *ord,
                     const int64_t *bst, const char *name);

/* Element q_ of the box (row-major, the array's last axis fastest): its
 * coordinates b<j>_, whether it lies in the array (and `first`), and its
 * offset from the array's data. */
static void box_element(Emitter *em, const Box *b, const char *arr, const int64_t *bst, const char *first, char **in,
                        char **off)
{
    *in = S("%s", first);
    *off = S("base_");
    for (int j = 0; j < b->rank; j++) {
        if (b->ext[j] == 1) line(em, "const int b%d_ = 0;", j);
        else if (j == 0) line(em, "const int b%d_ = q_ / %" PRId64 ";", j, bst[j]);
        else line(em, "const int b%d_ = (q_ / %" PRId64 ") %% %" PRId64 ";", j, bst[j], b->ext[j]);
        *in = S("%s && b%d_ >= nl%d_ && b%d_ < rm%d_", *in, j, j, j, j);
        *off = S("%s + (int64_t)b%d_ * %s.strides[%d]", *off, j, arr, j);
    }
}

static void box_load(Emitter *em, Expr *e, const View *v, const Box *b, const char *arr)
{
    const char *name = em->tmp[e->id];
    Dtype d = e->dtype;
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    const char *ty = emit_storage_type(d);
    int64_t bst[TILE_MAX_RANK];
    box_strides(b, bst);
    line(em, "{ /* tile_load %s, a view of %s, staged through a shared box of %" PRId64 " elements */", e->args[0]->name,
         v->base->name, b->n);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    footprint_prologue(em, b, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    line(em, "%s *vb_ = (%s *)s_vbox_;", ty, ty);
    line(em, "%s /* the box's last readers are done */", em->bar);
    line(em, "for (int q_ = t_; q_ < %" PRId64 "; q_ += %d) {", b->n, em->T);
    em->ind++;
    char *in, *off;
    box_element(em, b, arr, bst, S("true"), &in, &off);
    line(em, "vb_[q_] = %s ? p_[%s] : %s;", in, off, mem_pad_value(em, d, v->padding));
    em->ind--;
    line(em, "}");
    line(em, "%s", em->bar);
    box_read(em, e, v, b, s, ord, bst, name);
    em->ind--;
    line(em, "}");
}

/* The tile from the box in shared memory.  Each element's place in the box
 * is a function of its coordinates in the tile alone, which the unrolled
 * loop folds into constants plus the thread's offset; the view's bounds
 * become the extents left after the tile's corner. */
static void box_read(Emitter *em, Expr *e, const View *v, const Box *b, const Shape *s, const int *ord,
                     const int64_t *bst, const char *name)
{
    Dtype d = e->dtype;
    tile_bounds_prologue(em, s, ord);
    tv_open_loop(em, s);
    tile_bounds_element(em, s);
    char *inv = S("in_view_");
    char *bix = S("0");
    for (int j = 0; j < b->rank; j++) {
        if (b->ext[j] == 1) continue;
        bix = S("%s + (%s) * %" PRId64, bix, box_coord(em, v, b, j), bst[j]);
    }
    line(em, "%s[%s] = %s ? vb_[%s] : %s;", name, tv_home_idx(em), inv, bix,
         mem_pad_value(em, d, ex_opt_int(e, "padding", 0)));
    tv_close_loop(em);
}

void view_load(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    Box box;
    if (plan_box(em, e, v, &box)) {
        box_load(em, e, v, &box, S("p_%s", v->base->name));
        return;
    }
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", v->base->name);
    Dtype d = e->dtype;
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    const char *ty = emit_storage_type(d);
    const char *vpad = mem_pad_value(em, d, v->padding);
    const char *lpad = mem_pad_value(em, d, ex_opt_int(e, "padding", 0));
    bool guarded = false;
    if (plan_footprint(em, e, v, &box)) {
        /* element by element, at offsets from the footprint's corner (where
         * the plan needs a run-time condition, under it, and the general
         * addressing below otherwise) */
        guarded = box.guard != NULL;
        if (guarded) {
            line(em, "if (%s) {", box.guard);
            em->ind++;
        }
        line(em, "{ /* tile_load %s, a view of %s, addressed from its footprint's corner */", e->args[0]->name,
             v->base->name);
        em->ind++;
        view_prologue(em, e, v, s, arr);
        footprint_prologue(em, &box, arr);
        line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
        tile_bounds_prologue(em, s, ord);
        tv_open_loop(em, s);
        tile_bounds_element(em, s);
        char *in, *off;
        footprint_element(em, v, &box, arr, &in, &off);
        line(em, "%s[%s] = in_view_ && (%s) ? p_[%s] : in_view_ ? %s : %s;", name, tv_home_idx(em), in, off, vpad, lpad);
        tv_close_loop(em);
        em->ind--;
        line(em, "}");
        if (!guarded) return;
        em->ind--;
        line(em, "} else {");
        em->ind++;
    }
    line(em, "{ /* tile_load %s, a view of %s */", e->args[0]->name, v->base->name);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    tv_open_loop(em, s);
    element_coords(em, v, s, ord, arr);
    if (!strcmp(vpad, lpad))
        line(em, "%s[%s] = in_view_ && in_array_ ? p_[%s] : %s;", name, tv_home_idx(em), offset_c(em, v, arr), vpad);
    else
        line(em, "%s[%s] = in_view_ && in_array_ ? p_[%s] : in_view_ ? %s : %s;", name, tv_home_idx(em),
             offset_c(em, v, arr), vpad, lpad);
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
    if (guarded) {
        em->ind--;
        line(em, "}");
    }
}

/* ---- one iteration ahead ---------------------------------------------------
 *
 * In a K loop, a view load whose .index depends only on the loop's
 * variables is fetched one iteration ahead into registers (body.c decides):
 * its global loads are in flight while the iteration before computes, as a
 * pipeline's copies are.  A boxed load fetches the box's elements (K = the
 * box over the block's threads, a few registers each) and writes them to
 * the shared box when its iteration comes; an element-wise one fetches the
 * tile's own elements. */

bool view_prefetchable(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    Box b;
    return v && e->bi == BI_LOAD && plan_footprint(em, e, v, &b) && !b.guard;
}

static int64_t box_regs(const Emitter *em, const Box *b)
{
    return (b->n + em->T - 1) / em->T;
}

void view_prefetch_declare(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    Box b;
    const char *ty = emit_storage_type(e->dtype);
    if (plan_box(em, e, v, &b)) line(em, "%s pf%d_[%" PRId64 "];", ty, e->id, box_regs(em, &b));
    else line(em, "%s pf%d_[%d];", ty, e->id, tv_lay(em, &e->shape).E);
}

void view_prefetch_issue(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    const char *arr = S("p_%s", v->base->name);
    const Shape *s = &e->shape;
    Dtype d = e->dtype;
    const char *ty = emit_storage_type(d);
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    Box b;
    bool boxed = plan_box(em, e, v, &b);
    if (!boxed) plan_footprint(em, e, v, &b);
    line(em, "{ /* tile_load %s, fetched an iteration ahead */", e->args[0]->name);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    footprint_prologue(em, &b, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    const char *vpad = mem_pad_value(em, d, v->padding);
    if (boxed) {
        int64_t bst[TILE_MAX_RANK];
        box_strides(&b, bst);
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", box_regs(em, &b));
        em->ind++;
        line(em, "const int q_ = t_ + r_ * %d;", em->T);
        char *in, *off;
        box_element(em, &b, arr, bst, b.n % em->T ? S("q_ < %" PRId64, b.n) : S("true"), &in, &off);
        line(em, "pf%d_[r_] = %s ? p_[%s] : %s;", e->id, in, off, vpad);
        em->ind--;
        line(em, "}");
    } else {
        const char *lpad = mem_pad_value(em, d, ex_opt_int(e, "padding", 0));
        tile_bounds_prologue(em, s, ord);
        tv_open_loop(em, s);
        tile_bounds_element(em, s);
        char *in, *off;
        footprint_element(em, v, &b, arr, &in, &off);
        line(em, "pf%d_[%s] = in_view_ && (%s) ? p_[%s] : in_view_ ? %s : %s;", e->id, tv_home_idx(em), in, off, vpad,
             lpad);
        tv_close_loop(em);
    }
    em->ind--;
    line(em, "}");
}

void view_prefetch_consume(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    const char *name = em->tmp[e->id];
    const Shape *s = &e->shape;
    Box b;
    if (!plan_box(em, e, v, &b)) {
        line(em, "#pragma unroll");
        line(em, "for (int e_ = 0; e_ < %d; ++e_) %s[e_] = pf%d_[e_]; /* tile_load %s, fetched ahead */",
             tv_lay(em, s).E, name, e->id, e->args[0]->name);
        return;
    }
    const char *arr = S("p_%s", v->base->name);
    const char *ty = emit_storage_type(e->dtype);
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    int64_t bst[TILE_MAX_RANK];
    box_strides(&b, bst);
    line(em, "{ /* tile_load %s, its box fetched ahead */", e->args[0]->name);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    line(em, "%s *vb_ = (%s *)s_vbox_;", ty, ty);
    line(em, "%s /* the box's last readers are done */", em->bar);
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", box_regs(em, &b));
    em->ind++;
    line(em, "const int q_ = t_ + r_ * %d;", em->T);
    if (b.n % em->T) line(em, "if (q_ < %" PRId64 ")", b.n);
    line(em, "vb_[q_] = pf%d_[r_];", e->id);
    em->ind--;
    line(em, "}");
    line(em, "%s", em->bar);
    box_read(em, e, v, &b, s, ord, bst, name);
    em->ind--;
    line(em, "}");
}

void view_store(Emitter *em, Expr *e, const char *name, const int *ord, Lay l)
{
    const View *v = view_arg(e);
    const char *arr = S("p_%s", v->base->name);
    const Shape *s = &e->shape;
    const char *ty = emit_storage_type(em->tmp_dt[e->id]);
    line(em, "{ /* tile_store %s, a view of %s */", e->args[0]->name, v->base->name);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    line(em, "%s *p_ = (%s *)%s.data;", ty, ty, arr);
    tv_open_loop(em, s);
    element_coords(em, v, s, ord, arr);
    char *cond = S("in_view_ && in_array_");
    if (l.repl) cond = S("t_ < %" PRId64 " && %s", l.n, cond);
    line(em, "if (%s) p_[%s] = %s[%s];", cond, offset_c(em, v, arr), name, tv_home_idx(em));
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
}
