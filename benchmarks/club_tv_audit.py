"""The hub's pages in headless Chromium: axe-core, how the TV page fits, cap heights, screenshots.

    (cd test-artifacts/axe && npm install axe-core)      # once, outside git (test-artifacts/ is ignored)
    .venv/bin/python benchmarks/club_tv_audit.py [TABLES ...]

For each number of tables (default 1 4 5 8, long names): the TV page (``/?tv``) at 1280x720,
1920x1080 and 3840x2160, the live page and the season standings on a phone (390x844) and a TV, in
English and German. Prints, per page, the axe-core violations (impact serious or critical are
counted), whether the TV page fits (no scrolling, no card cut off, the Wins column on screen) and
the standings' and cards' cap heights against legibility at 3 m (16 minutes of arc on a 43" TV:
2.61 % of the screen's height; tests/club_pages_support.py). Screenshots go to
test-artifacts/club/. Exits 1 on a serious or critical violation or a TV page that does not fit.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.club_pages_support import CAP_SHARE, evening_hub, fits, measure, serve, set_size  # noqa: E402
from tests.web_support import make_driver, quit_driver  # noqa: E402

AXE = ROOT / "test-artifacts" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
OUT = ROOT / "test-artifacts" / "club"
TVS = [(1280, 720), (1920, 1080), (3840, 2160)]
PHONE = (390, 844)


def axe(driver: object) -> list[dict[str, object]]:
    """axe-core's violations on the page now shown (injected as a script: the page's CSP allows
    only its own scripts, but WebDriver's execute_script is not bound by it)."""
    driver.execute_script(AXE.read_text(encoding="utf-8"))  # type: ignore[attr-defined]
    result = driver.execute_async_script(  # type: ignore[attr-defined]
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map("
        "v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help}))));")
    return list(result)


def main(counts: list[int]) -> int:
    if not AXE.exists():
        print(f"axe-core missing: (cd test-artifacts/axe && npm install axe-core) -> {AXE}")
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    bad = 0
    driver = make_driver(size=TVS[1])
    driver.set_script_timeout(60)
    try:
        for tables in counts:
            folder = Path(tempfile.mkdtemp(prefix="club-audit-"))
            hub = evening_hub(folder, tables, long_names=True)
            with serve(hub) as base:
                for lang in ("en", "de"):
                    pages = [("tv", f"/?tv&lang={lang}", size) for size in TVS]
                    season = f"/standings?evening=all&lang={lang}"
                    pages += [("live", f"/?lang={lang}", PHONE), ("season", season, PHONE),
                              ("season-tv", season + "&tv", TVS[1])]
                    for name, path, (width, height) in pages:
                        set_size(driver, width, height)
                        driver.get(base + path)
                        violations = axe(driver)
                        serious = [v for v in violations if v["impact"] in ("serious", "critical")]
                        bad += len(serious)
                        line = (f"{tables} tables {name:9} {width}x{height} {lang}: "
                                f"axe {len(serious)} serious/critical")
                        if violations:
                            line += " " + json.dumps(violations)
                        if name == "tv":
                            m = measure(driver)
                            wrong = fits(m)
                            bad += len(wrong)
                            share = 100 * m["cap"] / height
                            line += (f"; fits: {wrong or 'yes'}; page {m['scrollWidth']}x{m['scrollHeight']};"
                                     f" standings font {m['font']:.1f} px, cap {m['cap']} px"
                                     f" = {share:.2f} % of the height (rule {100 * CAP_SHARE:.2f} %);"
                                     f" cards' cap {m['cardCap']} px = {100 * m['cardCap'] / height:.2f} %;"
                                     f" last standings row ends at {m['lastRow']:.0f} px")
                        print(line, flush=True)
                        if width <= 1920:  # a 4K screenshot is 4x the pixels of what it shows
                            driver.save_screenshot(str(OUT / f"{name}-{tables}-{width}x{height}-{lang}.png"))
            hub.close()
    finally:
        quit_driver(driver)
    print(f"problems: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main([int(a) for a in sys.argv[1:]] or [1, 4, 5, 8]))
