"""Measure the reference firmware under simavr: PING round trips and dealt-card throughput.

``python firmware/sim/bench.py [--pings 500] [--cards 300]`` (after ``make -C firmware sim``). The host
talks to the harness's pty directly (no relay, no faults); each dealt card is a DEAL, its reply, the
CARD_DEALT event and the host's EVENT_ACK. Results go to BENCHMARKS.md by hand.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path

from firmware_bridge.drivers.shoe import Shoe

FIRMWARE = Path(__file__).resolve().parents[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pings", type=int, default=500)
    parser.add_argument("--cards", type=int, default=300)
    args = parser.parse_args()
    harness = subprocess.Popen(
        [str(FIRMWARE / "build" / "fbsim"), "--kind", "shoe", "--elf",
         str(FIRMWARE / "build" / "sim-shoe" / "firmware.elf"), "--decks", "8", "--cut", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
    assert harness.stdout is not None and harness.stdin is not None
    port = json.loads(harness.stdout.readline())["port"]
    shoe = Shoe(port, reply_timeout=0.1, retries=3)
    try:
        rtts = sorted(shoe.ping() * 1000 for _ in range(args.pings))
        started = time.monotonic()
        for _ in range(args.cards):
            shoe.deal()
        elapsed = time.monotonic() - started
    finally:
        shoe.close()
        harness.stdin.close()
        harness.wait(5)
    print(json.dumps({"pings": args.pings, "rtt_ms_p50": round(statistics.median(rtts), 2),
                      "rtt_ms_p95": round(rtts[int(0.95 * len(rtts))], 2), "cards": args.cards,
                      "cards_per_s": round(args.cards / elapsed, 1)}))


if __name__ == "__main__":
    main()
