#!/bin/sh
# ensure_libclang.sh: makes sure libclang 19's headers, llvm-config-19 and
# the DLPack header are present; installs Debian's libclang-19-dev, llvm-19
# (for llvm-config) and libdlpack-dev with apt-get when they are absent.  Called by the Makefile before the first
# compile and by the README's set-up commands.
if [ -n "$LLVM_CONFIG" ] && [ -x "$(command -v "$LLVM_CONFIG")" ]; then
    inc=$("$LLVM_CONFIG" --includedir)
    [ -f "$inc/clang-c/Index.h" ] && exit 0
fi
if [ -f /usr/lib/llvm-19/include/clang-c/Index.h ] && [ -e /usr/lib/llvm-19/lib/libclang.so ] &&
   [ -f /usr/include/dlpack/dlpack.h ]; then
    exit 0
fi
echo "tilec: libclang 19 or DLPack headers not found; installing libclang-19-dev, llvm-19 and libdlpack-dev with apt-get" >&2
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO=sudo
if ! command -v apt-get >/dev/null 2>&1; then
    echo "tilec: error: apt-get is not available; install libclang 19 (headers and library) and set LLVM_CONFIG=/path/to/llvm-config" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q libclang-19-dev llvm-19 libdlpack-dev >/dev/null; }; then
    echo "tilec: error: 'apt-get install libclang-19-dev llvm-19 libdlpack-dev' failed; install libclang 19 by hand and set LLVM_CONFIG" >&2
    exit 1
fi
if [ ! -f /usr/lib/llvm-19/include/clang-c/Index.h ]; then
    echo "tilec: error: libclang-19-dev installed but /usr/lib/llvm-19/include/clang-c/Index.h is still missing" >&2
    exit 1
fi
echo "tilec: libclang-19-dev installed" >&2
