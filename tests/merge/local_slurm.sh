# tests/merge/local_slurm.sh — a throw-away one-node Slurm cluster on this machine, for tests.
#
# Sourced, not run. Everything the cluster owns lives in one folder: the munge key, socket and
# PID file, slurm.conf, the controller's state, slurmd's spool, the daemons' logs and PID files.
# Nothing under /etc or /run is touched, so it coexists with a site's real Slurm and munge, and
# `local_slurm_stop` stops exactly the daemons `local_slurm_start` started (by PID file, never by
# name) plus any job process still carrying this cluster's SLURM_CONF.
#
#   local_slurm_install          installs slurm-wlm and munge with apt-get when missing (root);
#                                returns 77 when they cannot be installed or
#                                GPUBENCH_NO_SLURM_INSTALL is set (./scripts/test announces it)
#   local_slurm_start DIR        starts munged, slurmctld and slurmd in DIR (an empty folder whose
#                                parents all others may search: munged checks its socket path) and
#                                waits until the node is idle; exports SLURM_CONF
#   local_slurm_stop DIR         cancels every job, stops the daemons, sweeps leftovers
#
# Manual use:  . tests/merge/local_slurm.sh; d=$(mktemp -d); local_slurm_start "$d"; sinfo; ...;
#              local_slurm_stop "$d"

LOCAL_SLURM_COMMANDS="munged mungekey slurmctld slurmd sbatch squeue scontrol scancel sinfo"

# Prints a message on stderr, prefixed so it stands out in CTest's output.
local_slurm_say() { printf 'local-slurm: %s\n' "$*" >&2; }

# True when every command the cluster needs is on PATH (munged and slurm* live in /usr/sbin).
local_slurm_have_all() {
  local c
  for c in $LOCAL_SLURM_COMMANDS; do
    PATH="$PATH:/usr/sbin:/sbin" command -v "$c" >/dev/null 2>&1 || return 1
  done
}

# Installs Debian's slurm-wlm and munge when a command is missing. Returns 0 when everything is
# there, 77 when it cannot be (not root, no apt-get, no network/mirror): the caller skips.
local_slurm_install() {
  export PATH="$PATH:/usr/sbin:/sbin"
  local_slurm_have_all && return 0
  if [ -n "${GPUBENCH_NO_SLURM_INSTALL:-}" ]; then
    local_slurm_say "slurm-wlm/munge missing; GPUBENCH_NO_SLURM_INSTALL is set, so not installing them"
    return 77
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    local_slurm_say "slurm-wlm/munge missing and cannot be installed here (needs root and apt-get)"
    return 77
  fi
  # Package scripts must not start the distribution's own munged/slurmd/slurmctld: those would
  # be daemons nobody stops. Docker-style images ship a policy-rc.d that forbids it; when there is
  # none, put one in place for the duration of the install only.
  local made_policy=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# gpubench test: no service starts during apt-get\nexit 101\n' \
      >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && made_policy=1
  fi
  # Wait for a dpkg lock held by another install rather than fail (and skip) at once.
  local rc=0 pkgs="slurm-wlm munge"
  local apt=(env DEBIAN_FRONTEND=noninteractive timeout 900 apt-get -q -o DPkg::Lock::Timeout=600)
  local_slurm_say "installing $pkgs with apt-get"
  if ! "${apt[@]}" install -y --no-install-recommends $pkgs >/dev/null 2>&1; then
    # A fresh machine often has no package lists yet.
    "${apt[@]}" update >/dev/null 2>&1
    "${apt[@]}" install -y --no-install-recommends $pkgs >/dev/null 2>&1 || rc=77
  fi
  [ -n "$made_policy" ] && rm -f /usr/sbin/policy-rc.d
  if [ "$rc" != 0 ] || ! local_slurm_have_all; then
    local_slurm_say "apt-get could not install $pkgs"
    return 77
  fi
  return 0
}

# Prints a TCP port no socket listens on (read from /proc/net/tcp*), starting at a random point
# so that two clusters started at once (two build trees testing in parallel) do not collide.
local_slurm_free_port() {
  local used p _ addr st
  used=" "
  while read -r _ addr _ st _; do
    [ "$st" = 0A ] && used="$used$((16#${addr##*:})) "
  done < <(tail -q -n +2 /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  p=$((20000 + RANDOM % 30000))
  while [[ "$used" == *" $p "* || "$used" == *" $((p + 1)) "* ]]; do p=$((p + 2)); done
  echo "$p"
}

# True when PID file $1 names a live process whose command name is $2 (guards against a PID that
# was reused by an unrelated process after our daemon died).
local_slurm_pid_alive() {
  local pid
  pid=$(cat "$1" 2>/dev/null) || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] || return 1
  [ "$(cat "/proc/$pid/comm" 2>/dev/null)" = "$2" ]
}

# Waits up to $2 seconds for command $1 (a string, eval'd) to succeed.
local_slurm_wait_for() {
  local i
  for ((i = 0; i < $2 * 4; i++)); do
    eval "$1" && return 0
    sleep 0.25
  done
  return 1
}

# Starts munged, slurmctld and slurmd with everything in folder $1; exports SLURM_CONF. On
# failure prints the daemons' logs and returns 1 (the caller's EXIT trap runs local_slurm_stop).
local_slurm_start() {
  local d=$1 node_line node ctld_port slurmd_port
  export PATH="$PATH:/usr/sbin:/sbin"
  # munged insists that every folder above its socket be searchable by all, and its key private.
  chmod 755 "$d" || return 1
  mkdir -p "$d/munge" "$d/munge-key" "$d/state" "$d/spool" "$d/log" || return 1
  chmod 755 "$d/munge" && chmod 700 "$d/munge-key" "$d/state" || return 1
  mungekey --create --keyfile="$d/munge-key/munge.key" >/dev/null 2>&1 ||
    dd if=/dev/urandom of="$d/munge-key/munge.key" bs=1024 count=1 status=none || return 1
  chmod 600 "$d/munge-key/munge.key"
  munged --socket="$d/munge/munge.sock" --key-file="$d/munge-key/munge.key" \
    --pid-file="$d/munge/munged.pid" --log-file="$d/log/munged.log" \
    --seed-file="$d/munge-key/munged.seed" || {
    local_slurm_say "munged did not start:"; cat "$d/log/munged.log" >&2; return 1
  }
  local_slurm_wait_for "[ -S '$d/munge/munge.sock' ]" 10 || {
    local_slurm_say "munged made no socket"; return 1
  }

  # The node exactly as slurmd sees this machine (name, CPUs, sockets, cores, memory), so that
  # slurmd does not drain itself over a mismatch.
  node_line=$(slurmd -C 2>/dev/null | head -n 1)
  node=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<<"$node_line")
  [ -n "$node" ] || { local_slurm_say "slurmd -C printed no node line"; return 1; }
  ctld_port=$(local_slurm_free_port)
  slurmd_port=$((ctld_port + 1))
  cat >"$d/slurm.conf" <<EOF
# A one-node cluster for gpubench's tests, written by tests/merge/local_slurm.sh.
ClusterName=gpubenchtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge/munge.sock
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
# No cgroups: processes are tracked through /proc, which works in any container.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
KillWait=5
MinJobAge=600
$node_line NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=test Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF="$d/slurm.conf"
  slurmctld -f "$SLURM_CONF" || {
    local_slurm_say "slurmctld did not start"; local_slurm_logs "$d"; return 1
  }
  local_slurm_wait_for "local_slurm_pid_alive '$d/slurmctld.pid' slurmctld" 20 || {
    local_slurm_say "slurmctld wrote no PID file"; local_slurm_logs "$d"; return 1
  }
  slurmd -f "$SLURM_CONF" -N "$node" || {
    local_slurm_say "slurmd did not start"; local_slurm_logs "$d"; return 1
  }
  local_slurm_wait_for "local_slurm_pid_alive '$d/slurmd.pid' slurmd" 20 || {
    local_slurm_say "slurmd wrote no PID file"; local_slurm_logs "$d"; return 1
  }
  local_slurm_wait_for "sinfo -h -N -o %T 2>/dev/null | grep -qx idle" 60 || {
    local_slurm_say "node $node never became idle: $(sinfo -h -N -o '%T %E' 2>&1)"
    local_slurm_logs "$d"; return 1
  }
  local_slurm_say "cluster up: node $node, slurmctld port $ctld_port, folder $d"
}

# Prints the tails of the daemons' logs on stderr (for a failed test's output).
local_slurm_logs() {
  local f
  for f in "$1"/log/*.log; do
    [ -f "$f" ] || continue
    printf -- '--- %s (last 20 lines)\n' "$f" >&2
    tail -n 20 "$f" >&2
  done
}

# Stops the daemon of PID file $1 (command name $2): SIGTERM, up to 10 s, then SIGKILL.
local_slurm_stop_pidfile() {
  local_slurm_pid_alive "$1" "$2" || return 0
  local pid
  pid=$(cat "$1")
  kill -TERM "$pid" 2>/dev/null
  local_slurm_wait_for "! kill -0 $pid 2>/dev/null" 10 && return 0
  kill -KILL "$pid" 2>/dev/null
}

# True when process $1 descends from process $2 (its parent chain reaches $2).
local_slurm_descends() {
  local p=$1 i
  for ((i = 0; i < 64 && p > 1; i++)); do
    p=$(sed -n 's/^PPid:[[:space:]]*//p' "/proc/$p/status" 2>/dev/null)
    [ -n "$p" ] || return 1
    [ "$p" = "$2" ] && return 0
  done
  return 1
}

# Prints the PIDs of processes whose environment holds SLURM_CONF=$1: the job steps and job
# scripts of this cluster only (they inherit it from sbatch and slurmd), never anyone else's.
# The caller's own children (a pipeline reading this output) carry it too and are left out;
# the daemons are not among them, as they detach from the shell that started them.
local_slurm_own_pids() {
  local p want="SLURM_CONF=$1"
  for p in /proc/[0-9]*; do
    p=${p#/proc/}
    [ "$p" = "$$" ] && continue
    { tr '\0' '\n' <"/proc/$p/environ" | grep -qxF "$want"; } 2>/dev/null || continue
    local_slurm_descends "$p" "$$" || echo "$p"
  done
}

# Stops everything local_slurm_start started in folder $1. Safe to call twice, or after a
# partial start.
local_slurm_stop() {
  local d=$1 pids
  export PATH="$PATH:/usr/sbin:/sbin"
  [ -f "$d/slurm.conf" ] && local_slurm_pid_alive "$d/slurmctld.pid" slurmctld &&
    SLURM_CONF="$d/slurm.conf" timeout 20 scancel --user="$(id -un)" 2>/dev/null
  local_slurm_wait_for \
    "[ -z \"\$(SLURM_CONF='$d/slurm.conf' timeout 5 squeue -h 2>/dev/null)\" ]" 15 || true
  local_slurm_stop_pidfile "$d/slurmd.pid" slurmd
  local_slurm_stop_pidfile "$d/slurmctld.pid" slurmctld
  # Whatever survived (a slurmstepd or job step orphaned by a killed slurmd) carries our
  # SLURM_CONF in its environment; nothing else does.
  pids=$(local_slurm_own_pids "$d/slurm.conf")
  if [ -n "$pids" ]; then
    kill -TERM $pids 2>/dev/null
    sleep 1
    pids=$(local_slurm_own_pids "$d/slurm.conf")
    [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
  fi
  local_slurm_stop_pidfile "$d/munge/munged.pid" munged
  return 0
}
