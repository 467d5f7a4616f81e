#!/bin/sh
# ensure_tools.sh: makes sure the build tools that the project tests drive
# are present (ccache, ninja; cmake and pkg-config are checked too) and
# installs the missing ones with apt-get.  Exits 1 with a message naming what
# is missing when apt-get is not available or fails; the caller reports that
# as a test failure.  Usage: sh tests/ensure_tools.sh [TOOL...]
tools=${*:-ccache ninja cmake pkg-config}
missing=
for t in $tools; do
    command -v "$t" > /dev/null 2>&1 || missing="$missing $t"
done
[ -z "$missing" ] && exit 0
pkgs=
for t in $missing; do
    case $t in
        ninja) pkgs="$pkgs ninja-build" ;;
        pkg-config) pkgs="$pkgs pkgconf" ;;
        *) pkgs="$pkgs $t" ;;
    esac
done
echo "tilec: missing:$missing; installing$pkgs with apt-get" >&2
if ! command -v apt-get > /dev/null 2>&1; then
    echo "tilec: error: apt-get is not available; install$pkgs by hand" >&2
    exit 1
fi
SUDO=
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086
if ! { $SUDO apt-get install -y -q --no-install-recommends $pkgs > /dev/null 2>&1 ||
       { $SUDO apt-get update -q > /dev/null 2>&1 && $SUDO apt-get install -y -q --no-install-recommends $pkgs > /dev/null 2>&1; }; }; then
    echo "tilec: error: 'apt-get install$pkgs' failed; install them by hand" >&2
    exit 1
fi
for t in $missing; do
    if ! command -v "$t" > /dev/null 2>&1; then
        echo "tilec: error: $t is still missing after apt-get install" >&2
        exit 1
    fi
done
echo "tilec: installed$pkgs" >&2
