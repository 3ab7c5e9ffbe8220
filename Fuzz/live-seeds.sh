#!/usr/bin/env bash
# Fuzz/live-seeds.sh flv|rtmp DIR — writes the seed inputs of live-packaging-fuzz (flv) or
# rtmp-fuzz (rtmp) into DIR with Debian's ffmpeg and python3; nothing here is committed, the
# seeds are made at run time, once (run.sh skips this when DIR/.made exists): ~70 KB of flv,
# ~30 KB of rtmp.
#
# flv: small FLV files as ffmpeg's muxer writes them (64x64 or smaller, 1 s at 10 fps, a key
#   frame every 5 frames): H.264 + AAC, H.264 with B-frames, High 4:4:4 with cropping (33x17),
#   AAC only, H.264 + AAC at 96 kHz, and 9 s of 32x32 at 5 fps with sound (nine segments); and
#   three of them again as the harness's records (one options byte, then per tag the type, a
#   48-bit timestamp, a 24-bit length and the body), with times moved to just before 2^32 ms
#   (RTMP's wrap) and to around 2^40 ms (the segmenter's bound).
# rtmp: what ffmpeg sends when it publishes the H.264 + AAC clip to an RTMP server (ffmpeg's
#   own, `-listen 1`), recorded by a relay between them; as plan 1 (the harness's handshake,
#   then ffmpeg's chunks from connect on), plan 0 (ffmpeg's own handshake too), and plan 1 with
#   a reject; plus plan 3 (the harness's connect … publish) followed by Set Chunk Size, an
#   `@setDataFrame` and the clip's first tags as chunks.
set -euo pipefail
kind=$1 dir=$2
mkdir -p "$dir"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
video=(-f lavfi -i "testsrc2=size=64x64:rate=10:duration=1")
audio=(-f lavfi -i "sine=frequency=440:sample_rate=16000:duration=1")
x264=(-c:v libx264 -preset ultrafast -crf 45 -g 5 -bf 0 -pix_fmt yuv420p)
aac=(-c:a aac -b:a 16k -ac 1)
make() {  # make FILE ffmpeg-arguments…
  local file=$1; shift
  ffmpeg -v error -y -nostdin "$@" -map_metadata -1 -fflags +bitexact -f flv "$file" \
    || echo "live-seeds: could not make $(basename "$file") (skipped)" >&2
}
make "$work/h264-aac.flv" "${video[@]}" "${audio[@]}" "${x264[@]}" "${aac[@]}" -shortest

case $kind in
flv)
  cp "$work/h264-aac.flv" "$dir/seed-h264-aac.flv"
  make "$dir/seed-bframes.flv" "${video[@]}" -c:v libx264 -preset veryfast -crf 45 -bf 2 -g 10 -pix_fmt yuv420p
  make "$dir/seed-yuv444-cropped.flv" -f lavfi -i "testsrc2=size=33x17:rate=10:duration=1" -c:v libx264 -preset ultrafast -crf 45 -g 5 -pix_fmt yuv444p
  make "$dir/seed-aac.flv" "${audio[@]}" "${aac[@]}"
  make "$dir/seed-h264-aac96k.flv" -f lavfi -i "testsrc2=size=32x32:rate=10:duration=1" -f lavfi -i "sine=sample_rate=96000:duration=1" \
    "${x264[@]}" "${aac[@]}" -shortest
  # Nine one-second segments: enough for the window (3) to move and segments to be removed.
  make "$dir/seed-9s.flv" -f lavfi -i "testsrc2=size=32x32:rate=5:duration=9" -f lavfi -i "sine=sample_rate=8000:duration=9" \
    "${x264[@]}" "${aac[@]}" -shortest
  python3 - "$dir" <<'EOF'
import os, sys
folder = sys.argv[1]
def tags(path):
    data = open(path, "rb").read()
    at = int.from_bytes(data[5:9], "big") + 4
    while len(data) - at >= 11:
        size = int.from_bytes(data[at + 1:at + 4], "big")
        time = int.from_bytes(data[at + 4:at + 7], "big") | data[at + 7] << 24
        yield data[at] & 0x1F, time, data[at + 11:at + 11 + size]
        at += 11 + size + 4
for name in ["h264-aac", "bframes", "h264-aac96k"]:
    if not os.path.exists(f"{folder}/seed-{name}.flv"): continue  # ffmpeg could not make it
    for label, base, selector in [("wrap", 2**32 - 600, 0), ("bound", 2**40 - 500, 0x21)]:
        out = bytearray([selector])
        for kind, time, body in tags(f"{folder}/seed-{name}.flv"):
            out += bytes([kind]) + ((base + time) & (2**48 - 1)).to_bytes(6, "big") + len(body).to_bytes(3, "big") + body
        open(f"{folder}/seed-{name}-{label}.records", "wb").write(out)
EOF
  ;;
rtmp)
  python3 - "$dir" "$work" <<'EOF'
import socket, struct, subprocess, sys, threading, time
folder, work = sys.argv[1], sys.argv[2]

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]

# ffmpeg's RTMP server, a relay that records what the publisher sends, and the publisher. A
# recording that fails (no ffmpeg, a port taken) leaves those seeds out, as media-seeds.sh does.
def record():
    server_port = free_port()
    server = subprocess.Popen(["ffmpeg", "-v", "quiet", "-nostdin", "-listen", "1", "-timeout", "20",
                               "-i", f"rtmp://127.0.0.1:{server_port}/live/KEY", "-c", "copy", "-f", "null", "-"])
    relay = socket.socket()
    relay.bind(("127.0.0.1", 0))
    relay.listen(1)
    relay.settimeout(30)
    recorded = bytearray()
    def pump(source, sink, keep):
        try:
            while chunk := source.recv(65536):
                if keep: recorded.extend(chunk)
                sink.sendall(chunk)
        except OSError:
            pass
        for end in (source, sink):
            try: end.shutdown(socket.SHUT_RDWR)
            except OSError: pass
    def serve():
        try:
            client, _ = relay.accept()
        except OSError:
            return
        for _ in range(100):
            try:
                upstream = socket.create_connection(("127.0.0.1", server_port))
                break
            except OSError:
                time.sleep(0.1)
        else:
            return
        pumps = [threading.Thread(target=pump, args=(client, upstream, True)),
                 threading.Thread(target=pump, args=(upstream, client, False))]
        for t in pumps: t.start()
        for t in pumps: t.join()
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    time.sleep(0.5)
    try:
        subprocess.run(["ffmpeg", "-v", "error", "-nostdin", "-i", f"{work}/h264-aac.flv", "-c", "copy", "-f", "flv",
                        f"rtmp://127.0.0.1:{relay.getsockname()[1]}/live/KEY?token=1"], timeout=60)
        thread.join(30)
        server.wait(30)
    except subprocess.TimeoutExpired:
        pass
    finally:
        if server.poll() is None: server.kill()
    return bytes(recorded)

# The plan: byte 0 prefix | decision << 2 | chunk size << 4; byte 1 piece length - 1 | cap << 6; byte 2 piece.
def seed(name, plan, body):
    open(f"{folder}/seed-{name}.rtmp", "wb").write(bytes(plan) + body)
recorded = record()
if len(recorded) > 3073:
    chunks = recorded[3073:]  # after C0 C1 C2
    seed("ffmpeg-publish", [0x01, 0xFF, 0xFF], chunks)
    seed("ffmpeg-publish-own-handshake", [0x00, 0xC7, 0x40], recorded)
    seed("ffmpeg-publish-rejected", [0x09 | 0x50, 0xC0, 0x10], chunks)
else:
    print("live-seeds: could not record ffmpeg publishing (skipped)", file=sys.stderr)

# Plan 3 then media as chunks on stream 1: Set Chunk Size 4096, metadata, the clip's tags.
def amf_string(text):
    data = text.encode()
    return b"\x02" + len(data).to_bytes(2, "big") + data
def chunk(cs, type_, stream, timestamp, payload, size=128):
    out = bytes([cs]) + min(timestamp, 0xFFFFFF).to_bytes(3, "big") + len(payload).to_bytes(3, "big") + bytes([type_])
    out += struct.pack("<I", stream) + (timestamp.to_bytes(4, "big") if timestamp >= 0xFFFFFF else b"")
    for at in range(0, len(payload), size):
        if at: out += bytes([0xC0 | cs])
        out += payload[at:at + size]
    return out
data = open(f"{work}/h264-aac.flv", "rb").read()
media = chunk(2, 1, 0, 0, (4096).to_bytes(4, "big"))
metadata = amf_string("@setDataFrame") + amf_string("onMetaData") + b"\x08\x00\x00\x00\x02" \
    + b"\x00\x05width\x00" + struct.pack(">d", 64) + b"\x00\x06height\x00" + struct.pack(">d", 64) + b"\x00\x00\x09"
media += chunk(5, 18, 1, 0, metadata, 4096)
at, count = int.from_bytes(data[5:9], "big") + 4, 0
while len(data) - at >= 11 and count < 12:
    size = int.from_bytes(data[at + 1:at + 4], "big")
    if data[at] in (8, 9):
        media += chunk(6 if data[at] == 9 else 4, data[at], 1, int.from_bytes(data[at + 4:at + 7], "big"), data[at + 11:at + 11 + size], 4096)
        count += 1
    at += 11 + size + 4
seed("publish-then-media", [0x03, 0xFF, 0x20], media)
seed("publish-then-media-later", [0x07 | 0x50, 0x85, 0x03], media)
EOF
  ;;
*) echo "live-seeds.sh: flv or rtmp, not $kind" >&2; exit 64 ;;
esac
touch "$dir/.made"
