#!/usr/bin/env bash
# Builds and grades gpulab the way a platform does, on that platform's own Ubuntu: the Gradescope
# autograder on the base image packaging/gradescope/setup.sh names (its `# gpulab-base-image:`
# line), the PrairieLearn image on its Dockerfile's FROM. An Ubuntu root of that release is made
# with debootstrap (minbase, with the components and update suites Ubuntu's container image has),
# the package gpulab writes is set up in it as the platform does (Gradescope: setup.sh, then
# run_autograder per submission; PrairieLearn: the Dockerfile's ENV, COPY and RUN, then the
# entrypoint per submission), and each submission's grade there is compared, test by test, with
# this checkout's build grading it here. It prints the root's toolchain versions and exits 0
# only if every grade matches.
#
#   sudo scripts/platform-image-check.sh gradescope|prairielearn [--lab LAB]
#        [--submission DIR]... [--root DIR] [--fresh] [--keyring FILE] [--mirror URL]
#        [--preinstall PACKAGE]...
#
# Needs root (chroot, mounts), debootstrap, unzip and python3, Ubuntu's archive keyring
# (/usr/share/keyrings/ubuntu-archive-keyring.gpg on Ubuntu; on Debian, --keyring the one in
# Ubuntu's ubuntu-keyring package), the network (packages are downloaded: it is no ctest) and
# build/gpulab built. Graded: the lab's reference and its stub, and each --submission (a folder
# with the lab's student files). The root (default /var/tmp/gpulab-image-<release>) is kept and
# reused, its packages already installed; --fresh makes it anew. --preinstall installs a package
# before the platform's set-up, for a mirror that lacks a file of the one apt would choose (say
# so beside what the run showed). docs/GRADING.md, "The platforms' own images", has what it showed.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"

die() { echo "platform-image-check: $*" >&2; exit 1; }
say() { echo "platform-image-check: $*"; }

platform="${1:-}"
case "$platform" in
  gradescope|prairielearn) shift ;;
  *) die "usage: $0 gradescope|prairielearn [--lab LAB] [--submission DIR]... [--root DIR]" \
         "[--fresh] [--keyring FILE] [--mirror URL] [--preinstall PACKAGE]..." ;;
esac
lab=scatter-gather root= fresh=0 keyring=/usr/share/keyrings/ubuntu-archive-keyring.gpg
mirror=http://archive.ubuntu.com/ubuntu
submissions=() preinstall=()
while (($#)); do
  case "$1" in
    --lab) lab="$2"; shift 2 ;;
    --submission) submissions+=("$(realpath "$2")"); shift 2 ;;
    --root) root="$2"; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --keyring) keyring="$2"; shift 2 ;;
    --mirror) mirror="$2"; shift 2 ;;
    --preinstall) preinstall+=("$2"); shift 2 ;;
    *) die "unknown argument $1" ;;
  esac
done
[ "$(id -u)" -eq 0 ] || die "needs root (debootstrap, chroot and its mounts)"
for tool in debootstrap unzip python3; do
  command -v "$tool" >/dev/null || die "needs $tool (apt-get install $tool)"
done
gpulab="$here/build/gpulab"
[ -x "$gpulab" ] || die "no $gpulab: build gpulab first"
[ -f "$here/labs/$lab/lab.json" ] || die "no lab $lab (labs/$lab/lab.json)"
[ -d "$here/reference/$lab" ] || die "no reference/$lab to grade"

# The platform's Ubuntu, as its packaging names it.
case "$platform" in
  gradescope)
    base="$(sed -n 's/^# gpulab-base-image: Ubuntu \([0-9.]*\).*/\1/p' \
              "$here/packaging/gradescope/setup.sh")" ;;
  prairielearn)
    base="$(sed -n 's/^FROM ubuntu:\([0-9.]*\)$/\1/p' "$here/packaging/prairielearn/Dockerfile")" ;;
esac
case "$base" in
  22.04) release=jammy ;;
  24.04) release=noble ;;
  *) die "the $platform packaging names no Ubuntu release this script knows (\"$base\")" ;;
esac
root="${root:-/var/tmp/gpulab-image-$release}"
work="$(mktemp -d)"
seed="platform-image-check-$RANDOM$RANDOM"

unmount() {
  for m in dev sys proc; do
    mountpoint -q "$root/$m" && umount -R "$root/$m" || true
  done
}
trap 'unmount; rm -rf "$work"' EXIT

# --- The root ---------------------------------------------------------------------------------
# Only a root this script made is removed (its marker file), never a folder --root names by
# mistake.
marker="$root/.gpulab-platform-image-check"
if [ "$fresh" = 1 ] && [ -e "$root" ]; then
  [ -f "$marker" ] || die "--fresh: $root was not made by this script (no $marker); remove it yourself"
  unmount
  rm -rf --one-file-system "$root"
fi
if [ ! -f "$root/etc/os-release" ]; then
  [ -f "$keyring" ] || die "no Ubuntu archive keyring at $keyring (--keyring FILE: on Debian," \
    "usr/share/keyrings/ubuntu-archive-keyring.gpg of Ubuntu's ubuntu-keyring .deb)"
  # An older debootstrap has no script for a newer Ubuntu; every Ubuntu release uses gutsy's.
  script=/usr/share/debootstrap/scripts/$release
  [ -e "$script" ] || script=/usr/share/debootstrap/scripts/gutsy
  say "debootstrap of Ubuntu $base ($release) into $root"
  debootstrap --variant=minbase --components=main,restricted,universe,multiverse \
    --keyring="$keyring" "$release" "$root" "$mirror" "$script" >"$work/debootstrap.log" 2>&1 ||
    { tail -20 "$work/debootstrap.log"; die "debootstrap failed"; }
  touch "$marker"
else
  say "reusing $root (what earlier runs installed stays; --fresh makes it anew)"
fi
# The suites Ubuntu's container image has: the release, its updates and security fixes.
printf 'deb %s %s main restricted universe multiverse\n' \
  "$mirror" "$release" "$mirror" "$release-updates" "$mirror" "$release-security" \
  >"$root/etc/apt/sources.list"
cp /etc/resolv.conf "$root/etc/resolv.conf"
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
mount --rbind /dev "$root/dev"
mount --make-rslave "$root/dev"
in_root() { chroot "$root" env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
              HOME=/root LANG=C.UTF-8 "$@"; }
if ((${#preinstall[@]})); then
  say "installing ${preinstall[*]} first (--preinstall)"
  in_root apt-get update -qq
  in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${preinstall[@]}" >/dev/null
fi

# The lab's student files of a submission folder, into a folder of the root.
student_files() {
  python3 -c 'import json, sys; print("\n".join(json.load(open(sys.argv[1]))["student_files"]))' \
    "$here/labs/$lab/lab.json"
}
stage_submission() {  # FROM TO
  rm -rf "$2"
  mkdir -p "$2"
  while read -r f; do
    [ -f "$1/$f" ] || die "$1 has no $f"
    cp "$1/$f" "$2/$f"
  done < <(student_files)
}

# Each test's name and score in both reports, the same or not; $3 the format.
compare() {  # IMAGE_REPORT HERE_REPORT FORMAT NAME
  python3 - "$@" <<'PY'
import json, sys
image, here, fmt, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3], sys.argv[4]
if fmt == "gradescope":
    tests = lambda r: [(t["name"], t.get("score"), t.get("max_score")) for t in r["tests"]]
    total = lambda r: r.get("score", sum(t.get("score") or 0 for t in r["tests"]))
else:
    tests = lambda r: [(t["name"], t["points"], t["max_points"]) for t in r["tests"]]
    total = lambda r: f'{r["score"]} ({"gradable" if r["gradable"] else "not gradable"})'
diff = [f"  {a} here, {b} in the image" for a, b in zip(tests(here), tests(image)) if a != b]
if len(tests(here)) != len(tests(image)):
    diff.append(f"  {len(tests(here))} tests here, {len(tests(image))} in the image")
if total(here) != total(image):
    diff.append(f"  score {total(here)} here, {total(image)} in the image")
print(f"platform-image-check: {name}: score {total(image)} in the image, {len(tests(image))} tests:",
      "differs from here" if diff else "the same as here")
if diff:
    print("\n".join(diff))
sys.exit(1 if diff else 0)
PY
}

graded=("$here/reference/$lab" "$here/labs/$lab" ${submissions[@]+"${submissions[@]}"})
failed=0
TIMEFORMAT="%R s (CPU: user %U s, sys %S s)"
case "$platform" in
  gradescope)
    # Gradescope unpacks the zip into /autograder/source, runs setup.sh there as root, and copies
    # run_autograder to /autograder, which it runs for each submission.
    "$gpulab" package gradescope "$lab" --hidden-seed "$seed" --out "$work/autograder.zip" >/dev/null
    rm -rf "$root/autograder"
    mkdir -p "$root/autograder/results"
    unzip -q "$work/autograder.zip" -d "$root/autograder/source"
    say "setup.sh of the Gradescope autograder for $lab, in Ubuntu $base"
    { time in_root bash -c 'cd /autograder/source && bash setup.sh' >"$work/setup.log" 2>&1; } \
      2>"$work/took" || { tail -40 "$work/setup.log"; die "setup.sh failed (Ubuntu $base)"; }
    say "setup.sh done in $(cat "$work/took")"
    cp "$root/autograder/source/run_autograder" "$root/autograder/run_autograder"
    for sub in "${graded[@]}"; do
      name="${sub#"$here"/}"
      stage_submission "$sub" "$root/autograder/submission"
      rm -f "$root/autograder/results/results.json"
      in_root /autograder/run_autograder >"$work/run.log" 2>&1 || true
      [ -s "$root/autograder/results/results.json" ] || { tail -20 "$work/run.log"; die "$name: no results.json"; }
      "$gpulab" grade "$lab" --submission "$root/autograder/submission" --backend sim \
        --hidden-seed "$seed" --out "$work/here.json" >/dev/null 2>&1 || true
      compare "$root/autograder/results/results.json" "$work/here.json" gradescope "$name" ||
        failed=1
    done ;;
  prairielearn)
    "$gpulab" package prairielearn "$lab" --hidden-seed "$seed" --image-account check \
      --out "$work/pl" >/dev/null
    context="$work/pl/image"
    # The Dockerfile's instructions, each line joined with its continuations; FROM is the root.
    say "the PrairieLearn image's Dockerfile, in Ubuntu $base"
    envs=()
    entrypoint=
    while IFS= read -r -d '' instruction; do
      read -r op args <<<"$instruction"
      case "$op" in
        FROM) ;;
        ENV) envs+=("$args") ;;
        COPY)
          read -r src dst <<<"$args"
          rm -rf "${root:?}$dst"
          mkdir -p "$(dirname "$root$dst")"
          cp -a "$context/$src" "$root$dst"
          [ "$src" = entrypoint ] && entrypoint="$dst" ;;
        RUN) { time in_root env ${envs[@]+"${envs[@]}"} sh -c "$args" >>"$work/image.log" 2>&1; } \
               2>"$work/took" || { tail -40 "$work/image.log"; die "RUN failed (Ubuntu $base): $args"; }
             say "RUN ${args:0:60}...: $(cat "$work/took")" ;;
        *) die "the Dockerfile has $op, which this script does not carry out" ;;
      esac
    done < <(sed -e '/^#/d' -e ':a' -e '/\\$/{N;s/\\\n//;ba}' "$context/Dockerfile" |
             grep -v '^\s*$' | tr '\n' '\0')
    [ -n "$entrypoint" ] || die "the Dockerfile copies no entrypoint"
    for sub in "${graded[@]}"; do
      name="${sub#"$here"/}"
      rm -rf "$root/grade"
      mkdir -p "$root/grade"
      cp -a "$work/pl/question/tests" "$root/grade/tests"
      stage_submission "$sub" "$root/grade/student"
      in_root "$entrypoint" >"$work/run.log" 2>&1 || true
      [ -s "$root/grade/results/results.json" ] || { tail -20 "$work/run.log"; die "$name: no results.json"; }
      "$gpulab" grade "$lab" --submission "$root/grade/student" --backend sim --format prairielearn \
        --hidden-seed "$seed" --out "$work/here.json" >/dev/null 2>&1 || true
      compare "$root/grade/results/results.json" "$work/here.json" prairielearn "$name" ||
        failed=1
    done ;;
esac

say "Ubuntu $base ($release) in $root:"
in_root bash -c 'cmake --version | head -1; g++ --version | head -1; clang-14 --version | head -1
  dpkg-query -W -f "\${Package} \${Version}\n" libboost-context-dev nvidia-cuda-toolkit \
    nlohmann-json3-dev libcli11-dev libarchive-dev libcairo2-dev' | sed 's/^/  /'
if [ "$failed" = 0 ]; then
  say "$platform: every grade in Ubuntu $base is the same as here"
else
  die "$platform: a grade in Ubuntu $base differs from here (above)"
fi
