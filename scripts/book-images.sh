#!/usr/bin/env bash
# Draws every figure of the book into docs/src/images/ with `cktile render`,
# so the pictures are regenerated from the real descriptors, never drawn by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
img=docs/src/images
mkdir -p "$img"
rm -f "$img"/*.svg
cargo build --release --quiet --bin cktile

# fig NAME SPEC ARGS...: one picture.
fig() {
  local name="$1"
  shift
  cargo run --release --quiet --bin cktile -- render "$@" -o "$img/$name.svg" >/dev/null
}

# What a descriptor is.
fig packed-grid 'packed((4,8))' --view grid --dtype fp32
fig naive-pitch-grid 'naive((4,8),(10,1))' --view grid --dtype fp32
fig merge-chain 'packed((4,8)) | transform(merge((4,8)) on [0,1] -> [0])' --view chain

# One per transform (fp32 elements: the bank is the offset mod 32).
fig t-pass-through 'packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [0])' --view grid --dtype fp32
fig t-pass-through-chain 'packed((4,8)) | transform(pass_through(4) on [0] -> [1], pass_through(8) on [1] -> [0])' --view chain
fig t-pad 'naive((5),(1)) | transform(pad(5,2,3) on [0] -> [0])' --view grid --dtype fp32
fig t-left-right-pad 'packed((4,4)) | transform(left_pad(4,1) on [0] -> [0], right_pad(4,2) on [1] -> [1])' --view grid --dtype fp32
fig t-embed 'packed((16)) | transform(embed((3,4),(2,1)) on [0] -> [0,1])' --view grid --dtype fp32
fig t-merge 'naive((4,8),(100,1)) | transform(merge((4,8)) on [0,1] -> [0])' --view grid --dtype fp32
fig t-unmerge 'naive((32),(1)) | transform(unmerge((4,8)) on [0] -> [0,1])' --view grid --dtype fp32
fig t-xor 'packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])' --view grid --dtype fp32
fig t-xor-chain 'packed((8,8)) | transform(xor((8,8)) on [0,1] -> [0,1])' --view chain
fig t-cyclic-shift 'packed((8,8)) | transform(cyclic_shift((8,8)) on [0,1] -> [0,1])' --view grid --dtype fp32
fig t-slice 'packed((10)) | transform(slice(10,2,5) on [0] -> [0])' --view grid --dtype fp32
fig t-freeze 'packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])' --view grid --dtype fp32
fig t-freeze-chain 'packed((4,8)) | transform(freeze(2) on [0] -> [], pass_through(8) on [1] -> [0])' --view chain
fig t-insert 'packed((8)) | transform(insert(4) on [] -> [0], pass_through(8) on [0] -> [1])' --view grid --dtype fp32
fig t-offset 'naive_with_offset((2,4),(4,1),100)' --view grid --dtype fp32
fig t-offset-chain 'naive_with_offset((2,4),(4,1),100)' --view chain
fig t-modulo 'packed((8)) | transform(modulo(8,16) on [0] -> [0])' --view grid --dtype fp32
fig t-indexing 'packed((4,8)) | transform(indexing(4,2) on [0] -> [0], pass_through(8) on [1] -> [1])' --view grid --dtype fp32
fig t-swizzle 'packed((8,16)) | transform(merge((8,16)) on [0,1] -> [0]) | transform(swizzle(2,2,2) on [0] -> [0]) | transform(unmerge((8,16)) on [0] -> [0,1])' --view grid --dtype fp32

# Composing: CK Tile's GEMM A block (K = 64).
fig gemm3-chain 'naive((8,128,8),(8,64,1)) | transform(xor((128,8)) on [1,0] -> [1,0], pass_through(8) on [2] -> [2]) | transform(pass_through(128) on [1] -> [0], merge((8,8)) on [0,2] -> [1])' --view chain --title 'CK Tile GEMM A LDS block, M = 128, K = 64, KPack = 8'
fig gemm-k64-chain ck-universal-a:m=128,k=64 --view chain
fig gemm-k64-grid ck-universal-a:m=128,k=64 --view grid --rows 8 --cols 32

# Banks and the analyzer.
fig banks-naive-gfx942 'packed((128,64))' --view banks --arch gfx942 --pattern mfma16 --dtype fp16
fig banks-xor-gfx942 ck-universal-a:m=128,k=64 --view banks --arch gfx942 --pattern mfma16
fig banks-naive-sm90 'packed((16,64))' --view banks --arch sm90 --pattern ldmatrix --dtype fp16
fig banks-swizzle-sm90 cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64 --view banks --arch sm90 --pattern ldmatrix --dtype fp16
fig banks-columns-sm80 'packed((32,32))' --view banks --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32
fig banks-padded-columns-sm80 row-padded:rows=32,cols=32,pad=1 --view banks --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32

# Padding versus XOR (fp16, K = 32: a row is 64 bytes, half the banks).
fig k32-naive-grid 'packed((128,32))' --view grid --rows 16 --dtype fp16
fig k32-padded16-grid row-padded:rows=128,cols=32,pad=16 --view grid --rows 16 --dtype fp16
fig k32-xor-grid ck-universal-a:m=128,k=32 --view grid --rows 16
fig k32-naive-banks 'packed((128,32))' --view banks --arch gfx942 --pattern mfma16 --dtype fp16
fig k32-xor-banks ck-universal-a:m=128,k=32 --view banks --arch gfx942 --pattern mfma16

# Index swapping.
fig swap-chain ck-xor-lds:m=128,k=32,kpack=8,mlds=2 --view chain
fig swap-2024-chain ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 --view chain
fig swap-2024-banks ck-xor-lds:m=128,k=32,kpack=8,mlds=2,form=2024 --view banks --arch gfx942 --pattern mfma32 --op ds_read_b128 --dtype fp16

# CuTe, TMA, Triton.
fig cute-swizzle-grid cute-swizzle:b=2,mbase=3,s=3,rows=8,cols=32 --view grid --dtype fp16
fig tma-128b-grid cute-tma:mode=128b,rows=8,dtype=fp32 --view grid --dtype fp32
fig triton-swizzled-grid triton-swizzled:vec=8,perphase=1,maxphase=4,order=10,rows=16,cols=32 --view grid --dtype fp16
fig triton-nvmma-grid triton-nvmma:swizzle=64,bits=16,rows=8 --view grid
fig triton-nvmma-chain triton-nvmma:swizzle=64,bits=16,rows=8 --view chain
# Layout search: the winners against the naive tile.
fig search-best-gfx942 ck-xor-preshuffle:m=128,k=64,kpack=16 --view banks --arch gfx942 --pattern mfma16 --dtype fp16
fig search-naive-sm90 'packed((128,64))' --view banks --arch sm90 --pattern ldmatrix --dtype fp16
fig search-best-sm90 ck-xor-preshuffle:m=128,k=64,kpack=8 --view banks --arch sm90 --pattern ldmatrix --dtype fp16
fig search-best-sm80 ck-xor-preshuffle:m=64,k=32,kpack=4 --view banks --arch sm80 --pattern columns --op ld.shared.b32 --dtype fp32
fig search-best-sm80-grid ck-xor-preshuffle:m=64,k=32,kpack=4 --view grid --dtype fp32 --arch sm80 --rows 8
# Tile distributions: owner grids (SPEC is a distribution here).
fig dist-mfma-a-owners mfma32x32x8_a --view distribution
fig dist-fmha-k-owners 'tile_distribution_encoding<sequence<1>, tuple<sequence<8, 4, 4>, sequence<16, 2>>, tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<2>, sequence<1, 0>>, sequence<1, 2>, sequence<0, 1>>' --view distribution --rows 16 --title 'fmha forward K, async copy: 256 threads, 128 x 32 fp16 (first 16 rows)'
echo "wrote $(ls "$img" | wc -l) images to $img"

