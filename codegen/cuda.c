/* cuda.c: writes FILE.cu: for each kernel and each specialization of its
 * TILE_CONST parameters, a __global__ kernel templated on ALIGNED (the
 * vectorised fast path is legal: contiguous rows, 16-byte aligned data and
 * row strides), and one extern "C" launcher that validates its arguments,
 * checks that every array is reachable from the current device, picks the
 * specialization and the variant, and launches on the caller's stream.  Its
 * only state is the device check's per-thread cache of pointers already
 * seen (tilec_ops.h), so it works on any device and stream, from any
 * thread. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "codegen/lower.h"
#include "frontend/diag.h"

static void kernel_name(FILE *o, const Func *f, int spec)
{
    fprintf(o, "tilec_k_%s_%d", f->name, spec);
}

static void kernel_params(FILE *o, const Func *f)
{
    bool first = true;
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_CONST) continue;
        fputs(first ? "" : ", ", o);
        first = false;
        if (p->kind == PARAM_ARRAY) fprintf(o, "const tilec_array p_%s", p->name);
        else fprintf(o, "const %s p_%s", emit_scalar_api_type(p->type.dtype), p->name);
    }
}

/* The mma.sync kernel's declaration line of specialization spec: T threads
 * a block, minb blocks an SM stated (0: ptxas's choice). */
static void kernel_decl(FILE *o, const Func *f, int spec, int T, int minb)
{
    if (minb) fprintf(o, "static __global__ void __launch_bounds__(%d, %d) ", T, minb);
    else fprintf(o, "static __global__ void __launch_bounds__(%d) ", T);
    kernel_name(o, f, spec);
    fputc('(', o);
    kernel_params(o, f);
    fputs(")\n", o);
}

static void launch_args(FILE *o, const Func *f)
{
    bool first = true;
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind == PARAM_CONST) continue;
        fputs(first ? "" : ", ", o);
        first = false;
        if (p->kind == PARAM_ARRAY) fprintf(o, "*%s", p->name);
        else emit_scalar_arg(o, p);
    }
}

/* Whether the body names array `ctx` other than as the base of a view or
 * in a query (tile_dim): the accesses the ALIGNED variant vectorises. */
static bool names_array(AstVisitor *v, const Expr *e)
{
    if (e->kind == EX_BUILTIN) {
        int cls = builtin_info(e->bi)->cls;
        if (cls == BCLASS_VIEW || cls == BCLASS_QUERY) return false;
    }
    if (e->kind == EX_NAME && e->name && !strcmp(e->name, (const char *)v->ctx)) v->stop = true;
    return true;
}

/* The launcher's test for the ALIGNED variant: every array's rows are
 * contiguous, and data and row strides are 16-byte aligned.  An array the
 * body reads only through views is left out: view accesses (view.c) never
 * take the ALIGNED paths, and their pipelined copies test each chunk's
 * alignment themselves; so a weight array of 4-element rows, which no
 * 16-byte vector can read, does not send the whole kernel, y's stores
 * included, to the element-by-element variant. */
static void aligned_test(FILE *o, const Func *f)
{
    fputs("    const bool aligned_ = true", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        /* (every typed specialization: sema rewrites some view loads, a
         * permutation's, as loads of the array itself) */
        bool direct = !f->nspecs || f->is_array_kernel || f->is_graph;
        for (int s = 0; !direct && s < f->nspecs; s++) {
            const Func *t = f->specs[s].typed;
            AstVisitor v = {.expr = names_array, .inlined = true, .ctx = (void *)p->name};
            if (!t || !t->body) direct = true;
            else ast_walk_stmt(&v, t->body), direct = v.stop;
        }
        if (!direct) continue;
        fprintf(o, "\n        && tilec_array_vector_ok(%s, 16)", p->name);
    }
    fputs(";\n", o);
}

/* " [BM=128, BN=256]": specialization sp of f, for remarks ("" without
 * TILE_CONST parameters). */
static const char *spec_label(const Func *f, int sp, char *buf, size_t len)
{
    char l[200];
    if (!ast_nconst(f)) return "";
    ast_spec_label(f, f->specs[sp].vals, l, sizeof l);
    snprintf(buf, len, " [%s]", l);
    return buf;
}

/* --remarks: whether specialization sp has the sm_90a variant, what it is,
 * or why not, at its K loop (a kernel without one says nothing). */
static void sm90_remark(const Func *f, int sp, const HopperPlan *hp, bool ok, int regs)
{
    char b[256];
    const char *spec = spec_label(f, sp, b, sizeof b);
    if (!ok) {
        if (hp->why && hp->at)
            diag_remark(hp->at->loc, "no Hopper variant%s: %s; sm_90 runs the mma.sync kernel", spec, hp->why);
        return;
    }
    const char *grid = hp->pingpong ? "a persistent grid, two consumer warpgroups ping-pong on tiles of their own"
                       : hp->persistent && hp->streamk ? "a persistent grid, stream-K for a nearly empty last wave"
                       : hp->persistent ? "a persistent grid"
                       : hp->blocks_per_sm == 2 ? "two blocks a multiprocessor" : "one block a tile";
    diag_remark(hp->at->loc,
                "Hopper variant%s for sm_90a builds: wgmma m64n%" PRId64 "k%d %s, %d consumer warpgroup%s of %" PRId64
                " x %" PRId64 ", %d TMA stages of %" PRId64 " bytes, %s%s, the epilogue %s%s",
                spec, hp->wn, hp->kstep, hp->ptx_type, hp->nwg, hp->nwg > 1 ? "s" : "", hp->wm, hp->wn, hp->stages,
                hp->stage_bytes, grid, hp->cluster ? " in clusters of two (TMA multicast)" : "",
                regs ? "on wgmma's registers" : "through shared memory", hp->store ? ", its store by TMA" : "");
}

/* The sm_90a variant of specialization sp of f, after the body of the
 * mma.sync kernel (which closes with the brace the caller writes): a
 * second __global__ whose body exists only in sm_90a builds (hopper.c), the
 * tensor maps of its operands as __grid_constant__ parameters.  False when
 * the kernel does not have the variant's shape. */
static bool sm90_variant(FILE *o, Program *p, Func *f, Func *k, const CodegenOptions *co, int sp, HopperPlan *hp,
                         int *threads, int *dyn, const char **written, int *nwritten)
{
    if (!codegen_has_arch(co, 90)) return false;
    char *buf = NULL;
    size_t len = 0;
    KernelPlan plan;
    bool ok = false;
    int regs = 1;
    /* the epilogue on wgmma's registers where it can, else through shared memory */
    for (; regs >= 0 && !ok; regs--) {
        free(buf);
        buf = NULL;
        FILE *m = open_memstream(&buf, &len);
        if (!m) return false;
        ok = body_lower_sm90(m, p, k, co, &plan, hp, regs);
        fclose(m);
    }
    if (p->remarks) sm90_remark(f, sp, hp, ok, regs + 1);
    if (!ok) {
        free(buf);
        return false;
    }
    fputs("}\n\n", o); /* the mma.sync kernel's */
    const char *w = hopper_wgmma_name(hp);
    bool seen = false;
    for (int i = 0; i < *nwritten; i++) seen |= !strcmp(written[i], w);
    if (!seen && *nwritten < 64) {
        written[(*nwritten)++] = w;
        hopper_write_wgmma(o, hp);
    }
    fprintf(o, "/* The Hopper variant (sm_90a builds): TMA, wgmma, warp specialization. */\n");
    fprintf(o, "template <bool ALIGNED>\nstatic __global__ void __launch_bounds__(%d, %d) ", plan.threads, hp->blocks_per_sm);
    kernel_name(o, f, sp);
    fputs("_sm90(", o);
    kernel_params(o, f);
    fputs(", const __grid_constant__ CUtensorMap tma_a_, const __grid_constant__ CUtensorMap tma_b_", o);
    if (hp->store) fputs(", const __grid_constant__ CUtensorMap tma_c_", o);
    if (hp->persistent) fputs(", const dim3 vg_", o); /* the tiles: the grid the launcher was given */
    if (hp->streamk) fputs(", const long long sk_, void *const skw_", o); /* stream-K: tiles shared out, workspace */
    fputs(")\n{\n#if TILEC_SM90A\n", o);
    fwrite(buf, 1, len, o);
    fputs("#endif\n", o);
    free(buf);
    *threads = plan.threads;
    *dyn = plan.dyn_smem_bytes;
    return true;
}

/* The launcher's branch to the Hopper variant: on a device that runs its
 * sm_90a body (probed once per device), with arrays TMA can read, unless
 * TILEC_NO_SM90A is set; done_ says it launched. */
static void sm90_launch(FILE *o, Arena *ar, const Func *f, int sp, const HopperPlan *hp, int threads, int dyn)
{
    Dtype od = hp->pl->dtype;
    const char *dt = od == DT_BFLOAT16 ? "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16" : od == DT_FLOAT16 ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT16"
                     : od == DT_TFLOAT32 ? "CU_TENSOR_MAP_DATA_TYPE_FLOAT32" /* (wgmma reads tf32's bits of them) */
                                         : "CU_TENSOR_MAP_DATA_TYPE_UINT8"; /* float8, int8: bytes */
    const char *swa = hp->swz_a == 128 ? "128B" : hp->swz_a == 64 ? "64B" : "32B";
    char kn[160]; /* the variant, instantiated */
    snprintf(kn, sizeof kn, "tilec_k_%s_%d_sm90<true>", f->name, sp);
    /* ALIGNED holds for the arrays the body reads or writes itself; those
     * only TMA reads need what TMA needs (tilec_tma_ok) */
    fputs("        bool done_ = false;\n        const bool aligned90_ = true", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        if ((hp->tma_only[0] && !strcmp(p->name, hp->arr[0])) || (hp->tma_only[1] && !strcmp(p->name, hp->arr[1])))
            continue;
        fprintf(o, " && tilec_array_vector_ok(%s, 16)", p->name);
    }
    fputs(";\n", o);
    fputs("        static signed char sm90_[64]; /* per device: 0 not probed yet, 1 no, 2 yes */\n", o);
    /* B: float8, tf32 and int8 read a column-major array as K x N boxes of
     * its transpose (K-major); 16-bit types read 64-column chunks of K rows
     * (N-major) */
    const char *bt = hp->kmajor_b ? "true" : "false";
    int64_t b0 = hp->kmajor_b ? hp->pl->K : 64, b1 = hp->kmajor_b ? hp->pl->N : hp->pl->K;
    const char *swb = hp->kmajor_b ? swa : "128B";
    fputs("        if (aligned90_ && !tilec_sm90a_disabled() && dev_ >= 0 && dev_ < 64", o);
    for (int i = 0; i < 2; i++) { /* (operands read through views: hopper_view.c) */
        fputs(" && ", o);
        if (hp->vbox[i].v) hview_launch_test(o, ar, hp, i);
        else fprintf(o, "tilec_tma_ok(%s, %s)", hp->arr[i], i ? bt : "false");
    }
    int sr = hp->store ? hp->store_tile.rank : 2; /* (a store of higher rank: a box of its leading axes too) */
    if (hp->store && sr > 2) fprintf(o, " && tilec_tma_view_ok(%s, %d)) {\n", hp->store->name, sr);
    else fprintf(o, "%s%s%s) {\n", hp->store ? " && tilec_tma_ok(" : "", hp->store ? hp->store->name : "",
                 hp->store ? ", false)" : "");
    fprintf(o, "            if (!sm90_[dev_]) sm90_[dev_] = tilec_sm90a_probe((const void *)%s, dev_) ? 2 : 1;\n", kn);
    fputs("            if (sm90_[dev_] == 2) {\n", o);
    fputs("                CUtensorMap ta_, tb_;\n", o);
    if (hp->vbox[0].v)
        hview_launch_map(o, hp, 0, "ta_", dt, swa);
    else
        fprintf(o, "                if ((st_ = tilec_tma_map_2d(&ta_, %s, false, %s, %" PRId64 ", %" PRId64 ", CU_TENSOR_MAP_SWIZZLE_%s)) != TILEC_OK) return st_;\n",
                hp->arr[0], dt, hp->pl->K, hp->pl->M, swa);
    if (hp->vbox[1].v)
        hview_launch_map(o, hp, 1, "tb_", dt, swb);
    else
        fprintf(o, "                if ((st_ = tilec_tma_map_2d(&tb_, %s, %s, %s, %" PRId64 ", %" PRId64 ", CU_TENSOR_MAP_SWIZZLE_%s)) != TILEC_OK) return st_;\n",
                hp->arr[1], bt, dt, b0, b1, swb);
    /* the epilogue's TMA stores: boxes of 128 bytes by M rows (hopper_tma_store) */
    if (hp->store) {
        int bits = dtype_bits(hp->store->type.dtype);
        fputs("                CUtensorMap tc_;\n", o);
        if (sr > 2) {
            fprintf(o, "                {\n                    const unsigned bx_[%d] = {%du", sr, 1024 / bits);
            for (int k = sr - 2; k >= 0; k--) fprintf(o, ", %" PRId64 "u", hp->store_tile.dim[k]);
            fprintf(o, "}, es_[%d] = {1u", sr);
            for (int k = 1; k < sr; k++) fputs(", 1u", o);
            fprintf(o, "};\n                    if ((st_ = tilec_tma_map_view(&tc_, %s, CU_TENSOR_MAP_DATA_TYPE_UINT%d, %d, bx_, es_, CU_TENSOR_MAP_SWIZZLE_128B)) != TILEC_OK) return st_;\n"
                       "                }\n", hp->store->name, bits, sr);
        } else {
            fprintf(o, "                if ((st_ = tilec_tma_map_2d(&tc_, %s, false, CU_TENSOR_MAP_DATA_TYPE_UINT%d, %d, %" PRId64 ", CU_TENSOR_MAP_SWIZZLE_128B)) != TILEC_OK) return st_;\n",
                    hp->store->name, bits, 1024 / bits, hp->pl->M);
        }
    }
    fprintf(o, "                if ((st_ = tilec_smem_opt_in((const void *)%s, %d)) != TILEC_OK) return st_;\n", kn, dyn);
    if (hp->persistent) { /* one block per SM, at most one per tile */
        fputs("                const long long nt_ = (long long)g_.x * g_.y * g_.z, nsm_ = tilec_persistent_blocks(dev_);\n", o);
        fputs("                const dim3 pg_((unsigned)(nt_ < nsm_ ? nt_ : nsm_));\n", o);
    }
    if (hp->streamk) { /* the last wave's K steps shared out, where that pays (tilec_streamk_tiles) */
        fputs("                long long sk_ = tilec_streamk_tiles(nt_, (long long)pg_.x);\n", o);
        fprintf(o, "                void *const skw_ = sk_ ? tilec_streamk_workspace(dev_, s_, (size_t)TILEC_SK_SLOTS * 4 + "
                   "(size_t)sk_ * %" PRId64 "u) : NULL;\n", hp->pl->M * hp->pl->N * 4);
        fputs("                if (!skw_) sk_ = 0;\n", o);
    }
    const char *tail = hp->store ? (hp->persistent ? ", ta_, tb_, tc_, g_" : ", ta_, tb_, tc_")
                                 : (hp->persistent ? ", ta_, tb_, g_" : ", ta_, tb_");
    char tl[64];
    if (hp->streamk) {
        snprintf(tl, sizeof tl, "%s, sk_, skw_", tail);
        tail = tl;
    }
    const char *in = "                ";
    if (hp->cluster) { /* clusters of two sharing loads (TMA multicast) where the device runs them */
        fputs("                static int ncl_[64]; /* per device: clusters of two at once; 0 not asked, -1 none */\n", o);
        fprintf(o, "                const long long cb_ = tilec_cluster_blocks((const void *)%s, dev_, %d, %d, nt_, ncl_);\n", kn,
                threads, dyn);
        fputs("                bool cl_ = false;\n                if (cb_ > 0) {\n", o);
        fputs("                    cudaLaunchConfig_t cfg_;\n                    cudaLaunchAttribute ca_;\n", o);
        fprintf(o, "                    tilec_cluster_config(&cfg_, &ca_, cb_, %d, %d, s_);\n", threads, dyn);
        fprintf(o, "                    cl_ = cudaLaunchKernelEx(&cfg_, %s, ", kn);
        launch_args(o, f);
        fprintf(o, "%s) == cudaSuccess;\n", tail);
        fputs("                    if (!cl_) (void)cudaGetLastError(); /* (the blocks alone, below) */\n                }\n", o);
        fputs("                if (!cl_)\n", o);
        in = "                    ";
    }
    fprintf(o, "%s%s<<<%s, %d, %d, s_>>>(", in, kn, hp->persistent ? "pg_" : "g_", threads, dyn);
    launch_args(o, f);
    fprintf(o, "%s);\n", tail);
    fputs("                done_ = true;\n            }\n        }\n", o);
}

/* The flash variant of specialization sp of f (flash.c), after the body of
 * the kernel before it (which closes with the brace the caller writes):
 * the same kernel with BM / 16 warps, its attention loop on registers
 * (tilec_flash.h).  False when the kernel has no such loop. */
static bool flash_variant(FILE *o, Program *p, Func *f, Func *k, const CodegenOptions *co, int sp, FlashLoop *fl,
                          int *threads, int *dyn)
{
    if (co->opt_level == 0 || !flash_find(k, fl)) return false;
    char *buf = NULL;
    size_t len = 0;
    KernelPlan plan;
    FILE *m = open_memstream(&buf, &len);
    if (!m) return false;
    bool ok = body_lower_flash(m, p, k, co, &plan, fl);
    fclose(m);
    if (!ok) {
        free(buf);
        return false;
    }
    if (p->remarks) {
        char b[256];
        diag_remark(fl->loop->loc,
                    "flash variant%s: the attention loop as tilec_flash_fwd, %d warps of %d rows, key blocks of %" PRId64
                    " in %d stages, the products on %s",
                    spec_label(f, sp, b, sizeof b), fl->warps, 16 * fl->mt, fl->BN, fl->stages,
                    flash_may_wgmma(fl) ? "wgmma in sm_90a builds (mma.sync on sm_80)" : "mma.sync");
    }
    fputs("}\n\n", o);
    fprintf(o, "/* The flash variant: the attention loop on tensor-core registers (tilec_flash.h). */\n");
    fprintf(o, "template <bool ALIGNED>\nstatic __global__ void __launch_bounds__(%d) ", plan.threads);
    kernel_name(o, f, sp);
    fputs("_flash(", o);
    kernel_params(o, f);
    fputs(")\n{\n", o);
    fwrite(buf, 1, len, o);
    free(buf);
    *threads = plan.threads;
    *dyn = plan.dyn_smem_bytes;
    return true;
}

/* The launcher's branch to the flash variant: aligned arrays whose d axes
 * hold the tile, on a device that runs the variant's sm_80 body (probed
 * once per device), unless TILEC_NO_FLASH is set; done_ says it launched. */
static void flash_launch(FILE *o, Arena *ar, const Func *f, int sp, const FlashLoop *fl, int threads, int dyn)
{
    char kn[160];
    snprintf(kn, sizeof kn, "tilec_k_%s_%d_flash<true>", f->name, sp);
    fputs("        static signed char flash_[64]; /* per device: 0 not probed yet, 1 no, 2 yes */\n", o);
    fprintf(o, "        if (!done_ && aligned_ && !tilec_flash_disabled() && dev_ >= 0 && dev_ < 64 && %s) {\n",
            flash_launch_test(ar, fl));
    fprintf(o, "            if (!flash_[dev_]) flash_[dev_] = tilec_flash_probe((const void *)%s) ? 2 : 1;\n", kn);
    fputs("            if (flash_[dev_] == 2) {\n", o);
    fprintf(o, "                if ((st_ = tilec_smem_opt_in((const void *)%s, %d)) != TILEC_OK) return st_;\n", kn, dyn);
    fprintf(o, "                %s<<<g_, %d, %d, s_>>>(", kn, threads, dyn);
    launch_args(o, f);
    fputs(");\n                done_ = true;\n            }\n        }\n", o);
}

bool codegen_cuda(Program *p, const CodegenOptions *co, FILE *o)
{
    emit_banner(o, co, "CUDA C++");
    fprintf(o, "#include <cuda_runtime.h>\n#include \"tilec_rt.h\"\n#include \"tilec_ops.h\"\n%s%s#include \"%s\"\n\n",
            codegen_has_arch(co, 90) ? "#include \"tilec_sm90.h\"\n" : "",
            codegen_has_flash(p, co) ? "#include \"tilec_flash.h\"\n" : "", co->header_name);
    /* Values and buffers that only one target's branch of `if
     * (tile_target(...))` uses are declared for every architecture (the
     * declarations come from the whole body): not a warning worth failing
     * a -Werror all-warnings build for. */
    if (codegen_has_target_if(p)) fputs("#pragma nv_diag_suppress 177 /* declared but never referenced */\n\n", o);
    const char *wgmma_written[64];
    int nwgmma = 0;
    if (!co->tune_explicit) emit_tune_helpers(o, co, p, true);
    emit_extern_decls(o, p, true);
    dbg_emit_assert_support(o, co, p, true);
    bool ok = true;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel) continue;
        int nconst = ast_nconst(f);
        int nspec = f->nspecs;
        int threads[256], dyn[256], stat[256];
        HopperPlan hps[256];
        bool hv[256], fv[256];
        FlashLoop fls[256];
        int fthreads[256], fdyn[256];
        int hthreads[256], hdyn[256];
        char *grids[256];
        for (int sp = 0; sp < nspec; sp++) {
            Func *k = f->specs[sp].typed;
            grids[sp] = NULL;
            if (!codegen_check_archs(k, co)) return false;
            if (emit_has_tunable(f) && !grid_c_initializer(k, &grids[sp])) return false;
            fputs("template <bool ALIGNED>\n", o);
            KernelPlan plan = emit_plan(k, true, co->max_threads);
            /* --min-blocks: the register cap that lets N blocks share a
             * multiprocessor, for memory-bound kernels that need more rows
             * in flight than the compiler's register choice allows. */
            /* static: each .cu keeps its kernels to itself, so two files
             * with a kernel of the same name link (--symbol-prefix names
             * their launchers apart). */
            /* A K loop whose view operands are boxes under a run-time
             * condition (pipeline.c) says one block an SM outright: ptxas
             * (CUDA 13) otherwise held those kernels, whose fallback paths
             * make them long, to 80 or 128 registers and spilled 12-60
             * bytes (conv2d); stated, it gives them what they need.  (Not
             * for every view pipeline: conv1d's would then take more
             * registers than two blocks an SM allow, and run slower.) */
            int minb = co->min_blocks ? co->min_blocks : co->opt_level > 0 && pipeline_has_views(k->body, true) ? 1 : 0;
            /* Other view pipelines: the same for the architectures before
             * sm_90, where ptxas held conv1d's BK = 64 kernel to 128
             * registers and spilled; sm_90 builds keep ptxas's choice
             * (119 registers, two blocks a multiprocessor, where one block
             * stated gave 143 and one block).  The attribute differs per
             * device pass, as __CUDA_ARCH__ does. */
            bool pre90 = !minb && co->opt_level > 0 && pipeline_has_views(k->body, false);
            if (pre90) {
                fputs("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900\n", o);
                kernel_decl(o, f, sp, plan.threads, 1);
                fputs("#else\n", o);
            }
            kernel_decl(o, f, sp, plan.threads, minb);
            fputs(pre90 ? "#endif\n{\n" : "{\n", o);
            hv[sp] = fv[sp] = false;
            if (!emit_kernel_body(o, p, k, true, co, &plan)) {
                ok = false;
            } else {
                fv[sp] = flash_variant(o, p, f, k, co, sp, &fls[sp], &fthreads[sp], &fdyn[sp]);
                hv[sp] = sm90_variant(o, p, f, k, co, sp, &hps[sp], &hthreads[sp], &hdyn[sp], wgmma_written, &nwgmma);
            }
            fputs("}\n\n", o);
            threads[sp] = plan.threads;
            dyn[sp] = plan.dyn_smem_bytes;
            stat[sp] = plan.smem_bytes;
        }
        /* launcher */
        if (!f->internal) fputs("extern \"C\" ", o);
        emit_launch_prototype(o, co, f);
        fputs("\n{\n", o);
        emit_launch_checks(o, co, f, grids);
        for (int s = 0; s < nspec; s++) free(grids[s]);
        /* Memory the current device cannot reach (a host pointer) is a
         * status naming the argument, not a fault at the next sync; after
         * the empty-grid return: nothing is accessed without a launch. */
        bool first_array = true;
        for (int i = 0; i < f->nparams; i++) {
            const Param *p = &f->params[i];
            if (p->kind != PARAM_ARRAY) continue;
            if (first_array) fputs("    int dev_ = -1; /* the current device, queried once */\n", o);
            first_array = false;
            fprintf(o, "    if ((st_ = tilec_check_device(%s, \"%s\", &dev_)) != TILEC_OK) return st_;\n", p->name,
                    p->name);
        }
        aligned_test(o, f);
        fputs("    const dim3 g_(grid.x, grid.y, grid.z);\n", o);
        fputs("    cudaStream_t s_ = (cudaStream_t)stream;\n", o);
        for (int s = 0; s < nspec; s++) {
            if (nconst) fprintf(o, "    %sif (spec_ == %d) {\n", s ? "else " : "", s);
            else fputs("    {\n", o);
            /* Above 48 KB a block's shared memory is opt-in, per kernel; set
             * at every launch, which keeps the launcher free of state (and
             * right on every device). */
            bool opt_in = stat[s] + dyn[s] > 48 * 1024;
            if (hv[s]) sm90_launch(o, p->arena, f, s, &hps[s], hthreads[s], hdyn[s]);
            else if (fv[s]) fputs("        bool done_ = false;\n", o);
            if (fv[s]) flash_launch(o, p->arena, f, s, &fls[s], fthreads[s], fdyn[s]);
            for (int v = 0; v < 2; v++) {
                const char *al = v ? "false" : "true";
                fputs(v ? "        } else {\n" : hv[s] || fv[s] ? "        if (done_) {\n        } else if (aligned_) {\n" : "        if (aligned_) {\n", o);
                if (opt_in) {
                    fputs("            if ((st_ = tilec_smem_opt_in((const void *)", o);
                    kernel_name(o, f, s);
                    fprintf(o, "<%s>, %d)) != TILEC_OK) return st_;\n", al, dyn[s]);
                }
                fputs("            ", o);
                kernel_name(o, f, s);
                fprintf(o, "<%s><<<g_, %d, %d, s_>>>(", al, threads[s], dyn[s]);
                launch_args(o, f);
                fputs(");\n", o);
            }
            fputs("        }\n    }\n", o);
        }
        fputs("    cudaError_t e_ = cudaGetLastError();\n", o);
        fputs("    if (e_ != cudaSuccess) return tilec_fail(TILEC_ERR_CUDA, \"%s: %s\", cudaGetErrorName(e_), cudaGetErrorString(e_));\n", o);
        /* tile_assert: the launch is waited for, so that its failure is
         * this call's status */
        fputs(dbg_has_assert(p, f) ? "    return tilec_assert_check_(s_);\n}\n\n" : "    return TILEC_OK;\n}\n\n", o);
    }
    emit_graph_launchers(o, co, p, true);
    simt_emit_cuda(o, co, p);
    return ok;
}
