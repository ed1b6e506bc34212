"""Live-update latency: N phones watching a scoreboard over server-sent events while events arrive.

Starts the real dashboard (waitress, 127.0.0.1, a throw-away record), opens N event streams,
posts events through the JSON API and measures, per phone and event, the time from the
POST being sent to the phone receiving the update. The baseline is one phone, measured in
the same process.

    python benchmarks/bench_webui_live.py --phones 20 --events 60
"""

from __future__ import annotations

import argparse
import http.client
import json
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webui import create_app, make_server  # noqa: E402

PIN = "246810"


def watch(port: int, match_id: str, since: int, received: dict[int, float], ready: threading.Event, stop: threading.Event) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    connection.request("GET", f"/m/{match_id}/live?since={since}")
    response = connection.getresponse()
    ready.set()
    while not stop.is_set():
        line = response.fp.readline()
        if not line:
            break
        if line.startswith(b"id: "):
            received[int(line[4:])] = time.perf_counter()
    connection.close()


def post(connection: http.client.HTTPConnection, path: str, body: dict) -> dict:
    connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json", "X-Table-Pin": PIN})
    response = connection.getresponse()
    data = json.loads(response.read())
    if response.status != 201:
        raise RuntimeError(f"POST {path} answered {response.status}: {data}")
    return data


def measure(phones: int, events: int, interval: float) -> list[float]:
    """Latencies in milliseconds, one per (phone, event)."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/record.sqlite3", "PIN": PIN, "SSE_LIFETIME": 3600.0})
        server = make_server(app, port=0, threads=phones + 8)
        threading.Thread(target=server.run, daemon=True).start()
        port = server.effective_port
        poster = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        created = post(poster, "/api/matches", {"players": ["Ann", "Ben"]})
        match_id, since = created["match_id"], created["id"]
        stop = threading.Event()
        inboxes: list[dict[int, float]] = [{} for _ in range(phones)]
        readies = [threading.Event() for _ in range(phones)]
        watchers = [threading.Thread(target=watch, args=(port, match_id, since, inbox, ready, stop), daemon=True)
                    for inbox, ready in zip(inboxes, readies)]
        for watcher in watchers:
            watcher.start()
        for ready in readies:
            ready.wait(10)
        time.sleep(0.5)
        sent: dict[int, float] = {}
        for n in range(events):
            start = time.perf_counter()
            event = post(poster, f"/api/matches/{match_id}/events", {"kind": "discard", "payload": {"player": "Ann", "card": "KS"}})
            sent[event["id"]] = start
            time.sleep(interval)
            if (n + 1) % 20 == 0:
                print(f"  {phones} phones: {n + 1}/{events} events", file=sys.stderr, flush=True)
        time.sleep(1.0)
        stop.set()
        server.close()
    latencies, missed = [], 0
    for inbox in inboxes:
        for event_id, start in sent.items():
            if event_id in inbox:
                latencies.append((inbox[event_id] - start) * 1000)
            else:
                missed += 1
    if missed:
        print(f"  {missed} of {len(sent) * phones} updates never arrived", file=sys.stderr)
    return latencies


def summary(latencies: list[float]) -> str:
    ordered = sorted(latencies)
    p95 = ordered[int(0.95 * (len(ordered) - 1))]
    return f"median {statistics.median(ordered):6.1f} ms  p95 {p95:6.1f} ms  max {ordered[-1]:6.1f} ms  (n={len(ordered)})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--phones", type=int, default=20, help="watching phones (event streams)")
    parser.add_argument("--events", type=int, default=60, help="events posted")
    parser.add_argument("--interval", type=float, default=0.1, help="seconds between events")
    args = parser.parse_args()
    baseline = measure(1, args.events, args.interval)
    loaded = measure(args.phones, args.events, args.interval)
    print(f"1 phone   : {summary(baseline)}")
    print(f"{args.phones} phones: {summary(loaded)}")
    print(f"median ratio {args.phones} phones / 1 phone: {statistics.median(loaded) / statistics.median(baseline):.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
