#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, to try the recipe (submit.sh) without one:
# Debian's slurm-wlm and munge (installed when missing), munged, slurmctld and slurmd on
# loopback, from a config generated in STATE (a directory of its own, outside the
# repository, whose parents the munge user can enter). Run as root (it installs packages
# and starts daemons).
#
#   local-cluster.sh up STATE      start it; then: export SLURM_CONF=STATE/slurm.conf
#   local-cluster.sh down STATE    stop the daemons it started (by the PIDs in STATE)
#
# CPUS (default: this machine's) sets the node's CPUs. Used by .ci/slurm.
set -euo pipefail

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[[ $# -eq 2 ]] || usage
action=$1 state=$2

down() {
  local f pid
  # Only the daemons started here, by the PIDs they wrote: slurmd, slurmctld, munged.
  for f in slurmd.pid slurmctld.pid munge/munged.pid; do
    [[ -s "$state/$f" ]] || continue
    pid=$(cat "$state/$f")
    kill "$pid" 2>/dev/null || continue
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
}

up() {
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge
  fi
  [[ -s /etc/munge/munge.key ]] || mungekey --create --keyfile=/etc/munge/munge.key
  chown munge:munge /etc/munge/munge.key
  chmod 600 /etc/munge/munge.key
  mkdir -p "$state"
  state=$(cd "$state" && pwd)
  # munged runs as munge: it must reach its directory.
  chmod 755 "$state"
  mkdir -p "$state/munge" "$state/state" "$state/spool"
  chown munge:munge "$state/munge"
  chmod 755 "$state/munge"
  local socket=$state/munge/munge.socket host
  runuser -u munge -- /usr/sbin/munged --socket="$socket" --pid-file="$state/munge/munged.pid" \
    --log-file="$state/munge/munged.log" --seed-file="$state/munge/munged.seed"
  for _ in $(seq 50); do [[ -s "$state/munge/munged.pid" ]] && break; sleep 0.1; done
  host=$(hostname)
  cat > "$state/slurm.conf" <<CONF
ClusterName=xcoverlocal
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$socket
SlurmctldPort=16817
SlurmdPort=16818
StateSaveLocation=$state/state
SlurmdSpoolDir=$state/spool
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerParameters=defer_batch
KillWait=5
NodeName=$host NodeAddr=127.0.0.1 CPUs=${CPUS:-$(nproc)} State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF=$state/slurm.conf
  /usr/sbin/slurmctld -c
  for _ in $(seq 50); do [[ -s "$state/slurmctld.pid" ]] && break; sleep 0.1; done
  /usr/sbin/slurmd
  for _ in $(seq 50); do [[ -s "$state/slurmd.pid" ]] && break; sleep 0.1; done
  for _ in $(seq 100); do
    sinfo -h -o %t 2>/dev/null | grep -qx idle && break
    sleep 0.2
  done
  if ! sinfo -h -o %t | grep -qx idle; then
    echo "local-cluster.sh: the node did not come up: $(sinfo 2>&1)" >&2
    down
    exit 1
  fi
  sinfo
  echo "export SLURM_CONF=$state/slurm.conf"
}

case "$action" in
  up) up ;;
  down) down ;;
  *) usage ;;
esac
