#!/usr/bin/env bash
# Stands in for gpulab where a course platform's wrapper runs it (the Gradescope autograder, the
# PrairieLearn entrypoint, the GitHub Classroom step: tests/e2e), to end a real grading as
# GPULAB_TEST_ENDING says: `fail`, the grader fails (its submission is a path that does not
# exist); `stop`, gpulab is sent SIGTERM once it grades; `kill`, gpulab is killed (SIGKILL, as
# the out-of-memory killer or a platform's hard limit do); `stop-wrapper`, the wrapper that ran
# this is sent SIGTERM (the platform stopping it), and should stop gpulab itself.
# GPULAB_TEST_GPULAB names the real gpulab, which replaces this script's process (exec), so
# the wrapper waits for gpulab itself and sees how it ended; the signal comes from a child
# after GPULAB_TEST_AFTER seconds (default 2), once gpulab grades.
set -euo pipefail
args=("$@")
after="${GPULAB_TEST_AFTER:-2}"
signal_in() {  # signal_in SIGNAL PID
  (exec >/dev/null 2>&1 </dev/null; sleep "$after"; kill -s "$1" "$2") &
}
case "$GPULAB_TEST_ENDING" in
  fail)
    missing=/nonexistent/gpulab-test-submission
    at=-1
    for i in "${!args[@]}"; do [ "${args[$i]}" = --submission ] && at=$((i + 1)); done
    if [ "$at" -ge 0 ]; then args[$at]="$missing"; else args+=(--submission "$missing"); fi ;;
  stop) signal_in TERM $$ ;;
  kill) signal_in KILL $$ ;;
  stop-wrapper) signal_in TERM "$PPID" ;;
  *) echo "interrupted_gpulab.sh: GPULAB_TEST_ENDING is fail, stop, kill or stop-wrapper" >&2
     exit 2 ;;
esac
exec "$GPULAB_TEST_GPULAB" "${args[@]}"
