//! An engine process: spawned with piped standard streams, read line by line with deadlines,
//! stopped and reaped for sure.
//!
//! A reader thread per engine turns its standard output into a channel of lines, so that every
//! read can have a deadline: a hanging engine costs the referee nothing but the wait it allows.
//! Standard error is drained by a second thread (an engine that fills its stderr pipe would
//! otherwise block) and kept as a short tail for diagnostics, or copied to a file.
//!
//! On Unix the engine gets a process group of its own. Two reasons: Ctrl-C in the terminal
//! reaches only the match runner, which then stops the engines in order (instead of every
//! engine dying mid-write); and killing the group also kills what an adapter such as polyglot
//! started, so no orphaned engine keeps a core busy.

use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The longest line kept; the rest of a longer line is dropped. A rogue engine printing
/// megabytes without a line break must not exhaust memory.
pub const MAX_LINE: usize = 64 * 1024;

/// How many lines may wait unread. When full, the reader thread blocks and so, through the
/// pipe, does the engine: memory stays bounded whatever the engine prints.
const CHANNEL_LINES: usize = 4096;

/// How many lines of standard error are kept for error messages.
const STDERR_TAIL: usize = 8;

/// How often a waiting read looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);

/// What is needed to start an engine.
#[derive(Debug, Clone, Default)]
pub struct Spawn {
    /// The program (a path, or a name looked up in `PATH`).
    pub cmd: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The working directory, if not the current one.
    pub dir: Option<PathBuf>,
    /// Where to append the engine's standard error; `None` keeps only a short tail.
    pub stderr_file: Option<PathBuf>,
}

/// Why a read returned no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (it exited or crashed).
    Eof,
    /// The match is being stopped.
    Stopped,
}

/// Why an engine could not be started or written to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProcessError {
    /// The program could not be run at all.
    Spawn {
        /// The program.
        cmd: String,
        /// The operating system's reason.
        reason: String,
    },
    /// Writing to the engine failed: it is gone.
    Write(String),
}

impl fmt::Display for ProcessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProcessError::Spawn { cmd, reason } => write!(f, "cannot start '{cmd}': {reason}"),
            ProcessError::Write(reason) => write!(f, "cannot write to the engine: {reason}"),
        }
    }
}

impl std::error::Error for ProcessError {}

/// One message from the reader thread.
enum Event {
    Line(String),
    Eof,
}

/// Where engine traffic is echoed for `-debug`.
#[derive(Debug, Clone)]
pub struct DebugLog {
    /// The label printed before each line, e.g. the engine's name.
    pub label: String,
    /// When the match started, for the time stamps.
    pub epoch: Instant,
}

impl DebugLog {
    fn print(&self, arrow: &str, line: &str) {
        let ms = self.epoch.elapsed().as_millis();
        eprintln!("{ms:>7} {}{arrow}{}", self.label, sanitize(line));
    }
}

/// A running engine process.
pub struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    eof: bool,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    stderr_done: Arc<AtomicBool>,
    debug: Option<DebugLog>,
    reaped: Option<ExitStatus>,
}

impl fmt::Debug for Process {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Process")
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

impl Process {
    /// Starts the engine.
    pub fn spawn(spec: &Spawn, debug: Option<DebugLog>) -> Result<Process, ProcessError> {
        let mut cmd = Command::new(&spec.cmd);
        cmd.args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = cmd.spawn().map_err(|e| ProcessError::Spawn {
            cmd: spec.cmd.clone(),
            reason: e.to_string(),
        })?;
        let stdin = child.stdin.take();
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();

        let (tx, rx) = sync_channel(CHANNEL_LINES);
        if let Some(stdout) = stdout {
            // Detached on purpose: it ends when the pipe closes (the engine and everything it
            // started are gone) or when the receiver is dropped.
            thread::spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    match read_capped_line(&mut reader) {
                        Some(line) => {
                            if tx.send(Event::Line(line)).is_err() {
                                return;
                            }
                        }
                        None => {
                            let _ = tx.send(Event::Eof);
                            return;
                        }
                    }
                }
            });
        } else {
            let _ = tx.send(Event::Eof);
        }

        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let stderr_done = Arc::new(AtomicBool::new(stderr.is_none()));
        if let Some(stderr) = stderr {
            let tail = Arc::clone(&stderr_tail);
            let done = Arc::clone(&stderr_done);
            let mut file = spec.stderr_file.as_ref().and_then(|p| {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(p)
                    .ok()
            });
            let debug = debug.clone();
            thread::spawn(move || {
                let mut reader = BufReader::new(stderr);
                while let Some(line) = read_capped_line(&mut reader) {
                    if let Some(f) = file.as_mut() {
                        let _ = writeln!(f, "{line}");
                    }
                    if let Some(d) = &debug {
                        d.print(" 2> ", &line);
                    }
                    if let Ok(mut t) = tail.lock() {
                        if t.len() == STDERR_TAIL {
                            t.pop_front();
                        }
                        t.push_back(line);
                    }
                }
                done.store(true, Ordering::SeqCst);
            });
        }

        Ok(Process {
            child,
            stdin,
            lines: rx,
            eof: false,
            stderr_tail,
            stderr_done,
            debug,
            reaped: None,
        })
    }

    /// The operating system's process ID.
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// Sends one line (a line break is added).
    pub fn send(&mut self, line: &str) -> Result<(), ProcessError> {
        if let Some(d) = &self.debug {
            d.print(" <- ", line);
        }
        let stdin = self
            .stdin
            .as_mut()
            .ok_or_else(|| ProcessError::Write("its input is closed".to_string()))?;
        let mut buf = Vec::with_capacity(line.len() + 1);
        buf.extend_from_slice(line.as_bytes());
        buf.push(b'\n');
        stdin
            .write_all(&buf)
            .and_then(|()| stdin.flush())
            .map_err(|e| ProcessError::Write(e.to_string()))
    }

    /// The next line, waiting until `deadline` at most; `stop` is looked at while waiting so
    /// that a match can be interrupted during a long think.
    pub fn read_line(&mut self, deadline: Instant, stop: &AtomicBool) -> Result<String, ReadError> {
        if self.eof {
            return Err(ReadError::Eof);
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return Err(ReadError::Stopped);
            }
            let now = Instant::now();
            if now >= deadline {
                // A line that arrived exactly at the deadline still counts.
                return match self.lines.try_recv() {
                    Ok(ev) => self.event(ev),
                    Err(_) => Err(ReadError::Timeout),
                };
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(ev) => return self.event(ev),
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => {
                    self.eof = true;
                    return Err(ReadError::Eof);
                }
            }
        }
    }

    fn event(&mut self, ev: Event) -> Result<String, ReadError> {
        match ev {
            Event::Line(line) => {
                if let Some(d) = &self.debug {
                    d.print(" -> ", &line);
                }
                Ok(line)
            }
            Event::Eof => {
                self.eof = true;
                Err(ReadError::Eof)
            }
        }
    }

    /// Throws away the lines already received (stale output of a previous game).
    pub fn drain(&mut self) {
        while let Ok(ev) = self.lines.try_recv() {
            if let Event::Eof = ev {
                self.eof = true;
            }
        }
    }

    /// How the process ended, if it has: `exit status 3`, `killed by signal 11`. Waits a
    /// little for the exit, because the output pipe closes a moment before the process is
    /// reaped.
    pub fn exit_description(&mut self, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        loop {
            if let Some(status) = self.try_wait() {
                return Some(describe_status(status));
            }
            if Instant::now() >= until {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    fn try_wait(&mut self) -> Option<ExitStatus> {
        if self.reaped.is_none() {
            if let Ok(Some(status)) = self.child.try_wait() {
                self.reaped = Some(status);
            }
        }
        self.reaped
    }

    /// The last lines the engine wrote to standard error, joined, for an error message. When
    /// the engine has exited, waits a little for the last of them: its output is read by
    /// another thread, which may not have caught up with the exit yet.
    pub fn stderr_tail(&self) -> String {
        if self.reaped.is_some() {
            let until = Instant::now() + Duration::from_millis(300);
            while !self.stderr_done.load(Ordering::SeqCst) && Instant::now() < until {
                thread::sleep(Duration::from_millis(2));
            }
        }
        self.stderr_tail
            .lock()
            .map(|t| {
                t.iter()
                    .map(|l| sanitize(l))
                    .collect::<Vec<_>>()
                    .join(" | ")
            })
            .unwrap_or_default()
    }

    /// Stops the engine: `quit_line` (if any) is sent and the engine gets `grace` to exit by
    /// itself; then it is killed with its whole process group and reaped.
    pub fn shutdown(&mut self, quit_line: Option<&str>, grace: Duration) {
        if self.try_wait().is_none() {
            if let Some(q) = quit_line {
                let _ = self.send(q);
            }
            // Closing stdin makes most engines exit even if they ignore `quit`.
            self.stdin = None;
            let until = Instant::now() + grace;
            while self.try_wait().is_none() && Instant::now() < until {
                thread::sleep(Duration::from_millis(5));
            }
        }
        self.kill();
    }

    /// Kills the engine and its process group at once, and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        #[cfg(unix)]
        {
            // The group was created at spawn (process_group(0)), so its ID is the child's PID.
            // Killing the group takes grandchildren (an adapter's engine) with it; it is done
            // even when the leader has exited, as a grandchild may still run.
            if let Ok(pid) = i32::try_from(self.child.id()) {
                // SAFETY: kill(2) has no memory-safety preconditions; a stale group ID only
                // makes it fail with ESRCH.
                unsafe {
                    libc::kill(-pid, libc::SIGKILL);
                }
            }
        }
        if self.reaped.is_none() {
            let _ = self.child.kill();
            if let Ok(status) = self.child.wait() {
                self.reaped = Some(status);
            }
        }
        self.eof = true;
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        self.kill();
    }
}

/// `exit status 3`, `killed by signal 11 (SIGSEGV)`.
pub fn describe_status(status: ExitStatus) -> String {
    #[cfg(unix)]
    {
        use std::os::unix::process::ExitStatusExt;
        if let Some(sig) = status.signal() {
            let name = match sig {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGTERM => " (SIGTERM)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGFPE => " (SIGFPE)",
                libc::SIGILL => " (SIGILL)",
                _ => "",
            };
            return format!("killed by signal {sig}{name}");
        }
    }
    match status.code() {
        Some(code) => format!("exit status {code}"),
        None => "exited".to_string(),
    }
}

/// Reads one line of at most [`MAX_LINE`] bytes (the rest is dropped), without the line
/// break, decoding invalid UTF-8 lossily. `None` at the end of the stream or on a read error.
fn read_capped_line<R: Read>(reader: &mut BufReader<R>) -> Option<String> {
    let mut line: Vec<u8> = Vec::new();
    let mut got_any = false;
    loop {
        let (consumed, done) = {
            let buf = match reader.fill_buf() {
                Ok(b) => b,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => return None,
            };
            if buf.is_empty() {
                // End of stream: a last line without a break still counts.
                return if got_any { Some(finish(line)) } else { None };
            }
            got_any = true;
            match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buf[..i.min(room)]);
                    (i + 1, true)
                }
                None => {
                    let room = MAX_LINE.saturating_sub(line.len());
                    line.extend_from_slice(&buf[..buf.len().min(room)]);
                    (buf.len(), false)
                }
            }
        };
        reader.consume(consumed);
        if done {
            return Some(finish(line));
        }
    }
}

fn finish(mut line: Vec<u8>) -> String {
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    String::from_utf8_lossy(&line).into_owned()
}

/// `s` with control characters escaped, for messages that must stay on one line.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` shortened to about `max` characters for an error message, with control characters
/// escaped.
pub fn excerpt(s: &str, max: usize) -> String {
    let clean = sanitize(s);
    if clean.chars().count() <= max {
        clean
    } else {
        let mut t: String = clean.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    #[test]
    fn lines_are_capped_and_lossy() {
        let mut data = vec![b'a'; MAX_LINE + 10];
        data.extend_from_slice(b"\nok\r\n\xffz");
        let mut r = BufReader::new(Cursor::new(data));
        assert_eq!(read_capped_line(&mut r).unwrap().len(), MAX_LINE);
        assert_eq!(read_capped_line(&mut r).unwrap(), "ok");
        assert_eq!(read_capped_line(&mut r).unwrap(), "\u{fffd}z");
        assert_eq!(read_capped_line(&mut r), None);
    }

    #[test]
    fn excerpts_stay_on_one_line() {
        assert_eq!(excerpt("a\nb", 10), "a\\nb");
        assert_eq!(excerpt("abcdef", 3), "abc…");
    }

    #[cfg(unix)]
    #[test]
    fn reads_with_deadline_and_detects_exit() {
        let stop = AtomicBool::new(false);
        let spec = Spawn {
            cmd: "sh".into(),
            args: vec!["-c".into(), "echo hello; sleep 0.3; exit 3".into()],
            ..Spawn::default()
        };
        let mut p = Process::spawn(&spec, None).unwrap();
        let soon = Instant::now() + Duration::from_secs(5);
        assert_eq!(p.read_line(soon, &stop).unwrap(), "hello");
        let quick = Instant::now() + Duration::from_millis(50);
        assert_eq!(p.read_line(quick, &stop), Err(ReadError::Timeout));
        assert_eq!(p.read_line(soon, &stop), Err(ReadError::Eof));
        assert_eq!(
            p.exit_description(Duration::from_secs(2)).as_deref(),
            Some("exit status 3")
        );
    }

    #[test]
    fn missing_program_is_a_spawn_error() {
        let spec = Spawn {
            cmd: "/nonexistent/engine".into(),
            ..Spawn::default()
        };
        assert!(matches!(
            Process::spawn(&spec, None),
            Err(ProcessError::Spawn { .. })
        ));
    }
}
