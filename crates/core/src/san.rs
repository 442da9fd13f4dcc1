//! Standard Algebraic Notation: strict writing, tolerant reading (§3).

use crate::moves::{Move, MoveKind, MoveList};
use crate::position::Position;
use crate::types::{CastlingSide, File, Rank, Role, Square};
use std::fmt;

/// Why a SAN move was not accepted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SanError {
    /// Not SAN at all.
    Syntax {
        /// The text given.
        san: String,
    },
    /// Well formed, but no legal move fits.
    Illegal {
        /// The text given.
        san: String,
        /// Why.
        reason: String,
    },
    /// More than one legal move fits.
    Ambiguous {
        /// The text given.
        san: String,
        /// The moves that fit, in SAN.
        candidates: Vec<String>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::Syntax { san } => write!(
                f,
                "'{san}' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)"
            ),
            SanError::Illegal { san, reason } => write!(f, "illegal move '{san}': {reason}"),
            SanError::Ambiguous { san, candidates } => write!(
                f,
                "ambiguous move '{san}': could be {}",
                candidates.join(" or ")
            ),
        }
    }
}

impl std::error::Error for SanError {}

/// A parsed SAN token, before it is matched against the legal moves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum SanToken {
    Castle(CastlingSide),
    Normal {
        role: Role,
        file: Option<File>,
        rank: Option<Rank>,
        to: Square,
        promotion: Option<Role>,
    },
}

pub(crate) fn parse_token(san: &str) -> Option<SanToken> {
    let mut s = san.trim();
    // Suffixes real files carry in any combination: check, mate, annotation glyphs.
    s = s.trim_end_matches(['+', '#', '!', '?']);
    if let Some(rest) = s.strip_suffix("e.p.") {
        s = rest.trim_end();
    }
    match s {
        "O-O" | "0-0" | "o-o" => return Some(SanToken::Castle(CastlingSide::HSide)),
        "O-O-O" | "0-0-0" | "o-o-o" => return Some(SanToken::Castle(CastlingSide::ASide)),
        _ => {}
    }
    let b = s.as_bytes();
    if !s.is_ascii() || b.len() < 2 {
        return None;
    }
    let (role, mut body) = match b[0] {
        b'N' | b'B' | b'R' | b'Q' | b'K' => (Role::from_char(b[0] as char)?, &b[1..]),
        b'P' => (Role::Pawn, &b[1..]),
        _ => (Role::Pawn, b),
    };
    // Promotion suffix: "=Q", "Q", "=q"? (lower case only after '=' to avoid "b" clashes).
    let mut promotion = None;
    if role == Role::Pawn && body.len() >= 3 {
        let last = body[body.len() - 1];
        let before = body[body.len() - 2];
        let promo = match last {
            b'N' | b'B' | b'R' | b'Q' => Role::from_char(last as char),
            b'n' | b'b' | b'r' | b'q' if before == b'=' => Role::from_char(last as char),
            _ => None,
        };
        if let Some(p) = promo {
            promotion = Some(p);
            body = &body[..body.len() - 1];
            if body.last() == Some(&b'=') {
                body = &body[..body.len() - 1];
            }
        }
    }
    if body.len() < 2 {
        return None;
    }
    let to = Square::parse(std::str::from_utf8(&body[body.len() - 2..]).ok()?)?;
    let mut rest = &body[..body.len() - 2];
    if let Some((&b'x', r)) = rest.split_last() {
        rest = r;
    } else if let Some((&b':', r)) = rest.split_last() {
        rest = r;
    }
    let (mut file, mut rank) = (None, None);
    match rest {
        [] => {}
        [c] if (b'a'..=b'h').contains(c) => file = File::from_char(*c as char),
        [c] if (b'1'..=b'8').contains(c) => rank = Rank::from_char(*c as char),
        [f, r] if (b'a'..=b'h').contains(f) && (b'1'..=b'8').contains(r) => {
            file = File::from_char(*f as char);
            rank = Rank::from_char(*r as char);
        }
        _ => return None,
    }
    Some(SanToken::Normal {
        role,
        file,
        rank,
        to,
        promotion,
    })
}

impl Position {
    /// Reads a SAN move, tolerant of what real PGN files contain: `0-0`, `e8Q`, missing or
    /// superfluous `x`, `+` and `#`. A king move such as `Kg1` is never read as castling.
    pub fn parse_san(&self, san: &str) -> Result<Move, SanError> {
        match crate::san_fast::find(self, san.as_bytes()) {
            Some(m) => Ok(m),
            None => self.parse_san_full(san),
        }
    }

    /// The complete reader, with every tolerance and the error messages; `parse_san` asks it
    /// whenever its fast path does not answer.
    pub(crate) fn parse_san_full(&self, san: &str) -> Result<Move, SanError> {
        let token = parse_token(san).ok_or_else(|| SanError::Syntax {
            san: san.to_string(),
        })?;
        let mut moves = MoveList::new();
        self.legal_moves_into(&mut moves);
        let illegal = |reason: String| SanError::Illegal {
            san: san.to_string(),
            reason,
        };
        match token {
            SanToken::Castle(side) => moves
                .iter()
                .copied()
                .find(|m| m.castling_side() == Some(side))
                .ok_or_else(|| illegal(format!("{} cannot castle {} here", self.turn(), side))),
            SanToken::Normal {
                role,
                file,
                rank,
                to,
                promotion,
            } => {
                // No allocation on the way to an answer: PGN readers call this for every move.
                let fits = |m: &Move| {
                    m.to() == to
                        && !m.is_castle()
                        && self.board().role_at(m.from()) == Some(role)
                        && file.is_none_or(|f| m.from().file() == f)
                        && rank.is_none_or(|r| m.from().rank() == r)
                };
                let mut found = None;
                let mut count = 0;
                let mut promotion_needed = false;
                for m in moves.iter().filter(|m| fits(m)) {
                    if m.promotion_role() == promotion {
                        found = Some(*m);
                        count += 1;
                    } else if promotion.is_none() {
                        promotion_needed = true;
                    }
                }
                match (found, count) {
                    (Some(m), 1) => Ok(m),
                    (None, _) if promotion_needed => Err(illegal(
                        "a promotion needs a piece: =Q, =R, =B or =N".to_string(),
                    )),
                    (None, _) => Err(illegal(format!(
                        "no {} of {} can move to {to}",
                        role_name(role),
                        self.turn()
                    ))),
                    _ => Err(SanError::Ambiguous {
                        san: san.to_string(),
                        candidates: moves
                            .iter()
                            .filter(|m| fits(m) && m.promotion_role() == promotion)
                            .map(|m| self.san(*m))
                            .collect(),
                    }),
                }
            }
        }
    }

    /// Writes the legal move `m` in SAN, with `+` or `#`.
    pub fn san(&self, m: Move) -> String {
        let mut s = self.san_without_suffix(m);
        let after = self.play(m);
        if after.is_check() {
            s.push(if after.has_legal_moves() { '+' } else { '#' });
        }
        s
    }

    /// SAN without the check or mate suffix.
    pub fn san_without_suffix(&self, m: Move) -> String {
        let from = m.from();
        let to = m.to();
        if let MoveKind::Castle = m.kind() {
            return CastlingSide::from_king_rook(from, to).san().to_string();
        }
        let role = self.board().role_at(from).unwrap_or(Role::Pawn);
        let capture = m.is_en_passant() || self.board().occupied().contains(to);
        let mut s = String::with_capacity(8);
        if role == Role::Pawn {
            if capture {
                s.push(from.file().char());
                s.push('x');
            }
            to.push_name(&mut s);
            if let Some(p) = m.promotion_role() {
                s.push('=');
                s.push(p.upper_char());
            }
            return s;
        }
        s.push(role.upper_char());
        // Rivals: the other pieces of the role that attack the square (for every piece but a
        // pawn, attacking a square is moving there). Most moves have none, and then no list of
        // legal moves is needed.
        let rivals =
            self.attackers(to, self.turn(), self.board().occupied()) & self.board().by_role(role);
        if role != Role::King && rivals.without(from).any() {
            // Only legal moves compete, so a pinned piece never forces disambiguation.
            let others: Vec<Square> = self
                .legal_moves()
                .iter()
                .filter(|o| {
                    o.to() == to
                        && o.from() != from
                        && !o.is_castle()
                        && self.board().role_at(o.from()) == Some(role)
                })
                .map(|o| o.from())
                .collect();
            if !others.is_empty() {
                if others.iter().all(|o| o.file() != from.file()) {
                    s.push(from.file().char());
                } else if others.iter().all(|o| o.rank() != from.rank()) {
                    s.push(from.rank().char());
                } else {
                    s.push(from.file().char());
                    s.push(from.rank().char());
                }
            }
        }
        if capture {
            s.push('x');
        }
        to.push_name(&mut s);
        s
    }
}

fn role_name(role: Role) -> &'static str {
    match role {
        Role::Pawn => "pawn",
        Role::Knight => "knight",
        Role::Bishop => "bishop",
        Role::Rook => "rook",
        Role::Queen => "queen",
        Role::King => "king",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        assert_eq!(
            parse_token("O-O"),
            Some(SanToken::Castle(CastlingSide::HSide))
        );
        assert_eq!(
            parse_token("0-0-0+"),
            Some(SanToken::Castle(CastlingSide::ASide))
        );
        assert!(matches!(
            parse_token("e8Q"),
            Some(SanToken::Normal {
                promotion: Some(Role::Queen),
                ..
            })
        ));
        assert!(matches!(
            parse_token("bxc8=N#"),
            Some(SanToken::Normal {
                role: Role::Pawn,
                file: Some(File::B),
                promotion: Some(Role::Knight),
                ..
            })
        ));
        assert!(matches!(
            parse_token("Nbd7"),
            Some(SanToken::Normal {
                role: Role::Knight,
                file: Some(File::B),
                rank: None,
                ..
            })
        ));
        assert!(matches!(
            parse_token("R1a3"),
            Some(SanToken::Normal {
                role: Role::Rook,
                file: None,
                rank: Some(Rank::First),
                ..
            })
        ));
        assert_eq!(parse_token("Zz9"), None);
        assert_eq!(parse_token(""), None);
        assert_eq!(parse_token("e9"), None);
        assert_eq!(parse_token("Nxxe4"), None);
    }

    /// Disambiguation asks the attack tables first and the legal moves only when another piece
    /// of the role attacks the square: a pinned rival does not count, a free one does.
    #[test]
    fn disambiguation_counts_only_legal_rivals() {
        let g2f4 = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let m = *pos
                .legal_moves()
                .iter()
                .find(|m| {
                    Some(m.from()) == Square::parse("g2") && Some(m.to()) == Square::parse("f4")
                })
                .unwrap();
            pos.san(m)
        };
        // The knight on e2 is pinned by the rook on e8.
        assert_eq!(g2f4("4r2k/8/8/8/8/8/4N1N1/4K3 w - - 0 1"), "Nf4");
        assert_eq!(g2f4("rk6/8/8/8/8/8/4N1N1/4K3 w - - 0 1"), "Ngf4");
        // A rival on another file: the file; on the same file: the rank; one of each: both.
        assert_eq!(g2f4("rk6/8/8/8/8/7N/6N1/4K3 w - - 0 1"), "Ngf4");
        assert_eq!(g2f4("rk6/8/6N1/8/8/8/6N1/4K3 w - - 0 1"), "N2f4");
        assert_eq!(g2f4("rk6/8/6N1/8/8/8/4N1N1/4K3 w - - 0 1"), "Ng2f4");
    }
}
