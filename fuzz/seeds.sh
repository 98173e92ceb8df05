#!/usr/bin/env bash
# Seed corpora and dictionaries for the fuzz targets, collected from the sources (no
# seed files are checked in):
#   fuzz/seeds.sh BUILD OUT
# BUILD: a normal build (its braze-opt writes the fusion-plan seeds); OUT gets
# OUT/seeds/<target>/ and OUT/dict/<target>.dict. Needs python3 with numpy and onnx
# (for .npy and ONNX seeds), as make check does.
set -euo pipefail
build=$1
out=$2
root=$(cd "$(dirname "$0")/.." && pwd)
seeds=$out/seeds
dict=$out/dict
rm -rf "$seeds" "$dict"
mkdir -p "$seeds"/{mlir-pipeline,onnx-import,npy,pipeline-text,fusion-plan,differential} "$dict"

# ---- mlir-pipeline: every .mlir under test/, bench/, examples/, split at `// -----`
n=0
while IFS= read -r f; do
  awk -v dir="$seeds/mlir-pipeline" -v base="$n" '
    BEGIN { part = 0; file = sprintf("%s/%05d-%02d.mlir", dir, base, part) }
    /^\/\/ -----/ { close(file); part++; file = sprintf("%s/%05d-%02d.mlir", dir, base, part); next }
    { print > file }' "$f"
  n=$((n + 1))
done < <(find "$root/test" "$root/bench" "$root/examples" -name '*.mlir' -size -64k | sort)

# ---- onnx-import: the exported torch models and ONNX's backend node tests
i=0
for m in "$root"/test/import/Inputs/torch/*/model.onnx; do
  cp "$m" "$seeds/onnx-import/torch-$i.onnx"; i=$((i + 1))
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if /usr/bin/python3 "$root/test/import/Inputs/conformance.py" generate "$tmp/conf" > /dev/null 2>&1; then
  for m in "$tmp"/conf/node/*/model.onnx; do
    t=$(basename "$(dirname "$m")")
    [ "$(stat -c %s "$m")" -le 65536 ] && cp "$m" "$seeds/onnx-import/$t.onnx"
  done
fi

# ---- npy: the test inputs, and one small array of every dtype and version numpy writes
cp "$root"/test/import/Inputs/torch/mlp/*.npy "$seeds/npy/"
/usr/bin/python3 - "$seeds/npy" <<'PY'
import sys, numpy as np
from numpy.lib import format as fmt
out = sys.argv[1]
dtypes = ['<f4', '<f8', '<f2', '<u2', '<i4', '<i8', '|i1', '<i2', '|u1', '<u4', '<u8', '|b1']
for i, dt in enumerate(dtypes):
    for shape in [(), (3,), (2, 3), (1, 2, 1, 2)]:
        a = (np.arange(int(np.prod(shape))) % 5).astype(dt).reshape(shape)
        np.save(f"{out}/{i:02d}-{'x'.join(map(str, shape)) or 'scalar'}.npy", a)
for version in [(2, 0), (3, 0)]:
    with open(f"{out}/version-{version[0]}.npy", 'wb') as f:
        fmt.write_array(f, np.ones((2, 2), dtype='<f4'), version=version)
PY

# ---- pipeline-text: the named pipelines and the pipelines the tests spell out
for p in "$root"/pipelines/*.pipeline "$root"/test/e2e/Inputs/*.pipeline; do
  sed -e 's@#.*@@' -e 's@//.*@@' "$p" | tr -s ' \n\t' ' ' | sed -e 's/^ //' -e 's/ $//' \
    > "$seeds/pipeline-text/$(basename "$p")"
done
i=0
grep -rhoE "pass-pipeline='[^']*'" "$root/test" | sed -e "s/^pass-pipeline='//" -e "s/'$//" | sort -u |
  while IFS= read -r p; do printf '%s' "$p" > "$seeds/pipeline-text/test-$i.txt"; i=$((i + 1)); done

# ---- fusion-plan: the plans form-kernels writes for the fixed module (fuzz/fixed-module.h)
sed -n 's/^ *"\(.*\)\\n";\{0,1\}$/\1/p' "$root/fuzz/fixed-module.h" | sed 's/\\"/"/g' > "$tmp/fixed.mlir"
front=graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized
i=0
for opts in "" "no-horizontal" "disable=epilogue" "max-ops=2" "disable=reduction" "horizontal-templates"; do
  "$build/braze-opt" "$tmp/fixed.mlir" -o /dev/null \
    --pass-pipeline="builtin.module($front,form-kernels{$opts plan-out=$seeds/fusion-plan/plan-$i.json})" || true
  i=$((i + 1))
done
printf '{"version": 1, "functions": [{"name": "mlp", "forbid": [["mlp/exp#5", "mlp/mul#1"]]}], "forbid": [["mlp/matmul#0", "mlp/mul#1"]]}' \
  > "$seeds/fusion-plan/forbid.json"

# ---- differential: a few byte strings (each a different first graph)
for s in 0 1 2 3 4 5 6 7; do
  head -c 64 /dev/urandom > "$seeds/differential/random-$s"
done

# ---- dictionaries
{
  grep -oE 'irdl.operation @[a-z_]+' "$root/dialects/graph/graph.irdl.mlir" | sed 's/irdl.operation @/"\\"graph./; s/$/\\""/'
  for k in dims keepdim dim axis eps perm predicate approximate starts limits strides value correction \
           batch_dims func.func return tensor dense array i64 f32 f16 bf16 f64 i1 i8 i32 ui8 true false \
           dense_resource dialect_resources builtin module loc braze.user_kernel kernel.kind '"lt"' '"none"'; do
    printf '"%s"\n' "$(printf '%s' "$k" | sed 's/"/\\"/g')"
  done
  for t in 'tensor<' 'xf32>' '-> (' ') -> ' ' : (' '%0 = ' '= array<i64: ' '{' '}' '#loc' '// -----'; do
    printf '"%s"\n' "$t"
  done
} > "$dict/mlir-pipeline.dict"
cp "$dict/mlir-pipeline.dict" "$dict/differential.dict"
{
  grep -rhoE '^ *\{"[A-Z][A-Za-z]+", convert_' "$root/import" | grep -oE '"[A-Za-z]+"' | sort -u
  # field keys: (field number << 3 | wire type) of the fields the importer reads
  cat <<'TAGS'
ir_version="\x08"
opset_import="\x42"
graph="\x3a"
node="\x0a"
graph_name="\x12"
initializer="\x2a"
input="\x5a"
output="\x62"
value_info="\x6a"
op_type="\x22"
attribute="\x2a"
domain="\x3a"
attr_f="\x15"
attr_i="\x18"
attr_s="\x22"
attr_t="\x2a"
attr_floats="\x3d"
attr_ints="\x40"
attr_ints_packed="\x42"
attr_type="\xa0\x01"
tensor_dims="\x08"
tensor_data_type="\x10"
tensor_float_data="\x22"
tensor_int32_data="\x2a"
tensor_int64_data="\x3a"
tensor_raw_data="\x4a"
dim_value="\x08"
dim_param="\x12"
elem_type="\x08"
tensor_type="\x0a"
version="\x10"
TAGS
} > "$dict/onnx-import.dict"
cat > "$dict/npy.dict" <<'NPY'
"\x93NUMPY"
"\x01\x00"
"\x02\x00"
"\x03\x00"
"'descr'"
"'fortran_order'"
"'shape'"
"False"
"True"
"<f4"
"<f8"
"<f2"
"<u2"
"<i4"
"<i8"
"|i1"
"<i2"
"|u1"
"<u4"
"<u8"
"|b1"
">f4"
"9223372036854775807"
"4294967296"
NPY
{
  sed -n 's/^BRAZE_PASS(\(.*\))/\1/p' "$root/passes/passes.def" | tr _ - | sed 's/.*/"&"/'
  grep -rhoE '"[a-z][a-z-]+"' "$root/passes/fusion/form-kernels.c" "$root/passes/options.c" | sort -u | head -80
  for t in 'builtin.module(' 'func.func(' '{' '}' '(' ')' ',' '=' ' ' canonicalize cse loop-invariant-code-motion; do
    printf '"%s"\n' "$t"
  done
} > "$dict/pipeline-text.dict"
{
  for k in version functions name kernels kind ops forbid refused a b reason poi per red tem; do printf '"\\"%s\\""\n' "$k"; done
  cat "$seeds"/fusion-plan/plan-*.json | grep -oE '"[a-z]+/[a-z_]+#[0-9]+"' | sort -u | sed 's/"/\\"/g; s/.*/"&"/'
  printf '"%s"\n' '[' ']' '{' '}' ':' ',' 'null' 'true' '1'
} > "$dict/fusion-plan.dict"
echo "seeds: $(find "$seeds" -type f | wc -l) files in $seeds; dictionaries in $dict"
