#!/usr/bin/env python3
"""Uploads a file to a tus 1.0.0 server with tuspy (the Python tus client), for the tests of
`feed serve`'s /uploads.

    tus_upload.py --file clip.mp4 --endpoint http://127.0.0.1:PORT/uploads \
                  [--chunk-size 4096] [--chunks N] [--metadata filename=clip.mp4] [--header 'Authorization=Bearer T']
    tus_upload.py --file clip.mp4 --url http://127.0.0.1:PORT/uploads/ID   # resume (HEAD, then PATCH on)
    --insecure: do not verify the server's TLS certificate (a test's throwaway one)

--chunks N stops after N PATCHes (an upload left half-way). Prints one JSON line:
{"url": …, "offset": …, "size": …}. Exits 1 with the error on stderr when tuspy fails.
"""
import argparse
import json
import os
import sys

from tusclient import client
from tusclient.exceptions import TusCommunicationError, TusUploadFailed


def pairs(items, separator):
    out = {}
    for item in items or []:
        key, _, value = item.partition(separator)
        out[key] = value
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--file", required=True)
    parser.add_argument("--endpoint")
    parser.add_argument("--url")
    parser.add_argument("--chunk-size", type=int, default=1 << 20)
    parser.add_argument("--chunks", type=int)
    parser.add_argument("--metadata", action="append")
    parser.add_argument("--header", action="append")
    parser.add_argument("--insecure", action="store_true")
    args = parser.parse_args()

    endpoint = args.endpoint or args.url.rsplit("/", 1)[0]
    tus = client.TusClient(endpoint, headers=pairs(args.header, "="))
    uploader = tus.uploader(file_path=args.file, url=args.url, chunk_size=args.chunk_size,
                            metadata=pairs(args.metadata, "="), verify_tls_cert=not args.insecure)
    try:
        if args.chunks is None:
            uploader.upload()
        else:
            for _ in range(args.chunks):
                if uploader.offset >= uploader.get_file_size():
                    break
                uploader.upload_chunk()
    except (TusCommunicationError, TusUploadFailed) as error:
        print(f"tuspy: {error} (status {getattr(error, 'status_code', None)})", file=sys.stderr)
        return 1
    print(json.dumps({"url": uploader.url, "offset": uploader.offset, "size": os.path.getsize(args.file)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
