"""``table99 exhibit unlock``: give the staff the PIN pad back (exhibitor mode, docs/exhibit.md).

Wrong PIN tries are counted in the family store's database so a restart does not reset them
(app/exhibit/lock.py); a child poking at the pad whenever its wait ends keeps it locked for an hour
at a time. Whoever can run this on the table (root or the table99 user over ssh) can read the
config's PIN anyway, so this is no way round the lock for a visitor.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from app.config import default_config_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("action", choices=("unlock",),
                        help="unlock: forget the wrong PIN tries (takes effect when the table restarts)")
    parser.add_argument("--config", type=Path, help="config file (default: $TABLE99_CONFIG or /etc/table99)")


def main(args: argparse.Namespace) -> int:
    from app.exhibit.lock import StoredTries
    from app.startup import DATABASE, plan_startup
    from app.store import GameStore

    path = args.config if args.config is not None else default_config_path()
    database = plan_startup(path).data_dir / DATABASE
    if not database.is_file():
        print(f"table99 exhibit unlock: no games database at {database}: nothing to unlock", file=sys.stderr)
        return 1
    try:
        store = GameStore(database)
        try:
            tries = StoredTries(store)
            wrong = tries.get()
            tries.put(0)
        finally:
            store.close()
    except Exception as exc:  # a locked or damaged database: say which file, never a traceback
        print(f"table99 exhibit unlock: {database}: {exc}", file=sys.stderr)
        return 1
    print(f"Forgot {wrong} wrong tries of the staff PIN in {database}. Restart the table for the pad "
          "to open at once: sudo systemctl restart table99")
    return 0
