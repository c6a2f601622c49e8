// Node helper for tests/bench/compare_tokenizers.sh (see there). It loads the npm peers
// (tiktoken, tokenizers) from the scratch folder given in LSE_BENCH_DIR, so nothing is
// installed into the repository.
//
//   node compare_tokenizers.mjs gen-input OUT MB FILE...      build the test input
//   node compare_tokenizers.mjs tiktoken-run IN OUT.bin        load + encode + write uint16 LE ids
//   node compare_tokenizers.mjs tiktoken-bench IN REPEAT       encode-only, best of REPEAT
//   node compare_tokenizers.mjs compare-ids A.bin B.bin        OK / MISMATCH (uint16 LE files)
//   node compare_tokenizers.mjs hf-train IN OUTDIR             HF BPE trainer, ByteLevel
//
// Machine-readable results are printed as one line "RESULT {json}" on stdout.

import { createRequire } from 'node:module';
import { readFileSync, writeFileSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';

const SPECIAL = '<|endoftext|>';
const scratch = process.env.LSE_BENCH_DIR || '/tmp/lse-tokenizer-bench';
const requirePeer = createRequire(join(scratch, 'node_modules', 'lse-bench-anchor.js'));

function result(obj) {
  process.stdout.write('RESULT ' + JSON.stringify(obj) + '\n');
}

// ---------------------------------------------------------------------------------------
// Test input: the given real texts, repeated, interleaved with generated mixed-language
// text (a Zipf-distributed lexicon of syllable words in several scripts, numbers,
// punctuation, odd whitespace). Deterministic (fixed seed).
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function genInput(out, mb, files) {
  const rnd = mulberry32(0x5eed1234);
  const pick = (arr) => arr[Math.floor(rnd() * arr.length)];
  const target = Math.round(mb * 1024 * 1024);

  const syll = {
    en: ['th', 'er', 'an', 'in', 'on', 'at', 'es', 'ti', 'ing', 'ed', 'st', 'or', 'ly', 'co',
      'pro', 'ment', 'ble', 'ex', 'un', 're', 'tion', 'al', 'qu', 'ish', 'ow', 'ea'],
    de: ['sch', 'ein', 'ung', 'ver', 'ge', 'keit', 'lich', 'ä', 'ö', 'ü', 'ß', 'ie', 'ei',
      'zu', 'stra', 'heit', 'tz', 'pf', 'chen', 'ber'],
    fr: ['é', 'è', 'ç', 'que', 'eau', 'ou', 'oi', 'ment', 'ê', 'tion', 'pré', 'à', 'eur', 'ien'],
    ru: ['ст', 'ов', 'ни', 'ра', 'ть', 'ко', 'ен', 'по', 'ль', 'ый', 'щ', 'ж', 'ва', 'ия'],
    el: ['λο', 'γο', 'τη', 'κα', 'πο', 'ση', 'μα', 'ρι', 'ου', 'ει', 'νε'],
    zh: ['的', '一', '是', '不', '了', '人', '我', '在', '有', '他', '这', '中', '大', '来', '上',
      '国', '个', '到', '说', '们', '为', '子', '和', '你', '地', '出', '道', '也', '时', '年'],
    ja: ['の', 'に', 'は', 'を', 'た', 'が', 'で', 'て', 'と', 'し', 'れ', 'さ', 'ア', 'イ', 'ン',
      'ス', 'ト', 'ル'],
  };
  const langs = Object.keys(syll);
  const langWeight = { en: 0.45, de: 0.15, fr: 0.12, ru: 0.1, el: 0.05, zh: 0.08, ja: 0.05 };

  // Lexicon per language; Zipf sampling over it.
  const lexicon = {};
  for (const l of langs) {
    const n = l === 'en' ? 40000 : 12000;
    const words = new Array(n);
    for (let i = 0; i < n; ++i) {
      const k = 1 + Math.floor(rnd() * (l === 'zh' || l === 'ja' ? 3 : 4));
      let w = '';
      for (let j = 0; j < k; ++j) w += pick(syll[l]);
      if (rnd() < 0.08 && l !== 'zh' && l !== 'ja') w = w[0].toUpperCase() + w.slice(1);
      words[i] = w;
    }
    lexicon[l] = words;
  }
  const zipf = (n) => Math.min(n - 1, Math.floor(Math.pow(n + 1, rnd()) - 1));
  const punct = [',', '.', ';', ':', '!', '?', ' -', ' —', '...', '"', '(', ')', "'s", "'re",
    "'ll", "n't", ' &', ' /', '%', '€', '$'];
  const emoji = ['🙂', '🚀', '👍🏽', '🇩🇪', '✓', '→', '∑', '½'];

  function sentence() {
    let r = rnd(), l = 'en';
    for (const cand of langs) { r -= langWeight[cand]; if (r <= 0) { l = cand; break; } }
    const n = 4 + Math.floor(rnd() * 18);
    const sep = l === 'zh' || l === 'ja' ? (rnd() < 0.7 ? '' : ' ') : ' ';
    let s = '';
    for (let i = 0; i < n; ++i) {
      const x = rnd();
      let w;
      if (x < 0.04) w = String(Math.floor(rnd() * 10 ** (1 + Math.floor(rnd() * 6))));
      else if (x < 0.05) w = pick(emoji);
      else if (x < 0.055) w = 'https://ex' + Math.floor(rnd() * 999) + '.org/' + pick(lexicon.en);
      else w = lexicon[l][zipf(lexicon[l].length)];
      s += (i ? sep : '') + w;
      if (rnd() < 0.12) s += pick(punct);
    }
    s += l === 'zh' || l === 'ja' ? '。' : pick(['.', '.', '.', '!', '?']);
    const ws = rnd();
    return s + (ws < 0.75 ? ' ' : ws < 0.9 ? '\n' : ws < 0.95 ? '\n\n' : ws < 0.98 ? '  ' : '\t');
  }

  const real = files.map((f) => readFileSync(f, 'utf8')).join('\n');
  const realBytes = Buffer.byteLength(real);
  const parts = [];
  let size = 0, realReps = 0, genBytes = 0;
  // Roughly 40% repeated real text, 60% generated, in alternating ~64 kB blocks of
  // generated text followed by one copy of the real texts whenever its share is below 40%.
  while (size < target) {
    if (realReps * realBytes < 0.4 * (size + 1)) {
      parts.push(real, '\n' + SPECIAL + '\n');
      size += realBytes + SPECIAL.length + 2;
      realReps++;
    } else {
      let block = '';
      while (Buffer.byteLength(block) < 65536) block += sentence();
      block += '\n' + SPECIAL + '\n';
      const b = Buffer.byteLength(block);
      parts.push(block);
      size += b;
      genBytes += b;
    }
  }
  const text = parts.join('');
  writeFileSync(out, text);
  result({ bytes: Buffer.byteLength(text), realBytes, realReps, genBytes });
}

// ---------------------------------------------------------------------------------------
function loadTiktoken() {
  const { get_encoding } = requirePeer('tiktoken');
  return get_encoding('gpt2');
}

function tiktokenRun(input, out) {
  const t0 = performance.now();
  const enc = loadTiktoken();
  const t1 = performance.now();
  const text = readFileSync(input, 'utf8');
  const t2 = performance.now();
  const ids = enc.encode(text, 'all');  // <|endoftext|> -> 50256, like prepare-data --special
  const t3 = performance.now();
  const buf = Buffer.alloc(ids.length * 2);
  for (let i = 0; i < ids.length; ++i) buf.writeUInt16LE(ids[i], i * 2);
  writeFileSync(out, buf);
  const t4 = performance.now();
  enc.free();
  result({
    bytes: Buffer.byteLength(text), tokens: ids.length, load_ms: t1 - t0, read_ms: t2 - t1,
    encode_ms: t3 - t2, write_ms: t4 - t3, since_process_start_ms: t4,
  });
}

function tiktokenBench(input, repeat) {
  const enc = loadTiktoken();
  const text = readFileSync(input, 'utf8');
  let best = Infinity, tokens = 0;
  for (let r = 0; r < repeat; ++r) {
    const t0 = performance.now();
    const ids = enc.encode(text, 'all');
    const dt = performance.now() - t0;
    tokens = ids.length;
    if (dt < best) best = dt;
  }
  enc.free();
  result({ bytes: Buffer.byteLength(text), tokens, best_encode_ms: best, repeat });
}

function compareIds(a, b) {
  const A = readFileSync(a), B = readFileSync(b);
  const na = A.length >> 1, nb = B.length >> 1;
  let first = -1;
  const n = Math.min(na, nb);
  for (let i = 0; i < n; ++i) {
    if (A.readUInt16LE(i * 2) !== B.readUInt16LE(i * 2)) { first = i; break; }
  }
  if (first < 0 && na !== nb) first = n;
  const ok = first < 0;
  const res = { ok, tokens_a: na, tokens_b: nb, first_diff: first };
  if (!ok && first < n) {
    const ctx = (X, m) => { const v = []; for (let i = Math.max(0, first - 3); i < Math.min(m, first + 4); ++i) v.push(X.readUInt16LE(i * 2)); return v; };
    res.context_a = ctx(A, na);
    res.context_b = ctx(B, nb);
  }
  result(res);
}

// ---------------------------------------------------------------------------------------
async function hfTrain(input, outDir) {
  let tk;
  try {
    tk = requirePeer('tokenizers');
  } catch (e) {
    result({ error: 'cannot load npm tokenizers: ' + String(e.message || e).split('\n')[0] });
    return;
  }
  const t0 = performance.now();
  const tok = new tk.Tokenizer(tk.BPE.empty());
  // GPT-2 style byte-level pre-tokenizer (regex split, no prefix space).
  tok.setPreTokenizer(tk.byteLevelPreTokenizer(false, true));
  tok.addSpecialTokens([SPECIAL]);
  const t1 = performance.now();
  // NOTE: tokenizers 0.2x's node binding has no trainer options: train() uses the model's
  // default BpeTrainer (vocab_size 30000, min_frequency 0, no initial alphabet).
  tok.train([input]);
  const t2 = performance.now();
  mkdirSync(outDir, { recursive: true });
  const file = join(outDir, 'tokenizer.json');
  tok.save(file);
  const saved = JSON.parse(readFileSync(file, 'utf8'));
  const merges = saved.model.merges.length;
  const modelVocab = Object.keys(saved.model.vocab).length;
  result({
    setup_ms: t1 - t0, train_ms: t2 - t1, since_process_start_ms: performance.now(),
    merges, model_vocab: modelVocab, alphabet: modelVocab - merges,
    vocab_with_added: tok.getVocabSize(true), input_bytes: statSync(input).size,
  });
}

// ---------------------------------------------------------------------------------------
const [cmd, ...args] = process.argv.slice(2);
switch (cmd) {
  case 'gen-input': genInput(args[0], Number(args[1]), args.slice(2)); break;
  case 'tiktoken-run': tiktokenRun(args[0], args[1]); break;
  case 'tiktoken-bench': tiktokenBench(args[0], Number(args[1] || 3)); break;
  case 'compare-ids': compareIds(args[0], args[1]); break;
  case 'hf-train': await hfTrain(args[0], args[1]); break;
  default:
    process.stderr.write('usage: see header of compare_tokenizers.mjs\n');
    process.exit(2);
}
