#!/bin/sh
# On the GPU machine (driver, Python with numpy and PyTorch; no MLIR, no braze):
#   test/gpu/run.sh CASEDIR [--bench LIBDIR] [--out DIR]
# runs the runtime's smoke test (check_contract.py; again with BRAZE_CUDA_PTX=1, the
# PTX JIT fallback), the recovery check (check_oom.py: device memory full, a refused
# launch; the next call works) and every case test/gpu/prepare.sh
# built into CASEDIR (run.py), then with --bench the GPU benchmark on the libraries
# bench/gpu/prepare.sh built into LIBDIR (bench/gpu/bench.py). With --out, each
# part's output also goes to DIR/smoke.txt, smoke-ptx.txt, DIR/oom.txt, DIR/correctness.txt, DIR/bench.txt (and
# bench.py's table to DIR/bench.md).
# Exits 1 when a check failed.
set -u
here=$(cd "$(dirname "$0")" && pwd)
cases=$1
shift
bench="" out=""
while [ $# -gt 0 ]; do
  case "$1" in
  --bench) bench=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  *) echo "test/gpu/run.sh: unexpected argument '$1'" >&2; exit 2 ;;
  esac
done
[ -n "$out" ] && mkdir -p "$out"
status=0
export PYTHONUNBUFFERED=1
# part FILE COMMAND...: run it, keep its output in $out/FILE when --out is given.
part() {
  file=$1
  shift
  if [ -n "$out" ]; then
    "$@" >"$out/$file" 2>&1
    rc=$?
    cat "$out/$file"
  else
    "$@"
    rc=$?
  fi
  [ $rc -eq 0 ] || status=1
}
part smoke.txt python3 "$here/check_contract.py" "$cases/smoke/contract.so" "$cases/smoke/contract_graphs.so"
part smoke-ptx.txt env BRAZE_CUDA_PTX=1 python3 "$here/check_contract.py" "$cases/smoke/contract.so"
part oom.txt python3 "$here/check_oom.py" "$cases/smoke/contract.so"
part correctness.txt python3 "$here/run.py" "$cases"
if [ -n "$bench" ]; then
  part bench.txt python3 "$here/../../bench/gpu/bench.py" "$bench" ${out:+--out "$out/bench.md"}
fi
exit $status
