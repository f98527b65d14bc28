"""What every service needs to run: settings from the environment, NATS, signals, health."""
