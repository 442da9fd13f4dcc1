//! Reading training data: binary record files (`.bin`, [`chess960_engine::trainingdata`]) and
//! text files of `FEN;result;score` lines as `chess960-engine datagen` writes them (result 1.0,
//! 0.5 or 0.0 and score in centipawns, both from White's point of view).
//!
//! Every position becomes a 32-byte [`Record`] (its canonical encoding), so that a few million
//! positions fit in memory compactly. Loading filters (early positions, huge scores),
//! de-duplicates (the same record bytes are kept once) and holds out the last share of each file
//! for validation: `datagen` writes whole games in order, so that holds out whole games, except
//! the one at the border.

use chess960_core::Position;
use chess960_engine::trainingdata::{Outcome, Record, RECORD_SIZE};
use std::collections::HashSet;
use std::fmt;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

/// A position in memory: its record's bytes.
pub type Packed = [u8; RECORD_SIZE];

/// Where in a file an error is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// A text line, counted from 1.
    Line(u64),
    /// A binary record, counted from 0 (at byte `32 · index`).
    Record(u64),
}

/// Data that cannot be read, with the file and the place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The file.
    pub path: String,
    /// Where in it, when the error is about one line or record.
    pub place: Option<Place>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.place {
            None => write!(f, "{}: {}", self.path, self.message),
            Some(Place::Line(n)) => write!(f, "{}: line {n}: {}", self.path, self.message),
            Some(Place::Record(n)) => write!(
                f,
                "{}: record {n} (byte {}): {}",
                self.path,
                n * RECORD_SIZE as u64,
                self.message
            ),
        }
    }
}

impl std::error::Error for DataError {}

/// Reads one `FEN;result;score` line.
pub fn parse_line(line: &str) -> Result<Record, String> {
    let mut fields = line.split(';');
    let (Some(fen), Some(result), Some(score), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err("expected three fields, FEN;result;score".into());
    };
    let pos = Position::from_fen(fen.trim()).map_err(|e| format!("FEN '{fen}': {e}"))?;
    let outcome = match result.trim() {
        "1.0" | "1" => Outcome::WhiteWins,
        "0.5" => Outcome::Draw,
        "0.0" | "0" => Outcome::BlackWins,
        other => return Err(format!("result '{other}' (1.0, 0.5 or 0.0 expected)")),
    };
    let score: i64 = score
        .trim()
        .parse()
        .map_err(|_| format!("score '{score}' is not a whole number of centipawns"))?;
    Ok(Record {
        board: *pos.board(),
        turn: pos.turn(),
        // Beyond ±32767 only the sign matters: the filters drop such scores anyway.
        white_score: score.clamp(-32767, 32767) as i16,
        outcome,
        fullmove: pos.fullmoves().min(u32::from(u16::MAX)) as u16,
    })
}

/// Reads text lines from `reader`; `path` names it in errors. Empty lines are skipped.
pub fn read_text(path: &str, reader: impl Read) -> Result<Vec<Record>, DataError> {
    let mut out = Vec::new();
    for (i, line) in BufReader::new(reader).lines().enumerate() {
        let place = Some(Place::Line(i as u64 + 1));
        let line = line.map_err(|e| DataError {
            path: path.into(),
            place,
            message: e.to_string(),
        })?;
        if line.trim().is_empty() {
            continue;
        }
        out.push(parse_line(&line).map_err(|message| DataError {
            path: path.into(),
            place,
            message,
        })?);
    }
    Ok(out)
}

/// Reads binary records from `reader`; `path` names it in errors.
pub fn read_binary(path: &str, mut reader: impl Read) -> Result<Vec<Record>, DataError> {
    let mut bytes = Vec::new();
    reader.read_to_end(&mut bytes).map_err(|e| DataError {
        path: path.into(),
        place: None,
        message: e.to_string(),
    })?;
    if bytes.len() % RECORD_SIZE != 0 {
        return Err(DataError {
            path: path.into(),
            place: Some(Place::Record((bytes.len() / RECORD_SIZE) as u64)),
            message: format!(
                "the file ends inside a record ({} bytes, not a multiple of {RECORD_SIZE})",
                bytes.len()
            ),
        });
    }
    bytes
        .chunks_exact(RECORD_SIZE)
        .enumerate()
        .map(|(i, chunk)| {
            Record::decode(chunk.try_into().expect("chunks of RECORD_SIZE")).map_err(|e| {
                DataError {
                    path: path.into(),
                    place: Some(Place::Record(i as u64)),
                    message: e.to_string(),
                }
            })
        })
        .collect()
}

/// Reads a data file: binary records if its name ends in `.bin`, text lines otherwise.
pub fn read_file(path: &Path) -> Result<Vec<Record>, DataError> {
    let name = path.display().to_string();
    let file = std::fs::File::open(path).map_err(|e| DataError {
        path: name.clone(),
        place: None,
        message: e.to_string(),
    })?;
    if name.ends_with(".bin") {
        read_binary(&name, file)
    } else {
        read_text(&name, file)
    }
}

/// Which positions to keep.
#[derive(Clone, Copy, Debug)]
pub struct Filter {
    /// Drop positions before this full move (openings are mostly random plies).
    pub min_fullmove: u16,
    /// Drop positions whose |score| is above this (centipawns): the game is decided and the
    /// score says little about the position.
    pub max_score: i32,
}

impl Default for Filter {
    fn default() -> Filter {
        Filter {
            min_fullmove: 5,
            max_score: 3000,
        }
    }
}

/// What loading did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoadStats {
    /// Positions read.
    pub read: u64,
    /// Dropped for being before `min_fullmove`.
    pub early: u64,
    /// Dropped for a score beyond `max_score`.
    pub big_score: u64,
    /// Dropped as duplicates of a position kept before (validation positions also when they
    /// repeat a training position).
    pub duplicates: u64,
}

/// Training and validation positions.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Training positions, in file order until shuffled.
    pub train: Vec<Packed>,
    /// Held-out positions.
    pub val: Vec<Packed>,
    /// What loading did.
    pub stats: LoadStats,
}

impl Dataset {
    /// Builds a dataset from files already read, in order: see [`Dataset::add_file`] and
    /// [`Dataset::deduplicate`].
    pub fn from_files(files: Vec<Vec<Record>>, filter: Filter, val_share: f64) -> Dataset {
        let mut d = Dataset::default();
        for records in files {
            d.add_file(records, filter, val_share);
        }
        d.deduplicate();
        d
    }

    /// Adds one file's records, in file order: filtered, then its last `val_share` held out.
    pub fn add_file(&mut self, records: Vec<Record>, filter: Filter, val_share: f64) {
        self.stats.read += records.len() as u64;
        let mut kept = Vec::with_capacity(records.len());
        for r in records {
            if r.fullmove < filter.min_fullmove {
                self.stats.early += 1;
            } else if i32::from(r.white_score).abs() > filter.max_score {
                self.stats.big_score += 1;
            } else {
                kept.push(r.encode().expect("a decoded record encodes"));
            }
        }
        let held = ((kept.len() as f64) * val_share.clamp(0.0, 1.0)).round() as usize;
        self.val.extend(kept.drain(kept.len() - held..));
        self.train.extend(kept);
    }

    /// Keeps each record's bytes once: training first, so that a validation position that
    /// repeats a training one is dropped from validation.
    pub fn deduplicate(&mut self) {
        let mut seen = HashSet::with_capacity(self.train.len() + self.val.len());
        for part in [&mut self.train, &mut self.val] {
            let before = part.len();
            part.retain(|r| seen.insert(*r));
            self.stats.duplicates += (before - part.len()) as u64;
        }
    }

    /// Adds every training position's mirror image (files a ↔ h) to the training positions
    /// and returns how many were new. The net sees no castling rights, and Chess960's 960
    /// starts are the mirror images of one another, so a mirrored position is as good a
    /// sample as the original: twice the data for nothing. Validation is left as it was, so
    /// that its loss stays comparable with and without mirroring.
    pub fn add_mirrored_training(&mut self) -> usize {
        let mut seen: HashSet<Packed> = self.train.iter().chain(&self.val).copied().collect();
        let before = self.train.len();
        for i in 0..before {
            let r = Record::decode(&self.train[i]).expect("records are validated when loaded");
            let mut board = chess960_core::Board::empty();
            for (square, piece) in r.board.pieces() {
                let mirrored = chess960_core::Square::new(square.index() as u32 ^ 7)
                    .expect("a square index xor 7 is a square");
                board.set_piece_at(mirrored, Some(piece));
            }
            let packed = Record { board, ..r }
                .encode()
                .expect("a mirrored record encodes");
            if seen.insert(packed) {
                self.train.push(packed);
            }
        }
        self.train.len() - before
    }

    /// Reads and builds from files (see [`read_file`] and [`Dataset::from_files`]), one file
    /// in memory as decoded records at a time.
    pub fn load(paths: &[String], filter: Filter, val_share: f64) -> Result<Dataset, DataError> {
        let mut d = Dataset::default();
        for p in paths {
            d.add_file(read_file(Path::new(p))?, filter, val_share);
        }
        d.deduplicate();
        Ok(d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chess960_core::Color;

    const LINES: &str = "\
qbbrknr1/pp1p2pp/2p1p1n1/5p2/1P5P/P5N1/1BPPPPP1/QB1RK1RN b KQkq - 1 5;0.5;27
rnbkrn1b/3pp1pp/p4p2/2p5/8/3PPBP1/PPqNKP1P/RNB1R1Q1 b kq - 1 9;0.0;-157

r1bkrn1b/3pp1pp/p1n2p2/2p5/8/3PPBP1/PPqNKP1P/RNB1R1Q1 w kq - 2 12;1.0;3500
";

    #[test]
    fn text_lines_are_read_from_whites_point_of_view() {
        let records = read_text("t.txt", LINES.as_bytes()).unwrap();
        assert_eq!(records.len(), 3);
        let r = &records[1];
        assert_eq!(r.turn, Color::Black);
        assert_eq!(r.white_score, -157);
        assert_eq!(r.outcome, Outcome::BlackWins);
        assert_eq!(r.fullmove, 9);
        assert_eq!(r.board.occupied().count(), 30);
    }

    #[test]
    fn binary_records_round_trip() {
        let records = read_text("t.txt", LINES.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        for r in &records {
            bytes.extend_from_slice(&r.encode().unwrap());
        }
        assert_eq!(read_binary("t.bin", &bytes[..]).unwrap(), records);
        // Through a real file, chosen by its extension.
        let dir = std::env::temp_dir().join(format!("chess960-train-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bin = dir.join("round.bin");
        let txt = dir.join("round.txt");
        std::fs::write(&bin, &bytes).unwrap();
        std::fs::write(&txt, LINES).unwrap();
        assert_eq!(read_file(&bin).unwrap(), records);
        assert_eq!(read_file(&txt).unwrap(), records);
        let missing = read_file(&dir.join("missing.bin")).unwrap_err();
        assert!(missing.to_string().contains("missing.bin"), "{missing}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn broken_text_is_refused_with_the_line() {
        let good = LINES.lines().next().unwrap();
        for (bad, says) in [
            ("8/8/8/8/8/8/8/8 w - - 0 1;0.5;0", "FEN"),
            ("not a fen;0.5;0", "FEN"),
            (good.replace(";0.5;", ";0.7;").as_str(), "result '0.7'"),
            (good.replace(";27", ";27.5").as_str(), "score '27.5'"),
            (good.replace(";27", "").as_str(), "three fields"),
            (format!("{good};9").as_str(), "three fields"),
        ] {
            let text = format!("{good}\n\n{bad}\n{good}\n");
            let e = read_text("data.txt", text.as_bytes()).unwrap_err();
            assert_eq!(e.place, Some(Place::Line(3)), "{bad}");
            let shown = e.to_string();
            assert!(
                shown.starts_with("data.txt: line 3: ") && shown.contains(says),
                "{bad}: {shown}"
            );
        }
        let e = read_text("bytes.txt", &b"\xff\xfe\n"[..]).unwrap_err();
        assert_eq!(e.place, Some(Place::Line(1)));
    }

    #[test]
    fn broken_records_are_refused_with_the_index() {
        let records = read_text("t.txt", LINES.as_bytes()).unwrap();
        let mut bytes = Vec::new();
        for r in &records {
            bytes.extend_from_slice(&r.encode().unwrap());
        }
        let mut bad = bytes.clone();
        bad[2 * RECORD_SIZE + 26] = 7; // result byte of record 2
        let e = read_binary("d.bin", &bad[..]).unwrap_err();
        assert_eq!(e.place, Some(Place::Record(2)));
        assert_eq!(
            e.to_string(),
            "d.bin: record 2 (byte 64): result byte 7 (0, 1 or 2 expected)"
        );
        let e = read_binary("d.bin", &bytes[..bytes.len() - 5]).unwrap_err();
        assert_eq!(e.place, Some(Place::Record(2)));
        assert!(e.to_string().contains("ends inside a record"), "{e}");
    }

    #[test]
    fn mirroring_adds_the_mirror_image_of_each_training_position_once() {
        let records: Vec<Record> = LINES
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| parse_line(l).unwrap())
            .collect();
        let mut d = Dataset::from_files(
            vec![records.clone()],
            Filter {
                min_fullmove: 0,
                max_score: 32767,
            },
            0.0,
        );
        assert_eq!(d.train.len(), 3);
        assert_eq!(d.add_mirrored_training(), 3);
        assert_eq!(d.train.len(), 6);
        // The mirror of the first line's position, by hand: files reversed on every rank.
        let mirrored =
            parse_line("1rnkrbbq/pp2p1pp/1n1p1p2/2p5/P5P1/1N5P/1PPPPPB1/NR1KR1BQ b - - 1 5;0.5;27")
                .unwrap();
        assert!(d.train.contains(&mirrored.encode().unwrap()));
        // Mirroring again adds nothing: every image is there already.
        assert_eq!(d.add_mirrored_training(), 0);
        assert!(d.val.is_empty());
    }

    #[test]
    fn loading_filters_holds_out_each_files_end_and_deduplicates() {
        let base = read_text("t.txt", LINES.as_bytes()).unwrap();
        // Twenty positions per file: distinct scores make distinct records.
        let file = |offset: i16| -> Vec<Record> {
            (0..20)
                .map(|i| Record {
                    white_score: offset + i,
                    ..base[1]
                })
                .collect()
        };
        let mut first = file(0);
        first[3].fullmove = 4; // too early
        first[4].white_score = -3001; // decided
        first[5] = first[6]; // duplicate
        let second = file(100);
        let mut third = file(200);
        third[19] = second[0]; // a validation position that repeats a training one
        let d = Dataset::from_files(vec![first, second, third], Filter::default(), 0.1);
        assert_eq!(
            d.stats,
            LoadStats {
                read: 60,
                early: 1,
                big_score: 1,
                duplicates: 2
            }
        );
        // 18 kept in the first file: 2 held out; 2 of 20 in each of the others, one dropped.
        assert_eq!(d.val.len(), 5);
        assert_eq!(d.train.len(), 15 + 18 + 18);
        let score = |p: &Packed| Record::decode(p).unwrap().white_score;
        let held: Vec<i16> = d.val.iter().map(score).collect();
        assert_eq!(held, [18, 19, 118, 119, 218]);
        assert!(d.train.iter().all(|p| !d.val.contains(p)));
    }
}
