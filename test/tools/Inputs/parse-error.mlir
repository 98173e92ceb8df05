// Not a test: input for test/tools (a parse error on line 4, column 3).
func.func @bad() {
  // the next line is not MLIR
  bogus_token
  return
}
