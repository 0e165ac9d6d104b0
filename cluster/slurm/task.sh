#!/usr/bin/env bash
# One shard of a run prepared by submit.sh: `task.sh DIR I` runs shard I of the run in DIR
# (`xcover dlx3` or `xcover gridcheck` with the run's arguments) and marks it done;
# `task.sh DIR I 2` runs its second pass (dlx3 runs that print: it prints the shard's
# units that hold a printed solution, DIR/print-I, from DIR/plan; with m1-m8 it writes
# them in place into DIR/merged.out, recording DIR/placed-I) and marks done2-I. DIR/cpu-I (cpu2-I) gets the task's user and system CPU seconds.
# Run by shards.sbatch as an array task; it can be run by hand too (same result).
#
# It resumes whatever an earlier attempt of the same shard left, so a task that was
# preempted, cancelled, killed or failed is simply run again:
#   gridcheck: journal DIR/journal-I (--checkpoint, --resume when it exists); the part is
#              written to DIR/part-I.tmp and renamed to DIR/part-I when complete;
#   dlx3:      `xcover dlx3 --shard I/N --output DIR/part-I --resume` continues its own
#              incomplete part file (and starts afresh when there is none).
# DIR/done-I marks a finished shard; a finished shard run again does nothing, and its
# journal is removed (unless KEEP_JOURNALS=1).
set -euo pipefail

dir=${1:?usage: task.sh DIR I [PASS]}
shard=${2:?usage: task.sh DIR I [PASS]}
pass=${3:-1}
# KIND (dlx3|gridcheck), SHARDS (N), XCOVER (binary), INPUT (dlx3 stdin).
# shellcheck source=/dev/null
source "$dir/run.conf"
mapfile -t args < "$dir/args"
# The CPU seconds (user system) of the run's xcover, into $1.
TIMEFORMAT='%U %S'
timed() {
  local into=$1; shift
  { time "$@" 2>&3; } 3>&2 2> "$into.tmp"
  mv "$into.tmp" "$into"
}
if [[ "$pass" == 2 ]]; then
  if [[ -e "$dir/done2-$shard" ]]; then
    echo "shard $shard/$SHARDS, second pass: done earlier"
    exit 0
  fi
  if [[ "${PLACE:-0}" == 1 ]]; then
    out=(--print-file "$dir/merged.out" --output "$dir/placed-$shard")
  else
    out=(--output "$dir/print-$shard")
  fi
  timed "$dir/cpu2-$shard" "$XCOVER" dlx3 --shard "$shard/$SHARDS" --second-pass "$dir/plan" \
    "${out[@]}" --resume "${args[@]}" < "$INPUT"
  touch "$dir/done2-$shard"
  echo "shard $shard/$SHARDS, second pass: done"
  exit 0
fi
if [[ -e "$dir/done-$shard" ]]; then
  echo "shard $shard/$SHARDS: done earlier"
  exit 0
fi

case "$KIND" in
  gridcheck)
    journal=$dir/journal-$shard
    resume=()
    [[ -e "$journal" ]] && resume=(--resume)
    # One worker thread per CPU Slurm gave the task, unless the run's arguments say.
    threads=(--threads "${SLURM_CPUS_PER_TASK:-1}")
    for a in "${args[@]}"; do [[ "$a" == --threads* ]] && threads=(); done
    timed "$dir/cpu-$shard" "$XCOVER" gridcheck "${args[@]}" "${threads[@]}" \
      --shard "$shard/$SHARDS" --checkpoint "$journal" "${resume[@]}" > "$dir/part-$shard.tmp"
    mv "$dir/part-$shard.tmp" "$dir/part-$shard"
    ;;
  dlx3)
    lengths=()
    [[ "${PLACE:-0}" == 1 ]] && lengths=(--lengths-only)
    timed "$dir/cpu-$shard" "$XCOVER" dlx3 --shard "$shard/$SHARDS" "${lengths[@]}" \
      --output "$dir/part-$shard" --resume "${args[@]}" < "$INPUT"
    ;;
  *)
    echo "task.sh: unknown kind '$KIND' in $dir/run.conf" >&2
    exit 2
    ;;
esac
touch "$dir/done-$shard"
# A finished shard's journal is no longer needed (it can be large: about 1.2 KB per
# whole grid); KEEP_JOURNALS=1 keeps it.
[[ "$KIND" == gridcheck && -z "${KEEP_JOURNALS:-}" ]] && rm -f "$dir/journal-$shard"
echo "shard $shard/$SHARDS: done"
