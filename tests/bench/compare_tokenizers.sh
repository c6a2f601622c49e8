#!/usr/bin/env bash
# Tokenizer speed comparison against peers, measured in ONE run and printed as ratios
# (issue #4, "Performance"). Nothing is asserted; the script only prints.
#
#   tests/bench/compare_tokenizers.sh [--scratch DIR] [--mb N] [--cli PATH | PATH]
#
#   --scratch DIR  scratch folder (default $LSE_BENCH_DIR or /tmp/lse-tokenizer-bench); the
#                  npm peers are installed there (npm install --prefix), never into the repo
#   --mb N         size of the generated test input in MiB (default $LSE_BENCH_MB or 8)
#   --cli PATH     use this llm-explorer-cli instead of building build-bench/ (Release)
#   --runs N       whole runs per side, alternating tiktoken / ours (default $LSE_BENCH_RUNS or 5);
#                  printed: the ratio of the medians and each adjacent pair's ratio
#
# Peers: npm `tiktoken` (WASM build of the Rust core, encoding "gpt2") for encoding,
#        npm `tokenizers` (Hugging Face, native N-API binary) for BPE training.
# Needs: node + npm (registry reachable on first run), cmake + ninja when building.
set -u -o pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
mjs="$here/compare_tokenizers.mjs"
scratch="${LSE_BENCH_DIR:-/tmp/lse-tokenizer-bench}"
mb="${LSE_BENCH_MB:-8}"
runs="${LSE_BENCH_RUNS:-5}"
cli=""
while [ $# -gt 0 ]; do
    case "$1" in
        --scratch) scratch="$2"; shift 2 ;;
        --mb) mb="$2"; shift 2 ;;
        --cli) cli="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        -h|--help) sed -n '2,18p' "$0"; exit 0 ;;
        *) cli="$1"; shift ;;
    esac
done

shared=/work/shared/cs336
tokdir="$shared/tokenizer"            # gpt2_vocab.json + gpt2_merges.txt (+ sample texts)
corpus_en="$shared/bpe/corpus.en"
special='<|endoftext|>'
export LSE_BENCH_DIR="$scratch"

say() { printf '%s\n' "$*" >&2; }
now() { date +%s.%N; }
sub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a - b }'; }
calc() { awk "BEGIN { printf \"$1\", $2 }"; }
# Field of the "RESULT {json}" line of the node helper (flat JSON, numbers/bools/strings).
jget() {
    printf '%s\n' "$1" | sed -n 's/^RESULT //p' |
        sed -n "s/.*\"$2\":\(\"[^\"]*\"\|[^,}]*\).*/\1/p" | tr -d '"'
}

command -v node >/dev/null || { say "node not found"; exit 1; }
command -v npm >/dev/null || { say "npm not found"; exit 1; }
mkdir -p "$scratch" || exit 1

# ---- npm peers (scratch folder only) ---------------------------------------------------
for pkg in tiktoken tokenizers; do
    if [ ! -f "$scratch/node_modules/$pkg/package.json" ]; then
        say "installing npm $pkg into $scratch ..."
        npm install --prefix "$scratch" --no-audit --no-fund "$pkg" >"$scratch/npm-$pkg.log" 2>&1 ||
            say "npm install $pkg FAILED (see $scratch/npm-$pkg.log)"
    fi
done
pkgver() { node -p "require(process.argv[1]).version" "$scratch/node_modules/$1/package.json" 2>/dev/null; }
tt_ver="$(pkgver tiktoken)"; hf_ver="$(pkgver tokenizers)"
[ -n "$tt_ver" ] || { say "npm tiktoken is not available; cannot run the encode comparison"; exit 1; }

# ---- CLI -------------------------------------------------------------------------------
if [ -z "$cli" ]; then
    build="$repo/build-bench"
    say "building llm-explorer-cli (Release) in $build ..."
    if [ ! -f "$build/build.ninja" ]; then
        cmake -S "$repo" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$scratch/cmake.log" 2>&1 ||
            { tail -20 "$scratch/cmake.log" >&2; exit 1; }
    fi
    cmake --build "$build" -j2 --target llm-explorer-cli >"$scratch/build.log" 2>&1 ||
        { tail -30 "$scratch/build.log" >&2; exit 1; }
    cli="$build/app/cli/llm-explorer-cli"
fi
[ -x "$cli" ] || { say "not an executable: $cli"; exit 1; }

# ---- test input ------------------------------------------------------------------------
input="$scratch/input.txt"
say "generating the test input ($mb MiB) ..."
gen="$(node "$mjs" gen-input "$input" "$mb" "$corpus_en" "$tokdir"/tinystories_sample.txt \
    "$tokdir"/address.txt "$tokdir"/german.txt "$tokdir"/special_token_double_newlines_non_whitespace.txt \
    "$tokdir"/special_token_trailing_newlines.txt)" || { say "input generation failed"; exit 1; }
bytes="$(jget "$gen" bytes)"
mbytes="$(calc %.3f "$bytes / 1e6")"
sync; cat "$input" >/dev/null   # warm the page cache for everyone alike
load_start="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"

# ---- (1) encoding ----------------------------------------------------------------------
# Whole runs alternate between the two sides so that both see the same machine: a shared
# virtual machine's speed drifts by tens of percent within minutes.
median() { sort -g | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
tk_times=""; pd_times=""; pd_rc=0
for run in $(seq 1 "$runs"); do
    say "encode: whole runs $run/$runs (tiktoken, then ours) ..."
    t0="$(now)"; tk_run="$(node "$mjs" tiktoken-run "$input" "$scratch/ids.tiktoken.bin")"; t1="$(now)"
    tk_times="$tk_times $(sub "$t1" "$t0")"
    t0="$(now)"
    "$cli" prepare-data --tokenizer "$tokdir" --input "$input" --out "$scratch/ids.ours.bin" \
        --dtype uint16 --special "$special" --threads 1 >"$scratch/prepare-data.log" 2>&1 || pd_rc=$?
    t1="$(now)"
    pd_times="$pd_times $(sub "$t1" "$t0")"
done
tk_tokens="$(jget "$tk_run" tokens)"
tk_whole_s="$(printf '%s\n' $tk_times | median)"
pd_whole_s="$(printf '%s\n' $pd_times | median)"
# Each run's pair (tiktoken, then ours right after) gives one ratio taken on the same machine state.
pair_ratios="$(paste -d' ' <(printf '%s\n' $tk_times) <(printf '%s\n' $pd_times) | awk '{ printf "%.2f\n", $1 / $2 }')"
pair_median="$(printf '%s\n' $pair_ratios | median)"
pair_min="$(printf '%s\n' $pair_ratios | sort -g | head -1)"; pair_max="$(printf '%s\n' $pair_ratios | sort -g | tail -1)"
say "encode: tiktoken encode-only (best of 3) ..."
tk_bench="$(node "$mjs" tiktoken-bench "$input" 3)"
tk_enc_ms="$(jget "$tk_bench" best_encode_ms)"

say "encode: our bench-tokenizer (1 and 2 threads, best of 3) ..."
"$cli" bench-tokenizer --tokenizer "$tokdir" --input "$input" --threads 2 --repeat 3 \
    --special "$special" >"$scratch/bench-tokenizer.log" 2>&1
bt_rc=$?
bt1_ms="$(sed -n 's/^1 thread .*best of [0-9]*: \([0-9.]*\) ms.*/\1/p' "$scratch/bench-tokenizer.log")"
bt2_ms="$(sed -n 's/^2 thread(s) .*best of [0-9]*: \([0-9.]*\) ms.*/\1/p' "$scratch/bench-tokenizer.log")"
bt_same="$(sed -n 's/^ids identical *//p' "$scratch/bench-tokenizer.log")"

cmp_res="$(node "$mjs" compare-ids "$scratch/ids.ours.bin" "$scratch/ids.tiktoken.bin")"
if [ "$pd_rc" -eq 0 ] && [ "$(jget "$cmp_res" ok)" = "true" ]; then
    ids_verdict="OK ($(jget "$cmp_res" tokens_a) ids identical)"
else
    ids_verdict="MISMATCH (prepare-data rc=$pd_rc; ours $(jget "$cmp_res" tokens_a) ids, tiktoken $(jget "$cmp_res" tokens_b), first difference at index $(jget "$cmp_res" first_diff); $(printf '%s' "$cmp_res" | grep -o '"context_a.*' | tr -d '}'))"
fi

mbps_s() { [ -n "$2" ] && calc %.1f "$1 / $2 / 1e6" || echo "n/a"; }        # bytes, seconds
mbps_ms() { [ -n "$2" ] && calc %.1f "$1 / ($2 / 1000) / 1e6" || echo "n/a"; }  # bytes, ms
ratio() { [ "$1" != "n/a" ] && [ "$2" != "n/a" ] && calc %.2fx "$1 / $2" || echo "n/a"; }

tk_whole="$(mbps_s "$bytes" "$tk_whole_s")"; tk_enc="$(mbps_ms "$bytes" "$tk_enc_ms")"
pd_whole="$(mbps_s "$bytes" "$pd_whole_s")"
[ "$pd_rc" -eq 0 ] || pd_whole="n/a"
bt1="$(mbps_ms "$bytes" "$bt1_ms")"; bt2="$(mbps_ms "$bytes" "$bt2_ms")"
[ "$bt_rc" -eq 0 ] || { bt1="n/a"; bt2="n/a"; }
pd_enc_line="$(sed -n 's/^encode *//p' "$scratch/prepare-data.log")"
pd_load_line="$(sed -n 's/^load tokenizer *//p' "$scratch/prepare-data.log")"

# ---- (2) training ----------------------------------------------------------------------
hf_note=""
say "train: HF tokenizers BpeTrainer ..."
t0="$(now)"; hf_res="$(node "$mjs" hf-train "$input" "$scratch/hf-bpe" 2>"$scratch/hf-train.log")"; hf_rc=$?; t1="$(now)"
hf_whole_s="$(sub "$t1" "$t0")"
hf_err="$(jget "$hf_res" error)"
hf_merges="$(jget "$hf_res" merges)"
if [ $hf_rc -ne 0 ] || [ -n "$hf_err" ] || [ -z "$hf_merges" ]; then
    hf_note="npm tokenizers NOT AVAILABLE/FAILED here: ${hf_err:-exit code $hf_rc, see $scratch/hf-train.log}"
    hf_whole_s=""; hf_merges=""
fi

train_ours() {  # vocab-size outdir input... ; sets tr_s tr_rc tr_log
    local v="$1" out="$2"; shift 2
    tr_log="$scratch/train-bpe-$v-$(basename "$1").log"
    local a b; a="$(now)"
    "$cli" train-bpe --input "$@" --vocab-size "$v" --special "$special" --out "$out" >"$tr_log" 2>&1
    tr_rc=$?; b="$(now)"; tr_s="$(sub "$b" "$a")"
}
merge_info() { sed -n 's/^merge loop *//p' "$1"; }
pretok_info() { sed -n 's/^pre-tokenize *//p' "$1"; }
merges_of() { sed -n 's/^vocab size .*, \([0-9]*\) merges).*/\1/p' "$1"; }

say "train: our train-bpe, vocab 10000 ..."
train_ours 10000 "$scratch/ours-bpe-10k" "$input"
o10_s="$tr_s"; o10_rc=$tr_rc; o10_log="$tr_log"
om_s=""; om_log=""; om_rc=1; om_vocab=""
if [ -n "$hf_merges" ]; then
    om_vocab=$((hf_merges + 257))   # 1 special + 256 bytes + the same number of merges as HF
    say "train: our train-bpe, vocab $om_vocab (= HF's $hf_merges merges) ..."
    train_ours "$om_vocab" "$scratch/ours-bpe-matched" "$input"
    om_s="$tr_s"; om_rc=$tr_rc; om_log="$tr_log"
fi
say "train: our train-bpe, corpus.en vocab 500 ..."
train_ours 500 "$scratch/ours-bpe-corpus-en" "$corpus_en"
oc_s="$tr_s"; oc_rc=$tr_rc; oc_log="$tr_log"

# ---- report ----------------------------------------------------------------------------
load_end="$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
cpu="$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo 2>/dev/null | head -1)"
rev="$(git -C "$repo" rev-parse --short HEAD 2>/dev/null)"
[ -n "$(git -C "$repo" status --porcelain 2>/dev/null)" ] && rev="$rev (working tree has changes)"
real_kb="$(calc %.1f "$(jget "$gen" realBytes) / 1e3")"
gen_pct="$(calc %.0f "100 * $(jget "$gen" genBytes) / $bytes")"
row() { printf '  %-54s %-16s %-16s %s\n' "$@"; }
secs() { [ -n "$1" ] && calc "%.2f s" "$1" || echo "n/a"; }
fail_or() { [ "$1" -eq 0 ] && echo "$2" || echo "FAILED (rc=$1)"; }

echo
echo "Tokenizer comparison ($(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores: ${cpu:-?})"
echo "  repo $rev; cli $cli"
echo "  load average at start / end: $load_start / $load_end (other work on the machine skews all numbers)"
echo "  node $(node --version); npm tiktoken ${tt_ver} (WASM, encoding gpt2); npm tokenizers ${hf_ver:-not installed} (native)"
echo "  input: $mbytes MB ($bytes bytes) = ${real_kb} kB of real text (corpus.en + cs336 tokenizer samples)"
echo "         repeated $(jget "$gen" realReps)x (~$((100 - gen_pct))%) + ~${gen_pct}% generated mixed-language text"
echo "         (Zipf lexicon: en/de/fr/ru/el/zh/ja, numbers, URLs, emoji, odd whitespace),"
echo "         documents separated by $special. The repetition favours pre-token caches."
echo "  MB = 1e6 bytes. Whole runs are wall clock (date +%s.%N) around one process: start-up,"
echo "  tokenizer loading, file reading, encoding and writing ids. Encode-only = best of 3 in-process."
echo
echo "(1) Encode, GPT-2 vocab/merges, $special as special token, single file"
row "measure" "tiktoken" "ours" "ours/tiktoken"
row "whole run, median of $runs (MB/s; seconds)" "$tk_whole ($(secs "$tk_whole_s"))" \
    "$pd_whole ($(secs "$pd_whole_s"))" "$(ratio "$pd_whole" "$tk_whole")"
pairs_text="$(paste -d' ' <(printf '%s\n' $tk_times) <(printf '%s\n' $pd_times) |
    awk '{ printf "%s%.2f/%.3f=%.1fx", (NR > 1 ? "  " : ""), $1, $2, $1 / $2 }')"
row "encode only, 1 thread (MB/s)" "$tk_enc" "$bt1" "$(ratio "$bt1" "$tk_enc")"
row "encode only, 2 threads (MB/s)" "- (vs 1 thread)" "$bt2" "$(ratio "$bt2" "$tk_enc")"
echo "  whole-run pairs, tiktoken s / ours s: $pairs_text"
echo "      median pair ratio $(calc %.2fx "$pair_median"), lowest $(calc %.1fx "$pair_min"), highest $(calc %.1fx "$pair_max")"
echo "  ours whole run = prepare-data; ours encode only = bench-tokenizer (cold pre-token cache per run)."
echo "  whole runs alternate tiktoken / ours; each pair's ratio compares runs seconds apart (a shared VM's"
echo "  speed drifts by tens of percent over minutes); the first row is the ratio of the two medians."
echo "  prepare-data self-report: load tokenizer $pd_load_line; encode $pd_enc_line"
echo "  multi-thread scaling (bench-tokenizer): $(ratio "$bt2" "$bt1"); 1-vs-2-thread ids identical: ${bt_same:-n/a}"
echo "  ids: prepare-data ids.bin (uint16 LE) vs tiktoken ids: $ids_verdict"
echo
echo "(2) BPE training (byte-level, GPT-2 pre-tokenizer regex, special $special), same input"
row "measure" "HF tokenizers" "ours" "speed-up HF_s/ours_s"
if [ -n "$hf_note" ]; then
    echo "  $hf_note"
    row "$mbytes MB, HF default trainer" "n/a" "-" "n/a"
else
    hfm="$hf_merges merges (vocab HF $(jget "$hf_res" vocab_with_added) / ours $om_vocab)"
    row "$mbytes MB, $hfm" "$(secs "$hf_whole_s")" \
        "$(fail_or "$om_rc" "$(secs "$om_s")")" "$([ "$om_rc" -eq 0 ] && calc %.2fx "$hf_whole_s / $om_s" || echo n/a)"
fi
row "$mbytes MB, vocab 10000 ($(merges_of "$o10_log") merges)" "n/a (*)" \
    "$(fail_or "$o10_rc" "$(secs "$o10_s")")" "-"
row "corpus.en (133 kB), vocab 500" "-" "$(fail_or "$oc_rc" "$(secs "$oc_s")")" \
    "$([ "$oc_rc" -eq 0 ] && calc "%.1f%% of the 1.5 s course limit" "100 * $oc_s / 1.5" || echo -)"
echo "  (*) npm tokenizers $hf_ver exposes no trainer options: Tokenizer.train() always uses the"
echo "      default BpeTrainer (vocab_size 30000, min_frequency 0), so HF cannot be run at vocab 10000;"
echo "      the like-for-like row runs ours with the same number of merges HF produced."
[ -z "$hf_note" ] && echo "      HF's vocab = special + the $(( $(jget "$hf_res" alphabet) - 1 )) byte symbols seen + merges; ours = special + 256 bytes + merges."
echo "      HF whole run includes node start-up + module load; both sides use all $(nproc) cores."
echo "  our merge loop, vocab 10000: $(merge_info "$o10_log"); pre-tokenize $(pretok_info "$o10_log")"
[ -n "$om_log" ] && echo "  our merge loop, vocab $om_vocab: $(merge_info "$om_log"); pre-tokenize $(pretok_info "$om_log")"
echo "  our merge loop, corpus.en vocab 500: $(merge_info "$oc_log"); pre-tokenize $(pretok_info "$oc_log")"
[ -z "$hf_note" ] && echo "  HF in-process train() time: $(calc "%.2f s" "$(jget "$hf_res" train_ms) / 1000")"
echo "  logs and outputs: $scratch"
