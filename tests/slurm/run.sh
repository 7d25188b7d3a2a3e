#!/bin/bash
# carve tune on a real Slurm cluster of one node: the array file written by --emit-slurm runs as
# 4 tasks (a GPU-less --no-bench share each), their results are joined with --merge, and the
# merged answer must equal the single-process one. Needs root and Debian's slurm-wlm and munge
# (installed with apt-get when missing); prints "skipped (no Slurm)" where that cannot be had.
# The daemons started here (munged as the munge user, slurmctld, slurmd) are stopped at the end.
carve=$(realpath "${1:-./carve}")
pass=0; fail=0
check() { if [ "$1" = 0 ]; then pass=$((pass+1)); else echo "slurm: FAIL: $2"; fail=$((fail+1)); fi; }
skip() { echo "slurm: skipped (no Slurm): $1"; echo "slurm: 0 passed, 0 failed"; exit 0; }
[ "$(id -u)" = 0 ] || skip "not root"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  command -v apt-get >/dev/null || skip "no apt-get to install slurm-wlm"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get install -y -q slurm-wlm munge > /tmp/carve-slurm-apt.log 2>&1 \
    || skip "apt-get install slurm-wlm munge failed (see /tmp/carve-slurm-apt.log)"
fi
command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v sbatch >/dev/null || skip "slurm-wlm incomplete"
t=$(mktemp -d /tmp/carve-slurm-XXXXXX); chmod 755 "$t"
started_munge=""
stop() {
  [ -f "$t/slurmd.pid" ] && kill "$(cat "$t/slurmd.pid")" 2>/dev/null
  [ -f "$t/slurmctld.pid" ] && kill "$(cat "$t/slurmctld.pid")" 2>/dev/null
  [ -n "$started_munge" ] && [ -f "$t/munged.pid" ] && kill "$(cat "$t/munged.pid")" 2>/dev/null
  sleep 1
  rm -rf "$t"
}
trap stop EXIT

# munge: a key, its directories, the daemon as the munge user (a socket of our own)
[ -f /etc/munge/munge.key ] || { mkdir -p /etc/munge; dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 2>/dev/null; }
chown munge:munge /etc/munge/munge.key 2>/dev/null; chmod 400 /etc/munge/munge.key
mkdir -p "$t/munge" && chown munge:munge "$t/munge" && chmod 755 "$t/munge"
sock="$t/munge/munge.socket"
runuser -u munge -- munged --socket="$sock" --pid-file="$t/munge/munged.pid" --log-file="$t/munge/munged.log" --seed-file="$t/munge/seed" \
  || skip "munged does not start"
for i in $(seq 1 50); do [ -f "$t/munge/munged.pid" ] && break; sleep 0.1; done
cp "$t/munge/munged.pid" "$t/munged.pid" 2>/dev/null; started_munge=1

host=$(hostname -s)
cpus=$(nproc)
cat > "$t/slurm.conf" <<CONF
ClusterName=carvetest
SlurmctldHost=$host
SlurmUser=root
SlurmctldPort=16817
SlurmdPort=16818
AuthType=auth/munge
AuthInfo=socket=$sock
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
MpiDefault=none
ReturnToService=2
StateSaveLocation=$t/state
SlurmdSpoolDir=$t/spool
SlurmctldPidFile=$t/slurmctld.pid
SlurmdPidFile=$t/slurmd.pid
SlurmctldLogFile=$t/slurmctld.log
SlurmdLogFile=$t/slurmd.log
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
NodeName=$host CPUs=$cpus RealMemory=512 State=UNKNOWN
PartitionName=carve Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
mkdir -p "$t/state" "$t/spool"
export SLURM_CONF="$t/slurm.conf"
slurmctld -c -f "$SLURM_CONF" || skip "slurmctld does not start ($(tail -2 "$t/slurmctld.log" 2>/dev/null))"
slurmd -f "$SLURM_CONF" || skip "slurmd does not start ($(tail -2 "$t/slurmd.log" 2>/dev/null))"
up=""
for i in $(seq 1 60); do
  st=$(sinfo -h -o %T 2>/dev/null | head -1)
  case "$st" in idle*|mixed*|alloc*) up=1; break;; esac
  sleep 0.5
done
[ -n "$up" ] || skip "the node did not come up (state '$st'; $(tail -2 "$t/slurmctld.log" 2>/dev/null))"
echo "slurm: a one-node cluster is up ($host, $cpus CPUs)"

# the array: 4 tasks, each a share of the static metrics, GPU-less
MM="examples/mm.cu -D N=128 --no-bench --no-cache --skip tile"
regs=""; "$carve" estimate examples/vv.cu 2>&1 | grep -q "no CUDA toolkit" && regs="--regs 32"
"$carve" tune $MM $regs --emit-slurm "$t/job.sh" --tasks 4 --results "$t/r.jsonl" > /dev/null; check $? "--emit-slurm writes the array file"
timeout 300 sbatch --wait --chdir="$PWD" "$t/job.sh" > "$t/sbatch.out" 2>&1; check $? "the array of 4 tasks ran: $(cat "$t/sbatch.out"; tail -3 "$t"/r.*.log 2>/dev/null)"
n=$(ls "$t"/r.*.jsonl 2>/dev/null | wc -l)
[ "$n" = 4 ]; check $? "each task wrote its results file ($n)"
"$carve" tune --merge "$t"/r.*.jsonl -o "$t/merged.jsonl"; check $? "--merge joins them"
"$carve" tune $MM $regs --results "$t/merged.jsonl" --progress > "$t/merged.txt" 2> "$t/merged.err"; check $? "tune from the merged results"
grep -aq "static metrics: 0 variants computed here" "$t/merged.err"; check $? "nothing left to compute after the array: $(grep -a 'computed here' "$t/merged.err")"
"$carve" tune $MM $regs > "$t/single.txt"; check $? "the single-process tune"
diff "$t/single.txt" "$t/merged.txt" > "$t/diff"; check $? "the merged answer equals the single-process one: $(head -5 "$t/diff")"
echo "slurm: $pass passed, $fail failed"
[ $fail = 0 ]
