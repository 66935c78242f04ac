#!/bin/sh
# Regenerates every file of instances/hard (run from anywhere; refuses to overwrite: delete the
# files first). Puzzles where propagation is not enough and a search must work: loose classic
# grids (25 % black, no uniqueness asked: many solutions, few of them near), wide-range empty
# Cazenave grids, and Cazenave grids made unsatisfiable by a row sum and a column sum moved
# together (the totals still agree and every run alone can be satisfied, so root GAC, the
# totals check and shaving do not refute them).
set -e
cd "$(dirname "$0")"
kakuro generate classic --rows 30 --cols 30 --density 0.25 --no-unique --count 4 --seed 101 -o loose-30x30.jsonl
kakuro generate classic --rows 60 --cols 60 --density 0.25 --no-unique --count 2 --seed 101 -o loose-60x60.jsonl
kakuro generate classic --rows 31 --cols 101 --density 0.3 --no-unique --count 3 --seed 101 -o loose-31x101.jsonl
kakuro generate cazenave --size 12 --values 13 --holes 100 --count 3 --seed 1 -o empty-12x12-v13.jsonl
kakuro generate cazenave --size 16 --values 17 --holes 100 --count 2 --seed 1 -o empty-16x16-v17.jsonl
kakuro generate classic --rows 100 --cols 100 --density 0.25 --no-unique --count 3 --seed 101 -o loose-100x100.jsonl
kakuro generate cazenave --size 20 --values 21 --holes 100 --count 2 --seed 1 -o empty-20x20-v21.jsonl
kakuro generate cazenave --size 30 --values 31 --holes 100 --count 2 --seed 1 -o empty-30x30-v31.jsonl
kakuro generate cazenave --size 7 --values 8 --holes 100 --count 2 --seed 1 --unsatisfiable -o unsat-7x7-v8.jsonl
kakuro generate cazenave --size 8 --values 9 --holes 100 --count 2 --seed 1 --unsatisfiable -o unsat-8x8-v9.jsonl
