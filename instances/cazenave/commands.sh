#!/bin/sh
# Regenerates every file of instances/cazenave (run from the repository root; refuses to
# overwrite: delete the files first). Cazenave (2010) grids: all-white n x n, values 1..V,
# a percentage of the cells empty (the others are givens).
set -e
cd "$(dirname "$0")"
kakuro generate cazenave --size 6 --values 7 --holes 100 --count 5 --seed 1 -o empty-6x6-v7.jsonl
kakuro generate cazenave --size 8 --values 9 --holes 100 --count 5 --seed 1 -o empty-8x8-v9.jsonl
kakuro generate cazenave --size 10 --values 11 --holes 50 --count 3 --seed 1 -o 10x10-v11-h50.jsonl
kakuro generate cazenave --size 10 --values 11 --holes 70 --count 3 --seed 1 -o 10x10-v11-h70.jsonl
kakuro generate cazenave --size 10 --values 11 --holes 90 --count 3 --seed 1 -o 10x10-v11-h90.jsonl
kakuro generate cazenave --size 8 --values 12 --holes 100 --count 3 --seed 1 -o empty-8x8-v12.jsonl
kakuro generate cazenave --size 8 --values 15 --holes 100 --count 3 --seed 1 -o empty-8x8-v15.jsonl
