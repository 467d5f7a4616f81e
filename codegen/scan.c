/* scan.c: the analysis before emission.  One walk over a specialization
 * decides which values materialise (and their register or shared-memory
 * home), which variables need a shared-memory mirror because a broadcast,
 * a permutation or tile_printf reads them out of their threads' order, which
 * accumulators live in tensor-core fragments, and how large the shared
 * buffers of reductions, scans and tile_mma staging must be. */
#include "codegen/lower.h"

/* ---- the scan: declarations and shared-memory mirrors ------------------ */

static void scan_expr(Emitter *em, Expr *e, const Shape *ctx, bool home);

static void note_tmp(Emitter *em, Expr *e, Dtype d, const Shape *s)
{
    em->tmp[e->id] = S("t%d", e->id);
    em->tmp_expr[e->id] = e;
    em->tmp_dt[e->id] = d;
    em->tmp_shape[e->id] = *s;
}

static void scan_root(Emitter *em, Expr *e)
{
    scan_expr(em, e, &e->shape, true);
}

static void scan_expr(Emitter *em, Expr *e, const Shape *ctx, bool home)
{
    if (!e) return;
    bool my_home = home && (tv_same_home(em, &e->shape, ctx) || tv_bcast_local(em, &e->shape, ctx));
    bool random = e->shape.rank > 0 && !my_home && shape_numel(&e->shape) > 1;
    /* read through its mirror at the broadcast of ctx's own order: a
     * pattern the mirror's swizzle should serve */
    if (random && home && em->tg->threads && em->nbc_reads < 64 && !shape_equal(&e->shape, ctx))
        em->bc_reads[em->nbc_reads++] = (struct MirrorRead){.x = e, .ctx = ctx};
    if (e->is_const && e->shape.rank == 0) return;
    switch (e->kind) {
    case EX_NAME:
        if (random && e->sym && e->sym->kind == SYM_VAR) em->sym_smem[e->sym->id] = true;
        return;
    case EX_CALL: {
        Inline *in = e->inl;
        if (!in) { /* TILE_EXTERN: element-wise, evaluated in its reader's loop */
            for (int i = 0; i < e->nargs; i++) scan_expr(em, e->args[i], &e->shape, my_home);
            return;
        }
        if (e->dtype != DT_INVALID) note_tmp(em, e, e->dtype, &e->shape); /* void calls have no value */
        if (random) em->tmp_smem[e->id] = true;
        for (int i = 0; i < e->nargs; i++) {
            scan_expr(em, e->args[i], &in->params[i]->shape, true);
            em->syms[in->params[i]->id] = in->params[i];
        }
        scan_stmt(em, in->body);
        return;
    }
    case EX_BUILTIN:
        switch (builtin_info(e->bi)->cls) {
        case BCLASS_MEM:
            if (e->bi == BI_STORE) {
                Expr *arr = e->args[0];
                note_tmp(em, e, arr->dtype, &e->shape);
                scan_expr(em, e->args[1], &e->shape, true);
                for (int i = 0; i < e->nopts; i++) scan_root(em, e->opts[i].value);
                return;
            }
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            if (view_box_bytes(em, e) > em->vbox_bytes) em->vbox_bytes = view_box_bytes(em, e);
            for (int i = 0; i < e->nopts; i++) scan_root(em, e->opts[i].value);
            return;
        case BCLASS_INDEXED: {
            if (e->bi != BI_SCATTER) {
                note_tmp(em, e, e->dtype, &e->shape);
                if (random) em->tmp_smem[e->id] = true;
            }
            for (int i = 1; i < e->nargs; i++) scan_expr(em, e->args[i], &e->shape, true);
            Expr *iv = ast_option(e, "index")->value;
            if (iv->kind == EX_LIST)
                for (int i = 0; i < iv->nargs; i++) scan_expr(em, iv->args[i], &e->shape, true);
            else
                scan_expr(em, iv, &e->shape, true);
            return;
        }
        case BCLASS_MMA: {
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            em->mma_exprs[e->id] = e;
            if (em->tg->threads) {
                const Expr *a = e->args[0], *b = e->args[1];
                int64_t staging = mma_bytes(e) - a->shape.dim[0] * b->shape.dim[1] * 4;
                if (staging > em->mma_bytes) em->mma_bytes = staging;
            }
            for (int i = 0; i < e->nargs; i++) scan_root(em, e->args[i]);
            return;
        }
        case BCLASS_SCAN:
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            scan_root(em, e->args[0]);
            if (em->tg->threads) {
                int64_t n = shape_numel(&e->shape);
                int64_t bytes = (n + n / 32 + 1) * (dtype_bits(e->dtype) > 32 ? 8 : 4);
                if (bytes > em->red_bytes) em->red_bytes = bytes;
            }
            return;
        case BCLASS_REDUCE:
            note_tmp(em, e, e->dtype, &e->shape);
            if (random) em->tmp_smem[e->id] = true;
            scan_root(em, e->args[0]);
            red_note(em, e);
            return;
        case BCLASS_SHAPE: {
            /* The operand is read at mapped indices; only a reshape whose
             * thread-value layouts agree stays register to register. */
            bool home = ex_same_order_view(e->bi) && my_home && tv_agree(em, &e->shape, &e->args[0]->shape);
            /* a transpose filled in this thread's own order reads its
             * operand's mirror in a pattern its swizzle should serve */
            bool perm = e->bi == BI_TRANSPOSE || e->bi == BI_PERMUTE;
            if (perm && my_home && em->tg->threads && em->nperm_reads < 32) em->perm_reads[em->nperm_reads++] = e;
            for (int i = 0; i < e->nargs; i++) scan_expr(em, e->args[i], &e->args[i]->shape, home);
            return;
        }
        case BCLASS_DEBUG:
            /* printf's thread 0 reads every element of a tile argument:
             * out of order, through mirrors (home false) */
            if (e->bi == BI_PRINTF)
                for (int i = 1; i < e->nargs; i++) scan_expr(em, e->args[i], &e->args[i]->shape, false);
            else
                scan_root(em, e->args[0]);
            return;
        case BCLASS_FACTORY: case BCLASS_CAST: case BCLASS_MATH1: case BCLASS_MATH: case BCLASS_WHERE:
        case BCLASS_QUERY:
            break; /* element-wise: evaluated in its reader's loop */
        case BCLASS_TARGET:
            return; /* a target if's condition: compiled to #if */
        case BCLASS_VIEW:
            return; /* a view's declaration (sema): nothing runs */
        }
        for (int i = 0; i < e->nargs; i++) scan_expr(em, e->args[i], &e->shape, my_home);
        return;
    case EX_LIST:
        for (int i = 0; i < e->nargs; i++) scan_root(em, e->args[i]);
        return;
    default:
        scan_expr(em, e->a, &e->shape, my_home);
        scan_expr(em, e->b, &e->shape, my_home);
        scan_expr(em, e->c, &e->shape, my_home);
        return;
    }
}

void scan_stmt(Emitter *em, Stmt *st)
{
    if (!st) return;
    switch (st->kind) {
    case ST_DECL: {
        Symbol *sym = st->sym;
        em->syms[sym->id] = sym;
        scan_expr(em, st->init, &sym->shape, true);
        if (em->tg->threads && sym->shape.rank == 2 && (sym->dtype == DT_FLOAT32 || sym->dtype == DT_INT32) &&
            sym->shape.dim[0] % 16 == 0 && sym->shape.dim[1] % 16 == 0 &&
            sym->shape.dim[0] * sym->shape.dim[1] <= 128 * (int64_t)em->T) {
            /* at most 128 accumulator registers per thread */
            em->sym_frag[sym->id] = true; /* until an assignment says otherwise */
            em->sym_kk[sym->id] = 0;
        }
        return;
    }
    case ST_ASSIGN: {
        Symbol *sym = st->target->sym;
        scan_expr(em, st->value, &sym->shape, true);
        if (!em->sym_frag[sym->id]) return;
        if (!mma_is_frag_update(st)) {
            em->sym_frag[sym->id] = false;
            return;
        }
        em->mma_target[st->value->id] = sym->id + 1;
        int kk = st->value->args[0]->dtype == DT_TFLOAT32 ? 8 : 16;
        if (em->sym_kk[sym->id] && em->sym_kk[sym->id] != kk) em->sym_frag[sym->id] = false;
        em->sym_kk[sym->id] = kk;
        return;
    }
    case ST_EXPR:
    case ST_RETURN:
        if (st->value) scan_root(em, st->value);
        return;
    default:
        break;
    }
    if (st->cond) {
        scan_root(em, st->cond);
        /* A fragment accumulator read in a condition would need refreshing
         * on every test: keep such variables in registers. */
        for (int i = 0; i < em->k->nsyms; i++)
            if (em->sym_frag[i] && em->syms[i] && ast_reads(st->cond, em->syms[i], NULL)) em->sym_frag[i] = false;
    }
    scan_stmt(em, st->init_s);
    scan_stmt(em, st->step_s);
    scan_stmt(em, st->then_s);
    scan_stmt(em, st->else_s);
    scan_stmt(em, st->body);
    for (int i = 0; i < st->nitems; i++) scan_stmt(em, st->items[i]);
}
