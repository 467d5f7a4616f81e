/* mma.c: tile_mma and tile_matmul on tensor cores (WMMA fragments, operands
 * staged through swizzled shared memory), and accumulators that live in
 * fragments across a K loop instead of registers. */
#include "codegen/lower.h"

/* ---- matrix multiply on tensor cores -------------------------------------- */

MmaKind mma_kind(Dtype t)
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

char *mma_frag_acc_type(Emitter *em, Dtype acc, int kk)
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
int64_t mma_acc_ld(int64_t N)
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
    int64_t rows = x->shape.rank > 1 ? x->shape.dim[x->shape.rank - 2] : 1;
    const char *reg = NULL;
    if (x->kind == EX_NAME && x->sym && x->sym->kind == SYM_VAR) reg = tv_sym_name(em, x->sym);
    if (x->kind == EX_BUILTIN && x->bi == BI_LOAD) reg = em->tmp[x->id];
    if (em->tg->threads && reg && k->bits_match && !l.repl && l.V > 1) {
        const char *st = dtype_host_type(x->dtype);
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = %s;", tv_run_index(em, &x->shape, "r_", NULL));
        line(em, "tilec_vstore<%d>((%s *)%s + %s, %s, r_ * %d);", l.V, st, buf, tv_padded_index(em, "i_", rows, cols, ld), reg,
             l.V);
        tv_close_loop(em);
        return;
    }
    tv_open_loop(em, &x->shape);
    Ctx c = {.shape = &x->shape, .idx = "i_", .home = true};
    char *v = ex_ev(em, x, ex_sub_ctx(em, x, c));
    if (em->tg->threads && l.repl) line(em, "if (t_ < %" PRId64 ")", l.n);
    line(em, "%s[%s] = %s;", buf, tv_padded_index(em, "i_", rows, cols, ld), S(k->fmt, v));
    tv_close_loop(em);
}

MmaTiling mma_tiling(const Emitter *em, int64_t M, int64_t N)
{
    int nw = em->T / 32;
    for (int i = 0; i < em->npipes; i++) {
        const PipeLoop *pl = &em->pipes[i];
        if (pl->wg_n && pl->M == M && pl->N == N) /* wgmma's (pipeline.c) */
            return (MmaTiling){.blocks = M / 16 * (N / 16), .bpw = pl->wn / 16, .wn = pl->wg_n, .fm = 1,
                               .fn = pl->wn / 16, .wgn = pl->wg_n};
    }
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

/* The first block row and column of this warp's rectangle (2-D tilings). */
static char *warp_row(Emitter *em, const MmaTiling *g)
{
    if (g->wgn) return S("((t_ >> 7) / %d) * 4 + ((t_ >> 5) & 3)", g->wgn);
    return S("((t_ >> 5) / %d) * %" PRId64, g->wn, g->fm);
}

static char *warp_col(Emitter *em, const MmaTiling *g)
{
    if (g->wgn) return S("((t_ >> 7) %% %d) * %" PRId64, g->wgn, g->fn);
    return S("((t_ >> 5) %% %d) * %" PRId64, g->wn, g->fn);
}

/* Declares tm_ and tn_, the block row and column of fragment b_ of this
 * warp, inside a `for (b_ ...)` loop over g.bpw. */
static void frag_coords(Emitter *em, const MmaTiling *g, int64_t N)
{
    int nw = em->T / 32;
    if (g->fm) {
        line(em, "const int tm_ = %s + b_ / %" PRId64 ";", warp_row(em, g), g->fn);
        line(em, "const int tn_ = %s + b_ %% %" PRId64 ";", warp_col(em, g), g->fn);
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
void mma_products(Emitter *em, const MmaKind *k, const MmaTiling *g, int64_t N, int64_t K, int64_t lda,
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
        line(em, "const int wm_ = %s, wn_ = %s;", warp_row(em, g), warp_col(em, g));
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
void mma_core(Emitter *em, Expr *e, const char *frag_sym)
{
    Expr *a = e->args[0], *b = e->args[1];
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    MmaKind k = mma_kind(a->dtype);
    int64_t lda = K + k.pad, ldb = N + k.pad;
    line(em, "%s *sa_ = (%s *)s_mma_;", k.sty, k.sty);
    line(em, "%s *sb_ = sa_ + %" PRId64 ";", k.sty, M * lda);
    line(em, "%s", em->bar);
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
    line(em, "%s", em->bar);
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
    line(em, "%s", em->bar);
}

/* acc + a @ b into the temporary of e.  CUDA: operands staged row-major in
 * shared memory (rows padded against bank conflicts), WMMA (mma.sync on the
 * tensor cores) per warp; float8 goes through float16 (exactly).  Host:
 * float dot products (int64 for int8). */
void mma_emit(Emitter *em, Expr *e)
{
    Expr *a = e->args[0], *b = e->args[1], *acc = e->nargs > 2 ? e->args[2] : NULL;
    int64_t M = a->shape.dim[0], K = a->shape.dim[1], N = b->shape.dim[1];
    bool integer = a->dtype == DT_INT8;
    const char *name = em->tmp[e->id];
    line(em, "{ /* tile_%s %lldx%lldx%lld */", e->name, (long long)M, (long long)N, (long long)K);
    em->ind++;
    if (!em->tg->threads) {
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
    line(em, "%s[e_] = scr_[%s];", name, tv_padded_index(em, "i_", M, N, mma_acc_ld(N)));
    tv_close_loop(em);
    em->ind--;
    line(em, "}");
}

/* The shared bytes an mma needs: staging of a and b, and the accumulator. */
int64_t mma_bytes(const Expr *e)
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

bool mma_is_frag_update(const Stmt *st)
{
    return st->kind == ST_ASSIGN && st->op < 0 && st->value->kind == EX_BUILTIN && st->value->bi == BI_MMA &&
           st->value->args[2]->kind == EX_NAME && st->value->args[2]->sym == st->target->sym;
}

void mma_frag_to_registers(Emitter *em, Symbol *sym)
{
    const char *name = tv_sym_name(em, sym);
    int64_t M = sym->shape.dim[0], N = sym->shape.dim[1];
    MmaTiling g = mma_tiling(em, M, N);
    const char *cty = sym->dtype == DT_INT32 ? "int" : "float";
    line(em, "{ /* %s: fragments -> registers */", sym->name);
    em->ind++;
    line(em, "%s *sc_ = (%s *)s_mma_;", cty, cty);
    line(em, "%s", em->bar);
    line(em, "#pragma unroll");
    line(em, "for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", g.bpw);
    em->ind++;
    frag_coords(em, &g, N);
    line(em, "%s", acc_move(em, sym->dtype, em->sym_kk[sym->id], true, S("f%s[b_]", name),
                            S("sc_ + tm_ * %" PRId64 " + tn_ * 16", 16 * mma_acc_ld(N)), mma_acc_ld(N)));
    tv_close_loop(em);
    mma_staged_to_registers(em, sym);
    em->ind--;
    line(em, "}");
}

/* The second half of the conversion: the accumulator is in the padded
 * row-major buffer at s_mma_ (sc_); each thread reads its elements. */
void mma_staged_to_registers(Emitter *em, Symbol *sym)
{
    const char *name = tv_sym_name(em, sym);
    int64_t M = sym->shape.dim[0], N = sym->shape.dim[1];
    line(em, "%s", em->bar);
    Lay l = tv_lay(em, &sym->shape);
    if (!l.repl && l.V % 4 == 0 && N % l.V == 0) {
        /* A thread's runs of V elements lie in one buffer row, 16-byte
         * aligned (rows of N + 8 words): read them four words at a time. */
        const char *vty = sym->dtype == DT_INT32 ? "int4" : "float4";
        line(em, "#pragma unroll");
        line(em, "for (int r_ = 0; r_ < %d; ++r_) {", l.E / l.V);
        em->ind++;
        line(em, "const int i_ = %s;", tv_run_index(em, &sym->shape, "r_", NULL));
        line(em, "#pragma unroll");
        line(em, "for (int q_ = 0; q_ < %d; q_ += 4) {", l.V);
        em->ind++;
        line(em, "const %s u_ = *(const %s *)(sc_ + %s + q_);", vty, vty, tv_padded_index(em, "i_", M, N, mma_acc_ld(N)));
        line(em, "%s[r_ * %d + q_] = u_.x; %s[r_ * %d + q_ + 1] = u_.y;", name, l.V, name, l.V);
        line(em, "%s[r_ * %d + q_ + 2] = u_.z; %s[r_ * %d + q_ + 3] = u_.w;", name, l.V, name, l.V);
        tv_close_loop(em);
        tv_close_loop(em);
    } else {
        tv_open_loop(em, &sym->shape);
        line(em, "%s[e_] = sc_[%s];", name, tv_padded_index(em, "i_", M, N, mma_acc_ld(N)));
        tv_close_loop(em);
    }
}

/* The value of an accumulator's initialiser that is the same for every
 * element (tile_zeros, tile_ones, tile_full with a scalar), as C text of
 * the accumulator's type (the factory's own evaluation at element 0);
 * NULL otherwise. */
char *mma_uniform_init(Emitter *em, Expr *e, Dtype d)
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
void mma_registers_to_frag(Emitter *em, Symbol *sym, Expr *init)
{
    const char *name = tv_sym_name(em, sym);
    char *u = mma_uniform_init(em, init, sym->dtype);
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
    line(em, "%s", em->bar);
    tv_open_loop(em, &sym->shape);
    Lay l = tv_lay(em, &sym->shape);
    if (l.repl) line(em, "if (t_ < %" PRId64 ")", l.n);
    line(em, "sc_[%s] = %s[e_];", tv_padded_index(em, "i_", M, N, mma_acc_ld(N)), name);
    tv_close_loop(em);
    line(em, "%s", em->bar);
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
