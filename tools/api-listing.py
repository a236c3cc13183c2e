#!/usr/bin/env python3
"""The public API of `import PushSim`, one line per symbol, from the symbol graphs that
tools/docc-check.sh extracts (PushSim's graph includes the layers it re-exports).

    python3 tools/api-listing.py GRAPHS_DIR                  # print the listing
    python3 tools/api-listing.py GRAPHS_DIR --check FILE     # fail (exit 1) on any difference, and show it
    python3 tools/api-listing.py GRAPHS_DIR --update FILE    # write the listing (a change made on purpose)

A line is the symbol's kind, its path (Type.member) and its declaration, as the compiler spells
them; lines are sorted, so the file changes only where the API does. Standard library only.
"""
import difflib
import glob
import json
import os
import sys


def listing(graphs_dir):
    lines = set()
    for path in sorted(glob.glob(os.path.join(graphs_dir, "*.symbols.json"))):
        with open(path, encoding="utf-8") as f:
            graph = json.load(f)
        for symbol in graph.get("symbols", []):
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            kind = symbol["kind"]["identifier"].removeprefix("swift.")
            where = ".".join(symbol.get("pathComponents", []))
            declaration = "".join(f["spelling"] for f in symbol.get("declarationFragments", []))
            lines.add(f"{kind} {where}: {' '.join(declaration.split())}")
    return sorted(lines)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print(__doc__, file=sys.stderr)
        return 2
    current = listing(argv[1])
    if not current:
        print(f"api-listing: no public symbols in {argv[1]} (run tools/docc-check.sh first)", file=sys.stderr)
        return 2
    if len(argv) == 4 and argv[2] == "--update":
        with open(argv[3], "w", encoding="utf-8") as f:
            f.write("\n".join(current) + "\n")
        print(f"api-listing: {len(current)} public symbols written to {argv[3]}")
        return 0
    if len(argv) == 4 and argv[2] == "--check":
        with open(argv[3], encoding="utf-8") as f:
            recorded = f.read().splitlines()
        if recorded == current:
            print(f"api-listing: the public API is as recorded ({len(current)} symbols)")
            return 0
        diff = list(difflib.unified_diff(recorded, current, "recorded", "now", lineterm="", n=0))
        print(f"api-listing: the public API changed ({len(recorded)} recorded, {len(current)} now):")
        print("\n".join(diff[:200]))
        print(f"If the change is on purpose: python3 tools/api-listing.py {argv[1]} --update {argv[3]}")
        return 1
    print("\n".join(current))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
