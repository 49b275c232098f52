#!/usr/bin/env python3
"""The docs' examples against the binary (issue 35): every ```sh block of a
Markdown file holding one `build/cosim ...` command, followed by a plain ```
block, must show exactly what that command prints.

Usage: docs_blocks.py [--update] COSIM SOURCE_ROOT FILE.md...

The command runs in SOURCE_ROOT with COSIM for build/cosim, charts off
(--no-plot) and its outputs in a temporary folder (-o, unless it gives one or
runs --check); the "wrote FOLDER/: ..." line that ends a run, which names that
folder, is left out with the blank line before it. --update rewrites the
blocks with what the commands print (commit that with the change that moved
them); without it a difference is printed and the exit status is 1.
"""
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile


def blocks(lines):
    """(command, first line of its output block, end line, keeps_wrote) for
    each command with its output: a ```sh block and the plain ``` block
    after it, or a plain ``` block that starts "$ build/cosim ..." (the
    README's form), whose closing "wrote" line names the default folder and
    is kept as written."""
    i = 0
    out = []
    while i < len(lines):
        if lines[i].rstrip() == "```" and i + 1 < len(lines) and lines[i + 1].startswith("$ build/cosim "):
            e = i + 2
            while e < len(lines) and lines[e].rstrip() != "```":
                e += 1
            out.append((lines[i + 1][2:].strip(), i + 2, e, True))
            i = e + 1
            continue
        if lines[i].strip() == "```sh":
            j = i + 1
            cmd = []
            while j < len(lines) and lines[j].strip() != "```":
                cmd.append(lines[j])
                j += 1
            k = j + 1
            while k < len(lines) and lines[k].strip() == "":
                k += 1
            text = " ".join(l.rstrip().rstrip("\\") for l in cmd).strip()
            if (k < len(lines) and lines[k].rstrip() == "```" and text.startswith("build/cosim ")
                    and " lecture " not in text and "\n" not in text):
                e = k + 1
                while e < len(lines) and lines[e].rstrip() != "```":
                    e += 1
                out.append((text, k + 1, e, False))
                i = e + 1
                continue
            i = j + 1
            continue
        i += 1
    return out


def run(cosim, root, text, tmp, n):
    args = shlex.split(text)
    args[0] = cosim
    if "--check" not in args and "-o" not in args and "--output" not in args:
        args += ["-o", os.path.join(tmp, "out%d" % n)]
    if "--no-plot" not in args:
        args.append("--no-plot")
    p = subprocess.run(args, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    got = p.stdout.splitlines()
    # the closing "wrote FOLDER/: ..." names the temporary folder
    if got and got[-1].startswith("wrote "):
        got.pop()
        if got and got[-1] == "":
            got.pop()
    return got


def main(argv):
    update = argv[:1] == ["--update"]
    if update:
        argv = argv[1:]
    cosim, root, files = os.path.realpath(argv[0]), argv[1], argv[2:]
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        n = 0
        for path in files:
            full = os.path.join(root, path)
            with open(full) as f:
                lines = f.read().split("\n")
            found = blocks(lines)
            if not found:
                print("docs_blocks: %s: no command with its output" % path)
                bad += 1
            for text, first, end, keeps_wrote in reversed(found):
                n += 1
                got = run(cosim, root, text, tmp, n)
                want = lines[first:end]
                if keeps_wrote and want and want[-1].startswith("wrote "):
                    got = got + ["", want[-1]]
                if got != want:
                    if update:
                        lines[first:end] = got
                    else:
                        bad += 1
                        print("docs_blocks: %s:%d: '%s' prints otherwise:" % (path, first + 1, text))
                        for d in difflib.unified_diff(want, got, "the doc", "the command", lineterm="", n=1):
                            print("  " + d)
            if update:
                with open(full, "w") as f:
                    f.write("\n".join(lines))
            print("docs_blocks: %s: %d command%s checked" % (path, len(found), "" if len(found) == 1 else "s"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
