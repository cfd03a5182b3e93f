"""The architecture, held on the source: docs/architecture.toml says what each area and module may import,
and these tests check every import statement of src/toybattle against it (issue 27). The rules live in
that file only; docs/architecture.md's module list and table of areas are written from it by
scripts/architecture.py."""
from __future__ import annotations

import ast
import functools
import runpy
import sys
import tomllib
from pathlib import Path

import toybattle

SRC = Path(toybattle.__file__).parent
ROOT = Path(__file__).resolve().parents[1]
TOML = ROOT / "docs" / "architecture.toml"
ARCH = tomllib.loads(TOML.read_text("utf-8"))
AREAS: dict[str, dict] = ARCH["areas"]
MODULES: dict[str, dict] = ARCH["modules"]


@functools.cache
def _modules() -> dict[str, Path]:
    """Every module of src/toybattle by name (a package by its own name: toybattle.app)."""
    out = {}
    for p in SRC.rglob("*.py"):
        parts = ["toybattle", *p.relative_to(SRC).with_suffix("").parts]
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = p
    return out


@functools.cache
def _imports(name: str) -> tuple[str, ...]:
    """Every module ``name`` imports, relative imports resolved (imports inside functions included);
    ``from X import y`` counts as importing X.y when that is a module."""
    path = _modules()[name]
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
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
            out += [f"{module}.{a.name}" if f"{module}.{a.name}" in _modules() else module for a in node.names]
    return tuple(out)


def _area(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _top(name: str) -> str:
    return name.split(".")[0]


def _stdlib(name: str) -> bool:
    return _top(name) in sys.stdlib_module_names or _top(name) == "__future__"


def _covers(entry: str, target: str) -> bool:
    """An entry of a module's ``imports`` covers the target itself and, for a package, its modules; but
    "toybattle" is only the package's own __init__ (its version), else it would cover everything."""
    return target == entry or (entry != "toybattle" and target.startswith(entry + "."))


def test_the_file_has_only_known_keys():
    """A misspelt key (``import = [...]``) would be a rule silently not enforced."""
    wrong = [f"top level: {k}" for k in ARCH if k not in ("areas", "private", "modules", "files")]
    wrong += [f"[areas.{a}]: {k}" for a, rule in AREAS.items() for k in rule
              if k not in ("imports", "third_party", "stdlib")]
    wrong += [f'[modules."{m}"]: {k}' for m, entry in MODULES.items() for k in entry
              if k not in ("does", "package", "imports")]
    wrong += [f'[files."{f}"]: {k}' for f, entry in ARCH.get("files", {}).items() for k in entry if k != "does"]
    assert not wrong, "unknown keys in docs/architecture.toml:\n" + "\n".join(wrong)


def test_every_module_is_in_the_file_with_one_line():
    wrong = [f"{m}: not in docs/architecture.toml" for m in sorted(set(_modules()) - set(MODULES))]
    wrong += [f"{m}: in docs/architecture.toml, but there is no such module" for m in MODULES if m not in _modules()]
    wrong += [f"{m}: its `does` must be one non-empty line" for m, entry in MODULES.items()
              if not entry.get("does", "").strip() or "\n" in entry["does"]]
    assert not wrong, "\n".join([*wrong, '(a new module: add [modules."toybattle.x.y"] with does = "its one line" '
                                  "to docs/architecture.toml, then run python scripts/architecture.py)"])


def test_every_script_of_the_page_is_in_the_file():
    """The front end's scripts have their lines too; every other file the file names exists."""
    files = ARCH.get("files", {})
    wrong = [f"{p}: not in docs/architecture.toml's [files]"
             for p in sorted(str(p.relative_to(SRC)) for p in SRC.rglob("*.js")) if p not in files]
    wrong += [f"{p}: in docs/architecture.toml, but src/toybattle has no such file or directory"
              for p in files if not ((SRC / p).is_dir() if p.endswith("/") else (SRC / p).is_file())]
    wrong += [f"{p}: its `does` must be one non-empty line" for p, entry in files.items()
              if not p.endswith("/") and (not entry.get("does", "").strip() or "\n" in entry["does"])]
    assert not wrong, "\n".join(wrong)


def test_the_areas_are_in_layer_order():
    """An area imports only areas listed after it, so no two areas import each other, even through others."""
    order = list(AREAS)
    wrong = [f"{a}: may import {b}, which is not an area listed after it" for a, rule in AREAS.items()
             for b in rule["imports"] if b not in order or order.index(b) <= order.index(a)]
    unknown = sorted({f"{m}: its area {_area(m)} is not in docs/architecture.toml's [areas]"
                      for m in _modules() if _area(m) not in AREAS})
    wrong += unknown + [f"{a}: an area with no module" for a in AREAS if not any(_area(m) == a for m in _modules())]
    assert not wrong, "\n".join(wrong)


def test_each_modules_rule_stays_inside_its_areas():
    """A module's ``imports`` only narrows its area's rule; and what an area allows, some module of it may do
    (else the area's rule says more than the modules' and should lose it)."""
    wrong = []
    for name, entry in MODULES.items():
        rule = AREAS.get(_area(name), {"imports": []})
        for e in entry.get("imports", []):
            if _top(e) == "toybattle":
                if e not in _modules():
                    wrong.append(f"{name}: may import {e}, which is no module")
                elif _area(e) != _area(name) and _area(e) not in rule["imports"]:
                    wrong.append(f"{name}: may import {e}, but its area {_area(name)} may not import {_area(e)}")
            elif e not in rule.get("third_party", []):
                wrong.append(f"{name}: may import {e}, which is not in its area's third_party")
    for a, rule in AREAS.items():
        members = [MODULES[m] for m in MODULES if _area(m) == a]
        for b in rule["imports"]:
            if members and all("imports" in m and not any(_top(e) == "toybattle" and _area(e) == b
                                                          for e in m["imports"]) for m in members):
                wrong.append(f"{a}: may import {b}, but none of its modules may")
        for t in rule.get("third_party", []):
            if members and all("imports" in m and t not in m["imports"] for m in members):
                wrong.append(f"{a}: may import {t}, but none of its modules may")
    assert not wrong, "\n".join(wrong)


def test_every_import_follows_its_areas_rule():
    """Down the layers only, third-party names only where the area names them, and the standard library
    only as far as an area's ``stdlib`` list (the rules core's) allows."""
    wrong = []
    for name in _modules():
        rule = AREAS.get(_area(name))
        if rule is None:
            continue  # reported by test_the_areas_are_in_layer_order
        for target in _imports(name):
            if _top(target) == "toybattle":
                if _area(target) != _area(name) and _area(target) not in rule["imports"]:
                    wrong.append(f"{name} imports {target}: area {_area(name)} may not import {_area(target)}")
            elif _stdlib(target):
                if "stdlib" in rule and _top(target) not in rule["stdlib"]:
                    wrong.append(f"{name} imports {target}: not in area {_area(name)}'s stdlib list")
            elif _top(target) not in rule.get("third_party", []):
                wrong.append(f"{name} imports {target}: not in area {_area(name)}'s third_party")
    assert not wrong, "(docs/architecture.toml)\n" + "\n".join(sorted(set(wrong)))


def test_every_import_follows_its_modules_rule():
    """Where a module has its own ``imports``, everything it imports beyond the standard library is in it."""
    wrong = []
    for name, entry in MODULES.items():
        if "imports" not in entry or name not in _modules():
            continue
        for target in _imports(name):
            if target != name and not _stdlib(target) and not any(_covers(e, target) for e in entry["imports"]):
                wrong.append(f"{name} imports {target}: not in its imports in docs/architecture.toml")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_docs_architecture_md_is_written_from_the_file():
    script = runpy.run_path(str(ROOT / "scripts" / "architecture.py"))
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    assert script["render"](ARCH, page) == page, \
        "docs/architecture.md differs from docs/architecture.toml: run `python scripts/architecture.py`"


def test_no_module_is_loaded_by_its_name_as_a_string():
    for name, path in _modules().items():
        text = path.read_text("utf-8")
        assert "import_module(" not in text and "__import__(" not in text, name


def test_importlib_serves_only_to_read_the_packages_own_data():
    """No module is loaded through importlib under another name (``import importlib as il``) or by a
    string: importlib only as ``importlib.resources``."""
    for name, path in _modules().items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                for a in node.names:
                    assert (a.name != "importlib" and not a.name.startswith("importlib.")) or \
                        (a.name == "importlib.resources" and a.asname is None), (name, a.name)
            elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "importlib":
                assert node.module in ("importlib", "importlib.resources"), (name, node.module)
                assert node.module == "importlib.resources" or [a.name for a in node.names] == ["resources"], name


def test_no_import_cycle_inside_an_area():
    graph = {name: {t for t in _imports(name) if t in _modules() and t != name and _area(t) == _area(name)}
             for name in _modules()}
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join(path[path.index(node):] + [node]))
        if node in done:
            return
        for nxt in sorted(graph[node]):
            visit(nxt, path + [node])
        done.add(node)

    for name in sorted(graph):
        visit(name, [])


def test_no_module_reaches_into_another_modules_private_attributes():
    """``thing._name`` only where ``_name`` belongs to the same module (its own classes' internals), or is
    one of the standard library's underscored names meant for use ([private] in docs/architecture.toml)."""
    allowed = set(ARCH["private"]["allowed"])
    wrong = []
    for name, path in _modules().items():
        tree = ast.parse(path.read_text("utf-8"))
        own = {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
        own |= {t.attr for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign))
                for t in (n.targets if isinstance(n, ast.Assign) else [n.target]) if isinstance(t, ast.Attribute)}
        own |= {e.value for n in ast.walk(tree) if isinstance(n, ast.Assign)  # __slots__ = ("_name", ...)
                for t in n.targets if isinstance(t, ast.Name) and t.id == "__slots__"
                for e in ast.walk(n.value) if isinstance(e, ast.Constant) and isinstance(e.value, str)}
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__")):
                continue
            if isinstance(n.value, ast.Name) and n.value.id in ("self", "cls"):
                continue
            if ast.unparse(n) in allowed or n.attr in own:
                continue
            wrong.append(f"{name}:{n.lineno}: {ast.unparse(n)}")
    assert not wrong, "\n".join(wrong)
