/* header.c: writes FILE.h, the C header an application includes: one launch
 * function per kernel, documented from the kernel's signature and its
 * leading comment.  The same header serves the CUDA and the host target. */
#include <ctype.h>
#include <string.h>

#include "codegen/emit.h"
#include "frontend/ast.h"

static void guard_name(FILE *o, const char *header)
{
    fputs("TILEC_GENERATED_", o);
    for (const char *c = header; *c; c++) fputc(isalnum((unsigned char)*c) ? toupper((unsigned char)*c) : '_', o);
}

bool codegen_header(Program *p, const CodegenOptions *co, FILE *o)
{
    emit_banner(o, co, "Launch API");
    if (codegen_has_arch(co, 90))
        fputs("/* --arch=sm_90: on the CUDA target, a kernel whose K loop is a plain loop of tile_load\n"
              " * and tile_mma also has a Hopper variant (TMA, wgmma, warp specialization), which is\n"
              " * compiled for sm_90a only.  Build the .cu with\n"
              " *     nvcc -gencode arch=compute_90a,code=sm_90a ...\n"
              " * (adding e.g. -gencode arch=compute_80,code=sm_80 for other GPUs, which run the\n"
              " * mma.sync kernels); -arch=sm_90 alone builds the mma.sync kernels only.  The\n"
              " * launchers choose at run time; TILEC_NO_SM90A=1 makes them take the mma.sync ones. */\n",
              o);
    if (co->narchs > 1) {
        /* one .cu for several GPUs: the flags that build it for each */
        fputs("/* --arch=", o);
        for (int i = 0; i < co->narchs; i++) fprintf(o, "%ssm_%d", i ? "," : "", co->archs[i]);
        fputs(": the .cu is correct for each of these; build it with\n *     nvcc", o);
        for (int i = 0; i < co->narchs; i++) {
            const char *a = co->archs[i] == 90 ? "a" : "";
            fprintf(o, " -gencode arch=compute_%d%s,code=sm_%d%s", co->archs[i], a, co->archs[i], a);
        }
        fputs(" ...\n */\n", o);
    }
    fputs("#ifndef ", o);
    guard_name(o, co->header_name);
    fputs("\n#define ", o);
    guard_name(o, co->header_name);
    fputs("\n#include \"tilec_rt.h\"\n\n", o);
    simt_emit_header_types(o, p);
    fputs("#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n", o);
    for (int i = 0; i < p->nfuncs; i++) {
        const Func *f = p->funcs[i];
        if (!f->is_kernel || f->internal) continue;
        fputs("/*\n", o);
        if (f->doc) {
            emit_doc_lines(o, f->doc);
            fputs(" *\n", o);
        }
        if (f->is_array_kernel)
            fprintf(o, " * Launches array kernel '%s' (%s:%d) on `stream` (a cudaStream_t; ignored by\n"
                       " * the host target): the inputs broadcast to the outputs' shape by NumPy's rules,\n"
                       " * and tilec chooses the tiles and the grid.\n",
                    f->name, emit_base_name(co->source_name), f->loc.line);
        else if (emit_has_tunable(f))
            fprintf(o, " * Launches tile kernel '%s' (%s:%d) on `stream` (a cudaStream_t; ignored by\n"
                       " * the host target), with its tuned constants and the grid chosen for the\n"
                       " * arrays' extents and the device (the tuning table compiled in with --tuning).\n",
                    f->name, emit_base_name(co->source_name), f->loc.line);
        else
            fprintf(o, " * Launches tile kernel '%s' (%s:%d) with one program instance per block of\n"
                       " * `grid`, on `stream` (a cudaStream_t; ignored by the host target).\n",
                    f->name, emit_base_name(co->source_name), f->loc.line);
        for (int j = 0; j < f->nparams; j++) {
            const Param *pa = &f->params[j];
            switch (pa->kind) {
            case PARAM_ARRAY:
                fprintf(o, " *   %s: %s%s array of rank %d%s\n", pa->name, pa->readonly ? "read-only " : "",
                        dtype_name(pa->type.dtype), pa->rank, pa->readonly ? "" : " (written)");
                break;
            case PARAM_SCALAR:
                fprintf(o, " *   %s: %s scalar%s\n", pa->name, dtype_name(pa->type.dtype),
                        strcmp(emit_scalar_api_type(pa->type.dtype), dtype_host_type(pa->type.dtype))
                            ? " (passed as float, rounded to nearest even)" : "");
                break;
            case PARAM_CONST:
                fprintf(o, pa->tunable ? " *   (%s: tuned constant, chosen by the launcher among" : " *   %s: compile-time constant, one of", pa->name);
                for (int k = 0; k < pa->nspecs && pa->tunable; k++) fprintf(o, "%s %lld", k ? "," : "", (long long)pa->specs[k]);
                if (pa->tunable) {
                    fputs(")\n", o);
                    break;
                }
                for (int k = 0; k < pa->nspecs; k++) fprintf(o, "%s %lld", k ? "," : "", (long long)pa->specs[k]);
                fputc('\n', o);
                break;
            }
        }
        fputs(" * Returns TILEC_OK, or the reason the launch was refused or failed\n"
              " * (tilec_status_string(); tilec_last_error() has the detail). */\n", o);
        emit_launch_prototype(o, co, f);
        fputs(";\n\n", o);
    }
    emit_graph_header(o, co, p);
    simt_emit_header(o, co, p);
    fputs("#ifdef __cplusplus\n}\n#endif\n#endif\n", o);
    return true;
}
