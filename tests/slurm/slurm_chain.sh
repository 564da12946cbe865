#!/usr/bin/env bash
# jobs/slurm/*.sbatch, first without Slurm, then under a real Slurm.
#
# Without Slurm (a stand-in srun that records its arguments): the launch lines the two scripts
# make: srun gets --mpi=pmix (OpenMPI needs it; Slurm's MpiDefault=none does not give it) unless
# SLURM_MPI_TYPE or LAUNCH chooses; a first argument that is an option is not taken as the scene;
# no PETSc options are added; a .scn or .py scene goes to --scene, an .ini to --config.
#
# Under Slurm: a single-node Slurm (slurmctld, slurmd; munged unless one already answers) is
# started in a temporary folder, with Slurm's stock MpiDefault=none and no SLURM_MPI_TYPE: the
# scripts must launch OpenMPI by themselves. Then:
#   - the single-job script runs a small scene, its first argument an option;
#   - the chain script is submitted with 2 tasks, a 5-minute limit and a second partition; its
#     first job is sent the warning signal about halfway through the run, and the chain (the
#     next job, submitted by the first, with the same limit and partition) must finish it with
#     the final state of an uninterrupted run, bit for bit;
#   - the chain again, launched by mpirun, its first job sent SIGTERM (job, launcher and ranks,
#     as at a limit or scancel): mpirun returns 1 although the ranks wrote their checkpoint, and
#     the chain must still go on and finish with the same final state.
# The daemons it started are stopped at the end. Where Slurm cannot start (not root, Slurm or
# munge missing, a daemon that does not come up) the test is skipped (status 77, the reason on
# its output), unless EIS_SLURM_REQUIRED=1 makes that a failure.
#
# The warning signal is sent by `scancel --batch --signal=USR1`, the path Slurm's own
# `--signal=B:USR1@N` takes (to the batch shell, whose trap passes it on), at a step we choose:
# Slurm checks time limits about once a minute and may send that warning up to 60 s early, too
# coarse to cut a CI-sized run halfway; a real limit would need a run of many minutes. SIGTERM
# is sent by `scancel --full --signal=TERM`, to every process of the batch step, as Slurm does
# at a time limit.
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
  for log in "$work"/slurm/*.log "$work"/*/*.log; do
    [ -f "$log" ] && echo "--- $log" && tail -n 20 "$log"
  done
  exit 1
}
# Slurm cannot run here: skip (ctest's SKIP_RETURN_CODE), or fail where it must run.
skip() {
  [ "${EIS_SLURM_REQUIRED:-0}" = 1 ] && fail "$* (EIS_SLURM_REQUIRED=1)"
  echo "SKIP $*"
  for log in "$work"/slurm/*.log; do [ -f "$log" ] && tail -n 20 "$log"; done
  exit 77
}
cd "$work" || exit 1

# --- The launch lines, without Slurm: a stand-in srun writes its arguments, one per line.
mkdir -p stub/bin stub/submit
cat > stub/bin/srun <<'STUB'
#!/usr/bin/env bash
printf '%s\n' "$@" > "$STUB_ARGS"
STUB
chmod +x stub/bin/srun
touch stub/submit/scene.ini stub/submit/scene.scn stub/submit/scene.py
# launched SCRIPT [ARG...]: runs jobs/slurm/SCRIPT as a job of 2 tasks would, the stand-in's
# arguments then in stub/args.
launched() {
  local script=$1
  shift
  rm -f stub/args
  (cd stub/submit && PATH=$work/stub/bin:$PATH STUB_ARGS=$work/stub/args SLURM_SUBMIT_DIR=$PWD \
    SLURM_JOB_ID=1 SLURM_NTASKS=2 SLURM_JOB_NUM_NODES=1 EXE=euler-implicit OUT=$work/stub/out \
    EIS_CHAIN_SCRIPT=$root/jobs/slurm/$script bash "$root/jobs/slurm/$script" "$@") \
    > stub/log 2>&1 || fail "$script $*: exit status $?: $(cat stub/log)"
  [ -f stub/args ] || fail "$script $*: srun was not run: $(cat stub/log)"
}
has() { grep -qx -e "$1" stub/args; }
for script in euler-implicit.sbatch euler-implicit-chain.sbatch; do
  launched "$script" --solver.steps=20
  has --mpi=pmix || fail "$script: srun without --mpi=pmix: $(tr '\n' ' ' < stub/args)"
  has --solver.steps=20 || fail "$script --solver.steps=20: the option was not passed on"
  has --config || has --scene && fail "$script --solver.steps=20: an option taken as the scene"
  grep -q '^-[a-z]' stub/args && fail "$script: PETSc options added: $(tr '\n' ' ' < stub/args)"
  SLURM_MPI_TYPE=pmi2 launched "$script"
  has --mpi=pmix && fail "$script: --mpi=pmix despite SLURM_MPI_TYPE=pmi2"
  LAUNCH="srun --mpi=pmi2" launched "$script"
  if [ "$(grep -c '^--mpi' stub/args)" != 1 ] || ! has --mpi=pmi2; then
    fail "$script: LAUNCH=\"srun --mpi=pmi2\" gave $(tr '\n' ' ' < stub/args)"
  fi
  for scene in scene.scn scene.py scene.ini; do
    launched "$script" "$scene" --solver.steps=3
    key=--scene
    [ "$scene" = scene.ini ] && key=--config
    grep -A1 -x -e "$key" stub/args | grep -q "$scene\$" ||
      fail "$script $scene: not given as $key: $(tr '\n' ' ' < stub/args)"
    grep -q '^-[a-z]' stub/args && fail "$script $scene: PETSc options added"
  done
done
echo "ok   the launch lines: srun --mpi=pmix unless chosen, options never the scene, no PETSc" \
  "options added, .scn and .py as --scene, .ini as --config"

# --- Slurm.
[ "$(id -u)" = 0 ] || skip "not root: slurmd needs root"
for command in munge unmunge slurmctld slurmd sbatch squeue scancel scontrol sinfo; do
  command -v "$command" > /dev/null || skip "$command is not installed (jobs/install-deps.sh)"
done

# munge: reuse one that answers, else start ours.
if ! munge -n 2> /dev/null | unmunge > /dev/null 2>&1; then
  { mkdir -p /run/munge && chown munge:munge /run/munge; } || skip "cannot prepare /run/munge"
  su -s /bin/sh munge -c /usr/sbin/munged || skip "munged does not start"
  sleep 1
  pids+=("$(cat /run/munge/munged.pid)")
fi
munge -n | unmunge > /dev/null || skip "munge does not answer"

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
PartitionName=chain Nodes=$host Default=NO MaxTime=INFINITE State=UP OverSubscribe=YES
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
  slurmctld || skip "slurmctld does not start"
  controller_up && break
  alive slurm/slurmctld.pid && kill "$(cat slurm/slurmctld.pid)"
done
controller_up || skip "slurmctld does not stay up on five pairs of ports"
pids+=("$(cat slurm/slurmctld.pid)")
slurmd || skip "slurmd does not start"
sleep 1
pids+=("$(cat slurm/slurmd.pid)")
for _ in $(seq 1 30); do
  alive slurm/slurmctld.pid || skip "slurmctld stopped"
  timeout 10 sinfo -h -o %t 2> /dev/null | grep -q idle && break
  sleep 1
done
timeout 10 sinfo -h -o %t | grep -q idle || skip "the Slurm node is not idle"
echo "ok   Slurm is up (port $port)"

# The single-job script, its first argument an option (not the scene), launched by srun on
# 2 ranks with MpiDefault=none and no SLURM_MPI_TYPE.
# shellcheck source=SCRIPTDIR/../../jobs/mpi-env.sh
source "$root/jobs/mpi-env.sh"
unset SLURM_MPI_TYPE
export EXE=$program
mkdir single
single=$(cd single && sbatch --parsable --nodes=1 --ntasks-per-node=2 \
  "$root/jobs/slurm/euler-implicit.sbatch" --mesh.box-cells="4 2 2" --solver.steps=20) ||
  fail "sbatch euler-implicit.sbatch"
for _ in $(seq 1 60); do
  [ -z "$(squeue -h -o %i)" ] && break
  sleep 1
done
[ "$(wc -l < "single/run-$single/history.csv" 2> /dev/null)" = 21 ] ||
  fail "the single job did not run its 20 steps: $(cat single/euler-implicit-"$single".log)"
echo "ok   the single job ran the built-in scene with --solver.steps=20 on 2 srun ranks"

# The uninterrupted run, then the chain twice. 200 steps of about 25 ms on 2 idle cores: the
# signal, sent once the history passes step 100, lands about 2 s before the end (the history is
# polled every 0.1 s, scancel takes well under a second), and each of the three runs takes 5 s.
STEPS=200
SCENE=(--mesh.box-cells="16 4 4" --solver.operator=matrix-free --solver.initial-guess=previous
       --output.progress-every=100 "--solver.steps=$STEPS")
mpiexec -n 2 "$program" "${SCENE[@]}" --output.final-state=reference.csv > reference.log 2>&1 ||
  fail "the uninterrupted run"
# chain NAME SIGNAL SCANCEL-OPTION [sbatch option...]: submits the chain from the folder NAME
# (its jobs' logs there, its run in NAME/run), sends its first job SIGNAL once the run is halfway,
# and waits until no job is left; $first is the first job's id.
chain() {
  local name=$1 signal=$2 how=$3
  shift 3
  mkdir "$name"
  first=$(cd "$name" && OUT=$work/$name/run sbatch --parsable --ntasks=2 "$@" \
    "$root/jobs/slurm/euler-implicit-chain.sbatch" "${SCENE[@]}") || fail "$name: sbatch"
  echo "ok   $name: submitted job $first"
  for _ in $(seq 1 600); do
    [ -f "$name/run/history.csv" ] && [ "$(wc -l < "$name/run/history.csv")" -gt $((STEPS / 2)) ] &&
      break
    sleep 0.1
  done
  scancel "$how" --signal="$signal" "$first" || fail "$name: scancel $how --signal=$signal"
  for _ in $(seq 1 120); do
    [ -z "$(squeue -h -o %i)" ] && break
    sleep 1
  done
  [ -z "$(squeue -h -o %i)" ] || fail "$name: the chain did not finish in 2 minutes"
  grep -h "^euler-implicit\|^initial.restart" "$name"/euler-implicit-chain-*.log
  local jobs_run
  jobs_run=$(find "$name" -maxdepth 1 -name 'euler-implicit-chain-*.log' | wc -l)
  [ "$jobs_run" -ge 2 ] || fail "$name: the chain ran $jobs_run job(s), not 2 or more"
  echo "ok   $name: the chain ran $jobs_run jobs"
  cmp -s "$name/run/final_state.csv" reference.csv ||
    fail "$name: the chain's final state is not the uninterrupted run's"
  echo "ok   $name: the chain's final state is bit for bit the uninterrupted run's"
}

# srun (the scripts' default), the warning signal; submitted with a limit, a partition and a
# warning of its own (SBATCH_SIGNAL: Slurm does not tell a job its --signal) that the next job
# must keep.
SBATCH_SIGNAL=B:USR1@60 chain srun USR1 --batch --time=5 --partition=chain
grep -q "stopped by SIGUSR1 after step" srun/euler-implicit-chain-"$first".log ||
  fail "srun: the first job was not stopped by the warning signal"
echo "ok   srun: the first job stopped on the warning signal"
second=$(sed -n 's/^Submitted batch job \([0-9]*\).*/\1/p' srun/euler-implicit-chain-"$first".log)
[ -n "$second" ] || fail "srun: the first job names no next job"
details=$(scontrol show job "$second")
for field in TimeLimit=00:05:00 Partition=chain NumTasks=2; do
  grep -qw "$field" <<< "$details" || fail "srun: the next job $second lacks $field: $details"
done
echo "ok   srun: the next job kept the first one's limit, partition and tasks"

# mpirun, SIGTERM to the whole batch step: mpirun returns 1 and loses the ranks' last lines, the
# chain reads the ranks' checkpoint instead.
LAUNCH=mpirun chain mpirun TERM --full --time=5
grep -q "stopped (SIGTERM) after step" mpirun/euler-implicit-chain-"$first".log ||
  fail "mpirun: the first job did not go on after SIGTERM"
echo "ok   mpirun: the first job went on after SIGTERM although mpirun failed"
