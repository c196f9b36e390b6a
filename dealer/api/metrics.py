"""Prometheus metrics at ``/metrics``: one series per table of the night (label ``table``)."""

from __future__ import annotations

from fastapi import APIRouter, Response
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, generate_latest

from dealer.api.deps import NightDep

router = APIRouter()


class TableMetrics:
    """One registry per app, so several apps (tests) never collide."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.requests = Counter("dealer_http_requests", "HTTP requests by route and status",
                                ["route", "status"], registry=self.registry)
        per_table = ["table"]
        self.events = Gauge("dealer_event_log_records", "Records in the event log", per_table,
                            registry=self.registry)
        self.viewers = Gauge("dealer_stream_subscribers", "Open event-stream subscribers", per_table,
                             registry=self.registry)
        self.paused = Gauge("dealer_table_paused", "1 while a fault pauses the table", per_table,
                            registry=self.registry)
        self.faults = Gauge("dealer_integrity_faults", "Integrity faults in the current shoe", per_table,
                            registry=self.registry)
        self.cards_out = Gauge("dealer_shoe_cards_out", "Cards out of the current shoe", per_table,
                               registry=self.registry)


@router.get("/metrics", include_in_schema=False)
async def metrics(night: NightDep) -> Response:
    m: TableMetrics = night.default.metrics
    for table_id, table in night.tables.items():
        state = table.host.table.state
        m.events.labels(table_id).set(table.host.table.store.last_seq)
        m.viewers.labels(table_id).set(table.host.table.hub.subscribers)
        m.paused.labels(table_id).set(1 if state.paused else 0)
        m.faults.labels(table_id).set(len(state.faults))
        m.cards_out.labels(table_id).set(0 if state.shoe is None else state.shoe.cards_out)
    return Response(generate_latest(m.registry), media_type=CONTENT_TYPE_LATEST)
