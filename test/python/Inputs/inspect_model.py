"""What braze decided, from Python: kernels, the fusion report, the plan (edited and
applied again), the target-level MLIR / LLVM IR, and ablations of a stage."""
import json
import os
import sys

import torch

import braze
import models

out = sys.argv[1]
m, xs = models.model("mlp")
m.eval()
c = braze.compile(m, xs)
with torch.no_grad():
    want = m(*xs)
for k in c.kernels:
    print("kernel", k["name"], k["kind"], ",".join(k["ops"]))
print(c.fusion_report())
plan = json.loads(c.plan)
print("plan kernels:", [k["ops"] for k in plan["functions"][0]["kernels"]])
# Split the first linear's matmul from its relu epilogue and apply the edited plan.
k0 = plan["functions"][0]["kernels"][0]
edited = dict(plan)
edited["functions"] = [dict(plan["functions"][0], kernels=[{"ops": [k0["ops"][0]]}, {"ops": k0["ops"][1:]}]
                            + plan["functions"][0]["kernels"][1:])]
del edited["functions"][0]["refused"]
p = braze.compile(m, xs, fusion_plan=json.dumps(edited))
print("edited plan:", [k["name"] for k in p.kernels], "ok" if models.rel_err(p(*xs), want) < 1e-5 else "FAIL")
for f in c.dump(out):
    print("dumped", os.path.basename(f), os.path.getsize(f) > 0)
for stage in ["fusion", "epilogue"]:
    a = c.ablate(stage)
    print("ablate %s: %d kernels, %s" % (stage, len(a.kernels), "ok" if models.rel_err(a(*xs), want) < 1e-5 else "FAIL"))
try:
    c.ablate("everything")
except braze.BrazeError as e:
    print("BrazeError:", e)
try:
    braze.compile(m, xs, frontend="jit")
except braze.BrazeError as e:
    print("BrazeError:", e)
o = braze.compile(m, xs, frontend="onnx")
print("onnx plan kernels:", [k["ops"] for k in json.loads(o.plan)["functions"][0]["kernels"]])
