// tools/braze/ort-run.js MODEL.onnx OUTDIR in0.npy,in1.npy,... : runs a model with ONNX Runtime (CPU,
// onnxruntime-node from NODE_PATH) and writes OUTDIR/ort<i>.npy. Every element type but bf16.
// The oracle of `braze check MODEL.onnx` (tools/braze/ort-oracle.c).
const ort = require('onnxruntime-node');
const fs = require('fs');
// .npy descr <-> ONNX Runtime tensor type and typed array ('<u2' is uint16: bf16, which
// braze also writes as '<u2', is refused before the run).
const TYPES = {
  '<f4': ['float32', Float32Array], '<f8': ['float64', Float64Array], '<f2': ['float16', Uint16Array],
  '|i1': ['int8', Int8Array], '<i2': ['int16', Int16Array], '<i4': ['int32', Int32Array],
  '<i8': ['int64', BigInt64Array], '|u1': ['uint8', Uint8Array], '<u2': ['uint16', Uint16Array],
  '<u4': ['uint32', Uint32Array], '<u8': ['uint64', BigUint64Array], '|b1': ['bool', Uint8Array],
};
function readNpy(p) {
  const b = fs.readFileSync(p);
  const hlen = b.readUInt16LE(8);
  const header = b.slice(10, 10 + hlen).toString();
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter(s => s.trim()).map(Number);
  const bytes = b.buffer.slice(b.byteOffset + 10 + hlen, b.byteOffset + b.length);
  const descr = header.match(/'descr': '([^']*)'/)[1];
  if (!TYPES[descr]) throw new Error(`input ${p}: element type ${descr} is not supported`);
  const [type, Array_] = TYPES[descr];
  return new ort.Tensor(type, new Array_(bytes), shape);
}
function descrOf(type) {
  for (const [d, [t]] of Object.entries(TYPES)) if (t === type) return d;
  throw new Error(`output element type ${type} is not supported`);
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
    let h = `{'descr': '${descrOf(t.type)}', 'fortran_order': False, 'shape': ${shape}, }`;
    while ((10 + h.length + 1) % 64) h += ' ';
    h += '\n';
    const hb = Buffer.alloc(10);
    hb.write('\x93NUMPY', 0, 'latin1'); hb[6] = 1; hb[7] = 0; hb.writeUInt16LE(h.length, 8);
    const data = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    fs.writeFileSync(`${out}/ort${i}.npy`, Buffer.concat([hb, Buffer.from(h), data]));
  });
  console.log('ok', s.outputNames.join(','));
})().catch(e => { console.error(e.message); process.exit(1); });
