#!/usr/bin/env bash
# bench/sync.sh [PAIRS] — `feed sync` against syncstart and audio-offset-finder (both from PyPI)
# on the same corpus pairs, in the same run.
#
# The corpus is bench/sync-corpus.py --count PAIRS (default 120) --seconds 60 --seed 1: 60 s
# sides, 84 pairs sharing a scene (speech or tones; SNR 20, 10, 5, 0, 15 dB in turn; each side
# through its own EQ, reverb, noise and level; offsets uniform in ±10 s), 30 pairs sharing no
# sound and 6 periodic ones (a metronome). It takes minutes to make, so it is made once, untimed,
# and kept in $CORPUS (default .build/bench/sync-corpus-PAIRS-60-1); delete it to make it again.
# The peers are installed once into a virtual environment, .build/bench/sync-venv (pip needs
# PyPI the first time): syncstart 1.1.1 and audio-offset-finder 0.5.5.
#
# Each pair runs through the three tools, the order rotating from pair to pair, each with its
# defaults except where it needs to be told the search range or be quiet:
#   feed                 feed sync FRONT BACK --json (refuses below confidence 2.5: exit 65)
#   audio-offset-finder  audio-offset-finder --find-offset-of FRONT --within BACK --json
#                        (MFCC cross-correlation at 8 kHz; an answer counts as refused when its
#                        standard score is 10 or less, the threshold its --help gives)
#   syncstart            syncstart FRONT BACK -s -q (FFT cross-correlation of the first 20 s;
#                        it has no confidence, so it never refuses)
# Wall time per pair comes from the script's own clock around each run (the tools' start-up,
# Python's imports included). Prints one table (bench/sync-score.py documents each column) and
# the ratios. Goals, at SNR >= 5 dB: median error <= 5 ms, p95 <= 33 ms; no wrong answer
# accepted (error > 100 ms); >= 95 % of the no-shared-sound pairs refused; under 1 s per 60 s
# pair; better median and p95 than both peers. Missed goals do not fail the script; setup does.
#
# Environment: FEED (default .build/release/feed, built when missing or older than the
# sources), CORPUS, VENV (.build/bench/sync-venv).
set -euo pipefail
pairs=${1:-120}
# shellcheck source=SCRIPTDIR/lib.bash
source "$(dirname "$0")/lib.bash"
bench_setup python3 espeak-ng sox ffmpeg
[[ $pairs =~ ^[1-9][0-9]*$ ]] || { echo "bench/sync.sh: PAIRS must be a positive integer, not '$pairs'" >&2; exit 64; }

corpus=${CORPUS:-$root/.build/bench/sync-corpus-$pairs-60-1}
venv=${VENV:-$root/.build/bench/sync-venv}
if [ ! -f "$corpus/pairs.tsv" ]; then
  echo "making the corpus ($pairs pairs of 60 s) in $corpus…" >&2
  python3 "$root/bench/sync-corpus.py" --count "$pairs" --seconds 60 --seed 1 "$corpus" 2>/dev/null
fi
if [ ! -x "$venv/bin/syncstart" ] || [ ! -x "$venv/bin/audio-offset-finder" ]; then
  echo "installing syncstart and audio-offset-finder into $venv…" >&2
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q syncstart==1.1.1 audio-offset-finder==0.5.5 >&2
fi
python3 "$root/bench/sync-score.py" "$corpus" "$feed" "$venv"
