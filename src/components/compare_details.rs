//! The side column's detail panels (ledger, queue numbers, inspector, client) while comparing: a switch at their top
//! says which run they show, left or right, and the panels are drawn from that run's state. Whatever
//! they do to the right run reaches both, as everything done on the right does.

use crate::context::use_selection;
use crate::state::controls::use_controls;
use crate::state::AppState;
use leptos::children::TypedChildren;
use leptos::prelude::*;
use leptos::tachys::reactive_graph::OwnedView;

#[component]
pub fn CompareDetails(children: ChildrenFn) -> impl IntoView {
    let selection = use_selection();
    let controls = use_controls();
    let hook = controls.compare();
    let showing_right = RwSignal::new(false);
    // A node picked on the right side's drawing is inspected there: the panels follow the click.
    Effect::new(move |_| {
        let picked_on_right = hook.partner.get().is_some_and(|partner| {
            partner
                .parts()
                .selection
                .selected
                .try_get()
                .flatten()
                .is_some()
        });
        if picked_on_right {
            showing_right.set(true);
        }
    });
    Effect::new(move |_| {
        if selection.selected.get().is_some() {
            showing_right.set(false);
        }
    });
    let button = move |right: bool| {
        let words = move || {
            hook.labels.with(|labels| {
                if right {
                    format!("Right · {}", labels.right)
                } else {
                    format!("Left · {}", labels.left)
                }
            })
        };
        view! {
            <button class="details-side" data-testid=if right { "details-right" } else { "details-left" }
                aria-pressed=move || (showing_right.get() == right).to_string()
                on:click=move |_| showing_right.set(right)>{words}</button>
        }
    };
    view! {
        <Show when=move || hook.is_comparing()>
            <div class="details-switch" role="group" aria-label="Which run the panels below show" data-testid="details-switch">
                <span class="details-switch-label">"Details of"</span>
                {button(false)}
                {button(true)}
            </div>
        </Show>
        {move || {
            hook.partner.track();
            let side = if showing_right.get() { hook.partner().unwrap_or(controls.root()) } else { controls.root() };
            let on_right = hook.partner().is_some() && showing_right.get();
            let children = children.clone();
            view! {
                <div class=if on_right { "details-panels on-right" } else { "details-panels" }
                    data-testid="details-panels" data-side=if on_right { "right" } else { "left" }>
                    <SideProvider side=side>{children()}</SideProvider>
                </div>
            }
        }}
    }
}

/// Gives `children` the state of `side` and every narrow part of it (`AppState::provide`) as their
/// context, under an owner of their own, as Leptos' `Provider` does for one value: the panels read the
/// side the switch names, and the contexts around this component stay the left side's.
#[component]
fn SideProvider<Chil>(side: AppState, children: TypedChildren<Chil>) -> impl IntoView
where
    Chil: IntoView + 'static,
{
    let owner = Owner::current()
        .expect("the details panels are drawn under an owner")
        .child();
    let children = children.into_inner();
    let children = owner.with(|| {
        side.provide();
        children()
    });
    OwnedView::new_with_owner(children, owner)
}
