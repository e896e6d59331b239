"""Autosave and Continue: round trip, identical continuation, backup fallback, corrupt files moved aside."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from saves import autosave
from saves.autosave import AutosaveStore, decode_session, encode_session
from saves.demo import demo_session, make_agents, play_to_end, step
from saves.session import GameSession


def _played(seed: int, steps: int) -> GameSession:
    session = demo_session(seed)
    players = make_agents(session)
    for _ in range(steps):
        assert step(session, players)
    return session


def test_empty_store_has_nothing(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    assert not store.exists()
    result = store.load()
    assert result.session is None and result.warnings == [] and not result.ok


def test_round_trip_restores_the_exact_session(tmp_path: Path) -> None:
    session = _played(5, 57)
    session.hints_used, session.undos_used = 2, 1
    session.study = {"study_id": "s1", "condition": "c2"}
    store = AutosaveStore(tmp_path)
    store.save(session)
    result = store.load()
    assert result.source == "current" and result.warnings == []
    loaded = result.session
    assert loaded is not None
    assert loaded.to_dict() == session.to_dict()
    assert loaded.match.state == session.match.state


@pytest.mark.parametrize("seed,cut", [(1, 0), (2, 13), (3, 44), (4, 81)])
def test_restored_session_continues_identically(tmp_path: Path, seed: int, cut: int) -> None:
    original = _played(seed, cut)
    store = AutosaveStore(tmp_path)
    store.save(original)
    restored = store.load().session
    assert restored is not None
    play_to_end(original)
    play_to_end(restored, make_agents(restored))
    assert restored.moves == original.moves
    assert restored.match.totals == original.match.totals
    assert restored.match.to_dict() == original.match.to_dict()


def test_previous_save_becomes_the_backup(tmp_path: Path) -> None:
    session = _played(7, 3)
    store = AutosaveStore(tmp_path)
    store.save(session)
    first = store.current.read_bytes()
    step(session, make_agents(session))
    store.save(session)
    assert store.backup.read_bytes() == first
    assert decode_session(store.current.read_bytes()).ply == 4
    store.current.write_bytes(store.current.read_bytes()[:100])  # damaged after the fact
    result = store.load()
    assert result.source == "backup" and result.session is not None and result.session.ply == 3
    assert any("backup" in w for w in result.warnings)
    assert any("moved to" in w for w in result.warnings)
    (aside,) = result.moved_aside
    assert aside.name.startswith("autosave.json.corrupt-") and len(aside.read_bytes()) == 100


def test_newer_version_is_moved_aside_and_kept(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    env = json.loads(encode_session(_played(1, 2)))
    env["version"] = autosave.AUTOSAVE_VERSION + 1
    content = json.dumps(env).encode()
    store.current.write_bytes(content)
    result = store.load()
    assert result.session is None
    assert "newer" in result.warnings[0]
    assert result.moved_aside[0].name.startswith("autosave.json.newer-")
    assert result.moved_aside[0].read_bytes() == content


def test_edited_file_fails_the_checksum(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    env = json.loads(encode_session(_played(1, 2)))
    env["session"]["hints_used"] = 99
    store.current.write_text(json.dumps(env))
    result = store.load()
    assert result.session is None and "checksum" in result.warnings[0]


def test_unreadable_current_is_moved_aside_on_save_not_overwritten(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    store.current.write_bytes(b"not a save")
    store.save(_played(1, 1))
    aside = list(tmp_path.glob("autosave.json.corrupt-*"))
    assert [p.read_bytes() for p in aside] == [b"not a save"]
    assert not store.backup.exists()
    assert store.load().source == "current"


def test_older_versions_migrate(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pretend this build reads session version 2: a version-1 file goes through MIGRATIONS[1]."""
    import saves.session

    session = _played(3, 5)
    store = AutosaveStore(tmp_path)
    store.save(session)

    def v1_to_v2(d: dict) -> dict:
        return dict(d, meta=dict(d["meta"], migrated_from=1))

    monkeypatch.setattr(saves.session, "SESSION_VERSION", 2)
    monkeypatch.setattr(autosave, "SESSION_VERSION", 2)
    monkeypatch.setattr(autosave, "MIGRATIONS", {1: v1_to_v2})
    result = store.load()
    assert result.source == "current" and result.session is not None
    assert result.session.meta == {"migrated_from": 1}
    assert result.session.moves == session.moves
    monkeypatch.setattr(autosave, "MIGRATIONS", {})
    with pytest.raises(autosave.SaveFormatError, match="no migration from session version 1"):
        decode_session(store.current.read_bytes())


def test_clear_removes_everything(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    session = _played(1, 1)
    store.save(session)
    store.save(session)
    store.clear()
    assert not store.exists()
    assert store.load().session is None


def test_stale_temporary_files_are_ignored_and_removed(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    store.save(_played(1, 1))
    stale = tmp_path / ".autosave.json.999999.tmp"
    stale.write_bytes(b"{half")
    result = store.load()
    assert result.source == "current" and not stale.exists()


def test_damage_between_saves_is_noticed_by_the_same_store(tmp_path: Path) -> None:
    store = AutosaveStore(tmp_path)
    session = _played(2, 4)
    store.save(session)
    good = store.current.read_bytes()
    store.current.write_bytes(good[: len(good) // 2])  # damaged behind the store's back
    step(session, make_agents(session))
    store.save(session)
    (aside,) = tmp_path.glob("autosave.json.corrupt-*")
    assert aside.read_bytes() == good[: len(good) // 2]
    assert store.load().session is not None and store.load().source == "current"


def test_disk_error_leaves_the_previous_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = AutosaveStore(tmp_path)
    session = _played(2, 4)
    store.save(session)
    before = store.current.read_bytes()
    step(session, make_agents(session))

    def full_disk(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(autosave.os, "fsync", full_disk)
    with pytest.raises(OSError, match="No space left"):
        store.save(session)
    monkeypatch.undo()
    assert store.current.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autosave.json"]
