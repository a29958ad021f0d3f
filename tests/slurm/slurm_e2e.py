#!/usr/bin/env python3
"""The slurm test: `gpulab grade-all --slurm` on a private single-node SLURM (private_slurm.py).

A small roster of one lab is graded on the CPU backend through `--slurm --wait`; one array task is
cancelled (scancel) while it grades. Then: its report says the scheduler stopped it and has no
score, `grade-all --status` lists it, a second submission while the first runs is refused, a rerun
submits only it, and the merged class.csv is the one a local `grade-all` of the same roster
writes, under the same seed. All the while, the hidden seed (given through the
environment, as an instructor would) must appear in no process's command line, in no `squeue` or
`scontrol show job -dd` output, no batch script, and no file of the cluster's (its saved state holds
each job's environment and script), nor in what gpulab prints.

Usage: slurm_e2e.py --gpulab BIN [--keep]
Exits 0 when every check passes, 1 naming each that failed, and 77 (ctest's SKIP_RETURN_CODE,
as the gpu tests) where SLURM or munge is not installed or it does not run as root (slurmd starts
each job as its user).
"""
import argparse
import json
import os
import secrets
import shutil
import stat
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
from private_slurm import PrivateSlurm, missing_programs  # noqa: E402

SKIP = 77
SOURCE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# The cheapest lab to grade on the CPU backend; one student's code does not build (a second's
# grading), the other's is correct, slow enough (some seconds) to be cancelled while it grades.
LAB = "coarsening"
ROSTER = {"alice": "compile-error", "bob": "alt-correct"}
KILLED = "bob"
EXIT_STOPPED = 3  # grader/os/exit_status.h: kExitStopped (some grading was stopped)
# Each grading's limit. Every wait of the test has one, and together they stay under the ctest's
# TIMEOUT (tests/CMakeLists.txt): the test always ends itself, stopping its cluster on the way;
# ctest's own kill would leave a running job's slurmstepd behind.
RUN_TIMEOUT_S = 120


class Checks:
    """Each failed check, said once (the watch below repeats its checks many times a second)."""

    def __init__(self):
        self.failed = []

    def __call__(self, ok, what):
        if not ok and what not in self.failed:
            self.failed.append(what)
            print("FAILED: " + what, file=sys.stderr)
        return ok


def make_roster(root):
    for student, submission in ROSTER.items():
        src = os.path.join(SOURCE, "tests", "submissions", LAB, submission)
        dst = os.path.join(root, student)
        os.makedirs(dst)
        for f in os.listdir(src):
            if f.endswith(".cu"):
                shutil.copy(os.path.join(src, f), dst)


def read_json(path):
    with open(path) as f:
        return json.load(f)


class SeedWatch:
    """Looks for the seed wherever another user could see it while jobs run: every process's
    command line, the jobs' environment, squeue, scontrol show job -dd and each job's batch
    script; and, after, in
    files (the cluster's saved state and spool, what grade-all wrote)."""

    def __init__(self, cluster, seed, check):
        self.cluster, self.seed, self.check = cluster, seed.encode(), check
        self.scripts_seen = set()
        self.last_queue_look = 0.0
        self.looked = {"cmdline": 0, "job_environ": 0, "squeue": 0, "scontrol": 0,
                       "batch_script": 0}

    def cmdlines(self):
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/cmdline" % pid, "rb") as f:
                    cmd = f.read()
            except OSError:
                continue
            self.looked["cmdline"] += 1
            self.check(self.seed not in cmd,
                       "the seed is on a command line: %s" % cmd.replace(b"\0", b" ")[:300])
            # A job's own environment (its `gpulab grade` children get the seed in theirs).
            if b"\0--slurm-task\0" in cmd or b"\0--merge\0" in cmd:
                try:
                    with open("/proc/%s/environ" % pid, "rb") as f:
                        environ = f.read()
                except OSError:
                    continue
                self.looked["job_environ"] += 1
                self.check(self.seed not in environ, "the seed is in a job's environment: %s" %
                           cmd.replace(b"\0", b" ")[:300])

    def queue(self, every_s=1.0):
        if time.monotonic() - self.last_queue_look < every_s:
            return
        self.last_queue_look = time.monotonic()
        c = self.cluster
        q = c.client(["squeue", "-h", "-r", "-o", "%all"], check=False)
        self.looked["squeue"] += q.stdout.count("\n")
        self.check(self.seed.decode() not in q.stdout + q.stderr, "the seed is in squeue's output")
        show = c.client(["scontrol", "show", "job", "-dd"], check=False)
        self.looked["scontrol"] += show.stdout.count("JobId=")
        self.check(self.seed.decode() not in show.stdout + show.stderr,
                   "the seed is in scontrol show job -dd")
        for job in c.job_ids():
            if job in self.scripts_seen:
                continue
            s = c.client(["scontrol", "write", "batch_script", job, "-"], check=False)
            if s.returncode == 0 and s.stdout:
                self.scripts_seen.add(job)
                self.looked["batch_script"] += 1
                self.check(self.seed.decode() not in s.stdout,
                           "the seed is in job %s's batch script" % job)

    def files(self, folder, skip=()):
        """Every file under `folder` but those in `skip`."""
        for d, _, names in os.walk(folder):
            for n in names:
                p = os.path.join(d, n)
                if p in skip or any(p.startswith(s + os.sep) for s in skip):
                    continue
                try:
                    with open(p, "rb") as f:
                        data = f.read()
                except OSError:
                    continue
                self.check(self.seed not in data, "the seed is in %s" % p)


def grade_all(gpulab, roster, out, extra):
    return [gpulab, "grade-all", "--roster", roster, "--out", out, "--labs", LAB, "--backend",
            "sim", "--no-time"] + extra


def run_slurm_grading(cluster, gpulab, roster, out, env, watch, check, kill=None):
    """`grade-all --slurm --wait`, watched for the seed; `kill`: the student whose array task to
    scancel once it grades. Returns (exit status, output)."""
    log_path = out + ".slurm-log-%d" % time.monotonic_ns()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            grade_all(gpulab, roster, out, ["--slurm", "--max-parallel", "2", "--wait"]),
            stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    killed = None
    while proc.poll() is None:
        if time.monotonic() > deadline:
            proc.kill()
            proc.wait()
            check(False, "grade-all --slurm --wait took over %ss" % RUN_TIMEOUT_S)
            break
        watch.cmdlines()
        watch.queue()
        running = os.path.join(out, LAB, kill or "", "running.json")
        if kill and not killed and os.path.exists(running):
            killed = read_json(running)  # written whole, through a rename
            array_job = killed["job"]  # running.json: the array's job id and the task's index
            task = "%s_%s" % (array_job, killed["task"])
            # While it grades, another submission of the class is refused, naming the job.
            again = subprocess.run(grade_all(gpulab, roster, out, ["--slurm"]), env=env,
                                   capture_output=True, text=True, timeout=30)
            said = again.stdout + again.stderr
            check(again.returncode != 0 and array_job in said and "scancel" in said,
                  "a second --slurm while the first runs is not refused naming job %s and "
                  "scancel (exit %d):\n%s" % (array_job, again.returncode, said))
            check(watch.seed.decode() not in said, "the refused grade-all prints the seed")
            cluster.client(["scancel", task])
            print("cancelled %s's task %s" % (kill, task))
        time.sleep(0.05)
    with open(log_path) as f:
        output = f.read()
    os.remove(log_path)
    print(output)
    check(watch.seed.decode() not in output, "grade-all --slurm prints the seed")
    if kill:
        check(killed is not None, "%s's running.json never appeared" % kill)
    return proc.returncode, output


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gpulab", required=True, help="the gpulab binary")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = ap.parse_args()
    missing = missing_programs()
    if missing:
        print("SKIPPED: not installed: %s (scripts/setup.sh installs slurm-wlm and munge)" %
              ", ".join(missing))
        return SKIP
    if os.geteuid() != 0:
        print("SKIPPED: the private cluster's slurmd runs as root, to start jobs as their user")
        return SKIP

    started = time.monotonic()
    check = Checks()
    tmp = tempfile.mkdtemp(prefix="gpulab-slurm-test-")
    try:
        roster, out, local = (os.path.join(tmp, n) for n in ("roster", "out", "local"))
        make_roster(roster)
        seed = "slurm-test-seed-" + secrets.token_hex(16)
        with PrivateSlurm(os.path.join(tmp, "cluster")) as cluster:
            print("cluster up in %.1fs" % (time.monotonic() - started))
            env = dict(cluster.env, GPULAB_HIDDEN_SEED=seed)
            watch = SeedWatch(cluster, seed, check)

            # 1. The class on the cluster, one task cancelled while it grades.
            status, _ = run_slurm_grading(cluster, args.gpulab, roster, out, env, watch, check,
                                          kill=KILLED)
            print("graded on the cluster, one task cancelled: %.1fs" % (time.monotonic() - started))
            check(status == EXIT_STOPPED,
                  "the first --slurm --wait exits %s, not %d (a task was stopped)" %
                  (status, EXIT_STOPPED))
            seed_file = os.path.join(out, "slurm", "hidden-seed")
            check(os.path.isfile(seed_file) and
                  stat.S_IMODE(os.stat(seed_file).st_mode) == 0o600,
                  "%s is missing or not mode 0600" % seed_file)
            student_dir = os.path.join(out, LAB, KILLED)
            report = read_json(os.path.join(student_dir, "report.json"))
            said = report.get("output", "") + report.get("grader_error", "")
            check(not report.get("scored") and "score" not in report,
                  "the stopped task's report has a score")
            check(report.get("stopped_by") == 15 and "scheduler" in said,
                  "the stopped task's report does not say the scheduler stopped it (SIGTERM): "
                  "stopped_by %s, %r" % (report.get("stopped_by"), said[:300]))
            check(read_json(os.path.join(student_dir, "grading.json")).get("outcome") != "graded",
                  "the stopped task's grading.json says graded")
            check(not os.path.exists(os.path.join(student_dir, "running.json")),
                  "the stopped task left its running.json")
            others = [s for s in ROSTER if s != KILLED]
            for s in others:
                check(read_json(os.path.join(out, LAB, s, "grading.json")).get("outcome") ==
                      "graded", "%s was not graded" % s)
            kept = {s: os.stat(os.path.join(out, LAB, s, "report.json")).st_mtime_ns
                    for s in others}
            with open(os.path.join(out, "class.csv")) as f:  # the merge job ran
                rows = [l for l in f.read().splitlines() if l.startswith(KILLED + ",")]
            check(len(rows) == 1 and "stopped" in rows[0],
                  "the merged class.csv does not show %s as stopped: %s" % (KILLED, rows))

            st = subprocess.run([args.gpulab, "grade-all", "--status", "--out", out],
                                capture_output=True, text=True, env=env, timeout=30)
            print(st.stdout + st.stderr)
            listed = [l for l in st.stdout.splitlines() if KILLED in l]
            check(st.returncode == 0 and len(listed) == 1 and "stopped" in listed[0],
                  "grade-all --status (exit %d) does not list %s as stopped" %
                  (st.returncode, KILLED))
            check(not any(s in st.stdout for s in others),
                  "grade-all --status lists a student-lab that is done")

            # 2. The rerun submits only the stopped one.
            status, _ = run_slurm_grading(cluster, args.gpulab, roster, out, env, watch, check)
            print("rerun on the cluster: %.1fs" % (time.monotonic() - started))
            check(status == 0, "the rerun exits %s, not 0" % status)
            plan = read_json(os.path.join(out, "slurm", "plan.json"))
            planned = [(j.get("lab"), j.get("student")) for j in plan.get("todo", [])]
            check(planned == [(LAB, KILLED)],
                  "the rerun's plan.json grades %s, not only %s" % (planned, KILLED))
            for s in others:
                check(os.stat(os.path.join(out, LAB, s, "report.json")).st_mtime_ns == kept[s],
                      "the rerun graded %s again" % s)
            check(read_json(os.path.join(student_dir, "report.json")).get("scored") is True,
                  "the rerun left %s without a score" % KILLED)
            st = subprocess.run([args.gpulab, "grade-all", "--status", "--out", out],
                                capture_output=True, text=True, env=env, timeout=30)
            check(KILLED not in st.stdout, "after the rerun --status still lists %s" % KILLED)

            # The cluster's own files hold each job's environment and script: none holds the
            # seed. Nor does anything grade-all wrote but the seed's file (and the datasets).
            watch.files(cluster.dir)
            watch.files(out, skip=(seed_file, os.path.join(out, "cache")))
            print("looked for the seed in: %s" % watch.looked)
            check(all(watch.looked.values()), "some place was never looked at for the seed: %s" %
                  watch.looked)

        # 3. The same roster graded here gives the same class.csv, under the same seed.
        local_env = dict(os.environ, GPULAB_HIDDEN_SEED=seed,
                         GPULAB_CACHE_DIR=os.path.join(out, "cache"))
        r = subprocess.run(grade_all(args.gpulab, roster, local, ["--jobs", "2"]),
                           capture_output=True, text=True, env=local_env, timeout=RUN_TIMEOUT_S)
        check(r.returncode == 0, "the local grade-all exits %d:\n%s" % (r.returncode,
                                                                       r.stdout + r.stderr))
        with open(os.path.join(out, "class.csv")) as a, open(os.path.join(local, "class.csv")) as b:
            slurm_csv, local_csv = a.read(), b.read()
        check(slurm_csv == local_csv and slurm_csv.count("\n") == len(ROSTER) + 1,
              "class.csv differs from the local grade-all's:\n%s\n----\n%s" % (slurm_csv,
                                                                               local_csv))
        for s in ROSTER:
            # The record's key: the seed's fingerprint, the backend, the submission's hash...
            keys = [read_json(os.path.join(o, LAB, s, "grading.json")).get("key")
                    for o in (out, local)]
            check(keys[0] and keys[0] == keys[1], "%s was graded with another configuration on "
                  "the cluster: %s, here %s" % (s, keys[0], keys[1]))
    finally:
        if args.keep:
            print("kept " + tmp)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    print("slurm test: %.1fs, %s" % (time.monotonic() - started,
                                     "%d check(s) failed" % len(check.failed)
                                     if check.failed else "passed"))
    return 1 if check.failed else 0


if __name__ == "__main__":
    sys.exit(main())
