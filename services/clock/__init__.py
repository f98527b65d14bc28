"""The clock: durable timers derived from the tables' stream (turn timer, absence, expiry)."""
