#!/usr/bin/env python3
"""Prints the lanes of one load of a `cktile dma-plan --json` plan read from
stdin, four to a line: lane -> tile coordinate (global byte).
Usage: cktile dma-plan ... --json | python3 scripts/dma-lanes.py SUBGROUP LOAD"""
import json
import sys

s, i = int(sys.argv[1]), int(sys.argv[2])
print(f"# every lane of subgroup {s}, load {i}: lane -> tile coordinate (global byte)")
g = [x for x in json.load(sys.stdin)["gathers"] if x["subgroup"] == s and x["load"] == i]
cells = ["{:>2} -> ({:>3},{:>3}) {:>6}".format(x["lane"], *x["coordinate"], x["global_byte"]) for x in g]
for k in range(0, len(cells), 4):
    print("   ".join(cells[k : k + 4]))
