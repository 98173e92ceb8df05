"""Turn every graph op example in docs/dialect-graph.md into a function whose block
arguments have the example's operand types, so braze-opt can parse and verify it.
usage: doc_examples.py DOC > out.mlir"""
import re
import sys


def split_types(text):
    """Split 'tensor<2x3xf32>, tensor<4xf32>' at top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += ch in "<([{"
        depth -= ch in ">)]}"
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def examples(doc):
    blocks = re.findall(r"```mlir\n(.*?)```", doc, re.S)
    for block in blocks:
        stmt = ""
        for line in block.splitlines():
            if stmt and line.strip().startswith(":"):
                stmt += " " + line.strip()  # a continuation line
                continue
            if stmt:
                yield stmt
            stmt = line.strip() if '"graph.' in line and "=" in line else ""
        if stmt:
            yield stmt


COLLECTIVES = {"all_reduce", "all_gather", "reduce_scatter", "all_to_all", "all_slice"}


def main():
    doc = open(sys.argv[1]).read()
    count = 0
    for stmt in examples(doc):
        m = re.match(r'%\w+ = ("graph\.\w+")\((.*?)\)(.*): \((.*?)\) -> (.+)$', stmt)
        if not m or "dense_resource" in stmt or "user_kernel" in stmt:
            continue
        name, operands, attrs, in_types, result = m.groups()
        types = split_types(in_types)
        args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(types))
        uses = ", ".join(f"%a{i}" for i in range(len(types)))
        # Collectives need a mesh on their function (docs/dialect-graph.md "Collectives").
        mesh = ' attributes {braze.mesh = [["dp", 2], ["tp", 2]]}' if name[7:-1] in COLLECTIVES else ""
        print(f"func.func @example{count}({args}) -> {result}{mesh} {{")
        print(f"  %r = {name}({uses}){attrs}: ({in_types}) -> {result}")
        print(f"  return %r : {result}")
        print("}")
        count += 1
    print(f"// {count} examples")


main()
