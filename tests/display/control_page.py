"""Driving the dealer's control page from a test."""

from __future__ import annotations

from typing import Any

# Taking over waits for the step of simulated play in progress, which may wait up to the table's
# CARD_WAIT (5 s) for a dealt card to come back through the simulated camera: on a loaded machine
# that takes longer than a tap usually does.
TAKE_OVER_S = 30


def take_over(page: Any) -> None:
    """Tap "Take over" and wait until the page says the dealer is in control; a refusal or a
    request still pending at the deadline fails with what the page showed."""
    page.click("#autoplay-off")
    try:
        page.wait_for_function(
            "document.getElementById('autoplay-state').textContent === 'dealer in control'"
            " || document.getElementById('error').textContent !== ''", timeout=TAKE_OVER_S * 1000)
    except Exception as exc:
        busy, shown = page.get_attribute("body", "data-busy"), page.inner_text("#autoplay-state")
        raise AssertionError(f"no take-over after {TAKE_OVER_S} s: busy={busy}, state={shown!r}") from exc
    assert page.inner_text("#error") == "", page.inner_text("#error")
    assert page.inner_text("#autoplay-state") == "dealer in control"
