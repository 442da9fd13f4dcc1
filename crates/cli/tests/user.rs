//! `chess960 user`: players' accounts from the terminal, checked through the store's own API
//! (`chess960_store::PlayerStore`): users added with a password on standard input (and typed
//! at a terminal), listed without their hashes, refused for a taken name or a weak password,
//! invitations that register one person, disabling and enabling, and a new password.

use chess960_players::name::UserName;
use chess960_players::password::{verify, NewPassword};
use chess960_players::token;
use chess960_store::{GameStore, NewUser, PlayerStore, StoreError};
use rexpect::session::spawn_command;
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output};

mod common;

const PASSWORD: &str = "castle on h1 queenside";

/// Runs `chess960 user --db DB ARGS` with `stdin` as its standard input (a pipe).
fn run(db: &Path, args: &[&str], stdin: &str) -> Output {
    let db = db.to_string_lossy();
    let all: Vec<&str> = ["user", "--db", &db]
        .into_iter()
        .chain(args.iter().copied())
        .collect();
    common::run_with(&all, stdin)
}

fn ok(db: &Path, args: &[&str], stdin: &str) -> String {
    let o = run(db, args, stdin);
    assert!(o.status.success(), "{args:?}: {}", common::stderr(&o));
    common::stdout(&o)
}

/// The one line on standard error of a command that must fail with exit 2.
fn fails(db: &Path, args: &[&str], stdin: &str) -> String {
    let o = run(db, args, stdin);
    assert_eq!(o.status.code(), Some(2), "{args:?} should fail: {o:?}");
    assert!(o.stdout.is_empty(), "{args:?}: {}", common::stdout(&o));
    let e = common::stderr(&o);
    assert_eq!(e.lines().count(), 1, "one line: {e}");
    assert!(e.starts_with("chess960: "), "{e}");
    e
}

fn store(db: &Path) -> Box<dyn GameStore> {
    chess960_store::open(Some(db)).expect("the database opens")
}

fn players(store: &dyn GameStore) -> &dyn PlayerStore {
    store.player_store().expect("the database keeps players")
}

/// A user the test registers through the store, with `invite`.
fn register(store: &dyn GameStore, name: &str, invite: Option<&str>) -> Result<i64, StoreError> {
    let name: UserName = name.parse().unwrap();
    let hash = NewPassword::check(PASSWORD, &name).unwrap().hash().unwrap();
    players(store)
        .create_user(
            &NewUser {
                name: &name,
                password: &hash,
                admin: false,
                invite,
            },
            now_ms(),
        )
        .map(|u| u.id.0)
}

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Begins a session of `name` through the store, as a login would.
fn log_in(store: &dyn GameStore, name: &str) {
    let user = players(store).user_by_name(name).unwrap().unwrap();
    let hash = token::hash(&token::new_session_id().unwrap());
    players(store)
        .create_session(user.id, &hash, "test", now_ms())
        .unwrap();
}

#[test]
fn users_are_added_and_listed_without_their_hashes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");

    let out = ok(&db, &["list"], "");
    assert!(out.contains("no users yet"), "{out}");
    assert_eq!(ok(&db, &["list", "--json"], ""), "[]\n");

    let out = ok(&db, &["add", "Ann_M", "--admin"], &format!("{PASSWORD}\n"));
    assert_eq!(out, "user Ann_M added (id 1, admin)\n");
    // A line break from Windows is not part of the password either.
    let out = ok(&db, &["add", "bob"], "a second long passphrase\r\n");
    assert_eq!(out, "user bob added (id 2)\n");

    // What the store keeps: the users, each password as its hash and only that.
    let s = store(&db);
    let (ann, hash) = players(&*s).login_record("ann_m").unwrap().unwrap();
    assert_eq!(
        (ann.name.as_str(), ann.admin, ann.disabled),
        ("Ann_M", true, false)
    );
    assert!(verify(PASSWORD, Some(&hash)));
    assert!(!verify(&format!("{PASSWORD}\n"), Some(&hash)));
    let (bob, bob_hash) = players(&*s).login_record("bob").unwrap().unwrap();
    assert!(!bob.admin);
    assert!(verify("a second long passphrase", Some(&bob_hash)));
    drop(s);

    let today = chess960_pgn::date::today().replace('.', "-");
    let text = ok(&db, &["list"], "");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let words: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(words, ["1", "Ann_M", "admin", "active", today.as_str()]);
    let words: Vec<&str> = lines[1].split_whitespace().collect();
    assert_eq!(words, ["2", "bob", "player", "active", today.as_str()]);

    let json = ok(&db, &["list", "--json"], "");
    assert_eq!(json.lines().count(), 1);
    let v: Value = serde_json::from_str(&json).unwrap();
    let users = v.as_array().unwrap();
    assert_eq!(users.len(), 2);
    assert_eq!(users[0]["id"], 1);
    assert_eq!(users[0]["name"], "Ann_M");
    assert_eq!(users[0]["admin"], true);
    assert_eq!(users[0]["disabled"], false);
    assert_eq!(users[1]["name"], "bob");
    assert_eq!(users[1]["admin"], false);
    assert_eq!(users[0]["created_ms"].as_i64(), Some(ann.created_ms));
    for u in users {
        let keys: Vec<&String> = u.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 5, "{u}");
    }
    // No hash, nor any part of one, in either listing.
    for out in [&text, &json] {
        assert!(!out.contains("argon2"), "{out}");
        assert!(!out.contains(hash.as_str()), "{out}");
    }
}

#[test]
fn a_taken_name_and_a_bad_name_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    ok(&db, &["add", "Carol"], &format!("{PASSWORD}\n"));
    for name in ["Carol", "CAROL", "carol"] {
        let e = fails(&db, &["add", name], "another long passphrase\n");
        assert!(e.contains("the name Carol is taken"), "{e}");
    }
    let e = fails(&db, &["add", "a b"], &format!("{PASSWORD}\n"));
    assert!(e.contains("user name"), "{e}");
    // Still one user, with the first password.
    let s = store(&db);
    assert_eq!(players(&*s).users().unwrap().len(), 1);
    let (_, hash) = players(&*s).login_record("carol").unwrap().unwrap();
    assert!(verify(PASSWORD, Some(&hash)));
}

#[test]
fn weak_or_missing_passwords_are_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let e = fails(&db, &["add", "dave"], "password1\n");
    assert!(e.contains("among the most common"), "{e}");
    let e = fails(&db, &["add", "dave"], "short\n");
    assert!(e.contains("at least 8 characters (this one has 5)"), "{e}");
    let e = fails(&db, &["add", "dave_the_player"], "Dave_The_Player\n");
    assert!(e.contains("not the user name"), "{e}");
    let e = fails(&db, &["add", "dave"], "");
    assert!(e.contains("no password on standard input"), "{e}");
    let s = store(&db);
    assert!(players(&*s).users().unwrap().is_empty());
}

#[test]
fn an_invitation_registers_one_person() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    let out = ok(&db, &["invite", "--days", "3"], "");
    let code = out
        .lines()
        .find_map(|l| l.strip_prefix("invitation code: "))
        .unwrap_or_else(|| panic!("no code in {out}"));
    assert_eq!(code.len(), 32, "{out}");
    assert!(
        code.bytes().all(|c| matches!(c, b'0'..=b'9' | b'a'..=b'f')),
        "{out}"
    );
    assert!(out.contains("valid for 3 days"), "{out}");
    assert!(out.contains("only this once"), "{out}");
    // Another invitation has another code.
    let other = ok(&db, &["invite"], "");
    assert!(other.contains("valid for 7 days"), "{other}");
    assert!(!other.contains(code), "{other}");

    let s = store(&db);
    // A code nobody made registers nobody.
    let made_up = token::hash(&token::new_invite_code().unwrap());
    assert!(matches!(
        register(&*s, "erin", Some(&made_up)),
        Err(StoreError::Conflict(_))
    ));
    // The printed code does, once.
    let hash = token::hash(code);
    register(&*s, "erin", Some(&hash)).unwrap();
    assert!(matches!(
        register(&*s, "frank", Some(&hash)),
        Err(StoreError::Conflict(_))
    ));

    for days in ["0", "366"] {
        let e = fails(&db, &["invite", "--days", days], "");
        assert!(e.contains("expected 1 to 365"), "{e}");
    }
}

#[test]
fn a_disabled_user_cannot_log_in_until_enabled() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    ok(&db, &["add", "gina"], &format!("{PASSWORD}\n"));
    let s = store(&db);
    log_in(&*s, "gina");
    log_in(&*s, "gina");
    assert!(players(&*s).login_record("gina").unwrap().is_some());

    let out = ok(&db, &["disable", "GINA"], "");
    assert_eq!(out, "user gina disabled (2 sessions ended)\n");
    let gina = players(&*s).user_by_name("gina").unwrap().unwrap();
    assert!(gina.disabled);
    assert!(players(&*s).login_record("gina").unwrap().is_none());
    assert!(players(&*s).sessions(gina.id).unwrap().is_empty());
    let listed = ok(&db, &["list"], "");
    assert!(listed.contains(" disabled "), "{listed}");
    let v: Value = serde_json::from_str(&ok(&db, &["list", "--json"], "")).unwrap();
    assert_eq!(v[0]["disabled"], true);
    assert!(ok(&db, &["disable", "gina"], "").contains("already disabled"));

    let out = ok(&db, &["enable", "gina"], "");
    assert_eq!(out, "user gina enabled\n");
    let (user, hash) = players(&*s).login_record("gina").unwrap().unwrap();
    assert!(!user.disabled);
    assert!(verify(PASSWORD, Some(&hash)));
    assert!(ok(&db, &["enable", "gina"], "").contains("already enabled"));

    for cmd in ["disable", "enable", "password"] {
        let e = fails(&db, &[cmd, "nobody"], &format!("{PASSWORD}\n"));
        assert_eq!(e, "chess960: no user nobody\n");
    }
}

#[test]
fn a_new_password_ends_every_session() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    ok(&db, &["add", "hugo"], &format!("{PASSWORD}\n"));
    let s = store(&db);
    for _ in 0..3 {
        log_in(&*s, "hugo");
    }
    let new = "knight to f3 and back";
    let out = ok(&db, &["password", "Hugo"], &format!("{new}\n"));
    assert_eq!(out, "password of hugo changed (3 sessions ended)\n");
    let (user, hash) = players(&*s).login_record("hugo").unwrap().unwrap();
    assert!(verify(new, Some(&hash)));
    assert!(!verify(PASSWORD, Some(&hash)));
    assert!(players(&*s).sessions(user.id).unwrap().is_empty());

    // A weak one changes nothing.
    log_in(&*s, "hugo");
    let e = fails(&db, &["password", "hugo"], "password1\n");
    assert!(e.contains("among the most common"), "{e}");
    let (_, still) = players(&*s).login_record("hugo").unwrap().unwrap();
    assert!(verify(new, Some(&still)));
    assert_eq!(players(&*s).sessions(user.id).unwrap().len(), 1);
}

#[test]
fn on_a_terminal_the_password_is_asked_for_twice_without_echo() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("g.sqlite3");
    // The prompt comes just before the echo is turned off: a line typed in that instant
    // would be echoed (by the terminal, not the program), so the test types like a person.
    let pause = || std::thread::sleep(std::time::Duration::from_millis(300));
    let spawn = |args: &[&str]| {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_chess960"));
        cmd.arg("user").arg("--db").arg(&db).args(args);
        cmd.env_remove("CHESS960_DB");
        spawn_command(cmd, Some(30_000)).expect("the program starts under a pty")
    };

    // Typed twice the same: added.
    let mut p = spawn(&["add", "ivan"]);
    p.exp_string("Password for ivan: ").unwrap();
    pause();
    p.send_line(PASSWORD).unwrap();
    let between = p.exp_string("Password for ivan (again): ").unwrap();
    pause();
    p.send_line(PASSWORD).unwrap();
    let rest = p.exp_eof().unwrap();
    assert!(rest.contains("user ivan added (id 1)"), "{rest}");
    for seen in [&between, &rest] {
        assert!(!seen.contains(PASSWORD), "echoed: {seen}");
    }
    let s = store(&db);
    let (_, hash) = players(&*s).login_record("ivan").unwrap().unwrap();
    assert!(verify(PASSWORD, Some(&hash)));

    // Typed twice differently: nothing changes.
    let mut p = spawn(&["password", "ivan"]);
    p.exp_string("Password for ivan: ").unwrap();
    pause();
    p.send_line("knight to f3 and back").unwrap();
    p.exp_string("(again): ").unwrap();
    pause();
    p.send_line("knight to f3 and bock").unwrap();
    let rest = p.exp_eof().unwrap();
    assert!(rest.contains("the two passwords differ"), "{rest}");
    assert!(!rest.contains("knight"), "echoed: {rest}");
    let (_, hash) = players(&*s).login_record("ivan").unwrap().unwrap();
    assert!(verify(PASSWORD, Some(&hash)));
}

#[test]
fn every_subcommand_explains_itself() {
    let o = common::run_with(&["user", "--help"], "");
    let help = common::stdout(&o);
    for cmd in [
        "add", "invite", "list", "disable", "enable", "password", "--db",
    ] {
        assert!(help.contains(cmd), "{cmd}: {help}");
    }
    for (cmd, says) in [
        ("add", "echo"),
        ("invite", "SHA-256"),
        ("list", "YYYY-MM-DD"),
        ("disable", "session"),
        ("enable", "again"),
        ("password", "session"),
    ] {
        let o = common::run_with(&["user", cmd, "--help"], "");
        assert!(o.status.success());
        let help = common::stdout(&o);
        assert!(help.contains(says), "{cmd}: {help}");
    }
    let top = common::stdout(&common::run_with(&["--help"], ""));
    assert!(top.contains("user "), "{top}");
}
