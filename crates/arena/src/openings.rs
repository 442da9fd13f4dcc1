//! Where games start: random Chess960 start positions from the seed (the default), a list of
//! start IDs, or positions from an EPD or PGN file.

use crate::referee::Opening;
use chess960_core::{Move, Position, StartId};
use std::fmt;
use std::path::{Path, PathBuf};

/// SplitMix64: small, fast, and fully determined by its seed, so `-seed N` replays a match's
/// openings exactly.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`), without modulo bias.
    pub fn below(&mut self, n: u64) -> u64 {
        let n = n.max(1);
        let limit = u64::MAX - u64::MAX % n;
        loop {
            let x = self.next_u64();
            if x < limit {
                return x % n;
            }
        }
    }

    /// Shuffles `v` (Fisher–Yates).
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            v.swap(i, j);
        }
    }
}

/// A seed for matches run without `-seed`: the operating system's per-process hash keys
/// (`RandomState` draws them from its random source), the time and the process ID. Kept to 48
/// bits so that it is easy to type back as `-seed N`.
pub fn entropy_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    h.write_u128(nanos);
    h.write_u32(std::process::id());
    h.finish() >> 16
}

/// The order in which a list of openings is used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// As listed, from `start=`, cycling.
    #[default]
    Sequential,
    /// Shuffled with the seed, cycling.
    Random,
}

/// The file formats for `-openings file=…`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// One position per line (FEN's first four fields, EPD operations ignored).
    Epd,
    /// Games: the start (`FEN` tag, else the classical position) and their moves as book.
    Pgn,
}

/// `-openings …`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum OpeningsSpec {
    /// Uniformly random start IDs drawn from the seed (the default).
    #[default]
    Random,
    /// `ids=518,0,100-110`.
    Ids {
        /// The IDs.
        ids: Vec<StartId>,
        /// In which order.
        order: Order,
    },
    /// `file=… format=epd|pgn`.
    File {
        /// The file.
        path: PathBuf,
        /// Its format.
        format: Format,
        /// In which order.
        order: Order,
        /// Book moves kept from PGN games (`plies=`).
        plies: Option<usize>,
        /// The first opening used, from 1 (`start=`).
        start: usize,
    },
}

/// Why openings could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpeningsError(pub String);

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for OpeningsError {}

/// The sequence of openings of a match.
#[derive(Debug, Clone)]
pub struct Openings {
    list: Vec<Opening>,
    next: usize,
    rng: Rng,
}

impl Openings {
    /// Reads the openings `spec` names; `seed` drives random choices.
    pub fn load(spec: &OpeningsSpec, seed: u64) -> Result<Openings, OpeningsError> {
        let mut rng = Rng::new(seed);
        let (mut list, order, start) = match spec {
            OpeningsSpec::Random => (Vec::new(), Order::Sequential, 1),
            OpeningsSpec::Ids { ids, order } => (
                ids.iter().map(|&id| Opening::from_id(id)).collect(),
                *order,
                1,
            ),
            OpeningsSpec::File {
                path,
                format,
                order,
                plies,
                start,
            } => {
                let text = std::fs::read_to_string(path).map_err(|e| {
                    OpeningsError(format!(
                        "cannot read the openings file {}: {e}",
                        path.display()
                    ))
                })?;
                let mut list = match format {
                    Format::Epd => read_epd(&text, path)?,
                    Format::Pgn => read_pgn(&text, path)?,
                };
                if let Some(p) = plies {
                    for o in &mut list {
                        o.moves.truncate(*p);
                    }
                }
                if list.is_empty() {
                    return Err(OpeningsError(format!(
                        "the openings file {} has no positions",
                        path.display()
                    )));
                }
                if *start == 0 || *start > list.len() {
                    return Err(OpeningsError(format!(
                        "-openings start={start}: the file {} has {} openings",
                        path.display(),
                        list.len()
                    )));
                }
                (list, *order, *start)
            }
        };
        if order == Order::Random {
            rng.shuffle(&mut list);
        }
        Ok(Openings {
            list,
            next: start - 1,
            rng,
        })
    }

    /// The next opening.
    pub fn next_opening(&mut self) -> Opening {
        if self.list.is_empty() {
            let id = StartId::new(self.rng.below(960) as u32).unwrap_or(StartId::CLASSICAL);
            return Opening::from_id(id);
        }
        let o = self.list[self.next % self.list.len()].clone();
        self.next += 1;
        o
    }
}

/// Reads `ids=` values: `518,0,100-110`.
pub fn parse_ids(text: &str) -> Result<Vec<StartId>, String> {
    let mut ids = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let one = |s: &str| -> Result<u32, String> {
            let n: u32 = s
                .trim()
                .parse()
                .map_err(|_| format!("'{s}' is not a start position ID (0..959)"))?;
            StartId::new(n).map_err(|e| e.to_string())?;
            Ok(n)
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (one(a)?, one(b)?);
                if a > b {
                    return Err(format!("the range {part} is empty"));
                }
                for n in a..=b {
                    ids.push(StartId::new(n).map_err(|e| e.to_string())?);
                }
            }
            None => ids.push(StartId::new(one(part)?).map_err(|e| e.to_string())?),
        }
    }
    if ids.is_empty() {
        return Err("no IDs given".to_string());
    }
    Ok(ids)
}

fn read_epd(text: &str, path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields.len() < 4 {
            return Err(OpeningsError(format!(
                "{}:{}: not an EPD position (fewer than four fields)",
                path.display(),
                i + 1
            )));
        }
        // A full FEN (with both counters) is accepted too; EPD operations are ignored.
        let counters = fields.len() >= 6
            && fields[4].bytes().all(|b| b.is_ascii_digit())
            && fields[5].bytes().all(|b| b.is_ascii_digit());
        let fen = if counters {
            fields[..6].join(" ")
        } else {
            format!("{} 0 1", fields[..4].join(" "))
        };
        let pos = Position::from_fen(&fen).map_err(|e| {
            OpeningsError(format!(
                "{}:{}: invalid position: {e}",
                path.display(),
                i + 1
            ))
        })?;
        if !pos.has_legal_moves() {
            return Err(OpeningsError(format!(
                "{}:{}: the position has no legal moves",
                path.display(),
                i + 1
            )));
        }
        out.push(Opening {
            start: pos,
            moves: Vec::new(),
            label: format!("{}:{}", file_name(path), i + 1),
        });
    }
    Ok(out)
}

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|f| f.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// Reads the games of a PGN file as openings: each game's start position and main line (with
/// chess960-pgn's reader, which checks every move and knows the Chess960 tags).
fn read_pgn(text: &str, path: &Path) -> Result<Vec<Opening>, OpeningsError> {
    let mut reader = chess960_pgn::Reader::new(text.as_bytes());
    let mut out = Vec::new();
    loop {
        let game = match reader.read_game() {
            Ok(Some(Ok(game))) => game,
            Ok(Some(Err(e))) => {
                return Err(OpeningsError(format!("{}: {e}", path.display())));
            }
            Ok(None) => break,
            Err(e) => {
                return Err(OpeningsError(format!(
                    "cannot read the openings file {}: {e}",
                    path.display()
                )))
            }
        };
        let moves: Vec<Move> = game.moves.moves().collect();
        if !game.end_position().has_legal_moves() {
            return Err(OpeningsError(format!(
                "{}: game {}: its last position has no legal moves",
                path.display(),
                out.len() + 1
            )));
        }
        out.push(Opening {
            start: game.start,
            moves,
            label: format!("{} game {}", file_name(path), out.len() + 1),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_ranges() {
        let ids = parse_ids("518, 0,3-5").unwrap();
        let n: Vec<u16> = ids.iter().map(|i| i.get()).collect();
        assert_eq!(n, vec![518, 0, 3, 4, 5]);
        assert!(parse_ids("960x").is_err());
        assert!(parse_ids("5-3").is_err());
        assert!(parse_ids("").is_err());
        assert!(parse_ids("1000").is_err());
    }

    #[test]
    fn random_openings_follow_the_seed() {
        let mut a = Openings::load(&OpeningsSpec::Random, 7).unwrap();
        let mut b = Openings::load(&OpeningsSpec::Random, 7).unwrap();
        for _ in 0..20 {
            assert_eq!(a.next_opening().start, b.next_opening().start);
        }
        let ids = OpeningsSpec::Ids {
            ids: parse_ids("1,2,3").unwrap(),
            order: Order::Sequential,
        };
        let mut o = Openings::load(&ids, 1).unwrap();
        let got: Vec<_> = (0..4)
            .map(|_| o.next_opening().start_id().unwrap().get())
            .collect();
        assert_eq!(got, vec![1, 2, 3, 1]);
    }

    #[test]
    fn pgn_and_epd_files() {
        let dir = tempfile::tempdir().unwrap();
        let pgn = dir.path().join("o.pgn");
        std::fs::write(
            &pgn,
            "[Event \"x\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1\"]\n\n\
             1. e4 {comment} e5 (1... c5 2. Nf3) 2. Nf3 $1 *\n\n\
             [Event \"y\"]\n\n1.d4 d5 1/2-1/2\n",
        )
        .unwrap();
        let spec = OpeningsSpec::File {
            path: pgn.clone(),
            format: Format::Pgn,
            order: Order::Sequential,
            plies: None,
            start: 1,
        };
        let mut o = Openings::load(&spec, 0).unwrap();
        let first = o.next_opening();
        assert_eq!(first.start_id().unwrap().get(), 0);
        assert_eq!(first.moves.len(), 3);
        let second = o.next_opening();
        assert_eq!(second.start_id().unwrap().get(), 518);
        assert_eq!(second.moves.len(), 2);

        let epd = dir.path().join("o.epd");
        std::fs::write(
            &epd,
            "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - id \"0\";\n\n\
             rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n",
        )
        .unwrap();
        let spec = OpeningsSpec::File {
            path: epd.clone(),
            format: Format::Epd,
            order: Order::Sequential,
            plies: None,
            start: 2,
        };
        let mut o = Openings::load(&spec, 0).unwrap();
        assert_eq!(o.next_opening().start_id().unwrap().get(), 518);
        assert_eq!(o.next_opening().start_id().unwrap().get(), 0);

        std::fs::write(&epd, "this is not a fen\n").unwrap();
        let err = Openings::load(
            &OpeningsSpec::File {
                path: epd,
                format: Format::Epd,
                order: Order::Sequential,
                plies: None,
                start: 1,
            },
            0,
        )
        .unwrap_err();
        assert!(err.0.contains("o.epd:1"), "{err}");
    }
}
