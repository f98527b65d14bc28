"""The gateway: HTTP API, WebSocket multiplexing with per-viewer redaction, the web client's files."""
