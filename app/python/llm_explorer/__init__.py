# SPDX-License-Identifier: GPL-3.0-or-later
"""LLM Systems Explorer's engine in Python: the same figures as ``llm-explorer-cli``.

Every function runs the CLI's own command inside this process (no second implementation of any
formula) and returns what ``llm-explorer-cli <command> --json`` prints, parsed: dicts and lists
ready for ``pandas.DataFrame``. Options are the command's flags as keyword arguments
(``estimate(model="llama-2-70b", gpus=1024, tp=8, mfu="predicted")`` is ``estimate --model
llama-2-70b --gpus 1024 --tp 8 --mfu predicted``); bad input raises :class:`ProblemError`, a
``ValueError`` carrying the CLI's problems (field, rule, message).
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from typing import Any, Iterable, NamedTuple

from . import _engine
from . import numbers  # noqa: F401  (llm_explorer.numbers.round)
from ._engine import Tokenizer as _Tokenizer

__all__ = [
    "Problem", "ProblemError", "Tokenizer", "estimate", "predict_step", "roofline", "search", "infer",
    "scaling", "validate", "presets", "hardware", "tensor_chain", "numbers", "run",
]


class Problem(NamedTuple):
    """One thing wrong with the input: the field (or flag), the rule it breaks, and a sentence."""

    field: str
    rule: str
    message: str


class ProblemError(ValueError):
    """The input was refused, as the CLI refuses it with exit status 2.

    ``problems`` lists every :class:`Problem` (field, rule, message); ``str(error)`` is the CLI's
    error text.
    """

    def __init__(self, command: str, problems: list[Problem], text: str):
        self.command = command
        self.problems = problems
        lines = [f"{p.field}: {p.message} [{p.rule}]" for p in problems]
        super().__init__(f"{command}: " + ("\n".join(lines) if lines else text.strip()))


def _problems(raw: Iterable[tuple[str, str, str]]) -> list[Problem]:
    return [Problem(*entry) for entry in raw]


# Which flags of a command take a value, read from the command's own --help (one place states
# them: the command's option list), cached per command.
_FLAG_LINE = re.compile(r"^\s+(?:-\w, )?--([\w-]+)(?: <([^>]*)>)?", re.MULTILINE)
_flags_cache: dict[str, dict[str, str | None]] = {}


def _flags_of(command: str) -> dict[str, str | None]:
    if command not in _flags_cache:
        status, out, err, _ = _engine.run_command(command, ["--help"])
        if status != 0:
            raise RuntimeError(f"{command} --help failed: {err}")
        _flags_cache[command] = {name: (value or None) for name, value in _FLAG_LINE.findall(out.decode("utf-8"))}
    return _flags_cache[command]


def _as_file(value: Any, temporaries: list[str]) -> str:
    """A path as given, or a dict (a scenario, a Hugging Face config) written to a temporary file."""
    if isinstance(value, dict):
        handle, path = tempfile.mkstemp(prefix="llm_explorer_", suffix=".json")
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            json.dump(value, file)
        temporaries.append(path)
        return path
    return os.fspath(value)


def _arguments(command: str, options: dict[str, Any], temporaries: list[str]) -> list[str]:
    known = _flags_of(command)
    arguments: list[str] = []
    for key, value in options.items():
        if value is None:
            continue
        flag = key.replace("_", "-")
        if flag not in known or flag in ("help", "json"):
            valid = ", ".join(sorted(k.replace("-", "_") for k in known if k not in ("help", "json")))
            raise TypeError(f"{command}() got an unexpected keyword argument '{key}'; it takes: {valid}")
        takes = known[flag]
        if takes is None:  # a switch: present or not
            if not isinstance(value, bool):
                raise TypeError(f"{command}(): {key} is a switch, give True or False, got {value!r}")
            if value:
                arguments.append("--" + flag)
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for item in values:
            if isinstance(item, bool):
                item = "on" if item else "off"
            elif isinstance(item, dict) or (flag in ("model", "scenario") and isinstance(item, os.PathLike)):
                item = _as_file(item, temporaries)
            text = str(item)
            if "\0" in text:  # a command line cannot carry it either
                raise ValueError(f"{command}(): {key} contains a NUL character")
            arguments += ["--" + flag, text]
    return arguments


def run(command: str, *positional: str, json_output: bool = True, **options: Any) -> Any:
    """Run ``llm-explorer-cli COMMAND`` with ``options`` as flags and return its parsed JSON.

    The functions below are this with the command named; ``run`` reaches every other command
    (``run("mesh", tp=8, gpus=64)``). Raises :class:`ProblemError` when the CLI refuses the input.
    """
    temporaries: list[str] = []
    try:
        arguments = _arguments(command, options, temporaries) + [str(p) for p in positional]
        if json_output:
            arguments.append("--json")
        status, out, err, problems = _engine.run_command(command, arguments)
    finally:
        for path in temporaries:
            os.unlink(path)
    if status != 0:
        raise ProblemError(command, _problems(problems), err)
    text = out.decode("utf-8")
    return json.loads(text) if json_output else text


def estimate(scenario: str | os.PathLike | dict | None = None, **options: Any) -> dict:
    """Parameters, FLOPs, time, cost, memory per GPU and communication of a training run.

    The same object as ``llm-explorer-cli estimate --json``. ``scenario``: a scenario file or dict
    (the course example when omitted); ``model``: a preset id, a Hugging Face ``config.json`` path
    or that config as a dict. Time = 6·N·D / (GPUs · peak · MFU) (Kaplan et al. 2020 §2.1), or with
    ``mfu="predicted"`` the step-time model's operators and communication.
    """
    return run("estimate", scenario=scenario, **options)


def predict_step(scenario: str | os.PathLike | dict | None = None, **options: Any) -> dict:
    """The predicted step: ``estimate(..., mfu="predicted")["time"]`` (step seconds, MFU, tokens/s).

    Step time = the step's operators on the GPU's roofline, max(FLOPs / attained peak, bytes /
    attained bandwidth) each, plus the exposed communication (α-β per collective, docs/cost-model.md) and
    the pipeline bubble (p − 1)/m (Narayanan et al. 2021), with factors fitted on published runs
    (docs/validation.md)."""
    options["mfu"] = "predicted"
    return estimate(scenario, **options)["time"]


def roofline(phase: str = "train", scenario: str | os.PathLike | dict | None = None, **options: Any) -> dict:
    """Each operator of a train, prefill or decode step on a GPU's (or this CPU's) roofline.

    Attainable FLOP/s = min(peak, intensity · bandwidth) (Williams et al. 2009).
    """
    return run("roofline", phase=phase, scenario=scenario, **options)


def search(scenario: str | os.PathLike | dict | None = None, **options: Any) -> list[dict]:
    """Every valid parallel layout ranked by predicted step time: a list of dicts (one per layout).

    A layout is valid when dp·tp·pp·cp = GPUs, tp divides the heads, pp the layers and the memory per
    GPU fits (weights, gradients and optimizer states sharded by ZeRO: Rajbhandari et al. 2020)."""
    return run("search", scenario=scenario, **options)["layouts"]


def infer(scenario: str | os.PathLike | dict | None = None, **options: Any) -> dict:
    """Serving: time to first token, time per output token, tokens/s, KV cache and weights memory.

    KV cache = 2 · layers · KV heads · head dim · bytes per token (Kwon et al. 2023, vLLM §3);
    decode reads the weights and the cache once per token, so its time per token is bytes /
    bandwidth until the batch makes it compute-bound (the roofline's crossover)."""
    return run("infer", scenario=scenario, **options)


def scaling(**options: Any) -> dict:
    """Chinchilla: the compute-optimal model size and tokens for a FLOP budget, or L(N, D)
    (Hoffmann et al. 2022, Approach 3)."""
    return run("scaling", **options)


def validate(**options: Any) -> dict:
    """Predicted against published step time of the published runs: error per run, mean, worst.

    Error = (predicted − published) / published per run (Narayanan et al. 2021 Table 1, Korthikanti
    et al. 2022 Table 5 and the H100 sources of docs/validation.md)."""
    return run("validate", **options)


def presets() -> list[dict]:
    """The built-in model presets: ``llm-explorer-cli presets --json``'s ``presets`` list."""
    return run("presets")["presets"]


def hardware() -> list[dict]:
    """The built-in accelerator catalog: ``llm-explorer-cli hardware --json``'s ``accelerators`` list."""
    return run("hardware")["accelerators"]


def tensor_chain(shape: Iterable[int], ops: Iterable[str], **options: Any) -> dict:
    """A strided tensor through a chain of view and copy ops with PyTorch's semantics:
    ``tensor_chain([2, 3, 4], ["transpose(0,1)", "contiguous()"])``.

    Element (i₀, i₁, …) lives at offset + Σ iₖ·strideₖ; a view keeps the storage and changes the
    strides, a copy (``contiguous()``, an impossible ``view``'s ``reshape``) reads and writes every
    element."""
    return run("tensor", shape=",".join(str(s) for s in shape), op=list(ops), **options)


class Tokenizer:
    """The project's byte-level BPE tokenizer (the Tokenization page's and ``tokenize``'s).

    ``Tokenizer.from_files("gpt2/")`` loads vocab.json + merges.txt, a Hugging Face
    tokenizer.json or a .tiktoken file. Encoding releases the GIL; ``encode_batch`` spreads the
    texts over threads.
    """

    def __init__(self, engine_tokenizer: _Tokenizer):
        self._tokenizer = engine_tokenizer

    @classmethod
    def from_files(cls, path: str | os.PathLike, special: Iterable[str] = ()) -> "Tokenizer":
        """Load a tokenizer; ``special`` tokens are split out first and encoded as one id each."""
        tokenizer, problems = _engine.load_tokenizer(os.fspath(path), list(special))
        if tokenizer is None:
            raise ProblemError("Tokenizer.from_files", _problems(problems), "")
        return cls(tokenizer)

    @property
    def vocab_size(self) -> int:
        return self._tokenizer.vocab_size

    @property
    def special_tokens(self) -> list[str]:
        return self._tokenizer.special_tokens

    def encode(self, text: str, allowed_special: Iterable[str] | None = None) -> list[int]:
        """Token ids of ``text`` (the special tokens given at load split out, or ``allowed_special``)."""
        return self._tokenizer.encode(text, None if allowed_special is None else list(allowed_special))

    def encode_batch(self, texts: Iterable[str], allowed_special: Iterable[str] | None = None,
                     threads: int = 0) -> list[list[int]]:
        """Token ids of every text, on ``threads`` threads (0: every core)."""
        if isinstance(texts, (str, bytes)):  # list() would make it one document per character
            raise TypeError("encode_batch: texts must be an iterable of str, not one "
                            f"{type(texts).__name__} (encode takes one text)")
        return self._tokenizer.encode_batch(list(texts), None if allowed_special is None else list(allowed_special),
                                            threads)

    def decode(self, ids: Iterable[int]) -> str:
        """The text of ``ids`` (bytes that are not UTF-8 become U+FFFD)."""
        return self._tokenizer.decode(list(ids))

    def token_bytes(self, token_id: int) -> bytes:
        """The bytes of one token."""
        return self._tokenizer.token_bytes(token_id)
