"""Sub-commands of the ``dealer`` CLI, one module per group (see ``dealer.cli.COMMAND_MODULES``)."""
