"""Pure rules: cards, packs, shoe, money, operations and games.

Nothing here does I/O or imports anything else of this project; stdlib and numpy only.
"""
