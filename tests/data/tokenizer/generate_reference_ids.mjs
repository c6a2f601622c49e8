// SPDX-License-Identifier: GPL-3.0-or-later
// Writes extra_expected_ids_gpt2.json beside this script: GPT-2 ids ("gpt2" encoding) from the npm
// package `tiktoken` (an independent implementation: OpenAI's Rust core compiled to WASM) for texts
// that stress the pre-tokenizer: Chinese, mixed scripts, emoji sequences, odd whitespace, long
// numbers, contractions, combining marks, Arabic/Devanagari/Korean and control characters.
//
// Usage (install tiktoken in a scratch folder, not in the repository):
//   mkdir -p /tmp/tk && (cd /tmp/tk && npm install tiktoken)
//   node tests/data/tokenizer/generate_reference_ids.mjs /tmp/tk
// The argument is the folder whose node_modules holds tiktoken (default: the current directory).
import { createRequire } from "node:module";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(path.resolve(process.argv[2] ?? process.cwd()), "package.json"));
const { get_encoding } = require("tiktoken");
const tiktokenDir = path.join(path.resolve(process.argv[2] ?? process.cwd()), "node_modules", "tiktoken");
const tiktokenVersion = JSON.parse(readFileSync(path.join(tiktokenDir, "package.json"), "utf8")).version;

// Only characters assigned in Unicode 14 or earlier are used where the class matters (letters,
// numbers, whitespace), so the project's Unicode 14 tables and tiktoken's newer ones agree.
const cases = [
  ["zh_paragraph_1", "语言模型通过预测下一个词来学习语言的结构。训练数据越多，模型通常越强大，但计算成本也随之增加。"],
  ["zh_paragraph_2", "北京是中华人民共和国的首都，也是全国的政治、文化中心。\n长城始建于春秋战国时期，全长两万多公里。"],
  ["zh_punctuation", "“你好！”他说：“今天天气怎么样？”——《红楼梦》第一回……（完）"],
  ["zh_numbers", "２０２４年有３６６天，价格为￥1,299.00元，增长了12.5%。第三十二章。"],
  ["mixed_en_zh", "Transformer 模型使用 self-attention 机制，GPT-2 的词表有 50257 个 token。"],
  ["mixed_en_zh_tight", "我们用PyTorch训练了一个124M参数的模型，loss从10.8降到3.2。"],
  ["emoji_simple", "I love pizza 🍕🍕 and cats 🐱! 😀😃😄"],
  ["emoji_zwj_family", "Family: 👨‍👩‍👧‍👦 and 👩‍❤️‍💋‍👨 and 🏳️‍🌈 flag"],
  ["emoji_skin_tones", "👍🏻👍🏼👍🏽👍🏾👍🏿 waving 👋🏽 and 🧑🏿‍💻 coder"],
  ["emoji_flags_keycaps", "Flags 🇨🇳🇺🇸🇩🇪 keycaps 1️⃣ 2️⃣ #️⃣ and ❤️ vs ❤"],
  ["whitespace_tabs", "a\tb\t\tc\t \td\t"],
  ["whitespace_crlf", "line one\r\nline two\r\n\r\nline four\r\n"],
  ["whitespace_nbsp", "100\u00a0km and\u00a0\u00a0two nbsp \u00a0x"],
  ["whitespace_ideographic", "中文\u3000全角空格\u3000\u3000两个 ok\u3000end"],
  ["whitespace_trailing", "trailing spaces   "],
  ["whitespace_only_mixed", " \t \n\u3000\u00a0\u2003 \r\n  "],
  ["whitespace_unicode_spaces", "en\u2002em\u2003thin\u2009hair\u200anarrow\u202fmath\u205fline\u2028para\u2029end"],
  ["whitespace_leading_many", "      indented code\n        more\n\n\n    x"],
  ["digits_long", "3141592653589793238462643383279502884197169399375105820974944"],
  ["digits_mixed", "Call 555-0199 or +1 (800) 123-4567; pi=3.14159, 1e10, 0x1F, 1,000,000"],
  ["digits_unicode", "Arabic-Indic ٠١٢٣٤٥٦٧٨٩ Devanagari ०१२३४५६७८९ roman Ⅻ fractions ½¾ superscript ²³"],
  ["contractions_caps", "I'M SURE YOU'LL SEE WE'VE DONE IT. DON'T! THEY'RE HERE, SHE'D GO, IT'S OK"],
  ["contractions_mixed", "I'm you'll we've don't they're she'd it's O'Neil rock'n'roll '' 'x 's"],
  ["contractions_unicode_quote", "I’m sure it’s fine, don’t worry"],
  ["combining_marks", "Cafe\u0301 nai\u0308ve re\u0301sume\u0301 Z\u0351\u0352a\u0353l\u0354g\u0355o\u0356 a\u0300\u0301\u0302"],
  ["combining_precomposed", "Café naïve résumé Ångström Ελληνικά Русский"],
  ["arabic", "مرحبا بالعالم! كيف حالك اليوم؟ النموذج اللغوي الكبير."],
  ["devanagari", "नमस्ते दुनिया। भाषा मॉडल शब्दों का अनुमान लगाते हैं।"],
  ["korean", "안녕하세요 세계! 언어 모델은 다음 단어를 예측합니다."],
  ["japanese", "こんにちは世界。カタカナとひらがな、そして漢字。ｶﾀｶﾅ"],
  ["thai_hebrew", "สวัสดีชาวโลก שלום עולם"],
  ["control_chars", "bell\u0007 esc\u001b[31mred\u001b[0m del\u007f nul\u0000 ctl\u0001\u0002\u001f end"],
  ["control_c1_nel", "next\u0085line and \u0080\u009f c1"],
  ["format_chars", "zero\u200bwidth join\u200dnon\u200cbom\ufeffsoft\u00adhyphen rtl\u200fmark"],
  ["symbols_math", "∑ᵢ xᵢ² ≤ ∞ → ∀ε>0 ∃δ, ½ × ⅔ = ⅓; a ≠ b ≈ c ± d"],
  ["code_snippet", "def f(x):\n\treturn x**2  # square\n\nif __name__ == '__main__':\n    print(f(3))\n"],
  ["urls_and_paths", "https://example.com/a/b?c=d&e=f#g C:\\Users\\me\\file.txt ~/src/*.cpp"],
  ["repeated_chars", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa !!!!!!!!!!!!!!!! ................ ----------"],
  ["space_before_marks", "a \u0301b  \u0308 x \u200dy \u00a0z"],
  ["rare_whitespace", "ogham\u1680mark mongolian\u180evowel fig\u2007space\u000bvt\u000cff\u001cfs\u001dgs\u001ers"],
  ["newline_runs", "\n\n\nword\n \n  word\t\n\t word \n\n"],
  ["apostrophe_edges", "'s's 'll'''ve ''re ’s 'S 'LL x'sy 'd'm't"],
  ["numbers_spaced", "1 2  3   4 12 345 6789 00000000000000000000 1.2.3 ١٢٣ 12ab34"],
  ["emoji_long_run", "🙃🙃🙃🙃🙃🙃🙃🙃 🤖🧠📚✨ ⚽️⚾️🏀 🫠"],
  ["private_use_and_rare", "pua\ue000\uf8ff 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝟙𝟚𝟛 𐍈"],
  // Pre-tokens longer than the encoder's short-piece limit (96 bytes) take its heap-based merge path.
  ["long_cjk_run", "自然语言处理是人工智能的一个重要分支它研究如何让计算机理解和生成人类语言包括分词句法分析语义理解机器翻译问答系统和对话系统等任务近年来大规模预训练语言模型取得了显著进展"],
  ["long_digit_run", "1234567890".repeat(25)],
  ["long_letter_run", " " + "supercalifragilisticexpialidocious".repeat(8)],
  ["long_punctuation_run", "!?-=+*&^%$#@~".repeat(12)],
  ["long_space_run", "a" + " ".repeat(300) + "b" + "\n".repeat(150)],
];

const enc = get_encoding("gpt2");
const out = {
  description:
    "GPT-2 reference ids from the npm package tiktoken (encoding \"gpt2\"), generated by generate_reference_ids.mjs. " +
    "Texts are inline; no special tokens are allowed.",
  generator: `tiktoken ${tiktokenVersion} (npm), get_encoding("gpt2").encode(text)`,
  cases: cases.map(([name, text]) => {
    const ids = Array.from(enc.encode(text));
    const decoded = new TextDecoder().decode(enc.decode(new Uint32Array(ids)));
    if (decoded !== text) throw new Error(`round trip failed for ${name}`);
    return { name, text, ids };
  }),
};
enc.free();
const names = new Set(out.cases.map((c) => c.name));
if (names.size !== out.cases.length) throw new Error("duplicate case names");
const file = path.join(here, "extra_expected_ids_gpt2.json");
// One case per line keeps diffs readable.
const body = out.cases.map((c) => "  " + JSON.stringify(c)).join(",\n");
writeFileSync(
  file,
  `{\n "description": ${JSON.stringify(out.description)},\n "generator": ${JSON.stringify(out.generator)},\n "cases": [\n${body}\n ]\n}\n`,
);
console.log(`wrote ${out.cases.length} cases to ${file}`);
