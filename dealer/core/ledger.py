"""Chip accounts and transfers between them. Chips are never created or destroyed here.

Chips enter a table only from the ``cage`` account (buy-ins) and leave only back to it, so the sum
over all accounts is always zero: that is the conservation invariant the tests check.

>>> ledger = Ledger()
>>> ledger.transfer("cage", "seat-1", 100, "buy-in")
>>> ledger.transfer("seat-1", "house", 10, "lost bet")
>>> ledger.balance("seat-1"), ledger.balance("house"), ledger.total()
(90, 10, 0)
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from dealer.core.errors import MoneyError
from dealer.core.money import Chips, check_chips

CAGE = "cage"
HOUSE = "house"


@dataclass(frozen=True, slots=True)
class Transfer:
    source: str
    target: str
    amount: Chips
    reason: str


@dataclass
class Ledger:
    """Balances by account name plus the full list of transfers."""

    allow_negative: frozenset[str] = frozenset({CAGE, HOUSE})
    transfers: list[Transfer] = field(default_factory=list)
    _balances: defaultdict[str, int] = field(default_factory=lambda: defaultdict(int))

    def balance(self, account: str) -> Chips:
        return self._balances.get(account, 0)

    def balances(self) -> dict[str, Chips]:
        return {name: amount for name, amount in sorted(self._balances.items())}

    def total(self) -> Chips:
        return sum(self._balances.values())

    def verify_transfer(self, source: str, target: str, amount: Chips) -> None:
        check_chips(amount, "transfer amount")
        if not source or not target or source == target:
            raise MoneyError(f"a transfer needs two different accounts, got {source!r} -> {target!r}")
        if source not in self.allow_negative and self.balance(source) < amount:
            raise MoneyError(
                f"{source} has {self.balance(source)} chips and cannot pay {amount}")

    def can_transfer(self, source: str, target: str, amount: Chips) -> bool:
        try:
            self.verify_transfer(source, target, amount)
        except MoneyError:
            return False
        return True

    def transfer(self, source: str, target: str, amount: Chips, reason: str) -> None:
        self.verify_transfer(source, target, amount)
        if amount == 0:
            return
        self._balances[source] -= amount
        self._balances[target] += amount
        self.transfers.append(Transfer(source, target, amount, reason))
