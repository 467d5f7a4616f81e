/* output.c: atomic file replacement; unchanged outputs touched or kept;
 * special files (devices, FIFOs) written in place (see output.h). */
#include "cmd/output.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* The temporary files being written, for the signal handler to remove. */
#define MAX_TMP 8
static char g_tmp[MAX_TMP][4096];
static volatile sig_atomic_t g_tmp_live[MAX_TMP];
static bool g_write_if_changed;

void output_set_write_if_changed(bool write_if_changed)
{
    g_write_if_changed = write_if_changed;
}

static void on_signal(int sig)
{
    for (int i = 0; i < MAX_TMP; i++)
        if (g_tmp_live[i]) unlink(g_tmp[i]);
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

/* Writes data to the temporary of slot k beside path. */
static bool write_temp(int k, const char *path, const char *data, size_t len)
{
    int n = snprintf(g_tmp[k], sizeof g_tmp[k], "%s.tmp.%ld", path, (long)getpid());
    if (n < 0 || (size_t)n >= sizeof g_tmp[k]) {
        fprintf(stderr, "tilec: error: output path too long: %s\n", path);
        return false;
    }
    FILE *f = fopen(g_tmp[k], "wb");
    if (!f) {
        fprintf(stderr, "tilec: error: cannot write '%s': %s\n", path, strerror(errno));
        return false;
    }
    g_tmp_live[k] = 1;
    bool ok = fwrite(data, 1, len, f) == len;
    ok = (fflush(f) == 0) && ok;
    ok = (fclose(f) == 0) && ok;
    if (ok) {
        /* The usual permissions (umask), as a compiler's outputs have. */
        mode_t um = umask(0);
        umask(um);
        chmod(g_tmp[k], 0666 & ~um);
    } else {
        fprintf(stderr, "tilec: error: cannot write '%s': %s\n", path, strerror(errno));
    }
    return ok;
}

static void drop_temps(void)
{
    for (int k = 0; k < MAX_TMP; k++)
        if (g_tmp_live[k]) {
            unlink(g_tmp[k]);
            g_tmp_live[k] = 0;
        }
}

bool output_is_special(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode);
}

/* Writes data straight into the special file path (a device such as
 * /dev/null, a FIFO): renaming a temporary over it would replace the
 * device node with a regular file (or fail where its directory is not
 * writable), and reading it first to compare could block on a FIFO. */
static bool write_special(const char *path, const char *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(data, 1, len, f) == len;
    if (f) ok = (fclose(f) == 0) && ok;
    if (!ok) fprintf(stderr, "tilec: error: cannot write '%s': %s\n", path, strerror(errno));
    return ok;
}

bool output_commit_all(const OutputFile *files, int n)
{
    if (n > MAX_TMP) return false;
    bool changed[MAX_TMP] = {0}, special[MAX_TMP] = {0};
    for (int i = 0; i < n; i++) {
        special[i] = output_is_special(files[i].path);
        if (special[i]) continue; /* written after every temporary is */
        changed[i] = !same_content(files[i].path, files[i].data, files[i].len);
        if (changed[i] && !write_temp(i, files[i].path, files[i].data, files[i].len)) {
            drop_temps();
            return false;
        }
    }
    for (int i = 0; i < n; i++) {
        if (special[i]) {
            if (!write_special(files[i].path, files[i].data, files[i].len)) {
                drop_temps();
                return false;
            }
            continue;
        }
        if (!changed[i]) {
            /* Same bytes: renew the time so make sees the rule done. */
            if (!g_write_if_changed && utimensat(AT_FDCWD, files[i].path, NULL, 0) != 0) {
                fprintf(stderr, "tilec: error: cannot update the time of '%s': %s\n", files[i].path, strerror(errno));
                drop_temps();
                return false;
            }
            continue;
        }
        if (rename(g_tmp[i], files[i].path) != 0) {
            fprintf(stderr, "tilec: error: cannot write '%s': %s\n", files[i].path, strerror(errno));
            drop_temps();
            return false;
        }
        g_tmp_live[i] = 0;
    }
    return true;
}

bool output_commit(const char *path, const char *data, size_t len)
{
    OutputFile f = {path, data, len};
    return output_commit_all(&f, 1);
}
