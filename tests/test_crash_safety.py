"""SIGKILL the referee+store loop mid-game, restart it, and find every accepted action.

The child process is the app's game loop without the screen: a simulated board, the referee with
its stability window, the SQLite store. It prints a line for each action *after* the referee
reported it accepted (which is after the commit), as the screen would show it. The parent kills it
with SIGKILL at a random moment, then checks the database holds every action the child showed.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from app.games.board99.game import Board99Game
from app.store import GameStore

ROOT = Path(__file__).resolve().parent.parent

CHILD = textwrap.dedent(
    """
    import json, sys
    from app.games.board99.game import Board99Game, TableSetup
    from app.paths import default_database
    from app.referee import ActionAccepted, StabilityWindow
    from app.referee.core import Referee
    from app.store import GameStore
    from hardware.board_source import ReadingQueue
    from hardware.simulated import SimulatedBoard
    from rules import board99 as rules

    store = GameStore(default_database())
    unfinished = store.unfinished("board99")
    if unfinished:
        game = Board99Game.load(store, unfinished[0].id)
    else:
        game = Board99Game.create(store, rules.make_setup(["Ann", "Ben"], layout="rows"),
                                  TableSetup({"Ann": "red", "Ben": "blue"}))
    now = [0.0]
    board = SimulatedBoard(clock=lambda: now[0], initial=[int(sq) for sq in game.state.pegs])
    referee = Referee(game, StabilityWindow(0.4, lambda: now[0]))
    queue = ReadingQueue()
    board.subscribe(queue.put)

    lockstep = len(sys.argv) > 1

    def shown(event):
        if isinstance(event, ActionAccepted):
            print("accepted", event.index, json.dumps(rules.action_to_json(event.action)), flush=True)
            if lockstep:
                sys.stdin.readline()  # the parent says when to go on, so it can kill mid-game

    referee.subscribe(shown)
    board.start()

    def settle():
        for e in queue.drain():
            referee.on_board_event(e)
        now[0] += 0.5
        referee.tick()

    settle()
    print("resumed", len(game.actions), referee.phase.value, flush=True)
    start = len(game.actions)
    free = [h for h in range(100) if h not in board.occupied]
    for turn in range(start, 400):
        if game.state.outcome is not None or not free:
            break
        if game.state.hand_count(game.state.to_move) == 0:
            referee.announce_draw()
        else:
            hole = free.pop(len(free) // 2 if turn % 2 else 0)
            referee.announce_play(hole)  # rows layout: card n on square n is always legal
            board.put(hole)
            settle()
    print("done", len(game.actions), flush=True)
    """
)


def run_child(env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", CHILD, *args], cwd=ROOT, env=env, text=True,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def test_sigkill_mid_game_loses_no_accepted_action(tmp_path: Path) -> None:
    env = dict(os.environ, TABLE99_DATA_DIR=str(tmp_path / "data"), PYTHONPATH=str(ROOT))
    child = run_child(env, "lockstep")
    assert child.stdout is not None and child.stdin is not None
    shown: list[tuple[int, dict[str, object]]] = []
    for line in child.stdout:
        if line.startswith("accepted"):
            _, index, action = line.split(" ", 2)
            shown.append((int(index), json.loads(action)))
            child.stdin.write("go\n")
            child.stdin.flush()
        if len(shown) == 11:  # mid-game, likely mid-action: kill it without any chance to clean up
            os.kill(child.pid, signal.SIGKILL)
            break
    child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL, child.stderr.read() if child.stderr else ""

    store = GameStore(tmp_path / "data" / "games.sqlite3")
    (summary,) = store.unfinished("board99")
    stored = store.load(summary.id).actions
    assert len(stored) >= len(shown)
    for index, action in shown:
        assert stored[index] == action
    game = Board99Game.load(store, summary.id)  # the stored game replays through the rules
    assert len(game.state.pegs) == sum(1 for a in stored if a["do"] == "play")
    store.close()

    restarted = run_child(env)  # the restart resumes the same game, board check first
    out, err = restarted.communicate(timeout=60)
    assert restarted.returncode == 0, err
    lines = out.splitlines()
    assert lines[0] == f"resumed {len(stored)} announce", lines[0]
    final = GameStore(tmp_path / "data" / "games.sqlite3").load(summary.id).actions
    assert final[: len(stored)] == stored and len(final) > len(stored)
