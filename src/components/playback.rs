//! Playback: play/pause, single step, speed, the simulated clock, and quick fault buttons aimed at
//! whoever leads right now.

use crate::context::{use_playback, use_run};
use crate::format;
use crate::session::{MAX_SPEED, MIN_SPEED, SIMULATED_US_PER_WALL_MS_AT_1X};
use crate::state::controls::use_controls;
use crate::world_text::names;
use crate::world_text::pbft::agreed_primary;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, RequestKind};

/// The speed slider is logarithmic: position 0..=1000 maps to MIN_SPEED..=MAX_SPEED.
fn speed_from_slider(position: f64) -> f64 {
    let fraction = (position / 1000.0).clamp(0.0, 1.0);
    (MIN_SPEED.ln() + fraction * (MAX_SPEED.ln() - MIN_SPEED.ln())).exp()
}

fn slider_from_speed(speed: f64) -> f64 {
    let speed = speed.clamp(MIN_SPEED, MAX_SPEED);
    1000.0 * (speed.ln() - MIN_SPEED.ln()) / (MAX_SPEED.ln() - MIN_SPEED.ln())
}

/// `value` to two significant digits, without trailing zeros: 0.1, 0.25, 0.005, 2.
fn two_digits(value: f64) -> String {
    if value >= 1.0 {
        return format!("{value:.1}").trim_end_matches(".0").to_string();
    }
    let decimals = (-value.log10()).ceil().max(0.0) as usize + 1;
    let text = format!("{value:.decimals$}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// The speed as the share of real time it shows: at 1× the cluster runs at a tenth of real time
/// (`SIMULATED_US_PER_WALL_MS_AT_1X`), and the label says so rather than a bare "1×".
pub fn speed_label(speed: f64) -> String {
    let share_of_real_time = speed * SIMULATED_US_PER_WALL_MS_AT_1X / 1_000.0;
    format!("{}× real time", two_digits(share_of_real_time))
}

#[component]
pub fn PlaybackBar() -> impl IntoView {
    let run = use_run();
    let playback = use_playback();
    let controls = use_controls();
    let now = move || format::sim_time(run.panel_view.with(|view| view.now_us));
    let play_label = move || {
        if playback.playing.get() {
            "❚❚ Pause"
        } else {
            "▶ Play"
        }
    };
    // Who leads follows every frame, like the ring beside it (a memo: the text changes only with the leader).
    let leader_now = Memo::new(move |_| run.view.with(|view| view.leader));
    // PBFT elects no leader: its replicas follow the primary of the view they are in.
    let primary_now = Memo::new(move |_| {
        run.view.with(|view| {
            let coordination = view.coordination.as_ref()?;
            let (primary, number) = agreed_primary(coordination.pbft()?)?;
            Some((names::node_name(Some(coordination), primary), number))
        })
    });
    let leader = move || match (leader_now.get(), primary_now.get()) {
        (_, Some((primary, number))) => format!("primary of view {number}: {primary}"),
        (Some(leader), None) => format!("leader: {leader}"),
        (None, None) => "no leader".to_string(),
    };
    let on_speed = move |event| {
        if let Ok(position) = event_target_value(&event).parse::<f64>() {
            controls.set_speed(speed_from_slider(position));
        }
    };
    // Redis-style servers elect nobody: leader-aimed buttons would only ever say "nothing happened".
    let has_leader = move || {
        run.panel_view.with(|view| {
            crate::world_text::client::client_path(view.coordination.as_ref())
                != crate::world_text::client::ClientPath::None
        })
    };
    view! {
        <div class="playback" role="toolbar" aria-label="Playback">
            <button class="primary wide" data-testid="play-toggle" on:click=move |_| controls.toggle_playing()
                aria-label=move || if playback.playing.get() { "Pause the simulation (space)" } else { "Play the simulation (space)" }>
                {play_label}
            </button>
            <button on:click=move |_| controls.step_back() data-testid="step-back" aria-label="Step back to the previous event (left arrow)">"◂ Back"</button>
            <button on:click=move |_| controls.step_once() data-testid="step-forward" aria-label="Step to the next event (right arrow)">"Step ▸"</button>
            <label class="speed">
                <span title="How fast the cluster runs against your clock: at 0.1× one second on screen shows 100 ms of cluster time">"Speed "<strong data-testid="speed-label">{move || speed_label(playback.speed.get())}</strong></span>
                <input type="range" min="0" max="1000" step="1" aria-label="Playback speed"
                    prop:value=move || slider_from_speed(playback.speed.get()).round().to_string()
                    on:input=on_speed />
            </label>
            <span class="clock" data-testid="sim-time" aria-live="off">{now}</span>
            <span class="leader-chip" data-testid="leader-chip">{leader}</span>
        </div>
        <div class="quick-faults" role="toolbar" aria-label="Quick faults aimed at the current leader">
            <span class="muted">"Quick faults:"</span>
            <Show when=has_leader fallback=move || view! {
                <span class="muted" data-testid="no-leader-note">{move || match primary_now.get() {
                    Some(_) => "replicas follow the primary of their view, chosen by number, not elected; pick a replica on the ring to break it or make it lie",
                    None => "these servers elect no leader; pick a node on the ring to break it",
                }}</span>
            }>
                <button class="danger" on:click=move |_| controls.apply_to_leader(|target| Action::Crash { target })
                    aria-label="Crash leader (K)" aria-keyshortcuts="K">"Crash leader"</button>
                <button on:click=move |_| controls.apply_to_leader(|target| Action::Pause { target, duration_ms: None })
                    aria-label="Pause leader (P)" aria-keyshortcuts="P">"Pause leader"</button>
                <button on:click=move |_| controls.apply_to_leader(|target| Action::Isolate { target })
                    aria-label="Isolate leader (I)" aria-keyshortcuts="I">"Isolate leader"</button>
            </Show>
            <button on:click=move |_| controls.apply(Action::Heal) aria-label="Heal all (H)" aria-keyshortcuts="H" title="Heal every link">"Heal all"</button>
            <Show when=has_leader>
                <button on:click=move |_| controls.apply(Action::Request { count: 1, target: NodeTarget::Leader, kind: RequestKind::Put })
                    aria-label="Write to leader (W)" aria-keyshortcuts="W">"Write to leader"</button>
            </Show>
        </div>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slider_ends_are_the_speed_limits_and_round_trip() {
        assert!((speed_from_slider(0.0) - MIN_SPEED).abs() < 1e-9);
        assert!((speed_from_slider(1000.0) - MAX_SPEED).abs() < 1e-9);
        for speed in [0.05, 0.3, 1.0, 4.0, 20.0] {
            assert!((speed_from_slider(slider_from_speed(speed)) - speed).abs() < 1e-9);
        }
    }

    #[test]
    fn speed_labels() {
        assert_eq!(speed_label(1.0), "0.1× real time");
        assert_eq!(speed_label(MIN_SPEED), "0.005× real time");
        assert_eq!(speed_label(2.5), "0.25× real time");
        assert_eq!(speed_label(10.0), "1× real time");
        assert_eq!(speed_label(MAX_SPEED), "2× real time");
    }
}
