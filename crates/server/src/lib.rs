//! # chess960-server
//!
//! The web server of `chess960 serve`: the browser UI (embedded in the binary) and the JSON
//! HTTP and WebSocket API of `docs/api.md` for playing Chess960 against the engine.
//!
//! The server is the referee: every move is checked by `chess960-core`, the engine runs in
//! process on a bounded pool of search threads (`pool.rs`), the server keeps both clocks, and
//! every move is saved through the store (`chess960-store`) before it is acknowledged. Games
//! are loaded from the store by key when first asked for and leave memory when idle
//! (`registry.rs`), so they survive a restart and memory follows the games being played. One
//! layer ([`guard`]) refuses other sites' pages, DNS rebinding and, off loopback, requests
//! without the access token; every action on a game needs its seat token (`seat.rs`). The
//! analysis board (`analysis.rs`, moves judged in `judge.rs`) analyses whole games and streams
//! live engine lines over one WebSocket per page, on the same search pool, and stops when the
//! page goes.
//!
//! ```no_run
//! # async fn example(store: std::sync::Arc<dyn chess960_store::GameStore>) -> std::io::Result<()> {
//! let server = chess960_server::Server::bind("127.0.0.1:0", store).await?;
//! println!("listening on {}", server.url());
//! server.shutdown().await;
//! # Ok(())
//! # }
//! ```
#![warn(missing_docs)]

mod accounts;
mod analysis;
mod api;
mod assets;
pub mod catalog;
mod championships;
mod cluster;
mod create;
#[cfg(test)]
mod edge_types;
mod engine_events;
pub mod error;
mod explorer;
mod fen;
mod game;
mod http;
mod tournaments;
pub use http::guard;
mod judge;
mod lobby;
mod pgn;
mod players;
mod pool;
mod registry;
mod round;
mod secret;

/// How games are recorded in the store (players, tags, time control): `chess960-round`'s, the
/// same for the server and `chess960 play`.
pub use chess960_round::record;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use chess960_store::GameStore;
use error::ApiError;
use guard::Access;
use http::{listener, rate};
pub use listener::ConnLimits;
use pool::SearchPool;
use registry::Games;
use round::Ctx;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::ToSocketAddrs;
use tokio::sync::watch;

/// How much of the machine the server uses for games: the engine's search threads and their
/// hash tables, and how long an idle game stays in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capacity {
    /// Engine searches that run at once; the others wait in a queue, fair between clients.
    pub search_threads: usize,
    /// Each search thread's hash table, MiB.
    pub search_hash_mb: usize,
    /// A game nobody has asked for this long, with nothing pending, leaves memory (it is read
    /// back from the database when asked for again).
    pub unload_after: Duration,
    /// A game whose player has not made their first move this long after it began (or after
    /// the engine's first move, or after it was loaded) is aborted: an abandoned game is not
    /// left unfinished (`*`) for ever. Five minutes unless set.
    pub abandon_after: Duration,
    /// A player of a game between people who has been away this long (no connection open,
    /// no action: `presence.rs`) lets the opponent claim the win or a draw. Thirty seconds
    /// unless set.
    pub away_after: Duration,
    /// Games of engine events played at once (each keeps about a core busy), apart from
    /// the search threads; 0: the server plays no engine event. One unless set.
    pub engine_games: usize,
}

impl Default for Capacity {
    /// One search thread per core, 16 MiB each, games unloaded after a minute idle.
    fn default() -> Capacity {
        Capacity {
            search_threads: std::thread::available_parallelism().map_or(2, |n| n.get()),
            search_hash_mb: 16,
            unload_after: Duration::from_secs(60),
            abandon_after: game::DEFAULT_ABANDON_AFTER,
            away_after: game::DEFAULT_AWAY_AFTER,
            engine_games: 1,
        }
    }
}

/// Everything `chess960 serve` can set: how much of the machine games use, and who may use
/// the server.
#[derive(Clone, Debug, Default)]
pub struct ServeOptions {
    /// Search threads, their hash tables, unloading idle games.
    pub capacity: Capacity,
    /// Allowed host names and the access token (see [`guard`]).
    pub access: Access,
    /// Where the other servers of a shared database (PostgreSQL) reach this one,
    /// `http://host:port`: they forward the actions on the games this one runs there. When not
    /// given: the address listened on (`127.0.0.1` for an address that listens on every
    /// interface, which only servers on the same host can reach).
    pub advertise: Option<String>,
    /// The timeouts and caps every connection is held to before and between its requests
    /// (`listener.rs`).
    pub connections: ConnLimits,
    /// Where the games' clocks read the time: the system's clock, unless a test replays a
    /// game with exact times between its moves.
    pub time: chess960_round::now::TimeSource,
    /// Who may register an account; when not given, anyone on a loopback address, by
    /// invitation otherwise ([`Registration::default_for`]).
    pub registration: Option<Registration>,
    /// The server is reached through HTTPS (a reverse proxy in front of it): its session
    /// cookies are `Secure`.
    pub https: bool,
}

pub use chess960_players::registration::Registration;

/// The server's state, shared by every request: the games in memory, the search pool and
/// the store.
#[derive(Clone)]
pub struct AppState {
    inner: Arc<Inner>,
}

struct Inner {
    games: Arc<Games>,
    capacity: Capacity,
    shutdown: watch::Sender<bool>,
    /// The WebSockets open per client, by kind.
    sockets: SocketCaps,
    /// Players' accounts: who may register, the cookies, the tries of passwords.
    accounts: accounts::Shared,
    /// The engine events being played.
    championships: championships::Championships,
}

/// The WebSockets each client address may have open, by kind (`rate.rs`).
struct SocketCaps {
    /// A game's (`GET /api/games/{key}/ws`): a page per game watched or played. Loopback is
    /// not counted: behind a reverse proxy every client comes from there.
    games: Arc<rate::Places>,
    /// The lobby's.
    lobby: Arc<rate::Places>,
    /// The analysis board's.
    analysis: Arc<rate::Places>,
}

impl AppState {
    /// A state over `store` with the default [`Capacity`].
    pub fn new(store: Arc<dyn GameStore>) -> AppState {
        AppState::with_capacity(store, Capacity::default())
    }

    /// A state over `store` using `capacity`.
    pub fn with_capacity(store: Arc<dyn GameStore>, capacity: Capacity) -> AppState {
        AppState::with_time(store, capacity, Default::default())
    }

    /// A state over `store` using `capacity`, its games' clocks reading the time from `time`.
    pub fn with_time(
        store: Arc<dyn GameStore>,
        capacity: Capacity,
        time: chess960_round::now::TimeSource,
    ) -> AppState {
        let accounts = accounts::Accounts::new(Registration::Open, false);
        AppState::build(store, capacity, time, accounts)
    }

    fn build(
        store: Arc<dyn GameStore>,
        capacity: Capacity,
        time: chess960_round::now::TimeSource,
        accounts: accounts::Accounts,
    ) -> AppState {
        let (tx, rx) = watch::channel(false);
        let pool = SearchPool::new(capacity.search_threads, capacity.search_hash_mb);
        let championships =
            championships::Championships::new(Arc::clone(&store), capacity.engine_games);
        AppState {
            inner: Arc::new(Inner {
                games: Arc::new(Games::new(Arc::new(Ctx {
                    store,
                    pool,
                    shutdown: rx,
                    abandon_after: capacity.abandon_after,
                    away_after: capacity.away_after,
                    lobby: Arc::default(),
                    publisher: std::sync::OnceLock::new(),
                    time,
                }))),
                capacity,
                shutdown: tx,
                sockets: SocketCaps {
                    games: rate::Places::new(api::MAX_GAME_SOCKETS_PER_CLIENT, false),
                    lobby: rate::Places::new(lobby::MAX_SOCKETS_PER_CLIENT, true),
                    analysis: rate::Places::new(analysis::MAX_SESSIONS_PER_CLIENT, true),
                },
                accounts: Arc::new(accounts),
                championships,
            }),
        }
    }

    fn championships(&self) -> &championships::Championships {
        &self.inner.championships
    }

    /// The game database.
    fn store(&self) -> Arc<dyn GameStore> {
        Arc::clone(&self.inner.games.ctx().store)
    }

    fn accounts(&self) -> &accounts::Accounts {
        &self.inner.accounts
    }

    fn games(&self) -> &Games {
        &self.inner.games
    }

    /// This process among the servers of its database, if several share it.
    fn node(&self) -> Option<&Arc<cluster::Node>> {
        self.inner.games.node()
    }

    fn lobby(&self) -> &Arc<lobby::Lobby> {
        &self.inner.games.ctx().lobby
    }

    fn sockets(&self) -> &SocketCaps {
        &self.inner.sockets
    }

    /// The number of games in memory now.
    pub fn games_in_memory(&self) -> usize {
        self.inner.games.loaded()
    }

    /// Unloads the games idle for at least `idle` that have nothing pending (the server does
    /// this by itself every so often); returns how many.
    pub fn unload_idle(&self, idle: Duration) -> usize {
        self.inner.games.unload_idle(idle)
    }

    /// Engine searches waiting for a search thread, and running.
    pub fn searches(&self) -> (usize, usize) {
        let load = self.inner.games.ctx().pool.load();
        (load.waiting, load.running)
    }

    /// The capacity the server runs with.
    pub fn capacity(&self) -> Capacity {
        self.inner.capacity
    }

    fn shutdown_signal(&self) -> watch::Receiver<bool> {
        self.inner.shutdown.subscribe()
    }

    /// Stops every engine search, timer and WebSocket session; nothing is written to the
    /// store afterwards.
    pub fn shut_down(&self) {
        let _ = self.inner.shutdown.send(true);
        self.inner.games.stop_all();
        self.inner.championships.stop_all();
    }
}

/// The router: `/api/...` and the embedded UI, with the 1 MiB body limit and debug-level
/// request logging. It does not check who asks: [`Server::bind_with_access`] puts the checks of
/// [`guard`] in front of it.
pub fn router(state: AppState) -> Router {
    let game = "/api/games/{key}";
    let event = "/api/events/{key}";
    Router::new()
        .route("/api/levels", get(api::levels))
        .route("/api/server", get(api::server_load))
        .route("/api/positions", get(api::positions))
        .route("/api/positions/{id}", get(api::position))
        .route("/api/tables", get(api::tables))
        .route("/api/fairness", get(api::fairness))
        .route("/api/explorer", get(explorer::explore))
        .route("/api/fen", get(fen::check))
        .route("/api/draw", post(api::draw))
        .route("/api/games", get(api::list_games).post(api::create_game))
        .route("/api/games/now", get(api::games_now))
        .route("/api/lobby", get(api::lobby))
        .route("/api/lobby/ws", get(lobby::websocket))
        .route(game, get(api::get_game).delete(api::delete_game))
        .route(&format!("{game}/abort"), post(api::post_abort))
        .route(&format!("{game}/moves"), post(api::post_move))
        .route(&format!("{game}/premove"), post(api::post_premove))
        .route(&format!("{game}/takeback"), post(api::post_takeback))
        .route(&format!("{game}/join"), post(api::post_join))
        .route(&format!("{game}/resign"), post(api::post_resign))
        .route(&format!("{game}/draw"), post(api::post_draw))
        .route(&format!("{game}/force"), post(api::post_force))
        .route(&format!("{game}/place"), post(api::post_place))
        .route(&format!("{game}/rematch"), post(api::post_rematch))
        .route(&format!("{game}/start"), post(api::post_start))
        .route(&format!("{game}/analysis"), post(api::post_analysis))
        .route(&format!("{game}/pgn"), get(api::get_pgn))
        .route(
            &format!("{game}/chat"),
            get(api::get_chat).post(api::post_chat),
        )
        .route(&format!("{game}/ws"), get(api::websocket))
        .route(
            "/api/events",
            get(tournaments::list).post(tournaments::create),
        )
        .route(event, get(tournaments::get))
        .route("/api/engines", get(engine_events::engines))
        .route(&format!("{event}/live"), get(engine_events::live))
        .route(&format!("{event}/engines/play"), post(engine_events::play))
        .route(
            &format!("{event}/engines/pause"),
            post(engine_events::pause),
        )
        .route(&format!("{event}/players"), post(tournaments::add_player))
        .route(
            &format!("{event}/players/{{n}}/withdraw"),
            post(tournaments::withdraw),
        )
        .route(
            &format!("{event}/players/{{n}}/bye"),
            post(tournaments::bye),
        )
        .route(
            &format!("{event}/rounds/{{r}}/draw"),
            post(tournaments::draw),
        )
        .route(
            &format!("{event}/rounds/{{r}}/stages/{{s}}/draw"),
            post(tournaments::draw_stage),
        )
        .route(
            &format!("{event}/rounds/{{r}}/pair"),
            post(tournaments::pair),
        )
        .route(
            &format!("{event}/rounds/{{r}}/tiebreaks"),
            post(tournaments::tiebreaks),
        )
        .route(
            &format!("{event}/rounds/{{r}}/unpair"),
            post(tournaments::unpair),
        )
        .route(
            &format!("{event}/rounds/{{r}}/boards/{{b}}/result"),
            post(tournaments::result),
        )
        .route(
            &format!("{event}/rounds/{{r}}/games"),
            post(tournaments::games),
        )
        .route(
            &format!("{event}/rounds/{{r}}/links"),
            get(tournaments::links),
        )
        .route(&format!("{event}/export"), get(tournaments::export))
        .route("/api/account", get(accounts::account))
        .route("/api/account/register", post(accounts::register))
        .route("/api/account/login", post(accounts::login))
        .route("/api/account/logout", post(accounts::logout))
        .route("/api/account/password", post(accounts::change_password))
        .route("/api/account/sessions", get(accounts::sessions))
        .route(
            "/api/account/sessions/{id}",
            axum::routing::delete(accounts::end_session),
        )
        .route("/api/players", get(players::leaderboard))
        .route("/api/players/{name}", get(players::player))
        .route("/api/players/{name}/starts", get(players::starts))
        .route("/api/analysis/position", post(analysis::position))
        .route("/api/analysis/ws", get(analysis::websocket))
        .route("/api", axum::routing::any(api_not_found))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .fallback(assets::serve)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(axum::extract::DefaultBodyLimit::max(error::BODY_LIMIT))
        .layer(axum::middleware::from_fn(log_request))
        .layer(axum::middleware::from_fn(run_to_end))
        .with_state(state)
}

/// Runs every request to its end, even when its client goes away meanwhile. The HTTP server
/// drops a request's work when its connection closes; an action dropped between its durable
/// write and the update of the game in memory would leave the two apart (the move stored but
/// not on the board, so that the next move is refused as not following), and a client that
/// closes the page, or a server of the database forwarding the request that dies, must not
/// be able to do that. The request learns when its client went away ([`round::ClientGone`]).
async fn run_to_end(mut req: Request, next: Next) -> Response {
    // Dropped with this future, when the connection closes before the answer.
    let (gone, _here) = round::ClientGone::new();
    req.extensions_mut().insert(gone);
    match tokio::spawn(next.run(req)).await {
        Ok(resp) => resp,
        Err(e) => axum::response::IntoResponse::into_response(ApiError::new(
            axum::http::StatusCode::INTERNAL_SERVER_ERROR,
            format!("the request failed: {e}"),
        )),
    }
}

async fn api_not_found(req: Request) -> ApiError {
    ApiError::not_found(format!("no such API route: {}", req.uri().path()))
}

async fn method_not_allowed(req: Request) -> ApiError {
    ApiError::new(
        axum::http::StatusCode::METHOD_NOT_ALLOWED,
        format!("{} is not allowed on {}", req.method(), req.uri().path()),
    )
}

/// One line per request, at debug level.
async fn log_request(req: Request, next: Next) -> Response {
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let started = std::time::Instant::now();
    let resp = next.run(req).await;
    tracing::debug!(
        "{method} {path} {} {:.1} ms",
        resp.status().as_u16(),
        started.elapsed().as_secs_f64() * 1000.0
    );
    resp
}

/// A running server.
pub struct Server {
    addr: SocketAddr,
    state: AppState,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    token: Option<String>,
    connections: Arc<listener::Table>,
}

impl Server {
    /// Listens on `addr` (port 0 for any free port) and serves in the background of the
    /// current tokio runtime, with the default [`Capacity`] and [`Access`] (the loopback
    /// names, and a token only when `addr` is not loopback).
    pub async fn bind(
        addr: impl ToSocketAddrs,
        store: Arc<dyn GameStore>,
    ) -> std::io::Result<Server> {
        Server::bind_with_options(addr, store, ServeOptions::default()).await
    }

    /// As [`Server::bind`], using `capacity`.
    pub async fn bind_with(
        addr: impl ToSocketAddrs,
        store: Arc<dyn GameStore>,
        capacity: Capacity,
    ) -> std::io::Result<Server> {
        let options = ServeOptions {
            capacity,
            ..ServeOptions::default()
        };
        Server::bind_with_options(addr, store, options).await
    }

    /// [`Server::bind`] with the checks of [`guard`] configured by `access`. A name or token
    /// that [`guard::parse_host_name`] or [`guard::parse_token`] refuses is `InvalidInput`.
    pub async fn bind_with_access(
        addr: impl ToSocketAddrs,
        store: Arc<dyn GameStore>,
        access: Access,
    ) -> std::io::Result<Server> {
        let options = ServeOptions {
            access,
            ..ServeOptions::default()
        };
        Server::bind_with_options(addr, store, options).await
    }

    /// [`Server::bind`] with every option.
    pub async fn bind_with_options(
        addr: impl ToSocketAddrs,
        store: Arc<dyn GameStore>,
        options: ServeOptions,
    ) -> std::io::Result<Server> {
        let ServeOptions {
            capacity,
            access,
            advertise,
            connections,
            time,
            registration,
            https,
        } = options;
        let listener = tokio::net::TcpListener::bind(addr).await?;
        let addr = listener.local_addr()?;
        let mut guard = guard::Guard::new(&access, addr)?;
        let registration =
            registration.unwrap_or_else(|| Registration::default_for(addr.ip().is_loopback()));
        let accounts = accounts::Accounts::new(registration, https);
        let state = AppState::build(Arc::clone(&store), capacity, time, accounts);
        // Over a database several servers share, this one joins them (`cluster/`).
        let advertise = advertise.unwrap_or_else(|| advertised(addr));
        let lobby = Arc::clone(state.lobby());
        let node =
            tokio::task::spawn_blocking(move || cluster::Node::join(store, advertise, lobby))
                .await
                .map_err(std::io::Error::other)?
                .map_err(|e| std::io::Error::other(e.to_string()))?;
        if let Some(node) = &node {
            guard = guard.with_forwarding(node.secret());
        }
        let guard = Arc::new(guard);
        let token = guard.token().map(str::to_owned);
        if let Some(node) = node {
            node.spawn_watch(Arc::downgrade(&state.inner.games), state.shutdown_signal());
            state.inner.games.joined(node);
        }
        state.inner.games.spawn_unloader(capacity.unload_after);
        // Games a previous run left waiting for their first move are aborted now (or, when
        // their time is not up yet, loaded so that their timer aborts them).
        state.inner.games.spawn_abandoned_sweep();
        // Engine events whose arbiter asked for their games go on where they stand.
        let resuming = state.clone();
        tokio::task::spawn_blocking(move || {
            if let Err(e) = resuming.championships().resume_all() {
                tracing::warn!("engine events: {e}");
            }
        });
        let app = router(state.clone())
            .layer(axum::middleware::from_fn_with_state(
                state.clone(),
                cluster::forward,
            ))
            .layer(axum::middleware::from_fn_with_state(guard, guard::check));
        let table = listener::Table::new(&connections);
        let task = tokio::spawn(listener::serve(
            listener,
            app,
            Arc::clone(&table),
            connections,
            state.shutdown_signal(),
        ));
        Ok(Server {
            addr,
            state,
            task,
            token,
            connections: table,
        })
    }

    /// The server's state (games in memory, searches), for tests and monitoring.
    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// The client connections open now, WebSockets included (`listener.rs`).
    pub fn open_connections(&self) -> usize {
        self.connections.open()
    }

    /// The address listened on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://host:port/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The access token the server asks for, if it asks for one.
    pub fn token(&self) -> Option<&str> {
        self.token.as_deref()
    }

    /// The address to open in a browser: [`Server::url`], with `?token=...` when the server
    /// asks for a token.
    pub fn login_url(&self) -> String {
        match &self.token {
            Some(token) => format!("{}?token={token}", self.url()),
            None => self.url(),
        }
    }

    /// Stops the server: engine searches and timers end, WebSocket clients are closed, and
    /// this returns once every connection is closed.
    pub async fn shutdown(self) {
        self.state.shut_down();
        let _ = self.task.await;
        // The other servers of the database may take this one's games at once.
        if let Some(node) = self.state.node().cloned() {
            let _ = tokio::task::spawn_blocking(move || node.leave()).await;
        }
    }

    /// Serves until the server fails (it does not stop by itself).
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e)),
        }
    }
}

/// The address at which other servers reach one listening on `addr`: `http://addr`, with
/// the loopback address for one that listens on every interface.
fn advertised(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        std::net::IpAddr::V4(ip) if ip.is_unspecified() => std::net::Ipv4Addr::LOCALHOST.into(),
        std::net::IpAddr::V6(ip) if ip.is_unspecified() => std::net::Ipv6Addr::LOCALHOST.into(),
        ip => ip,
    };
    format!("http://{}", SocketAddr::new(ip, addr.port()))
}

/// Installs a logger on standard error: `debug` logs one line per request, `info` and above
/// only problems. Call once, before [`run`].
pub fn init_logging(debug: bool) {
    let level = if debug {
        tracing::Level::DEBUG
    } else {
        tracing::Level::WARN
    };
    let _ = tracing_subscriber::fmt()
        .with_max_level(level)
        .with_target(false)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .with_writer(std::io::stderr)
        .try_init();
}

/// Why [`run`] stopped.
#[derive(Debug)]
pub enum RunError {
    /// The address is taken or cannot be listened on.
    Bind {
        /// `host:port`.
        addr: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// Anything else.
    Other(String),
}

impl std::fmt::Display for RunError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RunError::Bind { addr, error } if error.kind() == std::io::ErrorKind::AddrInUse => {
                write!(
                    f,
                    "cannot listen on {addr}: the port is already in use (is another \
                     'chess960 serve' running?); choose another with --port"
                )
            }
            RunError::Bind { addr, error } => write!(f, "cannot listen on {addr}: {error}"),
            RunError::Other(what) => f.write_str(what),
        }
    }
}

impl std::error::Error for RunError {}

/// Runs the server on `host:port` until Ctrl-C, on a runtime of its own (for the command
/// line), with `options`: its capacity, and the checks of [`guard`] configured by its access
/// (`host` is admitted as a name unless `options.access.host` names another). `ready` is called with [`Server::login_url`] once the
/// server listens.
pub fn run(
    host: &str,
    port: u16,
    store: Arc<dyn GameStore>,
    mut options: ServeOptions,
    ready: impl FnOnce(&str),
) -> Result<(), RunError> {
    options.access.host.get_or_insert_with(|| host.to_owned());
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| RunError::Other(format!("cannot start the runtime: {e}")))?;
    let result = runtime.block_on(async move {
        // An IPv6 host needs brackets in an address.
        let addr = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]:{port}")
        } else {
            format!("{host}:{port}")
        };
        let server = Server::bind_with_options(addr.as_str(), store, options)
            .await
            .map_err(|error| RunError::Bind {
                addr: addr.clone(),
                error,
            })?;
        ready(&server.login_url());
        tokio::signal::ctrl_c()
            .await
            .map_err(|e| RunError::Other(format!("cannot wait for Ctrl-C: {e}")))?;
        server.shutdown().await;
        Ok(())
    });
    // Searches were told to stop; do not wait long for one deep in its tree.
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    result
}
