/* reduce.c: reductions (sum, prod, max, min, argmax, argmin, any, all)
 * over any axes, with a warp-shuffle fast path when the reduced axes are
 * the trailing ones, and prefix scans (cumsum, cumprod). */
#include "codegen/lower.h"

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
    Option *o = ast_option(e, "axis");
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
    /* the view of the operand's coordinates onto the result: keep's strides,
     * 0 on the reduced axes */
    int64_t st[TILE_MAX_RANK];
    for (int a = 0, k = 0; a < xs->rank; a++) {
        bool red = k < rd->nax && rd->axes[k] == a;
        k += red;
        st[a] = 0;
        if (red) continue;
        st[a] = 1;
        for (int q = a + 1; q < xs->rank; q++) st[a] *= rd->keep.dim[q];
    }
    Layout v;
    if (!layout_from_shape_strides(xs->rank, xs->dim, st, &v, NULL, 0)) {
        em->ok = false;
        return S("0");
    }
    return tv_view_index(em, i, xs, &v, 0);
}

/* Whether the register/shuffle path applies (see emit_reduce_fast). */
static bool red_fast(Emitter *em, Expr *e, const Red *rd)
{
    Lay l = tv_lay(em, &e->args[0]->shape);
    return rd->trailing && !l.repl && rd->nred >= l.V && (!rd->arg || rd->nax == 1 || rd->nax == e->args[0]->shape.rank);
}

void red_note(Emitter *em, Expr *e)
{
    if (!em->tg->threads) return;
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
        /* position along the reduced axes: the view with their row-major
         * strides, 0 on the kept ones */
        int64_t st[TILE_MAX_RANK] = {0}, stride = 1;
        for (int i = rd->nax - 1; i >= 0; i--) {
            st[rd->axes[i]] = stride;
            stride *= x->shape.dim[rd->axes[i]];
        }
        Layout v;
        if (!layout_from_shape_strides(x->shape.rank, x->shape.dim, st, &v, NULL, 0)) em->ok = false;
        line(em, "const int32_t vi_ = (int32_t)(%s);", em->ok ? tv_view_index(em, "i_", &x->shape, &v, 0) : "0");
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
    line(em, "const int i_ = %s;", tv_run_index(em, &x->shape, "c_", "k_"));
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
        if (em->nloops > 0) line(em, "%s", em->bar);
        line(em, "if ((t_ & 31) == 0) {");
        em->ind++;
        line(em, "#pragma unroll");
        line(em, "for (int j_ = 0; j_ < %d; ++j_) { sp_%d[j_][t_ >> 5] = q_[j_];%s }", Q, e->id,
             rd->arg ? S(" spi_%d[j_][t_ >> 5] = qi_[j_];", e->id) : "");
        tv_close_loop(em);
        line(em, "%s", em->bar);
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
    line(em, "%s", em->bar);
    line(em, "if (t_ %% %" PRId64 " == 0) {", g);
    em->ind++;
    line(em, "#pragma unroll");
    line(em, "for (int j_ = 0; j_ < %d; ++j_) sr_%d[j_ * %" PRId64 " + t_ / %" PRId64 "] = %s[j_];", Q, e->id,
         groups_per_row, g, rd->arg ? "qi_" : "q_");
    tv_close_loop(em);
    line(em, "%s", em->bar);
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
    line(em, "%s", em->bar);
    tv_open_loop(em, &x->shape);
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    if (lx.repl) line(em, "if (t_ < %" PRId64 ")", lx.n);
    line(em, "sb_[i_ + (i_ >> 5)] = %s;", ex_evc(em, x, c, rd->acc));
    tv_close_loop(em);
    line(em, "%s", em->bar);
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

void red_emit(Emitter *em, Expr *e)
{
    Red rd = red_info(e);
    line(em, "{ /* tile_%s */", e->name);
    em->ind++;
    if (!em->tg->threads) {
        emit_reduce_host(em, e, &rd);
    } else {
        if (red_fast(em, e, &rd)) emit_reduce_fast(em, e, &rd, tv_lay(em, &e->args[0]->shape));
        else emit_reduce_generic(em, e, &rd);
    }
    em->ind--;
    line(em, "}");
}

/* ---- scans ---------------------------------------------------------------- */

/* Inclusive or exclusive prefix sums/products along one axis: the operand
 * goes to a buffer (shared memory on the GPU, padded against bank
 * conflicts) and each result element folds its prefix from it. */
void red_scan(Emitter *em, Expr *e)
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
    const char *pad = em->tg->threads ? "+ ((%s) >> 5)" : "";
    (void)pad;
    if (em->tg->threads) {
        line(em, "%s *sb_ = (%s *)s_red_;", at, at);
        line(em, "%s", em->bar);
    } else {
        line(em, "%s sb_[%" PRId64 "];", at, n);
    }
    tv_open_loop(em, s);
    Ctx c = {.shape = s, .idx = "i_", .home = true};
    if (em->tg->threads && l.repl) line(em, "if (t_ < %" PRId64 ")", n);
    line(em, "sb_[i_%s] = %s;", em->tg->threads ? " + (i_ >> 5)" : "", ex_evc(em, x, ex_sub_ctx(em, x, c), acc));
    tv_close_loop(em);
    if (em->tg->barrier) line(em, "%s", em->bar);
    tv_open_loop(em, s);
    line(em, "const int c_ = %s;", tv_coord(em, "i_", s, ax));
    line(em, "const int b_ = i_ - c_ * %" PRId64 ";", stride);
    ConstValue one = {.i = 1, .u = 1}, zero = {.i = 0};
    line(em, "%s acc_ = %s;", at, val_lit(em, sum ? &zero : &one, acc));
    line(em, "for (int k_ = 0; k_ < %" PRId64 "; ++k_) {", len);
    em->ind++;
    const char *cond = rev ? (excl ? "k_ > c_" : "k_ >= c_") : (excl ? "k_ < c_" : "k_ <= c_");
    line(em, "const int j_ = b_ + k_ * %" PRId64 ";", stride);
    const char *v = em->tg->threads ? "sb_[j_ + (j_ >> 5)]" : "sb_[j_]";
    if (dtype_is_float(acc))
        line(em, "if (%s) acc_ = acc_ %s %s;", cond, sum ? "+" : "*", v);
    else
        line(em, "if (%s) acc_ = (%s)((%s)acc_ %s (%s)%s);", cond, at, val_utype(acc), sum ? "+" : "*", val_utype(acc), v);
    tv_close_loop(em);
    line(em, "%s[%s] = %s;", em->tmp[e->id], tv_home_idx(em), val_st(em, e->dtype, val_conv(em, "acc_", acc, e->dtype)));
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
}
