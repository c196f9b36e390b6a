from __future__ import annotations

from vision import Recognizer, ShoeTracker, Sighting, SimulatedCamera, TableTracker

BOX = ((0, 0), (60, 0), (60, 84), (0, 84))


def _at(code: str, dx: float = 0.0) -> Sighting:
    return Sighting(code, 0.9, tuple((x + dx, y) for x, y in BOX))


def test_each_shoe_pass_is_exactly_one_event_end_to_end(shoe_recognizer: Recognizer) -> None:
    cam = SimulatedCamera(size=(640, 480), background="dark", seed=6)
    tracker = ShoeTracker(confirm=2, clear=2)
    events = []
    for code in ("7D", "7D", "KS"):  # the same card twice is two passes
        for frame in cam.shoe_pass(code, steps=7, empty=2):
            events += tracker.update(shoe_recognizer.recognize(frame))
    assert [(e.kind, e.card) for e in events] == [("new", "7D"), ("new", "7D"), ("new", "KS")]


def test_shoe_reading_that_changes_mid_pass_is_a_correction() -> None:
    t = ShoeTracker(confirm=2, clear=2)
    seq = [[_at("6S")], [_at("6S")], [_at("9S")], [_at("9S")], [_at("9S")], [], []]
    events = [e for f in seq for e in t.update(f)]
    assert [(e.kind, e.card, e.previous) for e in events] == [("new", "6S", None), ("correction", "9S", "6S")]


def test_table_cards_debounce_once_and_corrections_replace() -> None:
    t = TableTracker(confirm=3, forget=2)
    frames = [
        [_at("AS"), _at("4H", 200)],
        [_at("AS"), _at("4H", 200)],
        [_at("AS"), _at("AH", 200)],  # one bad frame: no event
        [_at("AS"), _at("4H", 200)],
        [_at("AS"), _at("4H", 200)],
        [_at("AS"), _at("4H", 200)],
        [_at("AS"), _at("AH", 200)],
        [_at("AS"), _at("AH", 200)],
        [_at("AS"), _at("AH", 200)],
        [_at("AS")],
        [_at("AS")],
    ]
    events = [(e.kind, e.card, e.previous) for f in frames for e in t.update(f)]
    assert events == [
        ("new", "AS", None),
        ("new", "4H", None),
        ("correction", "AH", "4H"),
        ("gone", "AH", None),
    ]
