"""The local HTTP API: a thin FastAPI shell over :mod:`dealer.table`."""

from dealer.api.app import create_app

__all__ = ["create_app"]
