"""The exception hierarchy of the rules core.

Every error inherits :class:`DealerError` and the builtin it behaves like, so callers may catch
either ``DealerError`` (anything from the rules core) or the builtin (``ValueError`` for bad input).
The API translates these to HTTP status codes in one place.
"""


class DealerError(Exception):
    """Base of every error raised by the rules core."""


class CardCodeError(DealerError, ValueError):
    """A card code could not be parsed."""


class ShoeEmpty(DealerError, LookupError):
    """A card was asked of a shoe that has none left."""


class ShoeStateError(DealerError, RuntimeError):
    """The shoe cannot do that now (not shuffled, wrong mode, ...)."""


class IllegalOperation(DealerError, ValueError):
    """An operation broke a rule of the game or table; the message names the rule."""


class MoneyError(DealerError, ValueError):
    """A chip amount or payout ratio is invalid (negative, fractional, zero denominator...)."""


class UnknownOperation(DealerError, KeyError):
    """An operation kind read from the log or an API request is not registered."""
