"""The exec protocol's child side in Python (docs/protocol.md): serve() writes the handshake,
then answers gelucheck's requests with your functions until it says stop.

    from gelucheck_exec import serve
    serve("my_gelu", "exact", forward=my_forward, derivative=my_derivative,
          contract={"max_ulp": 2}, origin="mylib 1.0 my_gelu")

forward and derivative take a bytes-like object holding n little-endian binary32 inputs and
return n little-endian binary32 outputs (bytes, bytearray or anything with tobytes(), such as a
numpy array of dtype '<f4'). The standard library is enough for the protocol itself.
"""
import struct
import sys
import time

_REQUEST = struct.Struct("<4sIQ")
_REPLY = struct.Struct("<4sIQQ")


def _read_exact(stream, n):
    """n bytes, or None at the end of the input (a partial read at the end also ends it)."""
    chunks, got = [], 0
    while got < n:
        b = stream.read(n - got)
        if not b:
            return None
        chunks.append(b)
        got += len(b)
    return b"".join(chunks)


def _yes(flag):
    return "yes" if flag else "no"


def serve(name, target, forward, derivative=None, contract=None, origin="", timing=True):
    """Answer requests on stdin/stdout until shutdown; returns 0 (use as the exit status)."""
    inp, out = sys.stdin.buffer, sys.stdout.buffer
    lines = ["gelucheck-exec 1", "name " + name, "target " + target, "format binary32",
             "derivative " + _yes(derivative is not None), "timing " + _yes(timing)]
    if contract:
        words = []
        for key, value in contract.items():
            if isinstance(value, bool):
                value = _yes(value)
            words.append("%s=%s" % (key, value))
        lines.append("contract " + " ".join(words))
    if origin:
        lines.append("origin " + " ".join(str(origin).split()))
    lines.append("end")
    out.write(("\n".join(lines) + "\n").encode())
    out.flush()
    while True:
        head = _read_exact(inp, _REQUEST.size)
        if head is None:
            return 0
        magic, op, count = _REQUEST.unpack(head)
        if magic != b"GXRQ":
            print("gelucheck_exec: a request without its magic", file=sys.stderr)
            return 5
        if op == 0:
            return 0
        data = _read_exact(inp, 4 * count)
        if data is None:
            return 0
        fn = forward if op == 1 else derivative if op == 2 else None
        if fn is None:
            msg = ("no derivative" if op == 2 else "unknown op %d" % op).encode()
            out.write(_REPLY.pack(b"GXRP", 1, len(msg), 0) + msg)
            out.flush()
            continue
        t0 = time.perf_counter_ns()
        try:
            y = fn(data)
        except Exception as e:  # the host shows the message and stops the run
            msg = ("%s: %s" % (type(e).__name__, e)).encode()[:4096]
            out.write(_REPLY.pack(b"GXRP", 2, len(msg), 0) + msg)
            out.flush()
            continue
        ns = time.perf_counter_ns() - t0 if timing else 0
        if hasattr(y, "tobytes"):
            y = y.tobytes()
        out.write(_REPLY.pack(b"GXRP", 0, len(y) // 4, max(ns, 1) if timing else 0))
        out.write(y)
        out.flush()
