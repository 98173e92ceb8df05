# braze: `make demo` and `make check` do all the set-up on a fresh Debian machine.
#
#   make deps     install missing Debian packages (apt-get; nothing when all are there)
#   make build    configure and build into build/
#   make check    build, then run every lit and unit test, in the normal build and
#                 again in an ASan+UBSan build (build-asan/)
#   make check-fast   the normal build's tests only; make check-asan: the sanitized ones
#   make install  install braze, braze-opt, the public headers, the pipelines, a CMake
#                 package and a pkg-config file under PREFIX (default /usr/local)
#   make install-python   pip-install the Python package (python/, pure Python) under
#                 PREFIX (offline: no build isolation, no dependencies; docs/python.md)
#   make check-example   the out-of-tree plugin example (examples/plugin-target) built
#                 against a staged install of build/, and its tests (part of make check)
#   make demo     compile the bundled example for the CPU, run it, check it
#   make bench    run the benchmark suite (bench/README.md)
#   make docs     render the pictures in docs/ (the fusion graph, with Graphviz)
#   make fuzz-build   the libFuzzer targets (fuzz/, clang-22, ASan+UBSan) in build-fuzz/
#   make fuzz FUZZ_SECONDS=N   run each fuzz target N seconds; fails on any finding
#                 (reproducers in fuzz/crashes/, docs/reliability.md)
#
# Every configure here (build/, build-asan/, build-fuzz/, and the plugin example in
# make check-example) turns warnings into errors (-DBRAZE_WERROR=ON, -DSIMD128_WERROR=ON);
# a plain `cmake -S . -B dir` builds with -Wall -Wextra but without -Werror.

LLVM_DIR  := /usr/lib/llvm-22
LIT       := $(LLVM_DIR)/bin/lit
JOBS      ?= $(shell nproc)
BUILD     ?= build
PREFIX    ?= /usr/local
ASAN_BUILD?= build-asan
FUZZ_BUILD?= build-fuzz
FUZZ_SECONDS ?= 60

# What the build and the tests need: build-essential (cc/c++ for CMake, the demo's C
# caller, gcc's ASan/UBSan runtimes), binutils (nm), llvm-22-tools (lit, FileCheck, not,
# count, split-file), mlir-22-tools (mlir-opt), clang-22 (the C tests' callers),
# python3-numpy and python3-onnx (numerical tests, the ONNX importer's tests),
# libjansson-dev (reading fusion plans, passes/fusion/plan.c).
# node + onnxruntime-node are optional (test/import/ort.test, REQUIRES: onnxruntime).
DEBS := build-essential binutils cmake python3 \
        libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools libomp-22-dev clang-22 \
        protobuf-c-compiler libprotobuf-c-dev libopenblas-dev python3-numpy python3-onnx \
        libjansson-dev
BENCH_DEBS := python3-torch python3-torchvision python3-matplotlib graphviz
# Node.js and npm (ONNX Runtime's node package) from Debian only where no `npm` is on
# PATH: a machine with NodeSource's nodejs (which bundles npm) conflicts with Debian's npm.
BENCH_NODE_DEBS := nodejs npm
# make docs: Graphviz's dot renders the fusion graph picture (not needed by make check).
DOCS_DEBS := graphviz

.PHONY: all deps bench-deps docs-deps build build-asan check check-fast check-asan check-example install install-python demo bench docs clean \
        fuzz-build fuzz

all: build

deps:
	@missing=$$(for p in $(DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

bench-deps: deps
	@missing=$$(for p in $(BENCH_DEBS) $$(command -v npm >/dev/null || echo $(BENCH_NODE_DEBS)); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

docs-deps:
	@missing=$$(for p in $(DOCS_DEBS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -q && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -q $$missing; \
	fi

$(BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBRAZE_WERROR=ON

$(ASAN_BUILD)/Makefile: CMakeLists.txt
	cmake -S . -B $(ASAN_BUILD) -DCMAKE_BUILD_TYPE=Debug -DBRAZE_SANITIZE=ON -DBRAZE_WERROR=ON

# The fuzz build: every braze source with clang-22 and -fsanitize=fuzzer-no-link,address,
# undefined; only the fuzz targets are built (fuzz/fuzz.cmake).
$(FUZZ_BUILD)/Makefile: CMakeLists.txt fuzz/fuzz.cmake
	cmake -S . -B $(FUZZ_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBRAZE_FUZZ=ON -DBRAZE_WERROR=ON \
	  -DCMAKE_C_COMPILER=$(LLVM_DIR)/bin/clang -DCMAKE_CXX_COMPILER=$(LLVM_DIR)/bin/clang++

build: deps $(BUILD)/Makefile
	cmake --build $(BUILD) -j $(JOBS)

build-asan: deps $(ASAN_BUILD)/Makefile
	cmake --build $(ASAN_BUILD) -j $(JOBS)

# The normal build's tests, then the same tests on the sanitized build (where the
# heaviest numerical tests are UNSUPPORTED: asan, see lit.cfg). One test:
#   BRAZE_BUILD=$PWD/build /usr/lib/llvm-22/bin/lit -sv test/e2e/fusion.mlir
# test/e2e runs once more compiled for x86-64-v3 (BRAZE_CPU, --cpu's default), which
# every AVX2 host executes: an AVX-512 machine catches AVX2 breakage (decision 0026).
LIT_FLAGS ?= -sv -j $(JOBS)
E2E_CPU ?= x86-64-v3
check: build build-asan
	BRAZE_BUILD=$(CURDIR)/$(BUILD) $(LIT) $(LIT_FLAGS) test
	BRAZE_BUILD=$(CURDIR)/$(BUILD) BRAZE_CPU=$(E2E_CPU) $(LIT) $(LIT_FLAGS) test/e2e
	BRAZE_BUILD=$(CURDIR)/$(ASAN_BUILD) BRAZE_SANITIZED=1 $(LIT) $(LIT_FLAGS) test
	$(MAKE) --no-print-directory check-example

check-fast: build
	BRAZE_BUILD=$(CURDIR)/$(BUILD) $(LIT) $(LIT_FLAGS) test
	BRAZE_BUILD=$(CURDIR)/$(BUILD) BRAZE_CPU=$(E2E_CPU) $(LIT) $(LIT_FLAGS) test/e2e

check-asan: build-asan
	BRAZE_BUILD=$(CURDIR)/$(ASAN_BUILD) BRAZE_SANITIZED=1 $(LIT) $(LIT_FLAGS) test

install: build
	cmake --install $(BUILD) --prefix $(PREFIX)

# The package finds the tool as $BRAZE_BIN, the build tree beside it, or `braze` on PATH
# (PREFIX/bin after make install). PYTHON needs pip (Debian: python3-pip).
PYTHON ?= /usr/bin/python3
install-python:
	$(PYTHON) -m pip install --no-build-isolation --no-deps --prefix $(PREFIX) ./python

# The example plugin sees only what `make install` puts under a prefix: install into
# $(BUILD)/stage, build examples/plugin-target with its own CMakeLists.txt against it,
# run its lit tests with the staged tools.
STAGE := $(CURDIR)/$(BUILD)/stage
check-example: build
	rm -rf $(STAGE) $(BUILD)/simd128
	cmake --install $(BUILD) --prefix $(STAGE) >/dev/null
	cmake -S examples/plugin-target -B $(BUILD)/simd128 -DCMAKE_PREFIX_PATH=$(STAGE) -DSIMD128_WERROR=ON >/dev/null
	cmake --build $(BUILD)/simd128
	BRAZE_PREFIX=$(STAGE) SIMD128_PLUGIN=$(CURDIR)/$(BUILD)/simd128/libsimd128.so \
	  $(LIT) $(LIT_FLAGS) examples/plugin-target/test

fuzz-build: deps $(FUZZ_BUILD)/Makefile
	cmake --build $(FUZZ_BUILD) -j $(JOBS) --target fuzz-targets

# Each target FUZZ_SECONDS seconds, one after the other (the normal build writes the
# fusion-plan seeds). Fails on any crash, leak, timeout or mismatch.
fuzz: build fuzz-build
	BRAZE_BUILD=$(CURDIR)/$(BUILD) ./fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS)

demo: build
	./examples/demo.sh $(BUILD)

bench: bench-deps build
	./bench/run

# The fusion graph of the llama FFN workload (form-kernels{report-format=dot}), rendered
# into docs/fusion-graph-W6.png for docs/fusion-plans.md.
FRONT := graph-verify,graph-decompose,graph-simplify,graph-to-loops,inline-unrealized
docs: docs-deps build
	$(BUILD)/braze-opt bench/workloads/W6.mlir -o /dev/null \
	  --pass-pipeline='builtin.module($(FRONT),form-kernels{report-format=dot report=$(BUILD)/fusion-graph-W6.dot})'
	dot -Tpng $(BUILD)/fusion-graph-W6.dot -o docs/fusion-graph-W6.png

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD)
