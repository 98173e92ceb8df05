// ort_run.js MODEL.onnx OUTDIR in0.npy,in1.npy,... : runs a model with ONNX Runtime (CPU,
// onnxruntime-node from NODE_PATH) and writes OUTDIR/ort<i>.npy. f32, i32 and i64 inputs; f32 outputs.
// The oracle of `braze check MODEL.onnx` (tools/braze/ort_oracle.c).
const ort = require('onnxruntime-node');
const fs = require('fs');
function readNpy(p) {
  const b = fs.readFileSync(p);
  const hlen = b.readUInt16LE(8);
  const header = b.slice(10, 10 + hlen).toString();
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter(s => s.trim()).map(Number);
  const bytes = b.buffer.slice(b.byteOffset + 10 + hlen, b.byteOffset + b.length);
  const descr = header.match(/'descr': '([^']*)'/)[1];
  if (descr === '<i8') return new ort.Tensor('int64', new BigInt64Array(bytes), shape);
  if (descr === '<i4') return new ort.Tensor('int32', new Int32Array(bytes), shape);
  return new ort.Tensor('float32', new Float32Array(bytes), shape);
}
(async () => {
  const [model, out, inputs] = process.argv.slice(2);
  const s = await ort.InferenceSession.create(model);
  const feeds = {};
  inputs.split(',').forEach((p, i) => { feeds[s.inputNames[i]] = readNpy(p); });
  const r = await s.run(feeds);
  s.outputNames.forEach((n, i) => {
    const t = r[n];
    const shape = '(' + t.dims.join(', ') + (t.dims.length === 1 ? ',' : '') + ')';
    let h = `{'descr': '<f4', 'fortran_order': False, 'shape': ${shape}, }`;
    while ((10 + h.length + 1) % 64) h += ' ';
    h += '\n';
    const hb = Buffer.alloc(10);
    hb.write('\x93NUMPY', 0, 'latin1'); hb[6] = 1; hb[7] = 0; hb.writeUInt16LE(h.length, 8);
    fs.writeFileSync(`${out}/ort${i}.npy`, Buffer.concat([hb, Buffer.from(h), Buffer.from(t.data.buffer)]));
  });
  console.log('ok', s.outputNames.join(','));
})().catch(e => { console.error(e.message); process.exit(1); });
