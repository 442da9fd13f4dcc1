#!/usr/bin/env python3
"""Load benchmark of `chess960 serve`: memory after many games, and latency under deep searches.

Starts the given `chess960` binary on a fresh database and a free port, then:

1. memory: plays GAMES games against the engine at the web UI's default level (Elo 1500),
   a few moves each, leaves them, waits until the server has unloaded the idle games
   (`--unload-after`), and reads the server's resident memory (VmRSS) and its peak (VmHWM)
   from /proc;
2. latency: creates DEEP games in which the engine (depth 30) is to move, so that DEEP
   deep searches wait in the search pool, then plays MOVES moves in other games and times
   how long each takes to be acknowledged (the engine's replies to those moves wait in the
   queue too; the acknowledgement of the move must not).

Prints the figures and the issue's targets (resident memory under 200 MB after 2,000 games;
p99 under 50 ms with 500 searches queued). With --check it exits 1 when a target is missed.
Only the standard library is used.

    python3 scripts/server-load.py target/release/chess960
    python3 scripts/server-load.py target/ci/chess960 --games 300 --deep 100 --check
"""

import argparse
import http.client
import json
import os
import re
import subprocess
import sys
import tempfile
import time


def rss_kib(pid, field="VmRSS"):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {field} for process {pid}")


class Client:
    """One keep-alive HTTP connection to the server."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
        self.seats = {}

    def request(self, method, path, body=None, seat=None):
        headers = {}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if seat:
            headers["X-Seat-Token"] = seat
        for attempt in range(3):
            try:
                self.conn.request(method, path, body=data, headers=headers)
                resp = self.conn.getresponse()
                text = resp.read()
                break
            except (ConnectionError, http.client.HTTPException):
                if attempt == 2:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
        value = json.loads(text) if text else None
        return resp.status, value

    def new_game(self, body):
        status, view = self.request("POST", "/api/games", body)
        if status != 201:
            raise RuntimeError(f"new game: {status} {view}")
        # Servers before seat tokens answer without one; the header is then ignored.
        self.seats[view["key"]] = view.get("seat_token")
        return view

    def move(self, view, uci):
        key = view["key"]
        body = {"move": uci, "ply": len(view["moves"])}
        status, after = self.request(
            "POST", f"/api/games/{key}/moves", body, seat=self.seats.get(key)
        )
        if status != 200:
            raise RuntimeError(f"move {uci}: {status} {after}")
        return after

    def view(self, key):
        status, view = self.request("GET", f"/api/games/{key}")
        if status != 200:
            raise RuntimeError(f"view: {status} {view}")
        return view

    def wait_turn(self, key, timeout=60):
        deadline = time.monotonic() + timeout
        while True:
            v = self.view(key)
            if v["status"] == "finished" or (v["status"] == "playing" and v["turn"] == v["human"]):
                return v
            if time.monotonic() > deadline:
                raise RuntimeError(f"game {key}: the engine did not move within {timeout} s")
            time.sleep(0.002)


def start_server(binary, db, unload_after, threads):
    cmd = [binary, "serve", "--port", "0", "--db", db]
    if unload_after is not None:
        cmd += ["--unload-after", str(unload_after)]
    if threads is not None:
        cmd += ["--search-threads", str(threads)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not m:
        proc.kill()
        raise RuntimeError(f"the server did not start: {line!r} {proc.stderr.read()!r}")
    return proc, int(m.group(1))


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))]


def memory_phase(client, pid, games, plies, elo, wait_unload):
    started = time.monotonic()
    for i in range(games):
        view = client.new_game({"start": {"id": i % 960}, "level": {"elo": elo}, "color": "white"})
        for _ in range(plies):
            if view["status"] != "playing" or not view["legal"]:
                break
            view = client.move(view, view["legal"][0]["uci"])
            view = client.wait_turn(view["key"])
        if (i + 1) % 500 == 0:
            print(f"  {i + 1} games, {rss_kib(pid) / 1024:.0f} MiB resident", flush=True)
    played = time.monotonic() - started
    # Let the server unload the games now idle.
    time.sleep(wait_unload)
    status, load = client.request("GET", "/api/server")
    in_memory = load["games_in_memory"] if status == 200 else None
    return played, rss_kib(pid), rss_kib(pid, "VmHWM"), in_memory


def latency_phase(client, deep, moves):
    started = time.monotonic()
    for i in range(deep):
        # The engine plays White at depth 30: its search starts (or queues) at once.
        client.new_game({"start": {"id": i % 960}, "level": {"depth": 30}, "color": "black"})
    created = time.monotonic() - started
    status, load = client.request("GET", "/api/server")
    waiting = load["searches"]["waiting"] if status == 200 else None
    times = []
    new_game_times = []
    while len(times) < moves:
        t0 = time.perf_counter()
        view = client.new_game({"start": {"id": 518}, "level": {"elo": 1110}, "color": "white"})
        new_game_times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        client.move(view, view["legal"][0]["uci"])
        times.append(time.perf_counter() - t0)
    return created, waiting, times, new_game_times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binary", help="the chess960 binary (e.g. target/release/chess960)")
    ap.add_argument("--games", type=int, default=2000, help="games for the memory phase (2000)")
    ap.add_argument("--plies", type=int, default=3, help="moves of the human per game (3)")
    ap.add_argument("--elo", type=int, default=1500, help="the engine's level in the memory phase (1500)")
    ap.add_argument("--deep", type=int, default=500, help="deep searches queued (500)")
    ap.add_argument("--moves", type=int, default=200, help="moves timed under load (200)")
    ap.add_argument("--unload-after", type=int, default=2,
                    help="the server's --unload-after, seconds (2); 0: do not pass it (old servers)")
    ap.add_argument("--search-threads", type=int, default=None, help="the server's --search-threads")
    ap.add_argument("--check", action="store_true", help="exit 1 if a target is missed")
    args = ap.parse_args()

    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "games.sqlite3")
        unload = args.unload_after or None
        proc, port = start_server(args.binary, db, unload, args.search_threads)
        ok = True
        try:
            client = Client(port)
            print(f"server pid {proc.pid} on port {port}; {rss_kib(proc.pid) / 1024:.0f} MiB resident at start")
            if args.games:
                played, rss, hwm, in_memory = memory_phase(
                    client, proc.pid, args.games, args.plies, args.elo, (unload or 0) * 2 + 1)
                print(f"memory: {args.games} games of {args.plies} moves each (Elo {args.elo}) in {played:.1f} s; "
                      f"afterwards {rss / 1024:.0f} MiB resident (peak {hwm / 1024:.0f} MiB), "
                      f"{in_memory if in_memory is not None else '?'} games in memory "
                      f"[target: under 200 MB]")
                if rss * 1024 >= 200e6:
                    ok = False
            if args.deep:
                created, waiting, times, new_times = latency_phase(client, args.deep, args.moves)
                p50, p99, worst = (percentile(times, 50) * 1000, percentile(times, 99) * 1000,
                                   max(times) * 1000)
                n50, n99 = percentile(new_times, 50) * 1000, percentile(new_times, 99) * 1000
                print(f"latency: {args.deep} deep searches created in {created:.1f} s "
                      f"({waiting if waiting is not None else '?'} waiting); "
                      f"{len(times)} moves in other games acknowledged in p50 {p50:.1f} ms, "
                      f"p99 {p99:.1f} ms, max {worst:.1f} ms; new games p50 {n50:.1f} ms, "
                      f"p99 {n99:.1f} ms [target: p99 under 50 ms]")
                if p99 >= 50:
                    ok = False
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
    if args.check and not ok:
        print("a target was missed", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
