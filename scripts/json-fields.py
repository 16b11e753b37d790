#!/usr/bin/env python3
"""Prints the one JSON object on stdin one field per line, keys sorted, and a
list of objects one object per line (`cktile bank`'s answer as the guide
shows it: `... | cktile bank | python3 scripts/json-fields.py`)."""
import json
import sys

v = json.load(sys.stdin)
print("{")
keys = sorted(v)
for i, k in enumerate(keys):
    end = "," if i + 1 < len(keys) else ""
    if isinstance(v[k], list) and v[k] and isinstance(v[k][0], dict):
        print(f'  "{k}": [')
        for j, item in enumerate(v[k]):
            print("    " + json.dumps(item, separators=(",", ":")) + ("," if j + 1 < len(v[k]) else ""))
        print("  ]" + end)
    else:
        print(f'  "{k}": {json.dumps(v[k])}{end}')
print("}")
