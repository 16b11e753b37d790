#!/usr/bin/env bash
# Writes every command output the book quotes into docs/src/generated/NAME.txt,
# by running the cktile CLI: each file starts with the command line, then its
# output. Chapters {{#include}} these files, so the numbers in the book are
# always the ones the code prints.
set -euo pipefail
cd "$(dirname "$0")/.."
out_dir=docs/src/generated
mkdir -p "$out_dir"
rm -f "$out_dir"/*.txt
cargo build --release --quiet --bin cktile
bin="${CARGO_TARGET_DIR:-target}/release/cktile"

# Quotes an argument as a reader would type it.
quote() {
  if [[ "$1" =~ ^[A-Za-z0-9_./:=,@+-]+$ ]]; then printf '%s' "$1"; else printf "'%s'" "$1"; fi
}

# out NAME ARGS...: the command line and its output (stdout and stderr, exit code noted when not 0).
out() {
  local name="$1"
  shift
  local line="$ cktile"
  for a in "$@"; do line+=" $(quote "$a")"; done
  {
    echo "$line"
    local rc=0
    "$bin" "$@" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then echo "(exit code $rc)"; fi
  } >"$out_dir/$name.txt"
}

# out_stdin NAME INPUT ARGS...: as out, with INPUT piped on stdin.
out_stdin() {
  local name="$1" input="$2"
  shift 2
  local line="$ echo '$input' | cktile"
  for a in "$@"; do line+=" $(quote "$a")"; done
  {
    echo "$line"
    # One JSON object; printed here one field per line (phases one per line) to fit the page.
    echo "$input" | "$bin" "$@" 2>&1 | python3 -c '
import json, sys
v = json.load(sys.stdin)
print("{")
keys = sorted(v)
for i, k in enumerate(keys):
    end = "," if i + 1 < len(keys) else ""
    if isinstance(v[k], list) and v[k] and isinstance(v[k][0], dict):
        print(f"  \"{k}\": [")
        for j, item in enumerate(v[k]):
            print("    " + json.dumps(item, separators=(",", ":")) + ("," if j + 1 < len(v[k]) else ""))
        print("  ]" + end)
    else:
        print(f"  \"{k}\": {json.dumps(v[k])}{end}")
print("}")'
  } >"$out_dir/$name.txt"
}

# Getting started, the descriptor chapter.
out summary
out packed-offsets offsets 'packed((4,8))'
out naive-pitch-offsets offsets 'naive((4,8),(10,1))'
out naive-pitch-check check 'naive((4,8),(10,1))'
out merge-at offsets 'packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])' --at 13
out gemm-k64-catalog catalog ck-universal-a
out gemm-k64-check check ck-universal-a:m=128,k=64
out gemm-k64-at offsets ck-universal-a:m=128,k=64 --at 3,9
out gemm3-at offsets 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])' --at 3,9
out gemm-k64-gfx942 analyze ck-universal-a:m=128,k=64 --arch gfx942 --pattern mfma16
out gemm-k64-sm90 analyze ck-universal-a:m=128,k=64 --arch sm90 --pattern ldmatrix
out ids-repeated offsets 'packed((4,8)) | transform(pass_through(4) on [0] -> [0], pass_through(8) on [0] -> [1])'
out ids-range offsets 'packed((4,8)) | transform(merge((4,8)) on [0,1] -> [1])'
out spec-error offsets 'packed((4,8)) | transform(merge((4,9)) on [0,1] -> [0])'

# One per transform.
out t-pass-through offsets 'packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [0])'
out t-pad offsets 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])'
out t-left-right-pad offsets 'packed((4,4)) | transform(left_pad(4,1) on [0] -> [0], right_pad(4,2) on [1] -> [1])'
out t-embed offsets 'packed((16)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])'
out t-embed-check check 'packed((16)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])'
out t-merge offsets 'naive((4,8),(100,1)) | transform(merge((4,8)) on [0,1] -> [0])' --at 13
out t-unmerge offsets 'naive((32),(1)) | transform(unmerge((4,8)) on [0] -> [0,1])'
out t-xor offsets 'packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])'
out t-cyclic-shift offsets 'packed((8,8)) | transform(cyclic_shift((8,8)) on [0,1] -> [0,1])'
out t-slice offsets 'packed((10)) | transform(slice(10,2,5) on [0] -> [0])'
out t-freeze offsets 'packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])'
out t-insert offsets 'packed((8)) | transform(insert(4) on [] -> [0], pass_through(8) on [0] -> [1])'
out t-replicate offsets 'packed((8)) | transform(replicate((2,2)) on [] -> [0,1], pass_through(8) on [0] -> [2])' --at 1,1,5
out t-offset offsets 'naive_with_offset((2,4),(4,1),100)'
out t-modulo offsets 'packed((8)) | transform(modulo(8,16) on [0] -> [0])'
out t-indexing offsets 'packed((4,8)) | transform(indexing(4,2) on [0] -> [0], pass_through(8) on [1] -> [1])'
out t-swizzle offsets 'packed((8,16)) | transform(merge((8,16)) on [0,1] -> [0]) | transform(swizzle(2,2,2) on [0] -> [0]) | transform(unmerge((8,16)) on [0] -> [0,1])'
out t-swizzle-bad offsets 'packed((8,16)) | transform(merge((8,16)) on [0,1] -> [0]) | transform(swizzle(3,2,2) on [0] -> [0])'

# Banks and the analyzer.
out_stdin bank-rocprof '{"arch": "gfx90a", "op": "ds_read_b32", "addresses": [0, 128, 256, 384]}' bank
out naive-gfx942 analyze 'packed((128,64))' --arch gfx942 --pattern mfma16 --dtype fp16
out naive-gfx950 analyze 'packed((128,64))' --arch gfx950 --pattern mfma16 --dtype fp16
out naive-sm90-ldmatrix analyze 'packed((16,64))' --arch sm90 --pattern ldmatrix --dtype fp16
out swizzle-sm90-ldmatrix analyze cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64 --arch sm90 --pattern ldmatrix --dtype fp16
out write-gfx950 analyze 'packed((128,64))' --arch gfx950 --pattern rows --op ds_write_b128 --dtype fp16
out scattered-rows analyze 'naive((8,2,2),(4,64,1)) | transform(pass_through(8) on [0] -> [0], merge((2,2)) on [1,2] -> [1])' --arch gfx942 --pattern rows --op ds_write_b128 --dtype fp32
out claim-false check 'packed((2,16),16) | transform(xor((2,16)) on [0,1] -> [0,1])'
out vector-refused check 'naive((4),(2),4,1)'
out_stdin b32-gfx950 '{"arch": "gfx950", "op": "ds_read_b32", "addresses": [0, 128]}' bank
out_stdin b32-gfx950-b32x64 '{"arch": "gfx950-b32x64", "op": "ds_read_b32", "addresses": [0, 128]}' bank
out_stdin read2-gfx942 '{"arch": "gfx942", "op": "ds_read2_b64(0,16)", "addresses": [0, 8]}' bank
out rules-gfx950 rules --arch gfx950
# The rule table itself, as Markdown (no command line: the chapter shows it as a table).
"$bin" rules --markdown >"$out_dir/rules-table.txt"
out columns-sm80 analyze 'packed((32,32))' --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32
out padded-columns-sm80 analyze row-padded:rows=32,cols=32,pad=1 --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32
out_stdin st-one-word-sm90 '{"arch": "sm90", "op": "st.shared.b32", "addresses": [0, 0, 0, 0]}' bank
out_stdin cp-async-one-word-sm90 '{"arch": "sm90", "op": "cp.async.b32", "addresses": [0, 0, 0, 0]}' bank

# Padding versus XOR (K = 32).
out k32-naive analyze 'packed((128,32))' --arch gfx942 --pattern mfma16 --dtype fp16
out k32-padded analyze row-padded:rows=128,cols=32,pad=8 --arch gfx942 --pattern mfma16 --dtype fp16
out k32-padded16 analyze row-padded:rows=128,cols=32,pad=16 --arch gfx942 --pattern mfma16 --dtype fp16
out k32-xor analyze ck-universal-a:m=128,k=32 --arch gfx942 --pattern mfma16
out k32-xor-write analyze ck-universal-a:m=128,k=32 --arch gfx942 --pattern rows --op ds_write_b128
out k32-padded-check check row-padded:rows=128,cols=32,pad=8

# Index swapping, step by step.
out swap-catalog catalog ck-xor-lds
for at in 0,0 1,0 3,9 65,5; do
  out "swap-at-${at/,/-}" offsets ck-xor-lds:m=128,k=32,kpack=8,mlds=2 --at "$at"
done
out swap-2024-at offsets ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 --at 1,0
out swap-2024-analyze analyze ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 --arch gfx942 --pattern mfma32 --op ds_read_b128 --dtype fp16
out swap-2025-analyze analyze ck-xor-lds:m=128,k=32,kpack=8,mlds=2 --arch gfx942 --pattern mfma32 --op ds_read_b128 --dtype fp16

# CuTe, TMA, Triton.
for e in cute-swizzle cute-gmma cute-tma triton-swizzled triton-nvmma row-padded ck-v1-padded ck-fmha-v ck-kfold-mpair ck-xor-preshuffle; do
  out "catalog-$e" catalog "$e"
done
out catalog catalog
out gmma-check check cute-gmma:atom=sw128,major=k,dtype=fp16

out tma-128-sm90 analyze cute-tma:mode=128b,rows=16,dtype=fp16 --arch sm90 --pattern ldmatrix
out triton-gfx942 analyze triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64 --arch gfx942 --pattern mfma16 --dtype fp16

# Layout search.
out search-gfx942 search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x16:a
dram_a='tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>'
out search-distributions search --tile 128x32 --dtype fp16 --arch gfx942 --write "$dram_a:ds_write_b128" --read mfma16x16x32_a:ds_read_b128 --top 2
out search-sm90 search --tile 128x64 --dtype fp16 --arch sm90 --write st.shared.b128:row --read ldmatrix.x4
out search-sm80-columns search --tile 64x32 --dtype fp32 --arch sm80 --write st.shared.b128:row --read ld.shared.b32:column
out search-sm80-b32 search --tile 64x32 --dtype fp32 --arch sm80 --write st.shared.b32:row --read ld.shared.b32:column --top 4
out search-sm80-best analyze ck-xor-preshuffle:m=64,k=32,kpack=4 --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32
out catalog-xor-linear catalog xor-linear
out help-search search --help

# Direct-to-LDS planning.
out dma-note dma-plan 'packed((16,64))' --global-strides 64,1 --workgroup 256 --wave 64 --width 4 --dtype i32
out dma-gemm-gfx942 dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16 --loads 2
out dma-gemm-gfx950 dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --arch gfx950 --width 16 --dtype fp16 --loads 2
out dma-padded dma-plan row-padded:rows=128,cols=64,pad=8 --global-strides 4096,1 --width 4 --dtype fp16
out dma-width dma-plan 'packed((16,64))' --global-strides 64,1 --width 16 --dtype fp16
out dma-dwordx3 dma-plan row-padded:rows=256,cols=12,pad=4 --global-strides 12,1 --arch gfx950 --width 12 --dtype fp8 --loads 1
out dma-dwordx3-packed dma-plan 'packed((256,12))' --global-strides 12,1 --arch gfx950 --width 12 --dtype fp8
out dma-column-major dma-plan 'packed((16,64))' --global-strides 1,16 --width 4 --dtype fp16
out dma-ck-fmha-k dma-plan 'naive((8,4,4,16,2),(544,32,136,2,1)) | transform(merge((8,4,4)) on [0,1,2] -> [0], merge((16,2)) on [3,4] -> [1])' --global-strides 4096,1 --width 4 --dtype fp16 --order issue-major --form buffer --m0 ck --loads 2
out dma-imm-gfx950 dma-plan 'packed((32,256))' --global-strides 256,1 --arch gfx950 --width 16 --dtype fp16 --workgroup 64 --loads 16
out help-dma-plan dma-plan --help

# lanes NAME SUBGROUP LOAD ARGS...: one load's lanes, read from the plan's --json output.
lanes() {
  local name="$1" subgroup="$2" load="$3"
  shift 3
  local line="$ cktile"
  for a in "$@"; do line+=" $(quote "$a")"; done
  {
    echo "$line --json"
    echo "# every lane of subgroup $subgroup, load $load: lane -> tile coordinate (global byte)"
    "$bin" "$@" --json | python3 -c '
import json, sys
s, i = int(sys.argv[1]), int(sys.argv[2])
g = [x for x in json.load(sys.stdin)["gathers"] if x["subgroup"] == s and x["load"] == i]
cells = ["{:>2} -> ({:>3},{:>3}) {:>6}".format(x["lane"], *x["coordinate"], x["global_byte"]) for x in g]
for k in range(0, len(cells), 4):
    print("   ".join(cells[k:k + 4]))' "$subgroup" "$load"
  } >"$out_dir/$name.txt"
}
lanes dma-gemm-gfx942-lanes 0 0 dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --dtype fp16

# Generating code.
out codegen-k32 codegen ck-universal-a:m=128,k=32 --lang cuda
out codegen-pad codegen 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])' --lang hip --name padded
out codegen-i64 codegen 'naive((4,4),(1073741824,1))' --lang cuda --name big
out help-codegen codegen --help
out help-gpu-cases gpu-cases --help
{
  echo "$ cktile gpu-cases | head -8"
  "$bin" gpu-cases >"$out_dir/gpu-cases.tmp"
  head -8 "$out_dir/gpu-cases.tmp"
  rm "$out_dir/gpu-cases.tmp"
} >"$out_dir/gpu-cases-head.txt"

# Getting started: the short forms.
out gs-search search --tile 128x64 --dtype fp16 --arch gfx942 --write ds_write_b128:row --read mfma16x16x16:a --top 4
out gs-dma dma-plan ck-universal-a:m=128,k=64 --global-strides 4096,1 --width 4 --loads 1
out gs-gemm-spec-check check 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])'

# Tile distributions.
out dist-mfma-a distribution mfma32x32x8_a
out dist-compose distribution mfma16x16x16_a --brief --compose ck-xor-preshuffle:m=16,k=16,kpack=8
out dist-mfma-c distribution mfma16x16x16_c
# The block distribution's report is long (256 threads, a 128x32 grid): the book shows its head.
dram='tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>'
{
  echo "$ cktile distribution '$dram' | head -n 8"
  "$bin" distribution "$dram" | head -n 8
} >"$out_dir/dist-dram.txt"
read_a='tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>, sequence<1, 4, 8>>, tuple<sequence<2, 1>>, tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>'
out dist-store-942 analyze ck-universal-a:m=128,k=32 --arch gfx942 --distribution "$dram" --op ds_write_b128
out dist-read-packed-942 analyze 'packed((128,32))' --dtype fp16 --arch gfx942 --distribution "$read_a" --op ds_read_b128
out dist-read-ck-942 analyze ck-universal-a:m=128,k=32 --arch gfx942 --distribution "$read_a" --op ds_read_b128
out dist-read-packed-950 analyze 'packed((128,32))' --dtype fp16 --arch gfx950 --distribution "$read_a" --op ds_read_b128
out dist-read-ck-950 analyze ck-universal-a:m=128,k=32 --arch gfx950 --distribution "$read_a" --op ds_read_b128
out dist-not-contiguous analyze 'naive((128,32),(1,128))' --dtype fp16 --arch gfx942 --distribution "$read_a" --op ds_read_b128
fmha_k='tile_distribution_encoding<sequence<1>, tuple<sequence<8, 4, 4>, sequence<16, 2>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<2>, sequence<1, 0>>, sequence<1, 2>, sequence<0, 1>>'
{
  echo "$ cktile distribution '$fmha_k' | head -n 8"
  "$bin" distribution "$fmha_k" | head -n 8
} >"$out_dir/dist-fmha-k.txt"
out dist-error distribution 'tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>,
  tuple<sequence<2, 1>>, tuple<sequence<0, 3>>, sequence<2>, sequence<1>>'

# Two layouts or two distributions: the same map? (cktile equiv)
out equiv-linear equiv ck-universal-a:m=128,k=64 cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=64
out equiv-differ equiv ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 cute-swizzle:b=3,mbase=3,s=3,rows=128,cols=32
out equiv-exhaustion equiv 'naive((3,8),(8,1))' 'packed((24)) | transform(unmerge((3,8)) on [0] -> [0,1])'
out equiv-undecided equiv 'packed((8193,4096))' 'naive((8193,4096),(4096,1))'
out equiv-dist equiv mfma16x16x16_a 'tile_distribution_encoding<sequence<>, tuple<sequence<16>, sequence<4, 4>>, tuple<sequence<2, 1>>, tuple<sequence<0, 0>>, sequence<2>, sequence<1>>'
out dist-pattern-warp distribution warp_raked_256x128x32_v8 --tile 128,32 --brief
out dist-pattern-before-fix distribution 'tile_distribution_encoding<sequence<1>, tuple<sequence<4, 1, 32>, sequence<64, 1>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<0>, sequence<1, 0>>, sequence<1, 2>, sequence<2, 1>>' --tile 128,128 --brief
out dist-pattern-after-fix distribution thread_raked_256x128x128_v1 --tile 128,128 --brief
out dist-pattern-groups distribution thread_raked_256x16x256_v2_g2 --tile 16,256 --brief
out dist-pattern-error distribution thread_raked_256x16x30_v4
out dist-wmma-gfx11-a distribution wmma16x16x16_gfx11_a --brief
out dist-wmma-gfx12-a distribution wmma16x16x16_gfx12_a --brief
out dist-wmma-gfx1250-a distribution wmma16x16x32_gfx1250_a --brief
out dist-wmma-read analyze 'packed((16,16))' --dtype fp16 --arch gfx1100 --distribution wmma16x16x16_gfx11_a --op ds_read_b128
out equiv-dist-ab equiv mfma16x16x16_a mfma16x16x16_b
out equiv-dist-registers equiv wmma16x16x16_gfx11_a 'tile_distribution_encoding<sequence<2>, tuple<sequence<16>, sequence<1, 1, 16>>, tuple<sequence<2, 0, 1>>, tuple<sequence<1, 0, 0>>, sequence<2, 2>, sequence<0, 2>>'
out equiv-dist-differ equiv mfma16x16x16_c mfma16x16x16_c_transposed
tr_in='tile_distribution_encoding<sequence<>, tuple<sequence<2, 1, 4>, sequence<1, 1, 1, 4, 4>>, tuple<sequence<1, 2, 2, 1, 2>>, tuple<sequence<0, 0, 2, 2, 3>>, sequence<2, 1, 2>, sequence<1, 1, 4>>'
out tr-accept transpose-load "$tr_in" --op ds_read_b64_tr_b16
out tr-refuse transpose-load mfma16x16x16_a --op ds_read_b64_tr_b16
out tr-gemm-b distribution gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16 --brief
out tr-gemm-b-banks analyze 'packed((32,128))' --dtype fp16 --arch gfx950 --distribution gemm_b_tr_128x32_w2x2_mfma32x32x8_fp16 --op ds_read_b64_tr_b16
out probe-nod-ai rules --ingest tests/data/amd-probe/mi300x-nod-ai-strides.txt
# The command line.
out help --help
for c in offsets check catalog bank analyze render distribution equiv transpose-load rules; do
  out "help-$c" "$c" --help
done
# Performance: the generated-code probes, both sides of every pair.
{
  echo "$ cargo run --release -p cktile-checks --example asm_probes"
  cargo run --release --quiet -p cktile-checks --example asm_probes
} >"$out_dir/asm-probes.txt"
echo "wrote $(ls "$out_dir" | wc -l) files to $out_dir"

