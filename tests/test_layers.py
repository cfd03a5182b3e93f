"""The import direction of docs/architecture.md, checked on the source: every dependency is an import
statement pointing down the layers, and the rules core imports nothing outside the standard library."""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import toybattle

SRC = Path(toybattle.__file__).parent

# area -> the areas it may import (docs/architecture.md, "Who imports whom")
ALLOWED = {
    "__init__": set(),
    "__main__": {"cli"},
    "cli": {"cli_rules", "bots", "app", "online", "lessons", "assembly", "errors", "store", "site"},
    "site": {"assembly", "app", "store", "errors"},
    "assembly": {"app", "lessons", "online", "store"},
    "lessons": {"app", "store", "rules", "errors"},
    "online": {"app", "bots", "store", "rules", "errors", "chat"},
    "app": {"bots", "store", "rules", "errors", "chat"},
    "bots": {"rules", "errors"},
    "cli_rules": {"rules", "errors"},
    "store": set(),
    "chat": set(),
    "errors": set(),
    "rules": set(),
}


def _modules() -> dict[str, Path]:
    out = {}
    for p in SRC.rglob("*.py"):
        parts = ["toybattle", *p.relative_to(SRC).with_suffix("").parts]
        out[".".join(parts[:-1] if parts[-1] == "__init__" and len(parts) > 2 else parts)] = p
    return out


def _imports(name: str, path: Path) -> list[str]:
    """Every module ``name`` imports, relative imports resolved (imports inside functions included);
    ``from X import y`` counts as importing X.y when that is a module."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    modules = _modules()
    out = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            out += [f"{module}.{a.name}" if f"{module}.{a.name}" in modules else module for a in node.names]
    return out


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_import_points_down_the_layers():
    assert set(ALLOWED) >= {_area(m) for m in _modules()}, "a new area: place it in docs/architecture.md"
    wrong = []
    for name, path in _modules().items():
        for target in _imports(name, path):
            if target == "toybattle" or not target.startswith("toybattle."):
                continue
            a, b = _area(name), _area(target)
            if a != b and b not in ALLOWED[a]:
                wrong.append(f"{name} imports {target}")
    assert not wrong, "\n".join(wrong)


def test_the_app_knows_nothing_of_its_parts():
    for name, path in _modules().items():
        if _area(name) == "app":
            assert not [t for t in _imports(name, path) if _area(t) in ("lessons", "online")], name


def test_no_module_is_loaded_by_its_name_as_a_string():
    for name, path in _modules().items():
        text = path.read_text("utf-8")
        assert "import_module(" not in text and "__import__(\"toybattle" not in text, name


def test_the_rules_core_imports_only_the_standard_library():
    for name, path in _modules().items():
        if _area(name) != "rules":
            continue
        for target in _imports(name, path):
            top = target.split(".")[0]
            assert top == "toybattle" or top in sys.stdlib_module_names or top == "__future__", (name, target)
