"""Appends events forever, printing each sequence number once the store has acknowledged it."""

from __future__ import annotations

import sys

from dealer.store import EventStore

store = EventStore.open(sys.argv[1])
run = sys.argv[2]
n = 0
while True:
    n += 1
    record = store.append_raw("test.tick", {"run": run, "n": n, "pad": "x" * (n % 200)})
    sys.stdout.write(f"{record.seq} {record.hash}\n")
    sys.stdout.flush()
