#!/usr/bin/python3
"""tenfour's simulated cameras: a real RTSP server (GStreamer's rtsp-server) serving a moving test pattern,
H.264 constrained baseline without B-frames, one mount point per camera. Run by `tenfour serve --demo` and the
camera tests (internal/camera/testcam.go); not a tool for people.

usage: testcams.py --check | PORT MOUNT...
"""
import sys

import gi

gi.require_version("Gst", "1.0")
gi.require_version("GstRtspServer", "1.0")
from gi.repository import GLib, Gst, GstRtspServer  # noqa: E402

NEEDED = ["videotestsrc", "x264enc", "rtph264pay", "videoconvert"]
PATTERNS = [
    "pattern=ball motion=wavy background-color=0xff203040",
    "pattern=smpte horizontal-speed=4",
    "pattern=ball motion=sweep foreground-color=0xffffc000 background-color=0xff402020",
    "pattern=colors horizontal-speed=-3",
]


def main():
    Gst.init(None)
    missing = [e for e in NEEDED if Gst.ElementFactory.find(e) is None]
    if missing:
        print("missing GStreamer elements: " + ", ".join(missing), file=sys.stderr)
        sys.exit(3)
    if sys.argv[1:] == ["--check"]:
        print("ok")
        return
    port, mounts = sys.argv[1], sys.argv[2:]
    overlay = "timeoverlay font-desc=\"Sans 14\" ! " if Gst.ElementFactory.find("timeoverlay") else ""
    server = GstRtspServer.RTSPServer()
    server.set_address("127.0.0.1")
    server.set_service(port)
    points = server.get_mount_points()
    for i, mount in enumerate(mounts):
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch(
            "( videotestsrc is-live=true %s ! video/x-raw,width=640,height=360,framerate=15/1 ! %s"
            "videoconvert ! x264enc tune=zerolatency speed-preset=ultrafast key-int-max=8 bframes=0 bitrate=500 "
            "threads=1 ! video/x-h264,profile=constrained-baseline ! rtph264pay name=pay0 pt=96 config-interval=-1 )"
            % (PATTERNS[i % len(PATTERNS)], overlay))
        # one pipeline per client: a shared media that is still unpreparing (or failed) when the next client asks
        # answers every DESCRIBE with 503 until it is gone, and a stuck one never goes (CI, 2026-11-29)
        factory.set_shared(False)
        points.add_factory("/" + mount, factory)
    if server.attach(None) == 0:
        print("cannot listen on 127.0.0.1:%s" % port, file=sys.stderr)
        sys.exit(4)
    print("ready", flush=True)
    GLib.MainLoop().run()


if __name__ == "__main__":
    main()
