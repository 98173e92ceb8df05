// A float32 .npy file as an ONNX Runtime tensor (bench/ort_server.js, bench/resnet/ort_profile.js).
const fs = require('fs');

function loadNpy(ort, file) {
  const buf = fs.readFileSync(file);
  const hlen = buf.readUInt16LE(8);
  const header = buf.slice(10, 10 + hlen).toString();
  if (!header.includes("'<f4'")) throw new Error(`${file}: only float32 .npy is supported`);
  const shape = header.match(/'shape': \(([^)]*)\)/)[1].split(',').filter(s => s.trim()).map(Number);
  const bytes = buf.slice(10 + hlen);
  const data = new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length));
  return new ort.Tensor('float32', data, shape);
}

module.exports = { loadNpy };
