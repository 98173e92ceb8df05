"""A compile's stages on stderr (braze._progress): the final line after
$BRAZE_PROGRESS_AFTER seconds; quiet=True prints nothing. argv[1]: the frontend."""
import sys

import torch

import braze
import models

m, xs = models.model("mlp")
m.eval()
frontend = sys.argv[1]
sys.stderr.write("-- compile\n")
braze.compile(m, xs, frontend=frontend)
sys.stderr.write("-- quiet\n")
braze.compile(m, (torch.randn(3, 32),), frontend=frontend, quiet=True)
sys.stderr.write("-- hit\n")
braze.compile(m, xs, frontend=frontend)
sys.stderr.write("-- failing\n")
try:
    braze.compile(m, xs, frontend=frontend, pipeline="no-such-pipeline")
except braze.BrazeError as e:
    sys.stderr.write("BrazeError: %s\n" % str(e).splitlines()[-1])
