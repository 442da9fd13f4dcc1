//! Every write of the store, once: the sequence of each operation (read the game's state,
//! ask [`crate::rules`], read what the change needs, compute the index rows, write) over the
//! statements of a backend's transaction ([`Tx`]). The decisions are the rules'; the SQL is
//! the backend's; the order of the steps is here.

use crate::backend::{Backend, Deferred, IndexChange, IndexRow, NewRow, R};
use crate::explorer::{self, IndexEntry, IndexStep};
use crate::rules::{self, TagHome};
use crate::sql::Tx;
use crate::util::{game_date, new_game_date, new_key, now_ms};
use crate::{
    Finish, GameId, GameKey, GameResult, ImportGame, ImportOutcome, MoveRecord, NewGame, Offers,
    Seats, StoreError,
};
use chess960_core::{Color, Position};
use std::borrow::Cow;
use std::collections::HashMap;

/// Starts a game with `moves` (checked by the caller) and its seats; its index rows are those
/// of its line, unfinished.
pub(crate) fn create(
    tx: &mut dyn Tx,
    game: &NewGame,
    moves: &[MoveRecord],
    seats: &Seats,
) -> R<(GameId, GameKey)> {
    rules::check_start_id(game.start_id)?;
    let now = now_ms();
    let row = NewRow {
        key: new_key()?,
        game,
        now,
        date: new_game_date(game, now),
        result: GameResult::Unknown,
        reason: None,
        plies: rules::plies_of(moves)?,
        hash: None,
        movetext: None,
        seats,
        packed: None,
        moves,
    };
    let id = tx.insert_game(&row)?;
    let entries = explorer::entries(&game.start_fen, moves.iter().map(|m| m.uci.as_str()));
    tx.write_entries(id, &entries, None)?;
    Ok((id, row.key))
}

/// Appends half-move `ply`. The index rows change as from the line before to the line after:
/// replayed from the stored moves, or, given the `step` of whoever played the move, found
/// from the two rows it touches.
pub(crate) fn append(
    tx: &mut dyn Tx,
    id: GameId,
    ply: u32,
    mv: &MoveRecord,
    step: Option<IndexStep>,
) -> R<()> {
    rules::check_append(id, &tx.lock_state(id)?, ply)?;
    let code = explorer::encode_move(&mv.uci);
    let (write, remove) = match (step, code) {
        (Some(step), Some(code)) => (stepped(tx, id, step, code)?, Vec::new()),
        // Replayed (also for a move without a code, which ends the game's index entries
        // where `explorer::entries` stops).
        _ => {
            let line = tx.line(id)?.ok_or_else(|| no_game(id))?;
            let mut ucis: Vec<&str> = line.ucis.iter().map(String::as_str).collect();
            let old = explorer::entries(&line.start_fen, ucis.iter().copied());
            ucis.push(&mv.uci);
            let new = explorer::entries(&line.start_fen, ucis);
            explorer::diff(&old, &new)
        }
    };
    let ix = IndexChange {
        write: &write,
        remove: &remove,
    };
    tx.record_move(id, ply, mv, ix)
}

/// The index rows a move changes, from the step: the position it was played from gets the
/// move where the game reached it first at its end (its row has no move yet), and the
/// position it reached gets a row unless the game was there before (the first visit keeps
/// its move). What [`explorer::diff`] of the two replayed lines gives, without the replay.
fn stepped(tx: &mut dyn Tx, id: GameId, step: IndexStep, code: u16) -> R<Vec<IndexEntry>> {
    let have = tx.index_entries(id, &[step.from, step.to])?;
    let mut write = Vec::with_capacity(2);
    if have.iter().any(|e| e.key == step.from && e.mv.is_none()) {
        write.push(IndexEntry {
            key: step.from,
            mv: Some(code),
        });
    }
    if !have.iter().any(|e| e.key == step.to) {
        write.push(IndexEntry {
            key: step.to,
            mv: None,
        });
    }
    Ok(write)
}

/// Takes moves back so that `plies` remain, and clears a finish.
pub(crate) fn truncate(tx: &mut dyn Tx, id: GameId, plies: u32) -> R<()> {
    let state = tx.lock_state(id)?;
    rules::check_truncate(id, &state, plies)?;
    rules::check_reopen(id, &state, &crate::ratings::players_of(tx, id)?)?;
    let line = tx.line(id)?.ok_or_else(|| no_game(id))?;
    // The result is cleared too, so every remaining entry is written again.
    let ucis = line.ucis.iter().map(String::as_str);
    let old = explorer::entries(&line.start_fen, ucis.clone());
    let new = explorer::entries(&line.start_fen, ucis.take(plies as usize));
    tx.remove_entries(id, &explorer::diff(&old, &new).1)?;
    tx.write_entries(id, &new, None)?;
    tx.reopen(id, plies)?;
    // A packed line belongs to finished games only; the game is unfinished again and may
    // take moves, which are rows: its remaining moves become rows.
    if let Some(bytes) = &line.packed {
        let moves = crate::packed::unpack(&line.start_fen, bytes)?;
        tx.insert_moves(id, 0, &moves[..moves.len().min(plies as usize)])?;
    }
    Ok(())
}

/// Records the result: its index rows carry it, the game gets its duplicate hash, and a
/// rated game's players their new ratings.
pub(crate) fn finish(tx: &mut dyn Tx, id: GameId, finish: &Finish) -> R<()> {
    let state = tx.lock_state(id)?;
    rules::check_finish(id, &state, finish)?;
    tx.set_result(id, finish)?;
    // Rated once: a finish of a game over already changes no rating.
    if !state.is_over() {
        crate::ratings::rate(tx, id, finish, crate::util::now_ms())?;
    }
    let line = tx.line(id)?.ok_or_else(|| no_game(id))?;
    let entries = explorer::entries(&line.start_fen, line.ucis.iter().map(String::as_str));
    tx.write_entries(id, &entries, explorer::result_code(finish.result))?;
    refresh_hash(tx, id, Some(&line.ucis))
}

/// Sets the offers standing in the game, as the referee left them.
pub(crate) fn set_offers(tx: &mut dyn Tx, id: GameId, offers: Offers) -> R<()> {
    rules::check_offers(id, &tx.lock_state(id)?, offers)?;
    tx.set_offers(id, offers)
}

/// Gives an open seat to a token's hash; `Conflict` if it is not open.
pub(crate) fn claim_seat(
    tx: &mut dyn Tx,
    id: GameId,
    color: Color,
    hash: &str,
    name: &str,
) -> R<()> {
    tx.lock_state(id)?;
    if tx.claim_seat(id, color, hash, name)? {
        Ok(())
    } else {
        Err(StoreError::Conflict(format!(
            "the {} seat of game {id} is not open",
            color.name()
        )))
    }
}

/// Sets the start position before the first move; the start's index row moves with it.
pub(crate) fn set_start(
    tx: &mut dyn Tx,
    id: GameId,
    pos: &Position,
    start_id: Option<u16>,
) -> R<()> {
    rules::check_start_open(id, &tx.lock_state(id)?)?;
    if let Some(line) = tx.line(id)? {
        let old = explorer::entries(&line.start_fen, []);
        tx.remove_entries(id, &old.iter().map(|e| e.key).collect::<Vec<_>>())?;
    }
    tx.write_entries(id, &explorer::entries(&pos.fen(), []), None)?;
    tx.set_start(id, &pos.fen(), start_id)
}

/// Sets or removes one tag: a column, or a row of the game's tags (the Date tag also sets
/// the game's date); the duplicate hash follows.
pub(crate) fn set_tag(
    tx: &mut dyn Tx,
    id: GameId,
    name: &str,
    home: TagHome,
    value: Option<&str>,
) -> R<()> {
    tx.lock_state(id)?;
    let mut date = None;
    match home {
        TagHome::White | TagHome::Black | TagHome::TimeControl => {
            tx.set_column(id, home, home.column_value(value).as_deref())?;
        }
        TagHome::Date | TagHome::Other => {
            match (tx.tag_ord(id, name)?, value) {
                (Some(ord), value) => tx.put_tag(id, ord, value)?,
                (None, Some(value)) => tx.add_tag(id, name, value)?,
                (None, None) => {}
            }
            if home == TagHome::Date {
                date = Some(game_date(value, tx.created_ms(id)?));
            }
        }
    }
    tx.touch(id, date.as_deref())?;
    refresh_hash(tx, id, None)
}

/// Deletes a game with its moves, tags and index rows.
pub(crate) fn delete(tx: &mut dyn Tx, id: GameId) -> R<()> {
    tx.lock_state(id)?;
    // The index rows are found by their keys, which the game's moves give (the index has no
    // order by game: it would cost as much again as the index).
    if let Some(line) = tx.line(id)? {
        let entries = explorer::entries(&line.start_fen, line.ucis.iter().map(String::as_str));
        tx.remove_entries(id, &entries.iter().map(|e| e.key).collect::<Vec<_>>())?;
    }
    tx.delete_game(id)
}

/// Recomputes the stored duplicate hash of a game from what is stored (after its result or a
/// tag changed): finished games have one, unfinished games none (they are never
/// duplicates). `ucis`: its moves, when the caller has read them.
pub(crate) fn refresh_hash(tx: &mut dyn Tx, id: GameId, ucis: Option<&[String]>) -> R<()> {
    let g = tx.hash_input(id)?;
    let hash = if g.result.is_decided() {
        let read;
        let ucis = match ucis {
            Some(u) => u,
            None => {
                read = tx.line(id)?.map(|l| l.ucis).unwrap_or_default();
                &read
            }
        };
        let tags: Vec<(String, String)> = (tx.tags_of(&[id.0])?.into_iter())
            .map(|(_, n, v)| (n, v))
            .collect();
        let ucis = ucis.iter().map(String::as_str);
        rules::stored_hash(&g.start_fen, ucis, &g.white, &g.black, g.result, &tags)
    } else {
        None
    };
    tx.set_hash(id, hash)
}

/// An imported game as stored, worked out before the transaction.
struct Prepared<'a> {
    result: GameResult,
    reason: Option<&'a str>,
    hash: Option<[u8; 16]>,
    packed: Option<Vec<u8>>,
    /// The index entries: the importer's when it gave them, else replayed (`None` for a bulk
    /// import into a backend that replays its deferred games itself).
    entries: Option<Cow<'a, [IndexEntry]>>,
}

/// What becomes of an imported game.
enum Fate {
    /// A duplicate of a stored game.
    Stored(i64),
    /// Added, at this place among the added games.
    New(usize),
    /// A duplicate of the game added earlier in the batch at this place.
    AsNew(usize),
}

/// Imports a batch in one transaction: the duplicates of stored games and of games earlier
/// in the batch are found by their hash, the others inserted with their tags, moves (rows,
/// or packed for finished games) and index rows, sorted by key (the keys are random, and
/// sorted inserts touch each page of the index once per batch), or, for a bulk import
/// (`defer`), noted for [`Backend::index_bulk`].
pub(crate) fn import<B: Backend>(
    backend: &B,
    games: &[ImportGame],
    defer: bool,
) -> R<Vec<ImportOutcome>> {
    let games = &*rules::storable_imports(games);
    // Everything that needs no database first, outside the transaction.
    let need_entries = !defer || B::DEFER_ENTRIES;
    let prepared: Vec<Prepared<'_>> = games
        .iter()
        .map(|g| {
            rules::check_start_id(g.game.start_id)?;
            let (result, reason, hash) = rules::import_row(g);
            let entries = match &g.index {
                Some(entries) => Some(Cow::Borrowed(&entries[..])),
                None => need_entries.then(|| {
                    let ucis = g.moves.iter().map(|m| m.uci.as_str());
                    Cow::Owned(explorer::entries(&g.game.start_fen, ucis))
                }),
            };
            Ok(Prepared {
                result,
                reason,
                hash,
                packed: rules::import_packed(g),
                entries,
            })
        })
        .collect::<R<_>>()?;
    backend.write(|tx| {
        tx.begin_import(defer)?;
        let hashes: Vec<[u8; 16]> = prepared.iter().filter_map(|p| p.hash).collect();
        let known = tx.stored_duplicates(&hashes)?;
        let mut added: Vec<usize> = Vec::new();
        let mut place_of: HashMap<[u8; 16], usize> = HashMap::new();
        let fates: Vec<Fate> = (prepared.iter().enumerate())
            .map(|(i, p)| {
                if let Some(h) = &p.hash {
                    if let Some(&id) = known.get(h) {
                        return Fate::Stored(id);
                    }
                    if let Some(&place) = place_of.get(h) {
                        return Fate::AsNew(place);
                    }
                    place_of.insert(*h, added.len());
                }
                added.push(i);
                Fate::New(added.len() - 1)
            })
            .collect();
        let now = now_ms();
        let rows = (added.iter())
            .map(|&i| {
                let (g, p) = (&games[i], &prepared[i]);
                Ok(NewRow {
                    key: new_key()?,
                    game: &g.game,
                    now,
                    date: new_game_date(&g.game, now),
                    result: p.result,
                    reason: p.reason,
                    plies: u32::try_from(g.moves.len()).unwrap_or(u32::MAX),
                    hash: p.hash,
                    movetext: g.movetext.as_deref(),
                    seats: &Seats::NONE,
                    packed: p.packed.clone(),
                    moves: if p.packed.is_some() { &[] } else { &g.moves },
                })
            })
            .collect::<R<Vec<_>>>()?;
        let ids = tx.insert_imported(&rows)?;
        if ids.len() != added.len() {
            return Err(StoreError::Backend(format!(
                "{} ids for {} imported games",
                ids.len(),
                added.len()
            )));
        }
        let code = |i: usize| explorer::result_code(prepared[i].result);
        if defer {
            let deferred: Vec<Deferred<'_>> = (added.iter().zip(&ids))
                .map(|(&i, &id)| Deferred {
                    id,
                    entries: prepared[i].entries.as_deref(),
                    result: code(i),
                })
                .collect();
            tx.defer_index(&deferred)?;
        } else {
            let mut index: Vec<IndexRow> = Vec::new();
            for (&i, &id) in added.iter().zip(&ids) {
                let entries = prepared[i].entries.as_deref().unwrap_or_default();
                index.extend(crate::backend::index_rows(id, entries, code(i)));
            }
            index.sort_unstable_by_key(|r| (r.0, r.1));
            tx.insert_index(&index)?;
        }
        Ok(fates
            .iter()
            .map(|f| match *f {
                Fate::Stored(id) => ImportOutcome::Duplicate(GameId(id)),
                Fate::New(place) => ImportOutcome::Added(ids[place]),
                Fate::AsNew(place) => ImportOutcome::Duplicate(ids[place]),
            })
            .collect())
    })
}

fn no_game(id: GameId) -> StoreError {
    StoreError::NoSuchGame(id.to_string())
}
