// Trunk's initializer (index.html names it with data-initializer): Trunk streams the wasm through these
// hooks, so the loading state can count the bytes as they arrive, and learn whether the app started.
// `total` is the wasm's size in dist/ (Trunk passes the size before wasm-opt; scripts/build/finish-page.mjs
// writes the real one); a compressed transfer is counted after decompression, so the two agree.

function megabytes(bytes) {
  return (bytes / 1_000_000).toFixed(1);
}

export default function initializer() {
  const bar = () => document.getElementById('boot-progress');
  const detail = () => document.getElementById('boot-detail');
  return {
    onProgress({ current, total }) {
      const progress = bar();
      // After a failure the loading state says why; a count arriving later must not cover that.
      if (!progress || !total || document.getElementById('boot')?.classList.contains('failed')) return;
      progress.max = total;
      progress.value = Math.min(current, total);
      const text = detail();
      if (text) text.textContent = `${megabytes(current)} of ${megabytes(total)} MB of the simulator received.`;
    },
    onSuccess() {
      // The app mounted inside init(), in this same task: removing the loading state now means no frame
      // ever shows both.
      document.getElementById('boot')?.remove();
    },
    onFailure(reason) {
      const why = reason && reason.message ? reason.message : String(reason);
      window.quorumlabBootFailed?.(
        'Quorum Lab could not start.',
        `The simulator did not load (${why}). Reload the page; if this keeps happening, this browser may ` +
          'be too old to run WebAssembly.',
      );
      console.error('Quorum Lab did not start:', reason);
    },
  };
}
