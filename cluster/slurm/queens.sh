#!/usr/bin/env bash
# Writes the n-queens problem in DLX3 format to stdout, an input for trying the recipe:
#
#   cluster/slurm/queens.sh 18 > queens18.dlx
#
# Rows r0.. and columns c0.. are primary items (each covered once), the diagonals a0..
# and b0.. secondary (at most once); one option per square. Its solutions are the
# n-queens placements: 92 for n = 8, 2,279,184 for n = 15, 666,090,624 for n = 18.
set -euo pipefail
n=${1:?usage: queens.sh N (N from 1 to 64)}
[[ "$n" =~ ^[1-9][0-9]*$ ]] && (( n <= 64 )) || { echo "queens.sh: N must be 1 to 64" >&2; exit 2; }
awk -v n="$n" 'BEGIN {
  for (j = 0; j < n; j++) printf "r%d c%d ", j, j
  printf "|"
  for (t = 0; t < 2 * n - 1; t++) printf " a%d b%d", t, t
  printf "\n"
  for (j = 0; j < n; j++) for (k = 0; k < n; k++)
    printf "r%d c%d a%d b%d\n", j, k, j + k, n - 1 - j + k
}'
