#!/bin/sh
# tests/gpu/sass_check.sh FILE.cu...: the SASS evidence for the Hopper
# variants (issue #20).  Compiles each generated .cu for sm_90a with ptxas's
# report, then, for every kernel whose name ends in _sm90 (the variants
# hopper.c writes), prints the number of HGMMA (wgmma) instructions and of
# local-memory spill bytes.  Fails when a variant has no HGMMA or spills.
# Needs nvcc and cuobjdump (the CUDA toolkit's bin); runs on the GPU machine
# from tests/gpu/run.sh device --bench, or anywhere with a full toolkit.
set -u
bin=$(dirname "$(command -v nvcc)")
tmp=${TMPDIR:-/tmp}/tilec-sass.$$
mkdir -p "$tmp"
bad=0
for cu in "$@"; do
    name=$(basename "$cu" .cu)
    if ! nvcc -std=c++17 -O3 -gencode arch=compute_90a,code=sm_90a -I"$(dirname "$cu")" -Iruntime \
            -Xptxas -v -c -o "$tmp/$name.o" "$cu" > "$tmp/$name.ptxas" 2>&1; then
        echo "FAIL sass $name: nvcc"; tail -n 5 "$tmp/$name.ptxas"; bad=$((bad + 1)); continue
    fi
    # ptxas: "Compiling entry function 'F'" then "N bytes spill stores, M bytes spill loads"
    awk '/Compiling entry function/ { f = $0; sub(/.*function .\047?/, "", f); sub(/\047.*/, "", f) }
         /spill stores/ && f != "" { print f, $5 + $9; f = "" }' "$tmp/$name.ptxas" > "$tmp/$name.spills"
    "$bin/cuobjdump" -sass "$tmp/$name.o" > "$tmp/$name.sass" 2>&1 || { echo "FAIL sass $name: cuobjdump"; bad=$((bad + 1)); continue; }
    # HGMMA count per function (cuobjdump: "Function : NAME" headers)
    awk '/Function :/ { f = $3 } /HGMMA|QGMMA|IGMMA/ { n[f]++ } END { for (f in n) print f, n[f] }' \
        "$tmp/$name.sass" > "$tmp/$name.gmma"
    for k in $(awk '{ print $1 }' "$tmp/$name.spills" | grep '_sm90I'); do
        g=$(awk -v k="$k" '$1 == k { print $2 }' "$tmp/$name.gmma"); g=${g:-0}
        s=$(awk -v k="$k" '$1 == k { print $2 }' "$tmp/$name.spills")
        short=$(echo "$k" | sed 's/^_Z[0-9]*//; s/ILb1E.*//')
        if [ "$g" -gt 0 ] && [ "$s" -eq 0 ]; then
            echo "ok   sass $name $short: $g GMMA instructions, 0 spill bytes"
        else
            echo "FAIL sass $name $short: $g GMMA instructions, $s spill bytes"; bad=$((bad + 1))
        fi
    done
done
rm -rf "$tmp"
[ $bad -eq 0 ]
