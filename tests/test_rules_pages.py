"""Rule pages: one per game and language, parseable, with the same structure in every translation."""

from __future__ import annotations

import pytest

from app import rules_pages
from app.rules_pages import GAMES, LANGUAGES, Block, Span, load_rules, parse_markdown, section_outline
from engine import registry


def test_every_registered_game_has_a_page() -> None:
    assert GAMES == tuple(registry.names())
    missing = [e.name for e in registry.entries() if not rules_pages.rules_path(e.rules_page, "en").is_file()]
    assert missing == []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("lang", LANGUAGES)
def test_page_exists_and_parses(game: str, lang: str) -> None:
    path = rules_pages.rules_path(registry.entry(game).rules_page, lang)
    assert path.is_file(), f"missing {path}"
    text = load_rules(game, lang)
    # one line per bullet (no indented continuations), so line-based renderers show every bullet whole
    assert not [line for line in text.splitlines() if line.startswith((" ", "\t"))]
    blocks = parse_markdown(text)
    assert blocks[0].kind == "heading" and blocks[0].level == 1
    assert sum(b.kind == "heading" and b.level == 1 for b in blocks) == 1
    assert sum(b.kind == "heading" and b.level == 2 for b in blocks) >= 6
    assert sum(b.kind == "bullet" for b in blocks) >= 5
    # no markup left over in the text: every ** pair was understood, no stray heading marks
    for b in blocks:
        assert "**" not in b.text, (game, lang, b.text)
        assert not b.text.startswith("#")


@pytest.mark.parametrize("game", GAMES)
def test_translations_have_the_english_structure(game: str) -> None:
    english = section_outline(parse_markdown(load_rules(game, "en")))
    for lang in LANGUAGES:
        page = parse_markdown(load_rules(game, lang))
        assert section_outline(page) == english, f"{lang}/{game}.md differs in sections or bullet counts"
        if lang != "en":
            assert load_rules(game, lang) != load_rules(game, "en")


def test_fallback_to_english_and_clear_errors(tmp_path, monkeypatch) -> None:
    en = tmp_path / "en"
    en.mkdir()
    (en / "sueca.md").write_text("# Sueca\n\nText.\n", encoding="utf-8")
    monkeypatch.setattr(rules_pages, "RULES_DIR", tmp_path)
    assert load_rules("sueca", "sk") == "# Sueca\n\nText.\n"
    assert rules_pages.rules_title("sueca", "pt") == "Sueca"
    with pytest.raises(KeyError, match="no rules page for game 'chess'"):
        load_rules("chess", "en")
    with pytest.raises(ValueError, match="bad language name"):
        load_rules("sueca", "../en")


def test_parser_handles_the_subset() -> None:
    text = (
        "# Title\n\nFirst line\nsecond line with **bold** words.\n\n## Section\n\n"
        "- one **A 7 K**\n  continued\n- two\n\nAfter the list, an unmatched ** stays.\n"
    )
    blocks = parse_markdown(text)
    assert [b.kind for b in blocks] == ["heading", "paragraph", "heading", "bullet", "bullet", "paragraph"]
    assert blocks[0] == Block("heading", (Span("Title"),), 1)
    assert blocks[1].text == "First line second line with bold words."
    assert Span("bold", True) in blocks[1].spans
    assert blocks[2].level == 2
    assert blocks[3].spans == (Span("one "), Span("A 7 K", True), Span(" continued"))
    assert blocks[5].text == "After the list, an unmatched ** stays."
    assert section_outline(blocks) == [(1, 0), (2, 2)]


def test_gui_html_escapes_and_marks_up() -> None:
    blocks = parse_markdown("# A & B\n\n- x < y **bold**\n\nplain")
    out = rules_pages.to_gui_html(blocks)
    assert "A &amp; B" in out and "x &lt; y" in out and "<b>bold</b>" in out
    assert out.count("<br>") == 3


# Where each engine option is explained on the English page (a new engine option fails this test until the
# rule pages describe it).
OPTION_TERMS: dict[str, dict[str, str]] = {
    "sueca": {"target": "Match target", "trump_card": "Trump card", "direction": "Direction", "redeal": "Redeal"},
    "bisca": {"players": "Four players", "hand_size": "Hand size", "match": "Match",
              "trump_exchange": "Trump exchange"},
    "briscola": {"players": "Four players", "hand_size": "Hand size", "match": "Match",
                 "trump_exchange": "Trump exchange"},
    "hearts": {"passing": "Passing", "target": "Target", "moon": "Shooting the moon",
               "queen_breaks_hearts": "Queen breaks hearts", "jack_diamonds": "Jack of diamonds"},
    "mosssidewhist": {"hands": "Hands"},
    "scopone": {"target": "Target", "scopone_a_10": "Scopone a 10", "napola": "Napola", "ace_sweep": "Sbarazzino",
                "re_bello": "Re bello", "scopa_a_15": "Scopa a 15", "scopa_a_perdere": "Scopa a perdere",
                "capture_choice": "Capture choice", "first_dealer": "First dealer"},
    "scopa": {"target": "Target", "napola": "Napola", "ace_sweep": "Sbarazzino", "re_bello": "Re bello",
              "scopa_a_15": "Scopa a 15", "scopa_a_perdere": "Scopa a perdere", "capture_choice": "Capture choice",
              "first_dealer": "First dealer"},
    "pharaoh": {"rules": "Seed rules", "players": "Players", "deck": "small 15-card pack", "hand_size": "Hand size",
                "seven_draw": "VII draws 2", "scoring": "Scoring", "target": "Target", "penalty_limit": "penalty limit",
                "open": "open hands"},
}


@pytest.mark.parametrize("game", GAMES)
def test_every_engine_option_is_described(game: str) -> None:
    options = {o.name for o in registry.create(game).options}
    assert options == set(OPTION_TERMS[game]), "update the rule pages and OPTION_TERMS for the new/removed options"
    blocks = parse_markdown(load_rules(game, "en"))
    variants_at = max(i for i, b in enumerate(blocks) if b.kind == "heading" and b.text == "Variants")
    variants_text = " ".join(b.text for b in blocks[variants_at + 1:])
    for option, term in OPTION_TERMS[game].items():
        assert term in variants_text, f"{game}: option {option!r} is not described ({term!r})"
