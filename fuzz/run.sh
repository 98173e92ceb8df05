#!/usr/bin/env bash
# Run every fuzz target (or the ones named) for SECONDS each, one after the other:
#   fuzz/run.sh FUZZ_BUILD SECONDS [TARGET...]
# (what `make fuzz FUZZ_SECONDS=N` runs). Corpora grow in FUZZ_BUILD/corpus/<target>/
# from the seeds fuzz/seeds.sh collects (BRAZE_BUILD, default build/, is the normal
# build it uses). A crash, leak, sanitizer report, timeout, out-of-memory or
# differential mismatch keeps its input in fuzz/crashes/<target>/ and makes the run
# fail (after the other targets ran). Each target's last lines of libFuzzer output
# (-print_final_stats) go to FUZZ_BUILD/logs/<target>.log; a summary line per target
# to FUZZ_BUILD/logs/summary.txt, and with the date and commit to
# FUZZ_BUILD/logs/history.txt, which accumulates over runs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fb=$(cd "$1" && pwd)
seconds=$2
shift 2
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(mlir-pipeline onnx-import npy pipeline-text fusion-plan differential)
build=${BRAZE_BUILD:-$root/build}

if [ ! -d "$fb/seeds" ]; then
  "$root/fuzz/seeds.sh" "$build" "$fb" || exit 1
fi
mkdir -p "$fb/logs"
: > "$fb/logs/summary.txt"
# An input slower than this is a finding (a hang); the differential target compiles
# and links a library per input.
timeout_of() { case $1 in differential) echo 60 ;; *) echo 25 ;; esac; }

failed=()
for t in "${targets[@]}"; do
  exe=$fb/fuzz-$t
  if [ ! -x "$exe" ]; then
    echo "fuzz: no $exe (make fuzz-build)" >&2
    failed+=("$t")
    continue
  fi
  crashes=$root/fuzz/crashes/$t
  mkdir -p "$fb/corpus/$t" "$crashes"
  log=$fb/logs/$t.log
  echo "fuzz: $t for ${seconds}s"
  # Leaks are checked (LeakSanitizer at each input that allocates more than it frees);
  # UBSan reports abort (the build uses -fno-sanitize-recover=undefined).
  start=$(date +%s)
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=0} \
  UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    "$exe" -max_total_time="$seconds" -timeout="$(timeout_of "$t")" -rss_limit_mb=3072 \
      -max_len=65536 -dict="$fb/dict/$t.dict" -artifact_prefix="$crashes/" -print_final_stats=1 \
      "$fb/corpus/$t" "$fb/seeds/$t" > "$log" 2>&1
  rc=$?
  elapsed=$(($(date +%s) - start))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  corpus=$(find "$fb/corpus/$t" -type f | wc -l)
  line="$t: ${elapsed}s, ${execs:-?} executions, ${cov:-no coverage line}, corpus $corpus files, exit $rc"
  echo "$line" | tee -a "$fb/logs/summary.txt"
  echo "$(date -u +%FT%TZ) $(git -C "$root" rev-parse --short HEAD 2>/dev/null) $line" >> "$fb/logs/history.txt"
  if [ $rc -ne 0 ]; then
    failed+=("$t")
    grep -E 'ERROR|SUMMARY|fuzz differential|Test unit written' "$log" | head -8 >&2
  fi
done
if [ ${#failed[@]} -ne 0 ]; then
  echo "fuzz: FAILED: ${failed[*]} (reproducers in fuzz/crashes/, logs in $fb/logs/)" >&2
  exit 1
fi
echo "fuzz: no findings"
