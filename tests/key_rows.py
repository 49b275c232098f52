#!/usr/bin/env python3
"""Every key a scenario reader asks for by name has its row in the key table.

A getter (scn_keys_get, scn_keys_duration, ..., and the readers' own
wrappers that pass the key on: get_enum, need_duration, need_number)
called with a key that no row of sim/scenario/scn_keys.def names would read
it without the row's limits, example or "takes" message; the reader also
refuses such a key at run time (scn_keys.c, row_of), but only when a
scenario reaches it. This reads every such call with a literal key in
sim/scenario/*.c and fails, naming FILE:LINE and the key, when no row has
that name. Keys passed in variables are not seen here: row_of's refusal
holds them.

The other way round, every row is read: a row whose DEST is AT, HOOK or
AT_HOOK is read by its section's walk of the rows (scn_keys_read_rows); a
row read by its section's code (NOWHERE, AT_CODE) must be named by a getter
call, or nothing would read its key
and every scenario giving it would be refused as "unknown key". [expect
NAME]'s FIGURE row stands for the figures expect's grammar reads.
Usage: key_rows.py SOURCE_ROOT   (exit 0 clean, 1 with findings, 2 on a bad tree)
"""
import os
import re
import sys

GETTERS = (r"scn_keys_(?:get|has|need|duration|number|count|choice|report_typo)"
           r"|get_enum|need_duration|need_number")
CALL = re.compile(r"\b(" + GETTERS + r")\(\s*c\s*,\s*\"([^\"]+)\"")
ROW = re.compile(r"^SCN_KEY\(\s*[A-Z_]+\s*,[^\"]*\"([^\"]+)\"", re.M)
# section, name and DEST of each row (DEST after TYPE and LIMITS)
ROW_DEST = re.compile(r"^SCN_KEY\(\s*([A-Z_]+)\s*,[^\"]*\"([^\"]+)\",\s*\w+,\s*"
                      r"(?:[A-Z_]+\([^()]*\)|NO_LIMITS),\s*(NOWHERE|AT_HOOK|AT_CODE|AT|HOOK)\b", re.M)
# a key given to needs(c, got, ok, "key", why) of scn_tester.c
NEEDS = re.compile(r"\bneeds\(\s*c\s*,[^,;]*,[^,;]*,\s*\"([^\"]+)\"")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    folder = os.path.join(root, "sim", "scenario")
    table = os.path.join(folder, "scn_keys.def")
    if not os.path.exists(table):
        print(f"key_rows: {table}: no such file", file=sys.stderr)
        return 2
    rows = set(ROW.findall(open(table, encoding="utf-8").read()))
    if len(rows) < 50:
        print(f"key_rows: {table}: only {len(rows)} rows read", file=sys.stderr)
        return 2
    text_all = open(table, encoding="utf-8").read()
    dests = ROW_DEST.findall(text_all)
    if len(dests) != len(ROW.findall(text_all)):
        print(f"key_rows: {table}: {len(dests)} rows with a DEST of {len(ROW.findall(text_all))}", file=sys.stderr)
        return 2
    called = set()
    calls = findings = 0
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".c"):
            continue
        path = os.path.join(folder, name)
        text = open(path, encoding="utf-8").read()
        called.update(NEEDS.findall(text))
        for m in CALL.finditer(text):
            calls += 1
            called.add(m.group(2))
            if m.group(2) not in rows:
                line = text.count("\n", 0, m.start()) + 1
                print(f"{os.path.relpath(path, root)}:{line}: {m.group(1)} reads key '{m.group(2)}', "
                      "which has no row in scn_keys.def")
                findings += 1
    for section, key, dest in dests:
        by_code = dest in ("NOWHERE", "AT_CODE")
        if by_code and key not in called and key != "FIGURE":
            print(f"sim/scenario/scn_keys.def: [{section.lower()}] {key}: read by code ({dest}), "
                  "but no getter call names it")
            findings += 1
    print(f"key_rows: {calls} getter calls, {len(rows)} key names, {findings} findings")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
