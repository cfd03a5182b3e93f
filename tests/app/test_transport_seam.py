"""The page's one transport seam (web/js/net.js): no other module opens a socket or calls the global
fetch, so every screen (the watch page included) works on the static site's Web Worker too."""
from __future__ import annotations

import re
from pathlib import Path

import toybattle

JS = Path(toybattle.__file__).parent / "web" / "js"


def test_only_net_js_opens_sockets_and_every_fetch_goes_through_it():
    for path in sorted(JS.glob("*.js")):
        if path.name == "net.js":
            continue
        source = path.read_text("utf-8")
        assert "WebSocket(" not in source, path.name
        if re.search(r"(?<![\w.])fetch\(", source):
            assert re.search(r'import \{[^}]*\bfetch\b[^}]*\} from "\./net\.js"', source), path.name
    assert "GameSocket" in (JS / "watch.js").read_text("utf-8")
