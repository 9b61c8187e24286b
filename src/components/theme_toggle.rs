//! The header's theme switch: three pressed-or-not buttons (follow the system, light, dark). Buttons
//! rather than a menu, so each is one Tab stop and Enter or Space away, and the pressed one is announced.

use crate::theme::{ThemeChoice, ThemeState};
use leptos::prelude::*;

fn face(choice: ThemeChoice) -> (&'static str, &'static str) {
    match choice {
        ThemeChoice::System => ("◐", "Theme: follow the system"),
        ThemeChoice::Light => ("☀", "Theme: light"),
        ThemeChoice::Dark => ("☾", "Theme: dark"),
    }
}

#[component]
pub fn ThemeToggle() -> impl IntoView {
    let theme = expect_context::<ThemeState>();
    view! {
        <div class="theme-toggle" role="group" aria-label="Colour theme" data-testid="theme-toggle">
            {ThemeChoice::ALL.iter().map(|choice| {
                let choice = *choice;
                let (icon, label) = face(choice);
                view! {
                    <button aria-label=label title=label data-theme-choice=choice.as_str()
                        aria-pressed=move || (theme.choice.get() == choice).to_string()
                        on:click=move |_| theme.choice.set(choice)>
                        <span aria-hidden="true">{icon}</span>
                    </button>
                }
            }).collect_view()}
        </div>
    }
}
