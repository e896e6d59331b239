"""The OpenSpiel comparison lives in a separate environment: without OpenSpiel it says so in one line and
runs nothing."""

from __future__ import annotations

import pytest

from engine import registry
from engine.lab import openspiel


@pytest.mark.skipif(openspiel.pyspiel is not None, reason="OpenSpiel is installed here")
def test_without_openspiel_the_comparison_fails_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        openspiel.main(["--game", "bisca", "--openspiel", "bisca", "--iterations", "10"])
    assert stop.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "OpenSpiel is not installed" in err


def test_our_side_of_the_comparison_measures_an_opening() -> None:
    rate = openspiel.ours_rate(registry.create("briscola"), 50, 1, seed=3)
    assert rate > 0
