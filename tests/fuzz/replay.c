/* replay.c: runs a fuzz target's LLVMFuzzerTestOneInput over files named on
 * the command line, the way `make check` keeps the fuzz corpus and every
 * crash found as regression inputs without needing libFuzzer.  Prints
 * "NAME: N passed, 0 failed"; a crash or sanitizer report aborts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv)
{
    int n = 0;
    for (int i = 2; i < argc; i++) {
        FILE *f = fopen(argv[i], "rb");
        if (!f) {
            fprintf(stderr, "cannot read %s\n", argv[i]);
            return 1;
        }
        size_t cap = 1 << 16, len = 0, r;
        uint8_t *buf = malloc(cap);
        while (buf && (r = fread(buf + len, 1, cap - len, f)) > 0) {
            len += r;
            if (len == cap) buf = realloc(buf, cap *= 2);
        }
        fclose(f);
        if (!buf) return 1;
        LLVMFuzzerTestOneInput(buf, len);
        free(buf);
        n++;
    }
    printf("%s: %d passed, 0 failed\n", argc > 1 ? argv[1] : "replay", n);
    return 0;
}
