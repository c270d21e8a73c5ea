#!/usr/bin/env python3
"""CPU seconds (user+sys) of a command and of every process it starts, killed ones included.

    tools/tree_cpu_seconds.py COMMAND [ARGS...]

Prints "cpu_s=U+S wall_s=W processes=N" to stderr after the command ends and exits with its
status. Why not /usr/bin/time: it counts only children that were waited for, and gelucheck
SIGKILLs an exec child (a framework's Python) that has not exited 200 ms after its input
closed, so those children's CPU time never reaches the parent's rusage. Here every descendant's
own utime+stime is read from /proc/PID/stat every 50 ms and the last reading of each process is
summed: low by at most the last 50 ms of each process (a few per run). Linux only.
"""
import os
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def stat_of(pid):
    """(ppid, utime+stime in ticks) of PID, or None once it is gone."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            s = f.read()
    except OSError:
        return None
    fields = s[s.rindex(")") + 2:].split()  # after "pid (comm) "
    return int(fields[1]), int(fields[11]) + int(fields[12])


def main():
    if len(sys.argv) < 2:
        print("usage: tree_cpu_seconds.py COMMAND [ARGS...]", file=sys.stderr)
        return 2
    start = time.monotonic()
    child = subprocess.Popen(sys.argv[1:])
    last = {}  # pid -> last utime+stime seen (ticks), for the command's descendants
    tree = {child.pid}
    while True:
        done = child.poll() is not None
        procs = {}
        for name in os.listdir("/proc"):
            if name.isdigit():
                st = stat_of(int(name))
                if st:
                    procs[int(name)] = st
        grew = True
        while grew:  # descendants: parents first, whatever the listing's order
            grew = False
            for pid, (ppid, _) in procs.items():
                if ppid in tree and pid not in tree:
                    tree.add(pid)
                    grew = True
        for pid in tree & procs.keys():
            last[pid] = procs[pid][1]
        if done:
            break
        time.sleep(0.05)
    total = sum(last.values()) / TICK
    print("cpu_s=%.2f wall_s=%.2f processes=%d" % (total, time.monotonic() - start, len(last)),
          file=sys.stderr)
    return child.returncode


if __name__ == "__main__":
    sys.exit(main())
