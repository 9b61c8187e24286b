//! The top-level component: page frame, header and the cluster stage.

use leptos::prelude::*;

#[component]
pub fn App() -> impl IntoView {
    view! {
        <div class="app" data-testid="app-root">
            <header class="app-header">
                <h1 class="brand">"Quorum Lab"</h1>
                <p class="tagline">"Break a cluster on purpose. Watch what coordination really costs."</p>
            </header>
            <main class="stage">
                <section class="cluster-panel" aria-label="Simulated cluster">
                    <svg
                        class="cluster-view"
                        data-testid="cluster-view"
                        viewBox="0 0 1000 800"
                        role="img"
                        aria-label="Cluster view: no cluster loaded yet"
                    >
                        <circle class="cluster-ring" cx="500" cy="400" r="300"></circle>
                        <text class="cluster-empty" x="500" y="410" text-anchor="middle">
                            "No cluster running yet"
                        </text>
                    </svg>
                </section>
            </main>
        </div>
    }
}
