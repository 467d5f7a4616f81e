/* hopper.c: the sm_90a variant of a kernel whose K loop pipeline.c accepts
 * (`for (k ...) acc = tile_mma(tile_load(A, ...), tile_load(B, ...), acc)`):
 * TMA loads into a ring of shared-memory stages, wgmma products, and warp
 * specialization.
 *
 * The block has one more warpgroup than the kernel's plan (T threads), two
 * more when it runs ping-pong (below):
 * warpgroup 0 is the producer, whose first thread walks the K loop issuing
 * each step's two TMA loads (A's box, then B's in 64-column chunks) into
 * stage s of the ring, after waiting for the consumers to release it
 * (empty[s]), the loads completing on full[s]; the T / 128 consumer
 * warpgroups wait for full[s], issue the step's wgmma (64 rows of the
 * accumulator per instruction, from shared-memory descriptors), and
 * release the stage once the products that read it have retired (one
 * wgmma group stays in flight).  After the loop the consumers, as the
 * kernel's T threads (t_ = threadIdx.x - 128), run whatever the kernel
 * does next (the epilogue) with the ordinary lowering, its barriers named
 * barrier 1 over those T threads; the producer warpgroup has exited.  The
 * accumulator reaches the epilogue's registers through shared memory,
 * like the mma.sync path's.
 *
 * Layouts (CuTe notation, bytes of 16-bit elements):
 *   - A (M x K, K contiguous), one TMA box of K x M with the swizzle of a
 *     K * 2-byte row (Sw<3,4,3> for K = 64: 128 B; 64 B for 32; 32 B for
 *     16): wgmma's K-major canonical layout, 8-row atoms SBO = 8 * 2K
 *     bytes apart, each k16 slice 32 bytes further along the row;
 *   - B (K x N, N contiguous), N / 64 boxes of 64 columns x K rows, each
 *     chunk K * 128 bytes with the 128-byte swizzle: wgmma's MN-major
 *     canonical layout (transposed B), chunks LBO = K * 128 bytes apart,
 *     8-row groups SBO = 1024 bytes apart, each k16 slice 2048 bytes on.
 *   - float8, tf32 and int8 (wgmma k32, k8, k32: 32 bytes of K an
 *     instruction, none with transposed operands): A as above (rows of K
 *     elements), and B read from a column-major array (N rows of K
 *     contiguous elements, the layout torch._scaled_mm and torch._int_mm
 *     take) as one K x N box, K-major like A; a row-major B is left to the
 *     mma.sync (or WMMA) kernel.  int8 accumulates in int32 registers.
 *
 * Plans whose block can walk tiles run on a persistent grid: one block per
 * SM walks the tiles, its producer filling the next tile's stages during
 * the epilogue (open_tiles).  A plan of 128 threads there runs ping-pong:
 * two consumer warpgroups, each the kernel's 128 threads on every other
 * tile, take turns on the tensor cores (named barriers 3 and 4), so one's
 * epilogue overlaps the other's products; each has its own mirrors,
 * epilogue barrier (1 + pp_) and store staging.  Other plans of 128
 * threads whose ring fits in half an SM put two blocks on each SM, for the
 * same overlap (hopper_plan).  float8 sums each K step's products in
 * partial registers and adds them in float32 (fp8_step).
 *
 * The epilogue runs on the accumulator's registers where wgmma left them:
 * tiles of the accumulator's shape take wgmma's layout in the variant
 * (hopper_regs_layout), unless an operation after the loop needs the
 * ordinary layout (a reduction, a scan), when the accumulator is converted
 * through shared memory as on the mma.sync path.
 *
 * With --sm90-clusters, plans on a persistent grid that are not ping-pong
 * run in clusters of two blocks on neighbouring tiles, an operand both
 * tiles read loaded once for both by TMA multicast (cluster_ok, and the
 * producer's partner_scalars; docs/design.md says why it is not the
 * default).
 *
 * A persistent grid that is neither may share the K steps of its last two
 * waves of tiles between blocks (stream-K: streamk.c writes the walk and
 * the fix-up; the launcher decides at run time).
 *
 * The variant exists only where it is correct and the launcher's choice
 * between it and the mma.sync kernel is made at run time (hopper_plan
 * says what it needs; cuda.c writes the launch). */
#include "codegen/lower.h"

/* ---- the plan ------------------------------------------------------------ */

static bool find_return(AstVisitor *v, const Stmt *st)
{
    if (st->kind == ST_RETURN) *(bool *)v->ctx = true;
    return true;
}

/* Whether the kernel's own body has a return statement (a persistent
 * block must go on to its next tile instead). */
static bool has_return(const Func *k)
{
    bool found = false;
    AstVisitor v = {.stmt = find_return, .ctx = &found};
    ast_walk_stmt(&v, k->body);
    return found;
}

/* Whether p is a parameter of the kernel itself (not of an inlined call):
 * the launcher passes it, and can map it for TMA. */
static bool kernel_param(const Emitter *em, const Param *p)
{
    for (int j = 0; j < em->k->nparams; j++)
        if (&em->k->params[j] == p) return true;
    return false;
}

/* A block that can walk tiles (its epilogue on wgmma's registers, no
 * return statement) runs on a persistent grid, one block per SM, so that
 * the producer fills the next tile's stages while the consumers run the
 * epilogue.  With copies 2, ping-pong: two consumer warpgroups, each the
 * kernel's 128 threads on a tile of its own, take turns on the tensor
 * cores, so that one's epilogue overlaps the other's products
 * (hopper_emit_for orders their K loops).  The epilogue's TMA stores stage
 * through a buffer after the ring, one a warpgroup: M x N elements of 4
 * bytes, or of 2 where that would leave fewer than three stages. */
static void hopper_walk(HopperPlan *hp, int64_t budget, int copies)
{
    for (int64_t oes = 4; oes >= 2 && !hp->persistent; oes -= 2) {
        int64_t c = hp->loop.M * hp->loop.N * oes;
        int sp = (int)((budget - copies * c) / hp->stage_bytes);
        if (sp > 6) sp = 6;
        if (sp >= 3) {
            hp->persistent = true;
            hp->pingpong = copies == 2;
            hp->cstage_bytes = c;
            hp->stages = sp;
        }
    }
}

bool hopper_no_plan(HopperPlan *hp, const char *why)
{
    hp->why = why;
    return false;
}

bool hopper_plan(Emitter *em, HopperPlan *hp, bool regs)
{
    memset(hp, 0, sizeof *hp);
    if (!em->tg->threads || !codegen_has_arch(em->co, 90) || em->co->opt_level <= 0 || em->npipes == 0) return false;
    const PipeLoop *pl = &em->pipes[0];
    hp->at = pl->loop;
    if (em->npipes > 1) return hopper_no_plan(hp, "more than one K loop of tile_mma in the kernel");
    bool fp8 = pl->dtype == DT_FLOAT8_E4M3FN || pl->dtype == DT_FLOAT8_E5M2;
    bool kmajor = fp8 || pl->dtype == DT_TFLOAT32 || pl->dtype == DT_INT8;
    if (pl->dtype != DT_BFLOAT16 && pl->dtype != DT_FLOAT16 && !kmajor)
        return hopper_no_plan(hp, S("%s operands (wgmma takes float16, bfloat16, float8, tfloat32 and int8)", dtype_name(pl->dtype)));
    int es = dtype_bits(pl->dtype) / 8;
    int T = em->T;
    if (T % 128 || T < 128 || T > 256) return hopper_no_plan(hp, S("%d threads a block (one or two warpgroups: 128 or 256)", T));
    int nwg = T / 128;
    int64_t M = pl->M, N = pl->N, K = pl->K;
    if (K * es != 32 && K * es != 64 && K * es != 128) /* a row of A: one swizzle span */
        return hopper_no_plan(hp, S("a K step of %" PRId64 " bytes a row (BK times the element size: 32, 64 or 128)", K * es));
    if (M % 64 || N % 64 || M > 256 || N > 256)
        return hopper_no_plan(hp, S("a %" PRId64 " x %" PRId64 " block (M and N multiples of 64, at most 256)", M, N));
    if ((M / 64) % nwg == 0) {
        hp->wg_m = nwg;
        hp->wg_n = 1;
    } else if (M == 64 && (N / nwg) % 64 == 0) {
        hp->wg_m = 1;
        hp->wg_n = nwg;
    } else {
        return hopper_no_plan(hp, S("a %" PRId64 " x %" PRId64 " block does not split into 64-row or 64-column parts for %d warpgroups",
                             M, N, nwg));
    }
    hp->wm = M / hp->wg_m;
    hp->wn = N / hp->wg_n;
    hp->mb = (int)(hp->wm / 64);
    /* accumulator registers per consumer thread: at most 128; float8 keeps
     * a step's partial sums beside them (fp8_step): 64 */
    if (hp->wn > 256 || hp->mb * hp->wn / 2 > 128)
        return hopper_no_plan(hp, S("a %" PRId64 " x %" PRId64 " accumulator a warpgroup: %" PRId64
                             " registers a thread (at most 128)", hp->wm, hp->wn, hp->mb * hp->wn / 2));
    if (fp8 && (hp->mb != 1 || hp->wn > 128))
        return hopper_no_plan(hp, S("float8 with a %" PRId64 " x %" PRId64 " accumulator a warpgroup (at most 64 x 128: a K step's "
                             "partial sums sit beside it)", hp->wm, hp->wn));
    hp->loop = *pl;
    hp->pl = &hp->loop;
    hp->nwg = nwg;
    hp->fp8 = fp8;
    hp->kmajor_b = kmajor;
    /* operands read through views: one TMA box of the view's array a step */
    if (!hview_plan(em, hp)) return false;
    /* the operands are arrays of the kernel itself, or views of them (the
     * launcher maps them) */
    for (int i = 0; i < 2; i++) {
        const Param *a = hview_array(hp, i);
        if (!kernel_param(em, a))
            return hopper_no_plan(hp, S("operand '%s' is not an array parameter of the kernel (TMA maps the kernel's own arrays)",
                                 a->name));
        hp->arr[i] = a->name;
    }
    hp->acc_int = pl->dtype == DT_INT8;
    hp->kstep = 32 / es;
    hp->row_bytes = K * es;
    hp->a_bytes = M * K * es;
    hp->stage_bytes = hp->a_bytes + K * N * es;
    int64_t budget = pipeline_smem_limit(90) - 8192;
    hp->stages = (int)(budget / hp->stage_bytes);
    if (hp->stages > 6) hp->stages = 6;
    if (hp->stages < 2)
        return hopper_no_plan(hp, S("a stage of %" PRId64 " bytes: fewer than two fit in shared memory", hp->stage_bytes));
    hp->blocks_per_sm = 1;
    /* A block that can walk tiles: a persistent grid, ping-pong for 128
     * threads whose steps are 128-byte rows (a warpgroup alone on the
     * tensor cores keeps them busy with four k16 products a stage; with
     * two, BK = 32, ping-pong measured slower than two blocks an SM:
     * 128x128x32 at 4096^3, 242 -> 280 us on an H200). */
    bool walk = regs && !has_return(em->k);
    if (walk && nwg == 1 && hp->row_bytes >= 128) hopper_walk(hp, budget, 2);
    /* Otherwise one consumer warpgroup puts two blocks on an SM when their
     * rings (at least three stages, and room for the accumulator's
     * conversion when the epilogue does not run on wgmma's registers) fit
     * in half of its 228 KB, for the same overlap.  Registers: 128 a thread
     * at launch (__launch_bounds__(256, 2)), then 40 for the producer and
     * 208 for the consumers (setmaxnreg), 31 744 a block. */
    if (nwg == 1 && !hp->pingpong) {
        int64_t half = (228 * 1024) / 2 - 1024 - 4096; /* the per-block reserve, static memory */
        int s2 = (int)((half - 1024) / hp->stage_bytes);
        if (s2 > 6) s2 = 6;
        int64_t conv = regs ? 0 : M * mma_acc_ld(N) * 4 + 64; /* the conversion through shared memory */
        /* (ptxas compiles the kernel under the launch's 128 registers: one
         * wgmma's accumulators, wn / 2, must leave room) */
        if (s2 >= 3 && conv <= half && hp->wn <= 128) {
            hp->blocks_per_sm = 2;
            hp->stages = s2;
        }
    }
    if (walk && hp->blocks_per_sm == 1 && !hp->persistent) hopper_walk(hp, budget, 1);
    hp->swz_a = (int)(K * es);
    hp->ptx_type = pl->dtype == DT_BFLOAT16 ? "bf16" : pl->dtype == DT_FLOAT16 ? "f16"
                   : pl->dtype == DT_FLOAT8_E4M3FN ? "e4m3" : pl->dtype == DT_FLOAT8_E5M2 ? "e5m2"
                   : pl->dtype == DT_TFLOAT32 ? "tf32" : "s8";
    /* (16-bit B read K-major, from a view: wgmma without its transpose) */
    hp->wgmma = S("tilec_wgmma_m64n%" PRId64 "k%d_%s%s_", hp->wn, hp->kstep, hp->ptx_type, hp->kmajor_b && !kmajor ? "_kb" : "");
    return true;
}

/* The block's threads: the producer warpgroup, then the consumers (the
 * kernel's T threads, twice over ping-pong). */
int hopper_block_threads(const HopperPlan *hp, int T)
{
    return 128 + T * (hp->pingpong ? 2 : 1);
}

int64_t hopper_ring_bytes(const HopperPlan *hp)
{
    /* + the alignment of the ring to 1024 bytes; the persistent grid's
     * store staging after it */
    return hp->stages * hp->stage_bytes + 1024 + hp->cstage_bytes * (hp->pingpong ? 2 : 1);
}

/* The persistent grid's target: tile_bid and tile_num_blocks read the
 * tile the block is on (vb<axis>_) and the launch's grid (vg_). */
static const Target *persistent_target(void)
{
    static Target t;
    if (!t.name) {
        t = target_cuda;
        t.block_index = "((int32_t)vb%c_)";
        t.grid_dim = "((int32_t)vg_.%c)";
    }
    return &t;
}

const Target *hopper_target(const HopperPlan *hp)
{
    return hp->persistent ? persistent_target() : &target_cuda;
}

/* Memory accesses (loads, stores, gathers, atomics) of array parameter p
 * in the kernel, inlined calls included. */
typedef struct AccessCount {
    const Param *p;
    int n;
} AccessCount;

static bool count_access(AstVisitor *v, const Expr *e)
{
    AccessCount *ac = v->ctx;
    if (e->kind == EX_BUILTIN && e->nargs > 0 && e->args[0]->kind == EX_NAME && e->args[0]->sym &&
        e->args[0]->sym->kind == SYM_PARAM && e->args[0]->sym->param == ac->p) {
        BuiltinClass c = builtin_info(e->bi)->cls;
        if (c == BCLASS_MEM || c == BCLASS_INDEXED) ac->n++;
    }
    return true;
}

/* Whether the K loop's load is operand i's only access: the launcher then
 * need not ask that array for the vector path (TMA reads it, whatever its
 * row alignment). */
static bool tma_only(Emitter *em, const HopperPlan *hp, int i)
{
    AccessCount ac = {hp->pl->load[i]->args[0]->sym->param, 0};
    AstVisitor v = {.expr = count_access, .inlined = true, .ctx = &ac};
    ast_walk_stmt(&v, em->k->body);
    return ac.n == 1;
}

/* ---- which kernels: the operations around the K loop --------------------- */

static bool scalar_def(const TirOp *op)
{
    return op->kind == TIR_DEF && op->dst && op->dst->home == TIR_SCALAR;
}

/* Whether every operation of the list ops, nested lists included,
 * satisfies ok. */
static bool all_ops(const TirOp *op, bool (*ok)(const TirOp *))
{
    for (; op; op = op->next)
        if (!ok(op) || !all_ops(op->pre, ok) || !all_ops(op->kids, ok) || !all_ops(op->else_kids, ok) ||
            !all_ops(op->init, ok) || !all_ops(op->step, ok))
            return false;
    return true;
}

/* Nothing after the K loop may update the accumulator again on tensor
 * cores (its fragments are wgmma's here) or start another pipeline. */
/* (tile_printf and tile_assert stay in the ordinary kernel: thread 0, the
 * block's barriers and its early return mean other things under warp
 * specialization) */
static bool epilogue_op(const TirOp *op)
{
    return op->kind != TIR_MMA_UPDATE && op->kind != TIR_TO_FRAG && op->kind != TIR_PIPELINED_FOR &&
           op->kind != TIR_PRINTF && op->kind != TIR_ASSERT;
}

static const TirOp *top_ops(const Emitter *em)
{
    const TirOp *top = em->tir->body;
    if (top && top->kind == TIR_BLOCK && !top->next) top = top->kids;
    return top;
}

/* ---- clusters of two ------------------------------------------------------ */

/* What a cluster needs of the scalars before the K loop: which depend on
 * the tile (tile_bid, or another that does), and whether each is plain
 * arithmetic that the producer can evaluate again for the other block's
 * tile (no call, no memory access, nothing materialised). */
typedef struct TileDeps {
    const Emitter *em;
    const Symbol *dep[64];
    int ndep;
    bool reads_dep; /* the expression walked reads tile_bid or a dep */
    bool plain;     /* and is plain arithmetic */
} TileDeps;

static bool dep_expr(AstVisitor *v, const Expr *e)
{
    TileDeps *d = v->ctx;
    if (d->em->tmp[e->id]) d->plain = false;
    switch (e->kind) {
    case EX_INT: case EX_FLOAT: case EX_UNARY: case EX_BINARY: case EX_COND: case EX_CAST: case EX_TYPE: case EX_LIST:
        break;
    case EX_NAME:
        for (int i = 0; i < d->ndep; i++)
            if (e->sym == d->dep[i]) d->reads_dep = true;
        break;
    case EX_BUILTIN: {
        BuiltinClass c = builtin_info(e->bi)->cls;
        if (e->bi == BI_BID) d->reads_dep = true;
        if (c != BCLASS_QUERY && c != BCLASS_MATH1 && c != BCLASS_MATH && c != BCLASS_CAST) d->plain = false;
        break;
    }
    default:
        d->plain = false;
    }
    return true;
}

static void walk_deps(TileDeps *d, const Expr *e)
{
    d->reads_dep = false;
    AstVisitor v = {.expr = dep_expr, .inlined = true, .ctx = d};
    if (e) ast_walk_expr(&v, e);
}

/* The scalars before the K loop that depend on the tile (d->dep: they
 * read tile_bid or another such scalar); false where one is beyond this
 * analysis (a definition with operations of its own, or of no variable). */
static bool tile_deps(Emitter *em, const TirOp *loop, TileDeps *d)
{
    for (const TirOp *op = top_ops(em); op != loop; op = op->next) {
        if (!scalar_def(op)) continue;
        if (op->pre || !op->dst->sym) return false;
        walk_deps(d, op->expr);
        if (d->reads_dep) {
            if (d->ndep == 64) return false;
            d->dep[d->ndep++] = op->dst->sym;
        }
    }
    return true;
}

/* Whether the K loop's bounds (its start and its limit) are the same for
 * every tile, d the scalars that depend on the tile (tile_deps). */
static bool bounds_fixed(TileDeps *d, const HopperPlan *hp, const TirOp *loop)
{
    for (const TirOp *op = loop->init; op; op = op->next) {
        if (op->kind != TIR_DEF || op->pre) return false;
        walk_deps(d, op->expr);
        if (d->reads_dep) return false;
    }
    walk_deps(d, hp->pl->hi);
    if (d->reads_dep) return false;
    for (int i = 0; i < d->ndep; i++)
        if (d->dep[i] == hp->pl->k) return false;
    return true;
}

bool hopper_bounds_fixed(Emitter *em, const HopperPlan *hp, const TirOp *loop)
{
    TileDeps d = {.em = em, .plain = true};
    return tile_deps(em, loop, &d) && bounds_fixed(&d, hp, loop);
}

/* Whether the kernel can run in clusters of two: a persistent grid whose
 * blocks are not ping-pong (each block's consumers take every tile of its
 * walk), plain scalars before the loop (the producer evaluates them for
 * the partner's tile too, to see which operand the two tiles share), and
 * a K loop whose bounds do not depend on the tile: the two blocks of a
 * cluster then fill their rings in step, stage for stage, which the
 * multicast loads need (a block writes into its partner's stage s). */
static bool cluster_ok(Emitter *em, HopperPlan *hp, const TirOp *loop)
{
    if (!hp->persistent || hp->pingpong) return false;
    TileDeps d = {.em = em, .plain = true};
    if (!tile_deps(em, loop, &d) || !bounds_fixed(&d, hp, loop)) return false;
    /* An operand is shared when its .index entries that do not read k
     * are equal for the two tiles (the producer compares them once a
     * tile) and those that do read nothing else of the tile. */
    for (int i = 0; i < 2; i++) {
        const Expr *iv = ast_option(hp->pl->load[i], "index")->value;
        hp->share_ok[i] = true;
        for (int j = 0; j < iv->nargs; j++) {
            walk_deps(&d, iv->args[j]);
            if (d.reads_dep && ast_reads(iv->args[j], hp->pl->k, NULL)) hp->share_ok[i] = false;
        }
    }
    return d.plain;
}

/* Before the loop: scalar definitions (the producer evaluates them too),
 * and the accumulator's uniform start (with its mirror, when the epilogue
 * reads it out of order). */
bool hopper_check_ops(Emitter *em, HopperPlan *hp)
{
    const TirOp *op = top_ops(em);
    for (; op && op->kind != TIR_PIPELINED_FOR; op = op->next) {
        if (scalar_def(op) || op->kind == TIR_NOP) continue;
        if ((op->kind == TIR_DEF || op->kind == TIR_TO_SMEM) && op->dst && op->dst->sym == hp->pl->acc) continue;
        if (op->kind == TIR_TO_FRAG && op->dst->sym == hp->pl->acc && mma_uniform_init(em, op->expr, hp->pl->acc->dtype))
            continue;
        return hopper_no_plan(hp, "before the K loop, tile work other than scalars and the accumulator's uniform start "
                           "(the producer warpgroup would have to do it too)");
    }
    if (!op || !op->pipe || op->pipe->loop != hp->pl->loop)
        return hopper_no_plan(hp, "the K loop is not at the kernel's top level");
    if (!all_ops(op->init, epilogue_op) || !all_ops(op->next, epilogue_op))
        return hopper_no_plan(hp, "after the K loop, another product, tile_printf or tile_assert");
    /* (a view's array may be read elsewhere through another view: the
     * launcher asks for the vector path; views share no loads in clusters
     * and have K loops whose length the launcher does not know) */
    for (int i = 0; i < 2; i++) hp->tma_only[i] = !hp->vbox[i].v && tma_only(em, hp, i);
    hp->cluster = em->co->sm90_clusters && !hp->views && cluster_ok(em, hp, op);
    hp->streamk = !hp->views && streamk_ok(em, hp, op);
    return true;
}

/* ---- the wgmma instruction of a tile ------------------------------------- */

const char *hopper_wgmma_name(const HopperPlan *hp)
{
    return hp->wgmma;
}

/* The C type of the accumulator's registers. */
const char *hopper_acc_type(const HopperPlan *hp)
{
    return hp->acc_int ? "int" : "float";
}

/* d[0 .. n/2) += A (descriptor a) x B (descriptor b: transposed for 16-bit
 * types, K-major for the others), as one wgmma.mma_async of the warpgroup. */
void hopper_write_wgmma(FILE *o, const HopperPlan *hp)
{
    int64_t n = hp->wn, r = n / 2;
    const char *ty = hp->ptx_type;
    fprintf(o, "#if TILEC_SM90A\nstatic __device__ __forceinline__ void %s(%s (&d)[%" PRId64 "], uint64_t a, uint64_t b%s)\n{\n",
            hopper_wgmma_name(hp), hopper_acc_type(hp), r, hp->fp8 ? ", int acc" : "");
    fprintf(o, "    asm volatile(\"{\\n.reg .pred p;\\nsetp.ne.b32 p, %%%" PRId64 ", 0;\\n\"\n", r + 2);
    fprintf(o, "                 \"wgmma.mma_async.sync.aligned.m64n%" PRId64 "k%d.%s32.%s.%s {\"", n, hp->kstep,
            hp->acc_int ? "s" : "f", ty, ty);
    for (int64_t i = 0; i < r; i++) {
        if (i % 16 == 0) fputs("\n                 \"", o);
        fprintf(o, "%%%" PRId64 "%s", i, i + 1 < r ? ", " : "");
        if (i % 16 == 15 || i + 1 == r) fputc('"', o);
    }
    /* 16-bit operands: B transposed (N-major); float8 and tf32 have no
     * transpose, integers no operand scales either */
    fprintf(o, "\n                 \"}, %%%" PRId64 ", %%%" PRId64 ", p%s;\\n}\\n\"\n                 :", r, r + 1,
            hp->acc_int ? "" : !hp->kmajor_b ? ", 1, 1, 0, 1" : dtype_bits(hp->pl->dtype) == 16 ? ", 1, 1, 0, 0" : ", 1, 1");
    for (int64_t i = 0; i < r; i++) {
        if (i % 8 == 0 && i) fputs("\n                  ", o);
        fprintf(o, " \"+%s\"(d[%" PRId64 "])%s", hp->acc_int ? "r" : "f", i, i + 1 < r ? "," : "");
    }
    fprintf(o, "\n                 : \"l\"(a), \"l\"(b), %s);\n}\n#endif\n\n", hp->fp8 ? "\"r\"(acc)" : "\"n\"(1)");
}

/* ---- the body ------------------------------------------------------------ */

static void touch_acc(Emitter *em, const char *f)
{
    const HopperPlan *hp = em->hp;
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int r_ = 0; r_ < %" PRId64 "; ++r_) tilec_wgmma_touch(%s[m_][r_]);", hp->wn / 2, f);
}

/* The tile_load's coordinates (elements, row then column) at step k. */
static void load_coords(Emitter *em, Expr *l, int64_t rows, int64_t cols, const char *pre)
{
    Expr *iv = ast_option(l, "index")->value;
    for (int d = 0; d < 2; d++) {
        Expr *x = iv->args[d];
        Ctx c = {.shape = &x->shape, .idx = "0"};
        line(em, "const int %s%d_ = (int)((int64_t)(%s) * %" PRId64 ");", pre, d, ex_evc(em, x, c, DT_INT64),
             d ? cols : rows);
    }
}

void hopper_loop_bounds(Emitter *em, const TirOp *op)
{
    const PipeLoop *pl = op->pipe;
    body_emit_ops(em, op->init);
    Ctx c = {.shape = &pl->hi->shape, .idx = "0"};
    if (em->hp->views) { /* the steps inside the views' extent along K (hopper_view.c) */
        line(em, "const int64_t pko_ = (int64_t)%s, peo_ = (int64_t)(%s);", tv_sym_name(em, pl->k), ex_evc(em, pl->hi, c, DT_INT64));
        line(em, "const int64_t pkv_ = %s;", hview_ksteps(em));
        line(em, "const int64_t pk0_ = pko_ > 0 ? pko_ : 0, pe_ = peo_ < pkv_ ? peo_ : pkv_;");
        line(em, "(void)pko_;");
    } else {
        line(em, "const int64_t pk0_ = (int64_t)%s;", tv_sym_name(em, pl->k));
        line(em, "const int64_t pe_ = (int64_t)(%s);", ex_evc(em, pl->hi, c, DT_INT64));
    }
    line(em, "const int64_t pn_ = pe_ > pk0_ ? pe_ - pk0_ : 0;");
}

/* The next stage of the ring, and its phase bit when the ring wraps (the
 * producer and the consumers walk it alike). */
static void ring_advance(Emitter *em)
{
    line(em, "if (++s_ == %d) {", em->hp->stages);
    line(em, "    s_ = 0;");
    line(em, "    ph_ ^= 1u;");
    line(em, "}");
}

/* The kernel's scalar definitions before the K loop (the loads' indices
 * and the loop's bounds need them), for the tile of vb<axis>_. */
void hopper_tile_scalars(Emitter *em, const TirOp *loop)
{
    for (const TirOp *op = top_ops(em); op != loop; op = op->next)
        if (scalar_def(op)) body_emit_op(em, op);
}

/* The tile vt_'s coordinates in the launch's grid vg_. */
void hopper_tile_coords(Emitter *em, const char *vt)
{
    line(em, "const int32_t vbx_ = (int32_t)(%s %% vg_.x), vby_ = (int32_t)((%s / vg_.x) %% vg_.y);", vt, vt);
    line(em, "const int32_t vbz_ = (int32_t)(%s / ((int64_t)vg_.x * vg_.y));", vt);
    line(em, "(void)vbx_, (void)vby_, (void)vbz_;");
}

/* The persistent grid's walk: block b takes tiles b, b + gridDim.x, ...
 * of the launch's grid vg_ (nt_ of them), in the order of their linear
 * index, so that the blocks running at one time cover neighbouring tiles
 * as a wave of the ordinary grid does (a grouped order the kernel computes
 * from tile_bid carries over).  vb<axis>_ are the tile's coordinates.
 * Ping-pong, consumer warpgroup pp_ takes every other one of the block's
 * tiles, and first moves its ring position past the stages of the tile
 * before (the other warpgroup's), whose K loop's length it evaluates as
 * the producer does. */
static void open_tiles(Emitter *em, const TirOp *loop, bool consumer)
{
    const HopperPlan *hp = em->hp;
    if (hp->cluster) {
        /* clusters of nc_ blocks (gridDim.x a multiple of it) take nc_
         * neighbouring tiles at a time; a block whose tile is past the last
         * (odd tile counts) is a ghost that walks its partner's tile vp_ */
        line(em, "for (int64_t vq_ = blockIdx.x / nc_; vq_ * nc_ < nt_; vq_ += gridDim.x / nc_) {");
        em->ind++;
        line(em, "const int64_t vo_ = vq_ * nc_ + cr_, vr_ = nc_ > 1 ? vq_ * nc_ + (cr_ ^ 1u) : vo_;");
        line(em, "const bool vghost_ = vo_ >= nt_;");
        line(em, "const int64_t vt_ = vghost_ ? vr_ : vo_, vp_ = vr_ < nt_ ? vr_ : vt_; /* this block's tile, its partner's */");
        line(em, "(void)vghost_, (void)vp_;");
        hopper_tile_coords(em, "vt_");
        return;
    }
    if (hp->streamk) { /* (the producer's walk: streamk_consumers has the consumers') */
        streamk_units(em);
        return;
    }
    if (!consumer || !hp->pingpong) {
        line(em, "for (int64_t vt_ = blockIdx.x; vt_ < nt_; vt_ += gridDim.x) {");
        em->ind++;
        hopper_tile_coords(em, "vt_");
        return;
    }
    line(em, "for (int64_t vt_ = blockIdx.x + (int64_t)pp_ * gridDim.x; vt_ < nt_; vt_ += 2 * (int64_t)gridDim.x) {");
    em->ind++;
    hopper_tile_coords(em, "vt_");
    line(em, "if (vt_ >= (int64_t)gridDim.x) { /* the other warpgroup's tile before: its stages */");
    em->ind++;
    line(em, "const int64_t vo_ = vt_ - gridDim.x;");
    hopper_tile_coords(em, "vo_");
    hopper_tile_scalars(em, loop);
    hopper_loop_bounds(em, loop);
    line(em, "s_ += (int)(pn_ %% %d);", hp->stages);
    line(em, "ph_ ^= (unsigned)((pn_ / %d) & 1);", hp->stages);
    line(em, "if (s_ >= %d) {", hp->stages);
    line(em, "    s_ -= %d;", hp->stages);
    line(em, "    ph_ ^= 1u;");
    line(em, "}");
    em->ind--;
    line(em, "}");
}

/* The K steps of the unit at hand: all of the tile's, or a stream-K
 * part's (streamk_units). */
static const char *ks_begin(const Emitter *em)
{
    return em->hp->streamk ? "kb_" : "0";
}

static const char *ks_end(const Emitter *em)
{
    return em->hp->streamk ? "(ke_ < 0 ? pn_ : ke_)" : "pn_";
}

/* The TMA loads of a step into stage st_ (suffix "_mc": multicast to both
 * blocks of the cluster). */
static void load_a(Emitter *em, const char *in, const char *mc)
{
    line(em, "%stilec_tma_load_2d%s(st_, &tma_a_, &hfull_[s_], a1_, a0_%s);", in, mc, *mc ? ", 3" : "");
}

static void load_b(Emitter *em, const char *in, const char *mc)
{
    const HopperPlan *hp = em->hp;
    if (hp->kmajor_b) { /* B column-major: one box of N rows of K elements */
        line(em, "%stilec_tma_load_2d%s(st_ + %" PRId64 "u, &tma_b_, &hfull_[s_], b0_, b1_%s);", in, mc, hp->a_bytes,
             *mc ? ", 3" : "");
        return;
    }
    line(em, "%s#pragma unroll", in);
    line(em, "%sfor (int c_ = 0; c_ < %" PRId64 "; ++c_)", in, hp->pl->N / 64);
    line(em, "%s    tilec_tma_load_2d%s(st_ + %" PRId64 "u + (unsigned)c_ * %" PRId64 "u, &tma_b_, &hfull_[s_], b1_ + c_ * 64, b0_%s);",
         in, mc, hp->a_bytes, hp->pl->K * 128, *mc ? ", 3" : "");
}

/* The variables of the partner's tile in the producer (clusters): a copy
 * q<name> of each scalar before the K loop. */
static void partner_decls(Emitter *em, const TirOp *loop)
{
    for (const TirOp *op = top_ops(em); op != loop; op = op->next) {
        if (!scalar_def(op)) continue;
        bool again = false; /* (a variable assigned twice is declared once) */
        for (const TirOp *o = top_ops(em); o != op; o = o->next) again |= scalar_def(o) && o->dst->sym == op->dst->sym;
        if (!again) line(em, "%s q%s = 0;", emit_storage_type(op->dst->dtype), tv_sym_name(em, op->dst->sym));
    }
}

/* The scalars before the K loop for the partner's tile vp_ (its
 * coordinates shadow this tile's in a block of their own), and which
 * operands (A: sha_, B: shb_) the two tiles share: those whose .index
 * entries that do not read the loop's variable are equal (cluster_ok).
 * This tile's entries are evaluated before the block, the partner's in
 * it: an entry may read tile_bid itself. */
static void partner_scalars(Emitter *em, const TirOp *loop)
{
    const HopperPlan *hp = em->hp;
    line(em, "bool sha_ = false, shb_ = false; /* operands the two tiles share, at every step */");
    for (int i = 0; i < 2; i++) {
        const Expr *iv = ast_option(hp->pl->load[i], "index")->value;
        for (int j = 0; hp->share_ok[i] && j < iv->nargs; j++) {
            if (ast_reads(iv->args[j], hp->pl->k, NULL)) continue;
            Ctx c = {.shape = &iv->args[j]->shape, .idx = "0"};
            line(em, "const int64_t m%c%d_ = (int64_t)(%s); /* this tile's .index entry */", i ? 'b' : 'a', j,
                 ex_evc(em, iv->args[j], c, DT_INT64));
        }
    }
    line(em, "if (nc_ > 1) { /* the partner's tile */");
    em->ind++;
    hopper_tile_coords(em, "vp_");
    em->sym_prefix = "q";
    for (const TirOp *op = top_ops(em); op != loop; op = op->next) {
        if (!scalar_def(op)) continue;
        Ctx c = {.shape = &op->expr->shape, .idx = "0"};
        line(em, "%s = %s;", tv_sym_name(em, op->dst->sym), ex_evc(em, op->expr, c, op->dst->dtype));
    }
    for (int i = 0; i < 2; i++) {
        if (!hp->share_ok[i]) continue;
        const Expr *iv = ast_option(hp->pl->load[i], "index")->value;
        const char *eq = NULL;
        for (int j = 0; j < iv->nargs; j++) {
            if (ast_reads(iv->args[j], hp->pl->k, NULL)) continue;
            Ctx c = {.shape = &iv->args[j]->shape, .idx = "0"};
            const char *t = S("m%c%d_ == (int64_t)(%s)", i ? 'b' : 'a', j, ex_evc(em, iv->args[j], c, DT_INT64));
            eq = eq ? S("%s && %s", eq, t) : t;
        }
        line(em, "sh%c_ = %s;", i ? 'b' : 'a', eq ? eq : "true");
    }
    em->sym_prefix = NULL;
    em->ind--;
    line(em, "}");
}

/* The producer: the first thread of warpgroup 0 evaluates the scalars the
 * loads' indices need and feeds the ring (on a persistent grid, tile after
 * tile without pause: the next tile's stages fill while the consumers run
 * the epilogue). */
static void producer(Emitter *em, const TirOp *loop)
{
    const HopperPlan *hp = em->hp;
    const PipeLoop *pl = hp->pl;
    line(em, "if (t_ == -128) { /* the producer: TMA loads into the ring */");
    em->ind++;
    if (hp->persistent) {
        line(em, "int s_ = 0;");
        line(em, "unsigned ph_ = 0;");
        line(em, "int64_t fills_ = 0; /* stages filled so far */");
        if (hp->cluster) partner_decls(em, loop);
        open_tiles(em, loop, false);
    }
    hopper_tile_scalars(em, loop);
    if (hp->cluster) partner_scalars(em, loop);
    line(em, "{");
    em->ind++;
    hopper_loop_bounds(em, loop);
    if (!hp->persistent) {
        line(em, "int s_ = 0;");
        line(em, "unsigned ph_ = 0;");
    }
    line(em, "for (int64_t ks_ = %s; ks_ < %s; ++ks_) {", ks_begin(em), ks_end(em));
    em->ind++;
    if (hp->persistent)
        line(em, "if (fills_++ >= %d) tilec_mbar_wait(&hempty_[s_], ph_ ^ 1u); /* the consumers released it */", hp->stages);
    else
        line(em, "if (ks_ >= %d) tilec_mbar_wait(&hempty_[s_], ph_ ^ 1u); /* the consumers released it */", hp->stages);
    line(em, "%s = (%s)(pk0_ + ks_);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype));
    if (!hp->vbox[0].v) load_coords(em, pl->load[0], pl->M, pl->K, "a");
    if (!hp->vbox[1].v) load_coords(em, pl->load[1], pl->K, pl->N, "b");
    line(em, "const unsigned st_ = ring_ + (unsigned)s_ * %" PRId64 "u;", hp->stage_bytes);
    line(em, "tilec_mbar_expect_tx(&hfull_[s_], %" PRId64 "u);", hp->stage_bytes);
    if (!hp->cluster) {
        if (hp->vbox[0].v) hview_issue(em, 0);
        else load_a(em, "", "");
        if (hp->vbox[1].v) hview_issue(em, 1);
        else load_b(em, "", "");
    } else { /* an operand both tiles read: each block loads it for both on every other step */
        line(em, "if (!sha_) {");
        load_a(em, "    ", "");
        line(em, "} else if ((unsigned)(ks_ & 1) == cr_) {");
        load_a(em, "    ", "_mc");
        line(em, "}");
        line(em, "if (!shb_) {");
        load_b(em, "    ", "");
        line(em, "} else if ((unsigned)((ks_ + 1) & 1) == cr_) {");
        load_b(em, "    ", "_mc");
        line(em, "}");
    }
    ring_advance(em);
    em->ind--;
    line(em, "}");
    em->ind--;
    line(em, "}");
    if (hp->persistent) tv_close_loop(em);
    if (hp->cluster) {
        /* The partner's consumers arrive on this block's empty barriers
         * until they are done: the block stays until every stage's last
         * fill is released (its shared memory must outlive them). */
        line(em, "if (nc_ > 1) {");
        line(em, "    for (int i_ = 0; i_ < %d; ++i_) {", hp->stages);
        line(em, "        if (fills_++ >= %d) tilec_mbar_wait(&hempty_[s_], ph_ ^ 1u);", hp->stages);
        em->ind += 2;
        ring_advance(em);
        em->ind -= 2;
        line(em, "    }");
        line(em, "}");
    }
    em->ind--;
    line(em, "}");
}

/* A consumer warp's release of ring stage st: an arrival on its empty
 * barrier, in clusters on the barrier of each block of the cluster (either
 * block's producer may write the stage of both). */
static const char *release(Emitter *em, const char *st)
{
    return em->hp->cluster ? S("tilec_mbar_arrive_cluster_warp(&hempty_[%s], nc_, t_ %% 32)", st)
                           : S("tilec_mbar_arrive_warp(&hempty_[%s], t_ %% 32)", st);
}

static void touch_part(Emitter *em, const char *p)
{
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) tilec_wgmma_touch(%s[r_]);", em->hp->wn / 2, p);
}

/* A float8 step.  Hopper's float8 wgmma accumulates in less than float32
 * precision, so, as cuBLAS does without its fast-accumulation mode, each
 * K step's products go into partial sums of their own (pa_: the step's
 * first wgmma overwrites them), which are added to the float32 accumulator
 * once the step's group has retired.  The wait is for every group (ptxas
 * serialises wgmma whose accumulators other instructions read while a
 * group is in flight); the two consumer warpgroups keep the tensor cores
 * busy between one's products and its additions. */
static void fp8_step(Emitter *em, const char *f, int mode)
{
    const HopperPlan *hp = em->hp;
    touch_part(em, "pa_");
    line(em, "tilec_wgmma_fence();");
    line(em, "#pragma unroll");
    line(em, "for (int kk_ = 0; kk_ < %" PRId64 "; ++kk_)", hp->row_bytes / 32);
    line(em, "    %s(pa_, tilec_wgmma_desc(sa_ + (unsigned)kk_ * 32u, 16u, %du, %du), "
             "tilec_wgmma_desc(sb_ + (unsigned)kk_ * 32u, 16u, %du, %du), kk_ > 0);",
         hopper_wgmma_name(hp), 8 * hp->swz_a, mode, 8 * hp->swz_a, mode);
    line(em, "tilec_wgmma_commit();");
    touch_part(em, "pa_");
    line(em, "tilec_wgmma_wait<0>();");
    touch_part(em, "pa_");
    line(em, "%s; /* the stage is read */", release(em, "s_"));
    line(em, "#pragma unroll");
    line(em, "for (int r_ = 0; r_ < %" PRId64 "; ++r_) %s[0][r_] += pa_[r_];", hp->wn / 2, f);
}

/* The consumers' K steps of the unit at hand, on accumulator f (op the
 * K loop). */
void hopper_consumer_steps(Emitter *em, const TirOp *op, const char *f)
{
    const HopperPlan *hp = em->hp;
    int64_t K = hp->pl->K;
    hopper_loop_bounds(em, op);
    line(em, "const int wg_ = t_ / 128;");
    line(em, "const unsigned arow_ = (unsigned)(wg_ / %d) * %" PRId64 "u * %" PRId64 "u;", hp->wg_n, hp->wm, hp->row_bytes);
    line(em, "const unsigned bcol_ = (unsigned)(wg_ %% %d) * %" PRId64 "u;", hp->wg_n,
         hp->kmajor_b ? hp->wn * hp->row_bytes : hp->wn / 64 * K * 128);
    if (!hp->persistent) { /* (a persistent block's ring position carries over from tile to tile) */
        line(em, "int s_ = 0, ps_ = 0;");
        line(em, "unsigned ph_ = 0;");
    }
    if (hp->fp8) line(em, "float pa_[%" PRId64 "]; /* a step's partial sums */", hp->wn / 2);
    /* Ping-pong: a warpgroup's K loop starts once the other's (the tile
     * before) has seen all its stages fill, which also keeps it from
     * waiting on a stage more than one fill ahead of the barrier's phase. */
    if (hp->pingpong) line(em, "if (vt_ >= (int64_t)gridDim.x) tilec_bar_named(3 + pp_, 256); /* the other warpgroup's turn is over */");
    /* (with views, nvcc sank the accumulator's start into the path that
     * skips the loop, between the loop's wgmma and their wait, and ptxas
     * serialised them: C7515; the fragments pass through an empty asm
     * first, as in pipe_wg_loop) */
    if (hp->views && !hp->fp8) touch_acc(em, f);
    line(em, "for (int64_t ks_ = %s; ks_ < %s; ++ks_) {", ks_begin(em), ks_end(em));
    em->ind++;
    line(em, "tilec_mbar_wait(&hfull_[s_], ph_);");
    line(em, "const unsigned sa_ = ring_ + (unsigned)s_ * %" PRId64 "u + arow_;", hp->stage_bytes);
    line(em, "const unsigned sb_ = ring_ + (unsigned)s_ * %" PRId64 "u + %" PRId64 "u + bcol_;", hp->stage_bytes,
         hp->a_bytes);
    int mode = hp->swz_a == 128 ? 1 : hp->swz_a == 64 ? 2 : 3;
    if (hp->fp8) {
        fp8_step(em, f, mode);
    } else {
        touch_acc(em, f);
        line(em, "tilec_wgmma_fence();");
        line(em, "#pragma unroll");
        line(em, "for (int kk_ = 0; kk_ < %" PRId64 "; ++kk_) {", hp->row_bytes / 32);
        em->ind++;
        if (hp->kmajor_b) /* (tf32, int8) B's rows like A's: the same swizzle, 32 bytes of K an instruction */
            line(em, "const uint64_t db_ = tilec_wgmma_desc(sb_ + (unsigned)kk_ * 32u, 16u, %du, %du);", 8 * hp->swz_a, mode);
        else
            line(em, "const uint64_t db_ = tilec_wgmma_desc(sb_ + (unsigned)kk_ * 2048u, %" PRId64 "u, 1024u, 1u);", K * 128);
        line(em, "#pragma unroll");
        line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
        line(em, "    %s(%s[m_], tilec_wgmma_desc(sa_ + (unsigned)m_ * %" PRId64 "u + (unsigned)kk_ * 32u, 16u, %du, %du), db_);",
             hopper_wgmma_name(hp), f, 64 * hp->row_bytes, 8 * hp->swz_a, mode);
        em->ind--;
        line(em, "}");
        line(em, "tilec_wgmma_commit();");
        touch_acc(em, f);
        line(em, "tilec_wgmma_wait<1>(); /* the previous step's products are done with their stage */");
        line(em, "if (ks_ > %s) %s;", ks_begin(em), release(em, "ps_"));
    }
    line(em, "ps_ = s_;");
    ring_advance(em);
    em->ind--;
    line(em, "}");
    if (hp->pingpong)
        line(em, "if (vt_ + (int64_t)gridDim.x < nt_) tilec_bar_arrive(4 - pp_, 256); /* the next tile's warpgroup: its turn */");
    line(em, "tilec_wgmma_wait<0>();");
    if (hp->persistent && !hp->fp8) /* (float8 releases each stage in its step) */
        line(em, "if (%s > %s) %s; /* the last stage, for the next tile */", ks_end(em), ks_begin(em), release(em, "ps_"));
    touch_acc(em, f);
}

/* The consumers' K loop (body.c calls it for the TIR_PIPELINED_FOR). */
void hopper_emit_for(Emitter *em, const TirOp *op)
{
    const HopperPlan *hp = em->hp;
    const PipeLoop *pl = hp->pl;
    const char *f = S("f%s", tv_sym_name(em, pl->acc));
    em->early_now = true; /* the epilogue's small loads first (find_early_loads) */
    for (int i = 0; i < em->nearly; i++) body_emit_op(em, em->early[i]);
    em->early_now = false;
    line(em, "{ /* K loop: wgmma on the ring's stages (%d), the producer %d step%s ahead */", hp->stages,
         hp->stages, hp->stages > 1 ? "s" : "");
    em->ind++;
    hopper_consumer_steps(em, op, f);
    if (hp->streamk) streamk_finish(em, f);
    if (hp->views) {
        hview_zero_outside(em, f);
        line(em, "%s = (%s)(peo_ > pko_ ? peo_ : pko_);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype));
    } else {
        line(em, "%s = (%s)(pk0_ + pn_);", tv_sym_name(em, pl->k), emit_storage_type(pl->k->dtype));
    }
    em->ind--;
    line(em, "}");
}

/* acc's uniform start, straight into the wgmma accumulators. */
void hopper_to_frag(Emitter *em, const TirOp *op)
{
    const HopperPlan *hp = em->hp;
    char *u = mma_uniform_init(em, op->expr, hp->pl->acc->dtype);
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_) /* %s: uniform start */", hp->mb, hp->pl->acc->name);
    line(em, "    #pragma unroll");
    line(em, "    for (int r_ = 0; r_ < %" PRId64 "; ++r_) f%s[m_][r_] = %s;", hp->wn / 2,
         tv_sym_name(em, hp->pl->acc), u);
}

/* ---- the epilogue on the accumulator's registers ------------------------ */

/* The layout of the accumulator as wgmma leaves it, from (thread, value)
 * to the tile's row-major index (CuTe notation, N the tile's columns):
 *   threads (4,8,4,W):(2,N,16N,Ws): lane l holds columns 2(l%4) of rows
 *     l/4 of its warp's 16-row slice, warp q rows 16q on, warpgroup w its
 *     share (Ws = wm * N below the previous one, or wn to its right);
 *   values (2,2,B,Mb):(1,8N,8,64N): a pair of columns, the row 8 below,
 *     B = wn / 8 column blocks of 8, Mb 64-row wgmma blocks.
 * Every tile of the accumulator's shape takes it in the variant, so the
 * epilogue reads the accumulator's registers where wgmma left them:
 * element-wise operations run register by register, a broadcast operand
 * (a bias row) is read through its mirror like any other, and loads and
 * stores move runs of 2 elements. */
bool hopper_regs_layout(Emitter *em)
{
    const HopperPlan *hp = em->hp;
    const Symbol *acc = hp->pl->acc;
    int64_t N = acc->shape.dim[1];
    int64_t ws = hp->wg_m > 1 ? hp->wm * N : hp->wn;
    char text[256];
    snprintf(text, sizeof text, "((4,8,4,%d),(2,2,%" PRId64 ",%d)):((2,%" PRId64 ",%" PRId64 ",%" PRId64 "),(1,%" PRId64
             ",8,%" PRId64 "))", hp->nwg, hp->wn / 8, hp->mb, N, 16 * N, ws, 8 * N, 64 * N);
    if (acc->shape.rank != 2 || !layout_parse(text, &em->frag_tv, NULL, 0)) return false;
    em->frag_shape = acc->shape;
    em->frag_lay = true;
    return true;
}

/* Whether every operation of ops runs in any thread-value layout: element-
 * wise definitions, loads, stores, mirrors, control flow.  Reductions,
 * scans, gathers and the like assume the (T,(V,R)) layout of lower.h; a
 * kernel with one of them after its K loop takes the conversion through
 * shared memory (hopper_to_regs). */
static bool regs_op(const TirOp *op)
{
    return op->kind != TIR_MATERIALIZE || (op->expr && op->expr->kind == EX_BUILTIN && op->expr->bi == BI_LOAD);
}

bool hopper_regs_ok(const Emitter *em)
{
    return all_ops(top_ops(em), regs_op);
}

/* A tile_store of a tile in the accumulator's layout to a rank-2 array (2
 * or 4 bytes an element, its own order), as TMA stores: the consumers
 * write their registers into the ring (free after the K loop: every
 * warpgroup has passed the barrier) in the box layout of the array's
 * tensor map, 128-byte columns of M rows with the 128-byte swizzle (the
 * 16-byte chunk c of row r at chunk c ^ (r % 8): a warp's pairs of one
 * column block land on 8 rows, conflict-free), then one thread stores the
 * boxes.  TMA writes only what lies inside the array, so partial tiles
 * need no element-by-element path (which, with one 64-bit address per
 * pair of columns, also cost registers the accumulator needs).  False when
 * the store does not qualify (mem_store writes it). */
bool hopper_tma_store(Emitter *em, Expr *e)
{
    const HopperPlan *hp = em->hp;
    const Shape *s = &e->shape;
    /* The accumulator's tile, or a reshape of it into an array of higher
     * rank (tv_frag: a convolution's (1, BH, BW, N) block of pixels), whose
     * leading axes then give the box's outer dimensions: the staging
     * layout's rows are the tile's rows either way. */
    if (!tv_frag(em, s) || ast_option(e, "order") || s->rank < 2 || s->rank > 5) return false;
    const Expr *a = e->args[0];
    if (a->kind != EX_NAME || !a->sym || a->sym->kind != SYM_PARAM) return false;
    const Param *p = a->sym->param;
    Dtype d = em->tmp_dt[e->id];
    int es = dtype_bits(d) / 8;
    int R = s->rank;
    int64_t N = s->dim[R - 1], M = shape_numel(s) / N;
    for (int k = 0; k < R - 1; k++)
        if (s->dim[k] > 256) return false;
    if (!kernel_param(em, p) || d != p->type.dtype || (es != 2 && es != 4) || (em->tma_store && em->tma_store != p) ||
        (em->tma_store && !shape_equal(&em->tma_store_tile, s)) || (N * es) % 128)
        return false;
    /* A buffer smaller than the tile (the persistent grid's staging, sized
     * for 2-byte elements where 4 would leave fewer than three stages)
     * takes it in passes of half, a quarter ... of its boxes, each thread
     * writing the pairs of a pass's boxes.  Which box a pair is in must not
     * depend on the thread for the unrolled passes to drop the others' at
     * compile time: so with the warpgroups side by side (wg_n > 1) not. */
    int64_t cap = hp->persistent ? hp->cstage_bytes : hp->stages * hp->stage_bytes;
    int64_t cpc = 128 / es; /* elements of a 128-byte box row */
    int64_t nbox = N / cpc, passes = 1;
    while (M * N * es / passes > cap && passes < nbox && nbox % (2 * passes) == 0) passes *= 2;
    if (M * N * es / passes > cap || (passes > 1 && hp->wg_n > 1)) return false;
    int64_t bpp = nbox / passes; /* boxes a pass */
    em->tma_store = p;
    em->tma_store_tile = *s;
    const char *name = em->tmp[e->id];
    const char *arr = S("p_%s", a->name);
    mem_materialize(em, name, d, s, e->args[1]);
    int ord[TILE_MAX_RANK];
    for (int k = 0; k < R; k++) ord[k] = k;
    /* the ring, or on a persistent grid (whose producer is filling the ring
     * for the next tile) the staging buffer after it */
    const char *buf = hp->pingpong     ? S("(ring_ + %" PRId64 "u + (unsigned)pp_ * %" PRId64 "u)", hp->stages * hp->stage_bytes,
                                           hp->cstage_bytes)
                      : hp->persistent ? S("(ring_ + %" PRId64 "u)", hp->stages * hp->stage_bytes)
                                       : "ring_";
    line(em, "{ /* tile_store %s: TMA, through %s */", a->name, hp->persistent ? "the staging buffer" : "the ring");
    em->ind++;
    mem_prologue(em, e, s, ord, arr);
    /* (the thread that issued an earlier store waited for its reads
     * already; this wait is kept because the branch also stops nvcc from
     * hoisting the tile's arithmetic above the barrier, which spilled 52
     * bytes of the 128-thread GELU kernel under its 128-register cap) */
    line(em, "if (t_ == 0) tilec_bulk_wait_read(); /* an earlier store is done with %s */", hp->persistent ? "the buffer" : "the ring");
    line(em, "%s", em->bar);
    if (passes > 1) {
        line(em, "#pragma unroll");
        line(em, "for (int pz_ = 0; pz_ < %" PRId64 "; ++pz_) { /* passes of %" PRId64 " boxes */", passes, bpp);
        em->ind++;
    }
    tv_open_runs(em, s, tv_lay(em, s).E / 2);
    line(em, "const int row_ = i_ / %" PRId64 ", col_ = i_ %% %" PRId64 ";", N, N);
    const char *box = S("(col_ / %" PRId64 ")", cpc);
    if (passes > 1) {
        /* (thread 0's box: a thread's pairs lie 0-6 columns right of its 8-column blocks) */
        line(em, "const int c_ = (%s) %% %" PRId64 " / %" PRId64 " - pz_ * %" PRId64 "; /* the box in this pass */",
             tv_run_index_of(em, s, "0", "r_", NULL), N, cpc, bpp);
        line(em, "if (c_ < 0 || c_ >= %" PRId64 ") continue;", bpp);
        box = "c_";
    }
    line(em, "const unsigned a_ = %s + (unsigned)%s * %" PRId64 "u + (unsigned)row_ * 128u + "
             "((unsigned)((col_ %% %" PRId64 ") * %d / 16) ^ (unsigned)(row_ %% 8)) * 16u + (unsigned)(col_ * %d %% 16);",
         buf, box, M * 128, cpc, es, es);
    if (es == 2) line(em, "tilec_st_shared_b32(a_, %s.w[r_]);", name);
    else if (d == DT_FLOAT32) line(em, "tilec_st_shared_v2f32(a_, %s[2 * r_], %s[2 * r_ + 1]);", name, name);
    else line(em, "tilec_st_shared_v2b32(a_, (uint32_t)%s[2 * r_], (uint32_t)%s[2 * r_ + 1]);", name, name);
    em->ind--;
    line(em, "}");
    line(em, "tilec_fence_proxy_async();");
    line(em, "%s", em->bar);
    line(em, "if (t_ == 0) {");
    const char *cb = passes > 1 ? S("(pz_ * %" PRId64 " + c_)", bpp) : "c_";
    if (R == 2) {
        line(em, "    if (o0_ > -%" PRId64 " && o0_ < %s.shape[0] && o1_ > -%" PRId64 " && o1_ < %s.shape[1]) { /* the box meets the array */",
             M, arr, N, arr);
        line(em, "        #pragma unroll");
        line(em, "        for (int c_ = 0; c_ < %" PRId64 "; ++c_)", bpp);
        line(em, "            tilec_tma_store_2d(&tma_c_, %s + (unsigned)c_ * %" PRId64 "u, (int)(o1_ + %s * %" PRId64 "), (int)o0_);",
             buf, M * 128, cb, cpc);
    } else {
        char *meets = S("o0_ > -%" PRId64 " && o0_ < %s.shape[0]", s->dim[0], arr), *co = S("(int)(o%d_ + %s * %" PRId64 ")", R - 1, cb, cpc);
        for (int k = 1; k < R; k++) meets = S("%s && o%d_ > -%" PRId64 " && o%d_ < %s.shape[%d]", meets, k, s->dim[k], k, arr, k);
        for (int k = R - 2; k >= 0; k--) co = S("%s, (int)o%d_", co, k);
        line(em, "    if (%s) { /* the box meets the array */", meets);
        line(em, "        #pragma unroll");
        line(em, "        for (int c_ = 0; c_ < %" PRId64 "; ++c_)", bpp);
        line(em, "            tilec_tma_store_%dd(&tma_c_, %s + (unsigned)c_ * %" PRId64 "u, %s);", R, buf, M * 128, co);
    }
    line(em, "    }");
    line(em, "    tilec_bulk_commit();");
    /* On a persistent grid the next tile's store waits for this one's reads
     * before it writes the buffer (above), and hopper_emit_body waits once
     * after the last tile: the epilogue does not stall its warp, so its
     * warpgroup's next K loop, on every tile's store (3-5% of the GELU
     * layer's and of float8 8192^3's time on an H100). */
    if (passes > 1 || !hp->persistent)
        line(em, "    tilec_bulk_wait_read(); /* before the block's shared memory goes%s */", passes > 1 ? ", or the next pass" : "");
    line(em, "}");
    if (passes > 1) {
        line(em, "%s", em->bar);
        em->ind--;
        line(em, "}");
    }
    em->ind--;
    line(em, "}");
    return true;
}

/* acc's wgmma accumulators -> its registers.  In the accumulator's own
 * layout (hopper_regs_layout) a copy, register for register.  Otherwise
 * every thread writes its pairs to the padded row-major buffer (thread l
 * of warp q of a warpgroup holds, for each 8-column block b, rows 16q +
 * l/4 and 8 below it, columns 8b + 2(l%4) and the next), then reads its
 * own elements back. */
void hopper_to_regs(Emitter *em, const TirOp *op)
{
    const HopperPlan *hp = em->hp;
    const Symbol *sym = op->dst->sym;
    const char *f = S("f%s", tv_sym_name(em, sym));
    if (em->frag_lay) {
        line(em, "#pragma unroll");
        line(em, "for (int m_ = 0; m_ < %d; ++m_) /* %s: wgmma accumulators, in their layout */", hp->mb, sym->name);
        line(em, "    #pragma unroll");
        line(em, "    for (int r_ = 0; r_ < %" PRId64 "; ++r_) %s[m_ * %" PRId64 " + r_] = %s[m_][r_];", hp->wn / 2,
             tv_sym_name(em, sym), hp->wn / 2, f);
        return;
    }
    int64_t ld = mma_acc_ld(sym->shape.dim[1]);
    line(em, "{ /* %s: wgmma accumulators -> registers */", sym->name);
    em->ind++;
    const char *cty = hopper_acc_type(hp);
    line(em, "%s *sc_ = (%s *)s_mma_;", cty, cty);
    line(em, "%s", em->bar); /* every warpgroup is done with the ring */
    line(em, "const int wg_ = t_ / 128, q_ = (t_ %% 128) / 32, l_ = t_ %% 32;");
    line(em, "%s *p_ = sc_ + (int64_t)((wg_ / %d) * %" PRId64 " + q_ * 16 + l_ / 4) * %" PRId64
             " + (wg_ %% %d) * %" PRId64 " + (l_ %% 4) * 2;",
         cty, hp->wg_n, hp->wm, ld, hp->wg_n, hp->wn);
    line(em, "#pragma unroll");
    line(em, "for (int m_ = 0; m_ < %d; ++m_)", hp->mb);
    line(em, "    #pragma unroll");
    line(em, "    for (int b_ = 0; b_ < %" PRId64 "; ++b_) {", hp->wn / 8);
    line(em, "        *(%s2 *)(p_ + m_ * %" PRId64 " + b_ * 8) = make_%s2(%s[m_][4 * b_], %s[m_][4 * b_ + 1]);", cty,
         64 * ld, cty, f, f);
    line(em, "        *(%s2 *)(p_ + m_ * %" PRId64 " + %" PRId64 " + b_ * 8) = make_%s2(%s[m_][4 * b_ + 2], %s[m_][4 * b_ + 3]);",
         cty, 64 * ld, 8 * ld, cty, f, f);
    line(em, "    }");
    mma_staged_to_registers(em, (Symbol *)sym);
    em->ind--;
    line(em, "}");
}

/* A ghost block of a cluster (its tile past the last) has no products to
 * compute, but its ring is filled in step with its partner's: its
 * consumers release each stage once it has filled, as many as the
 * partner's tile has. */
static void ghost(Emitter *em, const TirOp *loop)
{
    line(em, "if (vghost_) { /* no tile: keep pace with the partner */");
    em->ind++;
    hopper_tile_scalars(em, loop);
    hopper_loop_bounds(em, loop);
    line(em, "for (int64_t ks_ = 0; ks_ < pn_; ++ks_) {");
    em->ind++;
    line(em, "tilec_mbar_wait(&hfull_[s_], ph_);");
    line(em, "%s;", release(em, "s_"));
    ring_advance(em);
    em->ind--;
    line(em, "}");
    line(em, "continue;");
    em->ind--;
    line(em, "}");
}

/* ---- epilogue loads issued before the K loop ------------------------------ */

static bool op_assigns(const TirOp *op, const Symbol *s);

/* Whether an operation of list ops, or anything it runs, assigns symbol s. */
static bool list_assigns(const TirOp *ops, const Symbol *s)
{
    for (; ops; ops = ops->next)
        if (op_assigns(ops, s)) return true;
    return false;
}

/* Whether operation op, or anything it runs, assigns symbol s. */
static bool op_assigns(const TirOp *op, const Symbol *s)
{
    return (op->dst && op->dst->sym == s) || list_assigns(op->pre, s) || list_assigns(op->kids, s) ||
           list_assigns(op->else_kids, s) || list_assigns(op->init, s) || list_assigns(op->step, s);
}

/* Whether expression e (a load's array, index or option) reads only what
 * holds the same value before the K loop as at the load: parameters,
 * constants, built-ins and scalars that no operation from the loop to the
 * load assigns; no tile another operation materialises. */
static bool early_expr(const Emitter *em, const Expr *e, const TirOp *from, const TirOp *to, int depth)
{
    if (!e) return true;
    if (depth > 64) return false;
    if (depth > 0 && tir_materialized(em->tir, e)) return false;
    if (e->kind == EX_NAME && e->sym && e->sym->kind != SYM_PARAM) {
        if (e->shape.rank != 0) return false;
        for (const TirOp *o = from; o && o != to; o = o->next)
            if (op_assigns(o, e->sym)) return false;
    }
    if (!early_expr(em, e->a, from, to, depth + 1) || !early_expr(em, e->b, from, to, depth + 1) ||
        !early_expr(em, e->c, from, to, depth + 1))
        return false;
    for (int i = 0; i < e->nargs; i++)
        if (!early_expr(em, e->args[i], from, to, depth + 1)) return false;
    for (int i = 0; i < e->nopts; i++)
        if (!early_expr(em, e->opts[i].value, from, to, depth + 1)) return false;
    return true;
}

/* The loads after the K loop that the variant issues before it: a small
 * tile (at most 8 elements a thread: a bias row's share) of a read-only
 * array at an index the loop does not change.  Issued after the K loop,
 * such a load's global round trip stalled every consumer warp at the
 * epilogue's first barrier, once a tile; before the loop its latency hides
 * behind the products, at the cost of its registers across the loop. */
static void find_early_loads(Emitter *em, const TirOp *loop)
{
    em->nearly = 0;
    for (const TirOp *op = loop->next; op && em->nearly < 4; op = op->next) {
        const Expr *e = op->expr;
        if (op->kind != TIR_MATERIALIZE || !e || e->kind != EX_BUILTIN || e->bi != BI_LOAD || !op->dst ||
            op->dst->home != TIR_REGS || op->dst->per_thread > 8)
            continue;
        const Expr *arr = e->args[0];
        if (arr->kind != EX_NAME || !arr->sym || arr->sym->kind != SYM_PARAM || arr->sym->param->kind != PARAM_ARRAY ||
            !arr->sym->param->readonly)
            continue;
        if (early_expr(em, e, loop, op, 0)) em->early[em->nearly++] = op;
    }
}

/* The whole body of the variant after the declarations. */
void hopper_emit_body(Emitter *em)
{
    const HopperPlan *hp = em->hp;
    const TirOp *loop = top_ops(em);
    while (loop->kind != TIR_PIPELINED_FOR) loop = loop->next;
    line(em, "__shared__ __align__(8) uint64_t hfull_[%d], hempty_[%d];", hp->stages, hp->stages);
    if (hp->streamk) line(em, "__shared__ int64_t skq_[7]; /* stream-K: this block's units (streamk_setup) */");
    if (hp->cluster)
        line(em, "const unsigned nc_ = tilec_cluster_ncta(), cr_ = tilec_cluster_rank(); /* the launch's clusters (1 or 2 blocks) */");
    line(em, "const unsigned ring_ = (tilec_smem_u32(s_mma_) + 1023u) & ~1023u; /* the 128-byte swizzle's alignment */");
    line(em, "if (threadIdx.x == 0) {");
    line(em, "    #pragma unroll");
    line(em, "    for (int s_ = 0; s_ < %d; ++s_) {", hp->stages);
    line(em, "        tilec_mbar_init(&hfull_[s_], 1u);");
    line(em, "        tilec_mbar_init(&hempty_[s_], %du%s); /* a warp's arrival%s */", hp->pingpong ? 4 : hp->nwg * 4,
         hp->cluster ? " * nc_" : "", hp->cluster ? ", from each block of the cluster" : "");
    line(em, "    }");
    line(em, "    tilec_mbar_fence_init();");
    if (hp->streamk) {
        em->ind++;
        streamk_setup(em, loop);
        em->ind--;
    }
    line(em, "}");
    if (hp->cluster)
        line(em, "tilec_cluster_sync(); /* all threads of the cluster: the barriers are ready */");
    else
        line(em, "__syncthreads(); /* all %d threads: the barriers are ready */", hopper_block_threads(hp, em->T));
    if (hp->persistent && !hp->streamk) /* (stream-K's walks read skq_: streamk_setup) */
        line(em, "const int64_t nt_ = (int64_t)vg_.x * vg_.y * vg_.z; /* the tiles */");
    line(em, "if (t_ < 0) {");
    em->ind++;
    /* (stream-K's walk needs more of the producer: 56 registers, and 224
     * for the consumers, which ptxas holds to 168 anyway: the launch's
     * 384 threads) */
    if (hp->nwg == 2 || hp->pingpong || hp->blocks_per_sm == 2) line(em, "tilec_regs_dec<%d>();", hp->streamk && hp->nwg == 2 ? 56 : 40);
    producer(em, loop);
    line(em, "return;");
    em->ind--;
    line(em, "}");
    if (hp->nwg == 2 || hp->pingpong) line(em, "tilec_regs_inc<%d>();", hp->streamk && hp->nwg == 2 ? 224 : 232);
    else if (hp->blocks_per_sm == 2) line(em, "tilec_regs_inc<208>();");
    find_early_loads(em, loop);
    if (!hp->persistent) {
        body_emit_ops(em, em->tir->body);
        em->nearly = 0;
        return;
    }
    line(em, "int s_ = 0, ps_ = 0; /* the ring, as the producer walks it */");
    line(em, "unsigned ph_ = 0;");
    if (hp->streamk) {
        streamk_consumers(em, loop);
    } else {
        open_tiles(em, loop, true);
        if (hp->cluster) ghost(em, loop);
        body_emit_ops(em, em->tir->body);
        tv_close_loop(em);
    }
    em->nearly = 0;
    if (em->tma_store) /* (tma_store's stores wait for one another, not for the block's end) */
        line(em, "if (t_ == 0) tilec_bulk_wait_read(); /* the last store is done with shared memory before the block exits */");
}
