"""The rummyref application: command line, pipeline wiring and storage."""

__version__ = "0.1.0"
