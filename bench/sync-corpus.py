#!/usr/bin/env python3
"""bench/sync-corpus.py [--count N] [--seconds S] [--seed K] [--kinds K,...] OUT

Makes pairs of clips for `feed sync`: two recordings of one scene, each heard through its own
microphone, plus pairs that share no sound. Needs espeak-ng, sox and ffmpeg (Debian packages);
Python's standard library only. The same arguments give the same corpus.

A scene is a mono 16 kHz sound longer than the clips:
  speech    two espeak-ng voices taking turns reading sentences, with pauses
  tones     a melody that never repeats: plucked, sine and square notes from a pentatonic scale,
            random lengths and rests
  periodic  a metronome (a click every 0.5 s), whose correlation has a peak every period
Each side of a pair cuts the scene where its recording started (the front starts OFFSET s after
the back, uniform in [-10, 10]) and then goes through its own microphone: a high-pass (80-300 Hz),
a low-pass (3-7.5 kHz), one peaking EQ band (+-9 dB), room reverb (sox `reverb`, 0-80 %), its own
noise (white, pink or brown, never the same stretch on both sides) at the pair's SNR, and a peak
level between -20 and -1 dBFS. Each side is AAC (64 kbit/s, 48 or 44.1 kHz) in an MP4 with a
64x64 10 fps H.264 video track whose top quarter shows the scene's frame number (mod 256) as 8
black or white blocks, so the video of a stacked pair shows whether it is in sync.

Kinds, repeating every 20 pairs: 14 shared (speech and tones in turn; SNR 20, 10, 5, 0, 15 dB in
turn), 5 no-shared (the two sides from different scenes: speech/speech, tones/tones, speech/tones,
noise only), 1 periodic. --kinds keeps only the listed kinds (shared, noshared, periodic).
--drift PPM makes the back's clock run PPM parts per million slow (sox `speed`), as two phones'
clocks do; the offset listed is then the one at the start.

Writes OUT/NAME-front.mp4, OUT/NAME-back.mp4 and OUT/pairs.tsv, one line per pair:
  name  kind  offset  snr  front  back      (offset empty for noshared; file names relative to OUT)
"""
import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

RATE = 16000
FPS = 10
MAX_OFFSET = 10.0

SENTENCES = [
    "The ferry leaves at seven, so we should pack the bags tonight.",
    "I never thought the old bridge would hold that many people.",
    "Turn left after the bakery and look for the green door.",
    "She counted the boxes twice and still found one missing.",
    "Nobody told me the concert started an hour early.",
    "Can you hear the rain on the roof? It has not stopped since noon.",
    "We painted the kitchen yellow, and now it feels like summer.",
    "His bicycle has a bell that sounds like a tiny church.",
    "The library closes on Sundays, but the garden stays open.",
    "Put the kettle on; the guests will be here in ten minutes.",
    "My grandmother grew tomatoes on the balcony every year.",
    "The train was late again, so I walked along the river.",
    "They found a map in the attic with a cross drawn in red ink.",
    "Please remember to water the plants while I am away.",
    "The museum has a whale skeleton hanging from the ceiling.",
    "Seven hungry gulls followed the fishing boat into the harbour.",
    "I would rather climb the hill than wait for the bus.",
    "Write the number on the back of the envelope and seal it.",
    "The coffee machine makes a noise like a small aeroplane.",
    "We laughed so hard that the waiter came over to ask why.",
    "Snow covered the village overnight and the roads were quiet.",
    "Bring a torch, because the path through the woods is dark.",
    "The children built a castle of sand before the tide came in.",
    "He plays the trumpet badly but with great enthusiasm.",
    "Our neighbour keeps bees and sells the honey at the market.",
    "Let us meet by the fountain at a quarter past three.",
    "The clock in the hall has been five minutes fast for years.",
    "A fox crossed the lawn this morning and looked straight at me.",
    "Open the window; it is far too warm in this little room.",
    "The recipe needs two eggs, a cup of flour and some patience.",
    "Every lamp on the street went out at exactly midnight.",
    "The parrot repeats the phone number but never the right one.",
    "We drove north until the radio could only find static.",
    "Her violin case was covered in stickers from old tours.",
    "The baker starts work at four, long before the birds wake up.",
    "If the lift is broken again, we will take the stairs.",
    "A postcard arrived from Lisbon with no name on it.",
    "The goalkeeper slipped, and the whole stadium groaned.",
    "Keep the receipt in case the shoes are too small.",
    "The storm knocked the old oak across the garden wall.",
    "Thirty people queued outside for the first strawberries.",
    "My cousin speaks four languages and forgets his keys daily.",
    "The lighthouse keeper wrote letters nobody ever answered.",
    "Fold the towels in thirds so they fit on the shelf.",
    "A brass band marched past while we were eating lunch.",
    "The printer jammed on the very last page of the report.",
    "We watched the eclipse through a piece of smoked glass.",
    "Pack an umbrella; the forecast changes every hour here.",
    "The kitten fell asleep inside the empty flower pot.",
    "Somebody left a piano on the pavement with a sign saying free.",
]
VOICES = ["en-us", "en-gb", "en-gb-scotland", "en-gb-x-rp", "en-029", "en-us+f3", "en-gb+f2", "en+m3"]
PENTATONIC = [0, 2, 4, 7, 9]


def run(*args):
    done = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if done.returncode != 0:
        sys.exit(f"sync-corpus: {' '.join(args[:3])} ... failed: {done.stderr.strip().splitlines()[-1:]}")
    return done.stdout + done.stderr


def sox(*args):
    return run("sox", "-R", "-V1", *args)


def duration(path):
    return float(run("soxi", "-D", path))


def concat(parts, path, seconds):
    """Joins wav files (in chunks: the argument list stays short) and cuts the result to `seconds`."""
    while len(parts) > 1:
        joined = []
        for i in range(0, len(parts), 100):
            chunk = parts[i:i + 100]
            if len(chunk) == 1:
                joined.append(chunk[0])
                continue
            out = f"{chunk[0]}.j{i}.wav"
            sox(*chunk, out)
            joined.append(out)
        parts = joined
    sox(parts[0], "-r", str(RATE), "-c", "1", path, "trim", "0", f"{seconds:.3f}")


def speech_scene(rng, seconds, path, work):
    voices = rng.sample(VOICES, 2)
    speeds, pitches = [rng.randint(130, 185) for _ in voices], [rng.randint(25, 75) for _ in voices]
    parts, total, turn, unread = [], 0.0, 0, []
    while total < seconds:
        raw, part = f"{path}.{len(parts)}.raw.wav", f"{path}.{len(parts)}.wav"
        if len(unread) < 2:                               # no sentence twice until all were read
            unread = rng.sample(SENTENCES, len(SENTENCES))
        text = " ".join(unread.pop() for _ in range(rng.randint(1, 2)))
        run("espeak-ng", "-v", voices[turn], "-s", str(speeds[turn]), "-p", str(pitches[turn]), "-w", raw, text)
        sox(raw, "-r", str(RATE), "-c", "1", part, "pad", "0", f"{rng.uniform(0.15, 1.2):.3f}")
        parts.append(part)
        total += duration(part)
        turn = 1 - turn if rng.random() < 0.7 else turn
    concat(parts, path, seconds)


def tones_scene(rng, seconds, path, work):
    base = rng.choice([196.0, 220.0, 246.94, 261.63])
    parts, total = [], 0.0
    while total < seconds:
        part = f"{path}.{len(parts)}.wav"
        length = rng.choice([0.125, 0.25, 0.25, 0.375, 0.5, 0.75])
        if rng.random() < 0.15:
            sox("-n", "-r", str(RATE), "-c", "1", part, "trim", "0", f"{length}")
        else:
            step = rng.choice(PENTATONIC) + 12 * rng.randint(0, 2)
            hz = base * 2 ** (step / 12)
            shape = rng.choice(["pluck", "pluck", "sine", "square", "triangle"])
            sox("-n", "-r", str(RATE), "-c", "1", part, "synth", f"{length}", shape, f"{hz:.2f}",
                "fade", "q", "0.01", f"{length}", f"{min(0.1, length / 3):.3f}", "vol", f"{rng.uniform(0.3, 0.9):.2f}")
        parts.append(part)
        total += length
    concat(parts, path, seconds)


def periodic_scene(rng, seconds, path, work):
    click = f"{path}.click.wav"
    sox("-n", "-r", str(RATE), "-c", "1", click, "synth", "0.03", "sine", "1800", "fade", "q", "0.002", "0.03", "0.025",
        "pad", "0", "0.47")
    sox(click, path, "repeat", str(int(seconds / 0.5) + 1), "trim", "0", f"{seconds:.3f}")


SCENES = {"speech": speech_scene, "tones": tones_scene, "periodic": periodic_scene}


def rms_db(path):
    match = re.search(r"RMS lev dB\s+(-?[\d.]+|-inf)", sox(path, "-n", "stats"))
    return float(match.group(1)) if match and match.group(1) != "-inf" else -120.0


def microphone(rng, scene, start, seconds, snr, noise, noise_start, out_wav, work):
    """One side: the scene from `start` through a random microphone and room, with its own noise."""
    if scene is None:                                     # noise only: the side hears no scene
        sox(noise, out_wav, "trim", f"{noise_start:.3f}", f"{seconds:.4f}", "gain", "-n", f"{rng.uniform(-20, -1):.1f}")
        return
    clean = out_wav + ".clean.wav"
    hp, lp = rng.uniform(80, 300), rng.uniform(3000, 7500)
    eq_hz, eq_gain = rng.uniform(300, 3000), rng.uniform(-9, 9)
    reverb = rng.uniform(0, 80)
    effects = ["highpass", f"{hp:.0f}", "lowpass", f"{lp:.0f}", "equalizer", f"{eq_hz:.0f}", "1q", f"{eq_gain:.1f}"]
    if reverb > 5:
        effects += ["reverb", f"{reverb:.0f}", "50", f"{rng.uniform(30, 100):.0f}"]
    sox(scene, "-c", "1", clean, *effects, "trim", f"{round(start * RATE)}s", f"{seconds:.4f}", "channels", "1")
    hiss = out_wav + ".noise.wav"
    sox(noise, hiss, "trim", f"{noise_start:.3f}", f"{seconds:.4f}")
    level = 10 ** ((rms_db(clean) - snr - rms_db(hiss)) / 20)
    sox("-m", "-v", "1", clean, "-v", f"{level:.6f}", hiss, out_wav, "gain", "-n", f"{rng.uniform(-20, -1):.1f}")


def drift(wav, ppm):
    """Plays `wav` ppm parts per million fast: what a recorder whose clock runs that much slow gives."""
    if ppm:
        sox(wav, wav + ".drift.wav", "speed", f"{1 + ppm / 1e6:.9f}")
        os.replace(wav + ".drift.wav", wav)


def encode(wav, first_frame, seconds, rate, out_mp4):
    """AAC in MP4 with a small video track that shows scene frame numbers (first_frame + n) mod 256."""
    # The number's 8 bits as an 8x2 picture (cheap for geq), scaled up into the top quarter.
    blocks = f"if(gt(bitand(mod(N+{first_frame},256),pow(2,7-X)),0),235,16)"
    run("ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c=gray:s=8x2:r={FPS}:d={seconds:.4f}",
        "-i", wav, "-filter_complex", f"[0:v]format=gray,geq=lum='{blocks}',scale=64:16:flags=neighbor,"
        "pad=64:64:0:0:color=gray,format=yuv420p[v]", "-map", "[v]", "-map", "1:a",
        "-c:v", "libx264", "-preset", "ultrafast", "-qp", "8", "-c:a", "aac", "-b:a", "64k", "-ar", str(rate),
        "-t", f"{seconds:.4f}", out_mp4)


def pair_kind(i):
    r = i % 20
    if r in (3, 7, 11, 15, 18):
        return "noshared"
    return "periodic" if r == 19 else "shared"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[2])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=120)
    parser.add_argument("--seconds", type=float, default=60.0, help="length of each side (default 60)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--kinds", default="shared,noshared,periodic")
    parser.add_argument("--drift", type=float, default=0, help="the back's clock runs this many ppm slow (default 0)")
    args = parser.parse_args()
    kinds = set(args.kinds.split(","))
    for tool in ("espeak-ng", "sox", "soxi", "ffmpeg"):
        if not shutil.which(tool):
            sys.exit(f"sync-corpus: {tool} not found (apt-get install espeak-ng sox ffmpeg)")
    os.makedirs(args.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="sync-corpus.")
    try:
        scene_seconds = args.seconds + 2 * MAX_OFFSET + 1
        noise_seconds = 2 * args.seconds + 10
        noises = {}
        for colour in ("whitenoise", "pinknoise", "brownnoise"):
            noises[colour] = os.path.join(work, f"{colour}.wav")
            sox("-n", "-r", str(RATE), "-c", "1", noises[colour], "synth", f"{noise_seconds}", colour)
        lines, shared_index = [], 0
        for i in range(args.count):
            kind = pair_kind(i)
            rng = random.Random(args.seed * 100003 + i)
            if kind not in kinds:
                continue
            name = f"pair{i:03d}"
            base = os.path.join(work, name)
            snr, offset = None, None
            if kind == "shared":
                scene_kind = "speech" if shared_index % 2 == 0 else "tones"
                snr = [20, 10, 5, 0, 15][shared_index % 5]
                shared_index += 1
            elif kind == "periodic":
                scene_kind, snr = "periodic", 15
            else:
                scene_kind = None
            sides = {}
            if scene_kind:
                scene = base + ".scene.wav"
                SCENES[scene_kind](rng, scene_seconds, scene, work)
                # Whole samples of the scene (16 kHz), so the offset listed is the one cut: half
                # a sample at the 8 kHz feed compares at, to be found below one sample.
                offset = round(rng.uniform(-MAX_OFFSET, MAX_OFFSET) * RATE) / RATE
                back_start = round(rng.uniform(max(0, -offset), MAX_OFFSET + 1 + min(0, -offset)) * RATE) / RATE
                sides = {"back": (scene, back_start, snr), "front": (scene, back_start + offset, snr)}
                label = f"{kind}-{scene_kind}"
            else:
                combo = ["speech/speech", "tones/tones", "speech/tones", "noise/noise"][(i // 20 + [3, 7, 11, 15, 18].index(i % 20)) % 4]
                label = f"noshared-{combo.replace('/', '-')}"
                for side, scene_kind in zip(("front", "back"), combo.split("/")):
                    if scene_kind == "noise":
                        sides[side] = (None, 0.0, None)
                        continue
                    scene = f"{base}.{side}.scene.wav"
                    SCENES[scene_kind](rng, scene_seconds, scene, work)
                    sides[side] = (scene, rng.uniform(0, MAX_OFFSET), rng.choice([20, 10, 5]))
            colours = rng.sample(sorted(noises), 2)
            noise_starts = [rng.uniform(0, 4), args.seconds + 5 + rng.uniform(0, 4)]
            for n, side in enumerate(("front", "back")):
                scene, start, side_snr = sides[side]
                wav = f"{base}-{side}.wav"
                microphone(rng, scene, start, args.seconds, side_snr, noises[colours[n]], noise_starts[n], wav, work)
                if side == "back":
                    drift(wav, args.drift)
                first_frame = int(round(start * FPS))
                encode(wav, first_frame, args.seconds, rng.choice([48000, 44100]), os.path.join(args.out, f"{name}-{side}.mp4"))
            lines.append("\t".join([name, label, "" if offset is None else f"{offset:.7f}", "" if snr is None else str(snr),
                                    f"{name}-front.mp4", f"{name}-back.mp4"]))
            print(f"{name} {label} offset={offset} snr={snr}", file=sys.stderr)
            for leftover in os.listdir(work):
                if leftover.startswith(name):
                    os.remove(os.path.join(work, leftover))
        with open(os.path.join(args.out, "pairs.tsv.part"), "w") as tsv:
            tsv.write("".join(line + "\n" for line in lines))
        os.replace(os.path.join(args.out, "pairs.tsv.part"), os.path.join(args.out, "pairs.tsv"))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
