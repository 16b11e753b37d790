#!/usr/bin/env python3
"""Cases for cktile's AMD LDS probe, and the probe file from its counters.

  probe.py cases --chip gfx942 --wave 64 --pass banks > cases.txt
  probe.py cases --chip gfx942 --wave 64 --pass pairs --banks probe-banks.txt > cases.txt
  probe.py cases --chip gfx942 --wave 64 --pass disagreements --disagreements d.json > cases.txt
  probe.py collect --cases cases.txt --manifest manifest.txt --counters OUTDIR > probe-part.txt

`cases` writes one line per dispatch for lds_probe (OP ITERATIONS ADDR_0 ...)
followed by `# kind op a b offset` metadata the collector reads back. The
banks pass measures lanes 0 and 1 at 128 and 256 bytes, and the stride
patterns (every lane at t * stride, as nod-ai's MI300X measurements). The
pairs pass measures every pair of lanes at the bank period the banks pass
found (banks * 4 bytes: the same bank, another word). The disagreements pass
measures every access pattern on which the public models of AMD's LDS
disagree (`cktile rules --disagreements --arch CHIP --json`, the same cktile
that ingests the run): pattern i of instruction OP is `pattern OP - - i`.

`collect` joins lds_probe's dispatch manifest with rocprofv3's per-dispatch
counters (SQ_LDS_BANK_CONFLICT, SQ_INSTS_LDS) and writes probe lines
(`pair OP A B OFFSET EXTRA`, `stride OP - - STRIDE EXTRA`, `pattern OP - - INDEX
EXTRA`) whose EXTRA is the
bank-conflict cycles per instruction. `cktile rules --ingest` reads them.
"""

import argparse
import csv
import glob
import json
import os
import sys

ITERATIONS = 64

# The instructions cktile models with one address per lane, per chip family.
COMMON = [
    "ds_read_u8", "ds_read_u16", "ds_read_b32", "ds_read_b64", "ds_read_b96", "ds_read_b128",
    "ds_write_b8", "ds_write_b16", "ds_write_b32", "ds_write_b64", "ds_write_b96", "ds_write_b128",
]
TRANSPOSING = ["ds_read_b64_tr_b4", "ds_read_b64_tr_b8", "ds_read_b64_tr_b16"]
STRIDES = [4, 8, 16, 32, 64, 128, 256]


def width(op):
    """Bytes one lane accesses."""
    bits = {"u8": 8, "b8": 8, "u16": 16, "b16": 16, "b32": 32, "b64": 64, "b96": 96, "b128": 128}
    if "_tr_" in op:
        return 8
    return bits[op.rsplit("_", 1)[1]] // 8


def ops(chip):
    return COMMON + (TRANSPOSING if chip.startswith("gfx950") else [])


def case(op, wave, addresses, meta):
    lanes = " ".join(str(a) for a in addresses)
    return f"{op} {ITERATIONS} {lanes}\n# {meta}\n"


def pair(op, wave, a, b, offset):
    addresses = [-1] * wave
    addresses[a], addresses[b] = 0, offset
    return case(op, wave, addresses, f"pair {op} {a} {b} {offset}")


def banks_of(path):
    """{op: banks} from a probe file of the banks pass: the smallest conflicting offset over 4."""
    found = {}
    with open(path) as f:
        for line in f:
            t = line.split()
            if len(t) == 6 and t[0] == "pair" and t[2:4] == ["0", "1"] and int(t[5]) > 0:
                found[t[1]] = min(found.get(t[1], 1 << 30), int(t[4]) // 4)
    return found


def disagreement_cases(path, wave):
    """One case per pattern of `cktile rules --disagreements --json`, indexed per instruction in its order."""
    with open(path) as f:
        rows = json.load(f)
    seen = {}
    out = []
    for r in rows:
        op = r["op"]
        index = seen.get(op, 0)
        seen[op] = index + 1
        addresses = [-1 if a is None else a for a in r["addresses"]]
        if len(addresses) != wave:
            sys.exit(f"probe.py: {path}: pattern {index} of {op} has {len(addresses)} lanes, the wave {wave}")
        out.append(case(op, wave, addresses, f"pattern {op} - - {index}"))
    return out


def cases(args):
    out = sys.stdout
    if args.pass_ == "disagreements":
        for c in disagreement_cases(args.disagreements, args.wave):
            out.write(c)
        return
    if args.pass_ == "banks":
        for op in ops(args.chip):
            for offset in (128, 256):
                out.write(pair(op, args.wave, 0, 1, offset))
            # Strides from the access width up: narrower ones would overlap lanes' accesses.
            for stride in (s for s in STRIDES if s >= width(op)):
                addresses = [t * stride for t in range(args.wave)]
                if max(addresses) < 65536:
                    out.write(case(op, args.wave, addresses, f"stride {op} - - {stride}"))
        return
    banks = banks_of(args.banks)
    for op in ops(args.chip):
        if op not in banks:
            print(f"probe.py: {op}: no bank count from the banks pass; its pairs are skipped", file=sys.stderr)
            continue
        period = banks[op] * 4
        for a in range(args.wave):
            for b in range(a + 1, args.wave):
                out.write(pair(op, args.wave, a, b, period))


def counters(outdir):
    """{dispatch index (from 0, in dispatch order): {counter: value}} from rocprofv3's CSV files."""
    files = glob.glob(os.path.join(outdir, "**", "*counter_collection.csv"), recursive=True)
    if not files:
        sys.exit(f"probe.py: no *counter_collection.csv under {outdir}: did rocprofv3 run with --pmc?")
    per = {}
    for path in files:
        with open(path, newline="") as f:
            rows = csv.DictReader(f)
            names = {n.lower(): n for n in rows.fieldnames or []}
            need = ["dispatch_id", "counter_name", "counter_value"]
            if not all(n in names for n in need):
                sys.exit(f"probe.py: {path} lacks the columns {need}: found {rows.fieldnames}")
            for r in rows:
                d = int(r[names["dispatch_id"]])
                per.setdefault(d, {})
                name = r[names["counter_name"]]
                per[d][name] = per[d].get(name, 0.0) + float(r[names["counter_value"]])
    return [per[d] for d in sorted(per)]


def collect(args):
    with open(args.cases) as f:
        metas = [line[2:].strip() for line in f if line.startswith("# ")]
    with open(args.manifest) as f:
        dispatched = [line.split() for line in f if line.startswith("dispatch ")]
    measured = counters(args.counters)
    if not (len(metas) == len(dispatched) == len(measured)):
        sys.exit(f"probe.py: {len(metas)} cases, {len(dispatched)} dispatches, {len(measured)} counter rows: "
                 "they must match one for one")
    out = sys.stdout
    for meta, d, c in zip(metas, dispatched, measured):
        kind, op = meta.split()[:2]
        if d[2] != op:
            sys.exit(f"probe.py: dispatch {d[1]} ran {d[2]}, the case says {op}")
        insts = c.get("SQ_INSTS_LDS", 0.0)
        if insts <= 0:
            sys.exit(f"probe.py: dispatch {d[1]} ({meta}): SQ_INSTS_LDS is 0")
        extra = round(c.get("SQ_LDS_BANK_CONFLICT", 0.0) / insts)
        out.write(f"{meta} {extra}\n")


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cases")
    c.add_argument("--chip", required=True)
    c.add_argument("--wave", type=int, required=True, choices=[32, 64])
    c.add_argument("--pass", dest="pass_", choices=["banks", "pairs", "disagreements"], required=True)
    c.add_argument("--banks", help="the banks pass's probe file (for --pass pairs)")
    c.add_argument("--disagreements", help="cktile rules --disagreements --arch CHIP --json (for --pass disagreements)")
    k = sub.add_parser("collect")
    k.add_argument("--cases", required=True)
    k.add_argument("--manifest", required=True)
    k.add_argument("--counters", required=True, help="rocprofv3's output directory")
    args = p.parse_args()
    if args.command == "cases":
        if args.pass_ == "pairs" and not args.banks:
            p.error("--pass pairs needs --banks")
        if args.pass_ == "disagreements" and not args.disagreements:
            p.error("--pass disagreements needs --disagreements")
        cases(args)
    else:
        collect(args)


if __name__ == "__main__":
    main()
