/* arch_check.c: what tile code needs of the GPU, checked against every
 * architecture --arch lists (CUDA target).
 *
 * The CUDA code tilec writes for a kernel is compiled once per listed
 * architecture, so an operation a listed architecture lacks would fail in
 * ptxas, far from its cause.  Seed 001's rule applies instead: an operation
 * that needs sm_XX is an error unless every listed architecture that can
 * reach it provides sm_XX, where `if (tile_target(...))` branches narrow
 * which ones can (sema/targetset.h).  What needs more than sm_75 (the
 * oldest architecture nvcc still builds for) today:
 *   - tile_mma and tile_matmul: mma.sync m16n8k16 and its kin (sm_80);
 *   - a value of dtype tfloat32 (cvt.rna.tf32.f32, sm_80). */
#include "codegen/codegen.h"

#include "frontend/diag.h"
#include "sema/targetset.h"

typedef struct Check {
    const CodegenOptions *co;
    bool failed;
} Check;

/* The first listed architecture that s reaches and that is older than sm,
 * or 0. */
static int missing(const Check *c, TargetSet s, int sm)
{
    for (int i = 0; i < c->co->narchs; i++)
        if (c->co->archs[i] < sm && targetset_has_arch(s, c->co->archs[i])) return c->co->archs[i];
    return 0;
}

static void need(Check *c, TargetSet s, const Expr *e, int sm, const char *what)
{
    int lacking = missing(c, s, sm);
    if (!lacking || c->failed) return;
    c->failed = true;
    diag_error_fix(e->loc, "put it under `if (tile_target(tile_provides(TILE_SM_80)))`, or leave the older architecture out of --arch",
                   "%s needs sm_%d or later, and this code is also compiled for sm_%d (--arch)", what, sm, lacking);
}

static void check_stmt(Check *c, const Stmt *st, TargetSet s);

static void check_expr(Check *c, const Expr *e, TargetSet s)
{
    if (!e || c->failed) return;
    if (e->kind == EX_BUILTIN && (e->bi == BI_MMA || e->bi == BI_MATMUL))
        need(c, s, e, 80, e->bi == BI_MMA ? "tile_mma (tensor-core mma.sync)" : "tile_matmul (tensor-core mma.sync)");
    if (e->dtype == DT_TFLOAT32 && e->kind != EX_TYPE) need(c, s, e, 80, "a tfloat32 value");
    for (int i = 0; i < e->nopts; i++) check_expr(c, e->opts[i].value, s);
    check_expr(c, e->a, s);
    check_expr(c, e->b, s);
    check_expr(c, e->c, s);
    for (int i = 0; i < e->nargs; i++) check_expr(c, e->args[i], s);
    if (e->kind == EX_CALL && e->inl) check_stmt(c, e->inl->body, s);
}

static void check_stmt(Check *c, const Stmt *st, TargetSet s)
{
    if (!st || c->failed) return;
    if (st->kind == ST_IF && st->is_target) {
        check_stmt(c, st->then_s, s & st->targets);
        check_stmt(c, st->else_s, s & ~st->targets);
        return;
    }
    check_expr(c, st->init, s);
    check_expr(c, st->target, s);
    check_expr(c, st->value, s);
    check_expr(c, st->cond, s);
    check_stmt(c, st->then_s, s);
    check_stmt(c, st->else_s, s);
    check_stmt(c, st->init_s, s);
    check_stmt(c, st->step_s, s);
    check_stmt(c, st->body, s);
    for (int i = 0; i < st->nitems; i++) check_stmt(c, st->items[i], s);
}

static bool find_target_if(AstVisitor *v, const Stmt *s)
{
    if (s->kind == ST_IF && s->is_target) v->stop = true;
    return true;
}

bool codegen_has_target_if(const Program *p)
{
    AstVisitor v = {.stmt = find_target_if, .inlined = true};
    for (int i = 0; i < p->nfuncs && !v.stop; i++)
        for (int sp = 0; sp < p->funcs[i]->nspecs && !v.stop; sp++) ast_walk_stmt(&v, p->funcs[i]->specs[sp].typed->body);
    return v.stop;
}

bool codegen_check_archs(const Func *typed, const CodegenOptions *co)
{
    Check c = {.co = co};
    if (!co->narchs) return true; /* the default, sm_80, has everything above */
    check_stmt(&c, typed->body, targetset_all());
    return !c.failed;
}
