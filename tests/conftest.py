"""Test-wide settings."""

# Runs with the system's Python (PyGObject, GStreamer), started by test_hardware_rtsp.py; not a module to import here.
collect_ignore = ["data/rtsp_server.py"]
