"""Holds braze's table of CPUs (targets/cpu/cpu-model.c) against clang's own -march
definitions: for every name `braze compile --list-targets` accepts, the features braze
compiles for and checks at run time must be the ones clang defines for that CPU.

    cpu_models.py BRAZE CLANG"""
import re
import subprocess
import sys

MACROS = {
    "ssse3": "__SSSE3__", "sse4.1": "__SSE4_1__", "sse4.2": "__SSE4_2__", "popcnt": "__POPCNT__",
    "cx16": "__GCC_HAVE_SYNC_COMPARE_AND_SWAP_16", "avx": "__AVX__", "avx2": "__AVX2__", "bmi": "__BMI__",
    "bmi2": "__BMI2__", "fma": "__FMA__", "f16c": "__F16C__", "lzcnt": "__LZCNT__", "movbe": "__MOVBE__",
    "avx512f": "__AVX512F__", "avx512bw": "__AVX512BW__", "avx512cd": "__AVX512CD__", "avx512dq": "__AVX512DQ__",
    "avx512vl": "__AVX512VL__", "avx512bf16": "__AVX512BF16__", "avx512fp16": "__AVX512FP16__",
    "avx512vnni": "__AVX512VNNI__", "avx512vbmi": "__AVX512VBMI__", "avx512vbmi2": "__AVX512VBMI2__",
    "avx512ifma": "__AVX512IFMA__", "avx512bitalg": "__AVX512BITALG__", "avx512vpopcntdq": "__AVX512VPOPCNTDQ__",
    "avxvnni": "__AVXVNNI__", "gfni": "__GFNI__", "vaes": "__VAES__", "vpclmulqdq": "__VPCLMULQDQ__",
}


def braze_features(braze, cpu):
    out = subprocess.run([braze, "compile", f"--cpu={cpu}", "--list-targets"], capture_output=True, text=True,
                         check=True).stdout
    line = next(l for l in out.splitlines() if "checked at run time:" in l)
    listed = line.split("checked at run time:", 1)[1].strip()
    return set() if listed.startswith("nothing") else set(listed.split())


def clang_features(clang, cpu):
    out = subprocess.run([clang, f"-march={cpu}", "-dM", "-E", "-x", "c", "/dev/null"], capture_output=True,
                         text=True, check=True).stdout
    defined = set(re.findall(r"#define (\w+)", out))
    return {f for f, m in MACROS.items() if m in defined}


def main():
    braze, clang = sys.argv[1], sys.argv[2]
    listing = subprocess.run([braze, "compile", "--list-targets"], capture_output=True, text=True, check=True).stdout
    names = re.findall(r"^  ([a-z0-9.-]+) +\d+ x \d+-bit", listing, re.M)
    bad = 0
    for cpu in names:
        b, c = braze_features(braze, cpu), clang_features(clang, cpu)
        if b != c:
            bad += 1
            print(f"MISMATCH {cpu}: braze only {sorted(b - c)}, clang only {sorted(c - b)}")
        else:
            print(f"OK {cpu}: {len(b)} features")
    print(f"{len(names)} CPUs, {bad} mismatches")
    sys.exit(1 if bad or not names else 0)


if __name__ == "__main__":
    main()
