"""Test-wide setup. Kivy's environment must be set before anything imports kivy."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONFIG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
ARTIFACTS = ROOT / "test-artifacts"  # screenshots and logs from test runs; not committed

pytest_plugins = ["tests.ui_support", "tests.browser_pool"]

settings.register_profile(
    "ci", max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", max_examples=60, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


@pytest.fixture
def shared_dir() -> Path:
    """``../shared`` beside the project; tests that need it skip with the reason when absent."""
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (it is only beside the project on developer and CI machines)")
    return SHARED


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


@pytest.fixture
def german() -> Iterator[None]:
    """The app speaks German for this test (sentences, refusals), English again after it."""
    from app import i18n

    i18n.set_language("de")
    try:
        yield
    finally:
        i18n.set_language("en")


@pytest.fixture(autouse=True)
def _english_first() -> None:
    """Every test starts in English. The language is one global (``app.i18n``), and a test that
    ends in German (an exhibit visitor who chose it, a shell switched by its language button)
    left it German for the next test in the same worker: Parlett's screens then said "Spieler 1"
    and "offene Tippkarten oder Ouvert?" where the next test looked for English (CI, 4 tests)."""
    from app import i18n

    i18n.set_language("en")


@pytest.fixture(autouse=True)
def _isolated_data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test gets its own data directory: no test sees another's games or the user's."""
    monkeypatch.setenv("TABLE99_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.delenv("TABLE99_CONFIG", raising=False)
