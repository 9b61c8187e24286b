//! The menu of a clicked link: cut it one way or both ways, heal every link, and give this link its
//! own network — a delay range, a drop rate, a duplicate rate — or give it back to the run's timing.
//! The form opens on what the link has now (its own settings, or the run's), and a value the engine
//! refuses (a delay past 10 s, min above max) comes back as the page's notice, changing nothing.

use super::links::LinkMenuTarget;
use crate::context::use_run;
use crate::state::controls::use_controls;
use crate::world_text::names::node_name;
use leptos::prelude::*;
use quorumlab_sim::action::{Action, NodeTarget, PPM_ONE};
use quorumlab_sim::ids::NodeId;
use quorumlab_sim::link_settings::LinkSettings;
use quorumlab_sim::view_coordination::CoordinationView;

/// What the form holds, as typed: delays in ms, rates in percent.
#[derive(Clone, Debug, PartialEq)]
pub struct LinkForm {
    pub delay_min_ms: String,
    pub delay_max_ms: String,
    pub drop_percent: String,
    pub duplicate_percent: String,
}

/// The menu's words for the link between `low` and `high`, each end by the name the ring shows
/// (`A`, not the id `n6` behind it), so the menu, its buttons and the ring name one node alike.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkMenuWords {
    pub title: String,
    pub dialog_label: String,
    pub cut_low_to_high: String,
    pub cut_high_to_low: String,
}

impl LinkMenuWords {
    pub fn for_link(coordination: Option<&CoordinationView>, low: NodeId, high: NodeId) -> Self {
        let (low, high) = (node_name(coordination, low), node_name(coordination, high));
        LinkMenuWords {
            title: format!("Link {low} — {high}"),
            dialog_label: format!("Link between {low} and {high}"),
            cut_low_to_high: format!("Cut {low} → {high}"),
            cut_high_to_low: format!("Cut {high} → {low}"),
        }
    }
}

/// The world's settings every link follows unless it has its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldNetwork {
    pub delay_ms: (u64, u64),
    pub drop_ppm: u32,
    pub duplicate_ppm: u32,
}

impl LinkForm {
    /// The form for a link with `own` settings (or none) in a world with `world`'s.
    pub fn open(own: Option<LinkSettings>, world: WorldNetwork) -> LinkForm {
        let own = own.unwrap_or_default();
        let (min_ms, max_ms) = own.delay_ms.unwrap_or(world.delay_ms);
        LinkForm {
            delay_min_ms: min_ms.to_string(),
            delay_max_ms: max_ms.to_string(),
            drop_percent: percent_text(own.drop_ppm.unwrap_or(world.drop_ppm)),
            duplicate_percent: percent_text(own.duplicate_ppm.unwrap_or(world.duplicate_ppm)),
        }
    }

    /// The settings typed, each kept only where it differs from the world's (so slowing a link does
    /// not also pin its drop rate). Malformed numbers are an error naming the field.
    pub fn settings(&self, world: WorldNetwork) -> Result<LinkSettings, String> {
        let whole = |text: &str, name: &str| {
            text.trim()
                .parse::<u64>()
                .map_err(|_| format!("{name} must be a whole number of milliseconds"))
        };
        let delay_ms = (
            whole(&self.delay_min_ms, "the shortest delay")?,
            whole(&self.delay_max_ms, "the longest delay")?,
        );
        let drop_ppm = percent_ppm(&self.drop_percent, "the drop rate")?;
        let duplicate_ppm = percent_ppm(&self.duplicate_percent, "the duplicate rate")?;
        Ok(LinkSettings {
            delay_ms: (delay_ms != world.delay_ms).then_some(delay_ms),
            drop_ppm: (drop_ppm != world.drop_ppm).then_some(drop_ppm),
            duplicate_ppm: (duplicate_ppm != world.duplicate_ppm).then_some(duplicate_ppm),
        })
    }
}

fn percent_text(ppm: u32) -> String {
    format!("{}", ppm as f64 / 10_000.0)
}

/// A percentage from 0 to 100 as parts per million.
fn percent_ppm(text: &str, name: &str) -> Result<u32, String> {
    match text.trim().parse::<f64>() {
        Ok(percent) if (0.0..=100.0).contains(&percent) => {
            Ok(((percent * 10_000.0).round() as u32).min(PPM_ONE))
        }
        _ => Err(format!("{name} is a percentage from 0 to 100")),
    }
}

#[component]
pub fn LinkMenu() -> impl IntoView {
    let controls = use_controls();
    let menu = expect_context::<LinkMenuTarget>().0;
    let choose = move |action: Option<Action>| {
        if let Some(action) = action {
            controls.apply(action);
        }
        menu.set(None);
    };
    let cut = |from: NodeId, to: NodeId, both: bool| Action::Cut {
        from: NodeTarget::Node(from),
        to: NodeTarget::Node(to),
        both,
    };
    let run = use_run();
    let words = move |low: NodeId, high: NodeId| {
        run.view
            .with_untracked(|view| LinkMenuWords::for_link(view.coordination.as_ref(), low, high))
    };
    view! {
        {move || menu.get().map(|(low, high)| {
            let words = words(low, high);
            view! {
                <div class="link-menu" role="dialog" aria-label=words.dialog_label data-testid="link-menu"
                    on:keydown=move |event| if event.key() == "Escape" { menu.set(None) }>
                    <strong>{words.title}</strong>
                    <button on:click=move |_| choose(Some(cut(low, high, false)))>{words.cut_low_to_high}</button>
                    <button on:click=move |_| choose(Some(cut(high, low, false)))>{words.cut_high_to_low}</button>
                    <button class="danger" on:click=move |_| choose(Some(cut(low, high, true)))>"Cut both ways"</button>
                    <button on:click=move |_| choose(Some(Action::Heal))>"Heal all links"</button>
                    <LinkNetworkForm low=low high=high />
                    <button class="link" on:click=move |_| choose(None)>"Close"</button>
                </div>
            }
        })}
    }
}

/// This link's own delay, drop and duplicate rates (both directions), applied or cleared.
#[component]
fn LinkNetworkForm(low: NodeId, high: NodeId) -> impl IntoView {
    let run = use_run();
    let controls = use_controls();
    let menu = expect_context::<LinkMenuTarget>().0;
    let world = move || {
        let delay_ms = run
            .scenario
            .with_untracked(|scenario| scenario.timing.network_delay_ms);
        run.view.with_untracked(|view| WorldNetwork {
            delay_ms,
            drop_ppm: view.drop_ppm,
            duplicate_ppm: view.duplicate_ppm,
        })
    };
    let own = run.view.with_untracked(|view| {
        view.link_settings
            .iter()
            .find(|setting| setting.between == (low, high))
            .map(|setting| setting.settings)
    });
    let form = RwSignal::new(LinkForm::open(own, world()));
    let problem = RwSignal::new(None::<String>);
    let apply = move |_| match form.with_untracked(|form| form.settings(world())) {
        Ok(settings) if settings.is_empty() => problem.set(Some(
            "These are the run's own settings: change a value, or clear the link".to_string(),
        )),
        Ok(settings) => {
            controls.apply(Action::SetLink {
                between: (low, high),
                settings,
            });
            menu.set(None);
        }
        Err(text) => problem.set(Some(text)),
    };
    let clear = move |_| {
        controls.apply(Action::ClearLink {
            between: Some((low, high)),
        });
        menu.set(None);
    };
    let field = move |label: &'static str,
                      testid: &'static str,
                      read: fn(&LinkForm) -> String,
                      write: fn(&mut LinkForm, String)| {
        view! {
            <label class="link-field">{label}
                <input type="text" inputmode="decimal" data-testid=testid
                    prop:value=move || form.with(read)
                    on:input=move |event| form.update(|form| write(form, event_target_value(&event)))/>
            </label>
        }
    };
    view! {
        <fieldset class="link-network" data-testid="link-network">
            <legend>"This link's network (both ways)"</legend>
            {field("Delay from (ms)", "link-delay-min", |form| form.delay_min_ms.clone(), |form, text| form.delay_min_ms = text)}
            {field("to (ms)", "link-delay-max", |form| form.delay_max_ms.clone(), |form, text| form.delay_max_ms = text)}
            {field("Drops (%)", "link-drop", |form| form.drop_percent.clone(), |form, text| form.drop_percent = text)}
            {field("Duplicates (%)", "link-duplicate", |form| form.duplicate_percent.clone(), |form, text| form.duplicate_percent = text)}
            {move || problem.get().map(|text| view! { <p class="link-problem" role="alert">{text}</p> })}
            <div class="row">
                <button class="primary" data-testid="link-apply" on:click=apply>"Apply to this link"</button>
                <button data-testid="link-clear" on:click=clear disabled=own.is_none()>"Clear"</button>
            </div>
        </fieldset>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WORLD: WorldNetwork = WorldNetwork {
        delay_ms: (5, 15),
        drop_ppm: 0,
        duplicate_ppm: 0,
    };

    #[test]
    fn a_paxos_link_names_proposer_a_as_the_ring_does_and_a_raft_link_its_servers() {
        let paxos = crate::world_text::bare_view(
            quorumlab_sim::ProtocolKind::Paxos,
            &["n1", "n2", "n3", "n4", "n5", "A", "B"],
        );
        let words = LinkMenuWords::for_link(Some(&paxos), NodeId(3), NodeId(5));
        assert_eq!(words.title, "Link n4 — A");
        assert_eq!(words.dialog_label, "Link between n4 and A");
        assert_eq!(words.cut_low_to_high, "Cut n4 → A");
        assert_eq!(words.cut_high_to_low, "Cut A → n4");
        // A plain Raft cluster has no names but its servers' own.
        let raft = LinkMenuWords::for_link(None, NodeId(3), NodeId(5));
        assert_eq!(raft.title, "Link n4 — n6");
    }

    #[test]
    fn the_form_opens_on_the_run_settings_and_keeps_only_what_changed() {
        let mut form = LinkForm::open(None, WORLD);
        assert_eq!(form.delay_min_ms, "5");
        assert_eq!(form.drop_percent, "0");
        assert!(form.settings(WORLD).unwrap().is_empty());
        form.delay_min_ms = "80".into();
        form.delay_max_ms = " 120".into();
        form.drop_percent = "12.5".into();
        assert_eq!(
            form.settings(WORLD).unwrap(),
            LinkSettings {
                delay_ms: Some((80, 120)),
                drop_ppm: Some(125_000),
                duplicate_ppm: None,
            }
        );
    }

    #[test]
    fn a_link_with_its_own_settings_opens_on_them_and_bad_numbers_say_which() {
        let own = LinkSettings {
            delay_ms: Some((60, 90)),
            duplicate_ppm: Some(50_000),
            ..LinkSettings::default()
        };
        let mut form = LinkForm::open(Some(own), WORLD);
        assert_eq!(
            (form.delay_max_ms.as_str(), form.duplicate_percent.as_str()),
            ("90", "5")
        );
        assert_eq!(form.settings(WORLD).unwrap(), own);
        form.drop_percent = "150".into();
        assert!(form.settings(WORLD).unwrap_err().contains("drop rate"));
        form.drop_percent = "0".into();
        form.delay_min_ms = "soon".into();
        assert!(form.settings(WORLD).unwrap_err().contains("shortest delay"));
    }
}
