"""Held-out real photos: issue 30's goal table on photos nobody tuned the reader on.

    .venv/bin/python benchmarks/vision_heldout.py --repo OWNER/NAME=GIT_DIR ... [--cache DIR]
    .venv/bin/python benchmarks/vision_heldout.py --check      # labels and photos only, no reading
    .venv/bin/python benchmarks/vision_heldout.py              # the held-out table (and the in-sample one)
    .venv/bin/python benchmarks/vision_heldout.py --find-grid  # the same, located by vision/grid_find.py
    .venv/bin/python benchmarks/vision_heldout.py --reader net # the same, calibrated for the point net

``benchmarks/real_photos/heldout.json`` lists the held-out sets: the four repositories that issue
30 reserves for independent measurement (OliverBenz/Go_Game, curious-attempt-bunny/go-vision,
romangoempire/goban-watcher, hiroki-0001/Othello), the photos chosen from each (repository path,
commit, SHA-256) and their labels (gobonline textproto beside the list: corners and pieces, made
by looking at the photos and checked by overlays, never by running the reader on them).
``--repo`` copies the photos from local clones into ``<cache>/heldout/<set>`` (nothing is
downloaded); none of them is committed. (Five sets from tomasmcz/imago-tests, AxelRieben/OthelloHelper and
acarp52/gamestate_CV were held out here too, measured once on 2026-11-28, and are training sets in
``sets.json`` since.)

Why a separate script: these photos must never steer the reader. Run it once, on the final
reader, and report what it prints as held-out; changing the reader after seeing its figures
would make them in-sample. The protocol is the tuning sets' (``vision_real_photos.py --sets``):
every photo that shows every colour calibrates in turn with the app's unguided learner (a refusal
reads nothing and counts against acceptance) and the set's other photos are read by their
labelled corners. The reader has no parameters learnt across sets (its thresholds are fixed,
every profile comes from the set's own calibration photo), so leaving a set out changes nothing
and the in-sample table below is the same leave-one-photo-out run on the tuning sets.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.fetch_real_photos import cache_dir, fetch  # noqa: E402
from benchmarks.vision_real_photos import (  # noqa: E402
    SetFigures,
    leave_one_out,
    load_truths,
    measure_sets,
    print_sets,
    set_figures,
)

HELDOUT = ROOT / "benchmarks" / "real_photos" / "heldout.json"


def load_heldout() -> dict[str, object]:
    data: dict[str, object] = json.loads(HELDOUT.read_text(encoding="utf-8"))
    return data


def heldout_sets() -> list[dict[str, object]]:
    sets = load_heldout()["sets"]
    assert isinstance(sets, list)
    return sets


def labels_of(entry: dict[str, object]) -> Path:
    return HELDOUT.parent / str(entry["labels"])


def check(cache: Path) -> list[str]:
    """Problems with the held-out labels and photos (empty when all is well): every listed photo
    labelled once, every label's photo listed, and the photos in the cache."""
    problems = []
    for entry in heldout_sets():
        files = entry["files"]
        assert isinstance(files, dict)
        truths = load_truths(cache, labels_of(entry))
        if set(truths) != set(files):
            problems.append(
                f"{entry['name']}: labels {sorted(set(truths) ^ set(files))} not both listed and labelled"
            )
        folder = cache / "heldout" / str(entry["name"])
        absent = [name for name in files if not (folder / name).is_file()]
        if absent:
            problems.append(
                f"{entry['name']}: {len(absent)} photos not in {folder} (--repo {entry['repo']}=GIT_DIR)"
            )
    return problems


def measure_heldout(
    cache: Path, details: bool = False, find_grid: bool = False, net: bool = False
) -> tuple[list[SetFigures], list[str]]:
    """The goal table's figures per held-out set; ``details``: also print, per calibration photo,
    whether it was accepted and each photo read's wrong and unsure counts (a refused calibration
    is read anyway, forced with the labels, to show why; it never counts in the table).
    ``find_grid``: every photo located by ``vision.grid_find`` instead of its labelled corners
    (a refused photo keeps its labels, as four taps would), with found/refused/wrong per set."""
    figures, missing = [], []
    for entry in heldout_sets():
        folder = cache / "heldout" / str(entry["name"])
        labels = labels_of(entry)
        files = entry["files"]
        assert isinstance(files, dict)
        if not all((folder / name).is_file() for name in files):
            missing.append(
                f"{entry['name']}: photos not in {folder} (run with --repo {entry['repo']}=GIT_DIR)"
            )
            continue
        if find_grid:
            from benchmarks.vision_grid_find import locate_set
            from benchmarks.vision_real_photos import can_calibrate, read_others

            truths, tally = locate_set(folder, load_truths(folder, labels))
            found, refused, wrong = tally["found"], tally["refused"], tally["wrong"]
            print(f"{entry['name']}: grid found {found}, refused {refused}, wrong {wrong}")
            colours = {letter for t in truths.values() for letter in t.letters} - {"."}
            runs = [
                read_others(folder, truths, name, net=net)
                for name, t in truths.items()
                if can_calibrate(t, colours)
            ]
        else:
            runs, _left = leave_one_out(folder, labels=labels, net=net)
        figures.append(set_figures(str(entry["name"]), runs, list(load_truths(folder, labels))))
        if details:
            print(f"{entry['name']}: per calibration photo, each photo read as wrong/unsure of its points")
            for run in runs:
                head = f"REFUSED ({run.refused})" if run.refused else "accepted"
                cells = " ".join(f"{r.name}={len(r.score.wrong)}/{len(r.score.unsure)}" for r in run.results)
                print(f"  {run.photo}: {head}\n    {cells} (of {run.results[0].score.total} each)")
    return figures, missing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", action="append", default=[], help="OWNER/NAME=GIT_DIR: copy that repository's photos"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="default: $TABLE99_REAL_PHOTOS or ~/.cache/table99/real_photos",
    )
    parser.add_argument(
        "--shared", type=Path, default=ROOT.parent / "shared", help="for the in-sample table (gobonline)"
    )
    parser.add_argument("--check", action="store_true", help="check the labels and photos only; read nothing")
    parser.add_argument("--no-in-sample", action="store_true", help="print only the held-out table")
    parser.add_argument("--details", action="store_true", help="per calibration photo, every photo read")
    parser.add_argument(
        "--find-grid",
        action="store_true",
        help="locate every photo by vision.grid_find instead of its labelled corners (issue 30 point 6)",
    )
    parser.add_argument(
        "--reader", choices=("rules", "net"), default="rules", help="the rule path or the point net (opt-in)"
    )
    args = parser.parse_args()
    net = args.reader == "net"
    cache = args.cache or cache_dir()
    for item in args.repo:
        name, sep, path = item.partition("=")
        git_dir = Path(path)
        if not sep or not path:
            raise SystemExit(f"--repo {item!r}: give OWNER/NAME=GIT_DIR")
        if (git_dir / ".git").is_dir():
            git_dir = git_dir / ".git"
        for entry in heldout_sets():
            if entry["repo"] == name:
                named = {**entry, "name": f"heldout/{entry['name']}"}
                copied = fetch(named, git_dir, cache)
                print(f"{entry['name']}: {copied} photos into {cache / 'heldout' / str(entry['name'])}")
    if args.check:
        problems = check(cache)
        for line in problems:
            print(f"PROBLEM: {line}")
        print(
            "held-out labels and photos: " + ("all present" if not problems else f"{len(problems)} problems")
        )
        return 1 if problems else 0
    if args.repo:
        return 0
    not_labelled = load_heldout().get("not_labelled", {})
    print("HELD OUT (never used for training, tuning or tests; labels made by looking, not by the reader):")
    print_sets(*measure_heldout(cache, args.details, args.find_grid, net))
    assert isinstance(not_labelled, dict)
    for repo, why in not_labelled.items():
        print(f"NOT MEASURED: {repo}: {why}")
    if not args.no_in_sample:
        print()
        print(
            "IN-SAMPLE (the tuning sets of benchmarks/real_photos/sets.json; see each set's in_sample note):"
        )
        print_sets(*measure_sets(args.shared, cache, net))
    return 0


if __name__ == "__main__":
    sys.exit(main())
