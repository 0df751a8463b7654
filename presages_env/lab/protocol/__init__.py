"""What the server and a seat's browser say to each other (JSON over a WebSocket)."""
