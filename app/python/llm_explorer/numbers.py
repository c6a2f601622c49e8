# SPDX-License-Identifier: GPL-3.0-or-later
"""Number formats (fp32 … fp8, int8): what each stores for a value (``llm-explorer-cli numbers``)."""

from __future__ import annotations

from typing import Any


def round(value: float, fmt: str | None = None) -> Any:  # noqa: A001  (the issue's name)
    """``value`` rounded to ``fmt`` (or to every format): stored value, bits, absolute and relative
    error, overflow and underflow, as ``numbers --value X --format F --json``."""
    from . import run
    return run("numbers", value=repr(float(value)), format=fmt)


def formats() -> Any:
    """Every format's properties: bits, exponent and mantissa bits, range, epsilon."""
    from . import run
    return run("numbers", formats=True)
