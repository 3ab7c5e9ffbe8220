"""One HTTP request on a new connection, as an HTTP/1.0 client would send it; prints what came
back and whether the server closed the connection: a JSON object
{"head": "...", "body": "...", "raw": "...", "closed": true|false}, where head and body are the
first response's and raw is every byte that came. Used by ServeRawHTTPTests.

    http10.py PORT REQUEST [SECONDS [TEXT COUNT]]

REQUEST is the request's text with \\r\\n escapes (several requests, for pipelining). The server is given SECONDS (default 10) to
close the connection. With TEXT and COUNT, reading stops as soon as the body holds TEXT COUNT
times (for a body that never ends, an event stream): "closed" is then false."""
import json
import socket
import sys
import time

port, request = int(sys.argv[1]), sys.argv[2].encode().decode("unicode_escape").encode()
seconds = float(sys.argv[3]) if len(sys.argv) > 3 else 10.0
until = (sys.argv[4].encode(), int(sys.argv[5])) if len(sys.argv) > 5 else None
connection = socket.create_connection(("127.0.0.1", port))
connection.sendall(request)
deadline = time.monotonic() + seconds
data, closed = b"", False
while True:
    left = deadline - time.monotonic()
    if left <= 0:
        break
    connection.settimeout(left)
    try:
        chunk = connection.recv(65536)
    except socket.timeout:
        break
    if not chunk:
        closed = True
        break
    data += chunk
    if until and data.partition(b"\r\n\r\n")[2].count(until[0]) >= until[1]:
        break
head, _, body = data.partition(b"\r\n\r\n")
print(json.dumps({"head": head.decode("latin-1"), "body": body.decode("latin-1"), "raw": data.decode("latin-1"), "closed": closed}))
