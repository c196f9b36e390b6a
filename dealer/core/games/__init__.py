"""One module per game. Each module's game class follows :class:`dealer.core.games.base.Game`."""
