// Generated from the Rust types of crates/server by `UPDATE_TS=1 cargo test -p chess960-server edge_types`: do not edit.
// docs/api.md describes each field.

export type GameView = { key: string, id: number, start_id: number | null, back_rank: string | null, 
/**
 * The start position (X-FEN); `null` while the players place it (Northam's placement:
 * `placement` shows the back rank so far) and in a game aborted before they finished.
 */
start_fen: string | null, 
/**
 * The rooks that may castle in the start position.
 */
start_castling: CastlingView, 
/**
 * In a game against the engine, the person's colour (`null` between two people).
 */
human: ColorJson | null, 
/**
 * In a game against the engine, its level (`null` between two people).
 */
level: LevelJson | null, 
/**
 * Who plays each colour.
 */
sides: SidesView, 
/**
 * The speed class of a rated game (`bullet`, `blitz`, `rapid`, `classical`); `null` for
 * a casual one.
 */
rated: "bullet" | "blitz" | "rapid" | "classical" | null, white: string, black: string, moves: Array<MoveView>, time_control: TimeControl | null, 
/**
 * How the start position was drawn at the board (`drawn.rs`), if it was.
 */
drawn: DrawnView | null, 
/**
 * Whether the game has a seat token. Without one (created on the terminal, imported, or
 * by a server older than seat tokens) it can only be watched through the server.
 */
has_seat: boolean, 
/**
 * The seat token, in the answer to `POST /api/games` and to `POST …/join` only: the
 * secret that every action on the game needs (see `seat.rs`).
 */
seat_token?: string, 
/**
 * The colour of that seat, with `seat_token`.
 */
seat_color?: ColorJson, 
/**
 * Two people at one device (one seat token for both colours).
 */
hotseat: boolean, 
/**
 * The event (tournament) whose round made this game, if one did: its games are paired
 * by the event, never replayed by a rematch.
 */
event: EventRef | null, draw_offer?: string, draw_offer_reason?: string, 
/**
 * The current position (X-FEN); `null` until the start is known (as `start_fen`).
 */
fen: string | null, turn: ColorJson, clocks: ClockView | null, status: Status, result: ResultJson | null, reason: string | null, check: string | null, 
/**
 * The rooks that may still castle (both sides), by square.
 */
castling: CastlingView, last_move: LastMove | null, legal: Array<LegalMove>, draw_claim: DrawClaim | null, premove: string | null, 
/**
 * Between people: the side whose draw offer waits for the other's answer.
 */
draw_offered_by: ColorJson | null, 
/**
 * Between people: the side whose takeback proposal waits for the other's answer.
 */
takeback_proposed_by: ColorJson | null, engine_thinking: boolean, 
/**
 * While the engine's search waits for a free search thread (the server runs a bounded
 * number at once): how many searches start before it, and how long it has waited.
 */
engine_queue: EngineQueue | null, 
/**
 * Loaded after a restart and waiting for the player: the clocks are stopped.
 */
paused: boolean, 
/**
 * Study time left, while in study.
 */
study_ms: number | null, 
/**
 * Whether the game may be aborted now (`POST …/abort`): unfinished, and not both sides
 * have moved yet (no clock has started).
 */
abortable: boolean, 
/**
 * While the game waits for the player's first move: the time left before it is aborted
 * by itself.
 */
abandon_ms: number | null, 
/**
 * Between people, while the game is played: how long each player has been away.
 */
away: AwayView | null, 
/**
 * The start position being placed by the players (Northam), until the game begins.
 */
placement: PlacingView | null, 
/**
 * A challenge listed in the lobby (shown there while its creator has its page open).
 */
listed: boolean, 
/**
 * Between people, once the game is over: the side whose rematch offer waits for the
 * other's answer.
 */
rematch_offered_by: ColorJson | null, 
/**
 * The key of the rematch, once both agreed to it.
 */
rematch: string | null, };

export type NowView = { 
/**
 * The current position (X-FEN); `null` until the start is known (as `start_fen`).
 */
fen: string | null, turn: ColorJson, clocks: ClockView | null, status: Status, result: ResultJson | null, reason: string | null, check: string | null, 
/**
 * The rooks that may still castle (both sides), by square.
 */
castling: CastlingView, last_move: LastMove | null, legal: Array<LegalMove>, draw_claim: DrawClaim | null, premove: string | null, 
/**
 * Between people: the side whose draw offer waits for the other's answer.
 */
draw_offered_by: ColorJson | null, 
/**
 * Between people: the side whose takeback proposal waits for the other's answer.
 */
takeback_proposed_by: ColorJson | null, engine_thinking: boolean, 
/**
 * While the engine's search waits for a free search thread (the server runs a bounded
 * number at once): how many searches start before it, and how long it has waited.
 */
engine_queue: EngineQueue | null, 
/**
 * Loaded after a restart and waiting for the player: the clocks are stopped.
 */
paused: boolean, 
/**
 * Study time left, while in study.
 */
study_ms: number | null, 
/**
 * Whether the game may be aborted now (`POST …/abort`): unfinished, and not both sides
 * have moved yet (no clock has started).
 */
abortable: boolean, 
/**
 * While the game waits for the player's first move: the time left before it is aborted
 * by itself.
 */
abandon_ms: number | null, 
/**
 * Between people, while the game is played: how long each player has been away.
 */
away: AwayView | null, 
/**
 * The start position being placed by the players (Northam), until the game begins.
 */
placement: PlacingView | null, 
/**
 * A challenge listed in the lobby (shown there while its creator has its page open).
 */
listed: boolean, 
/**
 * Between people, once the game is over: the side whose rematch offer waits for the
 * other's answer.
 */
rematch_offered_by: ColorJson | null, 
/**
 * The key of the rematch, once both agreed to it.
 */
rematch: string | null, };

export type MoveView = { uci: string, san: string, clocks: ClocksJson | null, 
/**
 * The position after the move (X-FEN).
 */
fen: string, 
/**
 * The square of the king in check after the move, if any.
 */
check: string | null, 
/**
 * The rooks that may still castle after the move.
 */
castling: CastlingView, };

export type LegalMove = { uci: string, san: string, from: string, to: string, promotion: string | null, castle: CastleJson | null, };

export type CastleJson = { side: string, king_to: string, rook_from: string, rook_to: string, king_destination_move: boolean, looks_like_king_step: boolean, };

export type CastlingView = { white: Array<string>, black: Array<string>, };

export type LastMove = { from: string, to: string, };

export type ClockView = { white_ms: number, black_ms: number, running: ColorJson | null, };

export type ClocksJson = { white_ms: number, black_ms: number, };

export type TimeControl = { 
/**
 * Each side's time at the start.
 */
initial_ms: number, 
/**
 * Added to the mover's clock after each move.
 */
increment_ms: number, };

export type SidesView = { white: SideView, black: SideView, };

export type SideView = { "type": "engine", level: LevelJson, } | { "type": "human", seat: string, 
/**
 * The player's account name (their page is `/@/name`); absent for a guest.
 */
account?: string, 
/**
 * The account's rating in the game's speed class (none for a guest, or an untimed
 * casual game).
 */
rating?: RatingView, } | { "type": "outside", 
/**
 * True when the game's `WhiteType` / `BlackType` tag says `program` (an engine).
 */
program: boolean, };

export type LevelJson = { "elo": number } | { "depth": number } | { "full": { movetime_ms: number, } };

export type EngineQueue = { 
/**
 * Searches that start before it.
 */
ahead: number, 
/**
 * How long it has waited, in milliseconds.
 */
waited_ms: number, };

export type AwayView = { white_ms: number | null, black_ms: number | null, claim_after_ms: number, };

export type DrawnView = { 
/**
 * The method's name.
 */
method: string, 
/**
 * The seed of a draw the server made.
 */
seed: number | null, 
/**
 * The outcomes a person gave.
 */
outcomes: string | null, 
/**
 * The steps in words.
 */
steps: Array<string>, };

export type PlacingView = { 
/**
 * Who places next; `null` once done.
 */
to_place: ColorJson | null, 
/**
 * The placements so far.
 */
placed: Array<PlacedView>, 
/**
 * White's back rank so far, a1 to h1, `.` for a free square (Black's mirrors it).
 */
rank: string, 
/**
 * The pieces still to place (`B`, `N`, `Q`).
 */
remaining: Array<string>, 
/**
 * The files each remaining piece may go on now (`{"B": ["b", "d"], ...}`).
 */
legal: { [key in string]: Array<string> }, 
/**
 * Time left for the placement, as of the view.
 */
ms_left: number | null, 
/**
 * The time each placement may take.
 */
per_ms: number, };

export type PlacedView = { player: ColorJson, piece: string, 
/**
 * The file, `a`..`h` (White's piece on rank 1, Black's on rank 8).
 */
file: string, 
/**
 * The server placed it: the player's time ran out.
 */
auto: boolean, };

export type EventRef = { 
/**
 * The event's name (its `Event` tag).
 */
name: string, 
/**
 * The round and board, `3.1` (its `Round` tag).
 */
round: string, };

export type DrawAnswer = { draw_offer?: string, draw_offer_reason?: string, };

export type DrawClaim = "threefold repetition" | "fifty-move rule";

export type ColorJson = "white" | "black";

export type Status = "waiting" | "placing" | "study" | "playing" | "finished";

export type ResultJson = "1-0" | "0-1" | "1/2-1/2" | "*";

export type ScoreJson = { "cp": number } | { "mate": number };

export type Ack = { version: number, 
/**
 * The actor's premove after a premove request (`null`: none).
 */
premove?: string | null, draw_offer?: string, draw_offer_reason?: string, };

export type Event = { "type": "state", version: number, game: GameView, } | { "type": "move", version: number, ply: number, move: MoveView, now: NowView, } | { "type": "premove", version: number, premove: string | null, } | { "type": "clock", version: number, white_ms: number, black_ms: number, running: ColorJson | null, } | { "type": "thinking", version: number, depth: number, score: ScoreJson, pv: Array<string>, pv_san: Array<string>, nodes: number, } | { "type": "chat", version: number, room: Room, from: string, guest: boolean, text: string, at_ms: number, } | { "type": "deleted", version: number, key: string, } | { "type": "error", error: string, };

export type Room = "players" | "spectators";

export type ChatLine = { room: Room, 
/**
 * In the players' room the colour (`white`, `black`); in the spectators' room the
 * writer's account name, or the name a guest gave.
 */
from: string, 
/**
 * True for a guest's name (anyone may give any name).
 */
guest: boolean, text: string, 
/**
 * When the server got it, in milliseconds since the Unix epoch.
 */
at_ms: number, };

export type ChatLog = { players: Array<ChatLine> | null, spectators: Array<ChatLine>, };

export type NowPlaying = { key: string, start_id: number | null, white: string, black: string, sides: SidesView, turn: ColorJson, 
/**
 * Half-moves played.
 */
plies: number, clocks: ClockView | null, };

export type LobbyEntry = { key: string, 
/**
 * The creator's name.
 */
name: string, 
/**
 * The colour the creator plays (the one who accepts plays the other).
 */
color: ColorJson, start_id: number | null, back_rank: string | null, time_control: TimeControl | null, 
/**
 * When the challenge was created, milliseconds since the Unix epoch.
 */
created_ms: number, 
/**
 * A rated game: only a logged-in player other than its creator may accept it.
 */
rated: boolean, 
/**
 * The creator's account name, when they are logged in.
 */
account: string | null, 
/**
 * The creator's rating in the game's speed class, when they are logged in.
 */
rating: RatingView | null, };

export type LiveView = { 
/**
 * Whether the event's engine games are being played now.
 */
running: boolean, 
/**
 * Where it stands, in words: `playing round 2`, `finished`, `paused`, what it waits for.
 */
status: string, 
/**
 * The boards of the round being played (or last played) and of the round before, by round
 * and board.
 */
boards: Array<LiveBoard>, };

export type LiveBoard = { 
/**
 * The round.
 */
round: number, 
/**
 * The board.
 */
board: number, 
/**
 * White's name.
 */
white: string, 
/**
 * Black's name.
 */
black: string, 
/**
 * The start position, 0..959.
 */
start_id: number, 
/**
 * The start position in X-FEN.
 */
start_fen: string, 
/**
 * The clock in PGN's form (`60+0.5`, seconds).
 */
time_control: string, 
/**
 * The position now, in X-FEN.
 */
fen: string, 
/**
 * Who is to move.
 */
turn: LiveSide, 
/**
 * The clocks as of the last move (or the start).
 */
clocks: LiveClocks, 
/**
 * The moves so far.
 */
moves: Array<LiveMove>, 
/**
 * The search of the engine to move, once it has said something.
 */
thinking: LiveThinking | null, 
/**
 * `1-0`, `0-1` or `1/2-1/2` once over.
 */
result: string | null, 
/**
 * Why it ended, in words.
 */
reason: string | null, 
/**
 * The game's key in the database, once stored.
 */
game: string | null, };

export type LiveMove = { 
/**
 * In SAN.
 */
san: string, 
/**
 * In UCI, Chess960 form (castling as king takes rook).
 */
uci: string, 
/**
 * The engine's last evaluation (White's point of view).
 */
score: LiveScore | null, 
/**
 * The depth it reached.
 */
depth: number | null, 
/**
 * Nodes searched.
 */
nodes: number | null, 
/**
 * Nodes a second.
 */
nps: number | null, 
/**
 * The time it took, milliseconds.
 */
ms: number, 
/**
 * Its principal variation in SAN, from the position before the move (at most
 * [`MAX_PV`]).
 */
pv: Array<string>, 
/**
 * White's clock after the move.
 */
white_ms: number, 
/**
 * Black's clock after the move.
 */
black_ms: number, };

export type LiveThinking = { 
/**
 * Who is thinking.
 */
side: LiveSide, 
/**
 * How long it has been thinking, when the view was taken.
 */
elapsed_ms: number, 
/**
 * Depth.
 */
depth: number | null, 
/**
 * Selective depth.
 */
seldepth: number | null, 
/**
 * Evaluation (White's point of view).
 */
score: LiveScore | null, 
/**
 * Nodes searched.
 */
nodes: number | null, 
/**
 * Nodes a second.
 */
nps: number | null, 
/**
 * Principal variation in SAN (at most [`MAX_PV`]).
 */
pv: Array<string>, };

export type LiveScore = { 
/**
 * Centipawns (positive: White is better); `None` for a mate score.
 */
cp: number | null, 
/**
 * Mate in this many moves (positive: White mates); `None` for centipawns.
 */
mate: number | null, };

export type LiveClocks = { 
/**
 * White's.
 */
white_ms: number, 
/**
 * Black's.
 */
black_ms: number, };

export type LiveSide = "white" | "black";

export type PositionJson = { 
/**
 * The position after the moves.
 */
fen: string, turn: ColorJson, 
/**
 * The square of the king in check.
 */
check: string | null, status: PositionStatus, legal: Array<LegalMove>, 
/**
 * The moves given, with their SAN.
 */
moves: Array<PlayedJson>, };

export type PositionStatus = "playing" | "checkmate" | "stalemate";

export type PlayedJson = { ply: number, uci: string, san: string, fen: string, };

export type PositionEvalJson = { 
/**
 * Half-moves played before it (0: the start).
 */
ply: number, 
/**
 * White's view; `{"mate": 0}` when the side to move is checkmated.
 */
eval: ScoreJson, 
/**
 * White's win percentage (lichess's formula).
 */
win: number, depth: number, 
/**
 * The engine's move here (UCI, Chess960 castling) and its line in SAN.
 */
best: string | null, best_san: string | null, pv_san: Array<string>, };

export type MoveJudgedJson = { ply: number, uci: string, san: string, color: ColorJson, judgement: Judgement | null, glyph: string | null, 
/**
 * The engine's move in the position before, when the played move was judged bad.
 */
better: string | null, better_san: string | null, };

export type LineJson = { 
/**
 * White's view.
 */
score: ScoreJson, pv: Array<string>, pv_san: Array<string>, };

export type Judgement = "inaccuracy" | "mistake" | "blunder";

export type MoveRequest = { move: string, ply: number, };

export type PremoveRequest = { move: string | null, 
/**
 * With `"move": null`: clear the premove only if it is this one.
 */
clears?: string, };

export type TakebackRequest = { action?: TakebackAction, };

export type TakebackAction = "propose" | "accept" | "decline";

export type DrawActionRequest = { action: DrawAction, };

export type DrawAction = "offer" | "claim" | "accept" | "decline";

export type ForceRequest = { result: ForceResult, };

export type ForceResult = "win" | "draw";

export type RematchRequest = { action: RematchAction, };

export type RematchAction = "offer" | "accept" | "decline";

export type JoinRequest = { name?: string, };

export type PlaceRequest = { piece: string, square: string, };

export type NewGameRequest = { 
/**
 * The start position; a random one when absent.
 */
start?: StartRequest, 
/**
 * The creator's colour; White when absent.
 */
color?: ColorChoice, 
/**
 * The clocks; an untimed game when absent or `null`.
 */
time_control?: TimeControl | null, 
/**
 * The creator's name; "Player" when absent or blank.
 */
name?: string, 
/**
 * With `start.id`: how that position was drawn by hand (`drawn.rs`).
 */
drawn?: DrawnIn, } & ({ "opponent": "engine", 
/**
 * The engine's level; Elo 1500 when absent.
 */
level?: LevelJson, 
/**
 * Time to look at the position before play starts (none when absent).
 */
study_ms?: number, } | { "opponent": "human", 
/**
 * Listed in the lobby for anyone to accept (not when absent).
 */
lobby?: boolean, 
/**
 * With `start.chosen`: the time each placement may take.
 */
placement_ms?: number, 
/**
 * Rated (casual when absent): between two logged-in players, with a clock, from a
 * Chess960 start.
 */
rated?: boolean, } | { "opponent": "hotseat", 
/**
 * The other player's name (`name` is the one playing `color`).
 */
opponent_name?: string, 
/**
 * With `start.chosen`: the time each placement may take.
 */
placement_ms?: number, 
/**
 * Time to look at the position before play starts (none when absent).
 */
study_ms?: number, });

export type StartRequest = { 
/**
 * 0..959.
 */
id: number, } | { 
/**
 * Always `true`.
 */
random: true, 
/**
 * Never the classical position (518).
 */
exclude_classical: boolean, } | { 
/**
 * The FEN.
 */
fen: string, } | { 
/**
 * The PGN.
 */
pgn: string, } | { 
/**
 * Always `true`.
 */
chosen: true, };

export type ColorChoice = "white" | "black" | "random";

export type DrawnIn = { 
/**
 * The method's name (`die`, `cards`, ...).
 */
method: string, 
/**
 * The seed the server drew it with.
 */
seed?: number, 
/**
 * The outcomes a person got at the board.
 */
outcomes?: string, };

export type AccountJson = { 
/**
 * The user logged in, `null` for a guest.
 */
user: UserJson | null, 
/**
 * Who may register on this server: `open`, `invite` or `closed`.
 */
registration: string, };

export type UserJson = { 
/**
 * The name, as its owner wrote it.
 */
name: string, 
/**
 * The server's admin.
 */
admin: boolean, 
/**
 * When they registered (Unix milliseconds).
 */
created_ms: number, };

export type SessionJson = { 
/**
 * How to name it to end it.
 */
id: number, 
/**
 * When it began (Unix milliseconds).
 */
created_ms: number, 
/**
 * When it was last used, to the minute.
 */
seen_ms: number, 
/**
 * The program that logged in, as it named itself.
 */
agent: string, 
/**
 * The session of this request.
 */
current: boolean, };

export type RegisterRequest = { name: string, password: string, 
/**
 * The invitation's code, on a server that asks for one.
 */
invite?: string, };

export type LoginRequest = { name: string, password: string, };

export type PasswordRequest = { current: string, new: string, };

export type PlayerJson = { 
/**
 * The name, as its owner wrote it.
 */
name: string, 
/**
 * When they registered (Unix milliseconds).
 */
created_ms: number, 
/**
 * The account is disabled.
 */
disabled: boolean, 
/**
 * One per speed class with a rated game, fastest first.
 */
ratings: Array<RatingJson>, };

export type RatingJson = { 
/**
 * `bullet`, `blitz`, `rapid` or `classical`.
 */
speed: string, 
/**
 * The rating now, rounded (its deviation widened for the time since the last game).
 */
rating: number, 
/**
 * Its deviation now, rounded.
 */
deviation: number, 
/**
 * Provisional: the deviation is above 110 (shown with `?`).
 */
provisional: boolean, 
/**
 * Rated games played.
 */
games: number, 
/**
 * The rating after each rated game, oldest first.
 */
history: Array<RatingPointJson>, };

export type RatingPointJson = { 
/**
 * The rating after the game, rounded.
 */
rating: number, 
/**
 * Its deviation, rounded.
 */
deviation: number, 
/**
 * When the game ended (Unix milliseconds).
 */
at_ms: number, };

export type TallyJson = { games: number, wins: number, draws: number, losses: number, 
/**
 * Points: a win is 1, a draw ½.
 */
score: number, };

export type StartJson = { start_id: number, 
/**
 * The back rank, `RNBQKBNR` for 518.
 */
back_rank: string, 
/**
 * Over the rated games from it: the opponents' average rating before them plus 400 ×
 * (wins − losses) / games, rounded; `null` without rated games.
 */
performance: number | null, games: number, wins: number, draws: number, losses: number, 
/**
 * Points: a win is 1, a draw ½.
 */
score: number, };

export type CastlingJson = { 
/**
 * Towards the h-file rook (`O-O`).
 */
short: TallyJson, 
/**
 * Towards the a-file rook (`O-O-O`).
 */
long: TallyJson, 
/**
 * Not at all.
 */
none: TallyJson, };

export type StartsJson = { name: string, 
/**
 * The finished games counted: the player's latest, at most 5,000.
 */
games: number, 
/**
 * Per start position, by number.
 */
starts: Array<StartJson>, 
/**
 * The positions where the player scores best (half the points or more; at least two
 * games), best first, at most three.
 */
best: Array<number>, 
/**
 * Where they score worst (under half the points; at least two games), worst first.
 */
worst: Array<number>, castling: CastlingJson, };

export type LeaderJson = { name: string, 
/**
 * As of now, rounded.
 */
rating: number, deviation: number, provisional: boolean, 
/**
 * Rated games in the class.
 */
games: number, };

export type LeaderboardJson = { speed: string, 
/**
 * The highest rating first.
 */
players: Array<LeaderJson>, };

export type RatingView = { 
/**
 * The rating before the game, rounded.
 */
rating: number, 
/**
 * Provisional (shown with `?`): its deviation is above 110.
 */
provisional: boolean, 
/**
 * The change the game made, once it was rated.
 */
change?: number, };
