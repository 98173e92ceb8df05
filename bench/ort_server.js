// ONNX Runtime (CPU, all graph optimizations) as a timing server for bench/run, so that
// its runs interleave with braze's and PyTorch's in one benchmark.
// Protocol (one line per request on stdin, one JSON line per reply on stdout):
//   load NAME MODEL.onnx THREADS IN1.npy,IN2.npy,...   -> {"ok":true}
//   time NAME ITERS                                    -> {"ms":[...]}
//   save NAME OUT.bin                                  -> {"ok":true} (raw float32 output 0)
const ort = require('onnxruntime-node');
const { loadNpy } = require('./npy');
const fs = require('fs');
const readline = require('readline');


const sessions = {};
const rl = readline.createInterface({ input: process.stdin });
const reply = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');

rl.on('line', async (line) => {
  rl.pause();
  const [cmd, name, a, b, c] = line.trim().split(' ');
  try {
    if (cmd === 'load') {
      const opts = { graphOptimizationLevel: 'all', intraOpNumThreads: Number(b), interOpNumThreads: 1,
                     executionMode: 'sequential' };
      const sess = await ort.InferenceSession.create(a, opts);
      const files = c.split(',');
      const feeds = {};
      sess.inputNames.forEach((n, i) => { feeds[n] = loadNpy(ort, files[i]); });
      sessions[name] = { sess, feeds };
      reply({ ok: true });
    } else if (cmd === 'time') {
      const { sess, feeds } = sessions[name];
      const ms = [];
      for (let i = 0; i < Number(a); i++) {
        const t0 = process.hrtime.bigint();
        await sess.run(feeds);
        ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
      }
      reply({ ms });
    } else if (cmd === 'save') {
      const { sess, feeds } = sessions[name];
      const out = await sess.run(feeds);
      const t = out[sess.outputNames[0]];
      fs.writeFileSync(a, Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength));
      reply({ ok: true });
    } else {
      reply({ error: `unknown command ${cmd}` });
    }
  } catch (e) {
    reply({ error: String(e) });
  }
  rl.resume();
});
