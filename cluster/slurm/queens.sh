#!/usr/bin/env bash
# Writes the n-queens problem in DLX3 format to stdout, an input for trying the recipe:
#
#   cluster/slurm/queens.sh 18 > queens18.dlx
#
# The encoding of Knuth's generator queens-dlx, byte for byte (the tests compare it with
# the project's own copy of that generator): rows r.. and columns c.. are primary items
# (each covered once), listed from the middle out; the diagonals a.. and b.. secondary (at
# most once), the corner ones left out; one option per square; names in base 62. Its
# solutions are the n-queens placements: 92 for n = 8, 2,279,184 for n = 15, 666,090,624
# for n = 18.
set -euo pipefail
n=${1:?usage: queens.sh N (N from 1 to 32)}
[[ "$n" =~ ^[1-9][0-9]*$ ]] && (( n <= 32 )) || { echo "queens.sh: N must be 1 to 32" >&2; exit 2; }
awk -v n="$n" 'function code(x) { return substr("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ", x + 1, 1) }
BEGIN {
  nn = 2 * n - 2
  printf "| This data produced by queens-dlx %d\n", n
  for (j = 0; j < n; j++) {
    t = (j % 2 == 1) ? int((n - 1 - j) / 2) : int((n + j) / 2)
    printf "r%s c%s ", code(t), code(t)
  }
  printf "|"
  for (t = 1; t < nn; t++) printf " a%s b%s", code(t), code(t)
  printf "\n"
  for (j = 0; j < n; j++) for (k = 0; k < n; k++) {
    printf "r%s c%s", code(j), code(k)
    a = j + k; if (a != 0 && a < nn) printf " a%s", code(a)
    b = n - 1 - j + k; if (b != 0 && b < nn) printf " b%s", code(b)
    printf "\n"
  }
}'
