"""A TCP proxy to the apiserver that refuses every TLS session resumption, as a server does whose session
cache or ticket keys differ from the one that issued the session (replicas behind one TCP load balancer):
a ClientHello offering a session (TLS 1.3 pre_shared_key, or a non-empty TLS 1.2 session ticket) gets a
fatal handshake_failure alert and the connection is closed; any other connection is passed through.

usage: tls_resume_proxy.py LISTEN_PORT UPSTREAM_HOST:PORT COUNT_FILE [alert|reset]
alert (the default) answers an offered session with the alert; reset closes the connection without one (RST).
COUNT_FILE gets one line per connection: "refused" or "passed".
"""
import socket
import struct
import sys
import threading

PRE_SHARED_KEY = 41
SESSION_TICKET = 35
ALERT_HANDSHAKE_FAILURE = bytes([0x15, 0x03, 0x03, 0x00, 0x02, 0x02, 0x28])


def read_exactly(sock, n):
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def read_client_hello(sock):
    """The first handshake record (header included), or None when the client sent something else."""
    header = read_exactly(sock, 5)
    if header is None or header[0] != 22:
        return header
    body = read_exactly(sock, int.from_bytes(header[3:5], "big"))
    return None if body is None else header + body


def offers_session(record):
    """True when the ClientHello in `record` offers a session to resume."""
    try:
        msg = record[5:]
        if msg[0] != 1:
            return False
        p = 4 + 2 + 32  # handshake header, legacy_version, random
        p += 1 + msg[p]  # legacy_session_id (TLS 1.3 clients send a random one: not an offer)
        p += 2 + int.from_bytes(msg[p:p + 2], "big")  # cipher_suites
        p += 1 + msg[p]  # legacy_compression_methods
        end = p + 2 + int.from_bytes(msg[p:p + 2], "big")
        p += 2
        while p + 4 <= end:
            kind = int.from_bytes(msg[p:p + 2], "big")
            size = int.from_bytes(msg[p + 2:p + 4], "big")
            if kind == PRE_SHARED_KEY or (kind == SESSION_TICKET and size > 0):
                return True
            p += 4 + size
    except IndexError:
        pass
    return False


def pipe(src, dst):
    try:
        while True:
            data = src.recv(65536)
            if not data:
                break
            dst.sendall(data)
    except OSError:
        pass
    for s in (src, dst):
        try:
            s.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


def serve(client, upstream, count_file, lock, mode):
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    first = read_client_hello(client)
    refused = first is not None and first[0] == 22 and offers_session(first)
    with lock, open(count_file, "a") as f:
        f.write("refused\n" if refused else "passed\n")
    if first is None or refused:
        if refused and mode == "alert":
            client.sendall(ALERT_HANDSHAKE_FAILURE)
        elif refused:
            client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        return
    host, port = upstream.rsplit(":", 1)
    server = socket.create_connection((host, int(port)))
    server.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    server.sendall(first)
    threading.Thread(target=pipe, args=(server, client), daemon=True).start()
    pipe(client, server)


def main():
    port, upstream, count_file = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    mode = sys.argv[4] if len(sys.argv) > 4 else "alert"
    lock = threading.Lock()
    listener = socket.socket()
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(128)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client, upstream, count_file, lock, mode), daemon=True).start()


if __name__ == "__main__":
    main()
