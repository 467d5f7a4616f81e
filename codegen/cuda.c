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

#include "codegen/emit.h"
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

/* The launcher's test for the ALIGNED variant: every array's rows are
 * contiguous, and data and row strides are 16-byte aligned. */
static void aligned_test(FILE *o, const Func *f)
{
    fputs("    const bool aligned_ = true", o);
    for (int i = 0; i < f->nparams; i++) {
        const Param *p = &f->params[i];
        if (p->kind != PARAM_ARRAY) continue;
        fprintf(o, "\n        && tilec_array_vector_ok(%s, 16)", p->name);
    }
    fputs(";\n", o);
}

bool codegen_cuda(Program *p, const CodegenOptions *co, FILE *o)
{
    emit_banner(o, co, "CUDA C++");
    fprintf(o, "#include <cuda_runtime.h>\n#include \"tilec_rt.h\"\n#include \"tilec_ops.h\"\n#include \"%s\"\n\n",
            co->header_name);
    if (!co->tune_explicit) emit_tune_helpers(o, co, p, true);
    bool ok = true;
    for (int fi = 0; fi < p->nfuncs; fi++) {
        Func *f = p->funcs[fi];
        if (!f->is_kernel) continue;
        int nconst = ast_nconst(f);
        int nspec = f->nspecs;
        int threads[256], dyn[256], stat[256];
        char *grids[256];
        for (int sp = 0; sp < nspec; sp++) {
            Func *k = f->specs[sp].typed;
            grids[sp] = NULL;
            if (emit_has_tunable(f) && !grid_c_initializer(k, &grids[sp])) return false;
            fputs("template <bool ALIGNED>\n", o);
            KernelPlan plan = emit_plan(k, true, co->max_threads);
            /* --min-blocks: the register cap that lets N blocks share a
             * multiprocessor, for memory-bound kernels that need more rows
             * in flight than the compiler's register choice allows. */
            /* static: each .cu keeps its kernels to itself, so two files
             * with a kernel of the same name link (--symbol-prefix names
             * their launchers apart). */
            if (co->min_blocks) fprintf(o, "static __global__ void __launch_bounds__(%d, %d) ", plan.threads, co->min_blocks);
            else fprintf(o, "static __global__ void __launch_bounds__(%d) ", plan.threads);
            kernel_name(o, f, sp);
            fputc('(', o);
            kernel_params(o, f);
            fputs(")\n{\n", o);
            if (!emit_kernel_body(o, p, k, true, co, &plan)) ok = false;
            fputs("}\n\n", o);
            threads[sp] = plan.threads;
            dyn[sp] = plan.dyn_smem_bytes;
            stat[sp] = plan.smem_bytes;
        }
        /* launcher */
        fputs("extern \"C\" ", o);
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
            for (int v = 0; v < 2; v++) {
                const char *al = v ? "false" : "true";
                fputs(v ? "        } else {\n" : "        if (aligned_) {\n", o);
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
        fputs("    return TILEC_OK;\n}\n\n", o);
    }
    return ok;
}
