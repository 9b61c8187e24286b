//! Compare mode's side of the state: the left side brings its partner to its own instant whenever it
//! publishes, and hands it every action at the instant it applies it (see `crate::compare`).

use super::AppState;
use crate::compare::lockstep::step_both;
use crate::context::generation::Part;
use leptos::prelude::*;
use quorumlab_sim::action::Action;
use quorumlab_sim::scenario::Step;
use quorumlab_sim::time::SimTime;

impl AppState {
    /// On the left side of a comparison: brings the right side to this side's instant, playing or
    /// paused as this side is, and republishes it (its panels when this side's panels refresh).
    pub(super) fn lead_partner(&self, refresh_panels: bool) {
        let Some(partner) = self.compare.partner() else {
            return;
        };
        let now = self.parts.run.session.with_value(|session| session.now());
        let playing = self.parts.playback.playing.get_untracked();
        if self.parts.playback.stepped.with_untracked(Option::is_none)
            && partner
                .parts()
                .playback
                .stepped
                .with_untracked(Option::is_some)
        {
            partner.parts().playback.stepped.set(None);
        }
        partner.follow(now, playing, refresh_panels);
        if refresh_panels {
            self.compare.refresh_difference(*self, partner);
        }
    }

    /// On the right side: moves to `now` (forward by simulating or replaying, back by seeking).
    fn follow(&self, now: SimTime, playing: bool, refresh_panels: bool) {
        if self.parts.playback.playing.get_untracked() != playing {
            self.parts.playback.playing.set(playing);
        }
        self.parts.run.session.update_value(|session| {
            if now > session.now() {
                session.advance_to(now);
            } else if now < session.now() {
                session.seek(now);
            }
        });
        self.publish_with_panels(refresh_panels);
    }

    /// On the left side of a comparison: one step of both sides together (see
    /// `compare::lockstep`), each side's caption saying what it did. False when not comparing.
    pub(super) fn step_with_partner(&self) -> bool {
        let Some(partner) = self.compare.partner() else {
            return false;
        };
        let stepped = self
            .parts()
            .run
            .session
            .try_update_value(|left| {
                partner
                    .parts()
                    .run
                    .session
                    .try_update_value(|right| step_both(left, right))
            })
            .flatten()
            .flatten();
        let idle = "Nothing left to happen: every node is idle".to_string();
        let (left_words, right_words) = match stepped {
            Some(stepped) => (stepped.left, stepped.right),
            None => (idle.clone(), idle),
        };
        self.parts.playback.stepped.set(Some(left_words));
        partner.parts().playback.stepped.set(Some(right_words));
        self.publish();
        true
    }

    /// On the right side: steps the run to `at` and applies `action` there, as the left side did
    /// (a lesson's "show me" acting in the middle of a frame).
    pub fn mirror_at(&self, at: SimTime, action: &Action) {
        self.parts.run.session.update_value(|session| {
            if at < session.now() {
                session.seek(at);
            }
            session.advance_to(at);
            session.apply(action);
        });
        self.caption_age_refreshes.set_value(super::CAPTION_READ);
        self.parts.run.generation.bump(Part::History);
    }

    /// On the left side: applies `action` to the right side too, at the same instant. What the right
    /// side made of it shows in its own narration; the notice bar tells the left side's outcome.
    pub(super) fn mirror_to_partner(&self, action: &Action) {
        let Some(partner) = self.compare.partner() else {
            return;
        };
        let now = self.parts.run.session.with_value(|session| session.now());
        partner.parts().run.session.update_value(|session| {
            if now != session.now() {
                session.seek(now);
            }
            session.apply(action);
        });
        partner.caption_age_refreshes.set_value(super::CAPTION_READ);
        partner.parts().run.generation.bump(Part::History);
    }

    /// On the left side: gives the right side the schedule this side is about to take (an edit in
    /// the fault-schedule lane), at the same instant, so both runs keep one list of faults. Called
    /// before this side changes: when the right side refuses, nothing has changed on either.
    pub fn mirror_schedule_to_partner(&self, steps: &[Step]) -> Result<(), String> {
        let Some(partner) = self.compare.partner() else {
            return Ok(());
        };
        let now = self.parts.run.session.with_value(|session| session.now());
        partner
            .parts()
            .run
            .session
            .try_update_value(|session| {
                if now != session.now() {
                    session.seek(now);
                }
                session.set_future_steps(steps.to_vec())
            })
            .unwrap_or_else(|| Err("the right run is gone".into()))
            .map_err(|error| format!("the right run refused the change: {error}"))?;
        partner
            .parts()
            .run
            .scenario
            .set(partner.with_session(|session| session.scenario().clone()));
        partner.parts().run.generation.bump(Part::History);
        Ok(())
    }
}
