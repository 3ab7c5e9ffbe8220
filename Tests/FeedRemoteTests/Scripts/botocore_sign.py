#!/usr/bin/env python3
"""Sign S3 requests with botocore's SigV4 signers, as a reference for the Swift signer.

The Swift tests (FeedRemoteTests/S3/SigV4SignerTests) run `python3 Scripts/botocore_sign.py`,
write a JSON array of requests to its stdin and compare their own results with the
JSON array it prints (same order). Skip those tests when python3/botocore is missing.

Input item:  {"method", "url", "headers": {..}, "payloadSHA256": hex | "UNSIGNED-PAYLOAD",
              "date": "20261128T210000Z", "region", "accessKey", "secretKey",
              "sessionToken"?, "presignExpires"?, "query"?: [[name, value], ..]}
  url: path and query are RAW (not percent-encoded), e.g. "https://b.s3.amazonaws.com/a b/ü+c?prefix=a b/ü".
       The URL is then built as botocore's S3 client builds it (botocore.awsrequest.prepare_request_dict):
       path via percent_encode(path, safe="/~"), query pairs (split on '&' and the first '=', or given
       as "query") via percent_encode_sequence; everything but A-Za-z0-9-._~ (and / in the path) is %XX.
Output item: header auth -> {"authorization", "signedHeaders": {lowercase name: value, incl. host},
                             "canonicalRequest", "stringToSign", "url"}
             presign      -> {"url", "canonicalRequest", "stringToSign"}  (payload is UNSIGNED-PAYLOAD,
                             as botocore always uses for presigned URLs; payloadSHA256 is ignored)
Signers: botocore.auth.S3SigV4Auth / S3SigV4QueryAuth, service "s3", no path normalization.
Caveats (botocore behaviour): a "Date" header is rewritten from "date" and then replaces X-Amz-Date;
a bare query key ("?lifecycle") comes back as "lifecycle=" in url (the canonical query is the same).
"""
import datetime
import json
import sys
from urllib.parse import urlsplit, urlunsplit

import botocore.auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode, percent_encode_sequence


def sign(item):
    when = datetime.datetime.strptime(item["date"], "%Y%m%dT%H%M%SZ")
    # botocore >= 1.3x reads the clock through botocore.auth.get_current_datetime().
    botocore.auth.get_current_datetime = lambda *a, **k: when
    parts = urlsplit(item["url"])
    query = item.get("query")
    if query is None:
        query = [p.partition("=")[::2] for p in parts.query.split("&")] if parts.query else []
    url = urlunsplit((parts.scheme, parts.netloc, percent_encode(parts.path or "/", safe="/~"),
                      percent_encode_sequence([tuple(q) for q in query]), ""))
    creds = Credentials(item["accessKey"], item["secretKey"], item.get("sessionToken"))
    request = AWSRequest(method=item["method"], url=url, headers=dict(item.get("headers", {})))
    if "presignExpires" in item:
        auth = botocore.auth.S3SigV4QueryAuth(creds, "s3", item["region"], expires=int(item["presignExpires"]))
    else:
        auth = botocore.auth.S3SigV4Auth(creds, "s3", item["region"])
        auth.payload = lambda _request: item["payloadSHA256"]  # we have the hash, not the body
    seen = {}
    for name in ("canonical_request", "string_to_sign"):
        original = getattr(auth, name)
        def spy(*args, _original=original, _name=name):
            seen[_name] = _original(*args)
            return seen[_name]
        setattr(auth, name, spy)
    auth.add_auth(request)
    out = {"canonicalRequest": seen["canonical_request"], "stringToSign": seen["string_to_sign"]}
    if "presignExpires" in item:
        out["url"] = request.url
    else:
        out["authorization"] = request.headers["Authorization"]
        out["signedHeaders"] = {k.lower(): v for k, v in auth.headers_to_sign(request).items()
                                if k.lower() != "authorization"}
        out["url"] = request.url
    return out


if __name__ == "__main__":
    json.dump([sign(item) for item in json.load(sys.stdin)], sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
