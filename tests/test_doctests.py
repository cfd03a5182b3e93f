"""The examples in the package's docstrings run with the suite (issue 27), so what they show stays true."""
from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import toybattle

# every module of the package but the one that runs the command when imported
MODULES = sorted(m.name for m in pkgutil.walk_packages(toybattle.__path__, "toybattle.")
                 if m.name != "toybattle.__main__")


def test_the_examples_are_found():
    finder = doctest.DocTestFinder()
    examples = sum(len(t.examples) for name in MODULES for t in finder.find(importlib.import_module(name)))
    assert examples >= 4  # rules/__init__.py and rules/perft.py at least


@pytest.mark.parametrize("name", MODULES)
def test_the_examples_of(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0
