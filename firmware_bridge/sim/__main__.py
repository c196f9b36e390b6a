"""``python -m firmware_bridge.sim --kind shoe``: a simulated device on a pty (``dealer sim device``)."""

from __future__ import annotations

import argparse

from firmware_bridge.sim.device import CORES, make_core
from firmware_bridge.sim.engine import Engine
from firmware_bridge.sim.faults import FaultInjector
from firmware_bridge.sim.nvram import NvMemory
from firmware_bridge.sim.pty_runner import run


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m firmware_bridge.sim", description=__doc__)
    parser.add_argument("--kind", choices=sorted(CORES), required=True)
    parser.add_argument("--decks", type=int, default=None)
    parser.add_argument("--cut", type=int, default=None, help="cut card position from the bottom")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--link", default=None, help="stable symlink to the pty (survives vanish faults)")
    parser.add_argument("--action-time", type=float, default=0.005, help="seconds a motor action takes")
    parser.add_argument("--no-log", action="store_true", help="do not keep the event log (long benchmarks)")
    parser.add_argument("--state", default=None,
                        help="non-volatile memory file: killed and started again, the device carries on")
    parser.add_argument("--baud", type=int, default=None, help="pace output like a UART at this rate")
    parser.add_argument("--no-control", action="store_true", help="ignore stdin")
    parser.add_argument("--exit-on-eof", action="store_true", help="stop when stdin closes")
    args = parser.parse_args(argv)
    options: dict[str, object] = {"seed": args.seed, "action_time": args.action_time}
    if args.decks is not None:
        options["decks"] = args.decks
    if args.cut is not None:
        options["cut_from_bottom"] = args.cut
    core = make_core(args.kind, **options)
    core.log_events = not args.no_log
    engine = Engine(core, FaultInjector(args.seed))
    nv = None
    if args.state:
        nv = NvMemory(args.state)
        nv.power_up(core)
    run(engine, link=args.link, control=not args.no_control, exit_on_eof=args.exit_on_eof,
        baud=args.baud, nv=nv)


if __name__ == "__main__":
    main()
