"""dealer-assistant: runs a real card table (rules core, event log, table runtime, API)."""

__version__ = "0.1.0"
