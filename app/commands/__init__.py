"""One module per ``table99`` subcommand, each with ``add_arguments(parser)`` and ``main(args)``."""
