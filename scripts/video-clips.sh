#!/bin/sh
# Makes the simulated terminals' camera clips (internal/termclient/clips): ffmpeg's moving test pattern with a
# running clock, 2 s at 15 frames a second with a keyframe every second, in VP8 (IVF) and H.264 (Annex-B,
# constrained baseline, one slice per picture), at 640x360, 352x288 (CIF) and 176x144 (QCIF). The clips are
# committed; run this (needs Debian's ffmpeg) only to change them.
set -eu
out=$(dirname "$0")/../internal/termclient/clips
mkdir -p "$out"
for size in 360p:640x360:300k CIF:352x288:160k QCIF:176x144:60k; do
	name=${size%%:*}; rest=${size#*:}; dim=${rest%%:*}; rate=${rest#*:}
	src="testsrc2=size=$dim:rate=15:duration=2"
	ffmpeg -loglevel error -y -f lavfi -i "$src" -c:v libvpx -b:v "$rate" -g 15 -keyint_min 15 -deadline realtime \
		-cpu-used 8 -auto-alt-ref 0 -lag-in-frames 0 -f ivf "$out/vp8-$name.ivf"
	ffmpeg -loglevel error -y -f lavfi -i "$src" -c:v libx264 -profile:v baseline -pix_fmt yuv420p -b:v "$rate" \
		-g 15 -keyint_min 15 -sc_threshold 0 -bf 0 -threads 1 -x264-params slices=1:aud=0 -bsf:v h264_mp4toannexb \
		-f h264 "$out/h264-$name.h264"
done
ls -l "$out"
