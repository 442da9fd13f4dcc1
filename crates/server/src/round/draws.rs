//! Draws: a claim by the rules (threefold repetition, fifty moves); an offer to the engine,
//! which answers by its evaluation; and an offer to a person, which stands until they accept or
//! decline it or make a move (FIDE 9.1.2: a move declines it; the offerer's own move keeps it).

use super::{Actor, Answer, GameHandle};
use crate::game::error::GameResult;
use crate::pool::Urgency;
use chess960_engine::player::{draw_decline, AnalysisLimit, DRAW_OFFER_THINK};
use chess960_round::Command;
use std::sync::Arc;

impl GameHandle {
    /// `POST /draw` with `claim`.
    pub async fn claim_draw(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<Answer> {
        let (mut g, _) = self.seated(who).await?;
        self.judged(&mut g, Command::ClaimDraw).await?;
        Ok(who.answer(&g))
    }

    /// `POST /draw` with `offer`: the engine accepts when its evaluation of the position is
    /// within ±0.3 pawns after move 30; a person is asked (and an offer that crosses theirs
    /// agrees the draw).
    pub async fn offer_draw(self: &Arc<Self>, who: &Actor<'_>) -> GameResult<Answer> {
        let (pos, history, generation) = {
            let (mut g, color) = self.seated(who).await?;
            super::gone(&g)?;
            if g.sides.engine(!color).is_none() {
                // At one device, both players are there to agree.
                let command = if g.sides.hotseat() {
                    Command::AgreeDraw
                } else {
                    Command::OfferDraw(color)
                };
                self.judged(&mut g, command).await?;
                return Ok(who.answer(&g));
            }
            // The referee's checks (a game over, or not begun) before the engine thinks.
            g.round.decide(&Command::OfferDraw(color), g.now())?;
            // Declined at once when no evaluation could make the engine accept.
            if let Some(why) = draw_decline(None, g.round.game().position().fullmoves()) {
                return Ok(who
                    .answer(&g)
                    .with_draw_offer("declined", Some(why.to_string())));
            }
            let game = g.round.game();
            (*game.start(), game.moves().to_vec(), g.generation)
        };
        // Evaluate without holding the game, so that clocks and the engine's own search go
        // on meanwhile. A short, bounded search: it goes before the client's other searches.
        let analysis = self
            .ask_engine(who, Urgency::Quick, move |player, stop| {
                let limit = AnalysisLimit::Movetime(DRAW_OFFER_THINK);
                player.analyse(&pos, &history, limit, stop, |_| {})
            })
            .await?;
        let mut g = self.lock().await;
        self.settle(&mut g).await?;
        super::over(&g)?;
        let decline = if g.generation == generation {
            draw_decline(Some(analysis.score), g.round.game().position().fullmoves())
                .map(|why| why.to_string())
        } else {
            Some("the position changed while the engine considered the offer".to_string())
        };
        let accept = decline.is_none();
        if accept {
            self.judged(&mut g, Command::AgreeDraw).await?;
        }
        let offer = if accept { "accepted" } else { "declined" };
        Ok(who.answer(&g).with_draw_offer(offer, decline))
    }

    /// `POST /draw` with `accept` or `decline`: the answer to the opponent's offer.
    pub async fn answer_draw(
        self: &Arc<Self>,
        who: &Actor<'_>,
        accept: bool,
    ) -> GameResult<Answer> {
        let (mut g, color) = self.seated(who).await?;
        self.judged(&mut g, Command::AnswerDraw { by: color, accept })
            .await?;
        Ok(who.answer(&g))
    }
}
