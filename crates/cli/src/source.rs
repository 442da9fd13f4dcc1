//! Opening a PGN source: a file or standard input, plain, gzip or Zstandard. The compression
//! is told by the first bytes (the magic numbers of RFC 1952 and RFC 8878), not by the name,
//! so `lichess_db_chess960_rated_2024-01.pgn.zst` as published, a `.pgn.gz` and a plain
//! `.pgn` all read the same way, streamed: nothing is unpacked to disk or held whole in
//! memory.

use crate::cmd::file_name as name;
use crate::error::{CliError, CliResult};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// How a source is compressed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compression {
    /// Plain text.
    None,
    /// gzip (RFC 1952), one member or several concatenated.
    Gzip,
    /// Zstandard (RFC 8878), one frame or several, as lichess publishes its databases.
    Zstd,
}

impl Compression {
    /// Tells the compression from a source's first bytes.
    pub fn sniff(head: &[u8]) -> Compression {
        if head.starts_with(&[0x1f, 0x8b]) {
            Compression::Gzip
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Compression::Zstd
        } else {
            Compression::None
        }
    }

    /// The name of the compression for messages ("" for none).
    pub fn label(self) -> &'static str {
        match self {
            Compression::None => "",
            Compression::Gzip => "gzip",
            Compression::Zstd => "zstd",
        }
    }

    /// The error for a failure while reading `path` so compressed: `cannot read FILE: ...`,
    /// with the compression named (a broken or cut-off compressed file says so).
    pub fn read_error(self, path: &Path, e: io::Error) -> CliError {
        match self.label() {
            "" => CliError::new(format!("cannot read {}: {e}", name(path))),
            label => CliError::new(format!("cannot read {} ({label}): {e}", name(path))),
        }
    }
}

/// An opened PGN source: the decompressed text, the size of the file (compressed bytes for a
/// compressed file) when known, and a counter of the file's bytes read so far, so that a
/// progress bar can show bytes read of the total whatever the compression.
pub struct Source {
    /// The PGN text.
    pub reader: Box<dyn Read + Send>,
    /// The file's size in bytes; `None` for standard input or a pipe.
    pub size: Option<u64>,
    /// The file's bytes read so far, counted as the reader reads them.
    pub read: ReadCounter,
    /// How the file is compressed.
    pub compression: Compression,
}

/// The bytes of a file read so far: a handle that stays with the caller while the reader
/// moves on (to another thread, or into a PGN reader).
#[derive(Clone, Debug, Default)]
pub struct ReadCounter(Arc<AtomicU64>);

impl ReadCounter {
    /// The file's bytes read so far.
    pub fn get(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }
}

/// Counts the bytes that pass through it.
struct Counting<R> {
    inner: R,
    read: ReadCounter,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.read.0.fetch_add(n as u64, Ordering::Relaxed);
        Ok(n)
    }
}

/// Opens `path` ('-' is standard input) for reading PGN, decompressing gzip and Zstandard.
pub fn open(path: &Path) -> CliResult<Source> {
    let read = ReadCounter::default();
    let (raw, size): (Box<dyn Read + Send>, Option<u64>) = if path.as_os_str() == "-" {
        (Box::new(io::stdin()), None)
    } else {
        let f = File::open(path)
            .map_err(|e| CliError::new(format!("cannot read {}: {e}", name(path))))?;
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        (Box::new(f), size)
    };
    let mut buffered = BufReader::with_capacity(
        1 << 16,
        Counting {
            inner: raw,
            read: read.clone(),
        },
    );
    let head = buffered
        .fill_buf()
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", name(path))))?;
    let compression = Compression::sniff(head);
    let reader: Box<dyn Read + Send> = match compression {
        Compression::None => Box::new(buffered),
        Compression::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(buffered)),
        Compression::Zstd => Box::new(
            zstd::stream::read::Decoder::with_buffer(buffered)
                .map_err(|e| CliError::new(format!("cannot read {} (zstd): {e}", name(path))))?,
        ),
    };
    Ok(Source {
        reader,
        size,
        read,
        compression,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffs_the_magic_numbers() {
        assert_eq!(Compression::sniff(&[0x1f, 0x8b, 8, 0]), Compression::Gzip);
        assert_eq!(
            Compression::sniff(&[0x28, 0xb5, 0x2f, 0xfd, 0]),
            Compression::Zstd
        );
        assert_eq!(Compression::sniff(b"[Event \"x\"]"), Compression::None);
        assert_eq!(Compression::sniff(b""), Compression::None);
        assert_eq!(Compression::sniff(&[0x1f]), Compression::None);
    }
}
