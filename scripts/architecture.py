"""Write docs/architecture.md's module list and table of areas from docs/architecture.toml.

    python scripts/architecture.py           # rewrites the two generated sections of docs/architecture.md
    python scripts/architecture.py --check   # says whether they are up to date (exit 1 if not), writes nothing

Each section sits between two marker comments (``<!-- modules: generated ... -->`` ... ``<!-- /modules -->``,
the same for ``areas``); everything outside them is prose, left as it is. tests/test_layers.py fails when
the page differs from what this script writes. Standard library only.
"""
from __future__ import annotations

import re
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TOML = ROOT / "docs" / "architecture.toml"
PAGE = ROOT / "docs" / "architecture.md"
WIDTH = 116  # the layout's lines, in a code block: short enough to read without scrolling
COLUMN = 18  # where descriptions start at the least


def load(path: Path = TOML) -> dict:
    return tomllib.loads(path.read_text("utf-8"))


def area(module: str) -> str:
    """The area of a toybattle module: its top-level module or package ("__init__" for the package itself)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def is_package(name: str, modules: dict) -> bool:
    return name == "toybattle" or "package" in modules[name] or any(m.startswith(name + ".") for m in modules)


def file_of(name: str, modules: dict) -> str:
    """The module's file, relative to src/toybattle: toybattle.app.pool -> app/pool.py."""
    parts = name.split(".")[1:]
    return "/".join([*parts, "__init__.py"]) if is_package(name, modules) else "/".join(parts) + ".py"


def _layout(data: dict) -> str:
    """The tree of src/toybattle: Python modules in the file's order (a package's __init__.py first in its
    directory), then the other files and directories in the file's order."""
    modules = data["modules"]
    tree: dict[str, list[tuple[str, str]]] = {"": []}  # directory -> its entries (name, description)
    notes: dict[str, str] = {}  # directory -> its own line

    def directory(path: str) -> None:
        if path in tree:
            return
        parent = path.rstrip("/").rpartition("/")[0]
        parent = parent + "/" if parent else ""
        directory(parent)
        tree[path] = []
        tree[parent].append((path[len(parent):], path))  # a directory's line is filled in when written

    for name, entry in modules.items():
        path = file_of(name, modules)
        folder = path.rpartition("/")[0] + "/" if "/" in path else ""
        directory(folder)
        if path.endswith("__init__.py"):
            notes[folder] = entry.get("package", "")
            tree[folder].insert(0, ("__init__.py", entry["does"]))
        else:
            tree[folder].append((path[len(folder):], entry["does"]))
    for path, entry in data.get("files", {}).items():
        if path.endswith("/"):
            directory(path)
            notes[path] = entry.get("does", "")
        else:
            folder = path.rpartition("/")[0] + "/" if "/" in path else ""
            directory(folder)
            tree[folder].append((path[len(folder):], entry["does"]))

    lines = ["src/toybattle/"]

    def write(folder: str, indent: int) -> None:
        entries = tree[folder]
        column = max([COLUMN, *(indent + len(name) + 2 for name, _ in entries)])
        for name, text in entries:
            is_dir = name.endswith("/")
            text = notes.get(text, "") if is_dir else text
            wrapped = textwrap.wrap(text, WIDTH - column, break_long_words=False, break_on_hyphens=False) or [""]
            lines.append((" " * indent + name).ljust(column) + wrapped[0] if wrapped[0] else " " * indent + name)
            lines.extend(" " * column + more for more in wrapped[1:])
            if is_dir:
                write(folder + name, indent + 2)

    write("", 2)
    return "```\n" + "\n".join(lines) + "\n```\n"


def may_import(entry: dict, target_area: str | None, third_party: str | None = None) -> bool:
    """Whether the module of ``entry`` may import anything of ``target_area`` (or the third-party ``third_party``),
    as far as its own rule goes (a module without ``imports`` has its area's rule alone)."""
    if "imports" not in entry:
        return True
    if third_party is not None:
        return third_party in entry["imports"]
    return any(e.split(".")[0] == "toybattle" and area(e) == target_area for e in entry["imports"])


def _only(members: list[str], allowed: list[str], modules: dict) -> str:
    """" (web.py only)": which of an area's modules an import is limited to, when not all of them."""
    if len(members) < 2 or len(allowed) == len(members):
        return ""
    if not allowed:
        return " (no module)"
    short = [file_of(m, modules).removeprefix(area(m) + "/") for m in allowed]
    if len(allowed) <= 3:
        return " (" + ", ".join(short) + " only)"
    left = [file_of(m, modules).removeprefix(area(m) + "/") for m in members if m not in allowed]
    if len(left) <= 3:
        return " (all but " + ", ".join(left) + ")"
    return f" ({len(allowed)} of its {len(members)} modules)"


def _areas(data: dict) -> str:
    """The table of areas, top layer first; consecutive areas with the same row share it."""
    modules = data["modules"]
    order = list(data["areas"])
    rows: list[tuple[list[str], str, str]] = []
    for name, rule in data["areas"].items():
        members = [m for m in modules if area(m) == name]
        inside = []
        for target in sorted(rule["imports"], key=order.index):
            allowed = [m for m in members if may_import(modules[m], target)]
            if len(members) == 1 and "imports" in modules[members[0]]:
                # one module: name what it may import of the area (lessons.cli), not which of its modules may
                own = [e for e in modules[members[0]]["imports"] if e.startswith("toybattle") and area(e) == target]
                inside += [f"`{e.removeprefix('toybattle.') if e != 'toybattle' else '__init__'}`" for e in own]
            else:
                inside.append(f"`{target}`" + _only(members, allowed, modules))
        outside = []
        for package in rule.get("third_party", []):
            allowed = [m for m in members if may_import(modules[m], None, package)]
            outside.append(f"`{package}`" + _only(members, allowed, modules))
        if "stdlib" in rule:
            outside.append("of the standard library only " + ", ".join(f"`{s}`" for s in rule["stdlib"]))
        row = (", ".join(inside) or "nothing", ", ".join(outside) or "the standard library")
        if rows and rows[-1][1:] == row:
            rows[-1][0].append(name)
        else:
            rows.append(([name], *row))
    lines = ["| area | imports (toybattle) | imports besides toybattle |", "|---|---|---|"]
    lines += ["| " + ", ".join(f"`{n}`" for n in names) + f" | {inside} | {outside} |"
              for names, inside, outside in rows]
    return "\n".join(lines) + "\n"


SECTIONS = {"modules": _layout, "areas": _areas}


def render(data: dict, page: str) -> str:
    """``page`` with each generated section rewritten from ``data``."""
    for name, make in SECTIONS.items():
        pattern = re.compile(rf"(<!-- {name}: generated by scripts/architecture\.py[^>]*-->\n)(.*?)(<!-- /{name} -->)",
                             re.DOTALL)
        if not pattern.search(page):
            raise SystemExit(f"docs/architecture.md: no <!-- {name}: generated by scripts/architecture.py ... --> "
                             f"... <!-- /{name} --> section")
        page = pattern.sub(lambda m, make=make: m.group(1) + make(data) + m.group(3), page, count=1)
    return page


def main(argv: list[str]) -> int:
    old = PAGE.read_text("utf-8")
    new = render(load(), old)
    if "--check" in argv:
        print("docs/architecture.md: " + ("up to date" if new == old else "out of date: run scripts/architecture.py"))
        return 0 if new == old else 1
    if new != old:
        PAGE.write_text(new, "utf-8")
    print("docs/architecture.md: " + ("rewritten" if new != old else "unchanged"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
