"""Camera frames to card and tile observations. Imports only engine's card types."""
