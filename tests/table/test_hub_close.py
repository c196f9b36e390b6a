"""A viewer leaving while the table publishes from another thread (the WebSocket hub)."""

from __future__ import annotations

import asyncio
import threading

from dealer.table.hub import EventHub


def test_a_message_in_flight_to_a_viewer_that_left_is_dropped() -> None:
    hub = EventHub()
    loop = asyncio.new_event_loop()
    try:
        async def join() -> object:
            return hub.subscribe()

        sub = loop.run_until_complete(join())
        # the table's thread publishes while the viewer's loop is busy: the delivery waits in the loop
        publisher = threading.Thread(target=hub.publish, args=("card", {"code": "AS"}))
        publisher.start()
        publisher.join(10)
        hub.unsubscribe(sub)  # the viewer disconnects before its loop runs the delivery
        loop.run_until_complete(asyncio.sleep(0))  # now the loop runs the queued delivery
        assert sub.queue.empty() and hub.subscribers == 0  # type: ignore[attr-defined]
    finally:
        loop.close()


def test_a_viewer_whose_loop_closed_is_removed_without_troubling_the_publisher() -> None:
    hub = EventHub()
    loop = asyncio.new_event_loop()

    async def join() -> object:
        return hub.subscribe()

    loop.run_until_complete(join())
    loop.close()  # the viewer's server loop is gone without unsubscribing
    errors: list[BaseException] = []

    def publish() -> None:
        try:
            hub.publish("card", {"code": "KD"})
        except BaseException as exc:  # noqa: BLE001 - the test looks at what escaped
            errors.append(exc)

    publisher = threading.Thread(target=publish)
    publisher.start()
    publisher.join(10)
    assert errors == [] and hub.subscribers == 0
