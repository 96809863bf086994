#!/usr/bin/env bash
# A real single-node Slurm (munged + slurmctld + slurmd, all as root) for tests.
#
#   slurm-single-node.sh start DIR   # DIR: an empty temporary folder the caller owns
#   slurm-single-node.sh stop DIR
#
# Everything (munge key and socket, slurm.conf, state, spool, pid files, logs)
# lives in DIR and the daemons use free ports picked at start (on 127.0.0.1
# only where the hostname resolves to loopback), so nothing system-wide
# changes and two instances (or a system Slurm) never clash.
# `start` prints the single line `SLURM_CONF=DIR/slurm.conf` once the node is
# idle: the only environment sbatch/squeue/scontrol/scancel need. There is no
# accounting database, so sacct only says it is disabled; finished jobs stay in
# `scontrol show job` (state, exit code) for MinJobAge=300 s instead.
# Exit codes: 0 ok; 1 the cluster did not come up (log tails on stderr, whatever
# had started is stopped again); 2 usage, or DIR missing or not empty.
# `stop` cancels remaining jobs, stops exactly the daemons of DIR and is safe
# to run twice (or on a DIR where start failed).
# Needs the Debian 12 packages slurm-wlm and munge (packaging/install-deps.sh).
set -euo pipefail

readonly START_TIMEOUT_S=60   # bounded wait for the node to report idle
readonly STOP_TIMEOUT_S=10    # bounded wait for the daemons to exit (then SIGKILL)

usage() {
  echo "usage: $0 start DIR | stop DIR" >&2
  exit 2
}

# Absolute, symlink-free path: it goes into slurm.conf and the daemons' command
# lines, which `stop` matches against before it signals anything.
abs_dir() { (cd "$1" && pwd -P); }

# A TCP port nobody listens on, picked at random from a high range so that two
# instances started at the same time are unlikely to collide.
free_port() {
  local p
  for _ in $(seq 1 200); do
    p=$((20000 + RANDOM % 40000))
    if command -v ss >/dev/null 2>&1; then
      ss -Htan 2>/dev/null | awk '{print $4}' | grep -qE "[:.]$p\$" && continue
    fi
    # Fallback (and double check): a connect that succeeds means the port is taken.
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null && continue
    [ "$p" != "${1:-}" ] || continue   # not the port just picked
    echo "$p"
    return 0
  done
  echo "slurm-single-node: no free TCP port found" >&2
  return 1
}

# The pid in a pid file, only if that process is alive and its command line
# names DIR: a stale pid file must never make us signal someone else's process.
live_pid() {
  local file=$1 dir=$2 pid
  [ -s "$file" ] || return 1
  pid=$(tr -dc '0-9' <"$file")
  [ -n "$pid" ] && [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$dir/" || return 1
  echo "$pid"
}

# Starts a daemon in the foreground of its own session, detached from the
# caller's terminal and stdout (a caller's $(...) would otherwise wait for it),
# and records its pid. Foreground, not self-daemonizing, so that a daemon that
# dies right after starting is noticed at once instead of at the deadline.
# (This script has no job control, so setsid execs in place and $! is the
# daemon itself.)
launch() {
  local dir=$1 name=$2; shift 2
  setsid "$@" </dev/null >>"$dir/log/$name.stdout.log" 2>&1 &
  echo $! >"$dir/run/$name.pid"
}

# Whether the process in a pid file that launch() wrote is still there (no
# command-line check: right after the fork it may not have exec'd yet).
alive() {
  local pid
  pid=$(tr -dc '0-9' <"$1" 2>/dev/null) && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}

# SIGTERM to every daemon at once (each takes ~2 s to exit: one after the
# other made `stop` three times slower), a bounded wait, then SIGKILL.
stop_daemons() {
  local dir=$1 name pid
  local -A pids=()
  for name in slurmd slurmctld munged; do
    pid=$(live_pid "$dir/run/$name.pid" "$dir") || continue
    pids[$name]=$pid
    kill -TERM "$pid" 2>/dev/null || true
  done
  local deadline=$((SECONDS + STOP_TIMEOUT_S)) alive
  while :; do
    alive=""
    for name in "${!pids[@]}"; do
      [ -d "/proc/${pids[$name]}" ] && alive+=" $name"
    done
    [ -n "$alive" ] || break
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "slurm-single-node:$alive ignored SIGTERM for ${STOP_TIMEOUT_S}s, killing" >&2
      for name in $alive; do kill -KILL "${pids[$name]}" 2>/dev/null || true; done
      sleep 0.5
      break
    fi
    sleep 0.1
  done
  rm -f "$dir/run/slurmd.pid" "$dir/run/slurmctld.pid" "$dir/run/munged.pid"
}

cmd_stop() {
  local dir=$1
  [ -d "$dir" ] || return 0          # nothing was ever started there
  dir=$(abs_dir "$dir")
  # Cancel what is still queued or running first: slurmstepd and the job
  # processes are not children of slurmd and would outlive it otherwise.
  if live_pid "$dir/run/slurmctld.pid" "$dir" >/dev/null && [ -f "$dir/slurm.conf" ]; then
    local jobs
    jobs=$(SLURM_CONF="$dir/slurm.conf" timeout 10 squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ' || true)
    if [ -n "${jobs// /}" ]; then
      # shellcheck disable=SC2086  # one job id per word
      SLURM_CONF="$dir/slurm.conf" timeout 10 scancel $jobs 2>/dev/null || true
      for _ in $(seq 1 $((STOP_TIMEOUT_S * 2))); do
        [ -z "$(SLURM_CONF="$dir/slurm.conf" timeout 5 squeue -h -o %A 2>/dev/null || true)" ] && break
        sleep 0.5
      done
    fi
  fi
  stop_daemons "$dir"
}

log_tails() {
  local dir=$1 f
  for f in "$dir"/log/*.log; do
    [ -s "$f" ] || continue   # skip empty ones
    echo "----- tail of $f -----" >&2
    tail -n 30 "$f" >&2
  done
}

fail() {
  local dir=$1; shift
  echo "slurm-single-node: $*" >&2
  log_tails "$dir"
  cmd_stop "$dir" || true
  exit 1
}

cmd_start() {
  local dir=$1
  [ -d "$dir" ] || { echo "slurm-single-node: $dir is not a directory" >&2; exit 2; }
  dir=$(abs_dir "$dir")
  if [ -n "$(ls -A "$dir")" ]; then
    echo "slurm-single-node: $dir is not empty (already started?)" >&2
    exit 2
  fi
  for tool in munged mungekey slurmctld slurmd sinfo; do
    command -v "$tool" >/dev/null 2>&1 || {
      echo "slurm-single-node: $tool not found; install slurm-wlm and munge" >&2; exit 1; }
  done
  [ "$(id -u)" -eq 0 ] || { echo "slurm-single-node: must run as root (SlurmUser=root)" >&2; exit 1; }
  # Interrupted half way: leave no daemon behind.
  trap 'fail "$dir" "interrupted"' INT TERM

  # munged refuses group/world-writable directories on its paths, and wants
  # execute-for-all on every directory above its socket (DIR and DIR/run):
  # the key stays private in DIR/munge.
  chmod 0711 "$dir"
  mkdir -m 0700 "$dir/munge" "$dir/log" "$dir/state" "$dir/spool"
  mkdir -m 0711 "$dir/run"

  # A fresh key per instance: nothing is shared with /etc/munge.
  mungekey --create --keyfile="$dir/munge/munge.key" >/dev/null 2>&1 \
    || fail "$dir" "mungekey could not create a key"
  chmod 0400 "$dir/munge/munge.key"
  launch "$dir" munged munged --foreground \
    --socket="$dir/run/munge.socket" \
    --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/run/munged.pid" \
    --log-file="$dir/log/munged.log" \
    --seed-file="$dir/munge/munged.seed"
  local deadline=$((SECONDS + START_TIMEOUT_S))
  until [ -S "$dir/run/munge.socket" ]; do
    alive "$dir/run/munged.pid" || fail "$dir" "munged exited"
    [ "$SECONDS" -lt "$deadline" ] || fail "$dir" "munged made no socket in ${START_TIMEOUT_S}s"
    sleep 0.1
  done

  local ctld_port slurmd_port host cpus
  ctld_port=$(free_port) || fail "$dir" "no free port"
  slurmd_port=$(free_port "$ctld_port") || fail "$dir" "no free port"
  # slurmctld only runs on a host named in SlurmctldHost; the address in
  # parentheses keeps clients and slurmd talking over 127.0.0.1.
  host=$(hostname -s)
  cpus=$(nproc)
  # The No*InAddrAny options make the daemons bind to what gethostname()
  # resolves to, not to the addresses in this file: use them only where that
  # is loopback, else the daemons would listen on a LAN address that clients
  # (talking to 127.0.0.1) never reach. Without them they listen on every
  # interface, still with a fresh munge key nobody else has.
  local comm_params="# Hostname is not loopback here: listening on every interface."
  case $(getent ahostsv4 "$(hostname)" 2>/dev/null | awk 'NR==1{print $1}') in
    127.*) comm_params="# Listen on 127.0.0.1 only (the hostname resolves to it).
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny" ;;
  esac

  # Slurm looks for plugstack.conf (and cgroup.conf) next to slurm.conf unless
  # told otherwise; an empty one keeps /etc/slurm/plugstack.conf out of it.
  : >"$dir/plugstack.conf"
  cat >"$dir/slurm.conf" <<EOF
# Generated by tests/support/slurm-single-node.sh: a throwaway single-node cluster.
ClusterName=cs$$
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
$comm_params
SlurmUser=root
SlurmdUser=root
# Tests submit as root; this is the default, spelled out.
DisableRootJobs=NO
MailProg=/bin/true
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/run/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
PlugStackConfig=$dir/plugstack.conf
# No cgroups: this usually runs in a container.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MinJobAge=300
# Schedule on every submit/completion instead of batching: halves the time an
# array with a %N throttle takes to drain.
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
ReturnToService=2
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 NodeHostname=$host CPUs=$cpus State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

  export SLURM_CONF="$dir/slurm.conf"
  # -i: ignore any saved state (there is none; DIR is fresh).
  launch "$dir" slurmctld slurmctld -D -i -f "$dir/slurm.conf"
  launch "$dir" slurmd slurmd -D -f "$dir/slurm.conf" -N localhost

  # Same deadline as munged's; checked by time, not by count, because sinfo
  # itself can block while slurmctld starts.
  local state=""
  while [ "$SECONDS" -lt "$deadline" ]; do
    state=$(timeout 5 sinfo -h -n localhost -o %T 2>/dev/null || true)
    [ "$state" = idle ] && break
    alive "$dir/run/slurmctld.pid" || fail "$dir" "slurmctld exited"
    alive "$dir/run/slurmd.pid" || fail "$dir" "slurmd exited"
    sleep 0.5
  done
  [ "$state" = idle ] || fail "$dir" "node not idle after ${START_TIMEOUT_S}s (state: ${state:-unknown})"
  echo "SLURM_CONF=$dir/slurm.conf"
}

[ $# -eq 2 ] || usage
case $1 in
  start) cmd_start "$2" ;;
  stop) cmd_stop "$2" ;;
  *) usage ;;
esac
