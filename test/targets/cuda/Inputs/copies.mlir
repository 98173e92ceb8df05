// Entries that only move data (no kernels): outputs are device-to-device copies of
// the inputs, so `braze check` passes even on the stand-in driver, whose kernels never
// run: the whole path of braze check --target=cuda (device buffers, copies in,
// poisoned outputs, the call, synchronize, copies back, the comparison) on real data.
func.func @ident(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  return %x : tensor<4x6xf32>
}

func.func @swap(%x: tensor<7xbf16>, %y: tensor<3x5xi64>) -> (tensor<3x5xi64>, tensor<7xbf16>, tensor<7xbf16>) {
  return %y, %x, %x : tensor<3x5xi64>, tensor<7xbf16>, tensor<7xbf16>
}
