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

/* Declares the coordinates of view v's terms (u<t>_) from its view
 * coordinates (w<m>_): each axis split over its nested modes, fastest
 * first, te[t] the C text of term t's extent (extents of the array:
 * tilec_vdiv, tilec_vmod, 32-bit where they fit). */
void view_split_terms(Emitter *em, const View *v, const char *const *te)
{
    for (int m = 0; m < v->rank; m++) {
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        if (n == 1) {
            line(em, "const int64_t u%d_ = w%d_;", ts[0], m);
            continue;
        }
        const char *below = "1";
        for (int q = 0; q < n; q++) {
            const char *ext = te[ts[q]];
            if (q == n - 1) line(em, "const int64_t u%d_ = tilec_vdiv(w%d_, %s);", ts[q], m, below);
            else if (q == 0) line(em, "const int64_t u%d_ = tilec_vmod(w%d_, %s);", ts[q], m, ext);
            else line(em, "const int64_t u%d_ = tilec_vmod(tilec_vdiv(w%d_, %s), %s);", ts[q], m, below, ext);
            below = q == 0 ? ext : S("%s * %s", below, ext);
        }
    }
}

/* Array coordinate j of view v from its terms' coordinates u<t>_. */
char *view_array_coord(Emitter *em, const View *v, int j)
{
    char *aj = S("(int64_t)%" PRId64, v->off[j]);
    for (int t = 0; t < v->nterms; t++) {
        if (!v->a[j][t]) continue;
        aj = v->a[j][t] == 1 ? S("%s + u%d_", aj, t) : S("%s + (int64_t)%" PRId64 " * u%d_", aj, v->a[j][t], t);
    }
    return aj;
}

/* Declares, inside the element loop, the element's view coordinates
 * (w<k>_), its terms' coordinates (u<t>_) and array coordinates (a<j>_),
 * and the two bounds: in_view_ and in_array_. */
static void element_coords(Emitter *em, const View *v, const Shape *s, const int *ord, const char *arr)
{
    for (int k = 0; k < s->rank; k++)
        line(em, "const int64_t w%d_ = o%d_ + %s;", ord[k], k, tv_coord(em, "i_", s, k));
    const char *te[VIEW_MAX_TERMS];
    for (int t = 0; t < v->nterms; t++) te[t] = S("te%d_", t);
    view_split_terms(em, v, te);
    for (int j = 0; j < v->base->rank; j++) line(em, "const int64_t a%d_ = %s;", j, view_array_coord(em, v, j));
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
    /* what each term's start is known to be a multiple of (0: it is 0),
     * for the alignment of the corner (box_residue) */
    int64_t mul[VIEW_MAX_TERMS];
    int64_t cst[VIEW_MAX_TERMS]; /* where mul is 0: the start's value */
    /* rel[t] again, as numbers: (l<rk>_ / rdiv) % rmod (no modulo where
     * rmod is 0), or 0 where rk is -1 (box_offset) */
    int rk[VIEW_MAX_TERMS];
    int64_t rdiv[VIEW_MAX_TERMS], rmod[VIEW_MAX_TERMS];
} Box;

/* Term t's coordinate relative to its first in the tile: (l<k>_ / div) %
 * mod (no division where div is 1, no modulo where mod is 0), or 0 where k
 * is -1; as numbers (box_offset) and as the expression (box_coord). */
static void rel_set(Emitter *em, Box *b, int t, int k, int64_t div, int64_t mod)
{
    b->rk[t] = k, b->rdiv[t] = div, b->rmod[t] = mod;
    const char *l = S("l%d_", k);
    if (k < 0) b->rel[t] = "0";
    else if (div == 1 && !mod) b->rel[t] = l;
    else if (div == 1) b->rel[t] = S("(%s %% %" PRId64 ")", l, mod);
    else if (!mod) b->rel[t] = S("(%s / %" PRId64 ")", l, div);
    else b->rel[t] = S("((%s / %" PRId64 ") %% %" PRId64 ")", l, div, mod);
}

/* Whether extent x comes from the array (else it is a constant, x->add). */
static bool ext_of_array(const ViewExt *x)
{
    return x->axis >= 0 || x->inner || x->times;
}

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
            if (ext_of_array(x)) {
                inner_const = false;
                ce[q] = 0;
                continue;
            }
            ce[q] = x->add;
            P *= ce[q];
        }
        /* the tile's origin along k where its index is a constant (else -1) */
        const Option *io = ast_option(e, "index");
        const Expr *ix = io && io->value->kind == EX_LIST ? io->value->args[k] : io ? io->value : NULL;
        int64_t oc = ix && ix->is_const && !ix->cval.is_float && ix->cval.i >= 0 ? ix->cval.i * S : -1;
        for (int q = 0; q < n; q++) b->cst[ts[q]] = 0;
        if (!inner_const && n > 1) {
            /* Only inside one run of the fastest term, which must then be a
             * multiple of the tile's extent: a run-time guard (one per tile;
             * te<t>_ are the inner terms' extents, view_prologue). */
            if (b->guard) return false;
            b->guard = S("%s %% %" PRId64 " == 0", view_ext_c(em->ar, v->term[ts[0]].ext, S("p_%s.shape[%%d]", v->base->name)), S);
            const char *below = S("te%d_", ts[0]);
            /* (o<k>_, and by the guard the run, a multiple of S) */
            start[ts[0]] = S("tilec_vmod(%s, %s)", o, below), span[ts[0]] = S, b->mul[ts[0]] = S;
            rel_set(em, b, ts[0], k, 1, 0);
            for (int q = 1; q < n; q++) {
                start[ts[q]] = q == n - 1 ? S("tilec_vdiv(%s, %s)", o, below)
                                          : S("tilec_vmod(tilec_vdiv(%s, %s), te%d_)", o, below, ts[q]);
                span[ts[q]] = 1, b->mul[ts[q]] = 1;
                rel_set(em, b, ts[q], -1, 1, 0);
                if (q < n - 1) below = S("%s * te%d_", below, ts[q]);
            }
        } else if (n == 1) {
            /* (o<k>_ is the tile's index times S) */
            start[ts[0]] = o, span[ts[0]] = S, b->mul[ts[0]] = oc < 0 ? S : 0, b->cst[ts[0]] = oc;
            rel_set(em, b, ts[0], k, 1, 0);
        } else if (S % P == 0) {
            /* the tile starts at a multiple of P: the inner terms run whole */
            int64_t below = 1;
            for (int q = 0; q < n - 1; q++) {
                start[ts[q]] = "0", span[ts[q]] = ce[q], b->mul[ts[q]] = 0;
                rel_set(em, b, ts[q], k, below, ce[q]);
                below *= ce[q];
            }
            start[ts[n - 1]] = S("(%s / %" PRId64 ")", o, P), span[ts[n - 1]] = S / P;
            b->mul[ts[n - 1]] = oc < 0 ? S / P : 0, b->cst[ts[n - 1]] = oc / P;
            rel_set(em, b, ts[n - 1], k, P, 0);
        } else if (ce[0] % S == 0) {
            /* the tile lies inside one run of the fastest term */
            /* (a multiple of S: so are o<k>_ and ce[0]) */
            int64_t below = ce[0];
            start[ts[0]] = S("(%s %% %" PRId64 ")", o, ce[0]), span[ts[0]] = S, b->mul[ts[0]] = S;
            rel_set(em, b, ts[0], k, 1, 0);
            for (int q = 1; q < n; q++) {
                start[ts[q]] = q == n - 1 ? S("(%s / %" PRId64 ")", o, below) : S("((%s / %" PRId64 ") %% %" PRId64 ")", o, below, ce[q]);
                span[ts[q]] = 1, b->mul[ts[q]] = 1;
                rel_set(em, b, ts[q], -1, 1, 0);
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

/* ---- boxes in pipelined K loops -------------------------------------------
 *
 * pipeline.c's K loops also take operands that are view loads (reshaped to
 * the operand's shape or not) whose footprint is static: a stage of the ring
 * holds the footprint's box rather than the operand, filled by asynchronous
 * copies several steps ahead (view_box_issue), and when its step comes the
 * block gathers the operand from the box into the products' buffer
 * (view_box_gather).  That is the halo tile of an im2col: the taps' windows
 * overlap in the box and each array element is fetched once per tile, and
 * the global reads are in flight for the steps between, where the register
 * prefetch above covers one step.
 *
 * The box is row-major with the array's last axis fastest, copied in chunks
 * of V elements along that axis (16-, 8- or 4-byte cp.async).  For the
 * chunks to be aligned the box starts V-aligned: its corner along the last
 * axis, lo, rounded down to a multiple of V, the `shift` lo - that before
 * the footprint's first element.  Where lo's residue modulo V is known at
 * compile time (the tile's origin is a multiple of the tile's extent, so
 * each term's start is a multiple of something known: box_residue) the
 * shift is a constant and the row exactly as long as it needs to be;
 * otherwise it is computed at run time and the row has room for V - 1 more.
 * A chunk that is not wholly inside the array, not contiguous or not
 * aligned in memory is copied element by element with the view's padding
 * (the edges; every chunk of an array whose strides forbid vectors). */

typedef struct PipeBox {
    Box b;
    int V;       /* elements a chunk: 8, 4, 2 (16-, 8-, 4-byte copies), or 1 (element by element) */
    int64_t sh;  /* the shift, or -1 where it is known at run time only */
    int64_t ext; /* the box row's length, a multiple of V */
    int64_t n;   /* elements: the box's other extents times ext */
} PipeBox;

static int64_t gcd64(int64_t a, int64_t b)
{
    while (b) {
        int64_t t = a % b;
        a = b, b = t;
    }
    return a;
}

/* lo<j>_ = r (mod g), or exactly r where g is 0. */
static void box_residue(const View *v, const Box *b, int j, int64_t *g, int64_t *r)
{
    *g = 0;
    *r = v->off[j];
    for (int t = 0; t < v->nterms; t++) {
        int64_t c = v->a[j][t];
        if (!c) continue;
        if (c < 0) *r += c * (b->span[t] - 1);
        if (b->mul[t]) *g = gcd64(*g, (c < 0 ? -c : c) * b->mul[t]);
        else *r += c * b->cst[t];
    }
}

bool view_inner_dynamic(const Expr *e)
{
    const View *v = view_arg(e);
    for (int m = 0; v && m < v->rank; m++) {
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        for (int q = 0; q < n - 1; q++)
            if (ext_of_array(v->term[ts[q]].ext)) return true;
    }
    return false;
}

static bool plan_pipe_box(Emitter *em, Expr *e, const View *v, PipeBox *p)
{
    if (dtype_bits(e->dtype) != 16 || !plan_footprint(em, e, v, &p->b)) return false;
    int last = p->b.rank - 1;
    int64_t ext = p->b.ext[last], g, r;
    box_residue(v, &p->b, last, &g, &r);
    p->V = 1, p->sh = 0, p->ext = ext;
    for (int V = 8; V >= 2; V /= 2) {
        bool known = g == 0 || g % V == 0;
        int64_t sh = known ? ((r % V) + V) % V : V - 1;
        int64_t len = (sh + ext + V - 1) / V * V;
        if ((len - ext) * 4 > ext) continue; /* a quarter of the row wasted, at most */
        p->V = V, p->sh = known ? sh : -1, p->ext = len;
        break;
    }
    p->n = p->ext;
    for (int j = 0; j < last; j++) p->n *= p->b.ext[j];
    return p->n * 2 <= 32 * 1024;
}

int64_t view_pipe_box(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    PipeBox p;
    if (!v || e->bi != BI_LOAD || !plan_pipe_box(em, e, v, &p)) return 0;
    /* under a guard, the stage holds the tile itself where it fails */
    return p.b.guard && shape_numel(&e->shape) > p.n ? shape_numel(&e->shape) : p.n;
}

/* Where the footprint's guard fails (view_box_issue): the tile itself,
 * element by element through the view's general addressing, row-major into
 * dst; view_box_gather then copies it as it is. */
static void pipe_tile_fallback(Emitter *em, Expr *e, const View *v, const char *dst)
{
    const char *arr = S("p_%s", v->base->name);
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    view_prologue(em, e, v, s, arr);
    line(em, "const uint16_t *p_ = (const uint16_t *)%s.data;", arr);
    /* (unrolled as the other element loops are: a rolled loop here made
     * ptxas hold conv2d's kernels to 80 registers, and spill) */
    int64_t n = shape_numel(s), reps = (n + em->T - 1) / em->T;
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
    em->ind++;
    line(em, "const int i_ = t_ + r_ * %d;", em->T);
    if (n % em->T) line(em, "if (i_ >= %" PRId64 ") break;", n);
    element_coords(em, v, s, ord, arr);
    line(em, "%s[i_] = in_view_ && in_array_ ? p_[%s] : in_view_ ? %s : %s;", dst, offset_c(em, v, arr),
         mem_pad_value(em, e->dtype, v->padding), mem_pad_value(em, e->dtype, ex_opt_int(e, "padding", 0)));
    em->ind--;
    line(em, "}");
}

/* The box's row-major strides, its rows p->ext long. */
static void pipe_box_strides(const PipeBox *p, int64_t *st)
{
    int64_t r = 1;
    for (int j = p->b.rank - 1; j >= 0; j--) st[j] = r, r *= j == p->b.rank - 1 ? p->ext : p->b.ext[j];
}

/* The box's corner along the last axis (lo_) and the shift (sh_). */
static void pipe_box_shift(Emitter *em, const PipeBox *p)
{
    line(em, "const int64_t lo_ = %s;", p->b.lo[p->b.rank - 1]);
    if (p->sh >= 0) line(em, "const int sh_ = %" PRId64 ";", p->sh);
    else line(em, "const int sh_ = (int)(((lo_ %% %d) + %d) %% %d);", p->V, p->V, p->V);
}

/* The chunk loop of a box copy: chunk c_ of V elements (16 bytes when
 * merged or fast) at dst + c_ * V.  Rows run over the box's axes before
 * `nrow` (the last axis, or with `merged` the last two read as one row of
 * `rowlen` elements); `fast`: the whole box lies inside the array on
 * 16-byte aligned rows (the caller tested it), so each chunk is one
 * cp.async without bounds or alignment tests (tilec_pipe_copy16). */
static void box_chunks(Emitter *em, const PipeBox *p, const char *arr, const char *dst, bool merged, bool fast)
{
    int last = p->b.rank - 1, nrow = merged ? last - 1 : last, V = merged ? 8 : p->V;
    int64_t rowlen = merged ? p->b.ext[last - 1] * p->ext : p->ext;
    int64_t per_row = rowlen / V, chunks = p->n / V, reps = (chunks + em->T - 1) / em->T;
    line(em, "%s", reps <= 8 ? "#pragma unroll" : "#pragma unroll 1");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", reps);
    em->ind++;
    line(em, "const int c_ = t_ + r_ * %d;", em->T);
    if (chunks % em->T) line(em, "if (c_ >= %" PRId64 ") break;", chunks);
    char *in = S("true"), *row = merged ? S("lo%d_ * %s.strides[%d]", last - 1, arr, last - 1) : S("(int64_t)0");
    int64_t below = per_row;
    for (int j = nrow - 1; j >= 0; j--) {
        if (p->b.ext[j] == 1) line(em, "const int64_t g%d_ = lo%d_;", j, j);
        else if (j == 0) line(em, "const int64_t g%d_ = lo%d_ + c_ / %" PRId64 ";", j, j, below);
        else line(em, "const int64_t g%d_ = lo%d_ + (c_ / %" PRId64 ") %% %" PRId64 ";", j, j, below, p->b.ext[j]);
        below *= p->b.ext[j];
        in = S("%s && g%d_ >= 0 && g%d_ < %s.shape[%d]", in, j, j, arr, j);
        row = S("%s + g%d_ * %s.strides[%d]", row, j, arr, j);
    }
    const char *col = merged ? S("(c_ %% %" PRId64 ") * 8", per_row) : S("lo_ - sh_ + (c_ %% %" PRId64 ") * %d", per_row, V);
    if (fast)
        line(em, "tilec_pipe_copy16(%s + c_ * 8, p_ + %s + %s);", dst, row, col);
    else if (merged)
        line(em, "tilec_box_copy<8>(%s + c_ * 8, p_, %s, %s, %" PRId64 ", 1, %s, pad_);", dst, row, col, rowlen, in);
    else
        line(em, "tilec_box_copy<%d>(%s + c_ * %d, p_, %s, %s, %s.shape[%d], %s.strides[%d], %s, pad_);", V, dst, V, row,
             col, arr, last, arr, last, in);
    em->ind--;
    line(em, "}");
}

/* One branch of a box copy: its opening line (`if (...) {`, `} else {`),
 * then its chunk loop one level in. */
static void box_branch(Emitter *em, const char *open, const PipeBox *p, const char *arr, const char *dst, bool merged,
                       bool fast)
{
    line(em, "%s", open);
    em->ind++;
    box_chunks(em, p, arr, dst, merged, fast);
    em->ind--;
}

void view_box_issue(Emitter *em, Expr *e, const char *dst)
{
    const View *v = view_arg(e);
    PipeBox p;
    plan_pipe_box(em, e, v, &p);
    const char *arr = S("p_%s", v->base->name);
    const Shape *s = &e->shape;
    int last = p.b.rank - 1;
    if (p.b.guard) {
        line(em, "if (!(%s)) { /* tile_load %s: the footprint is not a box */", p.b.guard, e->args[0]->name);
        em->ind++;
        pipe_tile_fallback(em, e, v, dst);
        em->ind--;
        line(em, "} else");
    }
    line(em, "{ /* tile_load %s: its box of %s, %" PRId64 " elements, asynchronously */", e->args[0]->name,
         v->base->name, p.n);
    em->ind++;
    if (p.b.guard) view_prologue(em, e, v, s, arr); /* (the corner reads the inner extents, te<t>_) */
    else mem_origin(em, e, s);
    pipe_box_shift(em, &p);
    for (int j = 0; j < last; j++) line(em, "const int64_t lo%d_ = %s;", j, p.b.lo[j]);
    line(em, "const uint16_t *p_ = (const uint16_t *)%s.data;", arr);
    line(em, "const uint16_t pad_ = %s;", mem_pad_value(em, e->dtype, v->padding));
    /* Short box rows (a weight's taps: rows of 4) make short copies.  Where
     * the box's last two axes are one contiguous run in memory (the box
     * spans the whole last axis and the array's strides are dense there)
     * and the box lies inside the array along the axis before it, the two
     * axes are copied as one row of 16-byte chunks: the box's layout in
     * shared memory is the same (its rows are p.ext long, unpadded), only
     * the chunks are longer.  Decided per step at run time, as the strides
     * and extents are the array's. */
    int64_t mreps = (p.n / 8 + em->T - 1) / em->T;
    bool merge = last > 0 && p.V < 8 && p.sh == 0 && p.ext == p.b.ext[last] && p.b.ext[last - 1] * p.ext % 8 == 0 &&
                 p.b.ext[last - 1] > 1 && mreps <= 8;
    /* A box wholly inside the array, on rows whose 16-byte chunks are
     * aligned, needs no test per chunk: every chunk one cp.async (most
     * steps of most tiles; the tests per chunk were a third of a
     * convolution's instructions, ncu on the H200). */
    int nrow = merge ? last - 1 : last;
    char *inside = S("((uintptr_t)p_ & 15) == 0");
    for (int j = 0; j < nrow; j++)
        inside = S("%s && lo%d_ >= 0 && lo%d_ + %" PRId64 " <= %s.shape[%d] && %s.strides[%d] %% 8 == 0", inside, j, j,
                   p.b.ext[j], arr, j, arr, j);
    if (merge) {
        int j = last - 1;
        line(em, "const bool mg_ = lo_ == 0 && %s.shape[%d] == %" PRId64 " && %s.strides[%d] == 1 && %s.strides[%d] == %" PRId64
                 " && lo%d_ >= 0 && lo%d_ + %" PRId64 " <= %s.shape[%d]; /* its last two axes as one row */",
             arr, last, p.ext, arr, last, arr, j, p.ext, j, j, p.b.ext[j], arr, j);
        box_branch(em, S("if (mg_ && %s && lo%d_ * %" PRId64 " %% 8 == 0) {", inside, j, p.ext), &p, arr, dst, true, true);
        box_branch(em, "} else if (mg_) {", &p, arr, dst, true, false);
        box_branch(em, "} else {", &p, arr, dst, false, false);
        line(em, "}");
    } else if (p.V == 8) {
        box_branch(em, S("if (%s && lo_ - sh_ >= 0 && lo_ - sh_ + %" PRId64 " <= %s.shape[%d] && %s.strides[%d] == 1) { /* inside */",
                         inside, p.ext, arr, last, arr, last), &p, arr, dst, false, true);
        box_branch(em, "} else {", &p, arr, dst, false, false);
        line(em, "}");
    } else {
        box_chunks(em, &p, arr, dst, false, false);
    }
    em->ind--;
    line(em, "}");
}

/* The box offset, less the shift, of the tile element with row-major
 * index i: box_coord's expressions evaluated. */
static int64_t box_offset(const View *v, const PipeBox *p, const Shape *s, const int64_t *bst, int64_t i)
{
    int64_t l[TILE_MAX_RANK];
    for (int k = s->rank - 1; k >= 0; k--) l[k] = i % s->dim[k], i /= s->dim[k];
    int64_t off = 0;
    for (int j = 0; j < p->b.rank; j++) {
        if (p->b.ext[j] == 1 && j != p->b.rank - 1) continue;
        int64_t r = 0;
        for (int t = 0; t < v->nterms; t++) {
            int64_t c = v->a[j][t];
            if (!c) continue;
            int64_t rel = p->b.rk[t] < 0 ? 0 : l[p->b.rk[t]] / p->b.rdiv[t];
            if (p->b.rk[t] >= 0 && p->b.rmod[t]) rel %= p->b.rmod[t];
            r += c > 0 ? c * rel : c * (rel - (p->b.span[t] - 1));
        }
        off += r * bst[j];
    }
    return off;
}

/* How the tile's runs of 8 (row-major) lie in the box: RUNS_ALIGNED, each
 * 8 consecutive elements at a multiple of 8 (the shift included: one
 * 16-byte load); RUNS_CONTIGUOUS, 8 consecutive elements anywhere (two
 * loads and a shift: the windows of an im2col, one tap further along
 * each); RUNS_SCATTERED otherwise (element by element). */
enum { RUNS_SCATTERED, RUNS_CONTIGUOUS, RUNS_ALIGNED };

static int box_runs(const View *v, const PipeBox *p, const Shape *s, const int64_t *bst)
{
    bool aligned = p->sh >= 0;
    for (int64_t i = 0; i < shape_numel(s); i += 8) {
        int64_t o = box_offset(v, p, s, bst, i);
        for (int e = 1; e < 8; e++)
            if (box_offset(v, p, s, bst, i + e) != o + e) return RUNS_SCATTERED;
        if ((o + (aligned ? p->sh : 0)) % 8) aligned = false;
    }
    return aligned ? RUNS_ALIGNED : RUNS_CONTIGUOUS;
}

/* Runs that share their box words.  In an im2col operand the rows of one
 * channel's taps are the same window one element further along each, so
 * the runs at (r, c) .. (r + G - 1, c) read the same two or three aligned
 * 16-byte words of the box.  A gather that gives one thread such a group
 * loads those words once, and since the shifts are then constants
 * (tilec_shift_h8 folds to byte permutations) it also drops the shift's
 * selects: conv1d's B gather went from two loads and about 40
 * instructions a run to under a load and about 10 (ncu, H200).
 * RunGroup says whether the gather can: G rows a group (0: no), d[g] the
 * offset of the group's run g from its first, rho the first run's
 * position in its word (the same for every group), words the mask of the
 * words (from the first run's) that some run of the group reads. */
typedef struct RunGroup {
    int G, rho;
    int64_t d[8];
    uint64_t words;
} RunGroup;

static RunGroup box_group(const View *v, const PipeBox *p, const Shape *s, const int64_t *bst, int64_t rows,
                          int64_t cols, int T)
{
    RunGroup best = {0};
    if (p->sh < 0) return best; /* (a shift known at run time only: the residues are not constants) */
    for (int G = 8; G >= 2; G /= 2) {
        if (rows % G || rows / G * (cols / 8) < 32) continue; /* (a warp's worth of groups at least) */
        RunGroup rg = {.G = G, .rho = -1};
        bool ok = true;
        for (int64_t r = 0; ok && r < rows; r += G)
            for (int64_t c = 0; ok && c < cols; c += 8) {
                int64_t o = box_offset(v, p, s, bst, r * cols + c) + p->sh;
                if (rg.rho < 0) rg.rho = (int)(o % 8);
                if (o % 8 != rg.rho) ok = false;
                for (int g = 1; ok && g < G; g++) {
                    int64_t d = box_offset(v, p, s, bst, (r + g) * cols + c) + p->sh - o;
                    if (r == 0 && c == 0) rg.d[g] = d;
                    if (d != rg.d[g] || d < 0) ok = false;
                }
            }
        for (int g = 0; ok && g < G; g++) { /* a run reads its word, and the next one unless aligned */
            int64_t o = rg.rho + rg.d[g], n = o / 8 + (o % 8 ? 2 : 1);
            if (n > 64) ok = false;
            for (int64_t w = o / 8; ok && w < n; w++) rg.words |= (uint64_t)1 << w;
        }
        if (!ok || __builtin_popcountll(rg.words) >= 2 * G) continue; /* (fewer loads than the runs one at a time) */
        if (!best.G) best = rg;
        /* the largest groups that still give every thread one: the block
         * waits at the barrier after the gathers for its slowest thread */
        if (rows / G * (cols / 8) >= T) return rg;
    }
    return best; /* (too few runs for every thread: the fewest loads) */
}

/* Opens the loop over a thread's runs of 8 operand elements: run q_, at
 * (row_, col_) of the operand (the caller closes it). */
static void gather_runs_open(Emitter *em, int64_t runs, int64_t per_row)
{
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", (runs + em->T - 1) / em->T);
    em->ind++;
    line(em, "const int q_ = t_ + r_ * %d;", em->T);
    if (runs % em->T) line(em, "if (q_ >= %" PRId64 ") break;", runs);
    line(em, "const int row_ = q_ / %" PRId64 ", col_ = (q_ %% %" PRId64 ") * 8;", per_row, per_row);
}

/* Where the run at (row_ + g, col_) of the rows x cols operand goes:
 * tilec_swz's layout, or (mn) wgmma's MN-major one. */
static char *dst_at(Emitter *em, bool mn, int64_t rows, int64_t cols, int g)
{
    const char *r = g ? S("row_ + %d", g) : "row_";
    return mn ? S("tilec_swz_mn<%" PRId64 ">(%s, col_)", rows, r) : S("tilec_swz<%" PRId64 ">(%s, col_)", cols, r);
}

/* The gather: operand run q_ (8 elements of a row) at a time, one 16-byte
 * store each.  A run starts at a multiple of 8 of the tile's row-major
 * index and tile extents are powers of two, so an element's tile
 * coordinates are its run's plus constants (i_ = ib_ | e_: no carries),
 * and nvcc folds most of each element's box offset into an immediate.
 * Tiles wholly inside the view (all but the view's edges) skip the bounds:
 * two copies of the loop, the branch uniform across the block. */
void view_box_gather(Emitter *em, Expr *e, const char *box, const char *dst, int64_t rows, int64_t cols, bool mn)
{
    const char *at = dst_at(em, mn, rows, cols, 0);
    const View *v = view_arg(e);
    PipeBox p;
    plan_pipe_box(em, e, v, &p);
    const char *arr = S("p_%s", v->base->name);
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    int64_t bst[TILE_MAX_RANK];
    pipe_box_strides(&p, bst);
    int64_t runs = rows * cols / 8, per_row = cols / 8;
    if (p.b.guard) {
        line(em, "if (!(%s)) { /* tile_load %s: the tile as view_box_issue left it */", p.b.guard, e->args[0]->name);
        em->ind++;
        gather_runs_open(em, runs, per_row);
        line(em, "*(uint4 *)(%s + %s) = *(const uint4 *)(%s + q_ * 8);", dst, at, box);
        em->ind--;
        line(em, "}");
        em->ind--;
        line(em, "} else");
    }
    line(em, "{ /* tile_load %s from its box: the %" PRId64 " x %" PRId64 " operand */", e->args[0]->name, rows, cols);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    pipe_box_shift(em, &p);
    line(em, "(void)lo_;");
    /* the view's extents left after the tile's corner, clamped to the
     * tile (32-bit), 0 along every axis where a corner is negative */
    char *ok = S("true"), *full = S("ok_");
    for (int k = 0; k < s->rank; k++) ok = S("%s && o%d_ >= 0", ok, k);
    line(em, "const bool ok_ = %s;", ok);
    /* (the whole-tile test compares the extents left; the clamped counts
     * are the edge path's only, computed there) */
    for (int k = 0; k < s->rank; k++) full = S("%s && x%d_ - o%d_ >= %" PRId64, full, ord[k], k, s->dim[k]);
    line(em, "const uint16_t *vb_ = %s;", box);
    char *bix = S("sh_");
    for (int j = 0; j < p.b.rank; j++) {
        if (p.b.ext[j] == 1 && j != p.b.rank - 1) continue;
        bix = S("%s + (%s) * %" PRId64, bix, box_coord(em, v, &p.b, j), bst[j]);
    }
    const char *lpad = mem_pad_value(em, e->dtype, ex_opt_int(e, "padding", 0));
    int runs_kind = box_runs(v, &p, s, bst);
    RunGroup rg = runs_kind == RUNS_CONTIGUOUS ? box_group(v, &p, s, bst, rows, cols, em->T) : (RunGroup){0};
    for (int whole = 1; whole >= 0; whole--) {
        line(em, whole ? "if (%s) {" : "} else {", full);
        em->ind++;
        for (int k = 0; !whole && k < s->rank; k++)
            line(em, "const int r%d_ = !ok_ || x%d_ - o%d_ <= 0 ? 0 : x%d_ - o%d_ >= %" PRId64 " ? %" PRId64 " : (int)(x%d_ - o%d_);",
                 k, ord[k], k, ord[k], k, s->dim[k], s->dim[k], ord[k], k);
        if (whole && rg.G) { /* groups of G runs, one thread each (box_group) */
            int64_t tasks = rows / rg.G * per_row;
            line(em, "#pragma unroll");
            line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) {", (tasks + em->T - 1) / em->T);
            em->ind++;
            line(em, "const int q_ = t_ + r_ * %d;", em->T);
            if (tasks % em->T) line(em, "if (q_ >= %" PRId64 ") break;", tasks);
            line(em, "const int row_ = (q_ / %" PRId64 ") * %d, col_ = (q_ %% %" PRId64 ") * 8;", per_row, rg.G, per_row);
            line(em, "const int i_ = row_ * %" PRId64 " + col_;", cols);
            for (int k = 0; k < s->rank; k++) line(em, "const int l%d_ = %s; (void)l%d_;", k, tv_coord(em, "i_", s, k), k);
            line(em, "const uint4 *pv_ = (const uint4 *)(vb_ + (%s) - %d);", bix, rg.rho);
            for (int w = 0; w < 64; w++)
                if (rg.words >> w & 1) line(em, "const uint4 w%d_ = pv_[%d];", w, w);
            for (int g = 0; g < rg.G; g++) {
                int64_t o = rg.rho + rg.d[g];
                const char *d = S("*(uint4 *)(%s + %s)", dst, dst_at(em, mn, rows, cols, g));
                if (o % 8) line(em, "%s = tilec_shift_h8(w%" PRId64 "_, w%" PRId64 "_, %" PRId64 ");", d, o / 8, o / 8 + 1, o % 8);
                else line(em, "%s = w%" PRId64 "_;", d, o / 8);
            }
            em->ind--;
            line(em, "}");
            em->ind--;
            continue;
        }
        gather_runs_open(em, runs, per_row);
        line(em, "const int ib_ = row_ * %" PRId64 " + col_;", cols);
        if (whole && runs_kind != RUNS_SCATTERED) {
            line(em, "const int i_ = ib_;");
            for (int k = 0; k < s->rank; k++) line(em, "const int l%d_ = %s; (void)l%d_;", k, tv_coord(em, "i_", s, k), k);
            const char *d = S("(uint4 *)(%s + %s)", dst, at);
            if (runs_kind == RUNS_ALIGNED) {
                line(em, "*%s = *(const uint4 *)(vb_ + %s);", d, bix);
            } else {
                line(em, "const int a_ = %s;", bix);
                line(em, "const uint4 *pv_ = (const uint4 *)(vb_ + (a_ & ~7));");
                line(em, "*%s = tilec_shift_h8(pv_[0], pv_[1], a_ & 7);", d);
            }
            em->ind--;
            line(em, "}");
            em->ind--;
            continue;
        }
        line(em, "union { uint4 w; uint16_t h[8]; } u_;");
        line(em, "#pragma unroll");
        line(em, "for (int e_ = 0; e_ < 8; ++e_) {");
        em->ind++;
        line(em, "const int i_ = ib_ | e_;");
        char *inv = S("true");
        for (int k = 0; k < s->rank; k++) {
            line(em, "const int l%d_ = %s; (void)l%d_;", k, tv_coord(em, "i_", s, k), k);
            inv = S("%s && l%d_ < r%d_", inv, k, k);
        }
        if (whole) line(em, "u_.h[e_] = vb_[%s];", bix);
        else line(em, "u_.h[e_] = %s ? vb_[%s] : %s;", inv, bix, lpad);
        em->ind--;
        line(em, "}");
        line(em, "*(uint4 *)(%s + %s) = u_.w;", dst, at);
        em->ind--;
        line(em, "}");
        em->ind--;
    }
    line(em, "}");
    em->ind--;
    line(em, "}");
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
