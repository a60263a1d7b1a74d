"""A Range-capable HTTP server for benches/remote.sh: serves the files of a directory on
127.0.0.1 with an added delay per request (LATENCY_MS, as a network would add), one thread per
connection, and counts requests (`GET /__count` answers the count and resets it).

Usage: range_server.py DIR [CERT KEY]  (prints the port, then serves until killed; with a
certificate and key, HTTPS). The remote-access tests use it as their HTTPS server.
"""
import http.server
import os
import socket
import sys
import threading
import time

LATENCY = float(os.environ.get("LATENCY_MS", "5")) / 1000
ROOT = sys.argv[1]
lock = threading.Lock()
count = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def setup(self):
        super().setup()
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def answer(self, head_only):
        global count
        if self.path == "/__count":
            with lock:
                body, count = str(count).encode(), 0
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        with lock:
            count += 1
        time.sleep(LATENCY)
        path = os.path.join(ROOT, self.path.lstrip("/").split("?")[0])
        try:
            size = os.path.getsize(path)
        except OSError:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        start, end = 0, size - 1
        rng = self.headers.get("Range")
        if rng and rng.startswith("bytes="):
            a, b = rng[6:].split("-")
            start = int(a) if a else size - int(b)
            end = min(int(b), size - 1) if (a and b) else size - 1
            self.send_response(206)
            self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
        else:
            self.send_response(200)
        self.send_header("Content-Length", str(end - start + 1))
        self.send_header("Accept-Ranges", "bytes")
        self.end_headers()
        if not head_only:
            with open(path, "rb") as f:
                f.seek(start)
                self.wfile.write(f.read(end - start + 1))

    def do_GET(self):
        self.answer(False)

    def do_HEAD(self):
        self.answer(True)


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
if len(sys.argv) > 3:
    import ssl

    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(sys.argv[2], sys.argv[3])
    server.socket = tls.wrap_socket(server.socket, server_side=True)
print(server.server_address[1], flush=True)
server.serve_forever()
