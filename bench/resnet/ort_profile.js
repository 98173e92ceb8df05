// Where ONNX Runtime's time goes on a model, op by op: its own profiler (session option
// enableProfiling) over RUNS calls, and per node the median of the calls after the
// first two, largest first, with the sum of the medians. The peer's side of the
// per-kernel comparison that `perf record` gives for braze's libraries (docs/performance-log.md,
// "Wide tiles").
//
//   NODE_PATH=bench/out/node_modules env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \
//     node bench/resnet/ort_profile.js bench/out/resnet/resnet18_b8.onnx bench/out/resnet/resnet18_b8.x.npy [RUNS] [THREADS]
//
// bench/resnet/run.py writes the model and its input; its ONNX Runtime install
// (bench/out/node_modules) is the one used. The session options are run.py's (all graph
// optimizations, THREADS intra-op threads, default 2, sequential). The profiler's JSON
// goes to a temporary directory and is removed.
const ort = require('onnxruntime-node');
const { loadNpy } = require('../npy');
const fs = require('fs');
const os = require('os');
const path = require('path');


const median = (v) => v.slice().sort((a, b) => a - b)[Math.floor(v.length / 2)];

(async () => {
  const [model, input, runsArg, threadsArg] = process.argv.slice(2);
  if (!model || !input) {
    console.error('usage: node bench/resnet/ort_profile.js MODEL.onnx INPUT.npy [RUNS] [THREADS]');
    process.exit(2);
  }
  const runs = Number(runsArg || 12), threads = Number(threadsArg || 2);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ort-profile-'));
  try {
    const sess = await ort.InferenceSession.create(model, {
      graphOptimizationLevel: 'all', intraOpNumThreads: threads, interOpNumThreads: 1, executionMode: 'sequential',
      enableProfiling: true, profileFilePrefix: path.join(dir, 'profile') });
    const feeds = { [sess.inputNames[0]]: loadNpy(ort, input) };
    for (let i = 0; i < runs; i++) await sess.run(feeds);
    await sess.release();
    const file = fs.readdirSync(dir).find((f) => f.endsWith('.json'));
    const events = JSON.parse(fs.readFileSync(path.join(dir, file)));
    const calls = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').map((e) => e.dur / 1000);
    const nodes = new Map();
    for (const e of events.filter((e) => e.cat === 'Node' && e.name.endsWith('_kernel_time'))) {
      const n = nodes.get(e.name) || { op: e.args.op_name, ms: [] };
      n.ms.push(e.dur / 1000);
      nodes.set(e.name, n);
    }
    const rows = [...nodes].map(([name, n]) => ({ name: name.replace(/_kernel_time$/, ''), op: n.op,
                                                  ms: median(n.ms.length > 2 ? n.ms.slice(2) : n.ms) }));
    rows.sort((a, b) => b.ms - a.ms);
    const total = rows.reduce((s, r) => s + r.ms, 0);
    console.log(`${path.basename(model)}: ${runs} calls, ${threads} threads; call ms: ${calls.map((c) => c.toFixed(1)).join(' ')}`);
    console.log(`sum of the nodes' medians ${total.toFixed(2)} ms`);
    for (const r of rows) console.log(`${r.ms.toFixed(3).padStart(8)} ms  ${r.op.padEnd(18)} ${r.name}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
})().catch((e) => { console.error(String(e)); process.exit(1); });
