"""Request bodies. Pydantic rejects malformed ones with a 422 naming the field."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class OperationIn(_Body):
    kind: str = Field(min_length=1, max_length=64, examples=["blackjack.act"])
    payload: dict[str, Any] = Field(default_factory=dict, examples=[{"action": "hit"}])


class CardIn(_Body):
    card: str = Field(min_length=1, max_length=8, examples=["10H"])


class VoidIn(_Body):
    seq: int = Field(ge=1)
    reason: str = Field(min_length=1, max_length=200)


class CorrectIn(_Body):
    seq: int = Field(ge=1, description="the record of the mis-read card")
    card: str = Field(min_length=1, max_length=8, description="what the card really is")


class ActionIn(_Body):
    option: str = Field(min_length=1, max_length=32, examples=["hit"])
    target: str | None = Field(None, min_length=1, max_length=64, description="what the button acts on "
                               "where the game needs it: a slot machine", examples=["m1"])
    amount: int | None = Field(None, ge=1, le=1_000_000, description="coins for a slot spin", examples=[3])


class ResumeIn(_Body):
    source: str = Field(min_length=1, max_length=32, examples=["shoe"])


class AutoplayIn(_Body):
    on: bool


class TokenIn(_Body):
    role: Literal["viewer", "dealer", "admin"]
    label: str = Field("", max_length=100)


class DeviceCommandIn(_Body):
    args: dict[str, Any] = Field(default_factory=dict)


class GameChangeIn(_Body):
    game: str = Field(min_length=1, max_length=64, examples=["baccarat"])
    rules: str = Field("", max_length=200, description="house rules of the new game (see docs/games/)")
    end_shoe: bool = Field(False, description="close the current shoe early (between rounds)")


class PlayerIn(_Body):
    name: str = Field(min_length=1, max_length=40, examples=["Ann"])


class ChipsIn(_Body):
    amount: int = Field(ge=1, le=10_000_000, examples=[500])


class SeatIn(_Body):
    player_id: str = Field(min_length=1, max_length=16, examples=["p1"])
    seat: int = Field(ge=1, le=14)
    chips: int = Field(ge=1, le=10_000_000, examples=[300])


class MoveIn(_Body):
    table: str = Field(min_length=1, max_length=32, examples=["baccarat"])
    seat: int = Field(ge=1, le=14)
    chips: int | None = Field(None, ge=1, le=10_000_000, description="default: every chip the player has")
