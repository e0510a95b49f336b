"""The board picture: what ``render.svg.board_svg`` draws, checked in the SVG's structure
(``xml.etree``), not in pixels."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from positions.bundled import bundled_files
from positions.errors import ManhattanError
from positions.layout import layout
from positions.loading import load_position
from positions.notation import parse_position
from positions.record import load_record
from render.svg import BOARD_CSS, SITE, Highlight, board_svg, highlighted_site

SVG_NS = "{http://www.w3.org/2000/svg}"

# A finished 4-player game.  City 1: a2b3 (b, 5) on site 1, c1 on site 4, c2 on site 5:
# c owns two buildings, b one, so c holds the majority.  City 2: d4d3 (d, 7) on site 1,
# the single tallest building.  City 3: a1, b1: a tie, no majority.
FINISHED = (
    "a2b3,2,c1,c2,4/d4d3,8/a1,b1,7/9/9/9 4 4 - - 30,25,20,15 "
    "0.0.0.0,0.0.0.0,0.0.0.0,0.0.0.0 -,-,-,- 1559,2???,????,???? 3478"
)
MIDDLE = "positions/data/examples/middle_4p_round2.txt"  # P2 (seat W) to move, hand 1139


def parse(svg: str) -> ET.Element:
    """The SVG as a tree with the namespace taken off the tags."""
    root = ET.fromstring(svg)
    for element in root.iter():
        element.tag = element.tag.removeprefix(SVG_NS)
    return root


def groups(root: ET.Element, css_class: str) -> list[ET.Element]:
    return [g for g in root.iter("g") if css_class in g.get("class", "").split()]


def city_group(root: ET.Element, city: int) -> ET.Element:
    (found,) = [g for g in groups(root, "city") if g.get("data-city") == str(city)]
    return found


def cell_drawn(root: ET.Element, city: int, element: ET.Element) -> int:
    """Where ``element`` (a building or highlight group) sits in the city as drawn: 1..9 in
    reading order, from its first rectangle's position in the city's grid."""
    grid = next(r for r in city_group(root, city).iter("rect") if r.get("class") == "grid")
    rect = next(element.iter("rect"))
    col = int((float(rect.get("x")) - float(grid.get("x"))) // SITE)
    row = int((float(rect.get("y")) - float(grid.get("y"))) // SITE)
    return row * 3 + col + 1


def buildings(root: ET.Element) -> dict[tuple[int, int], dict[str, str]]:
    return {
        (int(g.get("data-city")), int(g.get("data-site"))): dict(g.attrib)
        for g in groups(root, "building")
    }


def test_a_known_position_draws_its_buildings_owners_and_stacks():
    root = parse(board_svg(parse_position(FINISHED)))
    drawn = buildings(root)
    assert set(drawn) == {(1, 1), (1, 4), (1, 5), (2, 1), (3, 1), (3, 2)}
    assert drawn[1, 1]["data-owner"] == "b" and drawn[1, 1]["data-height"] == "5"
    assert drawn[1, 1]["data-stack"] == "a2b3"
    assert drawn[2, 1]["data-owner"] == "d" and drawn[2, 1]["data-height"] == "7"
    assert [drawn[3, s]["data-owner"] for s in (1, 2)] == ["a", "b"]
    # each building writes its height and its colour letter, not only a colour
    texts = ["".join(t.itertext()) for t in groups(root, "building")[0].iter("text")]
    assert texts == ["5b"]


def test_tallest_and_majority_are_marked():
    root = parse(board_svg(parse_position(FINISHED)))
    tallest = groups(root, "tallest")
    assert [(g.get("data-city"), g.get("data-site")) for g in tallest] == [("2", "1")]
    assert "tie" not in tallest[0].get("class")
    assert tallest[0].find("polygon") is not None  # the star
    assert [city_group(root, c).get("data-majority") for c in range(1, 7)] == [
        "c",
        "d",
        "",
        "",
        "",
        "",
    ]


def test_a_tie_for_tallest_is_marked_as_scoring_nobody():
    tied = FINISHED.replace("a1,b1,7/9", "a1,b1,7/a4a3,8")
    root = parse(board_svg(parse_position(tied)))
    tallest = {
        (g.get("data-city"), g.get("data-site")): g.get("class") for g in groups(root, "tallest")
    }
    assert tallest == {("2", "1"): "building tallest tie", ("4", "1"): "building tallest tie"}


@pytest.mark.parametrize(("seat", "cell"), [("S", 1), ("W", 7), ("N", 9), ("E", 3)])
def test_each_seat_sees_the_cities_turned_its_way(seat, cell):
    """Site 1 (far left from S) is near left from W, near right from N, far right from E."""
    root = parse(board_svg(parse_position(FINISHED), seat))
    assert root.get("data-seat") == seat
    building = next(g for g in groups(root, "building") if g.get("data-stack") == "a2b3")
    assert cell_drawn(root, 1, building) == cell
    (compass,) = groups(root, "compass")
    assert compass.get("data-bottom") == seat


@pytest.mark.parametrize(("seat", "site"), [("S", 1), ("W", 3), ("N", 9), ("E", 7)])
def test_a_highlighted_move_marks_the_site_its_players_card_builds_on(seat, site):
    """RULES.md: card 1 held by W builds on site 3, by N on site 9, by E on site 7.  Drawn
    from the mover's own seat, card k builds on the k-th cell as drawn."""
    state = parse_position(FINISHED)
    mover = layout(4).player_seats.index(seat) + 1
    move = Highlight("1@2:1", "played", player=mover)
    assert highlighted_site(state, move) == 9 + site - 1
    root = parse(board_svg(state, seat, [move]))
    (mark,) = [g for g in groups(root, "highlight") if g.get("data-move")]
    assert (mark.get("data-city"), mark.get("data-site")) == ("2", str(site))
    assert cell_drawn(root, 2, mark) == 1


def test_another_players_move_is_drawn_where_it_builds_for_the_viewer():
    state = load_position(MIDDLE)  # P2 (W) to move
    from_s = parse(board_svg(state, "S", ["1@1:2"]))
    (mark,) = [g for g in groups(from_s, "highlight") if g.get("data-move")]
    assert mark.get("data-player") == "2" and mark.get("data-site") == "3"
    assert cell_drawn(from_s, 1, mark) == 3  # site 3 is the far right cell from S
    from_n = parse(board_svg(state, "N", ["1@1:2"]))
    (mark,) = [g for g in groups(from_n, "highlight") if g.get("data-move")]
    assert cell_drawn(from_n, 1, mark) == 7  # and the near left one from N


def test_the_move_played_and_the_engines_choice_are_told_apart():
    state = load_position(MIDDLE)
    svg = board_svg(
        state, highlights=[Highlight("3@1:2", "played"), Highlight("9@5:2", "engine", label="+2")]
    )
    root = parse(svg)
    on_board = {
        g.get("class"): (g.get("data-city"), g.get("data-site"))
        for g in groups(root, "highlight")
        if g.get("data-move")
    }
    assert on_board == {"highlight played": ("1", "9"), "highlight engine": ("5", "7")}
    # dashed for the engine's choice, solid for the move played, and a legend for both
    assert ".mb .engine .hl{stroke-dasharray" in BOARD_CSS
    assert ".mb .played" not in BOARD_CSS
    legend = " ".join("".join(t.itertext()) for t in root.iter("text"))
    assert "move played: 3@1:2 by P2" in legend
    assert "engine's choice: 9@5:2 by P2" in legend
    # the viewer holds both cards: each is outlined in the hand the same way
    cards = {g.get("data-card"): g for g in groups(root, "card")}
    assert [g.get("class") for g in groups(cards["3"], "highlight")] == ["highlight played"]
    assert [g.get("class") for g in groups(cards["9"], "highlight")] == ["highlight engine"]
    assert groups(cards["1"], "highlight") == []


def test_the_panel_shows_scores_selected_blocks_hand_and_pile():
    state = load_position(MIDDLE)
    root = parse(board_svg(state))
    assert root.get("data-viewer") == "2"  # default: the player to move
    cards = [(g.get("data-card"), g.get("data-cell")) for g in groups(root, "card")]
    assert cards == [("1", "1"), ("1", "1"), ("3", "3"), ("9", "9")]
    (pile,) = groups(root, "pile")
    assert pile.get("data-cards") == "146888"
    rows = {g.get("data-color"): g for g in groups(root, "player")}
    assert list(rows) == ["a", "b", "c", "d"]
    scores = ["".join(t.itertext()) for g in rows.values() for t in g.iter("text")]
    assert {"7", "10", "8"} <= set(scores)
    selected = [g.get("data-blocks") for g in groups(root, "sel")]
    assert selected == ["223", "222", "222", "222"]
    # others' hands are hidden: drawn from seat N, P3's cards are unknown
    from_n = parse(board_svg(state, 3))
    assert [g.get("data-card") for g in groups(from_n, "card")] == ["?"] * 4


def test_a_finished_game_is_drawn_from_p1_with_places():
    root = parse(board_svg(parse_position(FINISHED)))
    assert root.get("data-viewer") == "1" and root.get("data-seat") == "S"
    assert [g.get("data-card") for g in groups(root, "card")] == ["1", "5", "5", "9"]
    title = "".join(next(root.iter("text")).itertext())
    assert title == "Game over · P1 first"


def test_embedded_boards_leave_out_namespace_and_style():
    svg = board_svg(parse_position(FINISHED), standalone=False)
    assert "xmlns" not in svg and "<style>" not in svg
    assert "http" not in svg
    standalone = board_svg(parse_position(FINISHED))
    assert standalone.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert BOARD_CSS in standalone


def test_two_player_seats_and_colours():
    state = load_record("positions/data/games/heuristic_vs_greedy_2p.mgn").states()[40]
    root = parse(board_svg(state, "N"))
    assert root.get("data-viewer") == "2"
    assert [g.get("data-color") for g in groups(root, "player")] == ["a", "c", "b", "d"]
    with pytest.raises(ManhattanError, match="seats S, N"):
        board_svg(state, "W")


@pytest.mark.parametrize(
    ("seat", "message"),
    [(5, "player 1-4"), ("P0", "player 1-4"), ("X", "expected a player 1-4 or a seat")],
)
def test_a_bad_seat_is_one_clear_error(seat, message):
    with pytest.raises(ManhattanError, match=message):
        board_svg(load_position(MIDDLE), seat)


def test_bad_highlights_are_clear_errors():
    state = load_position(MIDDLE)
    with pytest.raises(ManhattanError, match="bad move 'x@1:2'"):
        board_svg(state, highlights=["x@1:2"])
    with pytest.raises(ManhattanError, match="player 5 is not in a 4-player game"):
        board_svg(state, highlights=[Highlight("1@1:2", player=5)])
    with pytest.raises(ManhattanError, match="highlight kind 'best'"):
        Highlight("1@1:2", "best")
    with pytest.raises(ManhattanError, match="the game is over, name the player"):
        board_svg(parse_position(FINISHED), highlights=["1@1:1"])


@pytest.mark.parametrize("path", bundled_files("examples") + bundled_files("games"), ids=str)
def test_every_bundled_position_draws_from_every_seat(path):
    state = load_position(str(path))  # a record: its final position
    occupied = {(s // 9 + 1, s % 9 + 1) for s in range(54) if state.owner[s] >= 0}
    for player in range(1, state.players + 1):
        root = parse(board_svg(state, player))
        drawn = buildings(root)
        assert set(drawn) == occupied
        for (city, site), attrs in drawn.items():
            s = (city - 1) * 9 + site - 1
            assert attrs["data-height"] == str(state.height[s])
            assert attrs["data-owner"] == "abcd"[state.owner[s]]
