#!/usr/bin/python3
"""Annotate every function of a graph file for a mesh tp=2, for the mesh differential
test: each function gets braze.mesh = [["tp", 2]] and each tensor argument's first (or,
with `last`, last) even dim is split over tp. Functions the passes would refuse (user
kernels) are left to the caller to avoid.

usage: annotate.py FILE.mlir first|last > OUT.mlir
"""
import re
import sys


def split_arg(match, last):
    """'%x: tensor<8x6xf32>' -> the same with braze.sharding on its chosen dim."""
    name, ty = match.group(1), match.group(2)
    shape = re.match(r"tensor<((?:\d+x)+)\w+>", ty)
    if not shape:
        return match.group(0)
    dims = [int(d) for d in shape.group(1).rstrip("x").split("x")]
    order = range(len(dims) - 1, -1, -1) if last else range(len(dims))
    for i in order:
        if dims[i] % 2 == 0:
            axes = ", ".join('["tp"]' if j == i else "[]" for j in range(len(dims)))
            return f"{name}: {ty} {{braze.sharding = [{axes}]}}"
    return match.group(0)


def annotate(func, last):
    """One func.func header (up to its body's brace)."""
    head = re.match(r"func\.func @(\w+)\((.*?)\)(.*)\{\n$", func, re.S)
    if not head:
        return func
    args = re.sub(r"(%\w+): (tensor<[^>]*>)(?!\s*\{)", lambda m: split_arg(m, last), head.group(2))
    rest = head.group(3)
    if "attributes {" in rest:
        rest = rest.replace("attributes {", 'attributes {braze.mesh = [["tp", 2]], ', 1)
    else:
        rest = rest.rstrip() + ' attributes {braze.mesh = [["tp", 2]]} '
    return f"func.func @{head.group(1)}({args}){rest}{{\n"


def main():
    text, last = open(sys.argv[1]).read(), sys.argv[2] == "last"
    print(re.sub(r"func\.func @\w+\(.*?\{\n", lambda m: annotate(m.group(0), last), text, flags=re.S))


main()
