#!/usr/bin/env python3
"""Load benchmark of `chess960 serve`: memory after many games, and latency under deep searches.

Starts the given `chess960` binary on a fresh database and a free port, then:

1. memory: plays GAMES games against the engine at the web UI's default level (Elo 1500),
   a few moves each, leaves them, waits until the server has unloaded the idle games
   (`--unload-after`), and reads the server's resident memory (VmRSS) and its peak (VmHWM)
   from /proc;
2. flood (with --flood N): N rounds of hostile and ordinary requests over every route at once
   (games of every kind and their actions, analyses, events and their pairing, exports, the
   explorer, oversized, deep and malformed bodies, connections dropped mid-request), then
   idle until the games are unloaded: the resident memory must come back to within 32 MiB of
   what the server held after the memory phase (the search threads' tables are in both);
3. latency: creates DEEP games in which the engine (depth 30) is to move, so that DEEP
   deep searches wait in the search pool, then plays MOVES moves in other games and times
   how long each takes to be acknowledged (the engine's replies to those moves wait in the
   queue too; the acknowledgement of the move must not).

Prints the figures and the issues' targets (resident memory under 200 MB after 2,000 games;
after floods, back to within 32 MiB of that; p99 under 50 ms with 500 searches queued). With --check it exits 1 when a target is missed.
Only the standard library is used.

    python3 scripts/server-load.py target/release/chess960
    python3 scripts/server-load.py target/ci/chess960 --games 300 --deep 100 --check
"""

import argparse
import http.client
import json
import os
import random
import re
import socket
import subprocess
import sys
import tempfile
import threading
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


def flood_requests(rng):
    """One round's requests: (method, path, body bytes or None, headers), ordinary and
    hostile, over every route."""
    key = "0123456789abcdef0123456789abcdef"
    json_type = {"Content-Type": "application/json"}
    reqs = []

    def add(method, path, body=None, headers=None, raw=None):
        data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
        reqs.append((method, path, data, dict(json_type if data is not None else {}, **(headers or {}))))

    for i in range(20):
        sid = rng.randrange(960)
        add("POST", "/api/games", {"start": {"id": sid}, "level": {"depth": 1}, "color": "white"})
        add("POST", "/api/games", {"start": {"id": sid}, "opponent": "human", "name": f"F{i}"})
        add("POST", "/api/games", {"start": {"id": sid}, "opponent": "hotseat", "name": "A",
                                   "opponent_name": "B"})
        add("POST", "/api/games", {"start": {"northam": True}, "opponent": "human"})
        add("POST", "/api/games", {"start": {"fen": "x" * 5000}})
        add("POST", "/api/games", None, raw=b"[" * 100000 + b"]" * 100000)
        add("POST", "/api/games", None, raw=b"{" + b" " * (900 * 1024) + b"}")
        add("POST", "/api/games", None, raw=b"{\"start\": 7", headers={"Content-Type": "text/plain"})
        add("POST", "/api/analysis/position", {"moves": ["e2e4"] * 700})
        add("POST", "/api/analysis/position", {"fen": "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                                               "moves": ["e7e5", "g1f3"]})
        add("GET", f"/api/explorer?fen=rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR%20w%20KQkq%20-%200%201&start={sid}")
        add("GET", f"/api/positions/{sid}")
        add("GET", "/api/positions?limit=960")
        add("GET", "/api/tables")
        add("GET", "/api/fairness")
        add("POST", "/api/draw", {"method": "die", "outcomes": "1,2,3,4,5"})
        add("GET", "/api/games?limit=100")
        add("GET", "/api/games/now")
        add("GET", "/api/lobby")
        add("GET", "/api/server")
        add("GET", f"/api/games/{key}")
        add("POST", f"/api/games/{key}/moves", {"move": "e2e4", "ply": 0})
        add("GET", f"/api/games/{key}/pgn")
        add("GET", "/api/games/" + "k" * 4000)
        add("POST", "/api/events", {"name": f"Flood {i}", "format": "swiss", "rounds": 5})
        add("GET", "/api/events")
        add("GET", f"/api/events/{key}")
        add("GET", "/" + "a/" * 1000)
        add("GET", "/")
        add("DELETE", f"/api/games/{key}")
    rng.shuffle(reqs)
    return reqs


def flood_once(port, rng, threads=32):
    """Sends one round of flood_requests from `threads` connections at once, following up on
    what they create (moves, joins, analyses, event players and pairings, exports); a few
    connections are cut mid-request. Returns the count of requests and of 5xx answers."""
    reqs = flood_requests(rng)
    lock = threading.Lock()
    counts = {"sent": 0, "5xx": 0}
    made = []

    def send(conn, method, path, data, headers):
        conn.request(method, path, body=data, headers=headers)
        resp = conn.getresponse()
        text = resp.read()
        with lock:
            counts["sent"] += 1
            if resp.status >= 500:
                counts["5xx"] += 1
        return resp.status, text

    def worker(part):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        for method, path, data, headers in part:
            try:
                status, text = send(conn, method, path, data, headers)
                if status == 201 and path in ("/api/games", "/api/events"):
                    view = json.loads(text)
                    with lock:
                        made.append((path, view))
            except (ConnectionError, http.client.HTTPException, OSError):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conn.close()

    parts = [reqs[i::threads] for i in range(threads)]
    ts = [threading.Thread(target=worker, args=(p,)) for p in parts]
    for t in ts:
        t.start()
    # Cut connections: a head, part of a body, gone.
    for _ in range(50):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                      b"Content-Length: 500000\r\n\r\n{\"start\": ")
            s.close()
        except OSError:
            pass
    for t in ts:
        t.join()

    # Follow-ups on what was made: moves, joins, analyses, exports, event players and pairings.
    follow = []
    for path, v in made:
        if path == "/api/games":
            k, seat = v["key"], v.get("seat_token")
            h = {"X-Seat-Token": seat} if seat else {}
            if v.get("legal"):
                follow.append(("POST", f"/api/games/{k}/moves",
                               json.dumps({"move": v["legal"][0]["uci"], "ply": len(v["moves"])}).encode(),
                               dict(h, **{"Content-Type": "application/json"})))
            follow.append(("POST", f"/api/games/{k}/join", b"{}", {"Content-Type": "application/json"}))
            follow.append(("POST", f"/api/games/{k}/analysis", json.dumps({"nodes": 2000}).encode(),
                           dict(h, **{"Content-Type": "application/json"})))
            follow.append(("GET", f"/api/games/{k}/pgn", None, {}))
            follow.append(("POST", f"/api/games/{k}/resign", b"{}", dict(h, **{"Content-Type": "application/json"})))
        else:
            k, tok = v["key"], v["arbiter_token"]
            h = {"X-Arbiter-Token": tok, "Content-Type": "application/json"}
            for n in range(12):
                follow.append(("POST", f"/api/events/{k}/players",
                               json.dumps({"name": f"P{n} " + "x" * rng.randrange(200)}).encode(), h))
            follow.append(("POST", f"/api/events/{k}/rounds/1/draw",
                           json.dumps({"method": "die", "outcomes": "1,1,1,1,1"}).encode(), h))
            follow.append(("POST", f"/api/events/{k}/rounds/1/pair", b"{}", h))
            follow.append(("GET", f"/api/events/{k}/export?format=pgn", None, {}))
            follow.append(("GET", f"/api/events/{k}", None, {}))
    # Events in order (players before the pairing), spread over a few connections.
    by_target = {}
    for r in follow:
        by_target.setdefault(r[1].split("/")[3], []).append(r)
    groups = list(by_target.values())
    ts = [threading.Thread(target=worker, args=([r for g in groups[i::threads] for r in g],))
          for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    return counts["sent"], counts["5xx"]


def flood_phase(client, pid, rounds, wait_unload):
    rng = random.Random(37)
    sent = errors = 0
    peak = 0
    for r in range(rounds):
        n, e = flood_once(client.port, rng)
        sent += n
        errors += e
        peak = max(peak, rss_kib(pid))
        print(f"  flood {r + 1}: {n} requests, {e} answers of 5xx; {rss_kib(pid) / 1024:.0f} MiB resident",
              flush=True)
    time.sleep(wait_unload)
    status, load = client.request("GET", "/api/server")
    in_memory = load["games_in_memory"] if status == 200 else None
    return sent, errors, rss_kib(pid), peak, in_memory


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
    ap.add_argument("--flood", type=int, default=0,
                    help="rounds of hostile and ordinary requests after the memory phase (0)")
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
                if args.flood:
                    sent, errors, after, peak, left = flood_phase(
                        client, proc.pid, args.flood, (unload or 0) * 2 + 3)
                    print(f"flood: {args.flood} rounds, {sent} requests, {errors} answers of 5xx; "
                          f"idle afterwards {after / 1024:.0f} MiB resident (peak {peak / 1024:.0f} MiB), "
                          f"{left if left is not None else '?'} games in memory "
                          f"[target: no 5xx; within 32 MiB of {rss / 1024:.0f} MiB]")
                    if errors or after > rss + 32 * 1024:
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
