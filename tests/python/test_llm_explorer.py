# SPDX-License-Identifier: GPL-3.0-or-later
"""llm_explorer (issue 34) against llm-explorer-cli: the same inputs give the same JSON, bad input
raises ProblemError with the CLI's problems, and the tokenizer's ids equal the CLI's on the bundled
GPT-2 files. Run by CTest with PYTHONPATH at the build tree's module and LSE_CLI the CLI binary."""

import json
import os
import subprocess
import tempfile
import threading
import unittest

import llm_explorer as le

CLI = os.environ["LSE_CLI"]
SOURCE = os.environ["LSE_SOURCE_DIR"]
GPT2 = os.path.join(SOURCE, "resources", "tokenizers", "gpt2")


def cli(*arguments, json_output=True):
    """The CLI's parsed output and exit status for the same command."""
    run = subprocess.run([CLI, *arguments] + (["--json"] if json_output else []), capture_output=True, check=False)
    return run.returncode, (json.loads(run.stdout) if run.returncode == 0 and json_output else run.stdout), run.stderr


def without_timing(value):
    """The JSON with the fields that measure this run's own seconds taken out (search's wall time)."""
    if isinstance(value, dict):
        return {k: without_timing(v) for k, v in value.items() if k not in ("seconds",)}
    if isinstance(value, list):
        return [without_timing(v) for v in value]
    return value


class SameAsTheCli(unittest.TestCase):
    def assertSameAsCli(self, python_value, *arguments):
        status, expected, err = cli(*arguments)
        self.assertEqual(status, 0, err)
        self.assertEqual(without_timing(python_value), without_timing(expected))

    def test_estimate_default_and_flags(self):
        self.assertSameAsCli(le.estimate(), "estimate")
        self.assertSameAsCli(le.estimate(gpus=512, tp=8, pp=4, mfu="predicted", sp=True),
                             "estimate", "--gpus", "512", "--tp", "8", "--pp", "4", "--mfu", "predicted", "--sp", "on")

    def test_estimate_of_a_hugging_face_config_as_a_dict(self):
        config = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 2048,
                  "intermediate_size": 5632, "num_attention_heads": 32, "num_key_value_heads": 4,
                  "num_hidden_layers": 22, "vocab_size": 32000, "max_position_embeddings": 2048,
                  "rms_norm_eps": 1e-5, "hidden_act": "silu", "tie_word_embeddings": False}
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "config.json")
            with open(path, "w", encoding="utf-8") as file:
                json.dump(config, file)
            from_dict = le.estimate(model=config, gpus=8)
            status, expected, err = cli("estimate", "--model", path, "--gpus", "8")
            self.assertEqual(status, 0, err)
            self.assertEqual(from_dict["params"], expected["params"])
            self.assertEqual(from_dict["memory_per_gpu"], expected["memory_per_gpu"])

    def test_predict_step_is_the_predicted_time(self):
        status, expected, err = cli("estimate", "--mfu", "predicted")
        self.assertEqual(status, 0, err)
        self.assertEqual(le.predict_step(), expected["time"])

    def test_roofline_search_infer_scaling_validate(self):
        self.assertSameAsCli(le.roofline(phase="decode"), "roofline", "--phase", "decode")
        status, expected, err = cli("search", "--top", "5")
        self.assertEqual(status, 0, err)
        self.assertEqual(without_timing(le.search(top=5)), without_timing(expected["layouts"]))
        self.assertSameAsCli(le.infer(batch=8), "infer", "--batch", "8")
        self.assertSameAsCli(le.scaling(compute="1e23"), "scaling", "--compute", "1e23")
        self.assertSameAsCli(le.validate(), "validate")

    def test_catalogs_numbers_and_tensors(self):
        self.assertEqual(le.presets(), cli("presets")[1]["presets"])
        self.assertEqual(le.hardware(), cli("hardware")[1]["accelerators"])
        self.assertSameAsCli(le.numbers.round(0.1, "bf16"), "numbers", "--value", "0.1", "--format", "bf16")
        self.assertEqual(le.numbers.round(0.1, "bf16")["results"][0]["stored"], 0.10009765625)
        self.assertSameAsCli(le.tensor_chain([2, 3, 4], ["transpose(0,1)", "contiguous()"]),
                             "tensor", "--shape", "2,3,4", "--op", "transpose(0,1)", "--op", "contiguous()")
        self.assertSameAsCli(le.run("mesh", gpus=64, tp=8), "mesh", "--gpus", "64", "--tp", "8")


class Errors(unittest.TestCase):
    def test_bad_value_raises_the_cli_problems(self):
        status, _, err = cli("estimate", "--tp", "3")
        self.assertEqual(status, 2)
        with self.assertRaises(le.ProblemError) as caught:
            le.estimate(tp=3)
        self.assertIsInstance(caught.exception, ValueError)
        fields = [p.field for p in caught.exception.problems]
        self.assertIn("model.n_heads", fields)
        for problem in caught.exception.problems:
            self.assertIn(problem.message, err.decode("utf-8"))
            self.assertTrue(problem.rule)

    def test_unknown_option_and_bad_switch_name_the_argument(self):
        with self.assertRaises(TypeError) as caught:
            le.estimate(tpp=2)
        self.assertIn("tpp", str(caught.exception))
        self.assertIn("tp", str(caught.exception))
        with self.assertRaises(TypeError):  # a switch takes True or False
            le.run("numbers", formats="yes")
        with self.assertRaises(le.ProblemError):  # the CLI's own refusal of the format
            le.numbers.round(1.0, "fp33x")

    def test_a_file_that_is_not_what_it_claims(self):
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
            file.write("{ not json")
        try:
            with self.assertRaises(le.ProblemError) as caught:
                le.estimate(model=file.name)
            self.assertTrue(caught.exception.problems)
        finally:
            os.unlink(file.name)
        with self.assertRaises(le.ProblemError):
            le.Tokenizer.from_files("/nonexistent/tokenizer")

    def test_bad_inputs_never_crash_the_interpreter(self):
        # The flags' values as a fuzzer would send them: every one refused or accepted, never a crash.
        for value in ["", "-1", "0", "1e400", "nan", "abc", "9" * 40, "\u4e2d\u6587", "\x00"]:
            for key in ("gpus", "tp", "seq_len", "mfu", "model"):
                try:
                    le.estimate(**{key: value})
                except (le.ProblemError, ValueError):
                    pass


class FuzzCorpora(unittest.TestCase):
    """The loaders' fuzz corpora (tests/fuzz/corpus) through the module's entry points: every input
    is accepted or refused with ProblemError; a crash would end this process and fail the test."""

    def corpus(self, name):
        folder = os.path.join(SOURCE, "tests", "fuzz", "corpus", name)
        files = sorted(os.listdir(folder))
        self.assertTrue(files, folder)
        return [os.path.join(folder, f) for f in files]

    def test_hugging_face_configs_and_scenarios(self):
        refused = 0
        for path in self.corpus("hf_config"):
            try:
                le.estimate(model=path)
            except le.ProblemError:
                refused += 1
        for path in self.corpus("scenario"):
            try:
                le.estimate(scenario=path)
            except le.ProblemError:
                refused += 1
        self.assertGreater(refused, 0)  # the corpora hold broken files too

    def test_tiktoken_files(self):
        with tempfile.TemporaryDirectory() as folder:
            for index, path in enumerate(self.corpus("tiktoken")):
                copy = os.path.join(folder, f"{index}.tiktoken")  # the loader goes by the suffix
                with open(path, "rb") as source, open(copy, "wb") as target:
                    target.write(source.read())
                try:
                    tokenizer = le.Tokenizer.from_files(copy)
                except le.ProblemError:
                    continue
                ids = tokenizer.encode("hello wörld 中文")
                self.assertEqual(tokenizer.decode(ids).encode("utf-8", "replace").count(b"?"), 0)


class TokenizerLikeTheCli(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tokenizer = le.Tokenizer.from_files(GPT2, special=["<|endoftext|>"])

    def cli_ids(self, text):
        status, out, err = cli("tokenize", "--tokenizer", GPT2, "--special", "<|endoftext|>", text)
        self.assertEqual(status, 0, err)
        return [token["id"] for token in out["tokens"]]

    def test_ids_equal_the_cli(self):
        for text in ["Hello, world!", "  leading spaces and\ttabs\n", "中文文本和 emoji 🙂", "a<|endoftext|>b",
                     "It's 3.14159 — isn't it?"]:
            self.assertEqual(self.tokenizer.encode(text), self.cli_ids(text), text)
            self.assertEqual(self.tokenizer.decode(self.tokenizer.encode(text)), text)

    def test_batch_equals_one_by_one_on_threads(self):
        texts = [f"document {i}: " + "the quick brown fox " * (i % 7) for i in range(64)]
        one_by_one = [self.tokenizer.encode(t) for t in texts]
        self.assertEqual(self.tokenizer.encode_batch(texts, threads=2), one_by_one)
        self.assertEqual(self.tokenizer.encode_batch(texts, threads=1), one_by_one)

    def test_batches_after_batches_keep_the_same_ids(self):
        # The batch's other threads keep their tokenizer copies (and warm caches) between calls.
        texts = [f"note {i}: " + "中文 and ASCII words, again " * (i % 5) for i in range(40)]
        one_by_one = [self.tokenizer.encode(t) for t in texts]
        for threads in (2, 3, 2, 1, 2):
            self.assertEqual(self.tokenizer.encode_batch(texts, threads=threads), one_by_one, threads)

    def test_batch_takes_any_sequence_of_text(self):
        texts = ["plain ASCII", "中文 and é", "emoji 🙂", ""]
        expected = [self.tokenizer.encode(t) for t in texts]
        self.assertEqual(self.tokenizer.encode_batch(tuple(texts)), expected)
        self.assertEqual(self.tokenizer.encode_batch([t.encode("utf-8") for t in texts]), expected)
        self.assertEqual(self.tokenizer.encode_batch([]), [])
        with self.assertRaises(TypeError):
            self.tokenizer.encode_batch("one string, not a list")
        with self.assertRaises(TypeError):
            self.tokenizer.encode_batch(["fine", 42])
        with self.assertRaises(ValueError):  # UnicodeEncodeError: a lone surrogate has no UTF-8
            self.tokenizer.encode_batch(["\ud800"])

    def test_python_threads_can_share_a_tokenizer(self):
        # encode releases the GIL; calls on one tokenizer from several Python threads take turns
        # instead of writing its caches at once.
        texts = [f"thread text {i} " + "with words that repeat and some that do not " * (i + 1) for i in range(8)]
        expected = [self.tokenizer.encode(t) for t in texts]
        results = {}

        def work(k):
            results[k] = [self.tokenizer.encode(texts[(k + j) % len(texts)]) for j in range(40)]

        threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        for k, got in results.items():
            self.assertEqual(got, [expected[(k + j) % len(texts)] for j in range(40)])

    def test_encoding_releases_the_gil(self):
        # Another Python thread keeps running while a long text is encoded.
        text = "the quick brown fox jumps over the lazy dog. " * 20000
        ticks = []
        stop = threading.Event()

        def tick():
            while not stop.is_set():
                ticks.append(1)

        thread = threading.Thread(target=tick)
        thread.start()
        try:
            self.tokenizer.encode_batch([text] * 4, threads=1)
        finally:
            stop.set()
            thread.join()
        self.assertGreater(len(ticks), 0)

    def test_bad_ids_and_specials_are_value_errors(self):
        with self.assertRaises(ValueError):
            self.tokenizer.decode([self.tokenizer.vocab_size])
        with self.assertRaises(ValueError):
            self.tokenizer.encode("x", allowed_special=["<|not-special|>"])
        self.assertEqual(self.tokenizer.vocab_size, 50257)


if __name__ == "__main__":
    unittest.main(verbosity=2)
