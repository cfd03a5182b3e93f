"""The special bases' names and texts are checked on load (rules.powers)."""
from __future__ import annotations

import pytest

from toybattle.rules.powers import POWER_INFO, RESTRICTED, parse_powers
from toybattle.rules.terrain import POWERS


def test_every_power_and_the_restricted_base_have_a_name_and_a_rule():
    assert set(POWER_INFO) == {*POWERS, RESTRICTED}
    assert POWER_INFO["shove"].name == "Volcano bridge" and "neighbouring base" in POWER_INFO["shove"].text


@pytest.mark.parametrize("raw,error", [
    ([], "exactly the keys"),
    ({k: {"name": "n", "text": "t"} for k in POWERS}, "exactly the keys"),  # restricted missing
    ({k: {"name": "n", "text": "t"} for k in (*POWERS, RESTRICTED, "teleport")}, "exactly the keys"),
    ({k: {"name": "n", "text": "" if k == "draw" else "t"} for k in (*POWERS, RESTRICTED)}, "'draw' needs"),
    ({k: ("n" if k == "recall" else {"name": "n", "text": "t"}) for k in (*POWERS, RESTRICTED)}, "'recall' needs"),
])
def test_bad_power_data_is_refused_with_what_is_wrong(raw, error):
    with pytest.raises(ValueError, match=error):
        parse_powers(raw)
