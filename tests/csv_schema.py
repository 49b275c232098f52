#!/usr/bin/env python3
"""summary.csv has one schema for every scenario (docs/outputs.md).

Runs every shipped scenario (scenarios/*.ini, scenarios/tools/*.ini) with
no charts, reads each summary.csv with Python's csv module and checks:
- the header is the same for every scenario, and is the column list of
  docs/outputs.md's table (read from the doc, so the doc and the files
  cannot drift apart);
- every row has as many fields as the header (a comma inside a field is
  quoted: the kind "paced, next_slot" stays one field);
- threshold_ms is the scenario's threshold, the same in every row, and
  over_threshold is a whole number in tester rows;
- the truth row, when there is one, is named truth.

Usage: csv_schema.py COSIM SOURCE_ROOT
"""
import csv
import glob
import os
import re
import subprocess
import sys
import tempfile


def documented_columns(root):
    """The column names of docs/outputs.md's summary.csv table, in order."""
    cols = []
    with open(os.path.join(root, "docs", "outputs.md"), encoding="utf-8") as f:
        in_csv = False
        for line in f:
            if line.startswith("## "):
                in_csv = line.strip() == "## summary.csv"
            m = re.match(r"^\| (\d+(?:-\d+)?) \| ([^|]+) \|", line) if in_csv else None
            if m:
                cols += re.findall(r"`([^`]+)`", m.group(2))
    return cols


def main():
    cosim, root = os.path.realpath(sys.argv[1]), sys.argv[2]
    want = documented_columns(root)
    if len(want) < 10:
        print(f"FAIL: docs/outputs.md lists {len(want)} columns: {want}")
        return 1
    files = sorted(glob.glob(os.path.join(root, "scenarios", "*.ini")) +
                   glob.glob(os.path.join(root, "scenarios", "tools", "*.ini")))
    fails = 0
    headers = {}
    with tempfile.TemporaryDirectory() as work:
        for i, path in enumerate(files):
            out = os.path.join(work, str(i))
            run = subprocess.run([cosim, path, "--charts", "none", "-q", "-o", out],
                                 cwd=root, capture_output=True, text=True)
            if run.returncode != 0:
                print(f"FAIL: {path}: exit {run.returncode}: {run.stderr.strip()}")
                fails += 1
                continue
            with open(os.path.join(out, "summary.csv"), newline="", encoding="utf-8") as f:
                rows = list(csv.reader(f))
            with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
                m = re.search(r'"threshold_ns": (\d+)', f.read())
            header, body = rows[0], rows[1:]
            headers[path] = header
            if header != want:
                print(f"FAIL: {path}: header {header}, docs/outputs.md says {want}")
                fails += 1
                continue
            col = {name: k for k, name in enumerate(header)}
            for r in body:
                if len(r) != len(header):
                    print(f"FAIL: {path}: a row of {len(r)} fields, the header has {len(header)}: {r}")
                    fails += 1
                    continue
                if m and r[col["threshold_ms"]] != ms(int(m.group(1))):
                    print(f"FAIL: {path}: threshold_ms {r[col['threshold_ms']]}, summary.json says "
                          f"{m.group(1)} ns")
                    fails += 1
                if r[col["tester"]] != "truth" and not r[col["over_threshold"]].isdigit():
                    print(f"FAIL: {path}: over_threshold {r[col['over_threshold']]!r} is not a count")
                    fails += 1
    if len(set(map(tuple, headers.values()))) > 1:
        print("FAIL: the scenarios' headers differ")
        fails += 1
    if fails == 0:
        print(f"csv-schema: {len(headers)} scenarios, one header of {len(want)} columns")
    return 1 if fails else 0


def ms(ns):
    """ns as summary.csv writes milliseconds: every digit, no trailing zeros."""
    s = f"{ns // 1000000}.{ns % 1000000:06d}".rstrip("0")
    return s.rstrip(".")


if __name__ == "__main__":
    sys.exit(main())
