"""The web display's colours and markup, checked without a browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

APP = Path(__file__).resolve().parent.parent / "app"
STATIC = APP / "web" / "static"  # the web display's script
SHARED = APP / "pages" / "static"  # the style every web front end shares

# (text, background, where): every text colour the stylesheet puts on a background
PAIRS = [
    ("#f2f2f2", "#121212", "body text"), ("#f2f2f2", "#1e1e1e", "panels"), ("#c8c8c8", "#1e1e1e", "muted"),
    ("#c8c8c8", "#121212", "muted on the page"), ("#ffd54f", "#1e1e1e", "dealer, trump, accent"),
    ("#8ab4f8", "#121212", "links"), ("#8ab4f8", "#1e1e1e", "links in the header"),
    ("#81c995", "#121212", "connected"), ("#f2f2f2", "#b71c1c", "penalties, errors"),
    ("#1a1a1a", "#ffd54f", "result banner"), ("#ffffff", "#0d47a1", "buttons"),
    ("#ffffff", "#37474f", "secondary buttons"), ("#ffffff", "#8e2417", "warning buttons"),
    ("#111111", "#ffffff", "inputs"), ("#262626", "#eee3cc", "board numbers (light)"),
    ("#262626", "#dbcdad", "board numbers (dark)"), ("#262626", "#ffd54f", "winning squares"),
    ("#ffffff", "#d32f2f", "red peg letter"), ("#ffffff", "#1565c0", "blue peg letter"),
    ("#ffffff", "#2e7d32", "green peg letter"), ("#ffffff", "#212121", "black peg letter"),
    ("#1a1a1a", "#fbc02d", "yellow peg letter"), ("#1a1a1a", "#fafafa", "white peg letter"),
    ("#ff8a80", "#1e1e1e", "count of 90 and more"), ("#f2f2f2", "#263238", "the row whose turn it is"),
    ("#ffd54f", "#121212", "end of game in the log"), ("#ffffff", "#616161", "a peg of no known colour"),
    ("#81d4fa", "#1e1e1e", "chart: second hand"), ("#ef9a9a", "#1e1e1e", "chart: third hand"),
    ("#a5d6a7", "#1e1e1e", "chart: fourth hand"), ("#ce93d8", "#1e1e1e", "chart: fifth hand"),
    ("#ffcc80", "#1e1e1e", "chart: sixth hand"),
]


def luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("text,background,where", PAIRS)
def test_text_contrast_is_at_least_4_5(text: str, background: str, where: str) -> None:
    assert contrast(text, background) >= 4.5, f"{where}: {contrast(text, background):.2f}"


def test_every_colour_in_the_stylesheet_is_one_checked_above() -> None:
    css = (SHARED / "style.css").read_text(encoding="utf-8")
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    checked = {c for pair in PAIRS for c in pair[:2]} | {"#424242", "#3e2723", "#1a1a1a", "#e65100",
                                                      "#9e9e9e"}  # the chart's zero line: no text
    used = {c.lower() for c in re.findall(r"#[0-9a-fA-F]{6}\b", css + js)}
    assert used <= checked, f"colours not in the contrast list: {sorted(used - checked)}"


def test_no_outside_resources_and_no_inline_script() -> None:
    css = (SHARED / "style.css").read_text(encoding="utf-8")
    js = (STATIC / "app.js").read_text(encoding="utf-8")
    assert "http" not in css and "@import" not in css and "url(" not in css
    assert not re.search(r"https?://", js.replace("http://www.w3.org/2000/svg", ""))
    for source in [*(APP / "web").glob("*.py"), APP / "pages" / "__init__.py"]:
        # the only script tags are the JSON data block and app.js
        assert "<script>" not in source.read_text(encoding="utf-8"), source


def test_the_web_catalog_never_changes_another_areas_german() -> None:
    """Catalogs merge into one: a string the web repeats must keep the words the table uses."""
    import json

    folder = APP / "locale" / "de"
    web = json.loads((folder / "web.json").read_text(encoding="utf-8"))
    for path in sorted(folder.glob("*.json")):
        if path.name != "web.json":
            other = json.loads(path.read_text(encoding="utf-8"))
            clashes = {k: (other[k], v) for k, v in web.items() if k in other and other[k] != v}
            assert not clashes, f"{path.name}: {clashes}"


def test_the_page_scripts_share_their_helpers_from_common_js() -> None:
    """app.js and phones.js each carried their own copy of el() and fill(): one file (common.js)
    now holds them, every page that loads a page script loads it first (deferred scripts run in
    order), and no script reaches outside the table."""
    scripts = {path.name: path.read_text(encoding="utf-8") for path in STATIC.glob("*.js")}
    assert {"common.js", "app.js", "phones.js"} <= set(scripts)
    for name, js in scripts.items():
        assert not re.search(r"https?://", js.replace("http://www.w3.org/2000/svg", "")), name
        if name != "common.js":
            assert not re.search(r"function (el|fill)\(", js), f"{name} defines its own helper again"
    for source, script in ((APP / "web" / "routes.py", "app.js"), (APP / "web" / "phones.py", "phones.js")):
        text = source.read_text(encoding="utf-8")
        common, own = text.find('src="/static/common.js"'), text.find(f'src="/static/{script}"')
        assert 0 <= common < own, f"{source.name}: common.js is not loaded before {script}"
