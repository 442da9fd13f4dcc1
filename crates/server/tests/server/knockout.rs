//! Knockout events over HTTP: a plan of the arbiter's, the bracket with its byes, a tied
//! match going to its tiebreak stage (its own position and clock), the rounds after, the
//! champion and the placings; the routes of the tiebreaks are the arbiter's only, a bad plan
//! is refused with the field named, and TRF (one game per player and round) is refused.

use crate::common;

use common::{app_on, App, Reply};
use serde_json::{json, Value};

async fn arb(a: &App, key: &str, path: &str, body: Value, token: &str) -> Reply {
    a.arbiter(key, path, body, token).await
}

/// Posts as the arbiter and insists on 200.
async fn ok(a: &App, key: &str, path: &str, body: Value, token: &str) -> Value {
    let r = arb(a, key, path, body, token).await;
    assert_eq!(r.status, 200, "{path}: {}", r.text);
    r.json
}

/// The result of `board` that makes `winner` (a player number) win it, given the view's
/// boards of the round.
fn win_for(boards: &Value, board: usize, winner: u64) -> &'static str {
    if boards[board - 1]["white"] == winner {
        "1-0"
    } else {
        assert_eq!(boards[board - 1]["black"], winner, "{boards}");
        "0-1"
    }
}

/// Enters `result` on board `board` of `round`.
async fn result(a: &App, key: &str, token: &str, round: u32, board: usize, result: &str) -> Value {
    ok(
        a,
        key,
        &format!("/rounds/{round}/boards/{board}/result"),
        json!({ "result": result }),
        token,
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arbiter_runs_a_knockout_over_http() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    let made = a
        .post(
            "/api/events",
            json!({
                "name": "Knockout 960",
                "format": "knockout",
                "time_control": "90+30",
                "knockout": {
                    "games": 2,
                    "seeding": "rating",
                    "tiebreaks": [
                        {"kind": "rapid", "games": 2, "time_control": "10+5"},
                        {"kind": "armageddon", "time_control": "5+0"}
                    ]
                }
            }),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let key = made.json["key"].as_str().unwrap().to_string();
    let token = made.json["arbiter_token"].as_str().unwrap().to_string();
    let ko = &made.json["knockout"];
    assert_eq!(made.json["format"], "knockout");
    assert_eq!(ko["games"], 2);
    assert_eq!(ko["seeding"], "rating");
    assert_eq!(ko["tiebreaks"][0]["kind"], "rapid");
    assert_eq!(ko["tiebreaks"][0]["time_control"], "10+5");
    assert_eq!(ko["tiebreaks"][1]["kind"], "armageddon");
    assert_eq!(ko["tiebreaks"][1]["games"], 1, "an Armageddon is one game");
    assert!(
        ko["description"].as_str().unwrap().contains("rapid"),
        "{ko}"
    );
    assert_eq!(ko["bracket"], json!([]), "no bracket before round 1");
    assert_eq!(ko["champion"], Value::Null);
    for (k, n) in ["Ann", "Ben", "Cid", "Dora", "Eve"].iter().enumerate() {
        ok(
            &a,
            &key,
            "/players",
            json!({"name": n, "rating": 2500 - 100 * k as u16}),
            &token,
        )
        .await;
    }
    let v = a.get(&format!("/api/events/{key}")).await.json;
    assert_eq!(v["rounds"], 3, "5 players: 3 rounds");

    // Round 1: the top three seeds have byes, 4 meets 5 over two games, colours swapped.
    ok(
        &a,
        &key,
        "/rounds/1/draw",
        json!({"method": "set", "id": 100}),
        &token,
    )
    .await;
    let v = ok(&a, &key, "/rounds/1/pair", json!({}), &token).await;
    let r1 = &v["round_list"][0];
    let byes: Vec<&Value> = r1["byes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| &b["player"])
        .collect();
    assert_eq!(byes, [&json!(1), &json!(2), &json!(3)], "{r1}");
    let boards = r1["boards"].as_array().unwrap();
    assert_eq!(boards.len(), 2, "{r1}");
    assert_eq!(boards[0]["white"], boards[1]["black"]);
    assert_eq!(boards[0]["black"], boards[1]["white"]);
    for b in boards {
        assert_eq!(
            (b["match"].clone(), b["stage"].clone()),
            (json!(2), json!(0))
        );
        assert_eq!(b["time_control"], "90+30");
        assert_eq!(b["position"]["id"], 100);
    }
    assert_eq!(r1["stage_draws"], json!([]));
    let br = &v["knockout"]["bracket"];
    assert_eq!(br.as_array().unwrap().len(), 3, "{br}");
    assert_eq!(br[0][0]["state"], "bye");
    assert_eq!(br[0][0]["winner"], 1);
    assert_eq!(br[0][0]["second"], Value::Null);
    let m = &br[0][1];
    assert_eq!(
        (m["first"].clone(), m["second"].clone()),
        (json!(4), json!(5))
    );
    assert_eq!(m["state"], "playing");
    assert_eq!(m["stage"], 0);
    assert_eq!(m["stages"][0]["label"], "Games");
    assert_eq!(m["stages"][0]["kind"], Value::Null);
    assert_eq!(m["stages"][0]["boards"], json!([1, 2]));
    assert_eq!(br[1][0]["state"], "waiting");
    assert_eq!(br[1][1]["state"], "unpaired", "2 v 3 are known");

    // White wins both games: 1–1, tied.
    result(&a, &key, &token, 1, 1, "1-0").await;
    let v = result(&a, &key, &token, 1, 2, "1-0").await;
    let m = &v["knockout"]["bracket"][0][1];
    assert_eq!(m["state"], "tied", "{m}");
    assert_eq!(m["stage"], 1, "the next stage");
    assert_eq!(m["stages"][0]["points"], json!([1.0, 1.0]));
    assert_eq!(m["stages"][0]["complete"], true);
    let early = arb(&a, &key, "/rounds/2/pair", json!({}), &token).await;
    assert_eq!(
        early.status, 409,
        "a tied match holds the next round: {}",
        early.text
    );
    assert!(
        early.text.contains("match 2 of round 1 is tied"),
        "{}",
        early.text
    );
    assert!(
        early.error().contains("match 2 of round 1 is tied"),
        "{}",
        early.text
    );

    // The tiebreaks: two rapid games; their games wait for the stage's position.
    let t = ok(&a, &key, "/rounds/1/tiebreaks", json!({"seed": 7}), &token).await;
    assert_eq!(t["added"], json!([2]));
    let boards = t["round_list"][0]["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), 4);
    for b in &boards[2..] {
        assert_eq!(
            (b["match"].clone(), b["stage"].clone()),
            (json!(2), json!(1))
        );
        assert_eq!(b["time_control"], "10+5");
        assert_eq!(b["position"], Value::Null, "not drawn yet");
    }
    assert_eq!(t["knockout"]["bracket"][0][1]["state"], "playing");
    assert_eq!(
        t["knockout"]["bracket"][0][1]["stages"][1]["label"],
        "Rapid"
    );
    assert_eq!(t["knockout"]["bracket"][0][1]["stages"][1]["kind"], "rapid");
    let again = arb(&a, &key, "/rounds/1/tiebreaks", json!({}), &token).await;
    assert_eq!(again.status, 409, "nothing tied: {}", again.text);
    let early = arb(&a, &key, "/rounds/1/games", json!({}), &token).await;
    assert_eq!(early.status, 409, "{}", early.text);
    assert_eq!(
        early.error(),
        "round 1, board 3: draw the position of tiebreak stage 1 first"
    );
    let d = ok(
        &a,
        &key,
        "/rounds/1/stages/1/draw",
        json!({"method": "die", "outcomes": "1,1,1,1,1"}),
        &token,
    )
    .await;
    let sd = &d["round_list"][0]["stage_draws"][0];
    assert_eq!(sd["stage"], 1, "{sd}");
    assert_eq!(sd["how"]["method"], "die");
    assert!(sd["steps"].as_array().unwrap().len() >= 5);
    let id = sd["position"]["id"].clone();
    assert_ne!(id, json!(100), "a new position");
    for b in &d["round_list"][0]["boards"].as_array().unwrap()[2..] {
        assert_eq!(b["position"]["id"], id);
    }
    assert_eq!(d["round_list"][0]["boards"][0]["position"]["id"], 100);
    let twice = arb(
        &a,
        &key,
        "/rounds/1/stages/1/draw",
        json!({"method": "set", "id": 5}),
        &token,
    )
    .await;
    assert_eq!(twice.status, 400, "{}", twice.text);
    assert!(twice.error().contains("replace"), "{}", twice.text);
    // The rapid games on the server: the stage's position and clock.
    let g = ok(&a, &key, "/rounds/1/games", json!({}), &token).await;
    let games = g["games"].as_array().unwrap();
    assert_eq!(
        games.iter().map(|x| x["board"].clone()).collect::<Vec<_>>(),
        [json!(3), json!(4)]
    );
    let game = a
        .get(&format!("/api/games/{}", games[0]["key"].as_str().unwrap()))
        .await;
    assert_eq!(game.json["start_id"], id, "{}", game.text);
    assert_eq!(
        game.json["time_control"],
        json!({"initial_ms": 600_000, "increment_ms": 5000})
    );
    // Dora (4) wins both rapid games.
    let boards = g["round_list"][0]["boards"].clone();
    result(&a, &key, &token, 1, 3, win_for(&boards, 3, 4)).await;
    let v = result(&a, &key, &token, 1, 4, win_for(&boards, 4, 4)).await;
    let m = &v["knockout"]["bracket"][0][1];
    assert_eq!(m["state"], "won", "{m}");
    assert_eq!(
        (m["winner"].clone(), m["stage"].clone()),
        (json!(4), json!(1))
    );
    assert_eq!(m["stages"][1]["points"], json!([2.0, 0.0]));

    // Round 2: Ann v Dora, Ben v Cid; Ann wins 2–0, Cid 1.5–0.5.
    ok(
        &a,
        &key,
        "/rounds/2/draw",
        json!({"method": "computer", "seed": 3}),
        &token,
    )
    .await;
    let v = ok(&a, &key, "/rounds/2/pair", json!({}), &token).await;
    let m = &v["knockout"]["bracket"][1];
    assert_eq!(
        (m[0]["first"].clone(), m[0]["second"].clone()),
        (json!(1), json!(4))
    );
    assert_eq!(
        (m[1]["first"].clone(), m[1]["second"].clone()),
        (json!(2), json!(3))
    );
    let boards = v["round_list"][1]["boards"].clone();
    assert_eq!(boards.as_array().unwrap().len(), 4);
    assert_eq!(boards[0]["match"], 1);
    assert_eq!(boards[2]["match"], 2);
    result(&a, &key, &token, 2, 1, win_for(&boards, 1, 1)).await;
    result(&a, &key, &token, 2, 2, win_for(&boards, 2, 1)).await;
    result(&a, &key, &token, 2, 3, "1/2-1/2").await;
    let v = result(&a, &key, &token, 2, 4, win_for(&boards, 4, 3)).await;
    let m = &v["knockout"]["bracket"][1];
    assert_eq!(m[0]["winner"], 1, "{m}");
    assert_eq!(m[1]["winner"], 3);
    assert_eq!(m[1]["stages"][0]["points"], json!([0.5, 1.5]));

    // The final: Cid beats Ann 2–0.
    ok(
        &a,
        &key,
        "/rounds/3/draw",
        json!({"method": "computer", "seed": 4}),
        &token,
    )
    .await;
    let v = ok(&a, &key, "/rounds/3/pair", json!({}), &token).await;
    let boards = v["round_list"][2]["boards"].clone();
    result(&a, &key, &token, 3, 1, win_for(&boards, 1, 3)).await;
    let v = result(&a, &key, &token, 3, 2, win_for(&boards, 2, 3)).await;
    let ko = &v["knockout"];
    assert_eq!(ko["champion"], 3, "{ko}");
    assert_eq!(ko["bracket"][2][0]["state"], "won");
    assert_eq!(v["next_round"], Value::Null);
    let placings: Vec<(u64, u64, u64)> = ko["placings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["player"].as_u64().unwrap(),
                p["first"].as_u64().unwrap(),
                p["last"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        placings,
        [(3, 1, 1), (1, 2, 2), (2, 3, 4), (4, 3, 4), (5, 5, 5)],
        "round 1's one loser is fifth of five"
    );

    // Exports: no TRF; PGN and JSON.
    let trf = a.get(&format!("/api/events/{key}/export?format=trf")).await;
    assert_eq!(trf.status, 409, "{}", trf.text);
    assert!(trf.error().contains("TRF-16"), "{}", trf.text);
    let pgn = a.get(&format!("/api/events/{key}/export?format=pgn")).await;
    assert_eq!(pgn.status, 200, "{}", pgn.text);
    assert!(pgn.text.contains("[FEN "), "{}", pgn.text);
    let doc = a
        .get(&format!("/api/events/{key}/export?format=json"))
        .await;
    assert_eq!(doc.status, 200);
    assert!(doc.text.contains("\"match\""), "{}", doc.text);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tiebreak_routes_are_the_arbiters_and_a_bad_plan_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    // The defaults: 2 games, by rating, rapid, blitz, Armageddon.
    let made = a
        .post("/api/events", json!({"name": "KO", "format": "knockout"}))
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let key = made.json["key"].as_str().unwrap().to_string();
    let ko = &made.json["knockout"];
    assert_eq!(ko["games"], 2);
    assert_eq!(ko["seeding"], "rating");
    let kinds: Vec<&str> = ko["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["rapid", "blitz", "armageddon"]);
    for (path, body) in [
        ("/rounds/1/stages/1/draw", json!({"method": "computer"})),
        ("/rounds/1/tiebreaks", json!({})),
    ] {
        let no = a
            .post(&format!("/api/events/{key}{path}"), body.clone())
            .await;
        assert_eq!(no.status, 403, "{path}: {}", no.text);
        let wrong = arb(&a, &key, path, body, "00000000000000000000000000000000").await;
        assert_eq!(wrong.status, 403, "{path}: {}", wrong.text);
    }
    // No tiebreaks at all, and by lot.
    let none = a
        .post(
            "/api/events",
            json!({"name": "KO2", "format": "knockout", "knockout": {"games": 4, "seeding": "lot", "tiebreaks": []}}),
        )
        .await;
    assert_eq!(none.status, 201, "{}", none.text);
    assert_eq!(none.json["knockout"]["tiebreaks"], json!([]));
    assert_eq!(none.json["knockout"]["seeding"], "lot");
    // Bad plans: the field is named.
    for (plan, field, says) in [
        (
            json!({"tiebreaks": [{"kind": "armageddon", "games": 2, "time_control": "5+0"}]}),
            "knockout.tiebreaks",
            "one game",
        ),
        (json!({"games": 13}), "knockout.games", "1 to 12"),
        (json!({"games": 0}), "knockout.games", "1 to 12"),
        (
            json!({"tiebreaks": [{"kind": "bullet", "games": 2}]}),
            "knockout.tiebreaks[0].kind",
            "bullet",
        ),
        (json!({"seeding": "age"}), "knockout.seeding", "age"),
        (json!({"rounds": 3}), "knockout", "rounds"),
        (
            json!({"tiebreaks": [{"kind": "armageddon"}, {"kind": "rapid"}]}),
            "knockout.tiebreaks",
            "comes last",
        ),
    ] {
        let r = a
            .post(
                "/api/events",
                json!({"name": "Bad", "format": "knockout", "knockout": plan}),
            )
            .await;
        assert_eq!(r.status, 400, "{plan}: {}", r.text);
        assert!(
            r.error().starts_with(field) && r.error().contains(says),
            "{plan}: {}",
            r.text
        );
    }
    let swiss_plan = a
        .post(
            "/api/events",
            json!({"name": "Bad", "format": "swiss", "rounds": 3, "knockout": {}}),
        )
        .await;
    assert_eq!(swiss_plan.status, 400, "{}", swiss_plan.text);
    assert!(swiss_plan.error().starts_with("knockout"));
    let unknown = a
        .post("/api/events", json!({"name": "Bad", "format": "cup"}))
        .await;
    assert_eq!(unknown.status, 400);
    assert!(unknown.error().contains("knockout"), "{}", unknown.text);
    // Another format: no knockout, no match on its boards, the event's clock.
    let rr = a
        .post(
            "/api/events",
            json!({"name": "RR", "format": "round_robin", "time_control": "5+3"}),
        )
        .await;
    assert_eq!(rr.json["knockout"], Value::Null);
    let rk = rr.json["key"].as_str().unwrap().to_string();
    let rt = rr.json["arbiter_token"].as_str().unwrap().to_string();
    for n in ["Ann", "Ben"] {
        ok(&a, &rk, "/players", json!({"name": n}), &rt).await;
    }
    let v = ok(&a, &rk, "/rounds/1/pair", json!({}), &rt).await;
    let b = &v["round_list"][0]["boards"][0];
    assert_eq!(
        (b["match"].clone(), b["stage"].clone()),
        (Value::Null, Value::Null)
    );
    assert_eq!(b["time_control"], "5+3");
    assert_eq!(v["round_list"][0]["stage_draws"], json!([]));
    let not_ko = arb(&a, &rk, "/rounds/1/tiebreaks", json!({}), &rt).await;
    assert_eq!(not_ko.status, 400, "{}", not_ko.text);
    let not_ko = arb(&a, &rk, "/rounds/1/stages/1/draw", json!({}), &rt).await;
    assert_eq!(not_ko.status, 400, "{}", not_ko.text);
}

/// An Armageddon whose sides have their own times (`5+0/4+0`: five minutes for White, four
/// for Black) is played on the server with those clocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_armageddon_on_the_server_gives_each_side_its_own_time() {
    let dir = tempfile::tempdir().unwrap();
    let a = app_on(&dir.path().join("games.sqlite3")).await;
    let made = a
        .post(
            "/api/events",
            json!({
                "name": "Armageddon 960",
                "format": "knockout",
                "time_control": "10+5",
                "knockout": {"games": 1, "tiebreaks": [{"kind": "armageddon", "time_control": "5+0/4+0"}]}
            }),
        )
        .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let key = made.json["key"].as_str().unwrap().to_string();
    let token = made.json["arbiter_token"].as_str().unwrap().to_string();
    for n in ["Ann", "Ben"] {
        ok(&a, &key, "/players", json!({"name": n}), &token).await;
    }
    ok(
        &a,
        &key,
        "/rounds/1/draw",
        json!({"method": "computer", "seed": 1}),
        &token,
    )
    .await;
    ok(&a, &key, "/rounds/1/pair", json!({}), &token).await;
    result(&a, &key, &token, 1, 1, "1/2-1/2").await;
    ok(&a, &key, "/rounds/1/tiebreaks", json!({"seed": 2}), &token).await;
    ok(
        &a,
        &key,
        "/rounds/1/stages/1/draw",
        json!({"method": "computer", "seed": 3}),
        &token,
    )
    .await;
    let g = ok(&a, &key, "/rounds/1/games", json!({}), &token).await;
    let games = g["games"].as_array().unwrap();
    assert_eq!(games.len(), 1, "{g}");
    assert_eq!(games[0]["board"], 2);
    let game = a
        .get(&format!("/api/games/{}", games[0]["key"].as_str().unwrap()))
        .await;
    assert_eq!(game.json["clocks"]["white_ms"], 300_000, "{}", game.text);
    assert_eq!(game.json["clocks"]["black_ms"], 240_000, "{}", game.text);
    assert_eq!(
        game.json["time_control"],
        json!({"initial_ms": 300_000, "increment_ms": 0})
    );
}
