#!/usr/bin/env bash
# One shard of a run prepared by submit.sh: `task.sh DIR I` runs shard I of the run in DIR
# (`xcover dlx3` or `xcover gridcheck` with the run's arguments) and marks it done.
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

dir=${1:?usage: task.sh DIR I}
shard=${2:?usage: task.sh DIR I}
# KIND (dlx3|gridcheck), SHARDS (N), XCOVER (binary), INPUT (dlx3 stdin).
# shellcheck source=/dev/null
source "$dir/run.conf"
mapfile -t args < "$dir/args"
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
    "$XCOVER" gridcheck "${args[@]}" "${threads[@]}" --shard "$shard/$SHARDS" \
      --checkpoint "$journal" "${resume[@]}" > "$dir/part-$shard.tmp"
    mv "$dir/part-$shard.tmp" "$dir/part-$shard"
    ;;
  dlx3)
    "$XCOVER" dlx3 --shard "$shard/$SHARDS" --output "$dir/part-$shard" --resume \
      "${args[@]}" < "$INPUT"
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
