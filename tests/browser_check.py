#!/usr/bin/env python3
"""Opens a report page (index.html) in headless Chromium at 1366x768 and 390x844 and checks,
from the laid-out DOM: no horizontal overflow outside a scroll container, every top-level SVG
drawn with a non-zero box, no two text boxes of a Pareto plot overlapping, the answer section (#answer) present and visible in the first
viewport (whole at 1366x768: the recommendation needs no scrolling on a laptop), the summary
table (#summary-table) fitting at 1366 px without scrolling and sortable by its header, and no console error or uncaught exception. Screenshots of the
first viewport go to OUTDIR/page-WxH.png for a person to look at.

Chromium is driven through the DevTools protocol over a pipe (--remote-debugging-pipe: JSON
messages ended by NUL on file descriptors 3 and 4), so only Python's standard library is
needed: no websocket client, no port, nothing from a package registry.

usage: browser_check.py PAGE OUTDIR [--chromium PATH] [--full]
  --full  also save a screenshot of the whole page at each size (page-WxH-full.png)
Exit status: 0 every check passed, 1 a check failed (each failure printed), 2 bad usage or
Chromium could not be started.
"""
import argparse
import base64
import json
import os
import select
import shutil
import subprocess
import sys
import tempfile
import time

VIEWPORTS = [(1366, 768), (390, 844)]
TIMEOUT = 20.0  # seconds for one protocol reply or the page load


class Chromium:
    """One headless Chromium, spoken to over the DevTools pipe."""

    def __init__(self, binary):
        self.profile = tempfile.mkdtemp(prefix="gelucheck-chromium-")
        to_chrome_r, self.to_chrome = os.pipe()
        self.from_chrome, from_chrome_w = os.pipe()

        def fds_3_and_4():  # in the child: the pipe ends where Chromium expects them
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)

        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start;
        # --disable-dev-shm-usage: containers often have a tiny /dev/shm.
        args = [binary, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--mute-audio", "--remote-debugging-pipe", "--user-data-dir=" + self.profile,
                "about:blank"]
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                     stderr=subprocess.PIPE, pass_fds=(3, 4),
                                     preexec_fn=fds_3_and_4)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        os.write(self.to_chrome, json.dumps(msg).encode() + b"\0")
        return self.next_id

    def _read_message(self, deadline):
        while b"\0" not in self.buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.from_chrome], [], [], left)[0]:
                raise TimeoutError("no reply from Chromium")
            chunk = os.read(self.from_chrome, 1 << 20)
            if not chunk:
                raise RuntimeError("Chromium closed the pipe: " +
                                   self.proc.stderr.read().decode(errors="replace")[-500:])
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        return json.loads(raw)

    def call(self, method, params=None, session=None):
        """Sends a command and returns its result; events seen meanwhile are kept."""
        wanted = self.send(method, params, session)
        deadline = time.monotonic() + TIMEOUT
        while True:
            msg = self._read_message(deadline)
            if msg.get("id") == wanted:
                if "error" in msg:
                    raise RuntimeError(f"{method}: {msg['error']}")
                return msg.get("result", {})
            self.events.append(msg)

    def wait_event(self, method, session):
        deadline = time.monotonic() + TIMEOUT
        for i, e in enumerate(self.events):
            if e.get("method") == method and e.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            msg = self._read_message(deadline)
            if msg.get("method") == method and msg.get("sessionId") == session:
                return msg
            self.events.append(msg)

    def close(self):
        try:
            self.send("Browser.close")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()
            self.proc.wait()
        os.close(self.to_chrome)
        os.close(self.from_chrome)
        shutil.rmtree(self.profile, ignore_errors=True)


# Runs in the page; returns a list of problems (strings), empty when the layout is right.
LAYOUT_CHECKS = r"""
(() => {
  const problems = [];
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const scrolls = e => { for (let p = e.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === 'auto' || o === 'scroll' || o === 'hidden') return true; } return false; };
  if (document.documentElement.scrollWidth > vw + 1)
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} px wide in a ${vw} px viewport`);
  for (const e of document.body.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1 && !scrolls(e)) {
      problems.push(`<${e.tagName.toLowerCase()}${e.id ? ' id=' + e.id : ''}> reaches x = ${Math.round(r.right)} past the ${vw} px viewport, outside any scroll container`);
      if (problems.length > 5) break;
    }
  }
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(), shown = 0; n && shown < 3; n = walk.nextNode()) {
    const range = document.createRange(); range.selectNodeContents(n);
    const r = range.getBoundingClientRect();
    if (r.width > 0 && r.right > vw + 1 && !n.parentElement.closest('svg') && !scrolls(n)) {
      problems.push(`text "${n.textContent.trim().slice(0, 40)}" in <${n.parentElement.tagName.toLowerCase()}> reaches x = ${Math.round(r.right)} past the ${vw} px viewport`);
      shown++;
    }
  }
  const svgs = [...document.querySelectorAll('svg')].filter(s => !s.parentElement.closest('svg'));
  if (svgs.length === 0) problems.push('no SVG on the page');
  svgs.forEach((s, i) => { const r = s.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) problems.push(`SVG #${i} (${s.closest('figure') ? s.closest('figure').id : '?'}) has an empty box ${r.width}x${r.height}`); });
  // the Pareto plots' labels: no two text boxes of one plot overlap (by more than a pixel)
  document.querySelectorAll('figure[id$="pareto"] svg').forEach(s => {
    const boxes = [...s.querySelectorAll('text')].map(t => [t.textContent.trim(), t.getBoundingClientRect()])
                                                 .filter(([x, r]) => x && r.width > 0);
    for (let i = 0, shown = 0; i < boxes.length && shown < 2; i++)
      for (let j = i + 1; j < boxes.length && shown < 2; j++) {
        const [ta, a] = boxes[i], [tb, b] = boxes[j];
        // gnuplot draws a boxed label twice at one spot (its box, then its text)
        if (ta === tb && Math.abs(a.left - b.left) < 1 && Math.abs(a.top - b.top) < 1) continue;
        if (Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1 &&
            Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1) {
          problems.push(`${s.closest('figure').id}: labels overlap: "${ta}" and "${tb}"`);
          shown++;
        }
      }
  });
  const a = document.getElementById('answer');
  if (!a) problems.push('no #answer section');
  else {
    const r = a.getBoundingClientRect(), st = getComputedStyle(a);
    if (st.display === 'none' || st.visibility === 'hidden' || r.height === 0) problems.push('#answer is not visible');
    if (r.top < 0 || r.top >= vh) problems.push(`#answer starts at y = ${r.top}, outside the first ${vh} px`);
    if (WHOLE) { const t = document.getElementById('summary-table');
      if (!t) problems.push('no #summary-table');
      else if (t.scrollWidth > t.clientWidth + 1) problems.push(`the summary table needs ${t.scrollWidth} px in ${t.clientWidth}: it scrolls sideways`); }
    if (WHOLE && r.bottom > vh) problems.push(`#answer ends at y = ${Math.round(r.bottom)}, below the first ${vh} px: it needs scrolling`);
  }
  return problems;
})()
"""

# Clicks the summary table's "ns/elem" header (sorting by it) and returns the column's numbers
# top to bottom, with the text of the header, or a string saying what is missing.
SORT_CHECK = r"""
(() => {
  const t = document.querySelector('table.sortable');
  if (!t) return 'no table.sortable';
  const ths = [...t.tHead.rows[0].cells];
  const k = ths.findIndex(th => th.dataset.sort === 'num' && /ns\/elem/.test(th.textContent));
  if (k < 0) return 'no sortable ns/elem header';
  ths[k].click();
  const col = [...t.tBodies[0].rows].map(r => r.cells[k].dataset.v)
                                    .filter(v => v !== undefined && v !== '').map(Number);
  return {header: ths[k].textContent, values: col};
})()
"""


def evaluate(chrome, session, expression):
    res = chrome.call("Runtime.evaluate", {"expression": expression, "returnByValue": True},
                      session)
    if "exceptionDetails" in res:
        raise RuntimeError("check script failed: " + json.dumps(res["exceptionDetails"])[:400])
    return res["result"].get("value")


def console_errors(events, session):
    out = []
    for e in events:
        if e.get("sessionId") != session:
            continue
        m, p = e.get("method"), e.get("params", {})
        if m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
            out.append("console." + p["type"] + ": " +
                       " ".join(str(a.get("value", a.get("description"))) for a in p["args"]))
        elif m == "Runtime.exceptionThrown":
            d = p["exceptionDetails"]
            out.append("uncaught: " + d.get("exception", {}).get("description", d.get("text")))
        elif m == "Log.entryAdded" and p["entry"]["level"] == "error":
            out.append("log: " + p["entry"]["text"])
    return out


def check_viewport(chrome, url, width, height, outdir, full):
    target = chrome.call("Target.createTarget", {"url": "about:blank"})["targetId"]
    session = chrome.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log"):
        chrome.call(domain + ".enable", {}, session)
    chrome.call("Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1,
                 "mobile": width < 600}, session)
    chrome.call("Page.navigate", {"url": url}, session)
    chrome.wait_event("Page.loadEventFired", session)
    problems = evaluate(chrome, session, LAYOUT_CHECKS.replace(
        "WHOLE", "true" if width >= 1000 else "false"))
    name = f"page-{width}x{height}"
    shot = chrome.call("Page.captureScreenshot", {"format": "png"}, session)
    with open(os.path.join(outdir, name + ".png"), "wb") as f:
        f.write(base64.b64decode(shot["data"]))
    if full:
        m = chrome.call("Page.getLayoutMetrics", {}, session)["cssContentSize"]
        shot = chrome.call("Page.captureScreenshot", {
            "format": "png", "captureBeyondViewport": True,
            "clip": {"x": 0, "y": 0, "width": m["width"], "height": m["height"], "scale": 1}},
            session)
        with open(os.path.join(outdir, name + "-full.png"), "wb") as f:
            f.write(base64.b64decode(shot["data"]))
    if width >= 1000:
        sort = evaluate(chrome, session, SORT_CHECK)
        if isinstance(sort, str):
            problems.append("sorting: " + sort)
        elif len(sort["values"]) < 2 or sort["values"] != sorted(sort["values"]):
            problems.append(f"sorting by '{sort['header']}' did not order the rows: "
                            f"{sort['values'][:8]}")
    problems += console_errors(chrome.events, session)
    chrome.call("Target.closeTarget", {"targetId": target})
    return [f"{width}x{height}: {p}" for p in problems]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("page")
    ap.add_argument("outdir")
    ap.add_argument("--chromium", default=shutil.which("chromium") or "chromium")
    ap.add_argument("--full", action="store_true")
    a = ap.parse_args()
    if not os.path.isfile(a.page):
        print(f"browser_check: no page '{a.page}'", file=sys.stderr)
        return 2
    if not shutil.which(a.chromium):
        print(f"browser_check: no Chromium '{a.chromium}' (tools/setup.sh installs chromium)",
              file=sys.stderr)
        return 2
    os.makedirs(a.outdir, exist_ok=True)
    url = "file://" + os.path.abspath(a.page)
    chrome = Chromium(a.chromium)
    try:
        problems = []
        for w, h in VIEWPORTS:
            problems += check_viewport(chrome, url, w, h, a.outdir, a.full)
    finally:
        chrome.close()
    for p in problems:
        print("FAIL:", p)
    print(f"browser_check: {len(problems)} problem(s); screenshots in {a.outdir}/")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
