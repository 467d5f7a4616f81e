/* expr.c: element-wise expressions.  ex_ev returns the C expression of
 * one element of a value, in the context of the element loop that is
 * filling a materialised value (intra-kernel fusion): operators in the
 * operand type sema recorded, math builtins, casts, factories, selects and
 * shape operations (index maps over their operand). */
#include "codegen/lower.h"

/* ---- element expressions ------------------------------------------------ */

char *ex_evc(Emitter *em, Expr *e, Ctx c, Dtype to)
{
    if (e->is_const && e->shape.rank == 0) return val_lit(em, &e->cval, to);
    Dtype from = e->dtype;
    return val_conv(em, ex_ev(em, e, c), from, to);
}

Ctx ex_sub_ctx(Emitter *em, Expr *e, Ctx c)
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

Dtype ex_concrete(Dtype d, const ConstValue *v)
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

/* Whether e is the scalar constant v. */
static bool is_const_value(const Expr *e, double v)
{
    return e->is_const && e->shape.rank == 0 && (e->cval.is_float ? e->cval.f == v : e->cval.i == v);
}

/* Whether e is the float32 operation a op b. */
static bool f32_binary(const Expr *e, BinaryOp op)
{
    return e->kind == EX_BINARY && e->op == (int)op && ex_concrete(e->dtype, &e->cval) == DT_FLOAT32 &&
           ex_concrete(e->op_dtype, &e->a->cval) == DT_FLOAT32;
}

/* Whether e is tile_tanh of float32 without .approx. */
static bool exact_tanhf(const Expr *e)
{
    return e->kind == EX_BUILTIN && e->bi == BI_TANH && e->nargs == 1 && e->dtype == DT_FLOAT32 &&
           ex_opt_int((Expr *)e, "approx", 0) == 0 && ex_opt_int((Expr *)e, "rounding", 0) != 6;
}

/* The tanh of 1 + tanh(x), tanh(x) + 1 or 1 - tanh(x) of float32 (*neg
 * for the last), else NULL. */
static Expr *one_plus_tanh_of(Expr *e, bool *neg)
{
    if (!f32_binary(e, BOP_ADD) && !f32_binary(e, BOP_SUB)) return NULL;
    *neg = e->op == BOP_SUB;
    if (is_const_value(e->a, 1) && exact_tanhf(e->b)) return e->b;
    if (e->op == BOP_ADD && exact_tanhf(e->a) && is_const_value(e->b, 1)) return e->a;
    return NULL;
}

/* y = -2x / ln 2 (2x / ln 2 with neg) for tanh t = tanh(x), so that
 * 1 + tanh(x) = 2 / (1 + 2^y).  A constant factor of x (x = k * z, the
 * GELU's sqrt(2 / pi)) is folded into the one of y: one multiply, one
 * rounding, fewer. */
static char *tanh_exp2_arg(Emitter *em, Expr *t, Ctx c, bool neg)
{
    Ctx tc = ex_sub_ctx(em, t, c);
    Expr *x = t->args[0], *z = x;
    double k = (neg ? 2.0 : -2.0) / 0.69314718055994530942;
    if (f32_binary(x, BOP_MUL)) {
        Expr *kc = x->a->is_const && x->a->shape.rank == 0 ? x->a : x->b->is_const && x->b->shape.rank == 0 ? x->b : NULL;
        if (kc && kc->cval.is_float) {
            k *= (double)(float)kc->cval.f; /* the constant as the program rounds it */
            z = kc == x->a ? x->b : x->a;
            tc = ex_sub_ctx(em, x, tc);
        }
    }
    ConstValue kv = {.is_float = true, .f = k};
    return S("(%s) * %s", ex_evc(em, z, ex_sub_ctx(em, z, tc), DT_FLOAT32), val_lit(em, &kv, DT_FLOAT32));
}

/* tilec_inv1p_exp2f(y) for a value that is not a home element (read from
 * shared memory, a scalar), else tilec_inv1p_exp2f_at(y, its register
 * index), which sends two of every five elements' reciprocal to the FMA
 * pipe instead of the MUFU unit: the index is a constant once the element
 * loop is unrolled, where a shared-memory element's linear index is not. */
static char *inv1p_call(Emitter *em, Ctx c, const char *y)
{
    if (c.home && c.shape && c.shape->rank > 0) return S("tilec_inv1p_exp2f_at(%s, %s)", y, tv_ctx_reg(em, c));
    return S("tilec_inv1p_exp2f(%s)", y);
}

/* The tanh form of 1 + tanh(x) on the GPU: the identity
 * 1 + tanh(x) = 2 / (1 + e^(-2x)) computes 1 + tanh(x), tanh(x) + 1 and
 * 1 - tanh(x) of float32 without tanh's own two branches and without the
 * cancellation of adding tanh to 1 near -1 (tilec_inv1p_exp2f: 4
 * instructions where tanhf and the add take 18, two of them on the MUFU
 * unit, whose share inv1p_call balances); and a product with half
 * of something, the tanh form of GELU 0.5v(1 + tanh(u)), as v / (1 +
 * e^(-2u)) (the halving and the doubling cancel exactly).  NULL when e is
 * none of these.  GPU targets only: the host backend computes the
 * expression as written. */
static char *tanh_forms(Emitter *em, Expr *e, Ctx c)
{
    bool neg;
    Expr *t = one_plus_tanh_of(e, &neg);
    if (t)
        return S("(2.0f * %s)", inv1p_call(em, c, tanh_exp2_arg(em, t, ex_sub_ctx(em, e->a == t ? e->a : e->b, c), neg)));
    if (!f32_binary(e, BOP_MUL)) return NULL;
    for (int side = 0; side < 2; side++) {
        Expr *h = side ? e->b : e->a, *o = side ? e->a : e->b; /* half of v, 1 + tanh(u) */
        if (!(t = one_plus_tanh_of(o, &neg))) continue;
        Expr *v = !f32_binary(h, BOP_MUL) ? NULL : is_const_value(h->a, 0.5) ? h->b : is_const_value(h->b, 0.5) ? h->a : NULL;
        if (!v) continue;
        Ctx hc = ex_sub_ctx(em, h, c);
        char *vs = ex_evc(em, v, ex_sub_ctx(em, v, hc), DT_FLOAT32);
        return S("((%s) * %s)", vs, inv1p_call(em, c, tanh_exp2_arg(em, t, ex_sub_ctx(em, o, c), neg)));
    }
    return NULL;
}

static char *ev_binary(Emitter *em, Expr *e, Ctx c)
{
    Dtype ot = ex_concrete(e->op_dtype, &e->a->cval);
    char *tf = ot == DT_FLOAT32 && em->tg->threads ? tanh_forms(em, e, c) : NULL;
    if (tf) return tf;
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

int64_t ex_opt_int(Expr *e, const char *name, int64_t dflt)
{
    Option *o = ast_option(e, name);
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
        if (approx && !dbl && (e->bi == BI_EXP || e->bi == BI_EXP2 || e->bi == BI_LOG || e->bi == BI_SIN ||
                              e->bi == BI_COS || e->bi == BI_TANH))
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

/* Reads its operand through a permutation of element indices: a view. */
bool ex_same_order_view(Builtin b)
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
    /* the operation's view of its operand, a layout (tiles.c) */
    Layout v;
    int64_t off;
    if (!tv_view_layout(e, &v, &off)) {
        em->ok = false;
        return S("0");
    }
    if (e->bi == BI_CAT) { /* either operand, by the coordinate on the axis */
        Expr *b = e->args[1];
        Option *ao = ast_option(e, "axis");
        int ax = ao ? (int)ao->value->cval.i : 0;
        if (ax < 0) ax += e->shape.rank;
        int64_t half = x->shape.dim[ax];
        char *in = tv_view_index(em, idx, &e->shape, &v, 0);
        Dtype t = ex_concrete(e->dtype, &e->cval);
        Ctx ca = {.shape = &x->shape, .idx = in, .home = false};
        Ctx cb = {.shape = &b->shape, .idx = in, .home = false};
        return S("((%s < %" PRId64 ") ? (%s) : (%s))", tv_coord(em, idx, &e->shape, ax), half, ex_evc(em, x, ca, t), ex_evc(em, b, cb, t));
    }
    char *src = tv_view_index(em, idx, &e->shape, &v, off);
    bool home = ex_same_order_view(e->bi) && c.home && shape_equal(&e->shape, c.shape) && tv_agree(em, &e->shape, &x->shape);
    Ctx xc = {.shape = &x->shape, .idx = src, .home = home, .eidx = home ? c.eidx : NULL};
    if (x->shape.rank == 0) xc = (Ctx){.shape = &x->shape, .idx = "0", .home = false};
    return ex_ev(em, x, xc);
}

char *ex_ev(Emitter *em, Expr *e, Ctx c)
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
        if (!e->inl) { /* TILE_EXTERN: the user's function on this element */
            char *args = S("%s", "");
            for (int i = 0; i < e->nargs; i++)
                args = S("%s%s%s", args, i ? ", " : "",
                         ex_evc(em, e->args[i], ex_sub_ctx(em, e->args[i], c), e->callee->params[i].type.dtype));
            return S("%s(%s)", e->name, args);
        }
        return tv_read(em, em->tmp[e->id], em->tmp_dt[e->id], &e->shape, em->tmp_smem[e->id], c);
    case EX_BUILTIN:
        if (builtin_info(e->bi)->materialises) /* loads, reductions, mma ...: their registers */
            return tv_read(em, em->tmp[e->id], em->tmp_dt[e->id], &e->shape, em->tmp_smem[e->id], c);
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_QUERY: {
            if (e->bi == BI_DIM) return view_dim(em, e->args[0], e->args[1]->cval.i);
            int64_t ax = e->args[0]->cval.i;
            if (e->bi == BI_BID)
                return S(em->tg->block_index, "xyz"[ax]);
            return S(em->tg->grid_dim, "xyz"[ax]);
        }
        case BCLASS_FACTORY:
            if (e->bi == BI_ZEROS) return val_lit(em, &(ConstValue){.i = 0}, e->dtype);
            if (e->bi == BI_ONES) return val_lit(em, &(ConstValue){.i = 1, .u = 1}, e->dtype);
            if (e->bi == BI_FULL) return ex_evc(em, e->args[1], ex_sub_ctx(em, e->args[1], c), e->dtype);
            /* arange: "i_" in this thread's own order */
            return val_conv(em, S("((int64_t)(%s))", c.idx), DT_INT64, e->dtype);
        case BCLASS_CAST: {
            Expr *x = e->args[0];
            Option *sat = ast_option(e, "saturate");
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
        case BCLASS_TARGET: case BCLASS_DEBUG: case BCLASS_VIEW:
            break; /* materialised; views are declarations (sema); scatter, printf and assert have no value; target ifs compile to #if (body.c) */
        }
        em->ok = false;
        return S("0");
    default:
        em->ok = false;
        return S("0");
    }
}

