# The libFuzzer targets (included by CMakeLists.txt when BRAZE_FUZZ is on; built by
# `make fuzz-build` into build-fuzz/). One executable per target, fuzz-<name>, each
# linking the sanitized braze libraries and libFuzzer's main.
set(BRAZE_FUZZ_TARGETS mlir-pipeline onnx-import npy pipeline-text fusion-plan differential)
add_library(braze_fuzz_harness STATIC ${CMAKE_SOURCE_DIR}/fuzz/harness.c)
target_link_libraries(braze_fuzz_harness PUBLIC braze_core)
set(BRAZE_FUZZ_EXECUTABLES)
foreach(name ${BRAZE_FUZZ_TARGETS})
  add_executable(fuzz-${name} ${CMAKE_SOURCE_DIR}/fuzz/${name}.c)
  target_link_libraries(fuzz-${name} PRIVATE braze_fuzz_harness braze_import braze_reference braze_core
                        ${LLVM_LIBRARY_DIR}/libomp.so)
  target_link_options(fuzz-${name} PRIVATE -fsanitize=fuzzer)
  list(APPEND BRAZE_FUZZ_EXECUTABLES fuzz-${name})
endforeach()
add_custom_target(fuzz-targets DEPENDS ${BRAZE_FUZZ_EXECUTABLES})
