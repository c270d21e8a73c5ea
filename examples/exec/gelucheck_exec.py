"""The exec protocol's child side in Python (docs/protocol.md): serve() writes the handshake,
then answers gelucheck's requests with your functions until it says stop.

    from gelucheck_exec import serve
    serve("my_gelu", "exact", forward=my_forward, derivative=my_derivative,
          contract={"max_ulp": 2}, origin="mylib 1.0 my_gelu")

forward and derivative take a bytes-like object holding n little-endian binary32 inputs and
return n little-endian binary32 outputs (bytes, bytearray or anything with tobytes(), such as a
numpy array of dtype '<f4'). With out=True they are called as fn(x, out) instead, out a writable
bytes-like object of 4n bytes that they fill (np.frombuffer(out, dtype="<f4") is a writable
view), returning None: no copy of the outputs.

format="bfloat16" or "binary16" serves a 16-bit GELU instead: inputs and outputs are then n
little-endian 16-bit encodings (2n bytes; numpy dtype '<u2', or '<f2' for binary16).
dispatched_isa="avx512" (a word of a-z 0-9 _) tells gelucheck which code path the library
picked at run time (PyTorch's CPU capability): shown by `gelucheck list`, in accuracy.csv.

fpenv=["ieee", "ftz+daz"] lists the floating-point environments (x86's MXCSR flush-to-zero
and denormals-are-zero: ieee, ftz, daz, ftz+daz) the child can run its kernels in; gelucheck
asks for the run's (--fpenv) in GELUCHECK_EXEC_FPENV before the child starts, and asked_fpenv()
returns it: setting it up (a framework's switch) is the child's business, before it serves.
Without fpenv the child runs in IEEE's environment only, and gelucheck refuses it under any other
--fpenv. A child that cannot run in IEEE's (its framework always flushes) lists what it runs in,
the first one first: gelucheck says so in its rows.

When gelucheck offers shared memory (GELUCHECK_EXEC_SHM names the descriptor of the region) the
helper speaks protocol version 2 over it: x (and out) are then views of the region (numpy's
frombuffer makes arrays on them without a copy), the pipes carry only small frames. Else it
speaks version 1 over the pipes. The standard library is enough for the protocol itself.
"""
import mmap
import os
import struct
import sys
import time

_REQUEST = struct.Struct("<4sIQ")
_REPLY = struct.Struct("<4sIQQ")
_SHM_REQUEST = struct.Struct("<4sIQQQ")  # magic, op, count, inputs' offset, outputs' offset
_SHM_REPLY = struct.Struct("<4sIQQQ")  # magic, status, count, ns, outputs' offset


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


def _region():
    """The shared-memory region gelucheck offers, mapped (read-write, shared); None if none."""
    fd = os.environ.get("GELUCHECK_EXEC_SHM")
    if not fd:
        return None
    try:
        return mmap.mmap(int(fd), 0)
    except (ValueError, OSError) as e:
        print("gelucheck_exec: cannot map GELUCHECK_EXEC_SHM=%s (%s): using the pipes" % (fd, e),
              file=sys.stderr)
        return None


def _as_bytes(y):
    """The bytes of a function's result, without a copy where it exposes its buffer."""
    try:
        return memoryview(y).cast("B")
    except (TypeError, ValueError):  # no buffer, or not contiguous
        return memoryview(y.tobytes() if hasattr(y, "tobytes") else bytes(y))


_STORAGE = {"binary32": 4, "bfloat16": 2, "binary16": 2}  # bytes per value
_FPENVS = ("ieee", "ftz", "daz", "ftz+daz")


def asked_fpenv():
    """The floating-point environment gelucheck asks the child to run in: ieee, ftz, daz or
    ftz+daz (GELUCHECK_EXEC_FPENV; ieee when it is absent, as from a gelucheck before it)."""
    e = os.environ.get("GELUCHECK_EXEC_FPENV", "ieee").replace(",", "+")
    return "ftz+daz" if e == "daz+ftz" else e


def serve(name, target, forward, derivative=None, contract=None, origin="", timing=True,
          out=False, format="binary32", dispatched_isa=None, fpenv=None, cut=None):
    """Answer requests on stdin/stdout until shutdown; returns 0 (use as the exit status).

    cut: None, or cut(fn, size) giving a function that computes fn's inputs as tensors of `size`
    elements, one call each (input k at position k mod size): the handshake then says `cuts
    yes` and requests may ask for a size (docs/protocol.md, "Cuts"); each (op, size) is made
    once. An exception from cut is the request's error reply."""
    inp, pipe_out = sys.stdin.buffer, sys.stdout.buffer
    region = _region()
    size = _STORAGE[format]
    lines = ["gelucheck-exec %d" % (2 if region is not None else 1), "name " + name,
             "target " + target, "format " + format, "derivative " + _yes(derivative is not None),
             "timing " + _yes(timing)]
    if dispatched_isa:
        lines.append("dispatched_isa " + dispatched_isa)
    if fpenv:
        bad = [e for e in fpenv if e not in _FPENVS]
        if bad:
            raise ValueError("fpenv: %r is not one of %s" % (bad[0], ", ".join(_FPENVS)))
        lines.append("fpenv " + " ".join(fpenv))
    if contract:
        words = []
        for key, value in contract.items():
            if isinstance(value, bool):
                value = _yes(value)
            words.append("%s=%s" % (key, value))
        lines.append("contract " + " ".join(words))
    if origin:
        lines.append("origin " + " ".join(str(origin).split()))
    if cut is not None:
        lines.append("cuts yes")
    if region is not None:
        lines.append("transport shm")
    lines.append("end")
    pipe_out.write(("\n".join(lines) + "\n").encode())
    pipe_out.flush()
    request, reply = (_SHM_REQUEST, _SHM_REPLY) if region is not None else (_REQUEST, _REPLY)
    view = memoryview(region) if region is not None else None
    magic = b"GXSQ" if region is not None else b"GXRQ"
    cuts = {}  # (op, size): cut(fn, size)

    def answer(status, count, ns, at, payload=b""):
        fields = (b"GXSP" if region is not None else b"GXRP", status, count, ns)
        pipe_out.write(reply.pack(*(fields + ((at,) if region is not None else ()))))
        pipe_out.write(payload)
        pipe_out.flush()

    while True:
        head = _read_exact(inp, request.size)
        if head is None:
            return 0
        fields = request.unpack(head)
        if fields[0] != magic:
            print("gelucheck_exec: a request without its magic", file=sys.stderr)
            return 5
        op, count = fields[1], fields[2]
        if op == 0:
            return 0
        op, tensor = op & 0xff, op >> 8  # a cut's tensor size, 0 for none
        n = size * count
        if region is not None:
            at_in, at_out = fields[3], fields[4]
            if max(at_in, at_out) + n > len(region):
                msg = b"a request outside the shared region"
                answer(3, len(msg), 0, 0, msg)
                continue
            x, y_at = view[at_in:at_in + n], view[at_out:at_out + n]
        else:
            x = _read_exact(inp, n)
            if x is None:
                return 0
            y_at = bytearray(n) if out else None
        fn = forward if op == 1 else derivative if op == 2 else None
        if fn is None or (tensor and cut is None):
            msg = ("no derivative" if fn is None and op == 2 else "unknown op %d" % op if fn is None
                   else "a request in tensors of %d, but no cuts" % tensor).encode()
            answer(1, len(msg), 0, 0, msg)
            continue
        if tensor:
            if (op, tensor) not in cuts:
                try:
                    cuts[(op, tensor)] = cut(fn, tensor)
                except Exception as e:  # the host shows the message and stops the run
                    msg = ("%s: %s" % (type(e).__name__, e)).encode()[:4096]
                    answer(2, len(msg), 0, 0, msg)
                    continue
            fn = cuts[(op, tensor)]
        t0 = time.perf_counter_ns()
        try:
            y = fn(x, y_at) if out else fn(x)
        except Exception as e:  # the host shows the message and stops the run
            msg = ("%s: %s" % (type(e).__name__, e)).encode()[:4096]
            answer(2, len(msg), 0, 0, msg)
            continue
        ns = max(time.perf_counter_ns() - t0, 1) if timing else 0
        y = y_at if out else _as_bytes(y)
        if region is None:
            answer(0, len(y) // size, ns, 0, y)
        elif out or len(y) != n:  # a wrong length: its count, which the host refuses
            answer(0, len(y) // size, ns, fields[4])
        else:
            y_at[:] = y
            answer(0, count, ns, fields[4])
