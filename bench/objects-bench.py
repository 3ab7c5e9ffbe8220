"""bench/objects.sh's rounds (run by it, beside the store scripts/with-s3.sh starts)."""
import json
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config

feed, clip, ladder = os.environ["FEED"], os.environ["FILE"], os.environ["LADDER"]
rounds, ranges = int(os.environ["ROUNDS"]), int(os.environ["RANGES"])
endpoint, bucket = os.environ["FEED_TEST_S3_ENDPOINT"], os.environ["FEED_TEST_S3_BUCKET"]
keys = {"AWS_ENDPOINT_URL": endpoint, "AWS_ACCESS_KEY_ID": os.environ["FEED_TEST_S3_ACCESS_KEY"],
        "AWS_SECRET_ACCESS_KEY": os.environ["FEED_TEST_S3_SECRET_KEY"], "AWS_REGION": "us-east-1"}
s3 = boto3.client("s3", endpoint_url=endpoint, aws_access_key_id=keys["AWS_ACCESS_KEY_ID"],
                  aws_secret_access_key=keys["AWS_SECRET_ACCESS_KEY"], region_name="us-east-1",
                  config=Config(s3={"addressing_style": "path"}, signature_version="s3v4"))
transfer = TransferConfig(multipart_threshold=8 << 20, multipart_chunksize=8 << 20, max_concurrency=4)
scratch = tempfile.mkdtemp(prefix="feed-objects-bench.")


def feed_run(args, home, media):
    env = dict(os.environ, **keys, FEED_HOME=home, FEED_MEDIA=media)
    return subprocess.run([feed] + args, env=env, check=True, capture_output=True, text=True).stdout


def timed(body):
    start = time.perf_counter()
    body()
    return time.perf_counter() - start


def report(name, ours, theirs, peer, goal, lower_is_better=True):
    a, b = statistics.median(ours), statistics.median(theirs)
    ratio = a / b
    met = ratio <= goal if lower_is_better else ratio >= goal
    print(f"{name}: feed {a:.3f}, {peer} {b:.3f} (rounds: feed {', '.join(f'{x:.3f}' for x in ours)}; "
          f"{peer} {', '.join(f'{x:.3f}' for x in theirs)})")
    print(f"ratio {name} feed/{peer} {ratio:.2f} (goal {'≤' if lower_is_better else '≥'} {goal}: {'met' if met else 'NOT met'})")


size = os.path.getsize(clip)
print(f"file {size / 1e6:.0f} MB, {rounds} rounds, SeaweedFS at {endpoint}")

# upload
ours, theirs = [], []
for n in range(rounds):
    home = os.path.join(scratch, f"up-{n}")
    ours.append(timed(lambda: feed_run(["roll", "add", clip], home, f"s3://{bucket}/up-feed-{n}")))
    theirs.append(timed(lambda: s3.upload_file(clip, bucket, f"up-boto3-{n}/clip.mp4", Config=transfer)))
report("upload seconds", ours, theirs, "boto3", 1.1)
print(f"  throughput: feed {size / statistics.median(ours) / 1e6:.0f} MB/s, boto3 {size / statistics.median(theirs) / 1e6:.0f} MB/s")

# range (the recording of round 0)
home = os.path.join(scratch, "up-0")
media = f"s3://{bucket}/up-feed-0"
row = json.loads(feed_run(["roll", "list", "--json"], home, media))[0]
key = row["file"][len(f"s3://{bucket}/"):]
env = dict(os.environ, **keys, FEED_HOME=home, FEED_MEDIA=media)
server = subprocess.Popen([feed, "serve", "--port", "0", "--quiet", "--media-serve", "proxy"], env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
base = server.stdout.readline().split()[-1]
proxied = f"{base}/media/roll/{row['id']}"
direct = s3.generate_presigned_url("get_object", Params={"Bucket": bucket, "Key": key}, ExpiresIn=3600)
subprocess.run(["curl", "-sf", "-o", "/dev/null", proxied], check=True)  # the local copy, made once
random.seed(7)
offsets = [random.randrange(0, max(1, row["bytes"] - (1 << 20))) for _ in range(ranges)]


def ranged(url):
    for offset in offsets:
        out = subprocess.run(["curl", "-sf", "-o", "/dev/null", "-w", "%{size_download}", "-r", f"{offset}-{offset + (1 << 20) - 1}", url],
                             check=True, capture_output=True, text=True).stdout
        assert int(out) == 1 << 20, out


ours, theirs = [], []
for _ in range(rounds):
    ours.append(ranges * (1 << 20) / timed(lambda: ranged(proxied)) / 1e6)
    theirs.append(ranges * (1 << 20) / timed(lambda: ranged(direct)) / 1e6)
server.terminate()
server.wait()
report("1 MiB ranges MB/s", ours, theirs, "store", 0.9, lower_is_better=False)

# ladder
ours, theirs = [], []
for n in range(rounds):
    home = os.path.join(scratch, f"hls-{n}")
    media = f"s3://{bucket}/hls-feed-{n}"
    feed_run(["roll", "add", ladder], home, media)
    ours.append(timed(lambda: feed_run(["roll", "hls", "1"], home, media)))
    folder = os.path.join(scratch, f"hls-local-{n}")

    def local():
        subprocess.run([feed, "hls", ladder, "-o", folder], check=True, capture_output=True)
        files = sorted((os.path.relpath(os.path.join(d, f), folder) for d, _, fs in os.walk(folder) for f in fs),
                       key=lambda p: (p.endswith((".m3u8", ".mpd")), p))
        from concurrent.futures import ThreadPoolExecutor
        with ThreadPoolExecutor(4) as pool:
            list(pool.map(lambda p: s3.upload_file(os.path.join(folder, p), bucket, f"hls-boto3-{n}/{p}"), files))
    theirs.append(timed(local))
report("ladder seconds", ours, theirs, "feed hls + boto3", 1.1)
shutil.rmtree(scratch, ignore_errors=True)
