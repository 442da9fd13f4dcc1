//! The types of the API's edge as TypeScript, generated from the Rust types the server
//! serializes and reads (`ts-rs`): a game's view, events and answers, the bodies of its actions and of a new game, the accounts' and players', the lobby's entries, the games
//! being played, the analysis board's positions, moves and lines; so that the web UI cannot
//! drift from the server: the test below writes
//! them to `web/src/generated/api.ts` when `UPDATE_TS=1`, and otherwise fails when that file is
//! not what the Rust types give. Test-only: the release build carries none of it.

use crate::game::{
    AwayView, CastleJson, CastlingView, ClockView, ClocksJson, ColorJson, EngineQueue, GameView,
    LastMove, LegalMove, LevelJson, MoveView, NowView, ResultJson, SideView, SidesView, Status,
    TimeControl,
};
use crate::round::broadcast::Event;
use crate::round::{Ack, ScoreJson};
use ts_rs::{Config, TS};

/// The generated file, from the crate's directory.
const FILE: &str = "../../web/src/generated/api.ts";

/// Every type of the edge, in the order written.
fn declarations() -> String {
    // The numbers of the API (milliseconds, ids, versions) fit a JavaScript number.
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the Rust types of crates/server by `UPDATE_TS=1 cargo test -p \
         chess960-server edge_types`: do not edit.\n// docs/api.md describes each field.\n\n",
    );
    let decls = [
        GameView::decl(&cfg),
        NowView::decl(&cfg),
        MoveView::decl(&cfg),
        LegalMove::decl(&cfg),
        CastleJson::decl(&cfg),
        CastlingView::decl(&cfg),
        LastMove::decl(&cfg),
        ClockView::decl(&cfg),
        ClocksJson::decl(&cfg),
        TimeControl::decl(&cfg),
        SidesView::decl(&cfg),
        SideView::decl(&cfg),
        LevelJson::decl(&cfg),
        EngineQueue::decl(&cfg),
        AwayView::decl(&cfg),
        crate::game::drawn::DrawnView::decl(&cfg),
        crate::game::placing::PlacingView::decl(&cfg),
        crate::game::placing::PlacedView::decl(&cfg),
        crate::game::EventRef::decl(&cfg),
        crate::game::DrawAnswer::decl(&cfg),
        crate::game::DrawClaim::decl(&cfg),
        ColorJson::decl(&cfg),
        Status::decl(&cfg),
        ResultJson::decl(&cfg),
        ScoreJson::decl(&cfg),
        Ack::decl(&cfg),
        Event::decl(&cfg),
        crate::round::chat::Room::decl(&cfg),
        crate::round::chat::ChatLine::decl(&cfg),
        crate::round::chat::ChatLog::decl(&cfg),
        crate::game::NowPlaying::decl(&cfg),
        crate::lobby::LobbyEntry::decl(&cfg),
        chess960_championship::live::LiveView::decl(&cfg),
        chess960_championship::live::LiveBoard::decl(&cfg),
        chess960_championship::live::LiveMove::decl(&cfg),
        chess960_championship::live::LiveThinking::decl(&cfg),
        chess960_championship::live::LiveScore::decl(&cfg),
        chess960_championship::live::LiveClocks::decl(&cfg),
        chess960_championship::live::LiveSide::decl(&cfg),
        crate::analysis::PositionJson::decl(&cfg),
        crate::analysis::PositionStatus::decl(&cfg),
        crate::analysis::PlayedJson::decl(&cfg),
        crate::analysis::PositionEvalJson::decl(&cfg),
        crate::analysis::MoveJudgedJson::decl(&cfg),
        crate::analysis::LineJson::decl(&cfg),
        crate::judge::Judgement::decl(&cfg),
        crate::api::MoveRequest::decl(&cfg),
        crate::api::PremoveRequest::decl(&cfg),
        crate::api::TakebackRequest::decl(&cfg),
        crate::round::TakebackAction::decl(&cfg),
        crate::api::DrawActionRequest::decl(&cfg),
        crate::api::DrawAction::decl(&cfg),
        crate::api::ForceRequest::decl(&cfg),
        chess960_round::ForceResult::decl(&cfg),
        crate::api::RematchRequest::decl(&cfg),
        crate::round::RematchAction::decl(&cfg),
        crate::api::JoinRequest::decl(&cfg),
        crate::api::PlaceRequest::decl(&cfg),
        crate::create::request::NewGameRequest::decl(&cfg),
        crate::create::request::StartRequest::decl(&cfg),
        crate::create::request::ColorChoice::decl(&cfg),
        crate::game::drawn::DrawnIn::decl(&cfg),
        crate::accounts::AccountJson::decl(&cfg),
        crate::accounts::UserJson::decl(&cfg),
        crate::accounts::SessionJson::decl(&cfg),
        crate::accounts::RegisterRequest::decl(&cfg),
        crate::accounts::LoginRequest::decl(&cfg),
        crate::accounts::PasswordRequest::decl(&cfg),
        crate::players::PlayerJson::decl(&cfg),
        crate::players::RatingJson::decl(&cfg),
        crate::players::RatingPointJson::decl(&cfg),
        crate::players::TallyJson::decl(&cfg),
        crate::players::StartJson::decl(&cfg),
        crate::players::CastlingJson::decl(&cfg),
        crate::players::StartsJson::decl(&cfg),
        crate::players::LeaderJson::decl(&cfg),
        crate::players::LeaderboardJson::decl(&cfg),
        crate::game::ratings::RatingView::decl(&cfg),
    ];
    for d in decls {
        out.push_str("export ");
        out.push_str(&d);
        out.push_str("\n\n");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[test]
fn edge_types_match_the_generated_typescript() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(FILE);
    let want = declarations();
    if std::env::var_os("UPDATE_TS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "web/src/generated/api.ts is not what the Rust types give: run \
         'UPDATE_TS=1 cargo test -p chess960-server edge_types' and commit it"
    );
}
