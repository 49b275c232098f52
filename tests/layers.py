#!/usr/bin/env python3
"""The house's one rule, checked: includes point down, and modules form no cycle.

The layers, bottom to top, and what each may include (itself and every layer
before it in LAYERS): this list is the one place the allowed directions are
written. A file's layer is its folder (sim/<layer>/ or cli/). A module is a
.c/.h pair with its prefix, spread over the files that share the prefix
(tester_open.c, tester_loop.h: module tester; scn_keys.c: module scenario).

Reads every #include "..." line of sim/ and cli/ and fails, naming each file
and line, on
  - an include of a header of a higher layer (an upward include), and
  - a cycle between two or more modules (by includes), and
  - a call FORBIDDEN_CALLS keeps out of a layer (the outputs calling the
    engine), and
  - a kind named outside its table (KIND_TABLES): a comparison such as
    kind == TESTER_OPEN instead of a question of the kind's flags.
Usage: layers.py SOURCE_ROOT   (exit 0 clean, 1 with findings, 2 on a bad tree)
"""
import os
import re
import sys

LAYERS = ["base", "formats", "model", "scenario", "run", "outputs", "cli"]
# Calls a layer must not make although the header is within reach: the
# outputs draw what the run hands them (run_stop_windows, tester_grid_of)
# and never run the engine themselves.
FORBIDDEN_CALLS = {"outputs": ["server_new", "server_next_window", "tester_run", "tester_run_with_truth"]}
# The per-kind tables: (the .def file, its row macro, the enum's prefix).
# A kind's value may be named only in its table, and as the `.kind = X`
# a strategy row or a spec initialiser declares; everywhere else code asks
# the kind's flags (tester_kind_has, stall_kind_has).
KIND_TABLES = [("sim/model/tester_kinds.def", "TESTER_KIND", "TESTER_"),
               ("sim/model/stall_kinds.def", "STALL_KIND", "STALL_")]
CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\s*\(")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layer_files(root):
    """Every source file of the library and the CLI, as (layer, path)."""
    out = []
    for layer in LAYERS:
        folder = os.path.join(root, "cli") if layer == "cli" else os.path.join(root, "sim", layer)
        if not os.path.isdir(folder):
            print(f"layers: {folder}: no such folder", file=sys.stderr)
            sys.exit(2)
        for name in sorted(os.listdir(folder)):
            if name.endswith((".c", ".h", ".def")):
                out.append((layer, os.path.join(folder, name)))
    stray = [n for n in os.listdir(os.path.join(root, "sim"))
             if n.endswith((".c", ".h", ".def"))]
    for n in stray:
        print(f"layers: sim/{n}: a file outside every layer folder")
    return out, len(stray)


def module_of(stem, headers):
    """The module a file belongs to: the shortest header name that is the
    file's name or a prefix of it followed by '_' (run_reps.c and
    tester_loop.h are parts of run and tester, as docs/hacking.md spreads
    them); scn_ is the scenario module's own prefix."""
    if stem.startswith("scn_"):
        return "scenario"
    best = None
    for h in headers:
        if stem == h or stem.startswith(h + "_"):
            if best is None or len(h) < len(best):
                best = h
    return best or stem


def kind_names(root, files):
    """Each use of a kind's enum value outside its table; the count."""
    found = 0
    for table, macro, prefix in KIND_TABLES:
        path = os.path.join(root, table)
        if not os.path.exists(path):
            print(f"layers: {table}: no such table")
            found += 1
            continue
        rows = re.findall(r"^" + macro + r"\(\s*([A-Z0-9_]+)\s*,", open(path, encoding="utf-8").read(), re.M)
        if not rows:
            print(f"layers: {table}: no {macro} row")
            found += 1
            continue
        value = re.compile(r"\b" + prefix + "(" + "|".join(rows) + r")\b")
        for _, f in files:
            if os.path.abspath(f) == os.path.abspath(path):
                continue
            text = open(f, encoding="utf-8").read()
            for m in value.finditer(text):
                line_start = text.rfind("\n", 0, m.start()) + 1
                before = text[line_start:m.start()]
                opened = before.rfind("/*")
                in_comment = opened >= 0 and "*/" not in before[opened:]
                if re.search(r"(\.|->)kind\s*=\s*$", before) or in_comment or \
                        before.lstrip().startswith(("*", "//")):
                    continue  # a row declaring its kind, or a comment
                line = text.count("\n", 0, m.start()) + 1
                print(f"{os.path.relpath(f, root)}:{line}: names the kind {m.group(0)} outside {table} "
                      "(ask its flags)")
                found += 1
    return found


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    files, findings = layer_files(root)
    rank = {l: i for i, l in enumerate(LAYERS)}
    where = {}  # header name -> layer
    for layer, path in files:
        name = os.path.basename(path)
        if name in where:
            print(f"layers: {name} is in {where[name]}/ and {layer}/")
            findings += 1
        where[name] = layer
    headers = {os.path.basename(p)[:-2] for _, p in files if p.endswith(".h")}
    edges = {}
    for layer, path in files:
        stem = os.path.basename(path).rsplit(".", 1)[0]
        mod = module_of(stem, headers)
        text = open(path, encoding="utf-8").read()
        for m in CALL.finditer(text):
            if m.group(1) in FORBIDDEN_CALLS.get(layer, ()):
                line = text.count("\n", 0, m.start()) + 1
                print(f"{os.path.relpath(path, root)}:{line}: {layer}/ calls {m.group(1)} (the run hands it what it draws)")
                findings += 1
        for m in INCLUDE.finditer(text):
            inc = m.group(1)
            if inc not in where:
                continue  # cosim_config.h, a test's header
            line = text.count("\n", 0, m.start()) + 1
            rel = os.path.relpath(path, root)
            if rank[where[inc]] > rank[layer]:
                print(f"{rel}:{line}: includes {inc} of {where[inc]}/ from {layer}/ (upward)")
                findings += 1
            imod = module_of(inc.rsplit(".", 1)[0], headers)
            if imod != mod:
                edges.setdefault(mod, {}).setdefault(imod, f"{rel}:{line}")
    findings += kind_names(root, files)
    # cycles: Tarjan's strongly connected components over the module graph
    index, low, stack, on, comps = {}, {}, [], set(), []
    counter = [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))

    for v in sorted(set(edges) | {w for e in edges.values() for w in e}):
        if v not in index:
            strong(v)
    for comp in comps:
        print(f"cycle between modules {', '.join(comp)}:")
        for a in comp:
            for b, at in sorted(edges.get(a, {}).items()):
                if b in comp:
                    print(f"  {at}: {a} -> {b}")
        findings += 1
    mods = len({module_of(os.path.basename(p).rsplit('.', 1)[0], headers) for _, p in files})
    print(f"layers: {len(files)} files, {mods} modules in {len(LAYERS)} layers, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
