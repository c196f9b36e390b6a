"""The runnable examples in the scoring modules' docstrings (worked examples named by RULES section there)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import dealer.core.scoring as scoring

MODULES = sorted(m.name for m in pkgutil.iter_modules(scoring.__path__))


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"dealer.core.scoring.{name}")
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    if not result.attempted:
        pytest.skip(f"{name} has no docstring examples")
    assert result.failed == 0
