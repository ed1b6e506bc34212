"""A small RTSP server (GStreamer's gst-rtsp-server) for the RTSP camera test: a moving test
pattern, 320x240 at 15 frames/s, RTP/JPEG, at rtsp://127.0.0.1:PORT/test.

Runs with the system's Python, which has PyGObject and GStreamer (Debian: python3-gi,
gir1.2-gst-rtsp-server-1.0, gstreamer1.0-plugins-base, gstreamer1.0-plugins-good); prints
"ready" once it listens.

    /usr/bin/python3 tests/data/rtsp_server.py PORT
"""

import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

Gst.init(None)
server = GstRtspServer.RTSPServer()
server.set_address("127.0.0.1")
server.set_service(sys.argv[1])
factory = GstRtspServer.RTSPMediaFactory()
# RTP/JPEG carries 4:2:0 JPEG only, hence I420 before the encoder.
factory.set_launch("( videotestsrc is-live=true pattern=ball ! video/x-raw,format=I420,width=320,height=240,framerate=15/1 "
                   "! jpegenc ! rtpjpegpay name=pay0 pt=26 )")
factory.set_shared(True)
server.get_mount_points().add_factory("/test", factory)
if server.attach(None) == 0:
    sys.exit(f"cannot listen on 127.0.0.1:{sys.argv[1]}")
print("ready", flush=True)
GLib.MainLoop().run()
