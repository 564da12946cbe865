#!/usr/bin/env bash
# jobs/slurm/euler-implicit-chain.sbatch under a real Slurm: a single-node Slurm (slurmctld,
# slurmd; munged unless one already answers) is started in a temporary folder, the chain script
# is submitted with 2 tasks, its first job is sent the warning signal about halfway through the
# run, and the chain (the next job, submitted by the first) must finish it with the final state
# of an uninterrupted run, bit for bit. The daemons it started are stopped at the end. When Slurm
# cannot start, the test fails; it is never skipped.
#
# The warning signal is sent by `scancel --batch --signal=USR1`, the path Slurm's own
# `--signal=B:USR1@N` takes (to the batch shell, whose trap passes it on), at a step we choose:
# Slurm checks time limits about once a minute and may send that warning up to 60 s early, too
# coarse to cut a CI-sized run halfway; a real limit would need a run of many minutes.
# Usage: slurm_chain.sh <euler-implicit> <repository root>. Needs root (slurmd), slurm and munge
# (jobs/install-deps.sh).
set -uo pipefail
program=$(realpath "$1")
root=$(realpath "$2")
work=$(mktemp -d "${TMPDIR:-/tmp}/eis_slurm.XXXXXX") || exit 1
chmod 755 "$work"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2> /dev/null; done
  sleep 1
  rm -rf "$work"
}
trap cleanup EXIT
fail() {
  echo "FAIL $*"
  for log in "$work"/slurm/*.log; do [ -f "$log" ] && tail -n 20 "$log"; done
  exit 1
}
cd "$work" || exit 1

# munge: reuse one that answers, else start ours.
if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
  mkdir -p /run/munge && chown munge:munge /run/munge || fail "cannot prepare /run/munge"
  su -s /bin/sh munge -c /usr/sbin/munged || fail "munged does not start"
  sleep 1
  pids+=("$(cat /run/munge/munged.pid)")
fi
munge -n | unmunge > /dev/null || fail "munge does not answer"

host=$(hostname -s)
mkdir -p slurm/state slurm/spool
write_conf() {
  cat > slurm/slurm.conf <<CONF
ClusterName=test
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$work/slurm/state
SlurmdSpoolDir=$work/slurm/spool
SlurmctldPidFile=$work/slurm/slurmctld.pid
SlurmdPidFile=$work/slurm/slurmd.pid
SlurmctldLogFile=$work/slurm/slurmctld.log
SlurmdLogFile=$work/slurm/slurmd.log
SlurmUser=root
ReturnToService=2
MpiDefault=none
NodeName=$host CPUs=$(nproc) RealMemory=4000
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES
CONF
}
export SLURM_CONF=$work/slurm/slurm.conf
alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2> /dev/null; }
# Whether slurmctld answers within 10 s; no as soon as it has stopped.
controller_up() {
  for _ in $(seq 1 10); do
    alive slurm/slurmctld.pid || return 1
    timeout 5 scontrol ping 2> /dev/null | grep -q UP && return 0
    sleep 1
  done
  return 1
}
# The two ports: free now, and below the kernel's ephemeral range, from which the sockets of
# MPI jobs running beside this test take theirs. A random port inside that range was once taken
# between the choice and slurmctld's bind ("Address already in use"); slurmctld died and every
# sinfo then waited on it until the test's timeout. A controller that does not stay up is started
# again on other ports.
read -r ephemeral _ < /proc/sys/net/ipv4/ip_local_port_range
# (ss is iproute2's; without it the choice is unchecked and the restart below still holds.)
listening() { ss -Htan "( sport = :$1 )" 2> /dev/null | grep -q .; }
for _ in 1 2 3 4 5; do
  port=$((10000 + RANDOM % (ephemeral - 10002)))
  listening "$port" || listening $((port + 1)) && continue
  write_conf
  slurmctld || fail "slurmctld does not start"
  controller_up && break
  alive slurm/slurmctld.pid && kill "$(cat slurm/slurmctld.pid)"
done
controller_up || fail "slurmctld does not stay up on five pairs of ports"
pids+=("$(cat slurm/slurmctld.pid)")
slurmd || fail "slurmd does not start"
sleep 1
pids+=("$(cat slurm/slurmd.pid)")
for _ in $(seq 1 30); do
  alive slurm/slurmctld.pid || fail "slurmctld stopped"
  timeout 10 sinfo -h -o %t 2> /dev/null | grep -q idle && break
  sleep 1
done
timeout 10 sinfo -h -o %t | grep -q idle || fail "the Slurm node is not idle"
echo "ok   Slurm is up (port $port)"

# The uninterrupted run, then the chain. 600 steps of about 25 ms on 2 idle cores: the signal,
# sent once the history passes step 300, lands seconds before the end (scancel takes well under
# one), and the whole test stays near half a minute.
STEPS=600
SCENE=(--mesh.box-cells="16 4 4" --solver.operator=matrix-free --solver.initial-guess=previous
       --output.progress-every=100 --solver.steps=$STEPS)
source "$root/jobs/mpi-env.sh"
mpiexec -n 2 "$program" "${SCENE[@]}" --output.final-state=reference.csv > reference.log 2>&1 ||
  fail "the uninterrupted run"
export EXE=$program OUT=$work/run SLURM_MPI_TYPE=pmix
first=$(sbatch --parsable --ntasks=2 --time=5 --signal=B:USR1@60 \
  "$root/jobs/slurm/euler-implicit-chain.sbatch" "${SCENE[@]}") || fail "sbatch"
echo "ok   submitted job $first"
for _ in $(seq 1 600); do
  [ -f run/history.csv ] && [ "$(wc -l < run/history.csv)" -gt $((STEPS / 2)) ] && break
  sleep 0.1
done
scancel --batch --signal=USR1 "$first" || fail "scancel --signal"
# The chain: wait until no job is left in the queue.
for _ in $(seq 1 120); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 1
done
[ -z "$(squeue -h -o %i)" ] || fail "the chain did not finish in 2 minutes"
grep -h "^euler-implicit\|^initial.restart" euler-implicit-chain-*.log
jobs_run=$(ls euler-implicit-chain-*.log | wc -l)
[ "$jobs_run" -ge 2 ] || fail "the chain ran $jobs_run job(s), not 2 or more"
echo "ok   the chain ran $jobs_run jobs"
grep -q "stopped by SIGUSR1 after step" euler-implicit-chain-"$first".log ||
  fail "the first job was not stopped by the warning signal"
echo "ok   the first job stopped on the warning signal"
cmp -s run/final_state.csv reference.csv || fail "the chain's final state is not the uninterrupted run's"
echo "ok   the chain's final state is bit for bit the uninterrupted run's"
