"""Every registered game survives autosave/continue and is recorded and replayed exactly."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import registry
from saves.autosave import AutosaveStore
from saves.demo import demo_session, make_agents, play_to_end, step
from saves.records import RecordsDB, replay


@pytest.mark.parametrize("game", registry.available())
def test_save_continue_record_replay(tmp_path: Path, game: str) -> None:
    original = demo_session(17, game=game)
    players = make_agents(original)
    for _ in range(23):
        assert step(original, players)
    store = AutosaveStore(tmp_path)
    store.save(original)
    restored = store.load().session
    assert restored is not None and restored.to_dict() == original.to_dict()
    play_to_end(original, players)
    play_to_end(restored, make_agents(restored))
    assert restored.moves == original.moves and restored.match.totals == original.match.totals
    with RecordsDB(tmp_path / "r.sqlite3") as db:
        rid = db.record_game(restored)
        record = db.load_record(rid)
        assert record.replay_error is None
        steps = list(replay(record))
        assert steps[-1].state == original.match.state
        assert [s.result.to_dict() for s in steps if s.result is not None] == record.hands
        assert db.statistics()[game].games == 1
