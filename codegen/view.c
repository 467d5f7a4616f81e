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
    char *ina = S("true");
    for (int q = 0; q < v->ncons; q++) {
        char *c = S("(int64_t)%" PRId64, v->cons[q].c0);
        for (int t = 0; t < v->nterms; t++)
            if (v->cons[q].coef[t]) c = S("%s + (int64_t)%" PRId64 " * u%d_", c, v->cons[q].coef[t], t);
        line(em, "const int64_t c%d_ = %s;", q, c);
        ina = S("%s && c%d_ >= 0 && c%d_ < %s", ina, q, q, ext_c(em, v->cons[q].ext, arr));
    }
    for (int j = 0; j < v->base->rank; j++) ina = S("%s && a%d_ >= 0 && a%d_ < %s.shape[%d]", ina, j, j, arr, j);
    line(em, "const bool in_view_ = %s;", inv);
    line(em, "const bool in_array_ = %s;", ina);
    line(em, "(void)in_view_;");
}

/* The tile's origin (o<k>_) and the extents of the view's axes (x<m>_) and
 * of its nested terms (te<t>_), before the element loop. */
static void view_prologue(Emitter *em, Expr *e, const View *v, const Shape *s, const char *arr)
{
    Option *idx = ast_option(e, "index");
    Expr *iv = idx->value;
    for (int k = 0; k < s->rank; k++) {
        Expr *x = iv->kind == EX_LIST ? iv->args[k] : iv;
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t o%d_ = (int64_t)(%s) * %" PRId64 ";", k, ex_evc(em, x, c, DT_INT64), s->dim[k]);
    }
    for (int m = 0; m < v->rank; m++) {
        line(em, "const int64_t x%d_ = %s;", m, ext_c(em, v->ext[m], arr));
        int ts[VIEW_MAX_TERMS];
        int n = view_mode_terms(v, m, ts);
        for (int q = 0; n > 1 && q < n - 1; q++) line(em, "const int64_t te%d_ = %s;", ts[q], ext_c(em, v->term[ts[q]].ext, arr));
    }
}

static char *offset_c(Emitter *em, const View *v, const char *arr)
{
    char *off = S("0");
    for (int j = 0; j < v->base->rank; j++) off = S("%s + a%d_ * %s.strides[%d]", off, j, arr, j);
    return off;
}

void view_load(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", v->base->name);
    Dtype d = e->dtype;
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    const char *ty = emit_storage_type(d);
    line(em, "{ /* tile_load %s, a view of %s */", e->args[0]->name, v->base->name);
    em->ind++;
    view_prologue(em, e, v, s, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    const char *vpad = mem_pad_value(em, d, v->padding);
    const char *lpad = mem_pad_value(em, d, ex_opt_int(e, "padding", 0));
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
}

void view_store(Emitter *em, Expr *e)
{
    const View *v = view_arg(e);
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", v->base->name);
    Dtype d = em->tmp_dt[e->id];
    const Shape *s = &e->shape;
    mem_materialize(em, name, d, s, e->args[1]);
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    Lay l = tv_lay(em, s);
    const char *ty = emit_storage_type(d);
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
