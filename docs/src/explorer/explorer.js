// The layout explorer (docs/src/explorer.md): a form over cktile compiled to
// WebAssembly (wasm/, built into explorer/pkg/ by scripts/build-book.sh).
// Every number and picture comes from the wasm module's `explore`, which
// makes the library calls `cktile analyze` / `check` / `render` make; this
// file only fills the form, shows the answer and keeps the URL fragment.
import init, { catalogue, distribution, explore } from './pkg/cktile_wasm.js';

const $ = (id) => document.getElementById(id);

// The guide's worked examples (the chapters' console blocks run the same inputs).
const READ_A = 'tile_distribution_encoding<sequence<>, tuple<sequence<8, 16>, sequence<1, 4, 8>>, ' +
  'tuple<sequence<2, 1>>, tuple<sequence<1, 1>>, sequence<1, 2, 2>, sequence<0, 0, 2>>';
const DRAM = 'tile_distribution_encoding<sequence<1>, tuple<sequence<2, 4, 16>, sequence<4, 8>>, ' +
  'tuple<sequence<1>, sequence<1, 2>>, tuple<sequence<1>, sequence<2, 0>>, sequence<1, 2>, sequence<0, 1>>';
const WORKED = [
  ['Banks: the naive 128x64 tile, gfx942 mfma16', { spec: 'packed((128,64))', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma16' }],
  ['Banks: the naive 128x64 tile, gfx950 mfma16', { spec: 'packed((128,64))', dtype: 'fp16', arch: 'gfx950', pattern: 'mfma16' }],
  ['Banks: the naive 16x64 tile, sm90 ldmatrix', { spec: 'packed((16,64))', dtype: 'fp16', arch: 'sm90', pattern: 'ldmatrix' }],
  ['Banks: a CuTe swizzle, sm90 ldmatrix', { spec: 'cute-swizzle:b=3,mbase=3,s=3,rows=16,cols=64', dtype: 'fp16', arch: 'sm90', pattern: 'ldmatrix' }],
  ['Banks: columns of a 32x32 fp32 tile, sm80', { spec: 'packed((32,32))', dtype: 'fp32', arch: 'sm80', pattern: 'columns', op: 'ld.shared.b32' }],
  ['Banks: the same, one element of padding', { spec: 'row-padded:rows=32,cols=32,pad=1', dtype: 'fp32', arch: 'sm80', pattern: 'columns', op: 'ld.shared.b32' }],
  ['Padding vs XOR: naive K=32', { spec: 'packed((128,32))', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma16' }],
  ['Padding vs XOR: padded by 8', { spec: 'row-padded:rows=128,cols=32,pad=8', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma16' }],
  ['Padding vs XOR: CK XOR preshuffle', { spec: 'ck-universal-a:m=128,k=32', arch: 'gfx942', pattern: 'mfma16' }],
  ['Padding vs XOR: its ds_write_b128 stores', { spec: 'ck-universal-a:m=128,k=32', arch: 'gfx942', pattern: 'rows', op: 'ds_write_b128' }],
  ['Index swapping: the 2025 form, mfma32', { spec: 'ck-xor-lds:m=128,k=32,kpack=8,mlds=2', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma32', op: 'ds_read_b128' }],
  ['CuTe/Triton: TMA 128B, sm90 ldmatrix', { spec: 'cute-tma:mode=128b,rows=16,dtype=fp16', arch: 'sm90', pattern: 'ldmatrix' }],
  ['CuTe/Triton: a Triton swizzle, gfx942', { spec: 'triton-swizzled:vec=8,perphase=1,maxphase=8,order=10,rows=64,cols=64', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma16' }],
  ['Distributions: MFMA A reads of a packed tile', { spec: 'packed((128,32))', dtype: 'fp16', arch: 'gfx942', distribution: READ_A, op: 'ds_read_b128' }],
  ['Distributions: the same on the CK layout', { spec: 'ck-universal-a:m=128,k=32', arch: 'gfx942', distribution: READ_A, op: 'ds_read_b128' }],
  ['Distributions: DRAM-to-LDS stores', { spec: 'ck-universal-a:m=128,k=32', arch: 'gfx942', distribution: DRAM, op: 'ds_write_b128' }],
  ['A spec: merge of a naive 4x8', { spec: 'naive((4,8),(8,1))\n| transform(merge((4,8)) on [0,1] -> [0])', dtype: 'fp32', arch: 'gfx942' }],
];

// The form's fields, in the order the fragment lists them.
const FIELDS = ['spec', 'dtype', 'arch', 'pattern', 'op', 'distribution', 'instruction', 'rows', 'cols'];
const DEFAULTS = { spec: 'packed((128,64))', dtype: 'fp16', arch: 'gfx942', pattern: 'mfma16', op: '', distribution: '', instruction: '', rows: '32', cols: '' };

// The report's rows: the key of `cktile analyze --json` and its label.
const REPORT = [
  ['cycles', 'cycles (all instructions)'],
  ['conflict_cycles', 'conflict cycles'],
  ['bank_conflict_rate_pct', 'bank-conflict rate (%)'],
  ['max_ways', 'worst ways'],
  ['instructions', 'instructions'],
  ['conflicted_instructions', 'conflicted instructions'],
  ['worst_instruction', 'worst instruction'],
  ['phases', 'phases'],
  ['theoretical_bytes', 'bytes moved'],
  ['op', 'instruction'],
  ['element_bytes', 'bytes per element'],
  ['element_space_size', 'element space size'],
];

function readForm() {
  const s = {};
  for (const f of FIELDS) s[f] = $('ex-' + f).value;
  return s;
}

function writeForm(s) {
  for (const f of FIELDS) {
    const el = $('ex-' + f);
    const v = s[f] ?? DEFAULTS[f];
    if (el.tagName === 'SELECT' && v !== '' && ![...el.options].some((o) => o.value === v)) {
      el.add(new Option(v, v)); // an instruction with offsets, say: keep it selectable
    }
    el.value = v;
  }
}

function fromFragment() {
  const h = location.hash.replace(/^#/, '');
  if (!h) return null;
  const p = new URLSearchParams(h);
  const s = {};
  for (const f of FIELDS) s[f] = p.get(f) ?? '';
  return s;
}

function toFragment(s) {
  const p = new URLSearchParams();
  for (const f of FIELDS) if (s[f] !== '') p.set(f, s[f]);
  return '#' + p.toString();
}

function escapeHtml(t) {
  return t.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}

// The UTF-16 index of line:column (both from 1, columns in characters).
function indexAt(text, line, column) {
  let l = 1, c = 1, i = 0;
  for (const ch of text) {
    if (l === line && c === column) return i;
    if (ch === '\n') { l++; c = 1; } else c++;
    i += ch.length;
  }
  return i;
}

// Underlines the character at line:column of the spec (in the backdrop
// behind the transparent textarea), or nothing; a position at the end of a
// line or of the text underlines a blank.
function underline(text, at) {
  const back = $('ex-backdrop');
  if (!at) {
    back.innerHTML = escapeHtml(text) + '\n';
    return;
  }
  const i = indexAt(text, at.line, at.column);
  const ch = i < text.length ? String.fromCodePoint(text.codePointAt(i)) : '';
  const end = ch && ch !== '\n' ? i + ch.length : i;
  const mark = end > i ? escapeHtml(text.slice(i, end)) : ' ';
  back.innerHTML = escapeHtml(text.slice(0, i)) + '<mark class="ex-error">' + mark + '</mark>' +
    escapeHtml(text.slice(end)) + '\n';
}

function showProblems(problems) {
  const box = $('ex-problems');
  box.innerHTML = '';
  for (const p of problems) {
    const div = document.createElement('div');
    div.className = 'ex-problem';
    div.dataset.field = p.field;
    const where = p.line ? ` (line ${p.line}, column ${p.column})` : '';
    // The message as the CLI prints it, less what the prefix already says.
    const message = p.message.replace(/^\d+:\d+: /, '').replace(p.field + ': ', '');
    div.textContent = `${p.field}${where}: ${message}`;
    box.appendChild(div);
  }
}

function showReport(a, v) {
  const body = $('ex-report').tBodies[0];
  body.innerHTML = '';
  if (!a) {
    // No analysis: say why, the problems first (an invalid spec or encoding
    // leaves nothing to analyse, whatever pattern is picked).
    const why = v.problems.length ? 'No report: see the problems above.'
      : 'Pick a pattern (or give a distribution) to analyse the banks.';
    body.innerHTML = `<tr><td colspan="2">${why}</td></tr>`;
    return;
  }
  for (const [key, label] of REPORT) {
    const value = key in a ? a[key] : v[key];
    if (value === undefined) continue;
    const tr = document.createElement('tr');
    tr.innerHTML = `<th>${label}</th><td data-key="${key}"></td>`;
    tr.lastChild.textContent = String(value);
    body.appendChild(tr);
  }
}

function showSvg(id, svg, empty) {
  const el = $(id);
  if (svg) el.innerHTML = svg;
  else el.textContent = empty;
}

// The check report, and the distribution as cktile reads it (`cktile
// distribution --json`: its encoding, lengths and coverage).
function showCheck(c, v, dist) {
  const lines = [];
  if (c) {
    lines.push(`spec: ${v.spec}`, `lengths: ${v.lengths.join(' x ')}, element space ${v.element_space_size}`);
    for (const [k, val] of Object.entries(c)) lines.push(`${k}: ${JSON.stringify(val)}`);
  }
  if (dist && dist.encoding) {
    lines.push('', `distribution: ${dist.encoding}`);
    for (const k of ['x_lengths', 'p_lengths', 'y_lengths', 'r_lengths']) lines.push(`${k}: ${JSON.stringify(dist[k])}`);
    if (dist.coverage) lines.push(dist.coverage.summary);
  }
  $('ex-check').textContent = lines.join('\n');
}

let updates = 0;
function update() {
  clearTimeout(timer);
  const s = readForm();
  history.replaceState(null, '', toFragment(s));
  const request = {
    spec: s.spec, dtype: s.dtype, arch: s.arch, pattern: s.pattern, op: s.op, distribution: s.distribution,
    instruction: s.instruction === '' ? null : Number(s.instruction),
    rows: s.rows === '' ? null : Number(s.rows),
    cols: s.cols === '' ? null : Number(s.cols),
  };
  const t0 = performance.now();
  const v = JSON.parse(explore(JSON.stringify(request)));
  const ms = performance.now() - t0;
  const specProblem = v.problems.find((p) => p.field === 'spec' && p.line);
  underline(s.spec, specProblem ? { line: specProblem.line, column: specProblem.column } : null);
  showProblems(v.problems);
  showReport(v.analysis, v);
  const svg = v.svg || {};
  showSvg('ex-grid', svg.grid, 'No grid (see the problems above).');
  showSvg('ex-banks', svg.banks,
    'Pick a pattern, or give a distribution and its instruction, for the heat map of the worst instruction.');
  showSvg('ex-owners', svg.owners, 'Give a distribution for its owner grid.');
  showSvg('ex-chain', svg.chain, '');
  showCheck(v.check, v, s.distribution.trim() ? JSON.parse(distribution(s.distribution)) : null);
  $('ex-status').textContent = `Computed in ${ms.toFixed(0)} ms.`;
  $('explorer').dataset.state = v.problems.length ? 'problems' : 'ok';
  $('explorer').dataset.updates = String(++updates);
  $('explorer').dataset.pending = '0';
}

let timer = null;
function schedule() {
  $('explorer').dataset.pending = '1';
  clearTimeout(timer);
  timer = setTimeout(update, 120);
}

function syncScroll() {
  $('ex-backdrop').scrollTop = $('ex-spec').scrollTop;
  $('ex-backdrop').scrollLeft = $('ex-spec').scrollLeft;
}

async function main() {
  await init();
  const cat = JSON.parse(catalogue());
  const preset = $('ex-preset');
  const presets = new Map();
  const group = (label) => { const g = document.createElement('optgroup'); g.label = label; preset.appendChild(g); return g; };
  const worked = group('Worked examples of this guide');
  WORKED.forEach(([label, s], i) => { presets.set('w' + i, s); worked.appendChild(new Option(label, 'w' + i)); });
  const entries = group('Catalogue entries (their examples)');
  for (const e of cat.layouts) {
    // An entry without an element type gets fp16, as the guide's examples do.
    presets.set('c:' + e.name, { spec: e.example, dtype: e.typed ? '' : 'fp16' });
    entries.appendChild(new Option(`${e.name}: ${e.summary}`, 'c:' + e.name));
  }
  for (const a of cat.archs) $('ex-arch').add(new Option(`${a.name} (${a.description})`, a.name));
  for (const p of cat.patterns) $('ex-pattern').add(new Option(p, p));
  for (const o of cat.ops) $('ex-op').add(new Option(o, o));
  for (const d of cat.distributions) $('ex-distributions').appendChild(new Option(d, d));

  // A worked example sets the whole form; a catalogue entry only the spec
  // and element type, keeping the chip, pattern and instruction chosen.
  preset.addEventListener('change', () => {
    const s = presets.get(preset.value);
    if (!s) return;
    const cur = readForm();
    const base = preset.value.startsWith('c:') ? { ...cur, distribution: '', instruction: '' }
      : { ...DEFAULTS, dtype: '', pattern: '', rows: cur.rows, cols: cur.cols };
    writeForm({ ...base, ...s });
    update();
  });
  // Keys typed in the form are the form's: mdBook's chapter navigation
  // (arrow keys) and search shortcut must not see them.
  $('explorer').addEventListener('keydown', (e) => e.stopPropagation());
  for (const f of FIELDS) {
    const el = $('ex-' + f);
    el.addEventListener(el.tagName === 'SELECT' ? 'change' : 'input', schedule);
  }
  $('ex-spec').addEventListener('scroll', syncScroll);
  window.addEventListener('hashchange', () => {
    const s = fromFragment();
    if (s && toFragment(s) !== toFragment(readForm())) { writeForm(s); update(); }
  });
  writeForm(fromFragment() || DEFAULTS);
  update();
  window.explorerReady = true;
}

main().catch((e) => {
  $('ex-status').textContent = 'The explorer could not start: ' + e;
  $('explorer').dataset.state = 'failed';
});
