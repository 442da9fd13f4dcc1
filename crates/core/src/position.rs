//! A position: placement, side to move, castling rights, en passant, counters; legal move
//! generation and making moves.

use crate::attacks::{
    between, bishop_attacks, king_attacks, knight_attacks, line, pawn_attacks, rook_attacks,
};
use crate::bitboard::Bitboard;
use crate::board::Board;
use crate::moves::{Move, MoveKind, MoveList};
use crate::types::{CastlingSide, Color, File, Piece, Rank, Role, Square};
use crate::zobrist;

/// A legal chess position, Chess960 or classical (classical chess is the Chess960 start 518).
///
/// Positions are small (`Copy`) and moves are made by copying: an engine keeps the previous
/// position to undo a move, which is faster than reversing one.
///
/// Castling rights are the set of squares of rooks that may still castle: at most one per
/// colour and side, always on that colour's back rank, so a right names its rook's file exactly
/// (inner-rook rights included).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Position {
    pub(crate) board: Board,
    pub(crate) turn: Color,
    pub(crate) castling: Bitboard,
    pub(crate) ep_square: Option<Square>,
    pub(crate) halfmoves: u32,
    pub(crate) fullmoves: u32,
    pub(crate) hash: u64,
    pub(crate) checkers: Bitboard,
    pub(crate) pinned: Bitboard,
}

impl std::hash::Hash for Position {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

impl Position {
    /// The placement of the pieces.
    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// Squares of the rooks that still have a castling right (both colours).
    #[inline]
    pub fn castling_rights(&self) -> Bitboard {
        self.castling
    }

    /// The square of the rook with which `color` may still castle on `side`, if any.
    pub fn castling_rook(&self, color: Color, side: CastlingSide) -> Option<Square> {
        let king = self.king_of(color);
        let rights = self.castling & Bitboard::from_rank(color.back_rank());
        match side {
            CastlingSide::ASide => rights.filter_below(king).first(),
            CastlingSide::HSide => rights.filter_above(king).first(),
        }
    }

    /// The file of the rook with which `color` may still castle on `side`, if any.
    pub fn castling_rook_file(&self, color: Color, side: CastlingSide) -> Option<File> {
        self.castling_rook(color, side).map(Square::file)
    }

    /// The en-passant target square, present only when an en-passant capture is legal (so two
    /// positions that differ only by an unusable en-passant square are equal).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep_square
    }

    /// Half-moves since the last capture or pawn move (for the fifty- and 75-move rules).
    #[inline]
    pub fn halfmoves(&self) -> u32 {
        self.halfmoves
    }

    /// The move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmoves(&self) -> u32 {
        self.fullmoves
    }

    /// Zobrist hash of placement, side to move, castling rights and en-passant possibility:
    /// equal for positions that are the same for the repetition rule.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }

    /// True if the side to move is in check.
    #[inline]
    pub fn is_check(&self) -> bool {
        self.checkers.any()
    }

    /// Pieces of the side to move pinned to their king.
    #[inline]
    pub fn pinned(&self) -> Bitboard {
        self.pinned
    }

    /// The square of `color`'s king.
    #[inline(always)]
    pub fn king_of(&self, color: Color) -> Square {
        // Every `Position` has exactly one king per side (checked when it is built).
        (self.board.by_role(Role::King) & self.board.by_color(color))
            .first()
            .unwrap_or(Square::A1)
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board.piece_at(sq)
    }

    /// `by`'s pieces that attack `sq`, with the given occupancy.
    #[inline(always)]
    pub fn attackers(&self, sq: Square, by: Color, occupied: Bitboard) -> Bitboard {
        let b = &self.board;
        let theirs = b.by_color(by);
        ((rook_attacks(sq, occupied) & b.rooks_and_queens())
            | (bishop_attacks(sq, occupied) & b.bishops_and_queens())
            | (knight_attacks(sq) & b.by_role(Role::Knight))
            | (king_attacks(sq) & b.by_role(Role::King))
            | (pawn_attacks(!by, sq) & b.by_role(Role::Pawn)))
            & theirs
    }

    /// True if `by` attacks `sq` with the given occupancy.
    #[inline(always)]
    fn attacked(&self, sq: Square, by: Color, occupied: Bitboard) -> bool {
        let b = &self.board;
        let theirs = b.by_color(by);
        ((knight_attacks(sq) & b.by_role(Role::Knight))
            | (pawn_attacks(!by, sq) & b.by_role(Role::Pawn))
            | (king_attacks(sq) & b.by_role(Role::King)))
            & theirs
            != Bitboard::EMPTY
            || (rook_attacks(sq, occupied) & b.rooks_and_queens() & theirs).any()
            || (bishop_attacks(sq, occupied) & b.bishops_and_queens() & theirs).any()
    }

    /// Recomputes checkers and pins for the side to move.
    #[inline(always)]
    pub(crate) fn update_check_info(&mut self) {
        let us = self.turn;
        let them = !us;
        let king = self.king_of(us);
        let b = &self.board;
        let occ = b.occupied();
        let theirs = b.by_color(them);
        let snipers = ((rook_attacks(king, Bitboard::EMPTY) & b.rooks_and_queens())
            | (bishop_attacks(king, Bitboard::EMPTY) & b.bishops_and_queens()))
            & theirs;
        let mut checkers = ((knight_attacks(king) & b.by_role(Role::Knight))
            | (pawn_attacks(us, king) & b.by_role(Role::Pawn)))
            & theirs;
        let mut pinned = Bitboard::EMPTY;
        for sniper in snipers {
            let blockers = between(king, sniper) & occ;
            if blockers.is_empty() {
                checkers = checkers.with(sniper);
            } else if !blockers.more_than_one() {
                pinned |= blockers;
            }
        }
        self.checkers = checkers;
        self.pinned = pinned & b.by_color(us);
    }

    /// Computes the hash from scratch (used when a position is built, and in tests).
    pub(crate) fn compute_hash(&self) -> u64 {
        let mut h = 0;
        for (sq, p) in self.board.pieces() {
            h ^= zobrist::piece(p.color, p.role, sq);
        }
        for sq in self.castling {
            h ^= zobrist::castling(sq);
        }
        if let Some(ep) = self.ep_square {
            h ^= zobrist::en_passant(ep.file());
        }
        if self.turn == Color::Black {
            h ^= zobrist::turn();
        }
        h
    }

    // ---------------------------------------------------------------------------------------
    // Move generation
    // ---------------------------------------------------------------------------------------

    /// All legal moves.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Replaces the contents of `list` with the legal moves (no list is moved or copied: the
    /// form for hot loops).
    #[inline]
    pub fn legal_moves_into(&self, list: &mut MoveList) {
        list.clear();
        self.generate(list);
    }

    /// Replaces the contents of `list` with the legal captures, en-passant captures and
    /// promotions (quiet ones too): a quiescence search's moves, in the order in which
    /// [`Position::legal_moves_into`] lists them, without listing the quiet moves first.
    /// Castling is never among them, even where the king lands on its own rook's square.
    #[inline]
    pub fn tactical_moves_into(&self, list: &mut MoveList) {
        list.clear();
        let theirs = self.board.by_color(!self.turn);
        self.generate(&mut Tactical { list, theirs });
    }

    /// The number of legal moves, counted without listing them (perft's leaves).
    #[inline]
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// True if `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        // Generating from one square's piece would be faster; legality checks are not hot.
        self.legal_moves().contains(&m)
    }

    /// Legal moves of the piece on `from` (for user interfaces: legal destinations).
    pub fn legal_moves_from(&self, from: Square) -> MoveList {
        let mut list = self.legal_moves();
        list.retain(|m| m.from() == from);
        list
    }

    /// True if the side to move has at least one legal move.
    pub fn has_legal_moves(&self) -> bool {
        // Cheap enough: bulk counting does no list building.
        self.count_legal_moves() > 0
    }

    #[inline(always)]
    fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.turn;
        let them = !us;
        let b = &self.board;
        let ours = b.by_color(us);
        let theirs = b.by_color(them);
        let occ = ours | theirs;
        let king = self.king_of(us);
        let king_bb = Bitboard::from_square(king);

        // King steps: test each destination with the king lifted off the board, so that a
        // slider checking along a line also covers the square behind the king.
        let occ_no_king = occ ^ king_bb;
        let mut king_targets = Bitboard::EMPTY;
        for to in king_attacks(king) & !ours {
            if !self.attacked(to, them, occ_no_king) {
                king_targets = king_targets.with(to);
            }
        }
        sink.piece(king, king_targets);

        let checkers = self.checkers;
        if checkers.more_than_one() {
            return;
        }
        let (target, movable) = match checkers.single() {
            // In check a pinned piece never has a legal move: it cannot leave its line, and
            // a checker on that line would not be giving check.
            Some(checker) => (between(king, checker).with(checker), ours & !self.pinned),
            None => {
                self.generate_castling(sink, king, occ);
                (!ours, ours)
            }
        };
        let pinned = self.pinned;

        for from in b.by_role(Role::Knight) & movable & !pinned {
            sink.piece(from, knight_attacks(from) & target);
        }
        for from in b.bishops_and_queens() & movable {
            let mut to = bishop_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink.piece(from, to);
        }
        for from in b.rooks_and_queens() & movable {
            let mut to = rook_attacks(from, occ) & target;
            if pinned.contains(from) {
                to &= line(king, from);
            }
            sink.piece(from, to);
        }

        self.generate_pawns(sink, movable & b.by_role(Role::Pawn), target, occ, king);
    }

    #[inline(always)]
    fn generate_pawns<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        target: Bitboard,
        occ: Bitboard,
        king: Square,
    ) {
        let us = self.turn;
        let theirs = self.board.by_color(!us);
        let (up, third, last) = match us {
            Color::White => (
                8,
                Bitboard::from_rank(Rank::Third),
                Bitboard::from_rank(Rank::Eighth),
            ),
            Color::Black => (
                -8,
                Bitboard::from_rank(Rank::Sixth),
                Bitboard::from_rank(Rank::First),
            ),
        };
        let not_a = !Bitboard::from_file(File::A);
        let not_h = !Bitboard::from_file(File::H);

        let free = pawns & !self.pinned;
        let single = free.shift(up) & !occ;
        let double = (single & third).shift(up) & !occ & target;
        let single = single & target;
        sink.pawns(single & !last, up);
        sink.promotions(single & last, up);
        sink.pawns(double, 2 * up);

        let (west, east) = (up - 1, up + 1);
        let cap_w = (free & not_a).shift(west) & theirs & target;
        let cap_e = (free & not_h).shift(east) & theirs & target;
        sink.pawns(cap_w & !last, west);
        sink.promotions(cap_w & last, west);
        sink.pawns(cap_e & !last, east);
        sink.promotions(cap_e & last, east);

        // Pinned pawns (never in check here: `pawns` excludes them then) move along the pin.
        for from in pawns & self.pinned {
            let pin = line(king, from);
            let from_bb = Bitboard::from_square(from);
            let push = from_bb.shift(up) & !occ;
            let pushes = push | ((push & third).shift(up) & !occ);
            let caps = pawn_attacks(us, from) & theirs;
            for to in (pushes | caps) & pin & target {
                sink.pawn_move(from, to, last.contains(to));
            }
        }

        if let Some(ep) = self.ep_square {
            self.generate_en_passant(sink, pawns, ep, king);
        }
    }

    #[inline(never)]
    fn generate_en_passant<S: Sink>(
        &self,
        sink: &mut S,
        pawns: Bitboard,
        ep: Square,
        king: Square,
    ) {
        let us = self.turn;
        let them = !us;
        let captured = match us {
            Color::White => ep.offset(-8),
            Color::Black => ep.offset(8),
        }
        .expect("en-passant square is on rank 3 or 6");
        let b = &self.board;
        for from in pawn_attacks(them, ep) & pawns {
            // Non-sliding checkers must be the captured pawn itself.
            if (self.checkers
                & !Bitboard::from_square(captured)
                & (b.by_role(Role::Knight) | b.by_role(Role::Pawn)))
            .any()
            {
                continue;
            }
            let occ =
                (b.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(captured))
                    .with(ep);
            let theirs = b.by_color(them);
            if (rook_attacks(king, occ) & b.rooks_and_queens() & theirs).any()
                || (bishop_attacks(king, occ) & b.bishops_and_queens() & theirs).any()
            {
                continue;
            }
            sink.special(Move::en_passant(from, ep));
        }
    }

    #[inline(always)]
    fn generate_castling<S: Sink>(&self, sink: &mut S, king: Square, occ: Bitboard) {
        let us = self.turn;
        let rights = self.castling & Bitboard::from_rank(us.back_rank());
        for rook in rights {
            let paths =
                &CASTLE_PATHS[us.index() * 64 + king.file().index() * 8 + rook.file().index()];
            // Most of the time something stands in the way: test that before anything else.
            if (occ & Bitboard(paths.must_be_empty)).is_empty() {
                if let Some(m) = self.castle_if_legal(king, rook, occ, Bitboard(paths.king_passes))
                {
                    sink.special(m);
                }
            }
        }
    }

    /// The castling move with `rook` if no square the king passes or lands on is attacked
    /// (the side to move is known not to be in check, and the paths to be empty).
    #[inline(never)]
    fn castle_if_legal(
        &self,
        king: Square,
        rook: Square,
        occ: Bitboard,
        king_passes: Bitboard,
    ) -> Option<Move> {
        let us = self.turn;
        let side = CastlingSide::from_king_rook(king, rook);
        let king_to = side.king_to(us);
        let rook_to = side.rook_to(us);
        let king_bb = Bitboard::from_square(king);
        // Squares the king passes are judged in the current position (king lifted); its final
        // square in the final one: a rook that shielded the king along the back rank is gone.
        for sq in king_passes {
            if self.attacked(sq, !us, occ ^ king_bb) {
                return None;
            }
        }
        let occ_after =
            (occ ^ king_bb ^ Bitboard::from_square(rook)) | Bitboard::from_square(rook_to);
        if self.attacked(king_to, !us, occ_after) {
            return None;
        }
        Some(Move::castle(king, rook))
    }

    // ---------------------------------------------------------------------------------------
    // Making moves
    // ---------------------------------------------------------------------------------------

    /// The position after the legal move `m`.
    #[inline]
    pub fn play(&self, m: Move) -> Position {
        let mut p = *self;
        p.play_mut(m);
        p
    }

    /// Makes the legal move `m` in place. `m` must be legal (from [`Position::legal_moves`] or
    /// checked with [`Position::is_legal`]); anything else leaves a nonsense position.
    pub fn play_mut(&mut self, m: Move) {
        let us = self.turn;
        let them = !us;
        let from = m.from();
        let to = m.to();
        let mut hash = self.hash ^ zobrist::turn();
        if let Some(ep) = self.ep_square.take() {
            hash ^= zobrist::en_passant(ep.file());
        }
        self.halfmoves = self.halfmoves.saturating_add(1);
        let mut double_push = None;
        let old_castling = self.castling;

        match m.kind() {
            MoveKind::Castle => {
                let side = CastlingSide::from_king_rook(from, to);
                let king_to = side.king_to(us);
                let rook_to = side.rook_to(us);
                self.board.take(from, us, Role::King);
                self.board.take(to, us, Role::Rook);
                self.board.put(king_to, us, Role::King);
                self.board.put(rook_to, us, Role::Rook);
                hash ^= zobrist::piece(us, Role::King, from)
                    ^ zobrist::piece(us, Role::King, king_to)
                    ^ zobrist::piece(us, Role::Rook, to)
                    ^ zobrist::piece(us, Role::Rook, rook_to);
                self.castling &= !Bitboard::from_rank(us.back_rank());
            }
            kind => {
                let role = self.board.role_at(from).unwrap_or(Role::Pawn);
                if kind == MoveKind::EnPassant {
                    let captured = if us == Color::White {
                        to.offset(-8)
                    } else {
                        to.offset(8)
                    };
                    let captured = captured.expect("en-passant capture square on board");
                    self.board.take(captured, them, Role::Pawn);
                    hash ^= zobrist::piece(them, Role::Pawn, captured);
                    self.halfmoves = 0;
                } else if let Some(cap) = self.board.role_at(to) {
                    self.board.take(to, them, cap);
                    hash ^= zobrist::piece(them, cap, to);
                    self.halfmoves = 0;
                }
                self.board.take(from, us, role);
                hash ^= zobrist::piece(us, role, from);
                let placed = match kind {
                    MoveKind::Promotion(r) => r,
                    _ => role,
                };
                self.board.put(to, us, placed);
                hash ^= zobrist::piece(us, placed, to);
                match role {
                    Role::Pawn => {
                        self.halfmoves = 0;
                        if from.index() ^ to.index() == 16 {
                            double_push = Some(Square::new_unchecked(
                                (from.index() + to.index()) as u32 / 2,
                            ));
                        }
                    }
                    Role::King => self.castling &= !Bitboard::from_rank(us.back_rank()),
                    _ => {}
                }
                self.castling &= !(Bitboard::from_square(from) | Bitboard::from_square(to));
            }
        }

        for sq in old_castling ^ self.castling {
            hash ^= zobrist::castling(sq);
        }
        if us == Color::Black {
            self.fullmoves = self.fullmoves.saturating_add(1);
        }
        self.turn = them;
        self.update_check_info();
        if let Some(ep) = double_push {
            if self.ep_capture_exists(ep) {
                self.ep_square = Some(ep);
                hash ^= zobrist::en_passant(ep.file());
            }
        }
        self.hash = hash;
    }

    /// True if the side to move has a legal en-passant capture onto `ep`.
    pub(crate) fn ep_capture_exists(&self, ep: Square) -> bool {
        let pawns = self.board.by_role(Role::Pawn) & self.board.by_color(self.turn);
        if (pawn_attacks(!self.turn, ep) & pawns).is_empty() {
            return false;
        }
        let mut probe = *self;
        probe.ep_square = Some(ep);
        let mut found = Found(false);
        if probe.checkers.more_than_one() {
            return false;
        }
        let movable = if probe.checkers.any() {
            pawns & !probe.pinned
        } else {
            pawns
        };
        probe.generate_en_passant(&mut found, movable, ep, probe.king_of(probe.turn));
        found.0
    }

    /// Passes the move (for null-move search): the other side moves, en passant is lost.
    /// Illegal while in check; the caller ensures the side to move is not in check.
    pub fn play_null(&self) -> Position {
        let mut p = *self;
        p.hash ^= zobrist::turn();
        if let Some(ep) = p.ep_square.take() {
            p.hash ^= zobrist::en_passant(ep.file());
        }
        p.turn = !p.turn;
        p.halfmoves = p.halfmoves.saturating_add(1);
        if self.turn == Color::Black {
            p.fullmoves = p.fullmoves.saturating_add(1);
        }
        p.update_check_info();
        p
    }

    // ---------------------------------------------------------------------------------------
    // Game state
    // ---------------------------------------------------------------------------------------

    /// True if the side to move is checkmated.
    pub fn is_checkmate(&self) -> bool {
        self.is_check() && !self.has_legal_moves()
    }

    /// True if the side to move is stalemated.
    pub fn is_stalemate(&self) -> bool {
        !self.is_check() && !self.has_legal_moves()
    }

    /// True if neither side can possibly checkmate (FIDE's "dead position" for the cases that
    /// are decided by material alone): K v K, K+minor v K, and K+bishops v K+bishops with all
    /// bishops on squares of one colour.
    pub fn is_insufficient_material(&self) -> bool {
        let b = &self.board;
        if (b.by_role(Role::Pawn) | b.rooks_and_queens()).any() {
            return false;
        }
        let knights = b.by_role(Role::Knight);
        let bishops = b.by_role(Role::Bishop);
        let minors = knights | bishops;
        if minors.count() <= 1 {
            return true;
        }
        // Only bishops, all on one colour: no mate is possible whoever owns them.
        knights.is_empty()
            && ((bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty())
    }

    /// True if `color` cannot possibly checkmate, whatever the opponent does (used to score
    /// a loss on time as a draw). Same rule as python-chess and lichess.
    pub fn has_insufficient_material(&self, color: Color) -> bool {
        let b = &self.board;
        let ours = b.by_color(color);
        let theirs = b.by_color(!color);
        if (ours & (b.by_role(Role::Pawn) | b.rooks_and_queens())).any() {
            return false;
        }
        if (ours & b.by_role(Role::Knight)).any() {
            // K+N mates only with help: an opponent piece other than a queen to block with.
            return ours.count() <= 2
                && (theirs & !b.by_role(Role::King) & !b.by_role(Role::Queen)).is_empty();
        }
        if (ours & b.by_role(Role::Bishop)).any() {
            let bishops = b.by_role(Role::Bishop);
            let one_colour = (bishops & Bitboard::DARK_SQUARES).is_empty()
                || (bishops & Bitboard::LIGHT_SQUARES).is_empty();
            return one_colour && (b.by_role(Role::Pawn) | b.by_role(Role::Knight)).is_empty();
        }
        true
    }
}

/// Squares of castling paths for each colour, king file and rook file (§2).
struct CastlePaths {
    /// Squares from the king to its destination and from the rook to its destination,
    /// both inclusive, less the king's and rook's own squares: all must be empty.
    must_be_empty: u64,
    /// Squares strictly between the king and its destination: none may be attacked.
    king_passes: u64,
}

/// Squares from file `a` to file `b`, both inclusive, on `rank`.
const fn span(rank: usize, a: usize, b: usize) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let mut bits = 0u64;
    let mut f = lo;
    while f <= hi {
        bits |= 1 << (rank * 8 + f);
        f += 1;
    }
    bits
}

static CASTLE_PATHS: [CastlePaths; 128] = {
    let mut table = [const {
        CastlePaths {
            must_be_empty: 0,
            king_passes: 0,
        }
    }; 128];
    let mut i = 0;
    while i < 128 {
        let (color, king, rook) = (i / 64, i / 8 % 8, i % 8);
        let rank = if color == 0 { 0 } else { 7 };
        let (king_to, rook_to) = if rook < king { (2, 3) } else { (6, 5) };
        let own = 1u64 << (rank * 8 + king) | 1u64 << (rank * 8 + rook);
        let king_span = span(rank, king, king_to);
        table[i] = CastlePaths {
            must_be_empty: (king_span | span(rank, rook, rook_to)) & !own,
            king_passes: king_span & !(1u64 << (rank * 8 + king)) & !(1u64 << (rank * 8 + king_to)),
        };
        i += 1;
    }
    table
};

/// Receives generated moves: sets of destinations per piece, and whole pawn sets shifted by a
/// fixed offset, so that counting needs only popcounts.
trait Sink {
    fn piece(&mut self, from: Square, targets: Bitboard);
    fn pawns(&mut self, targets: Bitboard, offset: i32);
    fn promotions(&mut self, targets: Bitboard, offset: i32);
    fn pawn_move(&mut self, from: Square, to: Square, promotion: bool);
    fn special(&mut self, m: Move);
}

impl Sink for MoveList {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        for to in targets {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, offset: i32) {
        for to in targets {
            self.push(Move::normal(
                Square::new_unchecked((to.index() as i32 - offset) as u32),
                to,
            ));
        }
    }

    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i32) {
        for to in targets {
            let from = Square::new_unchecked((to.index() as i32 - offset) as u32);
            self.pawn_move(from, to, true);
        }
    }

    #[inline(always)]
    fn pawn_move(&mut self, from: Square, to: Square, promotion: bool) {
        if promotion {
            for role in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
                self.push(Move::promotion(from, to, role));
            }
        } else {
            self.push(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        self.push(m);
    }
}

/// Passes on to a move list only captures, en passant and promotions.
struct Tactical<'a> {
    list: &'a mut MoveList,
    theirs: Bitboard,
}

impl Sink for Tactical<'_> {
    #[inline(always)]
    fn piece(&mut self, from: Square, targets: Bitboard) {
        self.list.piece(from, targets & self.theirs);
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, offset: i32) {
        // Pushes land on empty squares, captures on the opponent's pieces.
        self.list.pawns(targets & self.theirs, offset);
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, offset: i32) {
        self.list.promotions(targets, offset);
    }
    #[inline(always)]
    fn pawn_move(&mut self, from: Square, to: Square, promotion: bool) {
        if promotion || self.theirs.contains(to) {
            self.list.pawn_move(from, to, promotion);
        }
    }
    #[inline(always)]
    fn special(&mut self, m: Move) {
        if !m.is_castle() {
            self.list.push(m);
        }
    }
}

struct Counter(u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn pawns(&mut self, targets: Bitboard, _offset: i32) {
        self.0 += u64::from(targets.count());
    }
    #[inline(always)]
    fn promotions(&mut self, targets: Bitboard, _offset: i32) {
        self.0 += 4 * u64::from(targets.count());
    }
    #[inline(always)]
    fn pawn_move(&mut self, _from: Square, _to: Square, promotion: bool) {
        self.0 += if promotion { 4 } else { 1 };
    }
    #[inline(always)]
    fn special(&mut self, _m: Move) {
        self.0 += 1;
    }
}

/// Records only whether some move was found.
struct Found(bool);

impl Sink for Found {
    fn piece(&mut self, _from: Square, targets: Bitboard) {
        self.0 |= targets.any();
    }
    fn pawns(&mut self, targets: Bitboard, _offset: i32) {
        self.0 |= targets.any();
    }
    fn promotions(&mut self, targets: Bitboard, _offset: i32) {
        self.0 |= targets.any();
    }
    fn pawn_move(&mut self, _from: Square, _to: Square, _promotion: bool) {
        self.0 = true;
    }
    fn special(&mut self, _m: Move) {
        self.0 = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::startpos::StartId;

    /// The incrementally updated hash, checkers and pins must equal a recomputation after
    /// every move of many random games from random start positions.
    #[test]
    fn incremental_state_matches_recomputation() {
        let mut rand = crate::testing::xorshift(0x2545_F491_4F6C_DD1Du64);
        let mut moves_played = 0;
        for game in 0..300 {
            let id = StartId::new((rand() % 960) as u32).unwrap();
            let mut pos = id.position();
            for _ in 0..(40 + game % 160) {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer castling when available, so its hashing is exercised.
                let castle = moves.iter().find(|m| m.is_castle()).copied();
                let m = match castle {
                    Some(c) if rand() % 2 == 0 => c,
                    _ => moves[(rand() % moves.len() as u64) as usize],
                };
                pos = pos.play(m);
                moves_played += 1;
                assert_eq!(
                    pos.hash(),
                    pos.compute_hash(),
                    "hash after {m:?}: {}",
                    pos.fen()
                );
                let mut fresh = pos;
                fresh.update_check_info();
                assert_eq!(fresh.checkers(), pos.checkers());
                assert_eq!(fresh.pinned(), pos.pinned());
                let reread = Position::from_fen(&pos.fen()).unwrap();
                assert_eq!(reread, pos, "FEN round trip");
            }
        }
        assert!(moves_played > 10_000);
    }

    /// The tactical moves are exactly the legal moves that capture (en passant included) or
    /// promote, in the same order, in random games from random start positions and in the
    /// published perft positions full of captures, promotions and en passant.
    #[test]
    fn tactical_moves_are_the_captures_and_promotions() {
        let mut rand = crate::testing::xorshift(0x9E37_79B9_7F4A_7C15u64);
        let check = |pos: &Position| -> [usize; 3] {
            let theirs = pos.board().by_color(!pos.turn());
            let expected: Vec<Move> = pos
                .legal_moves()
                .iter()
                .copied()
                .filter(|m| {
                    m.is_promotion()
                        || m.is_en_passant()
                        || (!m.is_castle() && theirs.contains(m.to()))
                })
                .collect();
            let mut list = MoveList::new();
            list.push(Move::normal(Square::A1, Square::H8)); // replaced, not appended to
            pos.tactical_moves_into(&mut list);
            assert_eq!(list.as_slice(), expected.as_slice(), "{}", pos.fen());
            [
                expected.iter().filter(|m| m.is_promotion()).count(),
                expected.iter().filter(|m| m.is_en_passant()).count(),
                expected.len(),
            ]
        };
        let mut seen = [0; 3];
        let mut tally = |counts: [usize; 3]| {
            for (s, c) in seen.iter_mut().zip(counts) {
                *s += c;
            }
        };
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "8/8/8/2k5/3Pp3/8/8/4K3 b - d3 0 1",
        ] {
            tally(check(&Position::from_fen(fen).unwrap()));
        }
        for _ in 0..300 {
            let mut pos = StartId::new((rand() % 960) as u32).unwrap().position();
            for _ in 0..200 {
                tally(check(&pos));
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[(rand() % moves.len() as u64) as usize]);
            }
        }
        let [promotions, en_passant, all] = seen;
        assert!(
            promotions > 100 && en_passant > 20 && all > 10_000,
            "{seen:?}"
        );
    }

    #[test]
    fn hash_distinguishes_castling_rights_and_side_to_move() {
        let a = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1").unwrap();
        let b = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w K - 0 1").unwrap();
        let c = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R b KQ - 0 1").unwrap();
        assert_ne!(a.hash(), b.hash());
        assert_ne!(a.hash(), c.hash());
    }

    #[test]
    fn en_passant_square_kept_only_when_capture_is_legal() {
        // After e2e4 no black pawn can take: the square is dropped and the hash equals the
        // same position reached without a double push.
        let pos = Position::from_fen("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1").unwrap();
        let m = pos
            .parse_uci("e2e4", crate::uci::CastlingMode::Chess960)
            .unwrap();
        let after = pos.play(m);
        assert_eq!(after.ep_square(), None);
        let same = Position::from_fen("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1").unwrap();
        assert_eq!(after.hash(), same.hash());
        // With a black pawn beside it, the capture is legal and the square kept.
        let pos = Position::from_fen("4k3/8/8/8/5p2/8/4P3/4K3 w - - 0 1").unwrap();
        let after = pos.play(
            pos.parse_uci("e2e4", crate::uci::CastlingMode::Chess960)
                .unwrap(),
        );
        assert_eq!(after.ep_square(), Square::parse("e3"));
        assert_eq!(after.fen(), "4k3/8/8/8/4Pp2/8/8/4K3 b - e3 0 1");
    }
}
