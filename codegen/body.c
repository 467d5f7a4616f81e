/* body.c: the kernel body of one typed specialization: statements and
 * control flow, hoisting of materialised values before the statement that
 * reads them, the launch plan (threads per block, vector width), and the
 * declarations of registers, mirrors and shared buffers. */
#include "codegen/lower.h"

/* Materialises the loads and calls inside e, innermost first. */
void body_hoist(Emitter *em, Expr *e)
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

void body_stmt(Emitter *em, Stmt *st)
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
