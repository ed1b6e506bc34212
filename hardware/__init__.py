"""Camera sources, GPIO and Raspberry Pi setup. Imports nothing else of the project."""
