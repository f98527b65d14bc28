"""The Mau-Mau rules engine (pure: no I/O, no clock, no randomness of its own) and its gRPC service."""
