#!/bin/sh
# The FGD study's grid on the default OpenB trace: six policies x ten seeds.
# usage: examples/openb/run.sh PATH/TO/openb [OUT_DIR]
# Writes OUT_DIR/openb.json, openb.csv and openb.png and prints the table of unallocated
# GPU % at arrived = 100%. About 25-40 s of one core per policy and seed.
set -eu
data=${1:?usage: run.sh PATH/TO/openb [OUT_DIR]}
out=${2:-.}
mkdir -p "$out"
exec nice -n 10 uv run kubesched openb "$data" \
    --policies random,dotprod,clustering,packing,bestfit,fgd \
    --seeds 42,43,44,45,46,47,48,49,50,51 \
    --json "$out/openb.json" --csv "$out/openb.csv" --plot "$out/openb.png"
