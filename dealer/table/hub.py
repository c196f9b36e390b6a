"""Fan-out of live table events to any number of subscribers (WebSocket viewers, tests).

Publishers may be any thread (the table runtime, device callbacks); each subscriber is an asyncio
queue owned by its event loop, fed with ``call_soon_threadsafe``. A slow subscriber never blocks the
table: when its queue is full the oldest message is dropped and the subscriber is told how many it
missed, so it can re-read ``/state``.

A viewer may go away at any moment relative to a publisher in another thread: a message that reaches
a subscription after it was unsubscribed is dropped, and a subscriber whose event loop has closed is
removed by the next publish instead of raising into the table.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

Message = dict[str, Any]


@dataclass(eq=False)
class Subscription:
    queue: asyncio.Queue[str]
    loop: asyncio.AbstractEventLoop
    dropped: int = 0
    closed: bool = field(default=False)

    def offer(self, text: str) -> None:
        if self.closed:  # unsubscribed after the publisher took its snapshot: nobody will read this
            return
        if self.queue.full():
            self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(text)

    async def get(self) -> str:
        return await self.queue.get()


class EventHub:
    """Thread-safe publish; async subscribe."""

    def __init__(self, queue_size: int = 1000) -> None:
        self._subs: set[Subscription] = set()
        self._lock = threading.Lock()
        self._queue_size = queue_size
        self._ids = itertools.count(1)

    def subscribe(self) -> Subscription:
        sub = Subscription(asyncio.Queue(self._queue_size), asyncio.get_running_loop())
        with self._lock:
            self._subs.add(sub)
        return sub

    def unsubscribe(self, sub: Subscription) -> None:
        sub.closed = True
        with self._lock:
            self._subs.discard(sub)

    @property
    def subscribers(self) -> int:
        with self._lock:
            return len(self._subs)

    def publish(self, kind: str, data: Message) -> None:
        """Send ``{"id", "type", "time", "data"}`` to every subscriber, from any thread."""
        text = json.dumps({"id": next(self._ids), "type": kind, "time": time.time(), "data": data},
                          default=str)
        with self._lock:
            subs = list(self._subs)
        for sub in subs:
            try:
                sub.loop.call_soon_threadsafe(sub.offer, text)
            except RuntimeError:  # its loop has closed
                self.unsubscribe(sub)
