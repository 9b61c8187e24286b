//! The quorum a plain Raft cluster counts right now, on the stage: "quorum 3 of 5 (config at index
//! 12)", from the configuration the ring is drawn by, and beneath it any up server that counts other
//! voters (a configuration entry still on its way, or a hand-edited file in the unsafe direct mode).
//! Its "Add a server" button is the cluster's own way in (the leader's menu offers the same action).

use crate::context::use_run;
use crate::state::controls::use_controls;
use crate::world_text::membership::membership_of;
use leptos::prelude::*;
use quorumlab_sim::action::Action;

#[component]
pub fn MembershipBadge() -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let lines = Memo::new(move |_| {
        run.view.with(|view| {
            membership_of(view).map(|membership| (membership.badge(), membership.disagreement()))
        })
    });
    view! {
        <Show when=move || lines.with(Option::is_some)>
            <div class="membership-badge" data-testid="membership-badge" role="group" aria-label="Membership and quorum">
                <span class="membership-quorum" data-testid="quorum-badge">
                    {move || lines.get().map(|(badge, _)| badge).unwrap_or_default()}
                </span>
                {move || lines.get().and_then(|(_, disagreement)| disagreement).map(|text| view! {
                    <span class="membership-disagree" data-testid="membership-disagree">{format!("⚠ {text}")}</span>
                })}
                <button class="add-server" data-testid="add-server"
                    title="A new server joins as a learner, catches up, then the leader adds it through its log"
                    on:click=move |_| controls.apply(Action::AddServer { id: None })>"+ Add a server"</button>
            </div>
        </Show>
    }
}
