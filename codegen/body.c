/* body.c: the kernel body of one typed specialization: the launch plan
 * (threads per block, vector width), the passes in order (placement in
 * scan.c and tir_place, pipelining, lowering to the tile IR), the
 * declarations of registers, mirrors and shared buffers from the IR's
 * values, and the code of each IR operation, control flow included. */
#include "codegen/lower.h"
#include "sema/targetset.h"
#include "sema/view.h"

/* ---- emission from the operations (tir.h) -------------------------------- */

static void emit_ops(Emitter *em, const TirOp *op);

static char *cond_str(Emitter *em, Expr *c)
{
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

static void emit_loop_body(Emitter *em, const TirOp *op, int label)
{
    if (em->nloops == 64) {
        em->ok = false;
        return;
    }
    em->cont_label[em->nloops++] = label;
    emit_ops(em, op->kids);
    em->nloops--;
    if (has_continue(op->stmt->body)) line(em, "cont%d_:;", label);
    emit_ops(em, op->step);
}

/* ---- view loads fetched one iteration ahead ------------------------------- */

/* Whether e is evaluated from scalars the loop body does not assign (those
 * in vars) alone: no materialised value, no call, no tile. */
static bool ahead_expr(const Expr *e, const Symbol **vars, int *nvars)
{
    if (!e) return true;
    if (e->shape.rank != 0) return false;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: return true;
    case EX_NAME:
        if (!e->sym) return false;
        if (e->sym->kind != SYM_VAR) return true;
        if (*nvars == 32) return false;
        vars[(*nvars)++] = e->sym;
        return true;
    case EX_UNARY: case EX_BINARY: case EX_COND: case EX_CAST:
        return ahead_expr(e->a, vars, nvars) && ahead_expr(e->b, vars, nvars) && ahead_expr(e->c, vars, nvars);
    case EX_LIST:
        for (int i = 0; i < e->nargs; i++)
            if (!ahead_expr(e->args[i], vars, nvars)) return false;
        return true;
    case EX_BUILTIN:
        if (builtin_info(e->bi)->cls != BCLASS_QUERY) return false;
        return e->bi != BI_DIM || e->args[0]->kind == EX_NAME; /* bid, num_blocks, dim: launch constants */
    default:
        return false;
    }
}

/* Whether any operation of ops (and below) defines symbol sym. */
static bool defines(const TirOp *ops, const Symbol *sym)
{
    for (const TirOp *op = ops; op; op = op->next) {
        if (op->dst && op->dst->sym == sym) return true;
        if (defines(op->pre, sym) || defines(op->kids, sym) || defines(op->else_kids, sym) || defines(op->init, sym) ||
            defines(op->step, sym))
            return true;
    }
    return false;
}

/* The view loads of loop op that can be fetched an iteration ahead: at the
 * top level of its body, their .index computed from variables only the
 * step assigns; the step assigns integer scalars from such values and the
 * condition reads nothing else.  Their number, in loads[]. */
static int ahead_loads(Emitter *em, const TirOp *op, Expr **loads)
{
    if (!em->tg->threads || em->hp || !op->expr || op->pre || !op->stmt) return 0;
    const Symbol *vars[33];
    int nvars = 0;
    if (!ahead_expr(op->expr, vars, &nvars)) return 0;
    for (const TirOp *st = op->step; st; st = st->next) {
        if (st->kind == TIR_NOP) continue;
        if (st->kind != TIR_DEF || !st->dst || !st->dst->sym || st->dst->home != TIR_SCALAR ||
            !dtype_is_int(st->dst->dtype) || !ahead_expr(st->expr, vars, &nvars))
            return 0;
    }
    const TirOp *body = op->kids;
    if (body && !body->next && body->kind == TIR_BLOCK) body = body->kids;
    int n = 0;
    for (const TirOp *k = body; k; k = k->next) {
        Expr *e = k->expr;
        if (k->kind != TIR_MATERIALIZE || !e || e->kind != EX_BUILTIN || e->bi != BI_LOAD || !view_arg(e) ||
            !view_prefetchable(em, e) || n == 8)
            continue;
        int nv = nvars;
        const Option *idx = ast_option(e, "index");
        if (!idx || !ahead_expr(idx->value, vars, &nv)) continue;
        bool ok = true;
        for (int i = 0; i < nv && ok; i++) ok = !defines(op->kids, vars[i]);
        if (ok) loads[n++] = e;
    }
    return n;
}

/* A for loop whose view loads are fetched one iteration ahead: before the
 * loop and, in each iteration, right after the loads of this iteration
 * take their registers, the next iteration's variables are computed by the
 * step into n-prefixed copies and, if the condition holds for them, the
 * next loads are issued under those names. */
static bool emit_ahead_for(Emitter *em, const TirOp *op, int label)
{
    Expr *loads[8];
    int n = ahead_loads(em, op, loads);
    if (!n) return false;
    line(em, "{");
    em->ind++;
    emit_ops(em, op->init);
    for (int i = 0; i < n; i++) view_prefetch_declare(em, loads[i]);
    line(em, "bool more%d_ = %s;", label, cond_str(em, op->expr));
    line(em, "if (more%d_) {", label);
    em->ind++;
    for (int i = 0; i < n; i++) view_prefetch_issue(em, loads[i]);
    em->ind--;
    line(em, "}");
    line(em, "for (;;) {");
    em->ind++;
    line(em, "if (!more%d_) break;", label);
    for (int i = 0; i < n; i++) view_prefetch_consume(em, loads[i]);
    line(em, "{ /* the next iteration's loads */");
    em->ind++;
    if (!em->sym_alias) em->sym_alias = arena_alloc(em->ar, sizeof *em->sym_alias * (size_t)(em->k->nsyms + 1));
    const Symbol *aliased[16];
    int na = 0;
    for (const TirOp *st = op->step; st; st = st->next) {
        if (st->kind != TIR_DEF) continue;
        const Symbol *sym = st->dst->sym;
        Ctx c = {.shape = &st->expr->shape, .idx = "0"};
        const char *val = ex_evc(em, st->expr, c, sym->dtype);
        const char *nm = S("n%d_%d", label, sym->id);
        line(em, "const %s %s = (%s)(%s);", dtype_host_type(sym->dtype), nm, dtype_host_type(sym->dtype), val);
        em->sym_alias[sym->id] = nm;
        if (na < 16) aliased[na++] = sym;
    }
    line(em, "if (%s) {", cond_str(em, op->expr));
    em->ind++;
    for (int i = 0; i < n; i++) view_prefetch_issue(em, loads[i]);
    em->ind--;
    line(em, "}");
    for (int i = 0; i < na; i++) em->sym_alias[aliased[i]->id] = NULL;
    em->ind--;
    line(em, "}");
    int before = em->nprefetched;
    for (int i = 0; i < n && em->nprefetched < 8; i++) em->prefetched[em->nprefetched++] = loads[i];
    emit_loop_body(em, op, label);
    em->nprefetched = before;
    line(em, "more%d_ = %s;", label, cond_str(em, op->expr));
    em->ind--;
    line(em, "}");
    em->ind--;
    line(em, "}");
    return true;
}

/* `if (tile_target(desc))`.  The CUDA target writes both branches, under
 * #if on __CUDA_ARCH__ (sema/targetset.c), so that one .cu compiled for
 * several architectures takes the right one on each; nvcc's host pass, which
 * parses kernel bodies too, sees the host's.  The host target knows where it
 * runs and writes the host's branch only (the other one was checked by sema
 * and is not compiled at all, as under #if). */
static void emit_target_if(Emitter *em, const TirOp *op)
{
    char d[256];
    targetset_describe(op->stmt->targets, d, sizeof d);
    if (!em->tg->threads) {
        bool host = op->stmt->targets & TARGETSET_HOST;
        line(em, "{ /* tile_target(%s): %s */", d, host ? "true on the host" : "false on the host");
        em->ind++;
        emit_ops(em, host ? op->kids : op->else_kids);
        em->ind--;
        line(em, "}");
        return;
    }
    char c[1024];
    targetset_cuda_condition(op->stmt->targets, c, sizeof c);
    fprintf(em->o, "#if %s /* tile_target(%s) */\n", c, d);
    line(em, "{");
    em->ind++;
    emit_ops(em, op->kids);
    em->ind--;
    line(em, "}");
    if (op->else_kids) {
        fputs("#else\n", em->o);
        line(em, "{");
        em->ind++;
        emit_ops(em, op->else_kids);
        em->ind--;
        line(em, "}");
    }
    fputs("#endif\n", em->o);
}

static void emit_op(Emitter *em, const TirOp *op)
{
    for (int i = 0; i < em->nearly; i++) /* (hopper.c issued it before the K loop) */
        if (op == em->early[i] && !em->early_now) return;
    if (op->stmt_start) emit_line(em->o, em->co, op->loc);
    TirValue *v = op->dst;
    switch (op->kind) {
    case TIR_MATERIALIZE: {
        Expr *e = op->expr;
        for (int i = 0; i < em->nprefetched; i++)
            if (em->prefetched[i] == e) return; /* its loop fetched it (emit_ahead_for) */
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MEM: mem_load(em, e); return;
        case BCLASS_REDUCE: red_emit(em, e); return;
        case BCLASS_SCAN: red_scan(em, e); return;
        case BCLASS_INDEXED: mem_indexed(em, e); return;
        case BCLASS_MMA: mma_emit(em, e); return;
        case BCLASS_FACTORY: case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE:
        case BCLASS_SHAPE: case BCLASS_QUERY: case BCLASS_TARGET: case BCLASS_DEBUG: case BCLASS_VIEW:
            break;
        }
        em->ok = false; /* element-wise values do not materialise */
        return;
    }
    case TIR_CALL:
        line(em, "{ /* inlined %s */", op->expr->name);
        em->ind++;
        emit_ops(em, op->kids);
        em->ind--;
        line(em, "}");
        return;
    case TIR_DEF:
        mem_materialize(em, v->name, v->dtype, &v->shape, op->expr);
        return;
    case TIR_TO_SMEM:
        mem_write_mirror(em, v->name, &v->shape);
        return;
    case TIR_STORE:
        if (!em->hp || !hopper_tma_store(em, op->expr)) mem_store(em, op->expr);
        return;
    case TIR_TO_FRAG:
        if (em->hp) hopper_to_frag(em, op);
        else mma_registers_to_frag(em, (Symbol *)v->sym, op->expr);
        return;
    case TIR_TO_REGS:
        if (em->hp) hopper_to_regs(em, op);
        else mma_frag_to_registers(em, (Symbol *)v->sym);
        return;
    case TIR_MMA_UPDATE:
        line(em, "{ /* %s = tile_mma(..., %s) on tensor cores */", v->sym->name, v->sym->name);
        em->ind++;
        mma_core(em, op->expr, S("f%s", v->name));
        em->ind--;
        line(em, "}");
        return;
    case TIR_IF:
        if (op->stmt->is_target) {
            emit_target_if(em, op);
            return;
        }
        emit_ops(em, op->pre);
        line(em, "if (%s) {", cond_str(em, op->expr));
        em->ind++;
        emit_ops(em, op->kids);
        em->ind--;
        if (op->stmt->else_s) {
            line(em, "} else {");
            em->ind++;
            emit_ops(em, op->else_kids);
            em->ind--;
        }
        line(em, "}");
        return;
    case TIR_PIPELINED_FOR:
        if (em->hp) hopper_emit_for(em, op);
        else pipeline_emit_for(em, op);
        return;
    case TIR_FOR: {
        if (em->fp && op->stmt == em->fp->loop) {
            flash_emit_for(em, op);
            return;
        }
        int label = em->nlabels++;
        if (emit_ahead_for(em, op, label)) return;
        line(em, "{");
        em->ind++;
        emit_ops(em, op->init);
        line(em, "for (;;) {");
        em->ind++;
        if (op->expr) {
            emit_ops(em, op->pre);
            line(em, "if (!(%s)) break;", cond_str(em, op->expr));
        }
        emit_loop_body(em, op, label);
        em->ind--;
        line(em, "}");
        em->ind--;
        line(em, "}");
        return;
    }
    case TIR_WHILE: {
        int label = em->nlabels++;
        line(em, "for (;;) {");
        em->ind++;
        emit_ops(em, op->pre);
        line(em, "if (!(%s)) break;", cond_str(em, op->expr));
        emit_loop_body(em, op, label);
        em->ind--;
        line(em, "}");
        return;
    }
    case TIR_RETURN:
        line(em, "return;");
        return;
    case TIR_BLOCK:
        line(em, "{");
        em->ind++;
        emit_ops(em, op->kids);
        em->ind--;
        line(em, "}");
        return;
    case TIR_BREAK:
        line(em, "break;");
        return;
    case TIR_CONTINUE:
        line(em, "goto cont%d_;", em->cont_label[em->nloops - 1]);
        return;
    case TIR_PRINTF:
        dbg_emit_printf(em, op->expr);
        return;
    case TIR_ASSERT:
        dbg_emit_assert(em, op->expr);
        return;
    case TIR_NOP:
        if (op->stmt && op->stmt->sym && op->stmt->sym->view) { /* a view: only its layout, as a comment */
            char *text = NULL;
            size_t n = 0;
            FILE *m = open_memstream(&text, &n);
            if (m) {
                view_print(m, op->stmt->sym->view);
                fclose(m);
                line(em, "/* view %s = %s o %s */", op->stmt->name, op->stmt->sym->view->base->name, text);
                free(text);
            }
        }
        return;
    }
}

static void emit_ops(Emitter *em, const TirOp *op)
{
    for (; op; op = op->next) emit_op(em, op);
}

void body_emit_ops(Emitter *em, const TirOp *ops)
{
    emit_ops(em, ops);
}

void body_emit_op(Emitter *em, const TirOp *op)
{
    emit_op(em, op);
}

/* ---- plan and body ------------------------------------------------------ */

typedef struct PlanScan {
    int64_t maxn; /* elements of the largest tile */
    int minsize;  /* bytes of the narrowest element loaded or stored */
} PlanScan;

static bool plan_expr(AstVisitor *v, const Expr *e)
{
    PlanScan *ps = v->ctx;
    int64_t n = shape_numel(&e->shape);
    if (n > ps->maxn) ps->maxn = n;
    if (e->kind == EX_BUILTIN && builtin_info(e->bi)->cls == BCLASS_MEM) {
        int b = dtype_bits(e->args[0]->dtype) / 8;
        if (b > 0 && b < ps->minsize) ps->minsize = b;
    }
    return true;
}

KernelPlan emit_plan(const Func *f, bool cuda, int max_threads)
{
    KernelPlan pl = {.threads = 1, .vec = 1};
    if (!cuda) return pl;
    PlanScan ps = {.maxn = 1, .minsize = 16};
    AstVisitor v = {.expr = plan_expr, .inlined = true, .ctx = &ps};
    ast_walk_stmt(&v, f->body);
    int64_t maxn = ps.maxn;
    pl.vec = 16 / ps.minsize;
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
    if (em->tg->packed_half && (d == DT_FLOAT16 || d == DT_BFLOAT16)) line(em, "tilec_p16<%d> %s;", n, name);
    else line(em, "%s %s[%d];", ty, name, n);
}

bool emit_kernel_body(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o, KernelPlan *plan)
{
    return body_lower(out, p, f, cuda, o, plan, NULL);
}

/* Lowers f and writes its body.  With hp, the sm_90a variant (hopper.c):
 * false, and nothing written, when the kernel does not have its shape. */
static bool lower(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o, KernelPlan *plan, TirKernel **tir,
                  HopperPlan *hp, bool regs, const FlashLoop *fl)
{
    Emitter em = {.o = out, .ind = 1, .ar = p->arena, .tg = cuda ? &target_cuda : &target_host, .p = p, .k = f, .co = o, .ok = true};
    /* the flash variant: a warp per 16 rows of its loop's tiles */
    *plan = emit_plan(f, cuda, fl ? 32 * fl->warps : o->max_threads);
    if (fl && plan->threads != 32 * fl->warps) return false;
    em.T = plan->threads;
    em.Vk = plan->vec;
    int ne = f->nexprs + 1, ns = f->nsyms + 1;
    em.tmp = arena_alloc(p->arena, sizeof(char *) * (size_t)ne);
    em.tmp_expr = arena_alloc(p->arena, sizeof(Expr *) * (size_t)ne);
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
    /* Fragment accumulators are the variables that tile_mma updates. */
    for (int i = 0; i < ns; i++)
        if (em.sym_frag[i] && !em.sym_kk[i]) em.sym_frag[i] = false;
    em.sm90_try = hp != NULL;
    if (cuda && o->opt_level > 0) {
        pipeline_find(&em, f->body);
        pipeline_release(&em, f->body);
    }
    em.bar = "__syncthreads();";
    if (hp) {
        if (!hopper_plan(&em, hp, regs)) return false;
        em.hp = hp;
        if (regs && !hopper_regs_layout(&em)) return hopper_no_plan(hp, "the accumulator's layout for an epilogue on registers");
        em.tg = hopper_target(hp);
        /* (ping-pong: each warpgroup its own barrier) */
        em.bar = arena_printf(em.ar, "tilec_bar_named(%s, %d);", hp->pingpong ? "1 + pp_" : "1", em.T);
    }

    /* The values, their homes and mirrors (tir.h), declared at the top. */
    tir_place(&em);
    if (!smem_plan(&em)) return hp ? hopper_no_plan(hp, "its shared memory does not fit beside the ring") : false;
    if (fl) {
        em.fp = fl;
        if (!flash_homes_ok(&em)) return false;
        int64_t need = flash_smem_bytes(fl);
        if (em.tir->smem_dynamic < need) em.tir->smem_dynamic = (int)need;
    }
    if (hp && hp->pingpong) {
        line(&em, "const int pp_ = (int)threadIdx.x / 128 - 1; /* the consumer warpgroup, 0 or 1; the producer's -1 */");
        line(&em, "const int t_ = pp_ < 0 ? (int)threadIdx.x - 128 : (int)threadIdx.x %% 128; /* the kernel's thread in its warpgroup */");
    } else if (hp) {
        line(&em, "const int t_ = (int)threadIdx.x - 128; /* consumers 0 .. %d; the producer warpgroup below 0 */", em.T - 1);
    }
    else if (em.tg->thread_decl) line(&em, "%s", em.tg->thread_decl);
    for (int i = 0; i < em.tir->nvalues; i++) {
        const TirValue *v = &em.tir->values[i];
        if (v->home == TIR_SMEM) continue; /* a pipeline's stages, in s_mma_ */
        const char *ty = emit_storage_type(v->dtype);
        if (v->home == TIR_SCALAR) {
            line(&em, "%s %s = 0;", ty, v->name);
            continue;
        }
        declare_tile(&em, ty, v->dtype, v->name, v->per_thread);
        /* unused when a pipeline loads it to shared memory, or when it
         * lives in fragments */
        line(&em, "(void)%s;", v->name);
        if (v->home == TIR_FRAGMENT && hp)
            line(&em, "%s f%s[%d][%" PRId64 "]; /* wgmma accumulators */", hopper_acc_type(hp), v->name, hp->mb, hp->wn / 2);
        else if (v->home == TIR_FRAGMENT)
            line(&em, "%s f%s[%" PRId64 "];", mma_frag_acc_type(&em, v->dtype, v->frag_k), v->name, v->frag_blocks);
        if (v->mirror && hp && hp->pingpong) { /* each warpgroup's own */
            line(&em, "__shared__ %s%s s_%s_pp_[2][%" PRId64 "];", v->mirror_vec ? "__align__(16) " : "", ty, v->name, v->n);
            line(&em, "%s *const s_%s = s_%s_pp_[pp_ > 0];", ty, v->name, v->name);
        } else if (v->mirror) {
            line(&em, "__shared__ %s%s s_%s[%" PRId64 "];", v->mirror_vec ? "__align__(16) " : "", ty, v->name, v->n);
            if (fl) line(&em, "(void)s_%s; /* (the attention loop's own values are not written) */", v->name);
        }
    }
    if (em.tir->smem_dynamic) /* the tile_mma buffer outgrows the 48 KB of static memory */
        line(&em, "extern __shared__ __align__(128) unsigned char s_mma_[]; /* %d bytes */", em.tir->smem_dynamic);
    if (em.red_bytes && hp && hp->pingpong) /* (one buffer for two warpgroups) */
        return hopper_no_plan(hp, "a reduction's shared buffer with ping-pong warpgroups");
    if (em.red_bytes) line(&em, "__shared__ __align__(16) unsigned char s_red_[%" PRId64 "];", em.red_bytes);
    if (em.vbox_bytes && hp) /* (a view's box: not planned for the Hopper variant) */
        return hopper_no_plan(hp, "a view's box in shared memory");
    if (em.vbox_bytes) line(&em, "__shared__ __align__(16) unsigned char s_vbox_[%" PRId64 "];", em.vbox_bytes);
    plan->smem_bytes = em.tir->smem_static;
    plan->dyn_smem_bytes = em.tir->smem_dynamic;
    tir_lower(&em);
    if (hp) {
        if (!hopper_check_ops(&em, hp)) return false;
        if (regs && !hopper_regs_ok(&em)) return hopper_no_plan(hp, "the epilogue on wgmma's registers");
        plan->threads = hopper_block_threads(hp, em.T);
        hopper_emit_body(&em);
        hp->store = em.tma_store;
        hp->store_tile = em.tma_store_tile;
    } else {
        body_emit_ops(&em, em.tir->body);
    }
    if (tir) *tir = em.tir;
    if (!em.ok && regs) return false; /* the caller tries the ordinary layout */
    if (!em.ok) diag_error(f->loc, "internal error: tilec could not generate code for kernel '%s'", f->name);
    return em.ok;
}
bool body_lower(FILE *out, Program *p, Func *f, bool cuda, const CodegenOptions *o, KernelPlan *plan, TirKernel **tir)
{
    return lower(out, p, f, cuda, o, plan, tir, NULL, false, NULL);
}

bool body_lower_sm90(FILE *out, Program *p, Func *f, const CodegenOptions *o, KernelPlan *plan, HopperPlan *hp, bool regs)
{
    return lower(out, p, f, true, o, plan, NULL, hp, regs, NULL);
}

bool body_lower_flash(FILE *out, Program *p, Func *f, const CodegenOptions *o, KernelPlan *plan, const FlashLoop *fl)
{
    return lower(out, p, f, true, o, plan, NULL, NULL, false, fl);
}
