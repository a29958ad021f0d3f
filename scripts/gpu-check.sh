#!/usr/bin/env bash
# Developers' check on a GPU machine: build with the `cuda` preset, run the whole test suite
# (gpu-labelled tests included), bench every lab, and grade the reference several times to
# show that performance ratios are stable. Logs go to $OUT (or ./gpu-check-out).
#
#   bash scripts/gpu-check.sh [build|test|bench|grader|grader-before|moves|tools|drift|stability|attacks|calibrate|calibrate-scan|cpu-noise|demo|labs]...
#   (default: build test bench stability calibrate)
#
# GPULAB_PREFIX adds a CMake prefix path, for a machine without libcli11-dev installed;
# GRADE_ARGS adds arguments to the stability step's grades (e.g. "--part cpu_fast"); LAB picks
# the stability step's lab (default scatter-gather); LABS the labs step's (default: every lab
# whose shipped submissions carry expect.json files); BENCH_GRADER_ARGS the grader step's
# (e.g. "--cold-only --labs scan"); BEFORE the grader-before step's older tree (a `git archive`
# tarball: it is built beside this one and both are benched in turn, BENCH_GRADER_ARGS each,
# ROUNDS times; GPULAB_COMPUTE_SANITIZER=/nonexistent leaves the tools out of both; FIXED_ROUNDS
# gives every timed test of both the same count of rounds); LAB the
# tools step's lab too (default scan); ATTACKS the attacks step's adversarial
# submissions (default: every timed one, "adversary": {"timed": true}, with its twin); SEEDS the
# calibrate-scan step's hidden seeds (default 1 to 9).
# Carried Debian packages for a machine with no registry: scripts/gpu-prefix.sh.
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-$PWD/gpu-check-out}
mkdir -p "$out"
steps=("$@")
((${#steps[@]})) || steps=(build test bench stability calibrate)
gpulab=build-cuda/gpulab
sub=tests/submissions/scatter-gather

for step in "${steps[@]}"; do
  echo "=== $step ($(date -u +%H:%M:%S))"
  case $step in
    build)
      nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv
      # Warnings stay errors in CI; here (another host compiler, maybe newer) they are listed
      # instead, so one new warning does not cost a whole GPU session.
      cmake --preset cuda -DGPULAB_WERROR=OFF ${GPULAB_PREFIX:+-DCMAKE_PREFIX_PATH=$GPULAB_PREFIX} \
        >"$out/configure.log" 2>&1 || { tail -30 "$out/configure.log"; exit 1; }
      cmake --build --preset cuda -j16 >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
      grep -A3 "warning" "$out/build.log" | head -40 || true
      ;;
    test)
      # The CPU tests in parallel, then the GPU tests alone, so nothing disturbs their timings.
      ctest --preset cuda -j4 -LE gpu 2>&1 | tee "$out/ctest.log" | tail -8
      ctest --preset cuda -L gpu 2>&1 | tee -a "$out/ctest.log" | tail -40
      ;;
    bench)
      for lab in $($gpulab labs | awk '/^[a-z]/{print $1}'); do
        $gpulab bench "$lab" 2>&1 | tee -a "$out/bench.log"
      done
      ;;
    grader)
      # Where grading's own time goes: each lab's reference graded cold and warm, by phase.
      $gpulab bench-grader --json "$out/bench-grader.json" ${BENCH_GRADER_ARGS:-} 2>&1 |
        tee "$out/bench-grader.log"
      ;;
    moves)
      # What each move of a timed sample's gigabyte costs here (tests/bench/sample_moves_bench.cu);
      # at most 5 minutes: its first run on an H100 printed nothing in ten (2026-12-07).
      "${CUDACXX:-/usr/local/cuda/bin/nvcc}" -O2 -std=c++17 -o /tmp/sample_moves_bench tests/bench/sample_moves_bench.cu &&
        timeout 300 /tmp/sample_moves_bench 2>&1 | tee "$out/moves.log"
      ;;
    grader-before)
      # bench-grader of an older tree and of this one, in turn on this host (docs/PERF.md).
      before=/tmp/gpulab-before
      if [ ! -x $before/build-cuda/gpulab ]; then
        rm -rf $before && mkdir -p $before && tar -xzf "$BEFORE" -C $before
        (cd $before && cmake --preset cuda -DGPULAB_WERROR=OFF \
          ${GPULAB_PREFIX:+-DCMAKE_PREFIX_PATH=$GPULAB_PREFIX} >/dev/null &&
          cmake --build --preset cuda -j16 >"$out/build-before.log" 2>&1) ||
          { tail -20 "$out/build-before.log"; exit 1; }
      fi
      # FIXED_ROUNDS=N: every timed test of both trees takes N rounds (each lab.json's "rounds"
      # and "min_rounds", given for this step and put back after it), so that how soon rounds
      # agree, which is chance, takes no part in the comparison.
      fix_rounds() {  # $1: the tree; $2: "fix" or "restore"
        for lab_json in "$1"/labs/*/lab.json; do
          if [ "$2" = fix ]; then
            cp "$lab_json" "$lab_json.orig"
            python3 -c 'import json, sys
p, n = sys.argv[1], int(sys.argv[2]); j = json.load(open(p)); t = j.setdefault("timing", {})
t["rounds"] = t["min_rounds"] = n; json.dump(j, open(p, "w"), indent=2)' "$lab_json" "$FIXED_ROUNDS"
          else
            mv "$lab_json.orig" "$lab_json"
          fi
        done
      }
      if [ -n "${FIXED_ROUNDS:-}" ]; then fix_rounds . fix; fix_rounds $before fix; fi
      for i in $(seq "${ROUNDS:-2}"); do
        for tree in before this; do
          dir=.; [ $tree = before ] && dir=$before
          (cd $dir && build-cuda/gpulab bench-grader --json "$out/bench-grader-$tree-$i.json" \
            ${BENCH_GRADER_ARGS:-}) 2>&1 | tee -a "$out/bench-grader-$tree.log" | grep -E "^  [a-z]"
        done
      done
      if [ -n "${FIXED_ROUNDS:-}" ]; then fix_rounds . restore; fix_rounds $before restore; fi
      ;;
    tools)
      # What compute-sanitizer adds to a grading (docs/PERF.md): the reference graded without
      # timing on a warm cache, without the tools and with them in turn, twice; wall seconds.
      lab=${LAB:-scan}
      grade_reference() {  # $1: the tool, or /nonexistent for none; $2: the report's name
        GPULAB_COMPUTE_SANITIZER=$1 $gpulab grade "$lab" --submission "reference/$lab" \
          --no-time --hidden-seed 5 --out "$out/$2.json" >"$out/$2.log" 2>&1
      }
      grade_reference /nonexistent tools-warmup  # the cache warm, not counted
      for i in 1 2; do
        for tools in without with; do
          sanitizer=${GPULAB_COMPUTE_SANITIZER:-}
          [[ $tools == without ]] && sanitizer=/nonexistent
          start=$(date +%s%N)
          grade_reference "$sanitizer" "tools-$tools-$i"
          ms=$((($(date +%s%N) - start) / 1000000))
          echo "$lab $tools the tools, $i: $((ms / 1000)).$(printf %03d $((ms % 1000))) s wall," \
            "$(grep -E '^  total' "$out/tools-$tools-$i.log" | tr -s ' ')"
        done
      done
      grep -h "under compute-sanitizer" "$out/tools-with-1.log" | head -3
      ;;
    drift)
      # The reference's time kept per GPU (docs/GRADING.md, "The reference's time, kept per
      # GPU"): LAB's reference (default scan) graded with timing on PART (default exclusive,
      # a part with performance points) in a dataset cache of its own: nothing kept, then kept
      # and checked, then with another process loading the GPU (tests/bench/gpu_load.cu), which
      # the check must see, then after the load. Each line: how the reference's time was had,
      # the kept and checked times, the drift, the ratio and the grading's seconds.
      lab=${LAB:-scan}
      part=${PART:-exclusive}
      "${CUDACXX:-/usr/local/cuda/bin/nvcc}" -O2 -o /tmp/gpu_load tests/bench/gpu_load.cu || exit 1
      cache=$(mktemp -d)
      drift_grade() {  # $1: the report's name
        start=$(date +%s%N)
        GPULAB_CACHE_DIR=$cache $gpulab grade "$lab" --submission "reference/$lab" --part "$part" \
          --hidden-seed 11 --out "$out/drift-$1.json" >"$out/drift-$1.log" 2>&1
        ms=$((($(date +%s%N) - start) / 1000000))
        python3 - "$out/drift-$1.json" "$1" "$ms" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
t = next((t for t in r["tests"] if "performance" in t["name"]), None)
if t is None: sys.exit("%s: no performance test in the report" % sys.argv[2])
x = t["extra_data"]; h = x.get("reference_timing", {})
print("%-8s how %-9s kept %s check %s drift %s ratio %.3f student %.4g ms reference %.4g ms  %.1f s" % (
    sys.argv[2], h.get("how"), h.get("kept_ms", "-"), h.get("check_ms", "-"),
    "%+.2f%%" % (100 * h["drift"]) if "drift" in h else "-", x["ratio"], x["student_ms"],
    x["reference_ms"], int(sys.argv[3]) / 1000))
PY
      }
      drift_grade first
      drift_grade kept
      /tmp/gpu_load 600 >"$out/gpu-load.log" 2>&1 &
      load=$!
      sleep 3
      drift_grade loaded
      kill $load; wait $load 2>/dev/null
      drift_grade after
      rm -rf "$cache"
      ;;
    stability)
      for i in 1 2 3 4 5; do
        $gpulab grade "${LAB:-scatter-gather}" --submission "reference/${LAB:-scatter-gather}" \
          --hidden-seed 11 --out "$out/stability-$i.json" ${GRADE_ARGS:-} >/dev/null 2>&1
        python3 - "$out/stability-$i.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
perf = [t for t in r["tests"] if "performance" in t["name"]]
print("run", sys.argv[1].split("-")[-1].split(".")[0], "score", r.get("score"), " ".join(
    "%s %.4f (%.4g/%.4g ms)" % (t["name"].split(":")[0], t["extra_data"]["ratio"],
                                t["extra_data"]["student_ms"], t["extra_data"]["reference_ms"])
    for t in perf if "ratio" in t["extra_data"]))
PY
      done
      ;;
    attacks)
      # Each timed attack of tests/adversarial/ and its honest twin, graded with timing: the
      # score and each timed test's ratio, side by side (the attack may not score higher).
      attacks=${ATTACKS:-$(grep -l '"timed": true' tests/adversarial/*/*/expect.json | xargs -n1 dirname)}
      for a in $attacks; do
        lab=$(basename "$(dirname "$a")")
        dir=$(python3 scripts/submission_dir.py "$a" "$out/submissions")
        parts=$(python3 -c 'import json,sys; p=json.load(open(sys.argv[1]))["part"]; print(" ".join("--part " + x for x in ([p] if isinstance(p, str) else p)))' "$a/expect.json")
        $gpulab grade "$lab" --submission "$dir" --hidden-seed 11 $parts \
          --out "$out/attack.json" >/dev/null 2>&1
        python3 - "$out/attack.json" "$a" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cells = []
for t in r["tests"]:
    x = t.get("extra_data") or {}
    if "ratio" in x: cells.append("ratio %.3f" % x["ratio"])
    if "speedup" in x: cells.append("speedup %.2f" % x["speedup"])
    if t["max_score"] and ("performance" in t["name"] or "speedup" in t["name"]):
        cells.append("%s %.1f/%.0f" % (t["name"].split(": ")[1], t["score"], t["max_score"]))
        if t["score"] < t["max_score"]: cells.append("(" + t["output"].replace("\n", " ")[:160] + ")")
print("%-48s score %5.1f  %s" % (sys.argv[2], r.get("score", -1), "  ".join(cells)))
PY
      done
      ;;
    calibrate)
      for s in reference/scatter-gather $sub/alt-correct $sub/cheat-fp16 $sub/bug-dropped-atom; do
        name=$(basename "$s")
        $gpulab grade scatter-gather --submission "$s" --hidden-seed 11 --no-time \
          --out "$out/calibrate-$name.json" >/dev/null 2>&1
      done
      python3 scripts/tolerance_report.py "$out"/calibrate-*.json
      ;;
    calibrate-scan)
      # The scan lab's float parts on the GPU (docs/PERF.md, "Scan tolerance calibration"): the
      # reference and the four other orders of adds under each hidden seed, the cheats under
      # the first, then the largest error/bound per submission and dataset over the seeds. Seeds
      # run side by side (the dataset cache makes each dataset once; no grade is timed).
      scan=tests/submissions/scan
      honest="reference/scan $scan/alt-chained-scan $scan/alt-decoupled-lookback $scan/alt-reduce-then-scan $scan/alt-serial-chunks"
      cheats="$scan/cheat-fp16 $scan/bug-carries-dropped $scan/bug-exclusive-is-inclusive"
      seeds=${SEEDS:-1 2 3 4 5 6 7 8 9}
      first=${seeds%% *}
      rm -f "$out"/calscan-*
      for seed in $seeds; do
        subs=$honest
        [[ $seed == "$first" ]] && subs="$subs $cheats"
        (for s in $subs; do
           name=$(basename "$s")
           [[ $s == reference/* ]] && name=reference
           [[ $s == tests/* ]] && s=$(python3 scripts/submission_dir.py "$s" "$out/submissions-$seed")
           log="$out/calscan-$name-seed$seed.log"
           $gpulab grade scan --submission "$s" --hidden-seed "$seed" --no-time \
             --part inclusive-float --part exclusive-float \
             --out "$out/calscan-$name-seed$seed.json" >"$log" 2>&1 ||
             { echo "grading $name with seed $seed failed:"; tail -5 "$log"; }
         done) &
        # At most three seeds at a time: each grade generates and checks 2^24-element datasets.
        while (($(jobs -r | wc -l) >= 3)); do wait -n; done
      done
      wait
      python3 scripts/tolerance_table.py "$out"/calscan-*.json | tee "$out/calibrate-scan.md"
      ;;
    cpu-noise)
      # Twenty timed runs of the reference's CPU part, in separate processes like the grader's,
      # each keeping every sample's CPU and wall time: which summary is steadiest across runs?
      $gpulab datasets scatter-gather --group timing --out "$out/ds" >/dev/null 2>&1
      timing=$(python3 -c 'import json; print(json.dumps(json.load(open("labs/scatter-gather/lab.json"))["timing"]))')
      rm -f "$out/noise.jsonl"
      for i in $(seq 20); do
        CUDA_VISIBLE_DEVICES= build-cuda/runners/scatter-gather-reference --part cpu_fast \
          --dataset "$(echo "$out"/ds/timing/cpu-timing/*/input)" --out "$out/noise" --time \
          --timing "$timing" >/dev/null 2>&1
        python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))))' \
          "$out/noise/result.json" >>"$out/noise.jsonl"
      done
      rm -rf "$out/ds" "$out/noise"
      python3 scripts/cpu_noise_report.py "$out/noise.jsonl"
      ;;
    demo)
      # What students see: the summary and first failing line of the stub, the alternative
      # correct submission and the planted bugs, graded without timing.
      for s in labs/scatter-gather $sub/alt-correct $sub/bug-no-bounds-check \
               $sub/bug-scatter-no-atomics $sub/bug-dropped-atom; do
        echo "--- $s"
        $gpulab grade scatter-gather --submission "$s" --hidden-seed 11 --no-time \
          --out "$out/demo.json" 2>/dev/null | grep -E '^  (ok|FAIL|--|total)'
        python3 -c 'import json,sys
for t in json.load(open(sys.argv[1]))["tests"]:
    fails = [l for l in t["output"].splitlines() if l.startswith("FAIL")]
    if fails and t["visibility"] != "hidden": print("   ", t["name"], "|", fails[0][:400])' \
          "$out/demo.json"
      done
      ;;
    labs)
      # Each lab's reference graded with timing (every test's line), then its stub and shipped
      # submissions without timing: the summary and the first failing line a student sees.
      labs=${LABS:-$(ls tests/submissions/*/*/expect.json 2>/dev/null | cut -d/ -f3 | sort -u)}
      for lab in $labs; do
        for s in "reference/$lab" "labs/$lab" tests/submissions/"$lab"/*/; do
          s=${s%/}
          echo "--- $lab: $s"
          [[ $s == tests/* ]] && s=$(python3 scripts/submission_dir.py "$s" "$out/submissions")
          timed=--no-time
          [[ $s == reference/* ]] && timed=
          $gpulab grade "$lab" --submission "$s" --hidden-seed 11 $timed \
            --out "$out/labs.json" 2>/dev/null | grep -E '^  (ok|FAIL|--|total)'
          python3 -c 'import json,sys
for t in json.load(open(sys.argv[1]))["tests"]:
    fails = [l for l in t["output"].splitlines() if l.startswith("FAIL")]
    if fails and t["visibility"] != "hidden": print("   ", t["name"], "|", fails[0][:300])
    x = t.get("extra_data") or {}
    if "ratio" in x or "speedup" in x or "growth" in x: print("   ", t["name"], "|", t["output"][:400])' \
            "$out/labs.json"
        done
      done
      ;;
    *) echo "unknown step $step"; exit 2 ;;
  esac
done
