/* memory.c: values that touch memory.  Materialisation of a value into
 * its registers (and its shared-memory mirror), tile_load and tile_store
 * (vectorised 16-byte runs on the ALIGNED variant, bounds and padding),
 * and gather, scatter and atomics. */
#include "codegen/lower.h"

/* ---- materialisation ----------------------------------------------------- */

/* Copies a freshly written register tile into its shared-memory mirror. */
void mem_write_mirror(Emitter *em, const char *name, const Shape *s)
{
    Lay l = tv_lay(em, s);
    line(em, "%s", em->bar);
    int vec = tv_mirror_vec(em, name);
    if (vec) { /* whole runs, each one vector store (tv_mirror_swizzle keeps them together) */
        tv_open_runs(em, s, l.E / vec);
        line(em, "tilec_vstore<%d>(&s_%s[%s], %s, r_ * %d);", vec, name, tv_mirror_at(em, name, "i_"), name, vec);
        tv_close_loop(em);
        line(em, "%s", em->bar);
        return;
    }
    tv_open_loop(em, s);
    const char *at = tv_mirror_at(em, name, "i_");
    if (l.repl) line(em, "if (t_ < %" PRId64 ") s_%s[%s] = %s[e_];", l.n, name, at, name);
    else line(em, "s_%s[%s] = %s[e_];", name, at, name);
    tv_close_loop(em);
    line(em, "%s", em->bar);
}

/* name (dtype d, shape s) = value, element by element. */
void mem_materialize(Emitter *em, const char *name, Dtype d, const Shape *s, Expr *value)
{
    if (s->rank == 0) {
        Ctx c = {.shape = s, .idx = "0", .home = false};
        line(em, "%s = %s;", name, val_st_assign(em, d, value, ex_evc(em, value, c, d)));
        return;
    }
    tv_open_loop(em, s);
    Ctx c = {.shape = s, .idx = "i_", .home = true};
    line(em, "%s[%s] = %s;", name, tv_home_idx(em), val_st_assign(em, d, value, ex_evc(em, value, c, d)));
    tv_close_loop(em);
}

const char *mem_pad_value(Emitter *em, Dtype d, int64_t pad)
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
void mem_tile_order(Expr *e, int rank, int *ord)
{
    for (int k = 0; k < rank; k++) ord[k] = k;
    Option *o = ast_option(e, "order");
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

/* Emits the tile origin (o<k>_) and bounds (full_) pieces common to loads
 * and stores. */
void mem_origin(Emitter *em, Expr *e, const Shape *s)
{
    Option *idx = ast_option(e, "index");
    Expr *iv = idx->value;
    for (int k = 0; k < s->rank; k++) {
        Expr *x = iv->kind == EX_LIST ? iv->args[k] : iv;
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int64_t o%d_ = (int64_t)(%s) * %" PRId64 ";", k, ex_evc(em, x, c, DT_INT64), s->dim[k]);
    }
}

void mem_prologue(Emitter *em, Expr *e, const Shape *s, const int *ord, const char *arr)
{
    mem_origin(em, e, s);
    char *full = S("true");
    for (int k = 0; k < s->rank; k++)
        full = S("%s && o%d_ >= 0 && o%d_ + %" PRId64 " <= %s.shape[%d]", full, k, k, s->dim[k], arr, ord[k]);
    line(em, "const bool full_ = %s;", full);
    line(em, "(void)full_;");
}

/* The array's layout as tile e (shape s) sees it: array dimension ord[k]
 * along tile dimension k.  unit_last: the array's last stride is known to
 * be 1 (the ALIGNED vector path, which the launcher only takes when
 * tilec_array_fast_path holds), so that term is not multiplied: a 64-bit
 * multiply per access and the registers of the stride saved. */
static ArrayView array_view(Emitter *em, const Shape *s, const int *ord, const char *arr, bool unit_last)
{
    ArrayView a = {.rank = s->rank};
    /* The Hopper variant's accumulator layout holds pairs of columns
     * (hopper_regs_layout): the element-wise path of its partial tiles on
     * the ALIGNED variant would otherwise form a 64-bit product of the
     * last stride for each of a thread's columns, and spill. */
    bool frag = tv_frag(em, s);
    for (int k = 0; k < s->rank; k++) {
        a.origin[k] = S("o%d_", k);
        a.stride[k] = unit_last && ord[k] == s->rank - 1 ? NULL : S("%s.strides[%d]", arr, ord[k]);
        if (!unit_last && frag && ord[k] == s->rank - 1)
            a.stride[k] = S("(ALIGNED ? (int64_t)1 : %s.strides[%d])", arr, ord[k]);
        a.extent[k] = S("%s.shape[%d]", arr, ord[k]);
    }
    return a;
}

static char *offset_expr(Emitter *em, const Shape *s, const int *ord, const char *arr, const char *ix, bool unit_last)
{
    ArrayView a = array_view(em, s, ord, arr, unit_last);
    return tv_array_offset(em, ix, s, &a);
}

static char *inbounds_expr(Emitter *em, const Shape *s, const int *ord, const char *arr, const char *ix)
{
    ArrayView a = array_view(em, s, ord, arr, false);
    return tv_array_inbounds(em, ix, s, &a);
}

void mem_load(Emitter *em, Expr *e)
{
    if (view_arg(e)) {
        view_load(em, e);
        return;
    }
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = e->dtype;
    const Shape *s = &e->shape;
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    Lay l = tv_lay(em, s);
    const char *ty = emit_storage_type(d);
    line(em, "{ /* tile_load %s */", e->args[0]->name);
    em->ind++;
    mem_prologue(em, e, s, ord, arr);
    line(em, "const %s *p_ = (const %s *)%s.data;", ty, ty, arr);
    const char *pad = mem_pad_value(em, d, ex_opt_int(e, "padding", 0));
    bool vec = em->tg->threads && !l.repl && l.V > 1 && tv_vector_width(em, s, ord) >= l.V;
    if (vec) {
        line(em, "if (ALIGNED && full_) {");
        em->ind++;
        tv_open_runs(em, s, l.E / l.V);
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
}

void mem_store(Emitter *em, Expr *e)
{
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = em->tmp_dt[e->id];
    const Shape *s = &e->shape;
    mem_materialize(em, name, d, s, e->args[1]);
    int ord[TILE_MAX_RANK];
    mem_tile_order(e, s->rank, ord);
    Lay l = tv_lay(em, s);
    if (view_arg(e)) {
        view_store(em, e, name, ord, l);
        return;
    }
    const char *ty = emit_storage_type(d);
    line(em, "{ /* tile_store %s */", e->args[0]->name);
    em->ind++;
    mem_prologue(em, e, s, ord, arr);
    line(em, "%s *p_ = (%s *)%s.data;", ty, ty, arr);
    bool vec = em->tg->threads && !l.repl && l.V > 1 && tv_vector_width(em, s, ord) >= l.V;
    if (vec) {
        line(em, "if (ALIGNED && full_) {");
        em->ind++;
        tv_open_runs(em, s, l.E / l.V);
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
void mem_indexed(Emitter *em, Expr *e)
{
    const char *n = e->name;
    const char *arr = S("p_%s", e->args[0]->name);
    Dtype d = e->args[0]->dtype;
    const char *ty = emit_storage_type(d);
    const Shape *s = &e->shape;
    Expr *iv = ast_option(e, "index")->value;
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
        line(em, "%s = (%s) ? p_[%s] : %s;", dst, inb, off, mem_pad_value(em, d, ex_opt_int(e, "padding", 0)));
    } else {
        if (em->tg->threads && l.repl) inb = S("t_ < %" PRId64 " && %s", l.n, inb);
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
}
