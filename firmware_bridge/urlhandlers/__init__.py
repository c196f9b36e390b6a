"""pyserial URL handlers added by firmware_bridge (see :mod:`firmware_bridge.transport`)."""
