#!/usr/bin/env bash
# A real single-node SLURM cluster on this machine, for trying steb-lib's cluster path (`--executor slurm`,
# `steb status`) and for the sweep tests (tests/test_slurm_cluster.py): Debian's Slurm with munge, slurmdbd and
# MariaDB (submitit reads job states from accounting: without it a cancelled job never finishes), every file under
# one throw-away directory, every daemon started here in its foreground mode and stopped by the PID recorded here once
# its start time and command line prove it is the process started here (a stale PID file never ends another one).
#
#   bash scripts/local_slurm.sh start    # installs the packages if missing (root or sudo), starts, waits until idle
#   source "$STEB_SLURM_DIR/env"          # SLURM_CONF for every client and job (default dir: /tmp/steb-slurm)
#   bash scripts/local_slurm.sh status   # each daemon, the node, the accounting
#   bash scripts/local_slurm.sh stop     # cancels the jobs, ends exactly the processes it started; safe twice
#
# Measured facts behind each setting: ../shared/SLURM-LOCAL.md (Slurm 22.05, Debian bookworm, no systemd).
set -euo pipefail

DIR=${STEB_SLURM_DIR:-/tmp/steb-slurm}
CONF=$DIR/etc/slurm.conf
SOCK=$DIR/sock/munge.socket
DB_SOCK=$DIR/sock/mysql.sock
PORTS="6817 6818 6819 13306"                          # slurmctld, slurmd, slurmdbd, MariaDB
STOP_ORDER="slurmd slurmctld slurmdbd mariadbd munged"
PACKAGES="slurm-wlm munge slurmdbd mariadb-server"

die() { echo "local_slurm: $*" >&2; exit 1; }
say() { echo "local_slurm: $*"; }

install_packages() {
    local missing=""
    for cmd in slurmctld slurmd slurmdbd munged mariadbd sbatch sacct; do command -v "$cmd" >/dev/null || missing=1; done
    [ -z "$missing" ] && return 0
    local sudo=""
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null && sudo -n true 2>/dev/null || die "needs root or sudo to install $PACKAGES"
        sudo=sudo
    fi
    say "installing $PACKAGES (about 40 s)"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $PACKAGES >/dev/null
}

alive() {   # a PID that runs and is no zombie (PID 1 here reaps late)
    [ -n "${1:-}" ] && [ -r "/proc/$1/stat" ] && [ "$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null)" != Z ]
}

start_time() {   # clock ticks from boot to the start of PID $1: with the PID, one process of this boot
    sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{print $20}'
}

daemon_pid() {   # the PID recorded for daemon $1, only while it is the very process started here: the same start
    local pid="" started="" program=""   # time and its program in the command line (a reused PID is not it)
    read -r pid started program <"$DIR/run/$1.pid" 2>/dev/null || true
    [ -n "$pid" ] && [ -n "$program" ] && [ "$(start_time "$pid")" = "$started" ] || return 0
    tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -qw -- "$program" && echo "$pid"
    return 0
}

any_running() {
    for d in $STOP_ORDER; do alive "$(daemon_pid "$d")" && return 0; done
    return 1
}

port_taken() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

start_daemon() {   # name, command...: detached in its own session; its PID, start time and program recorded
    local name=$1; shift
    setsid "$@" >"$DIR/log/$name.out" 2>&1 </dev/null &
    echo "$! $(start_time $!) $(basename "$1")" >"$DIR/run/$name.pid"
}

wait_for() {   # what, seconds, command...: until the command succeeds, or die naming the log to read
    local what=$1 seconds=$2; shift 2
    local end=$((SECONDS + seconds))
    until "$@" >/dev/null 2>&1; do
        [ $SECONDS -lt $end ] || die "$what did not come up in ${seconds} s; see $DIR/log/"
        sleep 0.3
    done
}

node_line() {   # `slurmd -C`'s node line with RealMemory at 85% of MemTotal (a higher value drains the node)
    local mem_mb line
    mem_mb=$(awk '/MemTotal/ {printf "%d", $2 / 1024 * 0.85}' /proc/meminfo)
    line=$(slurmd -C 2>/dev/null | head -1)
    echo "$line" | sed -E "s/RealMemory=[0-9]+/RealMemory=$mem_mb/"
}

write_configs() {
    local host
    host=$(hostname -s)
    cat >"$DIR/etc/slurmdbd.conf" <<EOF
AuthType=auth/munge
AuthInfo=socket=$SOCK
DbdAddr=127.0.0.1
DbdHost=localhost
DbdPort=6819
SlurmUser=root
LogFile=$DIR/log/slurmdbd.log
PidFile=$DIR/run/slurmdbd.own.pid
StorageType=accounting_storage/mysql
StorageHost=127.0.0.1
StoragePort=13306
StorageUser=slurm
StoragePass=steb-local-slurm
StorageLoc=slurm_acct_db
EOF
    chmod 600 "$DIR/etc/slurmdbd.conf"
    cat >"$CONF" <<EOF
# written by scripts/local_slurm.sh: a single-node cluster for trying steb-lib's cluster path
ClusterName=steb-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$SOCK
AccountingStorageType=accounting_storage/slurmdbd
AccountingStorageHost=127.0.0.1
AccountingStoragePort=6819
AccountingStoragePass=$SOCK
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=1000
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
MailProg=/bin/true
ReturnToService=2
MinJobAge=300
KillWait=5
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$DIR/state
SlurmdSpoolDir=$DIR/spool
SlurmctldPidFile=$DIR/run/slurmctld.own.pid
SlurmdPidFile=$DIR/run/slurmd.own.pid
SlurmctldLogFile=$DIR/log/slurmctld.log
SlurmdLogFile=$DIR/log/slurmd.log
$(node_line) NodeAddr=127.0.0.1 State=UNKNOWN
PartitionName=local Nodes=ALL Default=YES MaxTime=INFINITE State=UP
EOF
    echo "export SLURM_CONF=$CONF" >"$DIR/env"
}

start() {
    install_packages
    if any_running; then die "a cluster started from $DIR is still running: run 'bash $0 stop' first"; fi
    for p in $PORTS; do
        port_taken "$p" && die "port $p is taken (another Slurm or MariaDB?): stop it, or run this on another machine"
    done
    rm -rf "$DIR"
    mkdir -p "$DIR"/{etc,run,log,munge,mysql,state,spool,sock}
    chmod 711 "$DIR/sock"                                         # munged refuses a socket directory others write
    export SLURM_CONF=$CONF

    mungekey --create --keyfile="$DIR/munge/munge.key" >/dev/null 2>&1 || die "mungekey failed"
    chmod 600 "$DIR/munge/munge.key"
    start_daemon munged munged --foreground --force --key-file="$DIR/munge/munge.key" --socket="$SOCK" \
        --pid-file="$DIR/run/munged.own.pid" --log-file="$DIR/log/munged.log" --seed-file="$DIR/munge/seed"
    wait_for munge 15 bash -c "munge -S '$SOCK' -n | unmunge -S '$SOCK'"

    mariadb-install-db --no-defaults --datadir="$DIR/mysql" --user=root --auth-root-authentication-method=socket \
        --skip-test-db >"$DIR/log/mariadb-install.log" 2>&1 || die "mariadb-install-db failed; see $DIR/log/"
    start_daemon mariadbd mariadbd --no-defaults --datadir="$DIR/mysql" --socket="$DB_SOCK" --port=13306 \
        --bind-address=127.0.0.1 --user=root --pid-file="$DIR/run/mariadbd.own.pid" --log-error="$DIR/log/mariadb.log"
    wait_for MariaDB 30 mariadb --no-defaults -S "$DB_SOCK" -e "SELECT 1"
    mariadb --no-defaults -S "$DB_SOCK" -e "CREATE USER 'slurm'@'127.0.0.1' IDENTIFIED BY 'steb-local-slurm';
        GRANT ALL ON slurm_acct_db.* TO 'slurm'@'127.0.0.1'; FLUSH PRIVILEGES;"

    write_configs
    start_daemon slurmdbd slurmdbd -D
    wait_for slurmdbd 30 sacctmgr -n show cluster
    start_daemon slurmctld slurmctld -D -f "$CONF"
    wait_for "the cluster's accounting" 30 bash -c "sacctmgr -n -P show cluster format=cluster | grep -qx steb-local"
    start_daemon slurmd slurmd -D -f "$CONF"
    wait_for "an idle node" 30 bash -c "sinfo -h -o %T | grep -qx idle"
    say "up: $(sinfo -h -o '%P %D node, %c CPUs, %m MB, %T' | head -1); Slurm $(sinfo -V | awk '{print $2}')"
    say "clients and jobs need: source $DIR/env   (export SLURM_CONF=$CONF)"
}

own_job_processes() {   # what this cluster's jobs left: step daemons, job scripts and their children
    local env
    for proc in /proc/[0-9]*; do
        env=$( { tr '\0' '\n' <"$proc/environ"; } 2>/dev/null) || continue
        grep -qx "SLURM_CONF=$CONF" <<<"$env" || continue
        # a job's processes carry SLURM_JOB_ID; a step daemon is named so (a shell that sourced env is neither)
        if grep -q "^SLURM_JOB_ID=" <<<"$env" || [ "$(cat "$proc/comm" 2>/dev/null)" = slurmstepd ]; then
            echo "${proc#/proc/}"
        fi
    done
    return 0
}

stop() {
    if ! any_running; then say "nothing of $DIR is running"; rm -f "$DIR"/run/*.pid; return 0; fi
    export SLURM_CONF=$CONF
    if alive "$(daemon_pid slurmctld)"; then                       # no job left behind
        scancel -u "$(id -un)" 2>/dev/null || true
        local end=$((SECONDS + 15))
        while [ -n "$(squeue -h 2>/dev/null)" ] && [ $SECONDS -lt $end ]; do sleep 0.5; done
    fi
    local leftovers
    for d in $STOP_ORDER; do
        local pid
        pid=$(daemon_pid "$d")
        alive "$pid" || continue
        kill "$pid" 2>/dev/null || true
        local end=$((SECONDS + 10))
        while alive "$pid" && [ $SECONDS -lt $end ]; do sleep 0.2; done
        alive "$pid" && kill -9 "$pid" 2>/dev/null || true
    done
    leftovers=$(own_job_processes)   # a job that outlived scancel (its step daemon gone): none may stay
    for pid in $leftovers; do alive "$pid" && kill -9 "$pid" 2>/dev/null || true; done
    rm -f "$DIR"/run/*.pid
    any_running && die "a daemon of $DIR would not stop"
    say "stopped (files kept in $DIR; start removes them)"
}

status() {
    local up=0
    for d in munged mariadbd slurmdbd slurmctld slurmd; do
        if alive "$(daemon_pid "$d")"; then echo "$d: running (pid $(daemon_pid "$d"))"; up=$((up + 1))
        else echo "$d: not running"; fi
    done
    if [ $up = 5 ]; then
        export SLURM_CONF=$CONF
        echo "node: $(sinfo -h -o '%N %T' | head -1)"
        echo "accounting: $(sacctmgr -n -P show cluster format=cluster 2>/dev/null | head -1)"
        echo "clients and jobs need: source $DIR/env"
    fi
    [ $up = 5 ]
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    status) status ;;
    *) echo "usage: bash $0 start|stop|status   (STEB_SLURM_DIR: where; default /tmp/steb-slurm)" >&2; exit 2 ;;
esac
