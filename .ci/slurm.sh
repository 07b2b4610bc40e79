#!/usr/bin/env bash
# A single-node Slurm cluster on this machine (Debian's slurm-wlm and munge: slurmctld and
# slurmd on localhost, a minimal slurm.conf written here), then the test that grades a demo
# class as a Slurm job array, merges it and compares the merge with one run
# (tests/slurm/test_slurm.py). Run from the checkout's root after the venv exists; as root.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v slurmctld >/dev/null 2>&1 || ! command -v munged >/dev/null 2>&1; then
  [ "$(id -u)" -eq 0 ] || { echo "the Slurm stage must run as root to install slurm-wlm and munge" >&2; exit 1; }
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge >/dev/null
fi
state=$(mktemp -d /tmp/dimred-slurm-XXXXXX)
export SLURM_CONF="$state/slurm.conf"
cleanup() {
  for pid in "$state"/*.pid; do [ -f "$pid" ] && kill "$(cat "$pid")" 2>/dev/null || true; done
  [ -f "$state/munged.pid" ] && kill "$(cat "$state/munged.pid")" 2>/dev/null || true
}
trap cleanup EXIT

# munge: the key Debian's package made (or a new one), a socket of our own
[ -s /etc/munge/munge.key ] || mungekey --create --keyfile=/etc/munge/munge.key
mkdir -p "$state/munge"
munged --force --socket="$state/munge/munge.socket" --pid-file="$state/munged.pid" \
  --log-file="$state/munged.log" --seed-file="$state/munge.seed"

cpus=$(nproc)
memory=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 1024 ))
mkdir -p "$state/ctld" "$state/d"
cat > "$SLURM_CONF" <<CONF
ClusterName=dimred
SlurmctldHost=localhost
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$state/munge/munge.socket
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
StateSaveLocation=$state/ctld
SlurmdSpoolDir=$state/d
SlurmctldPidFile=$state/slurmctld.pid
SlurmdPidFile=$state/slurmd.pid
SlurmctldLogFile=$state/slurmctld.log
SlurmdLogFile=$state/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
NodeName=localhost CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"
export DIMRED_SLURM_LOGS="$state"
.venv/bin/python -m pytest tests/slurm/test_slurm.py --slurm -q -p no:xdist -rP
