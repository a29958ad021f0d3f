#!/usr/bin/env python3
"""A private single-node SLURM cluster in a folder of its own, for the slurm test.

munged, slurmctld and slurmd run as this process's children with a generated slurm.conf, and
everything they keep (munge key and socket, state, spool, logs, pid files) lives in that folder;
the ports are free ones picked at start. Nothing of the machine's own SLURM or munge is used or
touched: clients find the private cluster through SLURM_CONF (PrivateSlurm.env), and the conf's
AuthInfo=socket= points every SLURM component, clients included, at the private munged (libmunge
has no environment variable for its socket).

stop() kills exactly what start() started: it cancels the cluster's jobs, then ends each daemon it
started by its pid, then any slurmstepd of this cluster that outlived them (told by SLURM_CONF in
its environment, which it inherits from the private slurmd). Used as a context manager, it stops
on an error and on SIGTERM too; and the daemons die with this process even when it is killed
with -9 (PR_SET_PDEATHSIG), so a test killed by ctest's timeout leaves no daemon behind (a job
running then is left to end by itself).

Usage: private_slurm.py DIR [COMMAND...]  starts a cluster in DIR (made, must be empty), runs
COMMAND (default: a shell) with SLURM_CONF set, then stops the cluster.
"""
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

DAEMONS = ("munged", "slurmctld", "slurmd")
CLIENTS = ("sbatch", "squeue", "scancel", "scontrol", "sinfo")
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def missing_programs():
    """The daemons and clients needed that are not installed (scripts/setup.sh installs them)."""
    return [p for p in DAEMONS + CLIENTS if not shutil.which(p)]


def _die_with_parent():
    # Runs in the child between fork and exec: SIGKILL when the process that started it dies.
    ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _exit_on_signal(signum, _frame):
    sys.exit(128 + signum)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PrivateSlurm:
    def __init__(self, folder, start_timeout_s=30):
        self.dir = os.path.abspath(folder)
        self.start_timeout_s = start_timeout_s
        self.node = socket.gethostname().split(".")[0]  # what `hostname -s` says: slurmd's name
        self.conf = os.path.join(self.dir, "slurm.conf")
        self.munge_socket = os.path.join(self.dir, "munge", "munge.socket")
        self.log_dir = os.path.join(self.dir, "log")
        self.state_dir = os.path.join(self.dir, "state")
        self.spool_dir = os.path.join(self.dir, "spool")
        self.partition = "gpulab"
        self.env = dict(os.environ, SLURM_CONF=self.conf)
        # A client's choice of partition, account or cluster must not come from the caller's.
        for k in list(self.env):
            if k.startswith(("SLURM_", "SBATCH_", "SQUEUE_", "SCANCEL_")) and k != "SLURM_CONF":
                del self.env[k]
        self.procs = {}  # daemon name -> Popen, in the order started

    # ---- starting

    def __enter__(self):
        # SIGTERM (a test runner giving up, kill) unwinds through __exit__ like an error, so the
        # jobs are cancelled too; SIGKILL still takes the daemons (PR_SET_PDEATHSIG).
        if signal.getsignal(signal.SIGTERM) == signal.SIG_DFL:
            signal.signal(signal.SIGTERM, _exit_on_signal)
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc):
        self.stop()

    def start(self):
        os.makedirs(self.dir, exist_ok=True)
        if os.listdir(self.dir):
            raise RuntimeError("private_slurm: %s is not empty" % self.dir)
        os.chmod(self.dir, 0o700)
        for d in (os.path.dirname(self.munge_socket), self.log_dir, self.state_dir,
                  self.spool_dir):
            os.makedirs(d, mode=0o700)
        self._start_munged()
        self._write_conf()
        self._spawn("slurmctld", ["slurmctld", "-D", "-f", self.conf])
        self._spawn("slurmd", ["slurmd", "-D", "-f", self.conf, "-N", self.node])
        self._wait_idle()

    def _spawn(self, name, argv):
        log = open(os.path.join(self.log_dir, name + ".out"), "wb")
        self.procs[name] = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=log,
                                            stderr=subprocess.STDOUT, env=self.env,
                                            preexec_fn=_die_with_parent)
        log.close()

    def _start_munged(self):
        munge_dir = os.path.dirname(self.munge_socket)
        key = os.path.join(munge_dir, "munge.key")
        fd = os.open(key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        os.write(fd, os.urandom(1024))
        os.close(fd)
        self._spawn("munged", [
            "munged", "--foreground", "--force", "--socket=" + self.munge_socket,
            "--key-file=" + key, "--pid-file=" + os.path.join(munge_dir, "munged.pid"),
            "--seed-file=" + os.path.join(munge_dir, "munged.seed"),
            "--log-file=" + os.path.join(self.log_dir, "munged.log"), "--num-threads=2"
        ])
        self._wait_for(lambda: os.path.exists(self.munge_socket), "munged's socket")

    def _write_conf(self):
        user = "root" if os.geteuid() == 0 else os.environ.get("USER", str(os.geteuid()))
        d = self.dir
        lines = [
            "ClusterName=gpulab-test",
            "SlurmctldHost=%s(127.0.0.1)" % self.node,
            "SlurmctldPort=%d" % _free_port(),
            "SlurmdPort=%d" % _free_port(),
            "SlurmUser=" + user,
            "SlurmdUser=" + user,
            "AuthType=auth/munge",
            "CredType=cred/munge",
            "AuthInfo=socket=" + self.munge_socket,
            "StateSaveLocation=" + self.state_dir,
            "SlurmdSpoolDir=" + self.spool_dir,
            "SlurmctldPidFile=" + os.path.join(d, "slurmctld.pid"),
            "SlurmdPidFile=" + os.path.join(d, "slurmd.pid"),
            "SlurmctldLogFile=" + os.path.join(self.log_dir, "slurmctld.log"),
            "SlurmdLogFile=" + os.path.join(self.log_dir, "slurmd.log"),
            "PlugStackConfig=" + os.path.join(d, "plugstack.conf"),
            "ProctrackType=proctrack/linuxproc",
            "TaskPlugin=task/none",
            "SelectType=select/cons_tres",
            "SelectTypeParameters=CR_Core",
            "JobAcctGatherType=jobacct_gather/none",
            "AccountingStorageType=accounting_storage/none",
            "JobCompType=jobcomp/none",
            "MpiDefault=none",
            "MailProg=/bin/true",
            "ReturnToService=2",
            "NodeName=%s NodeAddr=127.0.0.1 CPUs=%d State=UNKNOWN" % (self.node, os.cpu_count()),
            "PartitionName=%s Nodes=%s Default=YES MaxTime=INFINITE State=UP" %
            (self.partition, self.node),
        ]
        with open(os.path.join(d, "plugstack.conf"), "w"):
            pass
        with open(self.conf, "w") as f:
            f.write("# gpulab's private test cluster (tests/slurm/private_slurm.py)\n")
            f.write("\n".join(lines) + "\n")

    def _wait_for(self, ready, what):
        deadline = time.monotonic() + self.start_timeout_s
        while not ready():
            for name, p in self.procs.items():
                if p.poll() is not None:
                    raise RuntimeError("private_slurm: %s exited (%s) before %s was ready\n%s" %
                                       (name, p.returncode, what, self.logs()))
            if time.monotonic() > deadline:
                raise RuntimeError("private_slurm: %s not ready after %ss\n%s" %
                                   (what, self.start_timeout_s, self.logs()))
            time.sleep(0.1)

    def _wait_idle(self):
        def idle():
            r = self.client(["sinfo", "-h", "-n", self.node, "-o", "%t"], check=False)
            return r.returncode == 0 and r.stdout.strip() == "idle"
        self._wait_for(idle, "node %s idle in sinfo" % self.node)

    # ---- using

    def client(self, argv, check=True, timeout=30):
        """Runs a SLURM client (sbatch, squeue...) against this cluster; its CompletedProcess."""
        r = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=timeout)
        if check and r.returncode != 0:
            raise RuntimeError("%s exited %d: %s" % (" ".join(argv), r.returncode, r.stderr))
        return r

    def job_ids(self):
        """The ids of the jobs queued or running, an array's tasks each by its own id."""
        r = self.client(["squeue", "-h", "-r", "-o", "%A"], check=False)
        return r.stdout.split() if r.returncode == 0 else []

    def logs(self):
        """The tail of each daemon's log, for a failure's message."""
        out = []
        for f in sorted(os.listdir(self.log_dir)) if os.path.isdir(self.log_dir) else []:
            with open(os.path.join(self.log_dir, f), errors="replace") as log:
                tail = log.read()[-2000:]
            out.append("---- %s\n%s" % (f, tail))
        return "\n".join(out)

    # ---- stopping

    def stop(self, wait_jobs_s=15):
        if not self.procs:
            return
        ctld = self.procs.get("slurmctld")
        if ctld and ctld.poll() is None and shutil.which("scancel"):
            try:
                ids = self.job_ids()
                if ids:
                    self.client(["scancel", "--quiet"] + ids, check=False, timeout=10)
                deadline = time.monotonic() + wait_jobs_s
                while self.job_ids() and time.monotonic() < deadline:
                    time.sleep(0.2)
            except (subprocess.SubprocessError, OSError):
                pass  # the daemons are ended below whatever happened here
        for name in reversed(list(self.procs)):
            self._end(self.procs[name])
        self.procs = {}
        for pid in self._own_stepds():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    @staticmethod
    def _end(proc):
        if proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()

    def _own_stepds(self):
        """slurmstepd processes of this cluster: their environment names its slurm.conf."""
        marker = ("SLURM_CONF=" + self.conf).encode()
        pids = []
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % entry, "rb") as f:
                    if not f.read().startswith(b"slurmstepd"):
                        continue
                with open("/proc/%s/environ" % entry, "rb") as f:
                    if marker in f.read().split(b"\0"):
                        pids.append(int(entry))
            except OSError:
                continue
        return pids


def main(argv):
    if len(argv) < 2:
        sys.exit(__doc__)
    missing = missing_programs()
    if missing:
        sys.exit("private_slurm: not installed: %s (scripts/setup.sh installs slurm-wlm and munge)"
                 % ", ".join(missing))
    with PrivateSlurm(argv[1]) as cluster:
        print("private SLURM up: SLURM_CONF=%s" % cluster.conf, file=sys.stderr)
        return subprocess.call(argv[2:] or [os.environ.get("SHELL", "sh")], env=cluster.env)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
