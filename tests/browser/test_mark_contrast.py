"""Issue 14's "contrast of marks at least 3:1" on every terrain's ground, read from the style sheet
itself: the legal-target and connected rings, the last-move marker of each side and the H.Q. threat
mark. (test_phone_play.py measures the target, connected and last-move marks in the page, on the
castle; this covers every ground and the threat mark, which shows only when a game comes to it.)"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import toybattle

CSS = (Path(toybattle.__file__).parent / "web" / "css" / "app.css").read_text(encoding="utf-8")


def _colour(value: str) -> str:
    var = re.fullmatch(r"var\((--[\w-]+)\)", value.strip())
    if var:
        found = re.search(rf"{var.group(1)}:\s*(#[0-9a-fA-F]{{6}})", CSS)
        assert found, var.group(1)
        return found.group(1)
    assert re.fullmatch(r"#[0-9a-fA-F]{6}", value.strip()), value
    return value.strip()


def _rule(selector: str, prop: str) -> str:
    head = rf"(?:^|[}},]\s*){re.escape(selector)}\s*(?:,[^{{}}]*)?"  # alone or in a list of selectors
    found = re.search(rf"{head}\{{[^}}]*?(?<![-\w]){prop}:\s*([^;}}]+)", CSS, re.M)
    assert found, f"{selector} has no {prop}"
    return _colour(found.group(1))


def _luminance(hex_colour: str) -> float:
    def lin(c: int) -> float:
        v = c / 255
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: str, b: str) -> float:
    x, y = _luminance(a), _luminance(b)
    return (max(x, y) + 0.05) / (min(x, y) + 0.05)


GROUNDS = [".ground"] + sorted(set(re.findall(r"^(\.ground-[\w-]+)", CSS, re.M)))
MARKS = [(".target-ring", "stroke"), (".link-ring", "stroke"), (".last-mark.red", "fill"),
         (".last-mark.blue", "fill"), (".threat-mark circle", "fill"), (".node.threat .base-disc", "stroke")]


def test_the_check_reads_the_style_sheet():
    assert len(GROUNDS) >= 8 and _rule(".ground", "fill") == "#cfe3b0"
    assert contrast("#ffffff", "#000000") == pytest.approx(21.0)


@pytest.mark.parametrize("mark,prop", MARKS, ids=[m for m, _ in MARKS])
def test_each_mark_reads_at_3_to_1_on_every_ground(mark, prop):
    colour = _rule(mark, prop)
    low = {g: round(contrast(colour, _rule(g, "fill")), 2) for g in GROUNDS}
    assert min(low.values()) >= 3, (mark, colour, low)
