"""Card art: every deck, style and card renders at several sizes, is not blank, and cards are distinguishable."""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402

from app import fonts  # noqa: E402
from app.cardart import MAX_CACHED_WIDTHS, STYLES, CardArt, highlight, size_for_width, symbol_sprite  # noqa: E402
from engine.cards import DECKS  # noqa: E402

WIDTHS = (40, 73, 128)


@pytest.fixture(scope="module", autouse=True)
def _pygame() -> None:
    pygame.init()


def _ink(surface: pygame.Surface) -> int:
    """Number of pixels that are clearly not card paper (dark or saturated), a measure of drawn content."""
    w, h = surface.get_size()
    count = 0
    for y in range(0, h, 2):
        for x in range(0, w, 2):
            r, g, b, a = surface.get_at((x, y))
            if a > 200 and (min(r, g, b) < 170 or max(r, g, b) - min(r, g, b) > 60):
                count += 1
    return count


def _signature(surface: pygame.Surface) -> bytes:
    return pygame.image.tobytes(surface, "RGBA")


@pytest.mark.parametrize("deck_name", sorted(DECKS))
@pytest.mark.parametrize("style", STYLES)
def test_every_face_renders_at_every_width(deck_name: str, style: str) -> None:
    art = CardArt(deck_name, style)
    deck = DECKS[deck_name]
    for width in WIDTHS:
        expected = size_for_width(width)
        assert expected == (width, round(width * 1.4))
        seen: set[bytes] = set()
        for card in range(deck.size):
            face = art.face(card, width)
            assert face.get_size() == expected
            # the centre column and the corners carry ink: not a blank card
            assert _ink(face) > width * width * 1.4 * 0.01 / 4, f"{deck.text(card)} at {width} px looks blank"
            seen.add(_signature(face))
        assert len(seen) == deck.size, "two cards of the deck render identically"
        back = art.back(width)
        assert back.get_size() == expected
        assert _ink(back) > 0.3 * width * width * 1.4 / 4


def test_faces_are_cached_and_transparent_corners() -> None:
    art = CardArt("french52")
    a = art.face(5, 100)
    assert art.face(5, 100) is a
    assert a.get_flags() & pygame.SRCALPHA
    assert a.get_at((0, 0)).a < 60  # rounded corner is see-through
    assert a.get_at((50, 70)).a == 255


@pytest.mark.parametrize("deck_name, changed", [
    ("french52", ("C", "D")), ("portuguese40", ("C", "D")),
    ("italian40", ("D", "C", "S", "B")), ("german32", ("L", "H", "B", "A")), ("pharaoh15", ("L", "H", "B")),
])
def test_four_colour_recolours_suits(deck_name: str, changed: tuple[str, ...]) -> None:
    deck = DECKS[deck_name]
    classic, four = CardArt(deck_name, "classic"), CardArt(deck_name, "four_colour")
    for suit_letter in changed:
        card = deck.parse(deck.ranks[1] + suit_letter)
        assert _signature(classic.face(card, 80)) != _signature(four.face(card, 80)), deck.text(card)


def test_four_colour_french_suits_have_four_distinct_index_colours() -> None:
    art = CardArt("french52", "four_colour")
    deck = art.deck
    colours = set()
    for suit in range(4):
        face = art.face(deck.card(suit, 0), 120)
        # dominant saturated/dark colour in the top-left index area
        counts: dict[tuple[int, int, int], int] = {}
        for y in range(4, 30):
            for x in range(4, 26):
                r, g, b, a = face.get_at((x, y))
                if a == 255 and min(r, g, b) < 150:
                    key = (r // 64, g // 64, b // 64)
                    counts[key] = counts.get(key, 0) + 1
        colours.add(max(counts, key=counts.__getitem__))
    assert len(colours) == 4


def test_face_cache_keeps_a_bounded_number_of_widths() -> None:
    art = CardArt("pharaoh15")
    first = art.face(3, 50)
    assert art.face(3, 50.0) is first  # a float width finds the same cached face
    for width in range(51, 51 + MAX_CACHED_WIDTHS):
        art.face(3, width)
    assert len(art._faces) == MAX_CACHED_WIDTHS
    again = art.face(3, 50)  # 50 was the oldest width and has been dropped: rendered again, identical
    assert again is not first and _signature(again) == _signature(first)


def test_bad_input_is_rejected_clearly() -> None:
    with pytest.raises(ValueError, match="unknown deck"):
        CardArt("tarot78")
    with pytest.raises(ValueError, match="unknown card style"):
        CardArt("french52", "neon")
    art = CardArt("pharaoh15")
    with pytest.raises(ValueError, match="outside the pharaoh15 deck"):
        art.face(15, 80)
    with pytest.raises(ValueError, match="must be a number of pixels"):
        art.face(0, "80")
    with pytest.raises(ValueError, match="at least 1 pixel"):
        art.face(0, 0)
    with pytest.raises(ValueError, match="unknown highlight"):
        highlight(art.face(0, 80), "glow")
    with pytest.raises(ValueError, match="suit index"):
        symbol_sprite("pharaoh15", 3, 20)


def test_highlights_change_the_face_without_changing_the_cache() -> None:
    art = CardArt("italian40")
    face = art.face(0, 90)
    before = _signature(face)
    marked = {kind: art.face_marked(0, 90, kind) for kind in ("legal", "illegal", "selected", "hover")}
    assert _signature(face) == before
    sigs = {_signature(s) for s in marked.values()}
    assert len(sigs) == 4 and before not in sigs
    # dimming darkens the centre
    centre = face.get_at((45, 63))
    dim = marked["illegal"].get_at((45, 63))
    assert sum(dim[:3]) < sum(centre[:3])


def test_symbol_sprites_scale() -> None:
    small = symbol_sprite("german32", 2, 12)
    large = symbol_sprite("german32", 2, 120, "four_colour")
    assert small.get_height() == 12 and large.get_height() == 120
    assert _ink(large) > 20 * _ink(small) > 0


def test_fonts_cover_the_languages_and_suit_symbols() -> None:
    f = fonts.font(18)
    assert fonts.font(18) is f
    assert fonts.font(18, bold=True) is not f
    assert (fonts.FONT_DIR / "LICENSE-DejaVu.txt").is_file()
    # every glyph the rule pages and the table need: Portuguese, Italian, Slovak letters and suit symbols
    import pygame.freetype

    pygame.freetype.init()
    text = "ãçéêõáàíóú èìòù čďľĺňŕšťžýäô ĽŠČŤŽ ♠♡♢♣♤♥♦♧"
    for bold in (False, True):
        face = pygame.freetype.Font(str(fonts.font_path(bold)), 18)
        metrics = face.get_metrics(text)
        missing = [ch for ch, m in zip(text, metrics, strict=True) if ch != " " and m is None]
        assert not missing
        assert face.get_metrics("\u6f22") == [None]  # the check notices a missing glyph (CJK)


def test_index_texts_follow_each_deck_tradition() -> None:
    from app.cardart import ROMAN_MIN_WIDTH, _index_text

    german, french, italian = DECKS["german32"], DECKS["french52"], DECKS["italian40"]
    wide, narrow = ROMAN_MIN_WIDTH, ROMAN_MIN_WIDTH - 1
    assert [_index_text(german, r, wide) for r in range(8)] == ["VII", "VIII", "IX", "X", "U", "O", "K", "A"]
    assert [_index_text(german, r, narrow) for r in range(4)] == ["7", "8", "9", "10"]  # Roman too small to read
    assert _index_text(french, french.ranks.index("T"), 200) == "10"
    assert [_index_text(italian, r, 100) for r in range(10)] == list(italian.ranks)
