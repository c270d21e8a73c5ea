"""The paths a framework's GELU takes, as variants of its row (docs/frameworks.md, "Paths"):
the same function called another way — on tensors of another size, on two intra-op threads,
compiled, fused into a graph — may run other code and give other bits. A client lists its paths
as data, one (name, what, how) per path, and serves one of them per process:

    python3 torch_gelu.py --approximate none --list-paths     # NAME<TAB>what, one a line
    python3 torch_gelu.py --approximate none --path size7     # handshake name torch_gelu@size7

--list-paths answers before the client imports its framework (a few hundred ms, not seconds),
so gelucheck can read every client's list cheaply. The default row (no --path) is the batch
path: the scan's requests (up to 2^16 inputs) as one tensor each.

This module uses the standard library only; the clients import it before their framework.
"""
import sys

# 1 and every size up to twice the widest vector width plus one, so that every size puts inputs
# in the vector body and in every tail length: 2 x 16 binary32 lanes (AVX-512) + 1 = 33; a
# 16-bit dtype's vectors hold twice as many lanes (PyTorch's Vectorized<BFloat16> and <Half> are
# 32 wide on AVX-512), so 2 x 32 + 1 = 65.
SIZES = tuple(range(1, 34))
SIZES16 = tuple(range(1, 66))


def format_arg(argv):
    """The --format F (or --format=F) of argv; binary32 without."""
    for i, a in enumerate(argv):
        if a == "--format" and i + 1 < len(argv):
            return argv[i + 1]
        if a.startswith("--format="):
            return a[9:]
    return "binary32"


def size_paths(argv=None):
    """One path per tensor size (SIZES, or SIZES16 for a 16-bit --format in argv, sys.argv by
    default): (name, what, size)."""
    sizes = SIZES if format_arg(sys.argv if argv is None else argv) == "binary32" else SIZES16
    return [("size%d" % s, "the scan's requests cut into tensors of %d element%s, one call each "
             "(input k of a request at position k mod %d)" % (s, "" if s == 1 else "s", s), s)
            for s in sizes]


def list_and_exit_if_asked(argv, paths):
    """--list-paths in argv: print the paths (NAME<TAB>what, and <TAB>SIZE for a size path, which
    the row's own child also serves as a cut: docs/protocol.md, "Cuts") and exit 0."""
    if "--list-paths" in argv:
        for name, what, how in paths:
            print("%s\t%s%s" % (name, what, "\t%d" % how if isinstance(how, int) else ""))
        sys.exit(0)


def cut_of(itemsize, path):
    """serve()'s cut for a row's batch path (path None): a size's kernel, the row's in tensors
    of that size (in_tensors_of); None for another path, which serves no cuts."""
    if path is not None:
        return None
    return lambda fn, size: in_tensors_of(fn, size, itemsize)


def path_arg(argv, paths):
    """The path --path NAME asks for, as its (name, what, how) entry; None without --path. A name
    the client does not list: exit 2 with the list."""
    name = None
    for i, a in enumerate(argv):
        if a == "--path" and i + 1 < len(argv):
            name = argv[i + 1]
        elif a.startswith("--path="):
            name = a[7:]
    if name is None:
        return None
    for p in paths:
        if p[0] == name:
            return p
    sys.stderr.write("%s: no path '%s' (its paths: %s)\n" % (argv[0], name, " ".join(p[0] for p in paths)))
    sys.exit(2)


def strip_path_args(argv):
    """argv without --path NAME, --path=NAME and --list-paths (for the client's own parser)."""
    out, skip = [], False
    for a in argv:
        if skip:
            skip = False
        elif a == "--path":
            skip = True
        elif not (a.startswith("--path=") or a == "--list-paths"):
            out.append(a)
    return out


def in_tensors_of(fn, size, itemsize):
    """fn (bytes of n values -> n values) applied to consecutive pieces of `size` values of its
    input, one call each (the last piece shorter when n is not a multiple), the outputs joined."""
    def call(buf):
        mv = memoryview(buf).cast("B")
        step = size * itemsize
        parts = []
        for at in range(0, len(mv), step):
            y = fn(mv[at:at + step])
            parts.append(bytes(memoryview(y).cast("B")) if not hasattr(y, "tobytes") else y.tobytes())
        return b"".join(parts)
    return call


def row_name(name, path):
    """The row's name: NAME for the batch path, NAME@PATH for another."""
    return name if path is None else "%s@%s" % (name, path[0])
