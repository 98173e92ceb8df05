"""merge-kernels.py PLAN.json OP_A OP_B: the plan with the kernels holding OP_A and
OP_B merged into one (at the first one's place), as a person would edit it; prints it."""
import json
import sys

plan = json.load(open(sys.argv[1]))
for f in plan["functions"]:
    kernels = f["kernels"]
    a = next(k for k in kernels if sys.argv[2] in k["ops"])
    b = next(k for k in kernels if sys.argv[3] in k["ops"])
    a["ops"] += b["ops"]
    kernels.remove(b)
    del a["name"], a["kind"]
    f.pop("refused", None)
json.dump(plan, sys.stdout, indent=1)
