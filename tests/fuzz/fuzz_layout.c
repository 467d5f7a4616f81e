/* fuzz_layout.c: libFuzzer entry point over the layout algebra: arbitrary
 * bytes as `tilec layout --batch` input lines (parser and every operation). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cmd/layout_cli.h"
#include "sema/layout.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static FILE *devnull;
    if (!devnull) devnull = fopen("/dev/null", "w");
    if (size == 0) return 0;
    FILE *in = fmemopen((void *)data, size, "r");
    if (!in) return 0;
    layout_cli_batch(in, devnull);
    fclose(in);
    return 0;
}
