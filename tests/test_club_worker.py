"""The hub's worker process (app.club.worker.HeavyWorker): a task's result and its error come back,
a dead worker is replaced for the next task, a task that kills every worker is refused in one
exception (not a loop), and close stops the process."""

from __future__ import annotations

import os
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest

from app.club.worker import HeavyWorker


def pid_of_worker(_: Any = None) -> int:
    return os.getpid()


def refuse(text: str) -> None:
    raise ValueError(text)


def die() -> None:
    os._exit(3)  # as the kernel's OOM killer would: no exception, the process is gone


@pytest.fixture
def worker() -> Any:
    made = HeavyWorker()
    yield made
    made.close()


def test_a_task_runs_in_another_process_started_once(worker: HeavyWorker) -> None:
    assert worker.pool is None  # nothing started before the first heavy task
    first = worker.run(pid_of_worker)
    assert first != os.getpid()
    assert worker.run(pid_of_worker) == first  # the same process serves the next task
    with pytest.raises(ValueError, match="stored state unreadable"):
        worker.run(refuse, "stored state unreadable")
    assert worker.run(pid_of_worker) == first  # a task's own error leaves the worker alive


def test_a_killed_worker_is_replaced_for_the_next_task(worker: HeavyWorker) -> None:
    first = worker.run(pid_of_worker)
    pool = worker.pool
    assert pool is not None
    for process in list(pool._processes.values()):
        process.kill()
        process.join(10)
    second = worker.run(pid_of_worker)
    assert second not in (first, os.getpid())
    assert worker.pool is not pool


def test_a_task_that_kills_each_worker_is_tried_twice_then_raised(worker: HeavyWorker) -> None:
    with pytest.raises(BrokenProcessPool):
        worker.run(die)
    assert worker.pool is None  # the broken pool is not kept
    assert worker.run(pid_of_worker) != os.getpid()  # the next task gets a fresh worker


def test_close_stops_the_worker_and_a_later_task_starts_another(worker: HeavyWorker) -> None:
    worker.run(pid_of_worker)
    pool = worker.pool
    assert pool is not None
    processes = list(pool._processes.values())
    worker.close()
    assert worker.pool is None
    for process in processes:
        process.join(10)
        assert not process.is_alive()
    assert worker.run(pid_of_worker) != os.getpid()
