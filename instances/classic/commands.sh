#!/bin/sh
# Regenerates every file of instances/classic (run from anywhere; refuses to overwrite: delete
# the files first). Classic grids with a unique solution; rows and columns count the clue row
# and column. Density 0.3 and runs of 2..5 cells unless given; the last set has runs of up to
# 9 cells on a lighter layout, as in published puzzles.
set -e
cd "$(dirname "$0")"
kakuro generate classic --rows 6 --cols 6 --unique --count 5 --seed 1 -o unique-6x6.jsonl
kakuro generate classic --rows 10 --cols 10 --unique --count 5 --seed 1 -o unique-10x10.jsonl
kakuro generate classic --rows 15 --cols 15 --unique --count 5 --seed 1 -o unique-15x15.jsonl
kakuro generate classic --rows 20 --cols 20 --unique --count 3 --seed 1 -o unique-20x20.jsonl
kakuro generate classic --rows 30 --cols 30 --unique --count 3 --seed 1 -o unique-30x30.jsonl
kakuro generate classic --rows 12 --cols 12 --density 0.2 --longest 9 --unique --count 3 --seed 1 -o unique-12x12-long.jsonl
kakuro generate classic --rows 15 --cols 15 --grade gac+shaving --count 5 --seed 1 -o shaving-15x15.jsonl
