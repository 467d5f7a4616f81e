/* output.c: atomic, change-only file replacement (see output.h). */
#include "cmd/output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary file being written, for the signal handler to remove.  One
 * at a time: outputs are committed one after the other. */
static char g_tmp[4096];
static volatile sig_atomic_t g_tmp_live;

static void on_signal(int sig)
{
    if (g_tmp_live) unlink(g_tmp);
    signal(sig, SIG_DFL);
    raise(sig);
}

void output_install_signal_handlers(void)
{
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    signal(SIGHUP, on_signal);
}

static bool same_content(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    bool same = true;
    char buf[65536];
    size_t off = 0, n;
    while (same && (n = fread(buf, 1, sizeof buf, f)) > 0) {
        if (off + n > len || memcmp(buf, data + off, n) != 0) same = false;
        off += n;
    }
    fclose(f);
    return same && off == len;
}

bool output_commit(const char *path, const char *data, size_t len)
{
    if (same_content(path, data, len)) return true;
    int n = snprintf(g_tmp, sizeof g_tmp, "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof g_tmp) {
        fprintf(stderr, "tilec: error: output path too long: %s\n", path);
        return false;
    }
    FILE *f = fopen(g_tmp, "wb");
    if (!f) {
        fprintf(stderr, "tilec: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    g_tmp_live = 1;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (ok) {
        /* Keep the usual permissions (umask), as a compiler's outputs have. */
        mode_t um = umask(0);
        umask(um);
        chmod(g_tmp, 0666 & ~um);
        ok = rename(g_tmp, path) == 0;
    }
    if (!ok) {
        int e = errno;
        unlink(g_tmp);
        fprintf(stderr, "tilec: error: cannot write '%s': %s\n", path, strerror(e));
    }
    g_tmp_live = 0;
    return ok;
}
