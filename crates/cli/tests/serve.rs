//! `chess960 serve`: who may use the server (--allow-host, --token, --no-auth), as the command
//! line sets it up and prints it. The checks themselves are tested in the server's
//! tests/guard.rs.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `chess960 serve` on a free port over a temporary database.
struct Serve {
    child: Child,
    /// The address it printed.
    url: String,
    port: u16,
    _dir: tempfile::TempDir,
}

impl Serve {
    fn start(args: &[&str]) -> Serve {
        Serve::start_in(Command::new(env!("CARGO_BIN_EXE_chess960")), args)
    }

    /// As [`Serve::start`], in a process that may have at most `files` open files.
    fn start_with_files(files: u32, args: &[&str]) -> Serve {
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(format!("ulimit -n {files} && exec \"$0\" \"$@\""))
            .arg(env!("CARGO_BIN_EXE_chess960"));
        Serve::start_in(sh, args)
    }

    fn start_in(mut command: Command, args: &[&str]) -> Serve {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("games.sqlite3");
        let mut child = command
            .args(["serve", "--port", "0", "--db"])
            .arg(&db)
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn chess960 serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout"))
            .read_line(&mut line)
            .expect("read the first line");
        let url = line
            .strip_prefix("chess960 serve: ")
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| {
                let _ = child.kill();
                let mut err = String::new();
                let _ = child.stderr.take().map(|mut e| e.read_to_string(&mut err));
                panic!("no address in {line:?}; stderr: {err}")
            })
            .to_owned();
        let port = url
            .split(':')
            .nth(2)
            .and_then(|rest| rest.split('/').next())
            .and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no port in {url}"));
        Serve {
            child,
            url,
            port,
            _dir: dir,
        }
    }

    /// The status of `GET path` sent to 127.0.0.1 with these extra header lines.
    fn status(&self, path: &str, host: Option<&str>, extra: &str) -> u16 {
        let mut stream = TcpStream::connect(("127.0.0.1", self.port)).expect("connect");
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        let host = host.map_or_else(|| format!("127.0.0.1:{}", self.port), str::to_owned);
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {host}\r\n{extra}Connection: close\r\n\r\n"
        )
        .expect("send");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("read");
        answer
            .split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no status in {answer}"))
    }

    /// Stops it; its standard error.
    fn stop(mut self) -> String {
        let _ = self.child.kill();
        let mut err = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut err);
        }
        let _ = self.child.wait();
        err
    }
}

impl Drop for Serve {
    /// A test that fails before `stop` leaves no server running behind it.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn a_server_open_to_the_network_draws_a_token_and_prints_it_with_the_address() {
    let serve = Serve::start(&["--host", "0.0.0.0"]);
    let (address, token) = serve
        .url
        .split_once("?token=")
        .expect("a token in the address");
    let (address, token) = (address.to_owned(), token.to_owned());
    assert_eq!(address, format!("http://0.0.0.0:{}/", serve.port));
    assert_eq!(token.len(), 48, "{token}");
    assert!(token.bytes().all(|b| b.is_ascii_hexdigit()), "{token}");
    assert_eq!(serve.status("/api/levels", None, ""), 401);
    assert_eq!(serve.status("/", None, ""), 401);
    let bearer = format!("Authorization: Bearer {token}\r\n");
    assert_eq!(serve.status("/api/levels", None, &bearer), 200);
    // How another machine reaches it: by the server's LAN address (only the header says so).
    assert_eq!(
        serve.status(
            "/api/levels",
            Some(&format!("192.168.1.5:{}", serve.port)),
            &bearer
        ),
        200
    );
    assert_eq!(
        serve.status(&format!("/api/levels?token={token}"), None, ""),
        200
    );
    let err = serve.stop();
    assert!(!err.contains("warning"), "{err}");

    // Each start draws its own.
    let again = Serve::start(&["--host", "0.0.0.0"]);
    assert!(!again.url.contains(&token), "{}", again.url);
    again.stop();
}

#[test]
fn no_auth_prints_a_warning_and_asks_for_no_token() {
    let serve = Serve::start(&["--host", "0.0.0.0", "--no-auth"]);
    assert_eq!(serve.url, format!("http://0.0.0.0:{}/", serve.port));
    assert_eq!(serve.status("/api/levels", None, ""), 200);
    // The other checks stay: a foreign page is still refused.
    assert_eq!(
        serve.status("/api/levels", None, "Origin: http://evil.example\r\n"),
        403
    );
    let err = serve.stop();
    assert!(
        err.contains("warning: --no-auth")
            && err.contains("anyone who can reach")
            && err.contains("/0.0.0.0:"),
        "{err}"
    );
}

#[test]
fn a_token_given_is_asked_for_on_loopback_too() {
    let serve = Serve::start(&["--token", "my-s3cret_token"]);
    assert_eq!(
        serve.url,
        format!("http://127.0.0.1:{}/?token=my-s3cret_token", serve.port)
    );
    assert_eq!(serve.status("/api/levels", None, ""), 401);
    assert_eq!(
        serve.status(
            "/api/levels",
            None,
            "Authorization: Bearer my-s3cret_token\r\n"
        ),
        200
    );
    serve.stop();

    let plain = Serve::start(&[]);
    assert_eq!(plain.url, format!("http://127.0.0.1:{}/", plain.port));
    assert_eq!(plain.status("/api/levels", None, ""), 200);
    plain.stop();
}

#[test]
fn allow_host_admits_a_name() {
    let serve = Serve::start(&["--allow-host", "chess.example", "--allow-host", "Box.LAN"]);
    assert_eq!(serve.status("/", Some("evil.example"), ""), 403);
    assert_eq!(serve.status("/", Some("chess.example"), ""), 200);
    assert_eq!(serve.status("/", Some("box.lan:8080"), ""), 200);
    serve.stop();
}

#[test]
fn bad_values_are_usage_errors() {
    for (args, says) in [
        (&["--token", "a b"][..], "the access token must be"),
        (&["--token", ""][..], "the access token must be"),
        (
            &["--allow-host", "chess.example:8960"][..],
            "without a port",
        ),
        (
            &["--allow-host", "http://chess.example"][..],
            "not a host name",
        ),
        (&["--token", "abc", "--no-auth"][..], "cannot be used with"),
    ] {
        let o = Command::new(env!("CARGO_BIN_EXE_chess960"))
            .arg("serve")
            .args(args)
            .output()
            .expect("run");
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn help_explains_the_access_flags() {
    let o = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["serve", "--help"])
        .output()
        .expect("run");
    let help = String::from_utf8(o.stdout).expect("UTF-8");
    for flag in [
        "--allow-host <NAME>",
        "--token <TOKEN>",
        "--no-auth",
        "access token",
    ] {
        assert!(help.contains(flag), "{flag} in\n{help}");
    }
}

/// The body of a raw HTTP/1.1 request to the server.
fn http(port: u16, request: &str) -> String {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(60)))
        .unwrap();
    stream.write_all(request.as_bytes()).expect("send");
    let mut answer = String::new();
    stream.read_to_string(&mut answer).expect("read");
    answer
}

#[test]
fn abandon_after_aborts_a_game_whose_player_never_moves() {
    let s = Serve::start(&["--abandon-after", "1"]);
    let body = r#"{"start": {"id": 518}}"#;
    let created = http(
        s.port,
        &format!(
            "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            s.port,
            body.len()
        ),
    );
    let key = created
        .split("\"key\":\"")
        .nth(1)
        .and_then(|rest| rest.get(..32))
        .unwrap_or_else(|| panic!("no key in {created}"))
        .to_owned();
    assert!(created.contains("\"abortable\":true"), "{created}");
    let started = std::time::Instant::now();
    loop {
        let view = http(
            s.port,
            &format!(
                "GET /api/games/{key} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nConnection: close\r\n\r\n",
                s.port
            ),
        );
        if view.contains("\"reason\":\"aborted\"") {
            assert!(started.elapsed() >= Duration::from_millis(500), "{view}");
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(30), "{view}");
        std::thread::sleep(Duration::from_millis(100));
    }
    let bad = Command::new(env!("CARGO_BIN_EXE_chess960"))
        .args(["serve", "--abandon-after", "0"])
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--abandon-after"));
    s.stop();
}

#[cfg(target_os = "linux")]
/// Lets this test process open as many files as it may (the soft limit up to the hard one):
/// the test below holds a thousand connections.
fn raise_files_limit() -> u64 {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write the struct they are given.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
        limit.rlim_cur = limit.rlim_max;
        libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        assert_eq!(libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit), 0);
    }
    limit.rlim_cur
}

/// What a client's connection says now: closed by the server, or still open.
fn closed(stream: &mut TcpStream) -> bool {
    let mut buf = [0u8; 512];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return true,
            // The 503 of a refused connection: read on to its end.
            Ok(_) => continue,
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return false,
            Err(_) => return true, // reset
        }
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_thousand_slow_or_idle_connections_keep_nobody_out_and_are_closed() {
    // The attack of issue 37: a server allowed 256 open files, and more connections than
    // that opened and left silent, or fed a header byte now and then. Before, the server
    // held every one of them and answered nobody.
    let files = raise_files_limit();
    assert!(
        files >= 1200,
        "this test needs 1,200 open files; the hard limit is {files}"
    );
    let s = Serve::start_with_files(256, &["--head-timeout", "2", "--idle-timeout", "4"]);
    let opened = std::time::Instant::now();
    let mut conns = Vec::new();
    for i in 0..1000 {
        let mut c = TcpStream::connect(("127.0.0.1", s.port)).expect("connect");
        if i % 2 == 1 {
            // The slow ones start a request and never finish its head.
            let _ = c.write_all(b"GET /api/levels HTTP/1.1\r\nHo");
        }
        c.set_nonblocking(true).unwrap();
        conns.push((i % 2 == 1, c));
    }
    // A plain request is answered at once.
    let asked = std::time::Instant::now();
    assert_eq!(s.status("/api/levels", None, ""), 200);
    assert!(
        asked.elapsed() < Duration::from_secs(5),
        "answered after {:?}",
        asked.elapsed()
    );
    // Every attacking connection is closed: refused, replaced by a newer one, or timed out
    // (2 s for a request head), though the slow ones keep sending.
    let mut open = conns.len();
    while open > 0 {
        assert!(
            opened.elapsed() < Duration::from_secs(8),
            "{open} of 1,000 connections still open after {:?}",
            opened.elapsed()
        );
        std::thread::sleep(Duration::from_millis(250));
        conns.retain_mut(|(slow, c)| {
            if *slow {
                let _ = c.write(b"s");
            }
            !closed(c)
        });
        open = conns.len();
    }
    assert_eq!(s.status("/api/levels", None, ""), 200);
    let err = s.stop();
    assert!(!err.contains("panicked"), "{err}");
}
