"""How many outputs of a framework row's paths (peers/framework_paths.py) differ from its batch
path: the row's client and one child per path, driven over the exec protocol (version 1, pipes;
docs/protocol.md), the same inputs sent to each in requests of 2^16 as the scan sends them, the
outputs compared by encoding (any NaN equals any NaN). With --positions, a size path's inputs are
sent again shifted by 1 to SIZE-1 places (one filler input in front), so that every input is
taken at every position of its tensor, and the inputs whose output changes with the position are
counted too.

    $VENV/bin/python tools/framework_paths.py [--n N] [--seed S] [--grad] [--positions] \\
        'peers/torch_gelu.py --approximate none' size1 size17 threads2 compile

Inputs: N encodings drawn uniformly over all 2^32 (seed S; every binade alike), binary32. The
clients run with this Python. Prints one line per path and direction.
"""
import argparse
import os
import shlex
import struct
import subprocess
import sys

import numpy as np

REQ, REP = struct.Struct("<4sIQ"), struct.Struct("<4sIQQ")
BATCH = 1 << 16


class Child:
    """A client over the pipes (GELUCHECK_EXEC_SHM left out: protocol version 1)."""

    def __init__(self, argv):
        env = {k: v for k, v in os.environ.items() if k != "GELUCHECK_EXEC_SHM"}
        self.p = subprocess.Popen([sys.executable] + argv, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, env=env)
        self.handshake = []
        while True:
            line = self.p.stdout.readline().decode()
            if not line:
                raise RuntimeError("%s: no handshake" % " ".join(argv))
            if line.strip() == "end":
                break
            self.handshake.append(line.strip())

    def eval(self, op, x):
        out = []
        for at in range(0, len(x), BATCH):
            chunk = np.ascontiguousarray(x[at:at + BATCH], dtype="<f4")
            self.p.stdin.write(REQ.pack(b"GXRQ", op, len(chunk)) + chunk.tobytes())
            self.p.stdin.flush()
            magic, status, count, _ = REP.unpack(self.p.stdout.read(REP.size))
            body = self.p.stdout.read(4 * count if status == 0 else count)
            if status != 0:
                raise RuntimeError(body.decode(errors="replace"))
            out.append(np.frombuffer(body, dtype="<u4"))
        return np.concatenate(out)

    def close(self):
        self.p.stdin.write(REQ.pack(b"GXRQ", 0, 0))
        self.p.stdin.close()
        self.p.wait()


def differing(a, b):
    """Inputs whose outputs differ by encoding, any NaN equal to any NaN."""
    nan_a = (a & 0x7f800000) == 0x7f800000
    nan_a &= (a & 0x7fffff) != 0
    nan_b = ((b & 0x7f800000) == 0x7f800000) & ((b & 0x7fffff) != 0)
    return (a != b) & ~(nan_a & nan_b)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=int, default=1 << 20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--grad", action="store_true")
    p.add_argument("--positions", action="store_true")
    p.add_argument("client")
    p.add_argument("paths", nargs="+")
    a = p.parse_args()
    bits = np.random.default_rng(a.seed).integers(0, 1 << 32, size=a.n, dtype=np.uint64)
    x = bits.astype("<u4").view("<f4")
    client = shlex.split(a.client)
    row = Child(client)
    ops = [(1, "forward")] + ([(2, "derivative")] if a.grad and "derivative yes" in row.handshake else [])
    base = {op: row.eval(op, x) for op, _ in ops}
    row.close()
    for path in a.paths:
        c = Child(client + ["--path", path])
        for op, what in ops:
            y = c.eval(op, x)
            d = differing(base[op], y)
            line = "%-18s %-10s %8d of %d differ from the batch path" % (path, what, d.sum(), len(x))
            if d.any():
                line += " (first at x = %s)" % float(x[np.argmax(d)]).hex()
            if a.positions and path.startswith("size"):
                moved = np.zeros(len(x), dtype=bool)
                for k in range(1, int(path[4:])):
                    shifted = c.eval(op, np.concatenate([np.ones(k, "<f4"), x]))[k:]
                    moved |= differing(y, shifted)
                line += "; %d change with the position in the tensor" % moved.sum()
            print(line, flush=True)
        c.close()


if __name__ == "__main__":
    sys.exit(main())
