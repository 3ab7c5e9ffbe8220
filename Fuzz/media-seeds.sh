#!/usr/bin/env bash
# Fuzz/media-seeds.sh DIR — writes the media fuzz target's seed inputs into DIR with Debian's
# ffmpeg: one small clip per container/codec feed meets (64x64 or smaller, 1 s, 10 fps, a few
# KB each), plus playlist / concat texts that must be refused. Nothing here is committed: the
# clips are made at run time, once (run.sh skips this when DIR/.made exists).
set -euo pipefail
dir=$1
mkdir -p "$dir"
video=(-f lavfi -i "testsrc2=size=64x64:rate=10:duration=1")
audio=(-f lavfi -i "sine=frequency=440:sample_rate=16000:duration=1")
make() {  # make NAME ffmpeg-arguments…
  local name=$1; shift
  ffmpeg -v error -y -nostdin "$@" -map_metadata -1 -fflags +bitexact "$dir/seed-$name" \
    || echo "media-seeds: could not make $name (skipped)" >&2
}
x264=(-c:v libx264 -preset ultrafast -crf 45 -g 5 -pix_fmt yuv420p)
aac=(-c:a aac -b:a 16k -ac 1)
make h264-aac.mp4  "${video[@]}" "${audio[@]}" "${x264[@]}" "${aac[@]}" -shortest
make bframes.mp4   "${video[@]}" -c:v libx264 -preset veryfast -crf 45 -bf 2 -g 10 -pix_fmt yuv420p
make plain.mov     "${video[@]}" "${audio[@]}" "${x264[@]}" "${aac[@]}" -shortest
# ffmpeg 5.1 turns a rotate tag into a display matrix only when copying streams.
make rotate90.mov  -i "$dir/seed-plain.mov" -c copy -metadata:s:v:0 rotate=90
make rotate270.mp4 -i "$dir/seed-bframes.mp4" -c copy -metadata:s:v:0 rotate=270
rm -f "$dir/seed-plain.mov"
make h264.mkv      "${video[@]}" "${audio[@]}" "${x264[@]}" -c:a libvorbis -ac 1 -shortest
make vp9.webm      "${video[@]}" "${audio[@]}" -c:v libvpx-vp9 -deadline realtime -cpu-used 8 -b:v 20k -c:a libopus -ac 1 -ar 48000 -shortest
make vp8.webm      -f lavfi -i "testsrc2=size=48x32:rate=10:duration=1" -c:v libvpx -deadline realtime -cpu-used 8 -b:v 20k
make mjpeg.avi     "${video[@]}" "${audio[@]}" -c:v mjpeg -q:v 31 -pix_fmt yuvj420p -c:a pcm_mulaw -ar 8000 -shortest
make h264.ts       "${video[@]}" "${audio[@]}" "${x264[@]}" -c:a mp2 -b:a 32k -muxrate 0 -shortest
make hevc.mp4      "${video[@]}" -c:v libx265 -preset ultrafast -x265-params log-level=none:keyint=5:crf=45 -tag:v hvc1 -pix_fmt yuv420p
make aac.m4a       "${audio[@]}" "${aac[@]}"
make mpeg2.mpg     -f lavfi -i "testsrc2=size=32x32:rate=10:duration=0.5" -c:v mpeg2video -q:v 10
make tiny-1x1.mp4  -f lavfi -i "color=red:size=2x2:rate=5:duration=0.4" -vf scale=1:1 -c:v mpeg4 -q:v 10
make vfr.mkv       "${video[@]}" -vf "setpts='N/10/TB+if(gt(N,4),0.05*N/TB,0)'" -fps_mode passthrough "${x264[@]}"
make gray.flv      -f lavfi -i "testsrc2=size=32x24:rate=10:duration=0.5" -c:v flv1 -q:v 10
make odd-yuv444.mkv -f lavfi -i "testsrc2=size=33x17:rate=10:duration=0.5" -c:v libx264 -preset ultrafast -pix_fmt yuv444p
# Texts FFmpeg would follow to other files: must be refused, never opened.
printf '#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:1\n#EXT-X-MEDIA-SEQUENCE:0\n#EXTINF:1.0,\nseed-h264.ts\n#EXT-X-ENDLIST\n' > "$dir/seed-playlist.m3u8"
printf 'ffconcat version 1.0\nfile seed-h264-aac.mp4\nfile /etc/passwd\n' > "$dir/seed-concat.ffconcat"
touch "$dir/.made"
