"""A second compile of the same module loads from the cache: timed, faster, same results."""
import os
import sys
import time

import torch

import braze
import models

m, xs = models.model(sys.argv[1])
m.eval()
print("cleared", braze.cache.clear())
t0 = time.perf_counter()
c1 = braze.compile(m, xs)
t1 = time.perf_counter()
c2 = braze.compile(m, xs)
t2 = time.perf_counter()
cold, warm = t1 - t0, t2 - t1
print("first: hit=%s; second: hit=%s" % (c1.cache_hit, c2.cache_hit))
print("faster: %s" % (warm < cold))
print("same: %s" % torch.equal(c1(*xs), c2(*xs)))
entries = [d for d in os.listdir(braze.cache.cache_dir()) if not d.startswith(".")]
print("entries: %d, temporaries left: %d" % (len(entries), len(os.listdir(braze.cache.cache_dir())) - len(entries)))
# Another pipeline, CPU or plan is another key.
c3 = braze.compile(m, xs, pipeline="cpu-no-fusion")
print("other pipeline: hit=%s" % c3.cache_hit)
print("cleared", braze.cache.clear())
sys.stderr.write("%s: cold %.1f ms, cache hit %.1f ms\n" % (sys.argv[1], cold * 1e3, warm * 1e3))
