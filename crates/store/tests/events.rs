//! Events in every backend's store: made, read back by id and key, saved over the revision
//! read (a stale save is refused), listed, deleted, and still there after the database is
//! opened again.

mod common;

use chess960_events::event::{BoardResult, DrawSpec, Event, Format, Player, Side};
use chess960_store::StoreError;

fn player(name: &str) -> Player {
    Player {
        name: name.into(),
        rating: Some(1800),
        fide_id: Some(12345678),
        federation: "NOR".into(),
        title: String::new(),
        joined: 1,
        withdrawn: None,
        byes: Vec::new(),
        account: None,
        engine: None,
    }
}

#[test]
fn events_survive_a_reopen_and_refuse_stale_saves() {
    common::each_backend(events_on);
}

fn events_on(b: &mut common::Backend) {
    let key;
    {
        let s = b.event_store().expect("every backend keeps events");
        let mut e = Event::new("Winter 960", Format::Swiss, 5, Side::Black).unwrap();
        for n in ["A", "B", "C"] {
            e.add_player(player(n)).unwrap();
        }
        let stored = s.create_event(&e, Some("ab12")).unwrap();
        key = stored.key.clone();
        assert_eq!(key.len(), 32);
        assert_eq!(s.event(&stored.id.to_string()).unwrap().event, e);
        let mut loaded = s.event(&key).unwrap();
        assert_eq!(loaded.arbiter_hash.as_deref(), Some("ab12"));
        loaded
            .event
            .draw_position(1, DrawSpec::Computer { seed: 9 }, false)
            .unwrap();
        loaded.event.pair(1, 0).unwrap();
        loaded
            .event
            .set_result(1, 1, Some(BoardResult::Draw))
            .unwrap();
        let rev = s
            .save_event(loaded.id, loaded.revision, &loaded.event)
            .unwrap();
        assert_eq!(rev, 2);
        // A second arbiter who read revision 1 cannot overwrite that.
        let stale = s.save_event(loaded.id, 1, &e).unwrap_err();
        assert!(matches!(stale, StoreError::Conflict(_)), "{stale}");
        let list = s.events().unwrap();
        assert_eq!(list.len(), 1);
        assert_eq!(
            (list[0].players, list[0].rounds_paired, list[0].rounds),
            (3, 1, 5)
        );
        assert_eq!(list[0].format, "swiss");
    }
    b.reopen();
    let s = b.event_store().expect("every backend keeps events");
    let back = s.event(&key).unwrap();
    assert_eq!(back.revision, 2);
    assert_eq!(
        back.event.played[0].boards[0].result,
        Some(BoardResult::Draw)
    );
    assert!(back.event.played[0].draw.is_some());
    assert!(matches!(
        s.event("nope").unwrap_err(),
        StoreError::NoSuchEvent(_)
    ));
    s.delete_event(back.id).unwrap();
    assert!(matches!(
        s.event(&key).unwrap_err(),
        StoreError::NoSuchEvent(_)
    ));
    assert!(matches!(
        s.delete_event(back.id).unwrap_err(),
        StoreError::NoSuchEvent(_)
    ));
}
