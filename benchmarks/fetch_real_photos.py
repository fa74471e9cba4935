"""Copy the real-photo sets' pictures into the cache, from a local clone of each source repository.

    .venv/bin/python benchmarks/fetch_real_photos.py --repo smolendawid/Gomrade=PATH_TO_GIT_DIR [--cache DIR]

``benchmarks/real_photos/sets.json`` lists every set: where its photos come from (repository,
commit, path) and each photo's SHA-256. Photos whose licence does not let the project ship them
(GPL sets) are never committed; this script puts them in the cache
(``$TABLE99_REAL_PHOTOS`` or ``~/.cache/table99/real_photos``), where the benchmark and the
tests look for them (the tests skip, saying so, without them). Nothing is downloaded here: clone
the repository yourself (``git clone https://github.com/smolendawid/Gomrade``) and name its git
directory, so the run needs no network and reads exactly the listed commit.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "benchmarks" / "real_photos" / "sets.json"


def cache_dir() -> Path:
    """Where the sets' photos are read from: ``$TABLE99_REAL_PHOTOS`` or the user's cache."""
    return Path(os.environ.get("TABLE99_REAL_PHOTOS", Path.home() / ".cache" / "table99" / "real_photos"))


def load_sets() -> dict[str, object]:
    data: dict[str, object] = json.loads(SETS.read_text(encoding="utf-8"))
    return data


def fetch(entry: dict[str, object], git_dir: Path, cache: Path) -> int:
    """Copy one set's photos out of ``git_dir`` at the listed commit; returns how many were copied."""
    folder = cache / str(entry["name"])
    folder.mkdir(parents=True, exist_ok=True)
    files = entry["files"]
    assert isinstance(files, dict)
    for name, info in files.items():
        blob = subprocess.run(
            ["git", "--git-dir", str(git_dir), "show", f"{entry['commit']}:{info['path']}"],
            capture_output=True,
            check=False,
        )
        if blob.returncode != 0:
            raise SystemExit(
                f"{git_dir}: cannot read {info['path']} at {entry['commit']}: {blob.stderr.decode().strip()}"
            )
        digest = hashlib.sha256(blob.stdout).hexdigest()
        if digest != info["sha256"]:
            raise SystemExit(f"{info['path']}: SHA-256 {digest} is not the listed {info['sha256']}")
        (folder / name).write_bytes(blob.stdout)
    return len(files)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--repo", action="append", default=[], help="OWNER/NAME=GIT_DIR (a clone's .git or a bare mirror)"
    )
    parser.add_argument(
        "--cache",
        type=Path,
        default=None,
        help="default: $TABLE99_REAL_PHOTOS or ~/.cache/table99/real_photos",
    )
    args = parser.parse_args()
    cache = args.cache or cache_dir()
    repos = {}
    for item in args.repo:
        name, sep, path = item.partition("=")
        if not sep or not path:
            raise SystemExit(f"--repo {item!r}: give OWNER/NAME=GIT_DIR")
        git_dir = Path(path)
        if (git_dir / ".git").is_dir():
            git_dir = git_dir / ".git"
        repos[name] = git_dir
    sets = load_sets()["sets"]
    assert isinstance(sets, list)
    for entry in sets:
        source = str(entry.get("source", ""))
        if not source.startswith("github:"):
            continue  # the shared folder's sets are beside the project already
        repo = source.removeprefix("github:")
        if repo not in repos:
            print(f"{entry['name']}: skipped (give --repo {repo}=GIT_DIR; clone https://github.com/{repo})")
            continue
        print(f"{entry['name']}: {fetch(entry, repos[repo], cache)} photos into {cache / entry['name']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
