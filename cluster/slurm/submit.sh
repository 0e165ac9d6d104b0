#!/usr/bin/env bash
# Submits a sharded xcover run to Slurm: a job array running the N shards (shards.sbatch,
# one task per shard) and a merge job that starts when every task succeeded. A dlx3 run
# that prints solutions (m<n>, n not 0) gets a second pass between them: a plan job
# (plan.sbatch: the units' counts) and a second array in which each shard prints its own
# units that hold a printed solution, so the merge never explores a unit again. With m1
# to m8 the first pass keeps the units' text lengths only (--lengths-only), the plan
# creates DIR/merged.out at its final size and the second pass writes the text there in
# place (placed-I), so the merge neither reads nor writes the text.
#
#   submit.sh gridcheck DIR N -- GRIDCHECK-ARGS...     e.g. -- --clues 16 --file grids.txt
#   submit.sh dlx3 DIR N --input FILE.dlx -- DLX3-ARGS...             e.g. -- m1
#                      (queens.sh 18 > queens18.dlx writes an input to try)
#   submit.sh --resubmit DIR       after a failure: the unfinished shards and a new merge
#
# DIR (created) receives run.conf and args (the run), part-I (shard I's part file),
# done-I (shard I finished), journal-I (gridcheck checkpoints), log/, cpu-I (the task's
# user and system CPU seconds), for a second pass plan, print-I (placed-I with m1-m8),
# done2-I and cpu2-I, and
# the merge's merged.out, merged.err, merged.status and merged.cpu. Relative paths in the arguments are taken
# from the directory submit.sh is called in.
#
# The tasks run the binary by the absolute path recorded in DIR/run.conf, so it must be
# on a file system the compute nodes share (as must DIR and the input files); nothing
# needs to be on their PATH.
#
# Environment: XCOVER (the binary; default: this checkout's target/release/xcover, from
# `cargo build --release -p xcover-cli`, else xcover on PATH), THROTTLE (at most
# this many tasks of an array at once: --array=...%THROTTLE), SBATCH_OPTS (more sbatch options for
# both jobs, e.g. "--partition=long --time=2-0"), MAX_ARRAY_SIZE (default: the cluster's
# MaxArraySize). A run of more shards than MaxArraySize is submitted as several arrays
# (shards 0..M-1, M..2M-1, ...: the task id plus XC_OFFSET), and the merge waits for all.
#
# Checkpoints: a task run again resumes its shard (task.sh). Preempted tasks are requeued
# by Slurm (--requeue) and resume; a failed or cancelled task makes the merge job go away
# (--kill-on-invalid-dep); `submit.sh --resubmit DIR` then submits the shards without a
# done-I marker again, and a new merge. Prints the job ids; DIR/jobs lists them too.
set -euo pipefail

scripts=$(cd "$(dirname "$0")" && pwd)
usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# Array index spec of a sorted list of numbers: 0-3,7,9-10.
ranges() {
  local spec="" start="" prev=""
  for n in "$@"; do
    if [[ -n "$prev" && $n -eq $((prev + 1)) ]]; then prev=$n; continue; fi
    [[ -n "$start" ]] && spec+="${spec:+,}$start$([[ $prev != "$start" ]] && echo "-$prev")"
    start=$n prev=$n
  done
  [[ -n "$start" ]] && spec+="${spec:+,}$start$([[ $prev != "$start" ]] && echo "-$prev")"
  echo "$spec"
}

max_array_size() {
  if [[ -n "${MAX_ARRAY_SIZE:-}" ]]; then echo "$MAX_ARRAY_SIZE"; return; fi
  local size
  size=$(scontrol show config 2>/dev/null | awk -F= '/^MaxArraySize/ {gsub(/ /, "", $2); print $2}')
  echo "${size:-1001}"
}

# Submits one array of pass PASS (1, or 2 for a second pass) after the jobs DEPS (a
# colon-separated list, maybe empty): shards OFFSET + each task id; prints the job id.
submit_array() {
  local dir=$1 pass=$2 deps=$3 offset=$4; shift 4
  local spec id name=shards after=()
  (( pass == 2 )) && name=pass2
  [[ -n "$deps" ]] && after=(--dependency="afterok:$deps" --kill-on-invalid-dep=yes)
  spec=$(ranges "$@")${THROTTLE:+%$THROTTLE}
  id=$(sbatch --parsable --array="$spec" --chdir="$WORKDIR" "${after[@]}" "${extra[@]}" \
    --output="$dir/log/$name-%A_%a.log" \
    --export="ALL,XC_DIR=$dir,XC_OFFSET=$offset,XC_SCRIPTS=$scripts,XC_PASS=$pass" \
    "$scripts/shards.sbatch" | cut -d';' -f1)
  echo "$name $id $offset $spec" >> "$dir/jobs"
  echo "$name $id ($name $offset + $spec)" >&2
  echo "$id"
}

# Submits the arrays of pass PASS for the given shards (sorted; one array per
# MaxArraySize block) after the jobs DEPS; prints their ids, colon-separated.
submit_arrays() {
  local dir=$1 pass=$2 deps=$3; shift 3
  local max ids=() tasks=() block=-1 s
  max=$(max_array_size)
  for s in "$@" end; do
    if [[ $s == end ]] || (( s / max != block )); then
      (( ${#tasks[@]} )) && ids+=("$(submit_array "$dir" "$pass" "$deps" $((block * max)) "${tasks[@]}")")
      [[ $s == end ]] && break
      block=$((s / max)) tasks=()
    fi
    tasks+=($((s - block * max)))
  done
  (IFS=:; echo "${ids[*]}")
}

# Submits the given shards of the run in $dir (first pass), the second pass when the run
# has one (its plan, then every shard whose second pass is not done), then the merge
# depending on them.
submit() {
  local dir=$1; shift
  # shellcheck source=/dev/null
  source "$dir/run.conf"
  # shellcheck disable=SC2206 # SBATCH_OPTS is a list of options
  extra=(${SBATCH_OPTS:-})
  rm -f "$dir/merged.status"
  local deps=""
  (( $# )) && deps=$(submit_arrays "$dir" 1 "" "$@")
  if [[ "${PASSES:-1}" == 2 ]]; then
    local plan second=() i
    if (( $# )) || [[ ! -e "$dir/plan-done" ]]; then
      local after=()
      [[ -n "$deps" ]] && after=(--dependency="afterok:$deps" --kill-on-invalid-dep=yes)
      plan=$(sbatch --parsable "${after[@]}" --chdir="$WORKDIR" "${extra[@]}" \
        --output="$dir/log/plan-%j.log" --export="ALL,XC_DIR=$dir" \
        "$scripts/plan.sbatch" | cut -d';' -f1)
      echo "plan $plan" | tee -a "$dir/jobs" >&2
      deps=$plan
    fi
    for ((i = 0; i < SHARDS; i++)); do [[ -e "$dir/done2-$i" ]] || second+=("$i"); done
    if (( ${#second[@]} )); then
      deps=$(submit_arrays "$dir" 2 "$deps" "${second[@]}")
    fi
  fi
  local dependency=()
  if [[ -n "$deps" ]]; then
    dependency=(--dependency="afterok:$deps" --kill-on-invalid-dep=yes)
  fi
  local merge
  merge=$(sbatch --parsable "${dependency[@]}" --chdir="$WORKDIR" "${extra[@]}" \
    --output="$dir/log/merge-%j.log" --export="ALL,XC_DIR=$dir" \
    "$scripts/merge.sbatch" | cut -d';' -f1)
  echo "merge $merge" | tee -a "$dir/jobs"
}

# The print spacing of a dlx3 run with these arguments (Knuth's first m<n> wins; 0 when
# none: nothing is printed).
spacing() {
  local a
  for a in "$@"; do
    if [[ "$a" == m* ]]; then
      local n=${a#m}
      [[ "$n" =~ ^-?[0-9]+$ ]] || n=0
      echo "$n"
      return
    fi
  done
  echo 0
}

[[ $# -ge 2 ]] || usage
if [[ "$1" == --resubmit ]]; then
  dir=$(cd "$2" && pwd)
  [[ -f "$dir/run.conf" ]] || { echo "submit.sh: $dir holds no run (run.conf)" >&2; exit 1; }
  # shellcheck source=/dev/null
  source "$dir/run.conf"
  unfinished=()
  # shellcheck disable=SC2153 # SHARDS comes from run.conf
  for ((i = 0; i < SHARDS; i++)); do
    [[ -e "$dir/done-$i" ]] || unfinished+=("$i")
  done
  echo "resubmitting ${#unfinished[@]} of $SHARDS shards: $(ranges "${unfinished[@]}")"
  submit "$dir" "${unfinished[@]}"
  exit 0
fi

kind=$1 dir=$2 shards=${3:-}
shift 3 || usage
[[ "$kind" == dlx3 || "$kind" == gridcheck ]] || usage
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || { echo "submit.sh: N must be a positive number" >&2; exit 2; }
input=""
if [[ "${1:-}" == --input ]]; then input=$(realpath "${2:?--input needs a file}"); shift 2; fi
[[ "${1:-}" == -- ]] && shift
if [[ "$kind" == dlx3 && -z "$input" ]]; then
  echo "submit.sh: dlx3 needs --input FILE.dlx" >&2
  exit 2
fi
built=$scripts/../../target/release/xcover
if [[ -n "${XCOVER:-}" ]]; then
  xcover=$(command -v "$XCOVER") || { echo "submit.sh: XCOVER=$XCOVER is not a program" >&2; exit 1; }
elif [[ -x "$built" ]]; then
  xcover=$built
else
  xcover=$(command -v xcover) || {
    echo "submit.sh: no xcover binary: build this checkout's" \
      "(cargo build --release -p xcover-cli) or set XCOVER" >&2
    exit 1
  }
fi
xcover=$(realpath "$xcover")
echo "binary $xcover" >&2
mkdir -p "$dir/log"
dir=$(cd "$dir" && pwd)
if [[ -e "$dir/run.conf" ]]; then
  echo "submit.sh: $dir already holds a run; use --resubmit $dir, or another directory" >&2
  exit 1
fi
if (( $# )); then printf '%s\n' "$@" > "$dir/args"; else : > "$dir/args"; fi
# A dlx3 run that prints has a second pass; with m1-m8 it writes the text in place.
passes=1 place=0
if [[ "$kind" == dlx3 ]]; then
  m=$(spacing "$@")
  (( m != 0 )) && passes=2
  (( m >= 1 && m <= 8 )) && place=1
fi
printf 'KIND=%q\nSHARDS=%q\nXCOVER=%q\nINPUT=%q\nWORKDIR=%q\nPASSES=%q\nPLACE=%q\n' \
  "$kind" "$shards" "$xcover" "$input" "$PWD" "$passes" "$place" > "$dir/run.conf"
submit "$dir" $(seq 0 $((shards - 1)))
