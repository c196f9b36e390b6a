from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from dealer.table.intake import CardIntake, Verdict

codes = st.sampled_from(["AS", "10H", "QD", "7C", "9S", "6S"])


def test_agreeing_witnesses_accept_once() -> None:
    intake = CardIntake()
    assert intake.shoe_card("AS").verdict is Verdict.WAIT
    decision = intake.camera_card("AS")
    assert (decision.verdict, decision.card) == (Verdict.ACCEPT, "AS")
    assert intake.waiting == 0


def test_a_card_that_only_left_the_shoe_is_named_by_the_camera() -> None:
    intake = CardIntake()
    assert intake.shoe_card(None).verdict is Verdict.WAIT
    assert intake.camera_card("QD").card == "QD"


def test_disagreement_is_a_dispute_for_the_dealer() -> None:
    intake = CardIntake()
    intake.camera_card("6S")
    decision = intake.shoe_card("9S")
    assert decision.verdict is Verdict.DISPUTE and decision.card is None
    assert "9S" in decision.detail and "6S" in decision.detail and decision.issue == 1


def test_single_witness_tables() -> None:
    shoe_only = CardIntake(has_camera=False)
    assert shoe_only.shoe_card("AS").card == "AS"
    assert shoe_only.shoe_card(None).verdict is Verdict.DISPUTE  # unread card, nothing else saw it
    camera_only = CardIntake(has_shoe=False)
    assert camera_only.camera_card("10H").card == "10H"


def test_camera_timeout_falls_back_to_the_shoe_reading() -> None:
    intake = CardIntake()
    intake.shoe_card("KD")
    decision = intake.camera_missed()
    assert decision is not None and decision.card == "KD"
    assert intake.camera_missed() is None


@given(st.lists(codes, min_size=1, max_size=40), st.data())
def test_every_card_is_accepted_exactly_once_in_order_when_witnesses_agree(
    cards: list[str], data: st.DataObject
) -> None:
    intake = CardIntake()
    accepted: list[str] = []
    shoe_i = cam_i = 0
    while shoe_i < len(cards) or cam_i < len(cards):
        from_shoe = cam_i >= len(cards) or (shoe_i < len(cards) and data.draw(st.booleans()))
        decision = intake.shoe_card(cards[shoe_i]) if from_shoe else intake.camera_card(cards[cam_i])
        shoe_i, cam_i = (shoe_i + 1, cam_i) if from_shoe else (shoe_i, cam_i + 1)
        assert decision.verdict is not Verdict.DISPUTE
        if decision.verdict is Verdict.ACCEPT:
            accepted.append(decision.card or "")
    assert accepted == cards and intake.waiting == 0
