/* fuzz_frontend.c: libFuzzer entry point over the whole compiler: arbitrary
 * bytes as a kernel source go through libclang, the frontend, sema and both
 * code generators.  Any crash, hang, sanitizer report or leak is a bug;
 * diagnostics are expected and discarded.  Built by `make fuzz` (clang,
 * -fsanitize=fuzzer) and replayed over tests/fuzz/corpus/ by `make check`
 * (tests/fuzz/replay.c). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "codegen/codegen.h"
#include "frontend/diag.h"
#include "frontend/frontend.h"
#include "sema/sema.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    char path[] = "/tmp/tilec-fuzz-XXXXXX";
    int fd = mkstemp(path); /* parsed with -xc, so no extension is needed */
    if (fd < 0) return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        unlink(path);
        return 0;
    }
    close(fd);
    DiagOptions dopts = {.color = DIAG_COLOR_NEVER, .out = devnull};
    diag_init(&dopts);
    const char *inc = getenv("TILEC_INCLUDE");
    FrontendOptions fo = {.tilec_include_dir = inc ? inc : "runtime"};
    Program *p = frontend_parse(path, &fo);
    if (p && sema_program(p)) {
        CodegenOptions co = {.source_name = "fuzz.tile.c", .header_name = "fuzz.h", .arch = 90, .opt_level = 2,
                             .line_directives = true};
        char *buf = NULL;
        size_t len = 0;
        FILE *m = open_memstream(&buf, &len);
        if (m) {
            codegen_cuda(p, &co, m);
            codegen_host(p, &co, m);
            codegen_header(p, &co, m);
            fclose(m);
        }
        free(buf);
    }
    program_free(p);
    diag_forget_files();
    unlink(path);
    return 0;
}
